"""Background runs (what the Experiments page uses): stopping one leaves only whole cells, and a rerun of the
same spec finishes it."""

from __future__ import annotations

import time
from pathlib import Path

from core.experiments import background
from core.store import Store
from tests.core.experiments.conftest import TOY

SLOW = f"""
name = "slow"
workbench = "policy_simulator"
adapter = "{TOY}"
seeds = 16
[env]
horizons = [10]
[[agents]]
name = "spinner"
S = 20
spin = 100000
"""


def test_stop_leaves_whole_cells_and_a_rerun_finishes(store_path: Path, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    gate.touch()  # the cells of seeds 2.. wait at their first step until the stop is sent (no race with the clock)
    gated = SLOW + f'gate_file = "{gate}"\ngate_from_seed = 2\n'
    run = background.start(gated, store_path, workers=1)
    store = Store(store_path)
    deadline = time.time() + 120
    while store.get_experiment(run.experiment_id)["done"] < 2 and time.time() < deadline:
        time.sleep(0.2)
    background.stop(run.experiment_id)
    time.sleep(2.0)  # the driver takes the interrupt while cell 2 waits at the gate (it finishes cells in flight)
    gate.unlink()
    run.thread.join(timeout=120)
    assert not run.alive and run.error is None, run.error
    info = store.get_experiment(run.experiment_id)
    assert info["status"] == "stopped" and 2 <= info["done"] < 16
    cells = store.cells(run.experiment_id)
    done = cells[cells["status"] == "done"]
    assert set(store.list_runs()["id"]) == set(done["run_id"]), "only finished cells have runs, all of them"
    again = background.start(gated, store_path, workers=1)
    again.thread.join(timeout=180)
    assert again.summary["status"] == "done" and again.summary["skipped"] == len(done)
    assert len(store.list_runs()) == 16


def test_a_killed_driver_reads_as_stalled_and_resumes_by_id(store_path: Path) -> None:
    """SIGKILL of the driver process leaves the experiment "running" in the store; without its heartbeat it
    reads as "stalled", and resuming it by id (from the stored spec) runs only the missing cells."""
    run = background.start(SLOW, store_path, workers=1)
    store = Store(store_path)
    deadline = time.time() + 120
    while store.get_experiment(run.experiment_id)["done"] < 1 and time.time() < deadline:
        time.sleep(0.2)
    run.process.kill()
    run.thread.join(timeout=60)
    info = store.get_experiment(run.experiment_id)
    assert not run.alive, "the driver and its workers are gone"
    assert info["status"] == "running", "a killed driver cannot mark its experiment"
    time.sleep(0.3)
    assert store.get_experiment(run.experiment_id, stale_after_s=0.2)["status"] == "stalled"
    listed = store.list_experiments(stale_after_s=0.2).set_index("id")
    assert listed.loc[run.experiment_id, "status"] == "stalled"
    done_before = info["done"]
    again = background.resume(run.experiment_id, store_path, workers=1)
    again.thread.join(timeout=180)
    assert again.error is None, again.error
    assert again.summary["status"] == "done" and again.summary["skipped"] == done_before
    assert store.get_experiment(run.experiment_id)["status"] == "done"
    assert len(store.list_runs()) == 16


def test_is_live_from_this_process_or_the_stored_status(monkeypatch, tmp_path: Path) -> None:
    """Live while this process's driver thread runs, or while the store says "running" (a CLI run); not after."""
    import threading

    gate = threading.Event()
    run = background.BackgroundRun("e1", None, tmp_path, 1)  # type: ignore[arg-type]
    run.thread = threading.Thread(target=gate.wait, daemon=True)
    monkeypatch.setitem(background._RUNS, "e1", run)
    run.thread.start()
    assert background.is_live("e1", "stopped")
    gate.set()
    run.thread.join(timeout=10)
    assert not background.is_live("e1", "stopped") and not background.is_live("e1", "stalled")
    assert background.is_live("e1", "running") and background.is_live("unknown", "running")
    assert not background.is_live("unknown", "done")


def test_stop_works_when_the_parent_ignores_sigint(store_path: Path, tmp_path: Path) -> None:
    """A driver started from a process that ignores SIGINT (nohup, a test runner) inherits the ignored signal;
    the driver restores it, so Stop still stops (this failed in the full suite before)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        test_stop_leaves_whole_cells_and_a_rerun_finishes(store_path, tmp_path)
    finally:
        signal.signal(signal.SIGINT, previous)
