"""The two forms of the lab trial on the protocol's set-up (issue 30, docs/inventory_lab.md "Two forms of the
trial"): `ManagerEnv` with the offline Copilot agent and the `[env]` keys imitator_seed, assessment_seed,
copilot_seed and critic_paths set as `inventory lab run` sets them holds the same conversation and scores the
same policy at the same cost as the protocol's `run_treatment_a` and `assess`."""

from __future__ import annotations

from core.config import Settings
from core.inventory.lab import experiment
from core.inventory.lab.assessment import assess
from core.inventory.lab.config import LabConfig, make_imitator
from core.inventory.lab.generator import generate
from core.inventory.lab.treatments import CachedOptimizer, run_treatment_a, run_treatment_c
from core.recorder import Recorder
from core.rollout import rollout


def test_manager_env_on_the_protocols_set_up_scores_what_the_protocol_scores() -> None:
    lab = LabConfig(
        protocol="mixed", n=2, seed=4, treatments=("A",), copilot_paths=30, critic_paths=10, assessment_paths=200
    )
    env_config = {
        "protocol": "mixed",
        "n": 2,
        "seed": 4,
        "noise": lab.noise,
        "assessment_paths": lab.assessment_paths,
        "optimizer_paths": lab.copilot_paths,
        "critic_paths": lab.critic_paths,
        "copilot_seed": lab.seed,
        "assessment_seed": lab.seed,
        "imitator_seed": lab.seed * 100_003,
    }
    cells = experiment.instances(env_config)
    for index, scenario in enumerate(generate(2, seed=4, protocol="mixed")):
        optimizer = CachedOptimizer(lab.families, lab.capacity_basis)
        imitator = make_imitator(lab, scenario, index, Settings())
        outcome = run_treatment_a(
            scenario, imitator, Settings(), config=lab.copilot(), optimizer=optimizer, max_turns=lab.max_turns
        )
        assert outcome.status == "policy", outcome.error
        assessed = assess(scenario, {"A": outcome}, optimizer, lab.assessment())

        key, config = cells[index]
        assert key == scenario.key and config["imitator_seed"] == lab.seed * 100_003 + index
        env = experiment.make_env(config)
        agent = experiment.make_agent({"kind": "offline", "treatment": "A"}, config, Settings())
        recorder = Recorder(None, "inventory_lab")
        result = rollout(env, agent, seed=lab.seed, recorder=recorder, max_steps=lab.max_turns)
        metrics = experiment.metrics(result, env)
        # the same manager (seeded alike) said the same things, up to the protocol's Fig. 4 follow-up
        said = [text for who, text in outcome.transcript if who == "manager"][: outcome.turns]
        replies = [t.observation for t in recorder.record.transitions[:-1]]  # the last is the policy's reading
        assert metrics["turns"] == outcome.turns == len(said) > 2 and said[1:] == replies
        assert metrics["table_exact"] == float(all(outcome.table_matches(scenario.table).values()))
        assert metrics["cost"] == assessed.costs["A"] and metrics["reference_cost"] == assessed.costs["reference"]
        assert metrics["gap"] == assessed.gaps["A"]


def _openai(fake_llm) -> Settings:
    return Settings(
        provider="openai", model="m", api_key="k", base_url=fake_llm.openai_url, timeout_s=5, max_retries=0
    )


def test_c_without_the_judges_yes_has_no_policy_in_both_forms(fake_llm) -> None:
    """The protocol's C is `no_policy` when the judge says No, even when the text parses; so is ManagerEnv's."""
    (_, config), = experiment.instances({"protocol": "mixed", "n": 1, "seed": 4, "assessment_paths": 200})
    parsable = "When inventory drops below 10, order up to 30."
    fake_llm.script([{"text": parsable}, {"text": "No"}])
    agent = experiment.make_agent({"kind": "llm", "treatment": "C"}, config, _openai(fake_llm))
    env = experiment.make_env(config)
    result = rollout(env, agent, seed=0, max_steps=3)
    metrics = experiment.metrics(result, env)
    assert result.status.value == "done" and metrics["evaluable"] == 0.0 and "gap" not in metrics
    fake_llm.script([{"text": parsable}, {"text": "No"}])
    scenario = generate(1, seed=4, protocol="mixed")[0]
    assert run_treatment_c(scenario, _openai(fake_llm)).status == "no_policy"


def test_a_failing_consultant_is_an_outcome_not_a_failed_cell(fake_llm) -> None:
    """The protocol's B records an LLM error as the outcome `error` (the cell is done); so does ManagerEnv's."""
    (_, config), = experiment.instances({"protocol": "mixed", "n": 1, "seed": 4, "assessment_paths": 200})
    fake_llm.script([{"text": "How many do you sell a day?", "usage": (50, 5)}, {"text": "No"}, {"status": 500}])
    agent = experiment.make_agent({"kind": "llm", "treatment": "B"}, config, _openai(fake_llm))
    env = experiment.make_env(config)
    recorder = Recorder(None, "inventory_lab")
    result = rollout(env, agent, seed=0, recorder=recorder, max_steps=5)
    metrics = experiment.metrics(result, env)
    assert result.status.value == "done" and metrics["evaluable"] == 0.0 and metrics["turns"] == 2.0
    final = recorder.record.transitions[-1]
    assert "the consultant failed" in final.observation and final.action["error"]
    assert metrics["copilot_input_tokens"] == 50.0  # the tokens before the failure are kept


def test_a_copilot_crash_is_an_outcome_with_its_table_in_manager_env(monkeypatch) -> None:
    """The protocol records a Copilot exception as the outcome `crash` with the table so far; ManagerEnv's cell is
    done and not evaluable, with the table's metrics, instead of failing."""
    (_, config), = experiment.instances({"protocol": "mixed", "n": 1, "seed": 4, "assessment_paths": 200})
    agent = experiment.make_agent({"kind": "offline", "treatment": "A"}, config, Settings())
    env = experiment.make_env(config)
    calls = []
    real_reset = agent.reset

    def reset(seed):
        real_reset(seed)
        respond = agent.copilot.respond

        def flaky(text):
            calls.append(text)
            if len(calls) == 2:
                raise StopIteration("a reader ran dry")
            return respond(text)

        monkeypatch.setattr(agent.copilot, "respond", flaky)

    monkeypatch.setattr(agent, "reset", reset)
    recorder = Recorder(None, "inventory_lab")
    result = rollout(env, agent, seed=0, recorder=recorder, max_steps=5)
    metrics = experiment.metrics(result, env)
    assert result.status.value == "done" and metrics["evaluable"] == 0.0 and metrics["turns"] == 2.0
    assert "rows_right" in metrics and "Copilot crashed: StopIteration" in recorder.record.transitions[-1].observation


def test_the_turn_limit_is_scored_like_the_protocols_with_the_table_so_far() -> None:
    """At the turn limit the protocol's A is `turn_limit`: no evaluable policy, the table so far and the
    reference; ManagerEnv's truncated trial has the same metrics (it used to record none)."""
    lab = LabConfig(protocol="mixed", n=1, seed=4, treatments=("A",), copilot_paths=30, critic_paths=10,
                    assessment_paths=200, max_turns=2)  # fmt: skip
    scenario = generate(1, seed=4, protocol="mixed")[0]
    optimizer = CachedOptimizer(lab.families, lab.capacity_basis)
    outcome = run_treatment_a(
        scenario, make_imitator(lab, scenario, 0, Settings()), Settings(), config=lab.copilot(),
        optimizer=optimizer, max_turns=2,
    )  # fmt: skip
    assert outcome.status == "turn_limit"
    assessed = assess(scenario, {"A": outcome}, optimizer, lab.assessment())
    (_, config), = experiment.instances(
        {"protocol": "mixed", "n": 1, "seed": 4, "noise": lab.noise, "assessment_paths": 200,
         "optimizer_paths": 30, "critic_paths": 10, "copilot_seed": 4, "assessment_seed": 4,
         "imitator_seed": 4 * 100_003, "max_turns": 2}
    )  # fmt: skip
    env = experiment.make_env(config)
    agent = experiment.make_agent({"kind": "offline", "treatment": "A"}, config, Settings())
    result = rollout(env, agent, seed=4, max_steps=10)
    metrics = experiment.metrics(result, env)
    assert result.status.value == "truncated" and result.total_reward == -1.0
    assert metrics["evaluable"] == 0.0 and metrics["turns"] == 2.0 and "gap" not in metrics
    assert metrics["reference_cost"] == assessed.costs["reference"]
    assert metrics["rows_right"] == sum(outcome.table_matches(scenario.table).values())
