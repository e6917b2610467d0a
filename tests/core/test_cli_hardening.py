"""Issue 12: each hostile or careless CLI input found by hand gets a clear error naming the field (exit 2),
or a correct answer, never a traceback. In-process through `core.cli.main` (fast)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from core import cli
from solvers.inventory.spec import InventoryProblem, params_csv_text, parse_demand

SCHOOLS = "name,grade,enrollment,current_start\nA,ES,300,8:00 AM\nB,MS,500,8:40 AM\n"


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object, dict]:
    """Exit code, parsed stdout (or None) and the parsed stderr error object (or {})."""
    try:
        code = cli.main(list(argv))
    except SystemExit as stop:  # argparse usage errors
        code = int(stop.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    out = json.loads(captured.out) if captured.out.strip() else None
    err = json.loads(captured.err) if captured.err.strip() else {}
    return code, out, err


@pytest.fixture(scope="module")
def params(tmp_path_factory: pytest.TempPathFactory) -> Path:
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


def test_negative_seed_is_refused_naming_the_flag(capsys, params: Path) -> None:
    for command in (["evaluate", "--policy", "sS", "--s", "3", "--S", "10"], ["optimize", "--out", "x"]):
        code, _, err = call(capsys, "inventory", *command, "--params", str(params), "--seed", "-1")
        assert code == 2 and err["field"] == "--seed" and "4294967295" in err["error"]


@pytest.mark.parametrize(
    ("out", "reason"),
    [
        ("/proc/orca/out", "system file system"),
        ("{file}/below", "which is a file"),
        ("{file}", "is not a folder"),
        ("", "empty string"),
    ],
)
def test_optimize_out_paths_are_checked_before_any_work(
    capsys, params: Path, tmp_path: Path, out: str, reason: str
) -> None:
    target = out.format(file=params)
    code, _, err = call(capsys, "inventory", "optimize", "--params", str(params), "--out", target, "--no-dqn")
    assert code == 2 and err["field"] == "--out" and reason in err["error"]


def test_runs_list_limit_overflow(capsys, tmp_path: Path) -> None:
    code, _, err = call(capsys, "--db", str(tmp_path / "x.duckdb"), "runs", "list", "--limit", "1" + "0" * 30)
    assert code == 2 and err["field"] == "--limit" and "100,000" in err["error"]


def test_read_commands_never_create_a_store(capsys, tmp_path: Path) -> None:
    missing_dir = tmp_path / "nodir" / "orca.duckdb"
    code, _, err = call(capsys, "--db", str(missing_dir), "runs", "list")
    assert code == 2 and err["field"] == "--db" and "does not exist" in err["error"]
    typo = tmp_path / "orca.duckbd"
    for argv in (["runs", "list"], ["runs", "show", "abc"], ["runs", "delete", "abc"]):
        code, _, err = call(capsys, "--db", str(typo), *argv)
        assert code == 2 and err["field"] == "--db" and "never create" in err["error"]
    assert not typo.exists() and not missing_dir.parent.exists()
    code, _, err = call(capsys, "--db", str(tmp_path), "runs", "list")
    assert code == 2 and err["field"] == "--db" and "is a folder" in err["error"]


def test_huge_costs_are_refused_not_overflowed(capsys, tmp_path: Path) -> None:
    for cost in ("1e300", "1e308"):
        path = tmp_path / f"p{cost}.csv"
        problem = InventoryProblem(
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
        path.write_text(params_csv_text(problem).replace("penalty_cost,3,", f"penalty_cost,{cost},"))
        for command in (["dp"], ["evaluate", "--policy", "sS", "--s", "3", "--S", "10", "--paths", "50"]):
            code, _, err = call(capsys, "inventory", *command, "--params", str(path))
            assert code == 2 and err["field"] == "penalty_cost" and "at most 1,000,000,000" in err["error"]


def test_levels_above_capacity_are_refused(capsys, params: Path) -> None:
    base = ["inventory", "evaluate", "--params", str(params), "--paths", "50"]
    code, _, err = call(capsys, *base, "--policy", "sS", "--s", "3", "--S", "40")
    assert code == 2 and err["field"] == "S" and "max inventory (20)" in err["error"]
    code, _, err = call(capsys, *base, "--policy", "sS", "--s", "3", "--S", str(10**12))
    assert code == 2 and err["field"] == "--S"
    code, _, err = call(capsys, *base, "--policy", "constant", "--q", "9")
    assert code == 2 and err["field"] == "q" and "max order (8)" in err["error"]
    code, out, _ = call(capsys, *base, "--policy", "sS", "--s", "3", "--S", "20")
    assert code == 0 and out["mean"] > 0


def _artifacts(capsys, params: Path, tmp_path: Path) -> Path:
    out = tmp_path / "art"
    code, _, err = call(
        capsys,
        "inventory",
        "optimize",
        "--params",
        str(params),
        "--out",
        str(out),
        "--paths",
        "50",
        "--dqn-steps",
        "3",
    )
    assert code == 0, err
    return out


def test_order_with_damaged_artifacts(capsys, params: Path, tmp_path: Path) -> None:
    art = _artifacts(capsys, params, tmp_path)
    order = [
        "inventory",
        "order",
        "--artifacts",
        str(art),
        "--inventory",
        "3",
        "--step",
        "0",
        "--pipeline",
        "0",
    ]
    code, out, _ = call(capsys, *order)
    assert code == 0 and isinstance(out["recommended_order"], int)
    config = json.loads((art / "config.json").read_text())

    (art / "config.json").write_text(json.dumps(config | {"lead_time": "one"}))
    code, _, err = call(capsys, *order)
    assert code == 2 and err["field"] == "lead_time"

    (art / "config.json").write_text("{not json")
    code, _, err = call(capsys, *order)
    assert code == 2 and err["field"] == "artifacts" and "config.json" in err["error"]

    (art / "config.json").write_text(json.dumps(config))
    weights = art / "dqn_weights.pth"
    for payload in (b"garbage", _malicious_pickle()):
        weights.write_bytes(payload)
        code, _, err = call(capsys, *order)
        assert code == 2 and err["field"] == "artifacts" and "not a weights file" in err["error"]
    assert not Path("/tmp/orca-pwned").exists()


def _malicious_pickle() -> bytes:
    import os
    import pickle

    class Evil:
        def __reduce__(self):
            return (os.system, ("touch /tmp/orca-pwned",))

    import io

    import torch

    buf = io.BytesIO()
    torch.save({"x": Evil()}, buf, pickle_module=pickle)
    return buf.getvalue()


def test_district_paths_and_sizes(capsys, tmp_path: Path) -> None:
    code, _, err = call(capsys, "schedule", "solve", "--district", str(tmp_path))
    assert code == 2 and err["field"] == "--district" and "is a folder" in err["error"]
    huge = tmp_path / "huge.csv"
    huge.write_text(SCHOOLS.replace("300", "1000000000000000"))
    code, _, err = call(capsys, "schedule", "solve", "--district", str(huge))
    assert code == 2 and err["field"] == "enrollment" and "above the limit" in err["error"]
    zero = tmp_path / "zero.csv"
    zero.write_text(SCHOOLS.replace("300", "0").replace("500", "0"))
    code, _, err = call(capsys, "schedule", "solve", "--district", str(zero))
    assert code == 2 and err["field"] == "enrollment" and "no load to balance" in err["error"]
    times = tmp_path / "times.csv"
    times.write_text("start_time\n8:00 AM\n8:00 AM\n9:00 AM\n")
    code, _, err = call(capsys, "schedule", "solve", "--district", str(tmp_path / "ok.csv"))
    assert code == 2 and err["field"] == "--district"
    (tmp_path / "ok.csv").write_text(SCHOOLS)
    code, _, err = call(
        capsys, "schedule", "solve", "--district", str(tmp_path / "ok.csv"), "--start-times", str(times)
    )
    assert code == 2 and err["field"] == "start_times" and "more than once" in err["error"]


def test_schedule_weights_and_contradictions(capsys) -> None:
    code, _, err = call(capsys, "schedule", "solve", "--alpha", "1e300")
    assert code == 2 and err["field"] == "--alpha"
    code, _, err = call(
        capsys, "schedule", "solve", "--fix", "Everett MS=9:30 AM", "--fix", "Everett MS=7:50 AM"
    )
    assert code == 2 and err["field"] == "--fix" and "both" in err["error"]
    code, _, err = call(
        capsys, "schedule", "solve", "--fix", "Everett MS=9:30 AM", "--forbid", "Everett MS=9:30 AM"
    )
    assert code == 2 and err["field"] == "--forbid" and "both fixed at and forbidden" in err["error"]
    code, out, _ = call(capsys, "schedule", "solve", "--fix", "Everett MS=9:30 AM")
    assert code == 0 and out["status"] == "optimal" and out["schedule"]["Everett MS"] == "9:30 AM"


def test_time_limit_bounds_the_whole_command(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """An infeasible request: solve plus diagnosis stay within --time-limit. The deadline's clock is a fake one
    that each solve moves on by 30 ms, so the count of solves, not this machine's speed, decides when time runs
    out; every solve must be given at most the time left, and none may start once it is (almost) gone."""
    from types import SimpleNamespace

    from core.schedule import cli as schedule_cli
    from solvers.schedule import model

    clock, solves = [0.0], []
    fake_time = SimpleNamespace(monotonic=lambda: clock[0], perf_counter=time.perf_counter)
    make_solver = model._make_solver

    def timed_solver(spec):  # noqa: ANN001, ANN202 - the spec each solve runs with, its limit already cut
        solves.append((clock[0], spec.time_limit))
        clock[0] += 0.03
        return make_solver(spec)

    monkeypatch.setattr(schedule_cli, "time", fake_time)
    monkeypatch.setattr(model, "time", fake_time)
    monkeypatch.setattr(model, "_make_solver", timed_solver)
    code, out, _ = call(
        capsys, "schedule", "solve", "--max-load", "0", "--max-deviation", "0", "--time-limit", "0.2"
    )
    assert code == 0 and out["status"] == "infeasible"
    assert "conflicting_constraints" in out or "ran out" in out["reason"]
    assert len(solves) >= 2 and all(start + limit <= 0.2 + 1e-9 for start, limit in solves)
    assert max(start for start, _ in solves) <= 0.2 - 0.05  # no solve starts in the last 50 ms


def test_the_cli_limits_match_the_solvers() -> None:
    from core import cli_args
    from solvers.schedule.model import MAX_WEIGHT

    assert cli_args.MAX_WEIGHT == MAX_WEIGHT


def test_usage_errors_name_the_flag_or_the_stray_argument() -> None:
    from core.cli_args import usage_field

    assert usage_field("argument --seed: must be a whole number") == "--seed"
    assert usage_field("argument -h/--help: ignored") == "--help"
    assert usage_field("argument GROUP: invalid choice: 'x'") == "GROUP"
    assert usage_field("the following arguments are required: --params, --out") == "--params"
    assert usage_field("unrecognized arguments: /tmp/a/b c") == "/tmp/a/b"
    assert usage_field("something else") == "arguments"
