"""The local engine and the driver: failed and killed cells, resume of exactly the missing cells, the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd

from core.cli import main
from core.experiments.driver import ExperimentStatus, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.worker import CellStatus
from core.store import Store
from tests.core.experiments.conftest import TOY, toy_spec


class DiesAfter(LocalEngine):
    """A local engine whose driver 'dies' after `n` cells: the remaining cells are never run (stay pending)."""

    def __init__(self, n: int) -> None:
        super().__init__(2)
        self.n = n

    def run(self, tasks, on_outcome, **kwargs) -> None:  # noqa: ANN001
        super().run(tasks[: self.n], on_outcome, **kwargs)


def _runs(store: Store) -> pd.DataFrame:
    return store.list_runs(limit=1000)


def test_failed_and_killed_cells_are_recorded_and_the_rest_completes(store_path: Path) -> None:
    store = Store(store_path)
    spec = toy_spec(
        agents=[
            {"name": "ok", "S": 12},
            {"name": "killer", "S": 15, "kill_seed": 1},  # SIGKILLs its worker mid-episode on seed 1
            {"name": "quitter", "fail_seed": 2},  # raises an OrcaError at t = 1 on seed 2
            {"name": "buggy", "crash_seed": 0},  # a plain bug (ZeroDivisionError) on seed 0
        ]
    )
    summary = run_experiment(spec, store, engine=LocalEngine(2), progress=io.StringIO())
    assert summary.status is ExperimentStatus.PARTIAL
    assert (summary.cells, summary.done, summary.failed) == (12, 9, 3)
    cells = store.cells(spec.experiment_id).set_index("cell_key")
    killed = cells.loc["T8|killer|s1|r0"]
    assert killed["status"] == CellStatus.FAILED and "worker process died" in killed["error"]
    assert pd.isna(killed["run_id"]), "a killed worker leaves no run behind"
    quit_ = cells.loc["T8|quitter|s2|r0"]
    assert quit_["status"] == CellStatus.FAILED and "gave up" in quit_["error"]
    assert store.get_run(quit_["run_id"])["status"] == "failed", "the failed rollout is kept for inspection"
    assert "ZeroDivisionError" in cells.loc["T8|buggy|s0|r0", "error"]
    done = cells[cells["status"] == CellStatus.DONE]
    assert len(done) == 9 and done["attempts"].eq(1).all()
    runs = _runs(store)
    assert set(runs["id"]) == set(cells["run_id"].dropna()), (
        "every stored run belongs to a cell, none is extra"
    )
    for run_id, metrics in zip(done["run_id"], done["metrics"], strict=True):
        assert len(store.transitions(run_id)) == 8 == metrics["steps"]
        assert store.get_run(run_id)["metrics"]["total_cost"] == metrics["total_cost"]


def test_resume_runs_exactly_the_missing_cells_and_never_duplicates(store_path: Path, capsys) -> None:
    store = Store(store_path)
    spec = toy_spec(env={"horizons": [5, 6]})  # 2 instances × 2 agents × 3 seeds = 12 cells
    first = run_experiment(spec, store, engine=DiesAfter(5), progress=False)
    assert first.status is ExperimentStatus.STOPPED and first.done == 5
    before = store.cells(spec.experiment_id).set_index("cell_key")
    done_before = before[before["status"] == "done"]
    missing = set(before.index[before["status"] != "done"])
    spec_file = store_path.parent / "toy.toml"
    spec_file.write_text(
        f'name = "toy"\nworkbench = "policy_simulator"\nadapter = "{TOY}"\nseeds = [0, 1, 2]\n'
        'metric = "total_cost"\ngoal = "min"\n[env]\nhorizons = [5, 6]\n'
        '[[agents]]\nname = "low"\nS = 10\n[[agents]]\nname = "high"\nS = 25\n'
    )
    assert main(["--db", str(store_path), "experiment", "run", str(spec_file), "--quiet"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["experiment_id"] == spec.experiment_id, "the same spec resumes the same experiment"
    assert (
        second["skipped"] == len(done_before) and second["ran"] == len(missing) and second["status"] == "done"
    )
    after = store.cells(spec.experiment_id).set_index("cell_key")
    assert (after["status"] == "done").all() and len(after) == 12
    assert after.loc[done_before.index, "run_id"].tolist() == done_before["run_id"].tolist()
    assert after["attempts"].eq(1).all(), "no cell ran twice"
    assert len(_runs(store)) == 12
    assert main(["--db", str(store_path), "experiment", "run", str(spec_file), "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["ran"] == 0 and len(_runs(store)) == 12

    assert main(["--db", str(store_path), "experiment", "status", spec.experiment_id]) == 0
    status = json.loads(capsys.readouterr().out)
    assert (status["cells"], status["done"], status["pending"], status["failed_cells"]) == (12, 12, 0, [])
    assert main(["--db", str(store_path), "experiment", "report", spec.experiment_id]) == 0
    markdown = json.loads(capsys.readouterr().out)["markdown"]
    assert "## Paired against low" in markdown and "offline (built-in)" in markdown
    out = store_path.parent / "report"
    assert (
        main(
            [
                "--db",
                str(store_path),
                "experiment",
                "report",
                spec.experiment_id,
                "--format",
                "csv",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    per_agent = pd.read_csv(out / "per_agent.csv")
    assert per_agent["n"].tolist() == [6, 6] and per_agent["agent"].tolist() == ["low", "high"]
    assert main(["--db", str(store_path), "experiment", "report", "nope"]) == 2
    assert "no experiment" in json.loads(capsys.readouterr().err)["error"]


def test_an_idle_driver_keeps_beating_and_a_silent_one_reads_as_stalled(store_path: Path, monkeypatch) -> None:
    """The cell writer touches its experiment while no cell finishes; without that, "running" turns "stalled".

    The store's clock is a fake one moved by hand, and the test waits for heartbeats by counting them, so a
    delayed thread on a loaded machine only makes it slower, never wrong."""
    import threading
    from datetime import datetime, timedelta

    from core.experiments import driver
    from core.store import experiments as experiment_tables

    now = [datetime(2026, 1, 1, 12, 0)]
    monkeypatch.setattr(experiment_tables, "now_utc", lambda: now[0])
    store = Store(store_path)
    spec = toy_spec()
    driver.prepare(spec, store)
    store.set_experiment_status(spec.experiment_id, ExperimentStatus.RUNNING)
    now[0] += timedelta(seconds=30)
    assert store.get_experiment(spec.experiment_id, stale_after_s=20)["status"] == "stalled"
    assert store.get_experiment(spec.experiment_id)["status"] == "running", "a minute has not passed"

    beats, beaten = [0], threading.Condition()
    touch = store.touch_experiment

    def counted_touch(experiment_id: str) -> None:
        touch(experiment_id)
        with beaten:
            beats[0] += 1
            beaten.notify_all()

    monkeypatch.setattr(store, "touch_experiment", counted_touch)
    monkeypatch.setattr(driver, "HEARTBEAT_S", 0.01)
    writer = driver.CellWriter(store, spec.experiment_id, lambda outcome: None)
    try:
        with beaten:
            assert beaten.wait_for(lambda: beats[0] >= 1, timeout=60), "no heartbeat (a hang guard only)"
        assert store.get_experiment(spec.experiment_id, stale_after_s=20)["status"] == "running"
    finally:
        writer.close()
    store.set_experiment_status(spec.experiment_id, ExperimentStatus.DONE)
    now[0] += timedelta(seconds=30)
    assert store.get_experiment(spec.experiment_id, stale_after_s=20)["status"] == "done", "only running stalls"


def test_run_names_a_spec_that_is_neither_a_file_nor_a_stored_experiment(store_path: Path, capsys) -> None:
    assert main(["--db", str(store_path), "experiment", "run", "no-such-thing"]) == 2
    err = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert err["field"] == "SPEC" and "neither a spec file nor the id" in err["error"]
