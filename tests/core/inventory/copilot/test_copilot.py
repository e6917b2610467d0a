"""The Copilot session: extraction → optimize → critic → interpretation → DONE, recorded in the run store,
resumable and restartable; offline, with a DQN-recommended result, and with an LLM through the fake server."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import Settings
from core.errors import SpecError
from core.inventory.copilot.interpretation import FAREWELL, FINISHED
from core.inventory.copilot.policy_explanation import CLOSING_QUESTION
from core.inventory.copilot.session import WORKBENCH, Copilot, CopilotConfig
from core.store import Store, connection
from core.ui import STORE_LINGER_S
from solvers.inventory.agent import optimize
from solvers.inventory.spec import read_params_csv, table_from_problem
from tests.core.inventory.copilot.test_interpretation import SMALL, TINY, scenario_b_result

DIALOGUE = (
    "I sell phone cases online. Daily demand is random, Poisson with λ = 3 units a day. If we're out, customers "
    "go elsewhere. Holding a case costs $0.50 per unit per day, and each lost sale costs us $4. There's a flat "
    "$3 fee per shipment, and deliveries arrive 1 day after we order. We can store up to 15 units, and the "
    "supplier caps a single order at 10 units. Nothing perishes.",
    "Plan for 20 days.",
    "2",
)
TINY_DIALOGUE = (
    DIALOGUE[0]
    .replace("λ = 3", "λ = 2")
    .replace("up to 15 units", "up to 8 units")
    .replace("10 units", "6 units"),
    "Plan for 8 days.",
    "2",
)
FAST = CopilotConfig(paths=300, seed=0)


@pytest.fixture
def store(store_path: Path) -> Iterator[Store]:
    """The store as the Copilot page opens it (`core.ui`: the DuckDB connection kept open between calls until idle
    `STORE_LINGER_S`): a conversation makes hundreds of store calls, and opening and closing the file for each
    was about 40 % of this module's time. Released at the end, so no test sees another's connection."""
    yield Store(store_path, linger_s=STORE_LINGER_S)
    connection.release(store_path)


def _talk(copilot: Copilot, lines, progress=None):
    copilot.greeting()
    return [copilot.respond(line, progress=progress) for line in lines]


def test_hand_off_from_extraction_to_the_engine_and_interpretation(store):
    copilot = Copilot(Settings(), store, FAST)
    seen: list[tuple[float, str]] = []
    turns = _talk(copilot, DIALOGUE, progress=lambda f, m: seen.append((f, m)))
    assert [t.action for t in turns] == ["ASK NEXT QUESTION", "ASK NEXT QUESTION", "TERMINATE"]
    assert turns[0].policy is None
    final = turns[-1]
    assert set(final.to_dict()) == {"assistant", "action", "table", "policy"}
    assert all(row["status"] == "defined" for row in final.table.values())
    assert seen and seen[-1][0] == 1.0 and [f for f, _ in seen] == sorted(f for f, _ in seen)

    problem = read_params_csv(copilot.artifacts()["extracted_params.csv"])
    expected = optimize(problem, FAST.paths, FAST.seed, False)
    policy = final.policy
    assert policy["recommended"] == expected.recommended == copilot.result.recommended
    assert (policy["s"], policy["S"]) == (expected.s, expected.S)
    assert policy["recommended_mean"] == pytest.approx(
        expected.evaluations[expected.recommended].mean, abs=1e-3
    )
    assert policy["critic"]["ok"] and policy["type"] == "sS"
    assert "Thank you, the parameter table is complete" in final.assistant
    assert final.assistant.endswith(CLOSING_QUESTION)

    run = store.get_run(copilot.run_id)
    assert run["workbench"] == WORKBENCH and run["status"] == "active"
    assert run["metrics"]["recommended"] == expected.recommended
    kinds = store.steps(copilot.run_id)["kind"].tolist()
    assert kinds[:3] == ["extraction"] * 3 and {"optimize", "critic", "llm"} <= set(kinds)
    names = set(store.artifacts(copilot.run_id)["name"])
    assert {"extracted_params.csv", "conversation_log.txt", "deployment_artifacts/config.json"} <= names


def test_the_qa_ends_with_interpret_txt_and_done(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE)
    query = copilot.respond("current inventory 4, day 4, no incoming orders")
    assert query.action == "INTERPRET" and "units now" in query.assistant
    done = copilot.respond("no thanks, that's all")
    assert (done.action, done.assistant) == ("DONE", FAREWELL)
    assert copilot.phase == "done" and done.policy is not None
    assert store.get_run(copilot.run_id)["status"] == "done"
    text = store.get_artifact(copilot.run_id, "interpret.txt").decode()
    assert "[CALLING TOOL]: calculate_policy_order" in text and "User: no thanks, that's all" in text
    tools = [json.loads(p) if isinstance(p, str) else p for p in store.steps(copilot.run_id)["payload"]]
    assert any(p.get("name") == "calculate_policy_order" for p in tools)
    roles = store.messages(copilot.run_id)["role"].tolist()
    assert roles[0] == "assistant" and "tool" in roles and roles[-1] == "assistant"


def test_a_message_after_the_farewell_is_answered_and_recorded(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, (*DIALOGUE, "that's all"))
    assert copilot.phase == "done"
    shown = len(copilot.transcript())
    again = copilot.respond("current inventory 4, day 4, no incoming orders")
    assert again.action == "INTERPRET" and "units now" in again.assistant
    assert copilot.transcript()[shown:] == [
        ("user", "current inventory 4, day 4, no incoming orders"),
        ("assistant", again.assistant),
    ]
    assert store.get_run(copilot.run_id)["status"] == "active"
    assert store.messages(copilot.run_id)["content"].tolist()[-1] == again.assistant
    assert copilot.respond("thanks").action == "DONE"
    assert store.get_run(copilot.run_id)["status"] == "done"
    assert "current inventory 4" in store.get_artifact(copilot.run_id, "interpret.txt").decode()


@pytest.mark.parametrize("text", ["thanks", "ok", "hello?", "can we do another product now"])
def test_after_the_farewell_a_message_without_a_policy_question_says_how_to_go_on(store, text):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, (*DIALOGUE, "that's all"))
    archived = store.get_artifact(copilot.run_id, "interpret.txt")
    shown = len(copilot.transcript())
    turn = copilot.respond(text)
    assert turn.action == "DONE" and turn.assistant == FINISHED
    assert "new conversation" in turn.assistant and turn.policy is not None
    assert copilot.transcript()[shown:] == [("user", text), ("assistant", FINISHED)]
    assert copilot.phase == "done" and store.get_run(copilot.run_id)["status"] == "done"
    assert store.messages(copilot.run_id)["content"].tolist()[-2:] == [text, FINISHED]
    assert store.get_artifact(copilot.run_id, "interpret.txt") == archived
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    assert resumed.phase == "done" and resumed.transcript()[-1] == ("assistant", FINISHED)
    again = resumed.respond("how much should I order with 4 on hand, day 3, no incoming orders?")
    assert again.action == "INTERPRET" and "units now" in again.assistant


def test_a_reopened_conversation_resumes_open(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, (*DIALOGUE, "that's all", "why this policy?"))
    assert copilot.phase == "interpret"
    assert Copilot.resume(store, copilot.run_id, Settings()).phase == "interpret"


def test_dqn_is_off_by_default_and_on_when_the_user_asks(store):
    config = CopilotConfig(paths=100, dqn_steps=20, dqn_seconds=60, dqn_envs=8, dqn_hidden=8, seed=0)
    plain = Copilot(Settings(), None, config)
    _talk(plain, TINY_DIALOGUE)
    assert plain.result.dqn is None and "dqn" not in plain.policy["policies"]

    asked = Copilot(Settings(), store, config)
    asked.greeting()
    first = asked.respond(TINY_DIALOGUE[0] + " Please also try the DQN.")
    assert asked.use_dqn and "I will also train a DQN" in first.assistant
    assert store.get_run(asked.run_id)["config"]["copilot"]["use_dqn"] is True
    for line in TINY_DIALOGUE[1:]:
        final = asked.respond(line)
    assert final.action == "TERMINATE"
    assert asked.result.dqn is not None and final.policy["dqn_mean"] is not None
    assert "deployment_artifacts/dqn_weights.pth" in asked.artifacts()


def test_scenario_b_session_uses_the_dqn_tool(store, tmp_path):
    def dqn_wins(problem, *args, out_dir=None, **kwargs):
        assert table_from_problem(problem) == TINY
        return scenario_b_result(Path(out_dir))

    copilot = Copilot(Settings(), store, FAST, optimizer=dqn_wins, workdir=tmp_path)
    final = _talk(copilot, TINY_DIALOGUE)[-1]
    assert final.policy["type"] == "dqn" and final.policy["recommended"] == "dqn"
    assert "on-demand expert" in final.assistant
    answer = copilot.respond("current inventory 4, day 4, no incoming orders")
    assert "I recommend placing an order for" in answer.assistant
    skeptical = copilot.respond("I'm confused, what is a DQN?")
    assert f"costs {final.policy['cost_diff_pct']:.1f}% more" in skeptical.assistant
    copilot.respond("that's all")
    steps = store.steps(copilot.run_id)
    calls = [p for k, p in zip(steps["kind"], steps["payload"], strict=True) if k == "tool"]
    assert calls and calls[0]["name"] == "calculate_dqn_order"
    assert (
        "[CALLING TOOL]: calculate_dqn_order" in store.get_artifact(copilot.run_id, "interpret.txt").decode()
    )
    with zipfile.ZipFile(io.BytesIO(copilot.deployment_zip())) as archive:
        assert {"deployment_artifacts/config.json", "deployment_artifacts/dqn_weights.pth"} <= set(
            archive.namelist()
        )


def test_resume_mid_extraction_replays_the_table_without_recording_twice(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE[:2])
    before = len(store.messages(copilot.run_id))
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    assert len(store.messages(copilot.run_id)) == before
    assert resumed.phase == "extract" and resumed.table.undefined() == ["risk_tolerance"]
    assert resumed.transcript() == copilot.transcript()
    final = resumed.respond("2")
    assert final.action == "TERMINATE" and final.policy is not None
    assert store.get_run(copilot.run_id)["status"] == "active"


def test_resume_mid_interpretation_recomputes_the_same_policy(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE)
    copilot.respond("current inventory 4, day 4, no incoming orders")
    before = len(store.messages(copilot.run_id))
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    assert len(store.messages(copilot.run_id)) == before
    assert resumed.phase == "interpret"
    assert resumed.policy["recommended_mean"] == copilot.policy["recommended_mean"]
    assert resumed.transcript()[-1] == copilot.transcript()[-1]
    assert resumed.respond("that's all").action == "DONE"
    assert Copilot.resume(store, copilot.run_id, Settings()).phase == "done"


def _refuse_to_optimize(*args, **kwargs):
    raise AssertionError("resume must reuse the stored result, not optimize again")


def test_resume_after_terminate_reuses_the_stored_result(store, tmp_path):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE)
    query = "current inventory 4, day 4, no incoming orders"
    first = copilot.respond(query)
    resumed = Copilot.resume(store, copilot.run_id, Settings(), optimizer=_refuse_to_optimize, workdir=tmp_path)
    assert resumed.phase == "interpret" and resumed.policy == copilot.policy
    assert resumed.respond(query).assistant == first.assistant
    assert resumed.artifacts()["deployment_artifacts/config.json"] == copilot.artifacts()[
        "deployment_artifacts/config.json"
    ]
    kinds = list(store.steps(copilot.run_id)["kind"])
    assert kinds.count("optimize") == 1 and kinds.count("critic") == 1


def test_resume_of_a_dqn_result_reloads_the_saved_network(store, tmp_path):
    def dqn_wins(problem, *args, out_dir=None, **kwargs):
        return scenario_b_result(Path(out_dir))

    copilot = Copilot(Settings(), store, FAST, optimizer=dqn_wins, workdir=tmp_path / "first")
    _talk(copilot, TINY_DIALOGUE)
    query = "current inventory 4, day 4, no incoming orders"
    first = copilot.respond(query)
    resumed = Copilot.resume(
        store, copilot.run_id, Settings(), optimizer=_refuse_to_optimize, workdir=tmp_path / "second"
    )
    assert resumed.policy["type"] == "dqn" and resumed.brief.artifacts_dir.is_relative_to(tmp_path / "second")
    assert resumed.respond(query).assistant == first.assistant


def test_resume_optimizes_again_when_the_run_holds_no_stored_result(store, monkeypatch):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE)
    steps = store.steps

    def without_brief(run_id):
        frame = steps(run_id)
        frame["payload"] = [
            {k: v for k, v in p.items() if k != "brief"} if kind == "optimize" else p
            for kind, p in zip(frame["kind"], frame["payload"], strict=True)
        ]
        return frame

    monkeypatch.setattr(store, "steps", without_brief)
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return optimize(*args, **kwargs)

    resumed = Copilot.resume(store, copilot.run_id, Settings(), optimizer=counting)
    assert calls == [1] and resumed.policy["recommended_mean"] == copilot.policy["recommended_mean"]


def test_restart_starts_a_new_run_and_a_fresh_table(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE[:1])
    fresh = copilot.restart()
    assert fresh.run_id is None and fresh.table.undefined() == list(SMALL)
    fresh.greeting()
    fresh.respond("Lead time is 2 days")
    assert fresh.run_id != copilot.run_id
    assert len(store.list_runs(workbench=WORKBENCH)) == 2


def test_table_edits_are_logged_and_final_after_terminate(store):
    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE[:2])
    turn = copilot.user_edit("lead_time", "2")
    assert turn.table["lead_time"]["value"] == "2"
    assert "(table edit) lead_time: 1 -> 2" in store.messages(copilot.run_id)["content"].tolist()
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    assert ("edit", "lead_time: 1 -> 2") in resumed.extraction.state.log
    assert resumed.table.value("lead_time") == "2"
    with pytest.raises(SpecError):
        copilot.user_edit("max_order", "-40")
    final = copilot.user_edit("risk_tolerance", "0")
    assert final.action == "TERMINATE" and final.policy is not None
    assert "User edit: lead_time: 1 -> 2" in copilot.artifacts()["conversation_log.txt"].decode()
    with pytest.raises(SpecError):
        copilot.user_edit("lead_time", "3")


def test_empty_messages_are_refused():
    with pytest.raises(SpecError):
        Copilot(Settings()).respond("   ")


def test_llm_extraction_hands_off_to_the_engine(fake_llm, store):
    settings = Settings(
        provider="openai", model="fake", base_url=fake_llm.openai_url, api_key="k", max_retries=0
    )
    table = {k: {"value": v, "unit": "", "status": "defined"} for k, v in TINY.items()}
    reply = {"reasoning": "all given", "updated_table": table, "action": "TERMINATE", "next_question": ""}
    fake_llm.script(
        [
            {"text": json.dumps(reply)},
            {"text": "Order up to S when the position drops below s. Assumptions: as listed."},
        ]
    )
    copilot = Copilot(settings, store, FAST)
    turn = copilot.respond("Here is everything about my stock.")
    assert turn.action == "TERMINATE" and turn.policy is not None
    assert turn.assistant.endswith(CLOSING_QUESTION)
    assert len(fake_llm.requests) == 2
    assert "Lead Time is 1 day(s)" in fake_llm.requests[1]["body"]["messages"][0]["content"]


def test_resume_keeps_an_open_clarification(store):
    copilot = Copilot(Settings(), store, FAST)
    turns = _talk(copilot, ["We plan over 30 days.", "The planning horizon is 20 days."])
    assert turns[-1].action == "ASK CLARIFICATION"
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    assert [c.kind for c in resumed.table.conflicts] == [c.kind for c in copilot.table.conflicts]
    assert resumed.transcript()[-1] == ("assistant", turns[-1].assistant)
    answer = resumed.respond("B")
    assert answer.table["time_horizon"]["value"] == "20" and not resumed.table.conflicts
    assert "could not find a value" not in answer.assistant
    again = Copilot.resume(store, copilot.run_id, Settings())
    assert again.table.value("time_horizon") == "20" and not again.table.conflicts


def test_resume_reasks_an_open_clarification_after_an_unrelated_reply(store):
    copilot = Copilot(Settings(), store, FAST)
    question = _talk(copilot, ["We plan over 30 days.", "The planning horizon is 20 days."])[-1].assistant
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    turn = resumed.respond("Lead time is 2 days")
    assert turn.action == "ASK CLARIFICATION" and question in turn.assistant


def test_conflicts_survive_a_json_round_trip():
    from dataclasses import asdict

    from core.inventory.table import Conflict

    copilot = Copilot(Settings())
    copilot.respond("We plan over 30 days.")
    copilot.respond("The planning horizon is 20 days.")
    (conflict,) = copilot.table.conflicts
    assert Conflict.from_dict(json.loads(json.dumps(asdict(conflict)))) == conflict
    legacy = Conflict.from_dict(conflict.to_dict())
    assert (legacy.kind, legacy.keys, legacy.question) == (conflict.kind, conflict.keys, conflict.question)


def test_resuming_a_run_of_another_workbench_is_a_spec_error(store):
    run_id = store.create_run("policy_simulator", {}, 0, "not a chat")
    with pytest.raises(SpecError, match="not an Inventory Copilot conversation"):
        Copilot.resume(store, run_id, Settings())


def test_the_simulator_hand_off_reproduces_the_copilots_numbers(store):
    from core.inventory.simulator import inputs as sim_inputs
    from core.inventory.simulator import session as sim
    from solvers.inventory.agent import EVAL_SEED_OFFSET

    copilot = Copilot(Settings(), store, FAST)
    final = _talk(copilot, DIALOGUE)[-1]
    brief = copilot.brief
    handoff = sim_inputs.PolicyHandoff.from_dict(
        sim_inputs.policy_handoff(
            brief.rule, brief.recommended_policy, brief.paths, brief.seed + EVAL_SEED_OFFSET
        ).to_dict()
    )
    problem = read_params_csv(copilot.artifacts()["extracted_params.csv"])
    options = sim.SimulationOptions(paths=handoff.paths, trajectories=0, grid=False, dp=handoff.dp)
    choices = [handoff.choice] if handoff.choice else []
    result = sim.run_simulation(problem, choices, options, handoff.seed)
    want = final.policy["policies"][final.policy["recommended"]]
    row = result.evaluations[0]
    assert row.mean == pytest.approx(want["mean"], abs=1e-3)
    assert row.fill_rate == pytest.approx(want["fill_rate"], abs=1e-4)


@pytest.mark.parametrize(
    ("rule", "policy", "kind", "params", "cutoff"),
    [
        ({"kind": "base_stock", "S": 48, "cap": 24, "cutoff": True}, "base_stock(48,cap=24)+cutoff",
         "base_stock", {"S": 48, "cap": 24}, True),
        ({"kind": "constant", "q": 25, "cutoff": False}, "constant(25)", "constant", {"q": 25}, False),
        ({"kind": "sS", "s": 3, "S": 9, "cutoff": True}, "sS(3,9)+cutoff", "sS", {"s": 3, "S": 9}, True),
    ],
)
def test_the_hand_off_carries_family_parameters_cap_and_cutoff(rule, policy, kind, params, cutoff):
    from core.inventory.simulator.inputs import policy_handoff

    handoff = policy_handoff(rule, policy, 2000, 7)
    assert (handoff.choice.kind, dict(handoff.choice.params), handoff.choice.cutoff) == (kind, params, cutoff)
    assert handoff.choice.build().name == policy
    assert policy_handoff({"kind": "table"}, "dp", 2000, 7).dp


def test_a_failed_provider_call_on_the_first_message_leaves_no_run(store, monkeypatch):
    from core.errors import ProviderError

    copilot = Copilot(Settings(), store, FAST)
    copilot.greeting()

    def down(text):
        raise ProviderError("the provider is unreachable")

    monkeypatch.setattr(copilot.extraction, "respond", down)
    with pytest.raises(ProviderError):
        copilot.respond(DIALOGUE[0])
    assert copilot.run_id is None and store.list_runs(workbench=WORKBENCH).empty
    with pytest.raises(SpecError):
        copilot.user_edit("lead_time", "minus three")
    assert store.list_runs(workbench=WORKBENCH).empty


def test_every_step_records_its_latency_and_the_status_is_of_the_one_vocabulary(store):
    from core.recorder import RunStatus

    copilot = Copilot(Settings(), store, FAST)
    _talk(copilot, DIALOGUE)
    steps = store.steps(copilot.run_id)
    assert steps["latency_ms"].notna().all(), steps[["kind", "latency_ms"]]
    assert (steps.loc[steps["kind"].isin(["optimize", "extraction"]), "latency_ms"] > 0).all()
    assert store.get_run(copilot.run_id)["status"] in set(RunStatus)


def test_a_skipped_row_is_marked_as_an_assumption_in_the_csv_the_table_and_the_explanation(store):
    copilot = Copilot(Settings(), store, FAST)
    turns = _talk(copilot, [*TINY_DIALOGUE[:-1], "use a default"])
    assert turns[-1].action == "TERMINATE", turns[-1].assistant
    assert set(copilot.assumptions) == {"risk_tolerance"}
    rows = {r["parameter"]: r for r in csv.DictReader(io.StringIO(copilot.artifacts()["extracted_params.csv"].decode()))}
    assert rows["risk_tolerance"]["assumption"].startswith("assumed (not given by you): risk-neutral")
    assert [k for k, r in rows.items() if r["assumption"]] == ["risk_tolerance"]
    assert read_params_csv(copilot.artifacts()["extracted_params.csv"]).risk_tolerance == 0
    said = [a for a in turns[-1].policy["critic"]["assumptions"] if "did not give the risk tolerance" in a]
    assert said and "risk tolerance = 0" in said[0]
    assert "did not give the risk tolerance" in turns[-1].assistant
    resumed = Copilot.resume(store, copilot.run_id, Settings(), FAST)
    assert resumed.assumptions == copilot.assumptions
