"""The turn-by-turn form of the lab trial (`ManagerEnv` and its agents) records each agent-side role's tokens
(issue 30): the agents report them with their actions, the environment makes them the cell's metrics, and they
equal what the fake server reported; the Copilot's tokens are the run's."""

from __future__ import annotations

import json

from core.config import Settings
from core.inventory.lab import experiment
from core.llm import Usage
from core.recorder import Recorder
from core.rollout import rollout

ENV = {"protocol": "mixed", "n": 1, "seed": 4, "noise": 0.0, "assessment_paths": 200, "optimizer_paths": 30}


def _openai(fake_llm) -> Settings:
    return Settings(
        provider="openai", model="m", api_key="k", base_url=fake_llm.openai_url, timeout_s=5, max_retries=0
    )


def test_treatment_b_in_manager_env_records_the_consultant_and_the_judge_apart(fake_llm) -> None:
    (_, config), = experiment.instances(ENV)
    fake_llm.script(
        [
            {"text": "What is your storage capacity?", "usage": (100, 5)},
            {"text": "No", "usage": (20, 1)},
            {"text": "When inventory drops below 10, order up to 30.", "usage": (300, 15)},
            {"text": "Yes", "usage": (40, 1)},
        ]
    )
    agent = experiment.make_agent({"name": "B", "kind": "llm", "treatment": "B"}, config, _openai(fake_llm))
    env = experiment.make_env(config)
    recorder = Recorder(None, "inventory_lab")
    result = rollout(env, agent, seed=0, recorder=recorder, max_steps=10)
    metrics = experiment.metrics(result, env)
    assert (metrics["copilot_input_tokens"], metrics["copilot_output_tokens"]) == (400.0, 20.0)
    assert (metrics["judge_input_tokens"], metrics["judge_output_tokens"]) == (60.0, 2.0)
    assert agent.usage == Usage(460, 22)
    steps = recorder.record.transitions
    assert sum(t.input_tokens for t in steps) == 460 and sum(t.output_tokens for t in steps) == 22
    assert json.loads(json.dumps(steps[-1].action))["tokens"] == {"copilot": [400, 20], "judge": [60, 2]}


def test_the_llm_copilot_agent_reports_its_extraction_tokens(fake_llm) -> None:
    (_, config), = experiment.instances(ENV)
    ask = {
        "reasoning": "nothing known yet",
        "updated_table": {},
        "action": "ASK NEXT QUESTION",
        "next_question": "What is your storage capacity, in units?",
    }
    fake_llm.script([{"text": json.dumps(ask), "usage": (900, 30)}])
    agent = experiment.make_agent({"name": "A", "kind": "llm", "treatment": "A"}, config, _openai(fake_llm))
    env = experiment.make_env(config)
    observation, _ = env.reset(seed=0)
    agent.reset(0)
    action = agent.act(observation)
    assert action["say"] == ask["next_question"] and action["tokens"] == {"copilot": [900, 30]}
    assert agent.usage == Usage(900, 30)
    env.step(action)
    assert env.episode_metrics()["copilot_input_tokens"] == 900.0


def test_offline_agents_report_no_tokens_and_bad_counts_are_ignored() -> None:
    (_, config), = experiment.instances(ENV)
    agent = experiment.make_agent({"name": "A", "kind": "offline", "treatment": "A"}, config, Settings())
    env = experiment.make_env(config)
    observation, _ = env.reset(seed=0)
    agent.reset(0)
    assert "tokens" not in agent.act(observation)  # an offline agent's actions are what they were
    env.step({"say": "How many days?", "tokens": {"copilot": [-1, 2], "imitator": [5, 5], "judge": [3, 4]}})
    metrics = env.episode_metrics()
    assert "copilot_input_tokens" not in metrics and "imitator_input_tokens" not in metrics
    assert metrics["judge_input_tokens"] == 3.0
