"""`python -m core.cli`: help, the runs group, exports, error exits, workbench group loading."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from core import cli
from core.store import Store

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cli.duckdb"


@pytest.fixture
def recorded(db: Path) -> str:
    """A finished inventory run with two messages, one step and one artifact, plus an older schedule run."""
    store = Store(db)
    store.create_run("schedule", {"bells": 3})
    run_id = store.create_run("inventory", {"demand": 10}, seed=5, title="demo")
    store.add_message(run_id, "user", "What should I order?")
    store.add_message(run_id, "assistant", "", tool_calls=[{"name": "solve", "arguments": {"s": 3}}])
    store.add_step(run_id, "tool_call", {"name": "solve"}, 12, 3, 4.5)
    store.add_artifact(run_id, "plan.csv", data=b"t,q\n1,4\n")
    store.update_run(run_id, status="done", metrics={"cost": 41.5})
    return run_id


def test_help_lists_the_groups_and_global_flags() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    assert "runs" in result.stdout and "--pretty" in result.stdout and "--db" in result.stdout
    runs_help = run_cli("runs", "--help")
    assert runs_help.returncode == 0
    assert all(command in runs_help.stdout for command in ("list", "show", "export"))


def test_runs_list_json_filter_and_pretty(db: Path, recorded: str) -> None:
    result = run_cli("--db", str(db), "runs", "list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    runs = json.loads(lines[0])
    assert [r["workbench"] for r in runs] == ["inventory", "schedule"]
    assert runs[0]["id"] == recorded and runs[0]["metrics"] == {"cost": 41.5} and runs[0]["n_messages"] == 2

    only = json.loads(run_cli("runs", "list", "--workbench", "schedule", "--db", str(db)).stdout)
    assert [r["workbench"] for r in only] == ["schedule"]

    pretty = run_cli("runs", "list", "--limit", "1", "--pretty", f"--db={db}")
    assert pretty.returncode == 0 and recorded in pretty.stdout and "inventory" in pretty.stdout
    assert "schedule" not in pretty.stdout
    with pytest.raises(json.JSONDecodeError):
        json.loads(pretty.stdout)


def test_runs_show_json_and_pretty(db: Path, recorded: str) -> None:
    shown = json.loads(run_cli("--db", str(db), "runs", "show", recorded).stdout)
    assert (
        shown["run"]["id"] == recorded
        and shown["run"]["seed"] == 5
        and shown["run"]["config"] == {"demand": 10}
    )
    assert [m["role"] for m in shown["messages"]] == ["user", "assistant"]
    assert shown["messages"][1]["tool_calls"] == [{"name": "solve", "arguments": {"s": 3}}]
    assert shown["steps"][0]["input_tokens"] == 12 and shown["artifacts"][0]["name"] == "plan.csv"

    pretty = run_cli("--pretty", "--db", str(db), "runs", "show", recorded).stdout
    assert "status: done" in pretty and "What should I order?" in pretty and "plan.csv" in pretty


def test_runs_export_json_to_stdout_and_file(db: Path, recorded: str, tmp_path: Path) -> None:
    printed = json.loads(run_cli("--db", str(db), "runs", "export", recorded, "--format", "json").stdout)
    assert printed["run"]["id"] == recorded and len(printed["steps"]) == 1

    out = tmp_path / "exports" / "run.json"
    result = run_cli("--db", str(db), "runs", "export", recorded, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"run_id": recorded, "format": "json", "path": str(out)}
    assert json.loads(out.read_text()) == printed


def test_runs_export_parquet_reads_back(db: Path, recorded: str, tmp_path: Path) -> None:
    out = tmp_path / "pq"
    result = run_cli("--db", str(db), "runs", "export", recorded, "--format", "parquet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert sorted(Path(f).name for f in files) == [
        "artifacts.parquet",
        "messages.parquet",
        "runs.parquet",
        "steps.parquet",
        "transitions.parquet",
    ]
    runs = pd.read_parquet(out / "runs.parquet")
    assert runs["id"].tolist() == [recorded] and json.loads(runs["metrics"].iloc[0]) == {"cost": 41.5}
    messages = duckdb.sql(f"SELECT turn, content FROM '{out / 'messages.parquet'}' ORDER BY turn").fetchall()
    assert messages == [(1, "What should I order?"), (2, "")]
    assert pd.read_parquet(out / "steps.parquet")["latency_ms"].tolist() == [4.5]


def test_unknown_run_exits_2_with_a_json_error(db: Path, recorded: str) -> None:
    for command in (["show", "nope"], ["export", "nope", "--format", "parquet"], ["delete", "nope"]):
        result = run_cli("--db", str(db), "runs", *command)
        assert result.returncode == 2, command
        assert result.stdout == ""
        assert json.loads(result.stderr) == {"error": "no run with id 'nope'", "field": "store"}
    pretty = run_cli("--pretty", "--db", str(db), "runs", "show", "nope")
    assert pretty.returncode == 2 and pretty.stderr.strip() == "error: no run with id 'nope'"


def test_usage_errors_exit_2() -> None:
    for args in (["runs"], ["runs", "bogus"], ["runs", "export", "x", "--format", "xml"]):
        result = run_cli(*args)
        assert result.returncode == 2, args
        assert "usage:" in result.stderr


def test_default_store_is_orca_db(db: Path, recorded: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORCA_DB", str(db))
    assert [r["id"] for r in json.loads(run_cli("runs", "list").stdout)][0] == recorded


def test_delete_in_process(db: Path, recorded: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--db", str(db), "runs", "delete", recorded]) == 0
    assert json.loads(capsys.readouterr().out) == {"deleted": recorded}
    assert [r for r in Store(db).list_runs()["id"] if r == recorded] == []


def _write_module(root: Path, name: str, source: str) -> None:
    path = root.joinpath(*name.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))


def test_workbench_groups_load_by_convention(
    tmp_path: Path, db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _write_module(
        tmp_path,
        "orca_test_wb_cli",
        """
        def _hello(args):
            if args.fail == "orca":
                from core.errors import SpecError
                raise SpecError("name", "must not be empty")
            if args.fail == "bug":
                raise RuntimeError("a bug")
            return {"db": str(args.db), "pretty": args.pretty}

        def register(subparsers):
            group = subparsers.add_parser("demo", help="a demo workbench")
            commands = group.add_subparsers(dest="command", required=True)
            hello = commands.add_parser("hello")
            hello.add_argument("--fail", default="")
            hello.set_defaults(func=_hello)
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "cli_modules", lambda: ["orca_test_wb_cli", "orca_not_written_yet.cli"])

    assert cli.main(["demo", "hello", "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out) == {"db": str(db), "pretty": False}
    assert cli.main(["demo", "hello", "--fail", "orca"]) == 2
    assert json.loads(capsys.readouterr().err) == {"error": "name: must not be empty", "field": "name"}
    assert cli.main(["demo", "hello", "--fail", "bug"]) == 70  # a bug: one JSON line, no traceback
    error = json.loads(capsys.readouterr().err)
    assert error["field"] == "internal" and "RuntimeError: a bug" in error["error"]
    monkeypatch.setenv("ORCA_DEBUG", "1")
    with pytest.raises(RuntimeError, match="a bug"):
        cli.main(["demo", "hello", "--fail", "bug"])


def test_a_broken_workbench_module_is_not_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_module(tmp_path, "orca_test_broken_cli", "import orca_missing_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "cli_modules", lambda: ["orca_test_broken_cli"])
    with pytest.raises(ModuleNotFoundError, match="orca_missing_dependency_xyz"):
        cli.main(["--pretty", "demo", "hello"])


def test_pretty_rendering_and_json_conversion() -> None:
    frame = pd.DataFrame({"a": [1, None], "b": [{"k": "v" * 100}, None]})
    assert cli.to_jsonable({"t": frame}) == {"t": [{"a": 1.0, "b": {"k": "v" * 100}}, {"a": None, "b": None}]}
    text = cli.render_pretty({"name": "x", "rows": frame, "cfg": {"inner": {"deep": 1}}, "empty": []})
    assert "name: x" in text and 'inner: {"deep": 1}' in text and "(none)" in text
    assert "nan" not in text and "None" not in text
    assert "…" in text and "v" * 100 not in text


def test_a_bad_limit_is_a_clear_error(db: Path, recorded: str) -> None:
    result = run_cli("--db", str(db), "runs", "list", "--limit", "-1")
    assert result.returncode == 2 and result.stdout == ""
    error = json.loads(result.stderr)
    assert error["field"] == "--limit" and "-1" in error["error"]


def test_export_to_an_unwritable_place_exits_2(db: Path, recorded: str, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for args in (["--out", str(blocker / "run.json")], ["--format", "parquet", "--out", str(blocker / "pq")]):
        result = run_cli("--db", str(db), "runs", "export", recorded, *args)
        assert result.returncode == 2, args
        assert "Could not write the export" in json.loads(result.stderr)["error"]
        assert "Traceback" not in result.stderr


def test_unknown_run_leaves_no_export_folder(db: Path, recorded: str, tmp_path: Path) -> None:
    out = tmp_path / "pq"
    result = run_cli("--db", str(db), "runs", "export", "nope", "--format", "parquet", "--out", str(out))
    assert result.returncode == 2 and not out.exists()


def test_export_all_runs_as_parquet(db: Path, recorded: str, tmp_path: Path) -> None:
    out = tmp_path / "everything"
    result = run_cli("--db", str(db), "runs", "export", "--all", "--format", "parquet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(pd.read_parquet(out / "runs.parquet")["workbench"]) == ["inventory", "schedule"]
    for args, field in ((["--all"], "--all"), ([], "RUN_ID"), ([recorded, "--all"], "RUN_ID")):
        refused = run_cli("--db", str(db), "runs", "export", *args)
        assert refused.returncode == 2 and json.loads(refused.stderr)["field"] == field, args


def test_non_finite_numbers_print_as_null(
    db: Path, recorded: str, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = pd.DataFrame({"x": [float("inf"), 1.0]})
    assert cli.to_jsonable({"gap": float("nan"), "t": frame, "n": np.float64("-inf")}) == {
        "gap": None,
        "t": [{"x": None}, {"x": 1.0}],
        "n": None,
    }

    def reject(constant: str) -> None:
        raise ValueError(f"non-standard JSON: {constant}")

    with duckdb.connect(str(db)) as con:  # a value written before the store wrote strict JSON
        con.execute('UPDATE runs SET metrics = \'{"gap": NaN, "ratio": Infinity}\' WHERE id = ?', [recorded])
    for command in (["runs", "show", recorded], ["runs", "list"]):
        assert cli.main(["--db", str(db), *command]) == 0
        printed = json.loads(capsys.readouterr().out, parse_constant=reject)
        run = printed["run"] if "run" in printed else printed[0]
        assert run["metrics"] == {"gap": None, "ratio": None}
