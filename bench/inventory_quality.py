"""Policy quality against the exact DP optimum, and DQN within a CPU budget.

Instance (issue 3): Poisson(8), h 0.5, b 2.83 per unit lost, K 3, lost sales, cap 40, max order 20, T 30, empty start.
For L = 1, 2: gaps (exact DP evaluation, no MC noise) of the agent's recommendation, best (s,S), capped base-stock
(each with/without end-of-horizon cutoff) and DQN. Then T 90, L 7, cap 100, max order 30: DQN vs the best
capped base-stock on 10,000 fresh common paths.

Run: .venv/bin/python bench/inventory_quality.py [--dqn-seconds 120] [--part small|long|all]
(about 2 x budget for `small`, 1 x budget for `long`, plus about 20 s of searches and evaluations)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.inventory.agent import optimize  # noqa: E402
from solvers.inventory.dp import evaluate_exact, solve_dp  # noqa: E402
from solvers.inventory.dqn import DQNConfig, train_dqn  # noqa: E402
from solvers.inventory.montecarlo import evaluate_policies  # noqa: E402
from solvers.inventory.search import search_policies  # noqa: E402
from solvers.inventory.spec import InventoryProblem  # noqa: E402
from tests.support.inventory import anchor as seed_anchor  # noqa: E402


def anchor(lead: int) -> InventoryProblem:
    return seed_anchor(lead)


def small_instances(dqn_seconds: float) -> dict:
    out = {}
    for lead in (1, 2):
        p = anchor(lead)
        opt = solve_dp(p).optimal_cost
        row = {"dp_optimum": opt}
        agent = optimize(p, 1000, 0, use_dqn=False)
        rec = agent.evaluations[agent.recommended]
        row["recommended"] = agent.recommended
        row["recommended_gap_%"] = (
            100 * (evaluate_exact(p, agent.searches[agent.recommended].best_policy) / opt - 1)
            if agent.recommended in agent.searches
            else 0.0
        )
        row["recommended_mc_mean"] = rec.mean
        for key, res in agent.searches.items():
            if key == "constant":
                continue
            exact = evaluate_exact(p, res.best_policy)
            row[f"{key}_policy"] = res.best.policy
            row[f"{key}_gap_%"] = 100 * (exact / opt - 1)
        start, cpu = time.perf_counter(), time.process_time()
        dqn = train_dqn(p, DQNConfig(steps=10_000, seconds=dqn_seconds, eval_every=250), seed=0)
        row["dqn_seconds"] = time.perf_counter() - start
        row["dqn_cpu_seconds"] = time.process_time() - cpu  # all threads of this process
        row["dqn_env_steps"] = dqn.env_steps
        row["dqn_gap_%"] = 100 * (evaluate_exact(p, dqn.policy) / opt - 1)
        first = next((c for c in dqn.curve if c["validation_cost"] <= 1.05 * opt), None)
        row["dqn_first_validation_within_5%_s"] = first["seconds"] if first else None
        out[f"L{lead}"] = row
    return out


def long_lead(dqn_seconds: float) -> dict:
    p = seed_anchor(7, time_horizon=90, max_inventory=100, max_order=30)
    bs = search_policies(p, "base_stock", 1000, 0)
    bs_cut = search_policies(p, "base_stock", 1000, 0, cutoff=True)
    start, cpu = time.perf_counter(), time.process_time()
    dqn = train_dqn(p, DQNConfig(steps=20_000, seconds=dqn_seconds, eval_every=250, eval_paths=1000), seed=0)
    secs, cpu = time.perf_counter() - start, time.process_time() - cpu
    evals = evaluate_policies(p, [bs.best_policy, bs_cut.best_policy, dqn.policy], 10_000, 12345)
    return {
        "dqn_seconds": secs,
        "dqn_cpu_seconds": cpu,
        "dqn_env_steps": dqn.env_steps,
        **{e.policy: {"mean": e.mean, "se": e.se, "std": e.std} for e in evals},
        "dqn_minus_best_capped_base_stock": evals[2].mean - min(evals[0].mean, evals[1].mean),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dqn-seconds", type=float, default=120)
    parser.add_argument("--part", choices=("small", "long", "all"), default="all")
    args = parser.parse_args()
    results = {}
    if args.part in ("small", "all"):
        results["finite_horizon"] = small_instances(args.dqn_seconds)
    if args.part in ("long", "all"):
        results["T90_L7"] = long_lead(args.dqn_seconds)
    for lead, row in results.get("finite_horizon", {}).items():
        print(f"\n{lead}: DP optimum {row['dp_optimum']:.4f}")
        for k, v in row.items():
            if k.endswith("_%"):
                print(f"  {k:28s} {v:7.2f}%")
    if "T90_L7" in results:
        print("\nT90 L7:", json.dumps(results["T90_L7"], indent=1))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
