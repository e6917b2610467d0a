"""The lab's experiment adapter: instances, offline and LLM agents, and one rollout through the shared loop."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.errors import SpecError
from core.rollout import rollout
from core.schedule.lab import experiment


def test_instances_and_errors() -> None:
    pairs = experiment.instances({"utilities": 2, "styles": ["precise"]})
    assert [k for k, _ in pairs] == [
        "u001-precise-binary",
        "u001-precise-rich",
        "u002-precise-binary",
        "u002-precise-rich",
    ]
    with pytest.raises(SpecError, match="utilities"):
        experiment.instances({"utilities": 0})
    env = experiment.make_env(pairs[0][1])
    with pytest.raises(SpecError, match="design"):
        experiment.make_agent({"kind": "offline", "design": "C-P-P"}, pairs[0][1])
    with pytest.raises(SpecError, match="paradigm"):
        experiment.make_agent({"paradigm": "telepathy"}, pairs[0][1])
    assert env.paradigm.value == "conversation"


def test_unique_env_field_uses_the_papers_strict_set() -> None:
    pairs = experiment.instances({"unique": True})
    assert len(pairs) == 4 * 92 and pairs[0][0] == "p001-vague-binary"
    env = experiment.make_env(pairs[0][1])
    assert env.profile.utility.key == "p001"
    with pytest.raises(SpecError, match="env.unique"):
        experiment.instances({"unique": "yes"})


def test_offline_rollout_scores_the_conversation() -> None:
    config = dict(experiment.instances({"utilities": 1, "styles": ["precise"], "feedbacks": ["rich"]})[0][1])
    env = experiment.make_env(config)
    agent = experiment.make_agent({"kind": "offline", "design": "T-P-P"}, config)
    result = rollout(env, agent, seed=0)
    metrics = experiment.metrics(result, env)
    assert metrics["success"] == 1.0 and metrics["score"] == pytest.approx(1.0)
    assert metrics["turns"] == 2.0 and result.total_reward == pytest.approx(1.0)
    assert metrics["solver_calls"] >= 2


def test_llm_code_design_rollout_against_the_fake_server(fake_llm) -> None:
    config = dict(
        experiment.instances({"utilities": 1, "styles": ["precise"], "feedbacks": ["binary"]})[0][1]
    )
    env = experiment.make_env(config)
    settings = Settings(
        provider="openai", model="m", base_url=fake_llm.openai_url, api_key="sk-test", max_retries=1
    )
    fake_llm.script(
        [
            {"tool_calls": [{"name": "execute_code", "arguments": {"code": "result = {}"}}]},
            {"text": "Here is the base schedule."},  # no table written: the decision agent cannot check it
        ]
        + [{"text": "I could not change anything."}] * 30
    )
    agent = experiment.make_agent(
        {"kind": "llm", "design": "C-P-P", "paradigm": "conversation"}, config, settings
    )
    result = rollout(env, agent, seed=0, max_steps=30)
    metrics = experiment.metrics(result, env)
    assert metrics["success"] == 0.0 and metrics["score"] == 0.0  # nothing readable was proposed
    assert metrics["stop"] == 1.0  # the decision agent ended the conversation (__END__)
    assert agent.optimizer.solver_calls == 1


def test_lab_spec_is_the_cli_spec_and_names_an_llm_optimizer():
    """Issue 30: `schedule lab run` and the page build their spec with the one builder, `lab_spec`."""
    import argparse

    from core.experiments.spec import from_dict
    from core.schedule.lab.cli import register_lab, spec_dict
    from core.schedule.lab.experiment import lab_spec
    from core.schedule.lab.optimization_agents import OptimizerSpec

    parser = argparse.ArgumentParser()
    register_lab(parser.add_subparsers())
    args = parser.parse_args(["lab", "run", "--paradigm", "one_shot", "--utilities", "2", "--name", "x"])
    assert from_dict(spec_dict(args)).experiment_id == from_dict(
        lab_spec(["one_shot"], utilities=2, name="x")
    ).experiment_id
    llm = from_dict(
        lab_spec(["conversation"], utilities=1, name="y", optimizer=OptimizerSpec("C-P-P", "llm"),
                 provider="openai", model="m")  # fmt: skip
    )
    agent = llm.agents[0]
    assert (agent.name, agent.kind, agent.provider, agent.model) == ("cpp_conversation", "llm", "openai", "m")
    assert "C-P-P (LLM) over openai/m" in llm.description


def test_driver_env_passes_the_pages_key_and_url_to_the_background_driver():
    from core.schedule.lab.experiment import driver_env

    assert driver_env(None) == {} and driver_env(Settings.from_env({})) == {}
    typed = Settings.from_env({"OPENAI_API_KEY": "sk-typed", "OPENAI_BASE_URL": "http://x/v1"}, "openai")
    assert driver_env(typed) == {"OPENAI_API_KEY": "sk-typed", "OPENAI_BASE_URL": "http://x/v1"}
