"""The Inventory Copilot's final turn (optimize + critic + explanation, recorded in a DuckDB store) on
instances up to T = 90, including a 90-day bike shop whose exact DP is refused as too large.

Run: .venv/bin/python bench/copilot_final_turn.py [--repeats 3]   (prints a table, then one JSON line)
Target (issue 11, item 12b): <= 5 s per final turn on the 2-core project machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.config import Settings  # noqa: E402
from core.inventory.copilot.session import Copilot, CopilotConfig  # noqa: E402
from core.store import Store  # noqa: E402

INSTANCES = {
    "bike_shop_T90_dp_refused": (
        "I run a bike shop. Daily demand is random, normal with mean 20 and standard deviation 7.5593 bikes a day. "
        "If we're out, customers go elsewhere. Holding a bike costs $0.20 per unit per day, and each lost sale "
        "costs us $30. There's a flat $50 fee per delivery, and deliveries arrive 5 days after we order. We can "
        "store up to 200 units, and the supplier caps a single order at 100 units. Nothing perishes. "
        "Plan for 90 days.",
        "0",
    ),
    "phone_cases_T90_dp": (
        "I sell phone cases online. Daily demand is random, Poisson with λ = 3 units a day. If we're out, "
        "customers go elsewhere. Holding a case costs $0.50 per unit per day, and each lost sale costs us $4. "
        "There's a flat $3 fee per shipment, and deliveries arrive 1 day after we order. We can store up to 15 "
        "units, and the supplier caps a single order at 10 units. Nothing perishes. Plan for 90 days.",
        "2",
    ),
    "croissants_T14_perishable": (
        "Croissants, about 30 a day, give or take 8. They're thrown out every evening. If we're out, people go "
        "somewhere else. Plan for two weeks.",
        "Keeping one costs 15 cents a day, a lost croissant is $1.20, the bakery charges $6 per delivery and "
        "there's a two-day wait.",
        "The display case has room for 50 and the bakery won't ship more than 45.",
        "I'd say -1",
    ),
}


def final_turn(lines: tuple[str, ...], folder: Path) -> tuple[float, dict]:
    store = Store(folder / "bench.duckdb")
    copilot = Copilot(Settings(), store, CopilotConfig(seed=0), workdir=folder / "work")
    copilot.greeting()
    for line in lines[:-1]:
        copilot.respond(line)
    seen: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    turn = copilot.respond(lines[-1], progress=lambda f, m: seen.append(f))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert turn.action == "TERMINATE", turn.assistant[:300]
    steps = store.steps(copilot.run_id)
    return seconds, {
        "recommended": turn.policy["recommended_policy"],
        "progress_updates": len(seen),
        "recorded_latency_s": round(float(steps["latency_ms"].sum()) / 1000, 3),
        "cpu_s": round(cpu, 2),
    }


QUALITY = {
    "bike_shop_T90": "90;normal(20,7.5593);false;lost_sale;0.2;30;50;5;200;100;0",
    "cafe_T60_L2": "60;poisson(25);false;lost_sale;0.1;2;8;2;120;60;0",
    "backlog_T90_L1": "90;normal(12,4);false;backlog;0.3;3;20;1;150;80;0",
}


def quality() -> dict:
    """The coarse-to-fine search against the exhaustive grid: the final recommendation's L(π) gap."""
    from solvers.inventory.agent import optimize
    from solvers.inventory.spec import problem_from_table

    keys = ("time_horizon", "demand_distribution", "perishability", "state_transition_model", "holding_cost",
            "penalty_cost", "setup_cost", "lead_time", "max_inventory", "max_order", "risk_tolerance")
    out = {}
    for name, row in QUALITY.items():
        table = dict(zip(keys, row.split(";"), strict=True)) | {"demand_type": "random"}
        problem = problem_from_table(table)
        runs = {}
        for label, budget in (("coarse_to_fine", "default"), ("exhaustive", None)):
            kwargs = {} if budget == "default" else {"max_candidates": None}
            start = time.perf_counter()
            res = optimize(problem, 1000, 0, False, use_dp=False, **kwargs)
            runs[label] = (time.perf_counter() - start, res.objective, res.recommended_policy)
        gap = 100 * (runs["coarse_to_fine"][1] - runs["exhaustive"][1]) / abs(runs["exhaustive"][1])
        out[name] = {k: {"seconds": round(v[0], 2), "objective": round(v[1], 3), "policy": v[2]} for k, v in runs.items()}
        out[name]["gap_pct"] = round(gap, 3)
        print(f"{name:20s} gap {gap:+.3f}%  {out[name]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quality", action="store_true", help="compare with the exhaustive grid (slow)")
    args = parser.parse_args()
    if args.quality:
        print(json.dumps({"quality": quality(), "load_average": os.getloadavg()[0]}))
        return
    out = {}
    for name, lines in INSTANCES.items():
        times, info = [], {}
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as tmp:
                secs, info = final_turn(lines, Path(tmp))
            times.append(secs)
        out[name] = {"median_s": round(statistics.median(times), 2), "max_s": round(max(times), 2), **info}
        print(f"{name:32s} median {out[name]['median_s']:6.2f} s  max {out[name]['max_s']:6.2f} s  {info}")
    print(json.dumps({"final_turn": out, "load_average": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
