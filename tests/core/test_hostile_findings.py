"""The blind hostile-input probe's findings at 76c1653 (issue 25), one test each, run in-process through the CLI
with the fuzz suite's invariants (exit 0 or 2, no traceback, an error is one JSON object naming a field)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from core import cli, cli_args
from tests.core.test_fuzz_cli import _files, run

TINY_SPEC = """name = "{name}"
workbench = "policy_simulator"
seeds = 1
metric = "total_cost"
goal = "min"
max_steps = 5
[env.instances.anchor]
[[agents]]
name = "bs"
kind = "offline"
policy = "base_stock"
S = 20
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The fuzz suite's inputs (a parameter table, DQN artifacts, a district, a store) in a temporary folder."""
    root = tmp_path_factory.mktemp("hostile")
    cwd = Path.cwd()
    os.chdir(root)
    try:
        yield _files(root)
    finally:
        os.chdir(cwd)


def refused(argv: list[str], stdin: str = "") -> dict:
    code, _, stderr = run(argv, stdin)
    assert code == 2, stderr
    return json.loads(stderr.strip().splitlines()[-1])


def test_a_params_field_past_the_csv_field_limit_is_refused(files: dict[str, Path]) -> None:
    table = files["params"].read_text().replace("base-stock", "x")
    path = files["root"] / "huge_field.csv"
    path.write_text(table + "note," + "9" * 200_000 + ",N/A,defined\n")
    error = refused(["inventory", "evaluate", "--params", str(path), "--policy", "base-stock", "--S", "5"])
    assert error["field"] == "params_csv" and "CSV" in error["error"]


@pytest.mark.parametrize(
    ("key", "value"),
    [("risk_tolerance", "NaN"), ("lead_time", '"2"'), ("lead_time", "1e308"), ("max_order", "1000000000000")],
)
def test_an_order_config_that_contradicts_its_table_is_refused(
    files: dict[str, Path], key: str, value: str
) -> None:
    """config.json repeats fields of its parameter table; a hand-edited copy used to be ignored silently."""
    art = files["root"] / f"art-{key}-{len(value)}"
    art.mkdir()
    config = json.loads((files["artifacts"] / "config.json").read_text())
    for name in ("dqn_weights.pth", "policy_evaluation_results.csv"):
        (art / name).write_bytes((files["artifacts"] / name).read_bytes())
    text = json.dumps(config).replace(f'"{key}": {json.dumps(config[key])}', f'"{key}": {value}')
    assert text != json.dumps(config)
    (art / "config.json").write_text(text)
    argv = ["inventory", "order", "--artifacts", str(art), "--inventory", "2", "--step", "1"]
    error = refused([*argv, "--pipeline", ",".join(["0"] * int(config["lead_time"]))])
    assert error["field"] in (key, "artifacts"), error


def test_a_chat_line_with_a_5000_digit_number_is_answered(files: dict[str, Path]) -> None:
    line = '{"user": "hi", "n": ' + "9" * 5000 + "}"
    code, stdout, _ = run(
        ["--db", str(files["db"]), "inventory", "chat", "--provider", "offline"], line + "\n"
    )
    assert code == 0
    answer = json.loads(stdout.splitlines()[0])
    assert answer["field"] == "input" and "number" in answer["error"]


def test_a_lab_report_of_deeply_nested_json_is_refused(files: dict[str, Path]) -> None:
    path = files["root"] / "deep-lab.json"
    path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    error = refused(["inventory", "lab", "report", "--results", str(path), "--out", str(files["root"] / "r")])
    assert error["field"] == "results"


def test_a_100000_digit_enrollment_is_refused(files: dict[str, Path]) -> None:
    path = files["root"] / "digits.csv"
    path.write_text(files["schools"].read_text().replace(",300,", "," + "9" * 100_000 + ",", 1))
    error = refused(["schedule", "solve", "--district", str(path), "--time-limit", "5"])
    assert "enrollment" in error["field"]


def test_an_lp_name_past_the_format_limit_is_refused(files: dict[str, Path]) -> None:
    path = files["root"] / "long-name.lp"
    path.write_text(f"Minimize\n obj: x\nSubject To\n c{'1' * 100_000}: x >= 10\nBounds\n 0 <= x <= 5\nEnd\n")
    error = refused(["repair", "solve", "--file", str(path)])
    assert "255" in error["error"] and "line 4" in error["error"]


def test_experiment_names_are_bounded_and_retail_report_wants_a_retail_experiment(
    files: dict[str, Path],
) -> None:
    long_spec = files["root"] / "long-name.toml"
    long_spec.write_text(TINY_SPEC.format(name="n" * 100_000))
    db = ["--db", str(files["db"])]
    assert refused([*db, "experiment", "run", "--quiet", "--workers", "1", str(long_spec)])["field"] == "name"
    spec = files["root"] / "tiny.toml"
    spec.write_text(TINY_SPEC.format(name="tiny"))
    code, stdout, stderr = run([*db, "experiment", "run", "--quiet", "--workers", "1", str(spec)])
    assert code == 0, stderr
    experiment = json.loads(stdout)["experiment_id"]
    error = refused([*db, "retail", "report", "--no-judge", experiment])
    assert "not a RetailBench" in error["error"]


def test_an_infeasible_schedule_says_why_in_its_reason(files: dict[str, Path]) -> None:
    code, stdout, _ = run(["schedule", "solve", "--district", str(files["schools"]), "--max-load", "0"])
    out = json.loads(stdout)
    assert code == 0 and out["status"] == "infeasible"
    assert "upper_bound[student_load_balancing]" in out["reason"] and "raise" in out["reason"]


def test_a_pretty_usage_error_ends_in_the_pretty_error_line() -> None:
    """With --pretty every refusal's last line reads `error: ...`, usage errors included (argparse's own
    `prog: error: ...` line was the one exception)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
        cli.main(["--pretty", "schedule", "solve", "--alpha", "nan"])
    cli_args.CliArgumentParser.pretty = False
    code, last = stop.value.code, err.getvalue().strip().splitlines()[-1]
    assert code == 2 and last.startswith("error: ") and "--alpha" in last
