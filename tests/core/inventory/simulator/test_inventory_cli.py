"""`python -m core.cli inventory ...`: every command end to end through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.inventory.spec import InventoryProblem, params_csv_text, parse_demand

ROOT = Path(__file__).resolve().parents[4]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "inventory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def params(tmp_path_factory) -> Path:
    p = InventoryProblem(
        time_horizon=12,
        demand=parse_demand("poisson(5)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=3,
        setup_cost=2,
        lead_time=1,
        max_inventory=20,
        max_order=8,
    )
    path = tmp_path_factory.mktemp("params") / "extracted_params.csv"
    path.write_text(params_csv_text(p))
    return path


def test_evaluate_each_policy(params: Path) -> None:
    for extra in (
        ["--policy", "sS", "--s", "8", "--S", "14"],
        ["--policy", "base-stock", "--S", "12", "--cap", "6"],
        ["--policy", "constant", "--q", "5", "--cutoff"],
        ["--policy", "rq", "--R", "8", "--Q", "6"],
    ):
        out = run("evaluate", "--params", str(params), "--paths", "500", "--seed", "1", *extra)
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert (
            data["ci95"][0] < data["mean"] < data["ci95"][1]
            and 0 < data["fill_rate"] <= 1
            and data["std"] > 0
        )


def test_evaluate_missing_argument_is_a_clean_error(params: Path) -> None:
    out = run("evaluate", "--params", str(params), "--policy", "sS", "--s", "8")
    assert out.returncode == 2 and "--S" in json.loads(out.stderr)["error"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["evaluate", "--policy", "sS", "--s", "8", "--S", "9", "--paths", "abc"],
            "--paths: expected a whole",
        ),
        (
            ["evaluate", "--policy", "sS", "--s", "8", "--S", "9", "--paths", "0"],
            "--paths: must lie between 1 and 1,000,000, got 0",
        ),
        (["optimize", "--out", "x", "--dqn-seconds", "nan"], "--dqn-seconds: must be a finite number"),
    ],
)
def test_bad_numbers_name_the_argument(params: Path, args: list[str], message: str) -> None:
    out = run(args[0], "--params", str(params), *args[1:])
    assert out.returncode == 2 and message in out.stderr and out.stdout == ""


def test_dp_and_refusal(params: Path, tmp_path: Path) -> None:
    out = run("dp", "--params", str(params))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["optimal_cost"] > 0
    big = InventoryProblem(
        time_horizon=90,
        demand=parse_demand("poisson(8)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=4,
        max_inventory=100,
        max_order=50,
    )
    path = tmp_path / "big.csv"
    path.write_text(params_csv_text(big))
    out = run("dp", "--params", str(path))
    assert out.returncode == 2 and "states" in json.loads(out.stderr)["error"]


def test_optimize_then_order(params: Path, tmp_path: Path) -> None:
    out = run(
        "optimize",
        "--params",
        str(params),
        "--out",
        str(tmp_path),
        "--paths",
        "300",
        "--seed",
        "2",
        "--dqn-steps",
        "60",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in (
        "recommended",
        "s",
        "S",
        "ss_mean",
        "ss_std",
        "dqn_mean",
        "dqn_std",
        "dp_mean",
        "objective",
        "seconds",
    ):
        assert key in data
    assert data["dqn_mean"] is not None and data["dp_mean"] is not None and data["s"] <= data["S"]
    assert (tmp_path / "dqn_weights.pth").is_file()
    order = run("order", "--artifacts", str(tmp_path), "--inventory", "4", "--step", "4", "--pipeline", "0")
    assert order.returncode == 0, order.stderr
    answer = json.loads(order.stdout)
    assert 0 <= answer["recommended_order"] <= 8 and isinstance(answer["q_value"], float)
    bad = run("order", "--artifacts", str(tmp_path), "--inventory", "4", "--step", "4", "--pipeline", "0,0,0")
    assert bad.returncode == 2 and "pipeline_orders" in json.loads(bad.stderr)["error"]
    missing = run("order", "--artifacts", str(tmp_path), "--inventory", "4", "--step", "4")
    assert missing.returncode == 2 and json.loads(missing.stderr)["error"].startswith("pipeline")
    assert "--pipeline is required" in json.loads(missing.stderr)["error"]
    last = run("order", "--artifacts", str(tmp_path), "--inventory", "0", "--step", "11", "--pipeline", "0")
    assert json.loads(last.stdout)["recommended_order"] == 0  # t + L > T - 1: it could not arrive


def test_order_help_counts_periods_from_zero() -> None:
    out = run("order", "--help")
    assert out.returncode == 0 and "0 = the first period" in " ".join(out.stdout.split())


def test_optimize_no_dqn(params: Path, tmp_path: Path) -> None:
    out = run("optimize", "--params", str(params), "--out", str(tmp_path), "--paths", "200", "--no-dqn")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["dqn_mean"] is None and data["dqn_std"] is None and data["recommended"] != "dqn"


def test_bad_params_file_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    p = InventoryProblem(
        time_horizon=12,
        demand=parse_demand("poisson(5)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=3,
        setup_cost=2,
        lead_time=1,
        max_inventory=20,
        max_order=8,
    )
    path.write_text(params_csv_text(p).replace("lead_time,1,", "lead_time,1.5,"))
    out = run("dp", "--params", str(path))
    assert out.returncode == 2 and "lead_time" in json.loads(out.stderr)["error"]


def test_unquoted_normal_and_non_utf8_params(params: Path, tmp_path: Path) -> None:
    text = params_csv_text(
        InventoryProblem(
            time_horizon=12,
            demand=parse_demand("normal(5,2)"),
            perishable=False,
            lost_sales=True,
            holding_cost=0.5,
            penalty_cost=3,
            setup_cost=2,
            lead_time=1,
            max_inventory=20,
            max_order=8,
        )
    )
    unquoted = tmp_path / "unquoted.csv"
    unquoted.write_text(text.replace('"normal(5,2)"', "normal(5,2)"))
    out = run(
        "evaluate", "--params", str(unquoted), "--policy", "sS", "--s", "4", "--S", "10", "--paths", "100"
    )
    assert out.returncode == 0, out.stderr
    latin = tmp_path / "latin1.csv"
    latin.write_bytes(params.read_text().replace("USD", "\u00a3").encode("latin-1"))
    out = run("dp", "--params", str(latin))
    assert out.returncode == 2 and "params_csv" in json.loads(out.stderr)["error"]


def test_order_without_lead_time_needs_no_pipeline(tmp_path: Path) -> None:
    from solvers.inventory.artifacts import write_artifacts
    from solvers.inventory.dqn import DQNPolicy, q_network

    p = InventoryProblem(
        time_horizon=12,
        demand=parse_demand("poisson(5)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=3,
        setup_cost=2,
        lead_time=0,
        max_inventory=20,
        max_order=8,
    )
    net = q_network(p.lead_time + 3, p.action_dim, 8)
    write_artifacts(tmp_path, p, [], (4, 10), "dqn", DQNPolicy(net, 1.0), dqn_hidden=8)
    out = run("order", "--artifacts", str(tmp_path), "--inventory", "4", "--step", "0")
    assert out.returncode == 0, out.stderr
    assert 0 <= json.loads(out.stdout)["recommended_order"] <= 8


@pytest.mark.parametrize(
    ("replace", "command", "field"),
    [
        (("time_horizon,12,", "time_horizon,1000000000,"), "evaluate", "time_horizon"),
        (("max_inventory,20,", "max_inventory,100000,"), "optimize", "max_inventory"),
        (("poisson(5)", '"normal(1e300,1)"'), "dp", "demand_distribution"),
        (("max_order,8,", "max_order,0,"), "dp", "max_order"),
    ],
)
def test_absurd_parameters_are_clean_errors(params: Path, tmp_path: Path, replace, command, field) -> None:
    path = tmp_path / "absurd.csv"
    path.write_text(params.read_text().replace(*replace))
    args = {
        "evaluate": ["--policy", "sS", "--s", "4", "--S", "10", "--paths", "10"],
        "optimize": ["--out", str(tmp_path / "out"), "--no-dqn"],
        "dp": [],
    }[command]
    out = run(command, "--params", str(path), *args)
    assert out.returncode == 2 and out.stdout == ""
    error = json.loads(out.stderr)
    assert error["field"] == field and error["error"].startswith(field)


def test_dp_of_a_huge_demand_is_refused(params: Path, tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text(params.read_text().replace("poisson(5)", "poisson(100000000)"))
    out = run("dp", "--params", str(path))
    assert out.returncode == 2 and "too large" in json.loads(out.stderr)["error"]


def test_order_without_artifacts_names_them(tmp_path: Path) -> None:
    out = run("order", "--artifacts", str(tmp_path / "missing"), "--inventory", "4", "--step", "0")
    assert out.returncode == 2 and json.loads(out.stderr)["field"] == "--artifacts"
