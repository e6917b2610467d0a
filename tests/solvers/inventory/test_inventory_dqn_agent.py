"""DQN (tiny budgets: it trains, is seeded, masks infeasible orders), artifacts and the Optimization Agent."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from core.errors import SpecError
from solvers.inventory.agent import optimize
from solvers.inventory.artifacts import calculate_dqn_order, load_dqn, read_results
from solvers.inventory.dqn import DQNConfig, max_feasible, train_dqn
from solvers.inventory.spec import InventoryProblem, parse_demand

# `seconds` far above what 120 steps take: the step budget binds, which seeded determinism needs
TINY = DQNConfig(steps=120, seconds=600, envs=32, hidden=32, batch=64, eval_every=40, eval_paths=100)


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


@pytest.mark.parametrize("change", [{"seconds": float("nan")}, {"seconds": 0}, {"lr": -1e-3}])
def test_dqn_config_refuses_non_positive_budgets(change) -> None:
    with pytest.raises(SpecError) as err:
        DQNConfig(**change)
    assert err.value.field == next(iter(change))


def test_dqn_is_seeded() -> None:
    small = DQNConfig(steps=40, seconds=600, envs=16, hidden=16, batch=32, eval_every=20, eval_paths=40)
    costs = [[r["validation_cost"] for r in train_dqn(problem(), small, seed=s).curve] for s in (3, 3, 4)]
    assert costs[0] == costs[1] and costs[0] != costs[2]


def test_learning_rate_decays_when_the_time_budget_binds(trained) -> None:
    cfg = DQNConfig(steps=10**6, seconds=1.5, envs=16, hidden=16, batch=32, eval_every=10, eval_paths=20)
    result = train_dqn(problem(), cfg, seed=0)
    assert result.env_steps < 10**6 * 16 and result.curve[-1]["seconds"] >= 1.5
    lrs = [row["lr"] for row in result.curve]
    assert lrs == sorted(lrs, reverse=True)
    # The budget fraction each row's rate implies: set just before the row, so at most the row's time fraction,
    # and far above its step fraction (< 1 %), which alone would leave the rate near cfg.lr. Only a last step
    # slower than a third of the budget could fail this, so it holds on a loaded machine too.
    last = result.curve[-1]
    implied = (1 - last["lr"] / cfg.lr) / (1 - cfg.lr_final_fraction)
    assert last["seconds"] / cfg.seconds >= implied - 1e-9
    assert implied > max(0.3, 10 * last["step"] / cfg.steps)
    # the step budget binds in `trained`: it decays to the final fraction
    assert trained.curve[-1]["lr"] == pytest.approx(TINY.lr * TINY.lr_final_fraction)


def test_dqn_masks_infeasible_orders(trained) -> None:
    p = problem()
    on_hand = np.arange(0, 21)
    pipeline = np.zeros((21, 2), dtype=np.int64)
    q = trained.policy.q_values(p, 3, on_hand, pipeline)
    room = np.clip(20 - on_hand, 0, 8)
    for i, r in enumerate(room):
        assert np.isneginf(q[i, r + 1 :]).all() and np.isfinite(q[i, : r + 1]).all()
    assert (trained.policy.orders(p, 3, on_hand, pipeline) <= room).all()


def test_dqn_never_orders_what_cannot_arrive_before_the_horizon(trained) -> None:
    """T = 12, L = 2: an order in period 10 or 11 (0-based) would arrive after period 11."""
    p = problem()
    on_hand = np.zeros(5, dtype=np.int64)
    pipeline = np.zeros((5, 2), dtype=np.int64)
    for t in (10, 11):
        q = trained.policy.q_values(p, t, on_hand, pipeline)
        assert np.isneginf(q[:, 1:]).all() and np.isfinite(q[:, 0]).all()
        assert (trained.policy.orders(p, t, on_hand, pipeline) == 0).all()
    assert np.isfinite(trained.policy.q_values(p, 9, on_hand, pipeline)).all()
    assert max_feasible(p, on_hand, pipeline, np.array([9, 9, 10, 11, 11])).tolist() == [8, 8, 0, 0, 0]


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
    assert (config["max_inventory"], config["time_horizon"]) == (20, 12)
    assert (config["best_s"], config["best_S"]) == (res.s, res.S)
    rows = {r["policy"]: r for r in read_results(tmp_path)}
    assert {"sS", "dqn", "dp"} <= rows.keys()
    assert (int(rows["sS"]["s"]), int(rows["sS"]["S"])) == (res.s, res.S)
    cut = res.searches["sS_cutoff"].best_policy
    assert (int(rows["sS_cutoff"]["s"]), int(rows["sS_cutoff"]["S"])) == (cut.s, cut.S)
    assert rows["base_stock"]["s"] == rows["base_stock"]["S"] == ""
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
    assert calculate_dqn_order(0, 10, "0,0", tmp_path)["recommended_order"] == 0  # arrives after T


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


@pytest.mark.parametrize("lam", [-10.0, 10.0])
def test_the_risk_tolerance_picks_the_recommendation(lam) -> None:
    """λ = 10: L(π) ≈ mean, so the DP optimum wins; λ = -10: L(π) ≈ e^10·std, the steadiest policy wins."""
    res = optimize(problem(risk_tolerance=lam), 300, 0, False, final_paths=1000)
    ev = res.evaluations
    assert res.recommended == min(ev, key=lambda k: ev[k].mean + np.exp(-lam) * ev[k].std)
    if lam > 0:
        assert res.recommended == "dp"
    else:
        assert ev[res.recommended].std == min(e.std for e in ev.values())
        assert res.recommended != "dp"
    assert res.objective == pytest.approx(ev[res.recommended].mean + np.exp(-lam) * ev[res.recommended].std)


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


def test_training_reports_progress_between_validations_without_changing_the_result(monkeypatch):
    import solvers.inventory.dqn as dqn_module

    config = DQNConfig(steps=60, seconds=600, envs=16, hidden=16, batch=32, eval_every=60, eval_paths=50)
    quiet = train_dqn(problem(), config, seed=3)
    monkeypatch.setattr(dqn_module, "REPORT_EVERY_S", 0.0)
    seen: list[float] = []
    loud = train_dqn(problem(), config, seed=3, progress=lambda f, msg: seen.append(f))
    assert len(seen) >= 50 and seen == sorted(seen) and seen[-1] == 1.0
    assert loud.best_validation == quiet.best_validation and len(loud.curve) == len(quiet.curve)


def test_the_results_csv_carries_every_familys_parameters(tmp_path):
    from solvers.inventory.artifacts import write_artifacts
    from solvers.inventory.montecarlo import evaluate_policies
    from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy

    p = problem()
    policies = [SSPolicy(4, 9), BaseStockPolicy(9, cap=5, cutoff=True), ConstantPolicy(3), RQPolicy(4, 6)]
    evs = evaluate_policies(p, policies, 50, 0)
    keys = ["sS", "base_stock_cutoff", "constant", "rQ"]
    write_artifacts(tmp_path, p, list(zip(keys, evs, strict=True)), (4, 9), "base_stock_cutoff")
    rows = {r["policy"]: r for r in read_results(tmp_path)}
    bs = rows["base_stock_cutoff"]
    assert (bs["base_stock_level"], bs["cap"], bs["cutoff"]) == ("9", "5", "true")
    assert bs["rule"] == "base_stock(9,cap=5)+cutoff"
    assert rows["constant"]["q"] == "3" and rows["constant"]["base_stock_level"] == ""
    assert (rows["rQ"]["R"], rows["rQ"]["Q"]) == ("4", "6")
    assert (rows["sS"]["s"], rows["sS"]["S"], rows["sS"]["cutoff"]) == ("4", "9", "false")
