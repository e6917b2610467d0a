"""The Ray engine on a local 2-CPU instance (started once for this module): identical results to the local
engine for the same spec and seeds, and a killed worker fails its cell after Ray's one retry."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.experiments.driver import ExperimentStatus, run_experiment
from core.experiments.engines import LocalEngine, RayEngine
from core.store import Store
from tests.core.experiments.conftest import toy_spec

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    engine = RayEngine(2)
    started = engine._init()
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def test_ray_and_local_engines_give_identical_metrics(local_ray: None, tmp_path: Path) -> None:
    spec = toy_spec(env={"horizons": [6, 9]}, seeds=[0, 1, 2, 3])
    results = {}
    for name, engine in (("local", LocalEngine(2)), ("ray", RayEngine(2))):
        store = Store(tmp_path / f"{name}.duckdb")
        summary = run_experiment(spec, store, engine=engine, progress=io.StringIO())
        assert summary.status is ExperimentStatus.DONE and summary.done == 16
        cells = store.cells(spec.experiment_id)
        results[name] = dict(zip(cells["cell_key"], cells["metrics"], strict=True))
    assert results["ray"] == results["local"]
    assert len({m["total_cost"] for m in results["ray"].values()}) > 8, "the cells really differ"
    assert ray.is_initialized(), "the engine leaves a Ray instance it did not start running"


def test_a_killed_ray_worker_fails_only_its_cell(local_ray: None, store_path: Path) -> None:
    spec = toy_spec(agents=[{"name": "ok", "S": 12}, {"name": "killer", "kill_seed": 1}])
    store = Store(store_path)
    summary = run_experiment(spec, store, engine=RayEngine(2), progress=False)
    assert (summary.done, summary.failed) == (5, 1)
    cells = store.cells(spec.experiment_id).set_index("cell_key")
    assert cells.loc["T8|killer|s1|r0", "status"] == "failed"
    assert "WorkerCrashedError" in cells.loc["T8|killer|s1|r0", "error"]
    assert len(store.list_runs()) == 5
