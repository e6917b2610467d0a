"""The inventory experiment adapter: instances from an `[env]` table, environments, agents from `[[agents]]`
entries and metrics, exercised through `core.rollout.rollout` as an experiment cell runs them."""

from __future__ import annotations

import numpy as np
import pytest

from core.agent import Agent
from core.errors import SpecError
from core.inventory.simulator import experiment as ex
from core.rollout import RolloutStatus, rollout
from solvers.inventory.dp import solve_dp
from solvers.inventory.env import InventoryControlEnv
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy, TablePolicy
from solvers.inventory.search import search_policies
from solvers.inventory.spec import problem_from_table


def cell(spec: dict, config: dict, seed: int):
    """What an experiment worker does for one cell."""
    env = ex.make_env(config)
    agent = ex.make_agent(spec, config, None)
    result = rollout(env, agent, seed=seed)
    return agent, result, ex.metrics(result, env)


# ---------------------------------------------------------------- instances


def test_presets_inline_named_and_common_rows() -> None:
    got = dict(
        ex.instances(
            {
                "presets": ["anchor-L1", "anchor-L2", "anchor-L3"],
                "instances": {
                    "anchor": {},
                    "backlog": {"state_transition_model": "backlog"},
                    "busy": {"preset": "bakery", "lead_time": 2, "perishability": False},
                },
                "table": {**ex.ANCHOR, "max_inventory": 50},
                "key": "big",
                "common": {"time_horizon": 20},
            }
        )
    )
    assert list(got) == ["anchor", "backlog", "busy", "big", "anchor-L1", "anchor-L2", "anchor-L3"]
    problems = {k: problem_from_table(c["table"]) for k, c in got.items()}
    assert [problems[f"anchor-L{L}"].lead_time for L in (1, 2, 3)] == [1, 2, 3]
    assert all(p.time_horizon == 20 for p in problems.values()), "common rows reach every instance"
    assert not problems["backlog"].lost_sales and problems["anchor"].lost_sales
    busy = problems["busy"]
    assert (busy.lead_time, busy.perishable, busy.demand.params, busy.max_inventory) == (
        2,
        False,
        (20.0,),
        60,
    )
    assert problems["big"].max_inventory == 50
    anchor = problems["anchor"]
    assert (anchor.demand.kind, anchor.demand.params, anchor.holding_cost, anchor.penalty_cost) == (
        "poisson", (8.0,), 0.5, 2.83,
    )  # fmt: skip
    assert all(isinstance(v, str) for c in got.values() for v in c["table"].values()), "JSON-able strings"
    assert ex.instances({}) == [("anchor", {"table": ex.instances({"presets": "anchor"})[0][1]["table"]})]
    assert len(ex.instances({"presets": "all"})) == len(ex.PRESETS)


def test_the_spec_file_form_of_the_experiment_layer() -> None:
    """`[env.instances.NAME]` tables of overrides, as data/experiments/inventory_policies.toml writes them."""
    got = ex.instances({"instances": {"anchor": {}, "backlog": {"state_transition_model": "backlog"},
                                      "lead_time_2": {"lead_time": "2"}}})  # fmt: skip
    assert [k for k, _ in got] == ["anchor", "backlog", "lead_time_2"]
    listed = ex.instances({"instances": [{"key": "a"}, {"key": "b", "lead_time": 0}]})
    assert [problem_from_table(c["table"]).lead_time for _, c in listed] == [1, 0]


def test_random_instances_are_valid_seeded_and_respect_fixed_rows() -> None:
    first = ex.instances({"random": {"count": 12, "seed": 7}})
    assert first == ex.instances({"random": {"count": 12, "seed": 7}}), "same seed, same instances"
    assert first != ex.instances({"random": {"count": 12, "seed": 8}})
    assert [k for k, _ in first][:2] == ["random-7-000", "random-7-001"]
    problems = [problem_from_table(c["table"]) for _, c in first]
    assert len({(p.lost_sales, p.perishable) for p in problems}) >= 3, "the models vary"
    assert len({p.lead_time for p in problems}) >= 3 and all(0 <= p.lead_time <= 3 for p in problems)
    assert all(p.max_order <= p.max_inventory for p in problems)
    fixed = ex.instances(
        {"random": {"count": 4, "seed": 1, "lead_time": 1, "state_transition_model": "backlog"}}
    )
    assert all(problem_from_table(c["table"]).lead_time == 1 for _, c in fixed)
    assert all(not problem_from_table(c["table"]).lost_sales for _, c in fixed)
    small = ex.instances({"random": {"count": 20, "seed": 2, "max_inventory": 6}})
    assert all(problem_from_table(c["table"]).max_order <= 6 for _, c in small), "still valid"


@pytest.mark.parametrize(
    ("env_config", "field"),
    [
        ({"presets": ["anchor-L9"]}, "env.presets"),
        ({"instances": {"x": {"lead_time": "-1"}}}, "env.instances.x.lead_time"),
        ({"instances": {"x": {"max_order": "0"}}}, "env.instances.x.max_order"),
        ({"instances": {"x": {"colour": "red"}}}, "env.instances.x.colour"),
        ({"instances": {"x": 3}}, "env.instances.x"),
        ({"instances": {"x": {"preset": "nope"}}}, "env.instances.x.preset"),
        ({"instances": {"anchor": {}}, "presets": ["anchor"]}, "env.presets"),
        ({"random": {"count": 0}}, "env.random.count"),
        ({"random": {"count": 2, "seed": -1}}, "env.random.seed"),
        ({"random": {"count": 2, "holding_cost": "cheap"}}, "env.random.holding_cost"),
        ({"horizon": 3}, "env.horizon"),
        ({"common": {"penalty_cost": "-2"}}, "env.penalty_cost"),
    ],
)
def test_bad_environment_configs_name_the_field(env_config: dict, field: str) -> None:
    with pytest.raises(SpecError) as err:
        ex.instances(env_config)
    assert err.value.field.startswith(field), err.value.field


# ---------------------------------------------------------------- environments and agents


def test_make_env_builds_the_instance() -> None:
    ((_, config),) = ex.instances({"presets": ["anchor-L3"]})
    env = ex.make_env(config)
    assert isinstance(env, InventoryControlEnv) and env.problem.lead_time == 3
    obs, _ = env.reset(seed=0)
    assert obs.tolist() == [0, 0, 0, 0, 0]
    with pytest.raises(SpecError, match="parameter table"):
        ex.make_env({})


@pytest.mark.parametrize(
    ("spec", "policy"),
    [
        ({"name": "sS-grid", "policy": "sS", "s": 10, "S": 40}, SSPolicy(10, 40)),
        ({"policy": "sS", "s": "12", "S": 30.0, "cutoff": True}, SSPolicy(12, 30, cutoff=True)),
        ({"policy": "base_stock", "S": 28}, BaseStockPolicy(28)),
        ({"policy": "base_stock", "S": 28, "cap": 10}, BaseStockPolicy(28, 10)),
        ({"policy": "constant", "q": 8}, ConstantPolicy(8)),
        ({"policy": "rQ", "R": 15, "Q": 20}, RQPolicy(15, 20)),
        (
            {
                "name": "b",
                "kind": "offline",
                "provider": None,
                "model": None,
                "framework": None,
                "params": {"policy": "sS", "s": 5, "S": 25},
                "policy": "sS",
                "s": 5,
                "S": 25,
            },
            SSPolicy(5, 25),
        ),
    ],  # fmt: skip
)
def test_agents_from_specs_match_the_evaluator_on_common_demand(spec: dict, policy) -> None:
    ((_, config),) = ex.instances({"instances": {"b": {"state_transition_model": "backlog", "lead_time": 2}}})
    agent, result, metrics = cell(spec, config, seed=11)
    assert isinstance(agent, Agent) and agent.policy == policy
    assert agent.name == spec.get("name", agent.title)
    problem = problem_from_table(config["table"])
    ev = simulate_policy(problem, policy, demand_matrix(problem, 1, 11), record=1)
    assert list(result.actions) == ev.trajectory.orders[0].tolist()
    assert metrics["total_cost"] == pytest.approx(ev.mean) == pytest.approx(-result.total_reward)
    assert metrics["fill_rate"] == pytest.approx(ev.fill_rate) and 0 <= metrics["fill_rate"] <= 1
    assert metrics["stockout_periods"] == ev.stockout_periods and metrics["steps"] == 30
    assert metrics["setup_cost"] + metrics["holding_cost"] + metrics["penalty_cost"] == pytest.approx(
        metrics["total_cost"]
    )
    assert all(isinstance(v, float) for v in metrics.values())


def test_optimize_runs_the_grid_search_for_the_instance_and_says_so() -> None:
    ((_, config),) = ex.instances({"presets": ["anchor-L1"]})
    spec = {"name": "sS-opt", "policy": "sS", "optimize": True, "paths": 300}
    agent, result, _ = cell(spec, config, seed=0)
    problem = problem_from_table(config["table"])
    best = search_policies(problem, "sS", 300, ex.SEARCH_SEED).best_policy
    assert agent.policy == best and agent.name == "sS-opt" and agent.title == ex.policy_title(best)
    env = ex.make_env(config)
    notes = []
    rollout(env, agent, seed=0, on_step=lambda row: notes.append(row.note))
    assert notes[0].startswith(f"{agent.title}, chosen by grid search on 300 paths (seed {ex.SEARCH_SEED})")
    assert all(ex.policy_title(best) not in n for n in notes[1:])
    assert ex.make_agent(spec, config, None).policy is agent.policy, "searches are cached per process"
    rq = ex.make_agent({"policy": "rQ", "optimize": True, "paths": 200, "cutoff": True}, config, None)
    assert isinstance(rq.policy, RQPolicy) and rq.policy.cutoff


def test_optimal_agent_is_the_exact_dp_and_beats_the_heuristics_on_average() -> None:
    ((_, config),) = ex.instances({"presets": ["anchor-L2"]})
    agent = ex.make_agent({"policy": "optimal"}, config, None)
    assert isinstance(agent.policy, TablePolicy) and agent.name == "DP optimum"
    problem = problem_from_table(config["table"])
    seeds = range(60)
    dp = np.array([cell({"policy": "optimal"}, config, s)[2]["total_cost"] for s in seeds])
    ss = np.array([cell({"policy": "sS", "s": 20, "S": 40}, config, s)[2]["total_cost"] for s in seeds])
    assert dp.mean() < ss.mean(), "paired on the same demand seeds, the optimum costs less on average"
    se = dp.std(ddof=1) / np.sqrt(len(dp))
    assert abs(dp.mean() - solve_dp(problem).optimal_cost) < 4 * se


def test_dqn_agent_is_trained_seeded_and_acts_greedily() -> None:
    (_, config), = ex.instances({"instances": {"small": {"time_horizon": 8, "max_inventory": 20,
                                                          "max_order": 10}}})  # fmt: skip
    spec = {"policy": "dqn", "steps": 4, "train_seed": 3}
    agent, result, metrics = cell(spec, config, seed=2)
    assert agent.title.startswith("DQN (4 training steps") and result.status is RolloutStatus.DONE
    problem = problem_from_table(config["table"])
    ev = simulate_policy(problem, agent.policy, demand_matrix(problem, 1, 2), record=1)
    assert list(result.actions) == ev.trajectory.orders[0].tolist()
    assert metrics["total_cost"] == pytest.approx(ev.mean)


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"name": "x", "policy": "magic"}, "agents.x.policy"),
        ({"name": "x", "policy": "sS", "s": 10}, "agents.x.S"),
        ({"name": "x", "policy": "sS", "s": 30, "S": 10}, "agents.x.s"),
        ({"name": "x", "policy": "sS", "s": 1.5, "S": 10}, "agents.x.s"),
        ({"name": "x", "policy": "base_stock", "S": 10, "cap": 0}, "agents.x.cap"),
        ({"name": "x", "policy": "rQ", "R": 3, "Q": 0}, "agents.x.Q"),
        ({"name": "x", "policy": "sS", "s": 1, "S": 2, "cutoff": "yes"}, "agents.x.cutoff"),
        ({"name": "x", "policy": "sS", "optimize": "please"}, "agents.x.optimize"),
        ({"name": "x", "policy": "sS", "s": 1, "S": 2, "colour": 1}, "agents.x.colour"),
        ({"name": "x", "kind": "llm", "provider": "anthropic", "model": "m"}, "agents.x.kind"),
    ],
)
def test_bad_agent_specs_name_the_field(spec: dict, field: str) -> None:
    ((_, config),) = ex.instances({})
    with pytest.raises(SpecError) as err:
        ex.make_agent(spec, config, None)
    assert err.value.field == field


def test_dp_refusal_is_a_spec_error_not_a_crash() -> None:
    ((_, config),) = ex.instances(
        {"instances": {"huge": {"lead_time": 5, "max_inventory": 200, "max_order": 100}}}
    )
    with pytest.raises(SpecError, match="too large") as err:
        ex.make_agent({"name": "opt", "policy": "optimal"}, config, None)
    assert err.value.field == "agents.opt.policy"
