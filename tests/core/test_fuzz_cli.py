"""Fuzz suite (issue 12): generated bad values thrown at every CLI command and both chat protocols, in-process
through `core.cli.main`. Whatever comes in: exit code 0 or 2, never a traceback, an error is one JSON object
naming a field, every chat line is answered, and no JSON output holds NaN or infinities.

Hypothesis runs derandomized (the same examples on every run), so a failure reproduces; the budget per
command is small to keep the whole file well under a minute.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import cli
from core.store import Store
from solvers.inventory.spec import InventoryProblem, params_csv_text, parse_demand

FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Values a hostile or careless user types where a number is expected.
NASTY_NUMBERS = st.sampled_from(
    [
        "",
        " ",
        "-1",
        "0",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "1e308",
        "1e300",
        "-1e308",
        "1e-320",
        "0x10",
        "1_000",
        "١٢",
        "--",
        "1" + "0" * 30,
        "-" + "9" * 40,
        "3.5",
        "1,000",
        "10**9",
        "\x00",
        "\udcff",
    ]
)
NUMBERS = st.one_of(
    NASTY_NUMBERS,
    st.integers(-(10**25), 10**25).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
TEXT = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs",), blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    ),
    max_size=40,
)


def _reject_constant(name: str) -> Any:
    raise AssertionError(f"NaN/infinity in JSON output: {name}")


def _strict_json(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run the CLI in-process; check the invariants every command must keep; return (code, out, err)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 2
    finally:
        sys.stdin = saved
    stdout, stderr = out.getvalue(), err.getvalue()
    assert code in (0, 2), (argv, code, stderr[-2000:])
    assert "Traceback" not in stderr, (argv, stderr[-2000:])
    if code == 2:
        error = _strict_json(stderr.strip().splitlines()[-1])
        assert isinstance(error["error"], str) and error["error"]
        assert isinstance(error["field"], str) and error["field"], error
    for line in stdout.splitlines():
        _strict_json(line)
    return code, stdout, stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Inputs for the commands; the working folder is a temporary one (relative --out paths land there)."""
    root = tmp_path_factory.mktemp("fuzz")
    cwd = Path.cwd()
    os.chdir(root)
    try:
        yield _files(root)
    finally:
        os.chdir(cwd)


def _files(root: Path) -> dict[str, Path]:
    problem = InventoryProblem(
        time_horizon=8,
        demand=parse_demand("poisson(3)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=3,
        setup_cost=2,
        lead_time=1,
        max_inventory=12,
        max_order=6,
    )
    params = root / "params.csv"
    params.write_text(params_csv_text(problem))
    db = root / "orca.duckdb"
    store = Store(db)
    run_id = store.create_run("inventory_copilot", {"x": 1}, title="fuzz")
    store.add_message(run_id, "user", "hello")
    artifacts = root / "art"
    code, _, err = run(
        ["inventory", "optimize", "--params", str(params), "--out", str(artifacts), "--paths", "30"]
        + ["--dqn-steps", "2"]
    )
    assert code == 0, err
    schools = root / "schools.csv"
    schools.write_text(
        "name,grade,enrollment,current_start\nA,ES,300,8:00 AM\nB,MS,500,8:40 AM\nC,HS,200,9:30 AM\n"
    )
    return {
        "root": root,
        "params": params,
        "db": db,
        "artifacts": artifacts,
        "schools": schools,
        "run": run_id,
    }


def paths(files: dict[str, Path]) -> st.SearchStrategy[str]:
    """Paths a careless user might give: missing, folders, devices, below a file, system folders, too long."""
    root, params = files["root"], files["params"]
    return st.sampled_from(
        [
            "",
            "/",
            str(root),
            str(root / "missing.csv"),
            str(params / "below"),
            "/proc/self/status",
            "/dev/null",
            "/dev/zero",
            "/proc/orca/x",
            str(root / ("n" * 300)),
            str(params),
            str(files["db"]),
            "-",
        ]
    )


def params_file(files: dict[str, Path], key: str, value: str) -> str:
    """A copy of the valid params CSV with one row's value replaced (CSV-quoted)."""
    lines = files["params"].read_text().splitlines()
    quoted = '"' + value.replace('"', '""') + '"'
    lines = [
        f"{key},{quoted},{line.split(',')[2]},defined" if line.startswith(key + ",") else line
        for line in lines
    ]
    target = files["root"] / "mutated.csv"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")
    return str(target)


PARAM_KEYS = st.sampled_from(
    ["time_horizon", "demand_distribution", "holding_cost", "penalty_cost", "setup_cost", "lead_time"]
    + ["max_inventory", "max_order", "risk_tolerance", "perishability", "state_transition_model"]
)


@FUZZ
@given(data=st.data())
def test_runs_commands(files: dict[str, Path], data: st.DataObject) -> None:
    db = ["--db", data.draw(st.one_of(st.just(str(files["db"])), paths(files)))]
    command = data.draw(
        st.sampled_from(
            [
                ["runs", "list", "--limit", data.draw(NUMBERS)],
                ["runs", "list", "--workbench", data.draw(TEXT)],
                ["runs", "show", data.draw(st.one_of(TEXT, st.just(str(files["run"]))))],
                ["runs", "export", str(files["run"]), "--out", data.draw(paths(files))],
                ["runs", "export", "--all", "--format", "parquet", "--out", data.draw(paths(files))],
                ["runs", "delete", data.draw(TEXT)],
            ]
        )
    )
    if command[1] == "delete" and command[2] == str(files["run"]):
        return
    run(db + command)


@FUZZ
@given(data=st.data())
def test_inventory_evaluate_and_dp(files: dict[str, Path], data: st.DataObject) -> None:
    params = data.draw(
        st.one_of(
            st.just(str(files["params"])),
            paths(files),
            st.builds(lambda k, v: params_file(files, k, v), PARAM_KEYS, st.one_of(NUMBERS, TEXT)),
        )
    )
    if data.draw(st.booleans()):
        run(["inventory", "dp", "--params", params])
        return
    policy = data.draw(st.sampled_from(["sS", "base-stock", "constant", "rq", "bogus"]))
    flags = []
    for name in data.draw(
        st.lists(st.sampled_from(["s", "S", "q", "R", "Q", "cap", "seed", "paths"]), max_size=4)
    ):
        flags += [f"--{name}", data.draw(st.one_of(NUMBERS, st.integers(0, 15).map(str)))]
    run(["inventory", "evaluate", "--params", params, "--policy", policy, "--paths", "20", *flags])


@FUZZ
@given(data=st.data())
def test_inventory_optimize_and_order(files: dict[str, Path], data: st.DataObject) -> None:
    if data.draw(st.booleans()):
        flag = data.draw(st.sampled_from(["--seed", "--paths", "--dqn-steps", "--dqn-seconds", "--out"]))
        value = data.draw(paths(files)) if flag == "--out" else data.draw(NUMBERS)
        argv = ["inventory", "optimize", "--params", str(files["params"]), "--out", str(files["root"] / "o")]
        run([*argv, "--paths", "20", "--no-dqn", flag, value])
        return
    artifacts = files["artifacts"]
    flags = {"--artifacts": str(artifacts), "--inventory": "2", "--step": "0", "--pipeline": "0"}
    key = data.draw(st.sampled_from(sorted(flags)))
    flags[key] = data.draw(
        st.one_of(NUMBERS, TEXT, paths(files)) if key == "--artifacts" else st.one_of(NUMBERS, TEXT)
    )
    run(["inventory", "order", *[x for pair in flags.items() for x in pair]])


@FUZZ
@given(data=st.data())
def test_schedule_solve(files: dict[str, Path], data: st.DataObject) -> None:
    flags = ["--time-limit", "2"]
    for name in data.draw(
        st.lists(
            st.sampled_from(["--alpha", "--beta", "--max-load", "--max-deviation", "--gap", "--time-limit"]),
            max_size=3,
        )
    ):
        flags += [name, data.draw(NUMBERS)]
    for name in data.draw(st.lists(st.sampled_from(["--fix", "--forbid"]), max_size=3)):
        school = data.draw(st.sampled_from(["A", "B", "C", "Nobody", ""]))
        when = data.draw(st.one_of(st.sampled_from(["7:50 AM", "8:40 AM", "9:30 AM", "25:00", ""]), TEXT))
        flags += [name, data.draw(st.sampled_from([f"{school}={when}", school, "="]))]
    district = data.draw(st.one_of(st.just(str(files["schools"])), paths(files)))
    run(["schedule", "solve", "--district", district, *flags])


def chat_lines() -> st.SearchStrategy[list[str]]:
    scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT)
    value = st.recursive(
        scalar,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
        max_leaves=6,
    )
    message = st.one_of(
        TEXT.map(lambda t: json.dumps({"user": t})),
        st.sampled_from(
            [
                "Demand is Poisson with mean 8 a day.",
                "plan for 30 days",
                "\x1b[31mred\x1b[0m",
                "max inventory 1000000000000",
                "Could Everett start later?",
            ]
        ).map(lambda t: json.dumps({"user": t})),
        st.builds(
            lambda k, v: json.dumps({"edit": {"key": k, "value": v}}), st.one_of(PARAM_KEYS, TEXT), value
        ),
        value.map(json.dumps),
        TEXT,
        st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
        st.just(json.dumps({"user": "x" * 20_000})),
    )
    return st.lists(message.filter(lambda line: line.strip()), min_size=1, max_size=4)


@pytest.mark.parametrize("group", ["inventory", "schedule"])
@settings(FUZZ, max_examples=8)
@given(lines=chat_lines())
def test_chat_protocols_answer_every_line(files: dict[str, Path], group: str, lines: list[str]) -> None:
    extra = ["--paths", "30"] if group == "inventory" else ["--district", str(files["schools"])]
    code, stdout, stderr = run(
        ["--db", str(files["db"]), group, "chat", "--provider", "offline", *extra], "\n".join(lines) + "\n"
    )
    assert code == 0, stderr[-1000:]
    out = [_strict_json(line) for line in stdout.splitlines()]
    opening = 1 if group == "schedule" else 0
    assert len(out) == opening + len(lines)  # every line answered, exactly once
    for answer in out[opening:]:
        assert answer["run_id"] and ("assistant" in answer or {"error", "field"} <= set(answer)), answer
        assert answer.get("field") != "internal", answer


@FUZZ
@given(data=st.data())
def test_experiment_repair_and_retail_groups(files: dict[str, Path], data: st.DataObject) -> None:
    """The newer groups, on their cheap commands (no generated value may start a long run)."""
    db = ["--db", str(files["db"])]
    command = data.draw(
        st.sampled_from(
            [
                ["experiment", "status", data.draw(TEXT)],
                ["experiment", "report", data.draw(TEXT)],
                ["experiment", "list", "--limit", data.draw(NUMBERS)],
                ["experiment", "run", data.draw(paths(files))],
                ["retail", "metrics", data.draw(TEXT)],
                [
                    "retail",
                    "run",
                    "--seed",
                    data.draw(st.sampled_from(["-1", "", "nan", "1e308", "1" + "0" * 30])),
                ],
                [
                    "repair",
                    "bench",
                    "--limit",
                    data.draw(st.sampled_from(["0", "-5", "", "nan", "1" + "0" * 30])),
                ],
            ]
        )
    )
    run(db + command)
