"""`inventory lab run` runs through the experiment engine: saved cell by cell, resumed after a kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from core.config import Settings
from core.inventory.lab.lab import LabConfig, lab_spec
from core.store import Store

ROOT = Path(__file__).resolve().parents[4]
FLAGS = ("--protocol", "mixed", "--n", "4", "--seed", "2", "--noise", "0", "--paths", "30")
FLAGS += ("--assessment-paths", "200", "--workers", "1")


def _command(db: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "core.cli",
        "--db",
        str(db),
        "inventory",
        "lab",
        "run",
        *FLAGS,
        "--out",
        str(out),
    ]


def test_kill_9_in_the_middle_then_resume_runs_exactly_the_missing_cells(tmp_path: Path) -> None:
    db = tmp_path / "orca.duckdb"
    config = LabConfig(protocol="mixed", n=4, seed=2, noise=0.0, copilot_paths=30, assessment_paths=200)
    exp_id = lab_spec(config, Settings()).experiment_id
    driver = subprocess.Popen(
        _command(db, tmp_path / "rep"), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 240
    done: set[str] = set()
    try:
        while time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.5)
            if not db.exists():
                continue
            try:
                cells = Store(db, timeout_s=5).cells(exp_id)
            except Exception:  # the driver holds the file or has not created the tables yet
                continue
            done = set(cells.loc[cells["status"] == "done", "cell_key"])
            if done:
                os.kill(driver.pid, signal.SIGKILL)
                break
    finally:
        if driver.poll() is None:
            driver.kill()
        driver.wait(timeout=30)
    assert driver.returncode == -signal.SIGKILL, "the lab finished (or failed) before it could be killed"
    store = Store(db)
    before = store.cells(exp_id).set_index("cell_key")
    done = set(before.index[before["status"] == "done"])
    assert 1 <= len(done) < 4, "a killed lab keeps its finished cells"
    first_runs = dict(before.loc[sorted(done), "run_id"])

    again = subprocess.run(
        _command(db, tmp_path / "rep"), cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["scenarios"] == 4
    after = store.cells(exp_id).set_index("cell_key")
    assert (after["status"] == "done").all() and len(after) == 4
    for key, run_id in first_runs.items():  # the finished cells were not run again
        assert after.loc[key, "run_id"] == run_id and after.loc[key, "attempts"] == 1
    missing = sorted(set(after.index) - done)
    assert all(after.loc[k, "run_id"] not in first_runs.values() for k in missing)
    cell_runs = store.list_runs()
    cell_runs = cell_runs[cell_runs["title"].str.contains(r"\|A\|", regex=True)]
    assert len(cell_runs) == 4, "exactly one run per cell: none duplicated, none lost"

    # the generic CLI resumes it by id too (the protocol adapter is allowed through the catalog): nothing left to run
    by_id = subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), "experiment", "run", "--quiet", exp_id],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert by_id.returncode == 0, by_id.stderr
    assert json.loads(by_id.stdout)["ran"] == 0 and json.loads(by_id.stdout)["status"] == "done"
