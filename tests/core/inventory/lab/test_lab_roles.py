"""Per-role models in the inventory lab's spec path: the manager imitator named in `[env] imitator` is the LLM
persona (it reaches the server with its model and its tokens are counted), refused without a key before any
cell, never replaced by the offline imitator; the agent's `copilot` and `judge` roles are used, the role
`imitator` goes to the environment, and an unknown role is refused rather than ignored."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.errors import SpecError
from core.inventory.lab import experiment
from core.inventory.lab.imitator import LLMImitator, OfflineImitator

ENV = {"protocol": "mixed", "n": 1, "seed": 3, "noise": 0.0, "assessment_paths": 200, "optimizer_paths": 30}


def test_an_llm_imitator_without_a_key_is_refused_up_front() -> None:
    with pytest.raises(SpecError) as err:
        experiment.instances({**ENV, "imitator": "openai:persona-m"})
    assert err.value.field == "env.imitator" and "OPENAI_API_KEY" in str(err.value)
    with pytest.raises(SpecError) as err:
        experiment.instances({**ENV, "imitator": "gemini:x"})
    assert err.value.field == "env.imitator.provider"


def test_the_named_llm_imitator_plays_the_manager(fake_llm, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"text": "About 40 a week.", "usage": (120, 8)}])
    (_, config), = experiment.instances({**ENV, "imitator": "openai:persona-m"})
    env = experiment.make_env(config)
    env.reset(seed=1)
    assert isinstance(env.imitator, LLMImitator)
    text, *_ = env.step({"say": "How many do you sell per week?"})
    assert text == "About 40 a week." and [r["body"]["model"] for r in fake_llm.requests] == ["persona-m"]
    metrics = env.episode_metrics()
    assert (metrics["imitator_input_tokens"], metrics["imitator_output_tokens"]) == (120.0, 8.0)


def test_without_an_imitator_or_with_offline_named_the_offline_imitator_runs() -> None:
    for extra in ({}, {"imitator": "offline:rules"}):
        (_, config), = experiment.instances({**ENV, **extra})
        env = experiment.make_env(config)
        env.reset(seed=1)
        assert isinstance(env.imitator, OfflineImitator)


def test_the_agent_roles_are_used_or_refused(fake_llm, monkeypatch) -> None:
    (_, config), = experiment.instances(ENV)
    judge = Settings(provider="openai", model="judge-m", api_key="k", base_url=fake_llm.openai_url)
    copilot = Settings(provider="anthropic", model="copilot-m", api_key="k", base_url=fake_llm.anthropic_url)
    agent = experiment.make_agent(
        {"name": "B", "kind": "offline", "treatment": "B"}, config, Settings(), roles={"copilot": copilot, "judge": judge}
    )
    assert agent.model.name == "copilot-m" and agent.judge.model.name == "judge-m"
    with pytest.raises(SpecError) as err:
        experiment.make_agent({"name": "B", "treatment": "B"}, config, Settings(), roles={"critic": judge})
    assert err.value.field == "agents.B.roles.critic"
    env = experiment.make_env(config, roles={"imitator": judge})  # the environment's role
    env.reset(seed=1)
    assert isinstance(env.imitator, LLMImitator) and env.imitator.model.name == "judge-m"
