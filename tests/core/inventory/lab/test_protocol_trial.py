"""The lab's trial exists once (issue 30 item 1): the protocol adapter (`inventory lab run`, the page, the paper
tables) runs every treatment turn by turn in `ManagerEnv` through the one rollout loop, and its numbers are the
ones the former one-action trial (`run_treatment_a`) gave: the pinned values were recorded from it at 0b16641."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.inventory.lab import protocol, treatments
from core.inventory.lab.env import FAREWELL, TURN_LIMIT
from core.inventory.lab.generator import Scenario
from core.inventory.lab.lab import LabConfig
from core.rollout import rollout
from tests.support.lab_trials import lab_env, protocol_trial

LAB = LabConfig(protocol="mixed", n=2, seed=4, treatments=("A",), copilot_paths=30, critic_paths=10,
                assessment_paths=200)  # fmt: skip
# (turns, cost, gap, reference cost, rows right, transcript length) per scenario, from `run_treatment_a`
BEFORE = {
    0: (15, 1405.55745, -0.005330235440492874, 1413.0895500000001, 12, 35),
    1: (14, 232.63999999999993, 0.0, 232.63999999999993, 12, 33),
}


@pytest.mark.parametrize("index", [0, 1])
def test_treatment_a_runs_turn_by_turn_with_the_former_numbers(index: int) -> None:
    outcome, record, result, recorder = protocol_trial("A", LAB, Settings(), index=index)
    turns, cost, gap, reference, rows, length = BEFORE[index]
    assert outcome.status == "policy" and outcome.turns == turns and len(outcome.transcript) == length
    assert record["assessment"]["costs"]["A"] == cost and record["assessment"]["gaps"]["A"] == gap
    assert record["assessment"]["costs"]["reference"] == reference
    truth = Scenario.from_dict(lab_env(LAB, index)["scenario"]).table
    assert sum(outcome.table_matches(truth).values()) == rows
    # one step per manager message, then Fig. 4's question and the farewell as observations after the policy
    steps = recorder.record.transitions
    assert result.status.value == "done" and len(steps) == turns + 2
    assert steps[turns - 1].observation.startswith("current inventory") and steps[turns].observation == FAREWELL
    assert outcome.order_query["order_ok"] and outcome.transcript[0][0] == "consultant"  # the greeting first


def test_the_cell_metrics_come_from_the_environments_record() -> None:
    config = lab_env(LAB, 1)
    env = protocol.make_env(config)
    agent = protocol.make_agent({"name": "A", "treatment": "A"}, config, Settings())
    assert protocol.metrics(rollout(env, agent, seed=LAB.seed, max_steps=1), env) == {}  # not scored yet
    env, agent = protocol.make_env(config), protocol.make_agent({"name": "A", "treatment": "A"}, config, Settings())
    result = rollout(env, agent, seed=LAB.seed, max_steps=100)
    metrics = protocol.metrics(result, env)
    turns, cost, gap, reference, rows, _ = BEFORE[1]
    assert metrics["turns"] == turns and metrics["cost"] == cost and metrics["gap"] == gap
    assert metrics["reference_cost"] == reference and metrics["rows_right"] == rows and metrics["evaluable"] == 1.0


def test_the_turn_limit_ends_without_another_manager_reply() -> None:
    """At the limit the trial is `turn_limit` (no evaluable policy, the table so far, the reference) and the
    manager is not asked again: the transcript ends with the consultant, as the protocol's did."""
    lab = LabConfig(protocol="mixed", n=1, seed=4, treatments=("A",), copilot_paths=30, critic_paths=10,
                    assessment_paths=200, max_turns=2)  # fmt: skip
    outcome, record, result, recorder = protocol_trial("A", lab, Settings())
    assert outcome.status == "turn_limit" and outcome.turns == 2 and result.status.value == "truncated"
    assert len(outcome.transcript) == 5 and outcome.transcript[-1][0] == "consultant"
    assert recorder.record.transitions[-1].observation == TURN_LIMIT and result.total_reward == -1.0
    assert record["assessment"]["costs"]["reference"] == 1413.0895500000001 and "A" not in record["assessment"]["gaps"]


def test_a_copilot_crash_is_the_outcome_crash_with_its_table(monkeypatch) -> None:
    from core.inventory.copilot.session import Copilot

    calls = []
    respond = Copilot.respond

    def flaky(self, text):
        calls.append(text)
        if len(calls) == 2:
            raise StopIteration("a reader ran dry")
        return respond(self, text)

    monkeypatch.setattr(Copilot, "respond", flaky)
    outcome, record, result, _ = protocol_trial("A", LAB, Settings())
    assert outcome.status == "crash" and outcome.turns == 2 and "Copilot crashed: StopIteration" in outcome.error
    assert outcome.table is not None and result.status.value == "done" and outcome.parsed is None


def _openai(fake_llm) -> Settings:
    return Settings(
        provider="openai", model="m", api_key="k", base_url=fake_llm.openai_url, timeout_s=5, max_retries=0
    )


def test_c_without_the_judges_yes_has_no_policy(fake_llm) -> None:
    """C is `no_policy` when the judge says No, even when the text parses; its transcript is the parameter file
    and the answer."""
    fake_llm.script([{"text": "When inventory drops below 10, order up to 30."}, {"text": "No"}])
    outcome, record, _, _ = protocol_trial("C", LAB, _openai(fake_llm))
    assert outcome.status == "no_policy" and outcome.judge_calls == 1 and outcome.turns == 1
    assert outcome.transcript[0][1].startswith("Business parameters (extracted_params.csv)")
    assert "C" not in record["assessment"]["gaps"]


def test_a_failing_consultant_is_an_outcome_not_a_failed_cell(fake_llm) -> None:
    fake_llm.script([{"text": "How many do you sell a day?", "usage": (50, 5)}, {"text": "No"}, {"status": 500}])
    outcome, record, result, _ = protocol_trial("B", LAB, _openai(fake_llm))
    assert result.status.value == "done" and outcome.status == "error" and outcome.error
    assert outcome.judge_calls == 1 and outcome.tokens("copilot").input_tokens == 50  # the tokens so far kept


def test_treatments_keeps_only_the_prompts_the_record_and_the_optimizer() -> None:
    assert not [n for n in dir(treatments) if n.startswith("run_treatment")]
    assert not hasattr(protocol, "TrialEnv") and not hasattr(protocol, "TreatmentAgent")
