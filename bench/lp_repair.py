"""LP Repair Lab speed and quality (issue 14).

Parts:
* generate — the full 976-problem data set (seed 2), wall time and discard rates per type;
* baseline — 200 configurations per (N, T) cell: LP and tightened LP OPTIMAL, h order and h:b ranges;
* saboteur — 200 injections per type before any discard: share INFEASIBLE (ME-5: OPTIMAL but irrational);
* iis      — HiGHS getIis on every sabotaged 5x24 problem (timed 5 times each; median / p95), plus an
             independent irreducibility check (members alone infeasible, every single deletion feasible) on up
             to 50 problems per type;
* step     — LPRepairEnv.step wall time over the offline and greedy agents' episodes on the test split;
* agents   — offline agent (paper grammar and extended set), greedy floor, do-nothing, ground-truth replay on
             the test split: RR / RRR (paper and strict judge) per error type and seconds;
* judges   — the ground-truth edits replayed on every test-split problem: share that each judge accepts
             (the strict judge must accept all of them; issue 28).
* own      — own-model analysis of each Netlib infeasible LP (bench/lp_own_model.py; target <= 5 s each).

Run: .venv/bin/python bench/lp_repair.py [--part generate|iis|step|agents|all] [--out bench/results/lp_repair.json]
(the data set is read from artifacts/lp_repair/optirepair_sc2_seed2.json when present, else generated)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.repair.data import dataset_path, load_or_generate  # noqa: E402
from core.repair.evaluate import make_offline_agent, run_offline  # noqa: E402
from core.repair.metrics import summarize  # noqa: E402
from solvers.lp.dataset import generate, save  # noqa: E402
from solvers.lp.edits import apply_edits  # noqa: E402
from solvers.lp.env import LPRepairEnv  # noqa: E402
from solvers.lp.errortypes import ErrorType  # noqa: E402
from solvers.lp.iischeck import is_irreducible_iis  # noqa: E402
from solvers.lp.oracle import Judge, judge  # noqa: E402


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def part_generate() -> dict:
    started = time.perf_counter()
    problems, stats = generate(seed=2)
    seconds = time.perf_counter() - started
    save(problems, dataset_path(2), stats)
    return {"problems": len(problems), "seconds": round(seconds, 1), "stats": stats.to_dict()}


def part_baseline(per_cell: int = 200) -> dict:
    """Acceptance check 1: every (N, T) cell, the LP and its tightened version solve OPTIMAL; h and h:b ranges."""
    from solvers.lp.instance import ECHELONS, PERIODS, sample_supply_chain
    from solvers.lp.model import LPStatus, build_supply_chain
    from solvers.lp.saboteur import build_tightened, calibrate

    total = ok = ranges_ok = 0
    cols = []
    for n in ECHELONS:
        for t in PERIODS:
            for k in range(per_cell):
                rng = np.random.default_rng([7, n, t, k])
                sc = sample_supply_chain(rng, n_echelons=n, n_periods=t)
                base = build_supply_chain(sc)
                total += 1
                cols.append(base.num_cols)
                if base.solve().status is LPStatus.OPTIMAL:
                    tight = build_tightened(sc, calibrate(sc, base))
                    ok += tight.solve().status is LPStatus.OPTIMAL
                ranges_ok += list(sc.holding) == sorted(sc.holding, reverse=True) and all(
                    2 - 1e-6 <= b / h <= 10.01 for h, b in zip(sc.holding, sc.backorder, strict=True)
                )
    return {
        "instances": total,
        "both_optimal": ok,
        "ranges_ok": ranges_ok,
        "mean_columns": round(float(np.mean(cols)), 1),
    }


def part_saboteur(per_type: int = 200) -> dict:
    """Acceptance check 2 before any discard: share of injections that make the tightened LP infeasible
    (ME-5: OPTIMAL and failing cost consistency)."""
    from solvers.lp.edits import apply_edits
    from solvers.lp.instance import sample_supply_chain
    from solvers.lp.model import LPStatus, build_supply_chain
    from solvers.lp.oracle import evaluate
    from solvers.lp.saboteur import build_tightened, calibrate, inject

    out = {}
    for e in ErrorType:
        hits = tried = 0
        for k in range(per_type):
            rng = np.random.default_rng([11, k])
            sc = sample_supply_chain(rng)
            base = build_supply_chain(sc)
            base.solve()
            tight = calibrate(sc, base)
            try:
                sab = inject(e, sc, tight, rng)
            except Exception:  # noqa: BLE001 - the injection does not apply to this configuration
                continue
            tried += 1
            m = build_tightened(sc, tight)
            apply_edits(m, sab.edits)
            status = m.solve().status
            if e is ErrorType.ME5:
                report = evaluate(m, sc, error_type=e)
                hits += status is LPStatus.OPTIMAL and report is not None and not report.passed
            else:
                hits += status is LPStatus.INFEASIBLE
        out[e.value] = {
            "tried": tried,
            "as_intended": hits,
            "share": round(hits / tried, 4) if tried else None,
        }
    return out


def part_iis(problems) -> dict:
    big = [p for p in problems if p.size == "5x24" and p.error_type is not ErrorType.ME5]
    times: dict[str, list[float]] = {"ray": [], "highs": []}
    cpu: dict[str, list[float]] = {"ray": [], "highs": []}
    for p in big:
        for method in ("ray", "highs"):
            for _ in range(3):
                m = p.build()
                m.solve()
                t, c = time.perf_counter(), time.process_time()
                m.iis(method)
                times[method].append(1000 * (time.perf_counter() - t))
                cpu[method].append(1000 * (time.process_time() - c))
    checked, irreducible = 0, 0
    per_type: dict[str, int] = {}
    for p in problems:
        if p.error_type is ErrorType.ME5 or per_type.get(p.error_type.value, 0) >= 50:
            continue
        per_type[p.error_type.value] = per_type.get(p.error_type.value, 0) + 1
        m = p.build()
        iis = m.iis()
        checked += 1
        irreducible += is_irreducible_iis(m, iis)
    return {
        "problems_5x24": len(big),
        **{
            f"{method}_{kind}_ms_{q}": round(fn(values[method]), 2)
            for method in ("ray", "highs")
            for kind, values in (("wall", times), ("cpu", cpu))
            for q, fn in (("median", statistics.median), ("p95", lambda v: pct(v, 0.95)))
        },
        "irreducible_checked": checked,
        "irreducible": irreducible,
    }


def part_step(problems) -> dict:
    test = [p for p in problems if p.split == "test"]
    env = LPRepairEnv(test)
    times: list[float] = []
    cpu: list[float] = []
    resets: list[float] = []
    for agent_name in ("offline", "greedy"):
        for p in test:
            agent = make_offline_agent(agent_name, p, protected=True, extended=False)
            t = time.perf_counter()
            obs, _ = env.reset(options={"problem": p.id})
            resets.append(1000 * (time.perf_counter() - t))
            agent.reset(0)
            done = False
            while not done:
                action = agent.act(obs)
                t, c = time.perf_counter(), time.process_time()
                obs, _r, term, trunc, _i = env.step(action)
                times.append(1000 * (time.perf_counter() - t))
                cpu.append(1000 * (time.process_time() - c))
                done = term or trunc
    return {
        "steps": len(times),
        "step_ms_median": round(statistics.median(times), 2),
        "step_ms_p95": round(pct(times, 0.95), 2),
        "step_cpu_ms_median": round(statistics.median(cpu), 2),
        "reset_ms_median": round(statistics.median(resets), 2),
    }


def part_agents(problems) -> dict:
    test = [p for p in problems if p.split == "test"]
    out = {}
    for label, name, extended in (
        ("offline (paper grammar)", "offline", False),
        ("offline (extended)", "offline", True),
        ("greedy drop-first-IIS-row", "greedy", False),
        ("do-nothing", "do-nothing", False),
        ("ground-truth replay (extended)", "ground-truth", True),
    ):
        started = time.perf_counter()
        rows = run_offline(test, name, extended=extended)
        seconds = time.perf_counter() - started
        s = summarize(rows)
        out[label] = {
            "seconds": round(seconds, 1),
            "overall": s["overall"],
            "by_type": {
                k: {
                    "RR": v["RR"],
                    "RRR": v["RRR"],
                    "rrr_strict": v["rrr_strict"],
                    "exact": v["exact"],
                    "steps": v["steps"],
                }
                for k, v in s["by_type"].items()
            },
        }
    return out


def part_judges(problems) -> dict:
    """Ground-truth edits replayed on every test-split problem, judged by each judge; refused ids listed."""
    test = [p for p in problems if p.split == "test"]
    started = time.perf_counter()
    out: dict = {"problems": len(test)}
    for kind in Judge:
        refused = []
        for p in test:
            model = p.build()
            apply_edits(model, p.gt_edits)
            if not judge(model, p.supply_chain, error_type=p.error_type, kind=kind, limits=p.limits):
                refused.append(p.id)
        out[kind.value] = {"accepted": len(test) - len(refused), "refused": refused}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--part",
        choices=("generate", "baseline", "saboteur", "iis", "step", "agents", "judges", "own", "all"),
        default="all",
    )
    parser.add_argument("--out", default="bench/results/lp_repair.json")
    args = parser.parse_args()
    result: dict = {"load_before": os.getloadavg()}
    if args.part in ("generate", "all"):
        result["generate"] = part_generate()
        print(
            json.dumps({"generate": {k: v for k, v in result["generate"].items() if k != "stats"}}),
            flush=True,
        )
    for name, fn in (("baseline", part_baseline), ("saboteur", part_saboteur)):
        if args.part in (name, "all"):
            result[name] = fn()
            print(json.dumps({name: result[name]}), flush=True)
    if args.part in ("own", "all"):  # own-model analysis of the Netlib infeasible LPs (bench/lp_own_model.py)
        from bench.lp_own_model import run as run_own_model

        result["own"] = run_own_model()
    if args.part == "own":
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
        return
    problems = load_or_generate(2)
    for name, fn in (
        ("iis", part_iis),
        ("step", part_step),
        ("agents", part_agents),
        ("judges", part_judges),
    ):
        if args.part in (name, "all"):
            result[name] = fn(problems)
            print(json.dumps({name: result[name]}), flush=True)
    result["load_after"] = os.getloadavg()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1))
    print(f"load average before {result['load_before']}, after {result['load_after']}")


if __name__ == "__main__":
    main()
