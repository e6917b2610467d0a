"""DQN (tiny budgets: it trains, is seeded, masks infeasible orders), artifacts and the Optimization Agent."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from core.errors import SpecError
from solvers.inventory.agent import optimize
from solvers.inventory.artifacts import calculate_dqn_order, load_dqn, read_results
from solvers.inventory.dqn import DQNConfig, train_dqn
from solvers.inventory.spec import InventoryProblem, parse_demand

TINY = DQNConfig(steps=120, seconds=30, envs=32, hidden=32, batch=64, eval_every=40, eval_paths=100)


def problem(**kw) -> InventoryProblem:
    base = dict(
        time_horizon=12,
        demand=parse_demand("poisson(5)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=3,
        setup_cost=2,
        lead_time=2,
        max_inventory=20,
        max_order=8,
    )
    return InventoryProblem(**(base | kw))


@pytest.fixture(scope="module")
def trained():
    return train_dqn(problem(), TINY, seed=3)


def test_dqn_trains_and_records_a_learning_curve(trained) -> None:
    assert [row["step"] for row in trained.curve] == [40, 80, 120]
    assert trained.best_validation == min(row["validation_cost"] for row in trained.curve)
    assert trained.env_steps == 120 * 32


def test_dqn_is_seeded(trained) -> None:
    again = train_dqn(problem(), TINY, seed=3)
    assert [r["validation_cost"] for r in again.curve] == [r["validation_cost"] for r in trained.curve]
    other = train_dqn(problem(), TINY, seed=4)
    assert [r["validation_cost"] for r in other.curve] != [r["validation_cost"] for r in trained.curve]


def test_dqn_masks_infeasible_orders(trained) -> None:
    p = problem()
    on_hand = np.arange(0, 21)
    pipeline = np.zeros((21, 2), dtype=np.int64)
    q = trained.policy.q_values(p, 3, on_hand, pipeline)
    room = np.clip(20 - on_hand, 0, 8)
    for i, r in enumerate(room):
        assert np.isneginf(q[i, r + 1 :]).all() and np.isfinite(q[i, : r + 1]).all()
    assert (trained.policy.orders(p, 3, on_hand, pipeline) <= room).all()


def test_optimize_writes_artifacts_and_order_round_trips(tmp_path) -> None:
    p = problem()
    seen: list[float] = []
    res = optimize(
        p, 300, 1, True, lambda f, m: seen.append(f), out_dir=tmp_path, dqn_config=TINY, final_paths=500
    )
    assert {f.name for f in tmp_path.iterdir()} == {
        "config.json",
        "dqn_weights.pth",
        "policy_evaluation_results.csv",
    }
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["state_dim"] == 4 and config["action_dim"] == 9 and config["lead_time"] == 2
    rows = {r["policy"]: r for r in read_results(tmp_path)}
    assert {"sS", "dqn", "dp"} <= rows.keys()
    assert (int(rows["sS"]["s"]), int(rows["sS"]["S"])) == (res.s, res.S)
    assert float(rows["dqn"]["mean_cost"]) == pytest.approx(res.evaluations["dqn"].mean, abs=1e-3)
    assert rows[res.recommended]["recommended"] == "true"
    objectives = {k: v.objective(p.risk_tolerance) for k, v in res.evaluations.items()}
    assert res.recommended == min(objectives, key=objectives.get)
    assert res.evaluations["dp"].mean < res.evaluations["sS"].mean
    assert seen[-1] == 1.0 and max(seen) <= 1.0
    summary = res.summary()
    assert summary["dp_mean"] == pytest.approx(res.dp.optimal_cost) and summary["dqn_mean"] is not None
    # calculate_dqn_order reproduces the loaded policy
    loaded_problem, policy = load_dqn(tmp_path)
    assert loaded_problem == p
    out = calculate_dqn_order(4, 3, "2,0", tmp_path)
    want = int(res.dqn.policy.orders(p, 3, np.array([4]), np.array([[2, 0]]))[0])
    assert out["recommended_order"] == want and isinstance(out["q_value"], float)
    assert calculate_dqn_order(4, 3, [2, 0], tmp_path) == out


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    out = tmp_path_factory.mktemp("artifacts")
    optimize(problem(), 200, 0, True, out_dir=out, dqn_config=TINY, use_dp=False, final_paths=200)
    return out


@pytest.mark.parametrize(
    ("inventory", "step", "pipeline", "field"),
    [
        (4, 3, "1", "pipeline_orders"),
        (4, 12, "0,0", "current_time_step"),
        (-1, 0, "0,0", "current_inventory"),
        (4, 0, "a,b", "pipeline_orders"),
        (15, 0, "5,5", "pipeline_orders"),
        (2.5, 0, "0,0", "current_inventory"),
    ],
)
def test_calculate_dqn_order_validates(artifacts, inventory, step, pipeline, field) -> None:
    with pytest.raises(SpecError) as err:
        calculate_dqn_order(inventory, step, pipeline, artifacts)
    assert err.value.field == field


def test_optimize_without_dqn_and_without_tractable_dp(tmp_path) -> None:
    p = problem(lead_time=3, max_inventory=100, max_order=50, time_horizon=20)
    res = optimize(p, 200, 0, False, out_dir=tmp_path, final_paths=300)
    assert res.dp is None and "states" in res.dp_refusal and res.dqn is None
    assert res.summary()["dqn_mean"] is None and res.summary()["dp_mean"] is None
    assert not (tmp_path / "dqn_weights.pth").exists()
    with pytest.raises(SpecError, match="no DQN"):
        calculate_dqn_order(0, 0, "0,0,0", tmp_path)
    with open(tmp_path / "policy_evaluation_results.csv") as f:
        assert {r["policy"] for r in csv.DictReader(f)} >= {"sS", "base_stock", "constant"}
