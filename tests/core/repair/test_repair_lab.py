"""The LP Repair Lab's session: the page's step-by-step runs go through the one `Episode`, so they record exactly
what the batch rollout records."""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.recorder import Recorder
from core.repair.evaluate import make_offline_agent, run_problem
from core.repair.lab import RepairSession
from core.rollout import replay_run
from core.store import Store
from solvers.lp.env import LPRepairEnv
from solvers.lp.errortypes import ErrorType

COMPARED = [
    "t",
    "action",
    "reward",
    "obs_hash",
    "terminated",
    "truncated",
    "input_tokens",
    "output_tokens",
    "note",
]


@pytest.mark.parametrize(("agent_key", "error_type"), [("offline", ErrorType.ME4), ("greedy", ErrorType.ME9)])
def test_a_session_stepped_by_hand_records_what_the_batch_rollout_records(
    repair_problems, store_path, agent_key: str, error_type: ErrorType
) -> None:
    problem = next(p for p in repair_problems if p.error_type is error_type)
    store = Store(store_path)
    session = RepairSession(problem, agent_key, store=store, seed=3)
    first = session.step()
    assert first.t == 1 and first.action == session.episode.trace[0].action
    assert bool(session.metrics) == session.done, "metrics arrive when the episode ends"
    session.run()
    assert session.done and len(session.trace) == session.episode.steps + 1
    assert [s.t for s in session.trace] == list(range(len(session.trace)))
    with pytest.raises(SpecError, match="session: the episode has ended"):
        session.step()

    agent = make_offline_agent(agent_key, problem, protected=True, extended=False)
    recorder = Recorder(store, "lp_repair", seed=3)
    batch = run_problem(LPRepairEnv([problem]), agent, problem, seed=3, recorder=recorder)
    run_id = session.recorder.run_id
    stepped, looped = store.transitions(run_id), store.transitions(batch["run_id"])
    for name in COMPARED:
        assert stepped[name].tolist() == looped[name].tolist(), name
    metrics = store.get_run(run_id)["metrics"]
    assert metrics == session.metrics and metrics["agent"] == agent.name
    assert {k: v for k, v in metrics.items() if k != "agent"} == store.get_run(batch["run_id"])["metrics"]
    assert store.get_run(run_id)["status"] == "done" and session.total == batch["total_reward"]
    check = replay_run(store, run_id, LPRepairEnv([problem]), options={"problem": problem.id})
    assert check.matches, check.mismatch


def test_not_applied_checks_say_why_in_one_sentence(repair_problems) -> None:
    """Every check Table 8 leaves out for ME-7 carries one plain sentence instead of its measurement."""
    from solvers.lp.oracle import APPLICABILITY, Check

    problem = next(p for p in repair_problems if p.error_type is ErrorType.ME7)
    session = RepairSession(problem, "offline")
    session.run()
    card = session.oracle_frame().set_index("check")
    skipped = card[card["result"] == "not applied"]
    assert len(skipped) == len(Check) - len(APPLICABILITY[ErrorType.ME7]) == 4
    for detail in skipped["detail"]:
        assert detail.startswith("Table 8") and detail.count(". ") == 0 and detail.endswith(".")
    assert "ME-7" in skipped.loc["Base-stock structure", "detail"]
    assert "bullwhip" in skipped.loc["Bullwhip ratio", "detail"]


def test_a_decoupled_plan_gets_both_verdicts_and_the_strict_reason(repair_problems) -> None:
    problem = next(p for p in repair_problems if p.error_type is ErrorType.ME7)
    session = RepairSession(problem, "offline")
    assert session.verdicts() == [] and session.strict_refusal() is None
    session.run()
    got = {v.label: v.passed for v in session.verdicts()}
    assert got == {
        "rational (paper checks)": True,
        "rational (strict: echelons linked and the plan replays)": False,
        "exact repair": False,
    }
    reason = session.strict_refusal()
    assert reason is not None and "not linked" in reason and "echelon" in reason and "period" in reason


def test_a_linked_plan_has_no_strict_refusal(repair_problems) -> None:
    problem = next(p for p in repair_problems if p.error_type is ErrorType.ME9)
    session = RepairSession(problem, "offline")
    session.run()
    assert all(v.passed for v in session.verdicts()[:2]) and session.strict_refusal() is None


def test_judge_table_puts_both_rrrs_and_exact_side_by_side() -> None:
    import pandas as pd

    from core.repair.lab import judge_table

    frame = pd.DataFrame(
        {
            "agent": ["a", "a", "b"],
            "recovered": [True, True, False],
            "rational": [True, True, False],
            "rational_strict": [True, False, False],
            "exact_repair": [False, False, False],
        }
    )
    table = judge_table(frame).set_index("agent")
    assert table.loc["a", "RRR rational (paper checks)"] == 1.0
    assert table.loc["a", "RRR rational (strict: echelons linked and the plan replays)"] == 0.5
    assert table.loc["a", "exact repair"] == 0.0 and table.loc["b", "runs"] == 1
