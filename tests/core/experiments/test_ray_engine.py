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


def test_the_cli_joins_an_existing_cluster_and_leaves_it_running(local_ray: None, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tests.core.experiments.conftest import TOY

    spec_file = tmp_path / "toy.toml"
    spec_file.write_text(
        f'name = "joined"\nworkbench = "policy_simulator"\nadapter = "{TOY}"\nseeds = [0, 1]\n'
        '[env]\nhorizons = [4]\n[[agents]]\nname = "a"\nS = 12\n'
    )
    address = ray.get_runtime_context().gcs_address
    cmd = [sys.executable, "-m", "core.cli", "--db", str(tmp_path / "c.duckdb"), "experiment", "run",
           str(spec_file), "--engine", "ray", "--address", address, "--quiet"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert (result["status"], result["done"], result["engine"]) == ("done", 2, "ray")
    assert ray.is_initialized() and ray.cluster_resources().get("CPU") == 2, "the cluster is still there"
