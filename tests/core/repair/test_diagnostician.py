"""The diagnostician: never the generator's code, exact repairs with the extended set, never a decoupled chain."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.repair.diagnostician import MODEL_HEADER, NO_RATIONAL, Diagnostician, read_name, read_statement
from core.repair.evaluate import run_offline, run_problem, run_real
from solvers.lp.env import MODEL_HEADER as ENV_MODEL_HEADER
from solvers.lp.env import LPRepairEnv, Track
from solvers.lp.errortypes import IN_AGENT_GRAMMAR, ErrorType

ROOT = Path(__file__).resolve().parents[3]
GENERATOR = ("solvers.lp.saboteur", "solvers.lp.errortypes", "solvers.lp.instance", "solvers.lp.dataset")


def _by_type(rows):
    return {r["error_type"]: r for r in rows}


# Any LP (no `_e{n}` names): the generic path, which runs the own-model tool's analysis.
GENERIC_LP = "Minimize\n obj: x + y\nSubject To\n c1: x + y >= 10\n c2: x + y <= 5\nEnd\n"
RUN_GENERIC = (
    "from core.repair.diagnostician import MODEL_HEADER, Diagnostician; "
    "agent = Diagnostician(); "
    f"action = agent.act(MODEL_HEADER + '\\n' + {GENERIC_LP!r}); "
    "assert action['name'] != 'SUBMIT', (action, agent.verdict)"
)


def _loaded_after(code: str) -> list[str]:
    """The modules loaded in a fresh interpreter after running `code`."""
    code = f"import json, sys; {code}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(out.stdout.splitlines()[-1])


def test_the_diagnostician_never_imports_the_generator() -> None:
    loaded = _loaded_after("import core.repair.diagnostician")
    assert not [m for m in GENERATOR if m in loaded], [m for m in GENERATOR if m in loaded]
    # acting on any LP runs the own-model analysis (imported lazily): still no generator module is loaded
    loaded = _loaded_after(RUN_GENERIC)
    assert "solvers.lp.analyze" in loaded
    assert not [m for m in GENERATOR if m in loaded], [m for m in GENERATOR if m in loaded]
    # the check can fail: the statement-diff reference does load the generator
    reference = _loaded_after("import core.repair.agents")
    assert {"solvers.lp.saboteur", "solvers.lp.dataset"} <= set(reference)


def test_model_header_matches_the_environment() -> None:
    assert MODEL_HEADER == ENV_MODEL_HEADER


def test_names_and_statement_are_read_generically() -> None:
    assert read_name("inv_balance_e2_t13") == read_name("inv_balance_e2_t13")
    n = read_name("inv_balance_e2_t13")
    assert (n.stem, n.echelon, n.period) == ("inv_balance", 2, 13)
    m = read_name("min_order_t4")
    assert (m.stem, m.echelon, m.period) == ("min_order", None, 4)
    s = read_statement(
        "- Holding cost per unit and period, echelons 1..3: 5, 4.5, 2\n"
        "- Order capacity: none (uncapacitated chain)\n"
        "- Lead times (periods): 1, 3, 2\n"
        "- Operational limits: backorders per echelon and period may not exceed\n"
        "    echelon 1: 3.5, 4\n"
        "- Factory supply per period at most 41.25\n"
    )
    assert s.find("holding") == (5.0, 4.5, 2.0)
    assert s.find("lead time") == (1.0, 3.0, 2.0)
    assert s.says_absent("capacity") and s.find("capacity") is None
    assert s.find("echelon 1") == (3.5, 4.0)
    assert s.find("factory supply") == (41.25,)


def test_extended_set_gives_exact_repairs_on_every_type(repair_problems) -> None:
    rows = run_offline(repair_problems, "diagnostician", extended=True)
    bad = [
        (r["error_type"], r["end_reason"]) for r in rows if not (r["rational_strict"] and r["exact_repair"])
    ]
    assert not bad


def test_paper_grammar_says_no_rational_repair_instead_of_decoupling(repair_problems) -> None:
    env = LPRepairEnv(repair_problems, protected=True, extended=False)
    for p in repair_problems:
        agent = Diagnostician(extended=False)
        row = run_problem(env, agent, p)
        dropped = [a for a in row["actions"] if a["name"] == "DROP_CONSTRAINT"]
        assert not any(str(a["arguments"]["target"]).startswith("demand_prop") for a in dropped), p.id
        if p.error_type in IN_AGENT_GRAMMAR:
            assert row["rational_strict"] and row["exact_repair"], (p.id, agent.verdict)
        else:
            assert agent.verdict.startswith(NO_RATIONAL), (p.id, agent.verdict)
            assert "UPDATE_COEF" in agent.verdict
            assert [a["name"] for a in row["actions"]] == ["SUBMIT"]


def test_without_a_statement_it_reads_the_model_alone(repair_problems) -> None:
    """Model-only: the problem section withheld; coefficient and cost errors are still found from peers."""
    by_type = {p.error_type: p for p in repair_problems}
    for e in (ErrorType.ME2, ErrorType.ME5, ErrorType.ME7, ErrorType.ME8, ErrorType.ME9, ErrorType.ME10):
        p = by_type[e]
        env = LPRepairEnv([p], protected=True, extended=True)
        agent = Diagnostician(extended=True)
        obs, _info = env.reset(options={"problem": p.id})
        obs = obs.split("## Problem", 1)[0] + "## Current State" + obs.split("## Current State", 1)[1]
        assert "Holding cost" not in obs
        for _ in range(20):
            obs, _r, done, trunc, _info = env.step(agent.act(obs))
            if done or trunc:
                break
        metrics = env.episode_metrics()
        assert metrics["rational_strict"], (p.id, agent.verdict, env.history)


@pytest.mark.parametrize("extended", [False, True])
def test_it_is_deterministic(repair_problems, extended: bool) -> None:
    a = run_offline(repair_problems[:5], "diagnostician", extended=extended)
    b = run_offline(repair_problems[:5], "diagnostician", extended=extended)
    assert [r["actions"] for r in a] == [r["actions"] for r in b]


def test_a_lowered_balance_target_is_restored_from_the_stated_numbers(repair_problems) -> None:
    """ME-3 as Table 7 states it (a balance row with an impossible target): found from the statement's numbers."""
    p = next(q for q in repair_problems if q.error_type is ErrorType.ME5)
    model = p.build()
    agent = Diagnostician(extended=True)
    agent.statement = read_statement(p.description)
    assert not [f for f in agent.diagnose(model) if f.action.target and "inv_balance" in f.action.target]
    for row in ("inv_balance_e1_t1", "inv_balance_e2_t3"):
        stated = model.row_bounds(row)[0]
        model.set_row_bounds(row, stated - 500.0, stated - 500.0)
        found = [f for f in agent.diagnose(model) if f.action.target == row]
        assert [(f.action.name.value, f.action.value) for f in found] == [("UPDATE_RHS", stated)], row
        model.set_row_bounds(row, stated, stated)


def test_model_only_restores_a_lowered_target_that_its_peers_share(repair_problems) -> None:
    """ME-3 without a statement: a later-period target that departs from its family's common value (0 upstream)."""
    p = next(q for q in repair_problems if q.error_type is ErrorType.ME5)
    model = p.build()
    agent = Diagnostician(extended=True)
    assert agent.statement is None
    assert not [f for f in agent.diagnose(model) if f.action.target and "inv_balance" in f.action.target]
    model.set_row_bounds("inv_balance_e2_t3", -500.0, -500.0)
    found = [f for f in agent.diagnose(model) if f.action.target == "inv_balance_e2_t3"]
    assert [(f.action.name.value, f.action.value) for f in found] == [("UPDATE_RHS", 0.0)]
    assert "share" in found[0].why


@pytest.mark.parametrize(("row", "kind"), [("inv_balance_e2_t1", "opening stock"), ("inv_balance_e1_t3", "demand")])
def test_model_only_says_why_an_unknowable_target_is_not_guessed(repair_problems, row: str, kind: str) -> None:
    """The first period's target (opening stock) and the retailer's (demand) have no peers: say so, never guess."""
    p = next(q for q in repair_problems if q.error_type is ErrorType.ME9)
    model = p.build()
    for fam in ("bullwhip_force", "min_order"):  # ME-9's injected rows: only the lowered target stays wrong
        for r in model.rows_matching(fam):
            model.set_row_bounds(r, -float("inf"), float("inf"))
    stated = model.row_bounds(row)[0]
    model.set_row_bounds(row, stated - 2000.0, stated - 2000.0)
    agent = Diagnostician(extended=True)
    assert agent.plan(model) == []
    assert agent.verdict.startswith(NO_RATIONAL), agent.verdict
    assert row in agent.verdict and kind in agent.verdict and "decouple" in agent.verdict


def test_model_only_never_decouples_on_a_lowered_target(repair_problems) -> None:
    p = next(q for q in repair_problems if q.error_type is ErrorType.ME3)
    env = LPRepairEnv([p], protected=True, extended=True, track=Track.MODEL_ONLY)
    agent = Diagnostician(extended=True)
    row = run_problem(env, agent, p)
    assert not [a for a in row["actions"] if a["name"] in ("DROP_CONSTRAINT", "RELAX_CONSTRAINT")]
    assert row["exact_repair"] or agent.verdict.startswith(NO_RATIONAL), agent.verdict


def test_a_fix_the_action_set_refuses_is_named_in_the_verdict(repair_problems) -> None:
    p = next(q for q in repair_problems if q.error_type is ErrorType.ME5)
    model = p.build()
    stated = model.row_bounds("inv_balance_e2_t1")[0]
    model.set_row_bounds("inv_balance_e2_t1", stated - 500.0, stated - 500.0)
    agent = Diagnostician(extended=True, protected=True)
    agent.statement = read_statement(p.description)
    plan = agent.plan(model)
    if plan:  # an action set that may re-set one named balance row
        assert plan[-1].action.target == "inv_balance_e2_t1" and plan[-1].action.value == stated
    else:  # protection refuses it: the diagnostician says so instead of relaxing something else
        assert (
            agent.verdict.startswith(NO_RATIONAL) and "refuses UPDATE_RHS(inv_balance_e2_t1" in agent.verdict
        )


@pytest.mark.parametrize("model", ["galenet", "woodinfe", "ex72a", "box1"])
def test_real_track_repairs_netlib_models_with_the_fewest_verified_changes(model: str) -> None:
    from solvers.lp.real import RealRepairEnv

    env = RealRepairEnv()
    agent = Diagnostician(protected=False)
    row = run_real(env, agent, model)
    assert row["recovered"] is True
    assert row["verified_status"] == "OPTIMAL"
    assert row["fewest"] is True
    assert row["changed"] == row["reference_fewest"]
    assert "UPDATE_COEF" not in json.dumps(row["actions"])


def test_real_track_note_names_the_iis_the_certificate_and_the_change() -> None:
    from solvers.lp.real import RealRepairEnv

    env = RealRepairEnv()
    agent = Diagnostician(protected=False)
    agent.reset(0)
    observation, _info = env.reset(options={"problem": "klein1"})
    action = agent.act(observation)
    assert action["name"] == "RELAX_CONSTRAINT"
    note = agent.last_note
    assert note.startswith("IIS (") and "Farkas certificate: Added up" in note and "relaxed by" in note
    _obs, reward, done, _trunc, _info = env.step(action)
    assert done and reward == 150.0


def test_without_model_text_it_drops_the_first_iis_row() -> None:
    observation = (
        "## Current State\n- Solver Status: INFEASIBLE\n\n## IIS (Irreducible Infeasible Subsystem)\n"
        "- Conflicting Constraints: ['c1', 'c311']\n\n" + MODEL_HEADER + "\n(omitted: 170,575 characters)"
    )
    agent = Diagnostician(protected=False)
    agent.reset(0)
    assert agent.act(observation) == {"name": "DROP_CONSTRAINT", "arguments": {"target": "c1"}}
    assert "no model text" in agent.last_note
