"""`python -m core.cli inventory lab generate|run|report` through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.store import Store
from solvers.inventory.spec import read_params_csv

ROOT = Path(__file__).resolve().parents[4]


def lab(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(tmp_path / "orca.duckdb"), "inventory", "lab", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_generate_run_report(tmp_path: Path) -> None:
    gen = lab(
        tmp_path, "generate", "--protocol", "mixed", "--n", "1", "--seed", "5", "--out", str(tmp_path / "sc")
    )
    assert gen.returncode == 0, gen.stderr
    data = json.loads(gen.stdout)
    assert data["scenarios"] == 1
    truth = read_params_csv(tmp_path / "sc" / "s000" / "extracted_params.csv")
    assert truth.max_inventory <= 100 and (tmp_path / "sc" / "s000" / "context.txt").read_text().strip()

    run = lab(
        tmp_path,
        "run",
        "--scenarios",
        str(tmp_path / "sc" / "scenarios.jsonl"),
        "--noise",
        "0",
        "--paths",
        "30",
        "--assessment-paths",
        "200",
        "--capacity-basis",
        "on_hand",
        "--day-numbering",
        "fig4",
        "--out",
        str(tmp_path / "rep"),
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["scenarios"] == 1 and out["treatments_run"] == ["A"]
    assert set(out["not_run"]) == {"B", "C"}
    assert out["extraction_accuracy"]["table"] == 1.0
    switches = " ".join(out["switches"])
    assert "`capacity_basis = on_hand`" in switches and "`day_numbering = fig4`" in switches
    assert out["order_query"]["asked"] == 1 and out["order_query"]["step_ok"] == 1
    assert (tmp_path / "rep" / "report.md").read_text().startswith("# Inventory evaluation lab report")
    store = Store(tmp_path / "orca.duckdb")
    runs = store.list_runs()
    assert set(runs["workbench"]) == {"inventory_lab"}  # the lab run and its one cell (treatment A on s000)
    assert len(runs) == 2 and len(store.cells(out["experiment_id"])) == 1
    cell_run = store.cells(out["experiment_id"])["run_id"].iloc[0]
    assert len(store.messages(cell_run)) >= 2  # the conversation, shown in Run history

    again = lab(tmp_path, "report", "--results", str(tmp_path / "rep"), "--out", str(tmp_path / "rep2"))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "rep2" / "results.csv").read_text() == (tmp_path / "rep" / "results.csv").read_text()


def test_errors_name_the_field(tmp_path: Path, capsys) -> None:
    from core.cli import main

    def fails(*args: str) -> dict:
        try:
            code = main(["--db", str(tmp_path / "orca.duckdb"), "inventory", "lab", *args])
        except SystemExit as stop:  # refused while parsing the flags
            code = stop.code
        assert code == 2
        return json.loads(capsys.readouterr().err.strip().splitlines()[-1])

    assert fails("run", "--treatments", "A,D", "--out", str(tmp_path / "x"))["field"] == "treatments"
    # the engine flags go through make_engine: an address without Ray is refused naming it
    local = fails("run", "--treatments", "A", "--address", "127.0.0.1:1", "--out", str(tmp_path / "z"))
    assert local["field"] == "--address"
    # offline, B and C cannot run: refused up front instead of an empty run that exits 0
    empty = fails("run", "--treatments", "B,C", "--out", str(tmp_path / "y"))
    assert empty["field"] == "treatments" and "nothing was run" in empty["error"]
    assert fails("report", "--results", str(tmp_path / "missing"))["field"] == "--results"
    assert (
        fails("generate", "--n", "0", "--protocol", "mixed", "--out", str(tmp_path / "g"))["field"] == "--n"
    )


def test_run_options_read_as_the_lab_config() -> None:
    """`lab run`'s options are `LabConfig`'s fields (`--paths` is `copilot_paths`); unset ones keep defaults."""
    from core.cli import build_parser
    from core.inventory.lab.cli import lab_config
    from core.inventory.lab.config import LabConfig

    argv = ["inventory", "lab", "run", "--out", "x", "--treatments", "b,a", "--paths", "50", "--noise", "0.5"]
    config = lab_config(build_parser().parse_args([*argv, "--assessment-paths", "300", "--families", "paper"]))
    assert config == LabConfig(
        treatments=("B", "A"), copilot_paths=50, noise=0.5, assessment_paths=300, families="paper"
    )
    assert lab_config(build_parser().parse_args([*argv, "--seed", "7", "--workers", "3"])).seed == 7
