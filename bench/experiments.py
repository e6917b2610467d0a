"""Experiment engines: overhead per cell (local pool and Ray), and the speed-up of 2 workers over 1.

- Overhead per cell: cells that do almost nothing (a 1-period inventory episode). It is the marginal wall time
  per cell, (T(N2) − T(N1)) / (N2 − N1) with 2 workers, so the one-time pool or Ray start-up cancels; it
  includes the driver writing each cell's run and row to a real DuckDB file.
- Speed-up: a CPU-bound spec (each step spins a pure-Python loop), 1 worker vs 2, wall time of the whole run
  including pool start-up; plus the sum of the cells' own times over the wall time (cells running at once on
  average), which tells a pool that idles apart from cores that are busy with other work.

Run: .venv/bin/python bench/experiments.py [--quick]   (prints a table and a JSON line)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.experiments.driver import run_experiment  # noqa: E402
from core.experiments.engines import LocalEngine, RayEngine  # noqa: E402
from core.experiments.spec import from_dict, register_adapter  # noqa: E402
from core.store import Store  # noqa: E402

ADAPTER = "tests.core.experiments.toy_adapter"  # the inventory env with order-up-to agents (+ `spin`)
register_adapter(ADAPTER)  # specs name only allowed adapters


def spec(name: str, cells: int, *, horizon: int, spin: int = 0) -> Any:
    return from_dict(
        {
            "name": name,
            "workbench": "policy_simulator",
            "adapter": ADAPTER,
            "env": {"horizons": [horizon]},
            "agents": [{"name": "a", "S": 20, "spin": spin}],
            "seeds": list(range(cells)),
            "metric": "total_cost",
            "goal": "min",
        }
    )


def timed(engine: Any, s: Any, compute: dict[str, float] | None = None) -> float:
    """Wall time of a whole run; `compute["s"]` gets the sum of the cells' own times (in the workers)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.duckdb")
        started = time.perf_counter()
        summary = run_experiment(s, store, engine=engine, progress=False)
        elapsed = time.perf_counter() - started
        assert summary.done == summary.cells, summary
        if compute is not None:
            compute["s"] = float(store.get_experiment(s.experiment_id)["compute_s"])
    return elapsed


def overhead_ms(engine: Any, n1: int, n2: int) -> dict[str, float]:
    t1 = timed(engine, spec("overhead-small", n1, horizon=1))
    t2 = timed(engine, spec("overhead-big", n2, horizon=1))
    return {"n1": n1, "t1_s": t1, "n2": n2, "t2_s": t2, "per_cell_ms": 1000 * (t2 - t1) / (n2 - n1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer cells")
    args = parser.parse_args()
    n1, n2 = (20, 120) if args.quick else (50, 450)
    load = os.getloadavg()
    results: dict[str, Any] = {"cpus": os.cpu_count(), "load_before": [round(x, 2) for x in load]}

    results["local_overhead"] = overhead_ms(LocalEngine(2), n1, n2)

    cpu_cells, spin = (8, 600_000) if args.quick else (16, 1_000_000)
    cpu = spec("cpu-bound", cpu_cells, horizon=10, spin=spin)
    c1: dict[str, float] = {}
    c2: dict[str, float] = {}
    one = timed(LocalEngine(1), cpu, c1)
    two = timed(LocalEngine(2), cpu, c2)
    results["speedup"] = {
        "cells": cpu_cells,
        "one_worker_s": one,
        "two_workers_s": two,
        "speedup": one / two,
        "cell_time_sum_1_s": c1["s"],
        "cell_time_sum_2_s": c2["s"],
        "concurrency_2": c2["s"] / two,  # cells running at once on average (2.0 = both workers always busy)
    }

    ray_engine = RayEngine(2)
    started = time.perf_counter()
    owned = ray_engine._init()
    results["ray_start_s"] = time.perf_counter() - started
    try:
        timed(ray_engine, spec("ray-warmup", 4, horizon=1))  # workers start and import once
        results["ray_overhead"] = overhead_ms(ray_engine, n1, n2)
    finally:
        if owned:
            import ray

            ray.shutdown()
    results["load_after"] = [round(x, 2) for x in os.getloadavg()]

    lo, ro, sp = results["local_overhead"], results["ray_overhead"], results["speedup"]
    print(f"{'measure':44} {'value':>12}")
    print(f"{'local engine, overhead per cell (2 workers)':44} {lo['per_cell_ms']:10.1f} ms")
    print(f"{'ray engine, overhead per cell (2 CPUs)':44} {ro['per_cell_ms']:10.1f} ms")
    print(f"{'ray local instance start':44} {results['ray_start_s']:10.2f} s")
    print(f"{'CPU-bound spec, 1 worker':44} {sp['one_worker_s']:10.2f} s")
    print(f"{'CPU-bound spec, 2 workers':44} {sp['two_workers_s']:10.2f} s")
    print(f"{'speed-up 2 vs 1':44} {sp['speedup']:10.2f} x")
    print(f"{'cells in flight on average, 2 workers':44} {sp['concurrency_2']:10.2f}")
    print(
        f"{'sum of cell times, 1 / 2 workers':44} {sp['cell_time_sum_1_s']:6.1f} / {sp['cell_time_sum_2_s']:.1f} s"
    )
    print(f"load average before {results['load_before']}, after {results['load_after']}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
