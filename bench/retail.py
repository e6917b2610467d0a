"""Speed and sanity of the RetailBench simulator (hard_v2, 96 products).

* oracle 180 days on the simulator (the policy's tool calls applied directly), best of 3; 1,000 days;
* the same 180 days with a straightforward per-unit loop for selling (one Python step and draw per unit,
  per-unit return and review draws) — the ratio is measured in the same process;
* one 180-day oracle episode through the Gymnasium env and the rollout loop (every tool call a step);
* memory: tracemalloc peak of one 180-day run and the process's max RSS;
* sanity: every offline policy for 180 days on seeds 0-2 (Table 1 columns), survival-first selection.

Run: .venv/bin/python bench/retail.py [--quick]   (prints tables and a JSON line)
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.retail.config import preset  # noqa: E402
from solvers.retail.metrics import run_metrics, select_run  # noqa: E402
from solvers.retail.models import return_probability, tilted_probs  # noqa: E402
from solvers.retail.policies import POLICIES, make_policy, run_policy  # noqa: E402
from solvers.retail.sim import DIMENSIONS, RetailSim  # noqa: E402


class PerUnitSim(RetailSim):
    """Reference: the original's per-unit selling loop (pop one unit, draw its return and review)."""

    def _sell(self, j: int, y: int) -> tuple[int, float, int]:
        rng = self.rng_sales
        d, p = self.day, float(self.price[j])
        actual = min(y, int(self.onhand[j]))
        chunks = self.onhand_chunks[j]
        cogs, returned = 0.0, 0
        for _ in range(actual):
            chunk = chunks[0]
            lot = chunk[0]
            chunk[1] -= 1
            if chunk[1] == 0:
                chunks.popleft()
            s, q, buy = int(self.lot_supplier[lot]), float(self.lot_quality[lot]), float(self.lot_buy[lot])
            self.lot_left[lot] -= 1
            cogs += buy
            self.rec_sold[d, j, s] += 1
            self.rec_cogs[d, j, s] += buy
            self.sold_events.append((d, lot, 1, p))
            if rng.random() < return_probability(q):
                returned += 1
                self.rec_returns[d, j, s] += 1
            if rng.random() <= self.config.review_ratio:
                star = int(rng.choice(5, p=tilted_probs(q))) + 1
                dim = int(rng.integers(3))
                self.rec_rating_sum[d, j, s] += star
                self.rec_rating_cnt[d, j, s] += 1
                self.rec_rating_sum_sku[d, j] += star
                self.rec_rating_cnt_sku[d, j] += 1
                self.reviews_per_unit.append((d, j, s, star, DIMENSIONS[dim]))
        self.onhand[j] -= actual
        if actual:
            self.rec_move[d, j] = actual
            self.rec_price[d, j] = p
        return actual, cogs, returned

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reviews_per_unit: list[tuple] = []


def timed_run(sim_cls, days: int, seed: int = 0, policy: str = "oracle") -> tuple[float, float, list, RetailSim]:
    sim = sim_cls(preset("hard_v2"), seed=seed, horizon=days)
    pol = make_policy(policy)
    wall, cpu = time.perf_counter(), time.process_time()
    results = run_policy(sim, pol, days)
    return time.perf_counter() - wall, time.process_time() - cpu, results, sim


def env_episode(days: int) -> tuple[float, int, dict]:
    from core.retail.run import run_agent

    start = time.perf_counter()
    out = run_agent("oracle", days=days, seed=0, store=None)
    return time.perf_counter() - start, out["steps"], out["metrics"]


def main() -> None:
    quick = "--quick" in sys.argv
    load = os.getloadavg()
    out: dict = {"load_before": [round(x, 2) for x in load]}
    best = min((timed_run(RetailSim, 180) for _ in range(1 if quick else 3)), key=lambda r: r[0])
    out["oracle_180d_wall_s"], out["oracle_180d_cpu_s"] = round(best[0], 3), round(best[1], 3)
    sold = sum(int(r.sales.sum()) for r in best[2])
    out["units_sold_180d"] = sold
    wall, cpu, res, _ = timed_run(RetailSim, 1000)
    out["oracle_1000d_wall_s"], out["oracle_1000d_cpu_s"], out["oracle_1000d_days_run"] = round(wall, 3), round(cpu, 3), len(res)
    wall_u, cpu_u, res_u, _ = timed_run(PerUnitSim, 180)
    out["per_unit_180d_wall_s"], out["per_unit_180d_cpu_s"] = round(wall_u, 3), round(cpu_u, 3)
    out["speedup_vs_per_unit_cpu"] = round(cpu_u / best[1], 2)
    tracemalloc.start()
    timed_run(RetailSim, 180)
    out["tracemalloc_peak_mb_180d"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
    tracemalloc.stop()
    if not quick:
        wall, steps, m = env_episode(180)
        out["env_rollout_180d_wall_s"], out["env_rollout_steps"] = round(wall, 2), steps
        out["env_rollout_final_networth"] = round(m["final_networth"], 2)
    out["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    rows = []
    for name in POLICIES:
        runs = []
        for seed in range(1 if quick else 3):
            sim = RetailSim(preset("hard_v2"), seed=seed, horizon=180)
            pol = make_policy(name)
            run_policy(sim, pol, 180)
            m = run_metrics(sim.daily, direct_calls=pol.count)
            m["seed"] = seed
            runs.append(m)
        sel = select_run(runs)
        rows.append({
            "policy": name,
            "days(mean)": np.mean([r["run_days"] for r in runs]),
            "networth(mean)": round(float(np.mean([r["final_networth"] for r in runs])), 2),
            "sales(mean)": round(float(np.mean([r["total_sales"] for r in runs])), 1),
            "sold_skus/day": round(float(np.mean([r["avg_daily_sold_skus"] for r in runs])), 2),
            "return_ratio": round(float(np.mean([r["return_ratio"] for r in runs])), 4),
            "expired_ratio": round(float(np.mean([r["expired_ratio"] for r in runs])), 4),
            "stockout_days": round(float(np.mean([r["stockout_days"] for r in runs])), 1),
            "tool_calls/day": round(float(np.mean([r["avg_direct_tool_calls_per_day"] for r in runs])), 1),
            "selected_seed": sel["seed"],
            "selected_networth": round(sel["final_networth"], 2),
        })  # fmt: skip
    out["sanity"] = rows
    out["load_after"] = [round(x, 2) for x in os.getloadavg()]
    for k, v in out.items():
        if k != "sanity":
            print(f"{k:32s} {v}")
    for r in rows:
        print(" | ".join(f"{k}={v}" for k, v in r.items()))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
