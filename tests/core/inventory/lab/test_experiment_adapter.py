"""The lab's experiment adapter: scenarios as instances, treatments as agents, through the one rollout loop."""

from __future__ import annotations

import pytest

from core.catalog import by_key
from core.config import Settings
from core.errors import ProviderError, SpecError
from core.inventory.lab import experiment
from core.rollout import RolloutStatus, replay, rollout


@pytest.fixture(scope="module")
def instance() -> dict:
    pairs = experiment.instances(
        {"protocol": "mixed", "n": 2, "seed": 3, "noise": 0.0, "assessment_paths": 200, "optimizer_paths": 30}
    )
    assert [k for k, _ in pairs] == ["s000", "s001"]
    return pairs[0][1]


def test_catalog_names_the_adapter() -> None:
    bench = by_key("inventory_lab")
    assert bench is not None and bench.experiment_adapter == "core.inventory.lab.experiment"
    assert bench.cli_group == "inventory" and bench.title == "Inventory evaluation lab"


def test_copilot_agent_rollout_and_replay(instance: dict) -> None:
    env = experiment.make_env(instance)
    agent = experiment.make_agent({"kind": "offline", "treatment": "A"}, instance, Settings())
    result = rollout(env, agent, seed=4, max_steps=60)
    assert result.status is RolloutStatus.DONE
    m = experiment.metrics(result, env)
    assert m["table_exact"] == 1.0 and m["evaluable"] == 1.0 and m["gap"] > -0.05
    assert result.total_reward == pytest.approx(-m["gap"])
    _, again = replay(experiment.make_env(instance), list(result.actions), seed=4)
    assert again["gap"] == pytest.approx(m["gap"])
    # the manager never saw the truth spelled out as a table
    assert all("extracted_params" not in str(a) for a in result.actions)


def test_rule_agent_and_bad_actions(instance: dict) -> None:
    env = experiment.make_env(instance)
    agent = experiment.make_agent(
        {"kind": "offline", "treatment": "rule", "rule": "newsvendor_base_stock"}, instance, Settings()
    )
    result = rollout(env, agent, seed=0)
    assert result.steps == 1 and experiment.metrics(result, env)["evaluable"] == 1.0
    env.reset(seed=0)
    obs, reward, terminated, _, info = env.step({"shout": 1})
    assert obs.startswith("error") and not terminated and info["error"]
    obs, reward, terminated, _, _ = env.step({"final": "We should consider optimizing inventory."})
    assert terminated and reward == -1.0 and "not evaluable" in obs
    assert experiment.metrics(result, env)["evaluable"] == 0.0


def test_offline_llm_agents_refuse_and_bad_specs(instance: dict) -> None:
    for treatment in ("B", "C"):
        with pytest.raises(ProviderError, match="nothing is substituted"):
            experiment.make_agent({"kind": "offline", "treatment": treatment}, instance, Settings())
    with pytest.raises(SpecError):
        experiment.make_agent({"kind": "offline", "treatment": "oracle"}, instance, Settings())
    with pytest.raises(SpecError) as err:
        experiment.instances({"protocol": "paper70", "colour": "red"})
    assert err.value.field == "env.colour"


def test_shipped_specs_build_their_cells() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[4] / "data" / "experiments"
    for name in ("inventory_lab_paper70.toml", "inventory_lab_paper70_offline.toml"):
        spec = tomllib.loads((root / name).read_text())
        assert spec["workbench"] == "inventory_lab"
        pairs = experiment.instances(dict(spec["env"]))
        assert len(pairs) == 70
        for agent in spec["agents"]:
            if agent["kind"] == "offline":
                assert experiment.make_agent(agent, pairs[0][1], Settings()).name


def test_the_switches_reach_the_trial_and_the_copilot() -> None:
    """`capacity_basis` and `day_numbering` in `[env]` reach the environment's assessment and optimizer and the
    Copilot agent's configuration (its reading of 'day d' is tested in test_interpretation.py)."""
    from solvers.inventory.spec import CapacityBasis

    (_, config), *_ = experiment.instances(
        {
            "protocol": "mixed",
            "n": 1,
            "seed": 3,
            "noise": 0.0,
            "assessment_paths": 200,
            "optimizer_paths": 30,
            "capacity_basis": "on_hand",
            "day_numbering": "fig4",
        }
    )
    env = experiment.make_env(config)
    assert env.config.capacity_basis == "on_hand" and env.optimizer.capacity_basis is CapacityBasis.ON_HAND
    agent = experiment.make_agent({"kind": "offline", "treatment": "A"}, config, Settings())
    assert agent.optimizer.capacity_basis is CapacityBasis.ON_HAND
    agent.reset(0)
    assert agent.copilot.config.day_numbering == "fig4"
