"""Inventory evaluation lab targets (issue 17), offline.

Part `dialogues`: the offline Copilot against the offline imitator at default noise on N generated instances
(protocol `mixed`): share of dialogues with the table exactly right (target >= 95%) and the median cost gap of
the recommended policy to the ground-truth reference (exact DP where it runs, else the optimizer's best on the
true parameters; target <= 2%). Part `protocol`: the whole offline paper70 protocol (70 scenarios, Treatment A
plus rules of thumb; B and C need a key) wall time with the local engine (target <= 10 min).

Run: .venv/bin/python bench/inventory_lab.py [--part dialogues|protocol|all] [--n 200] [--workers 1] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.config import Settings  # noqa: E402
from core.inventory.lab.lab import LabConfig, run_lab  # noqa: E402
from core.inventory.lab.report import extraction_accuracy, write_report  # noqa: E402


def dialogues(n: int, workers: int, out: Path) -> dict:
    config = LabConfig(protocol="mixed", n=n, seed=2026, treatments=("A",), workers=workers)
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
        "seconds": time.perf_counter() - start,
    }


def protocol(workers: int, out: Path) -> dict:
    config = LabConfig(protocol="paper70", seed=0, workers=workers)
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
    args = ap.parse_args()
    out = Path(args.out)
    report = {"load_before": os.getloadavg()}
    if args.part in ("dialogues", "all"):
        cpu = cpu_seconds()
        report["dialogues"] = dialogues(args.n, args.workers, out)
        report["dialogues"]["cpu_seconds"] = cpu_seconds() - cpu
    if args.part in ("protocol", "all"):
        cpu = cpu_seconds()
        report["protocol"] = protocol(args.workers, out)
        report["protocol"]["cpu_seconds"] = cpu_seconds() - cpu
    report["load_after"] = os.getloadavg()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
