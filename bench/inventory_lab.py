"""Inventory evaluation lab targets (issue 17), offline.

Part `dialogues`: the offline Copilot against the offline imitator at default noise on N generated instances
(protocol `mixed`): share of dialogues with the table exactly right (target >= 95%) and the median cost gap of
the recommended policy to the ground-truth reference (exact DP where it runs, else the optimizer's best on the
true parameters; target <= 2%). Part `protocol`: the whole offline paper70 protocol (70 scenarios, Treatment A
plus rules of thumb; B and C need a key) wall time with the local engine (target <= 10 min).

Both parts also report Treatment A's Fig. 4 order-query check (after the policy the manager asks "current
inventory x, day d, no incoming orders"; the Copilot's order tool must get the intended time step and return its
policy's order) and the paper-exact switches used (`--capacity-basis`, `--day-numbering`, `--families`). The
load average is sampled every 10 s during the run.

Run: .venv/bin/python bench/inventory_lab.py [--part dialogues|protocol|all] [--n 200] [--workers 1] [--out DIR]
     [--capacity-basis inventory_position|on_hand] [--day-numbering from_one|fig4] [--families full|paper]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.config import Settings  # noqa: E402
from core.inventory.lab.lab import LabConfig, run_lab  # noqa: E402
from core.inventory.lab.report import extraction_accuracy, order_query_summary, write_report  # noqa: E402

SWITCHES: dict[str, str] = {}


def dialogues(n: int, workers: int, out: Path) -> dict:
    config = LabConfig(protocol="mixed", n=n, seed=2026, treatments=("A",), workers=workers, **SWITCHES)
    start = time.perf_counter()
    result = run_lab(
        config, Settings(), progress=lambda f, m: print(f"  {f:.0%} {m}", file=sys.stderr, flush=True)
    )
    gaps = [r.assessment.gaps["A"] for r in result.records if "A" in r.assessment.gaps]
    # a dialogue without an evaluable policy (crash, turn limit, DP table for a misread lead time) fails
    strict = [r.assessment.gaps.get("A", float("inf")) for r in result.records]
    statuses = [r.outcomes["A"].status for r in result.records]
    write_report(result, out / "dialogues")
    wrong = {}
    for r in result.records:
        for k, ok in r.outcomes["A"].table_matches(r.scenario.table).items():
            wrong[k] = wrong.get(k, 0) + (not ok)
    return {
        "instances": n,
        "table_exact": extraction_accuracy(result.records)["table"],
        "rows_wrong": {k: v for k, v in wrong.items() if v},
        "median_gap": statistics.median(gaps),
        "median_gap_failures_as_inf": statistics.median(strict),
        "evaluable": len(gaps),
        "mean_gap": statistics.fmean(gaps),
        "gap_within_2pct": sum(g <= 0.02 for g in gaps) / len(gaps),
        "dp_reference": sum(r.assessment.dp_optimal_cost is not None for r in result.records),
        "statuses": {s: statuses.count(s) for s in set(statuses)},
        "excluded": {
            r.scenario.key: r.assessment.excluded["A"] for r in result.records if "A" in r.assessment.excluded
        },
        "order_query": order_query_summary(result.records),
        "seconds": time.perf_counter() - start,
    }


def protocol(workers: int, out: Path) -> dict:
    config = LabConfig(protocol="paper70", seed=0, workers=workers, **SWITCHES)
    start = time.perf_counter()
    result = run_lab(
        config, Settings(), progress=lambda f, m: print(f"  {f:.0%} {m}", file=sys.stderr, flush=True)
    )
    write_report(result, out / "protocol")
    gaps = [r.assessment.gaps["A"] for r in result.records if "A" in r.assessment.gaps]
    return {
        "scenarios": len(result.records),
        "seconds": time.perf_counter() - start,
        "table_exact": extraction_accuracy(result.records)["table"],
        "median_gap": statistics.median(gaps),
        "mean_gap": statistics.fmean(gaps),
        "evaluable": len(gaps),
        "order_query": order_query_summary(result.records),
        "not_run": sorted(result.not_run),
    }


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the pool workers), user + system."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=("dialogues", "protocol", "all"), default="all")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default="/tmp/orca-lab-bench")
    ap.add_argument(
        "--capacity-basis", choices=("inventory_position", "on_hand"), default="inventory_position"
    )
    ap.add_argument("--day-numbering", choices=("from_one", "fig4"), default="from_one")
    ap.add_argument("--families", choices=("full", "paper"), default="full")
    args = ap.parse_args()
    out = Path(args.out)
    SWITCHES.update(
        capacity_basis=args.capacity_basis, day_numbering=args.day_numbering, families=args.families
    )
    loads: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(10):
            loads.append(os.getloadavg()[0])

    threading.Thread(target=sample, daemon=True).start()
    report = {"load_before": os.getloadavg(), "switches": dict(SWITCHES)}
    if args.part in ("dialogues", "all"):
        cpu = cpu_seconds()
        report["dialogues"] = dialogues(args.n, args.workers, out)
        report["dialogues"]["cpu_seconds"] = cpu_seconds() - cpu
    if args.part in ("protocol", "all"):
        cpu = cpu_seconds()
        report["protocol"] = protocol(args.workers, out)
        report["protocol"]["cpu_seconds"] = cpu_seconds() - cpu
    done.set()
    report["load_after"] = os.getloadavg()
    report["load_1min_during"] = {"min": min(loads, default=None), "max": max(loads, default=None)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
