"""The page's watched conversation is a rollout of `orca/SchoolSchedulingLab-v0` (issue 30): its recorded run has
the environment's transitions and metrics and replays exactly on a fresh environment."""

from __future__ import annotations

import pytest

from core.rollout import replay_run
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import DecisionProfile, Feedback, StopReason, Style
from core.schedule.lab.env import ConversationEnv
from core.schedule.lab.session import watch
from core.schedule.lab.utilities import utility_by_key
from core.store import Store

PROFILE = DecisionProfile(utility_by_key("u001"), Style.PRECISE, Feedback.RICH)


@pytest.mark.parametrize("paradigm", [Paradigm.CONVERSATION, Paradigm.ONE_SHOT])
def test_the_watched_conversation_is_recorded_as_a_replayable_rollout(tmp_path, paradigm) -> None:
    store = Store(tmp_path / "lab.duckdb")
    seen: list[dict] = []
    result = watch(PROFILE, paradigm, store=store, on_message=seen.append)
    assert seen == list(result.transcript) and result.run_id is not None
    steps = store.transitions(result.run_id)
    assert len(steps) == sum(e["role"] == "optimizer" for e in result.transcript)
    metrics = store.get_run(result.run_id)["metrics"]
    assert metrics["score"] == pytest.approx(result.score) and metrics["turns"] == result.turns
    assert metrics["solver_calls"] == result.solver_calls
    check = replay_run(store, result.run_id, ConversationEnv(PROFILE, paradigm=paradigm))
    assert check.matches, check.mismatch
    said = store.messages(result.run_id)
    assert list(said["content"]) == [e["content"] for e in result.transcript if e["role"] != "check"]


def test_the_watched_conversation_reaches_u_star_in_two_turns() -> None:
    """The numbers the page test pins (u001, precise + rich, offline T-P-P), without the page."""
    result = watch(PROFILE, "conversation")
    assert result.stop is StopReason.SATISFIED and result.turns == 2 and result.score == pytest.approx(1.0)
    assert [e["role"] for e in result.transcript] == ["optimizer", "decision", "optimizer", "decision"]


def test_the_watched_conversation_and_an_experiment_cell_are_one_conversation(tmp_path) -> None:
    """The page's conversation and the experiment cell of the same decision agent and paradigm take the same
    actions and record the same metrics (issue 30: one run path, the same numbers from every entry point)."""
    from core.rollout import rollout, stored_actions
    from core.schedule.lab import experiment

    store = Store(tmp_path / "lab.duckdb")
    watched = watch(PROFILE, "one_shot", store=store)
    (_, config), *_ = experiment.instances({"utilities": ["u001"], "styles": ["precise"], "feedbacks": ["rich"]})
    env = experiment.make_env(config)
    agent = experiment.make_agent({"design": "T-P-P", "paradigm": "one_shot"}, config)
    cell = rollout(env, agent, seed=0)
    assert list(cell.actions) == stored_actions(store, watched.run_id)
    assert cell.metrics == store.get_run(watched.run_id)["metrics"]
