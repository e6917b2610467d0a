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
seeds = 8
[env]
horizons = [10]
[[agents]]
name = "spinner"
S = 20
spin = 100000
"""


def test_stop_leaves_whole_cells_and_a_rerun_finishes(store_path: Path) -> None:
    run = background.start(SLOW, store_path, workers=1)
    store = Store(store_path)
    deadline = time.time() + 120
    while store.get_experiment(run.experiment_id)["done"] < 2 and time.time() < deadline:
        time.sleep(0.2)
    background.stop(run.experiment_id)
    run.thread.join(timeout=120)
    assert not run.alive and run.error is None, run.error
    info = store.get_experiment(run.experiment_id)
    assert info["status"] == "stopped" and 2 <= info["done"] < 8
    cells = store.cells(run.experiment_id)
    done = cells[cells["status"] == "done"]
    assert set(store.list_runs()["id"]) == set(done["run_id"]), "only finished cells have runs, all of them"
    again = background.start(SLOW, store_path, workers=1)
    again.thread.join(timeout=180)
    assert again.summary["status"] == "done" and again.summary["skipped"] == len(done)
    assert len(store.list_runs()) == 8
