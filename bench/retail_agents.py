"""The offline RetailBench agents against the privileged oracle (hard_v2, 180 days by default).

Each seed: one environment reset per agent with the same seed (so the same simulator seed, catalog, news and
traffic draws); the oracle runs its plan on the simulator (`run_policy`), the tool-plan agents through the
public tool function only (`core.retail.hybrid.drive` over `RetailTools.call`). Reports final net worth,
total sales, return/expired ratios, stockout days and wall time per run, and the hybrid/oracle ratio.

Run: .venv/bin/python bench/retail_agents.py [--seeds 0 1 2 3 4] [--days 180] [--preset hard_v2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.retail.hybrid import OFFLINE_TOOL_AGENTS, drive  # noqa: E402
from solvers.retail.env import RetailBenchEnv  # noqa: E402
from solvers.retail.policies import make_policy, run_policy  # noqa: E402


def run(agent: str, *, preset: str, days: int, seed: int) -> dict:
    env = RetailBenchEnv(preset, max_days=days)
    welcome, _ = env.reset(seed=seed)
    started = time.perf_counter()
    if agent in OFFLINE_TOOL_AGENTS:
        actor = OFFLINE_TOOL_AGENTS[agent]()
        drive(actor, env.tools.call, welcome, days=days, seed=seed, stop=lambda: env.sim.bankrupt)
    else:
        run_policy(env.sim, make_policy(agent, env.config.name), days)
    wall = time.perf_counter() - started
    m = env.episode_metrics()
    return {
        "agent": agent,
        "seed": seed,
        "wall_s": round(wall, 2),
        **{
            k: m[k]
            for k in (
                "run_days",
                "final_networth",
                "total_sales",
                "return_ratio",
                "expired_ratio",
                "stockout_days",
            )
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--days", type=int, default=180)
    ap.add_argument("--preset", default="hard_v2")
    ap.add_argument("--agents", nargs="+", default=["oracle", "hybrid", "store_manager"])
    args = ap.parse_args()
    rows = [run(a, preset=args.preset, days=args.days, seed=s) for s in args.seeds for a in args.agents]
    print(
        f"{'agent':14} {'seed':>4} {'days':>4} {'net worth':>11} {'sales':>10} {'ret':>6} {'exp':>6} {'so':>4} {'wall':>6}"
    )
    for r in rows:
        print(
            f"{r['agent']:14} {r['seed']:>4} {r['run_days']:>4} {r['final_networth']:>11,.0f} {r['total_sales']:>10,.0f}"
            f" {r['return_ratio']:>6.3f} {r['expired_ratio']:>6.3f} {r['stockout_days']:>4} {r['wall_s']:>6.1f}"
        )
    summary = {}
    for a in args.agents:
        nw = [r["final_networth"] for r in rows if r["agent"] == a]
        summary[a] = {
            "mean_net_worth": statistics.mean(nw),
            "mean_wall_s": statistics.mean(r["wall_s"] for r in rows if r["agent"] == a),
        }
    if "oracle" in args.agents:
        for a in args.agents:
            ratios = [
                r["final_networth"] / o["final_networth"]
                for r in rows
                if r["agent"] == a
                for o in rows
                if o["agent"] == "oracle" and o["seed"] == r["seed"]
            ]
            summary[a]["net_worth_vs_oracle"] = [round(x, 3) for x in ratios]
            summary[a]["seeds_at_or_above_oracle"] = sum(x >= 1 for x in ratios)
    print(json.dumps({"preset": args.preset, "days": args.days, "seeds": args.seeds, "summary": summary}))


if __name__ == "__main__":
    main()
