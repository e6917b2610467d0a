"""Speed of the inventory engine: full (s,S) grid (T 90, cap 100, max order 50, 1,000 paths), DP at L = 1, 2
(and a backlog T = 365), single MC.

Run: .venv/bin/python bench/inventory_speed.py   (prints a table and a JSON line)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.inventory.dp import solve_dp  # noqa: E402
from solvers.inventory.montecarlo import demand_matrix, evaluate_policy  # noqa: E402
from solvers.inventory.policies import SSPolicy  # noqa: E402
from solvers.inventory.search import evaluate_rules, family_rules  # noqa: E402
from solvers.inventory.spec import InventoryProblem, parse_demand  # noqa: E402


def best_of(fn, repeats: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    rows = {}
    big = InventoryProblem(90, parse_demand("poisson(8)"), False, True, 0.5, 2.83, 3, 4, 100, 50)
    demand = demand_matrix(big, 1000, 0)
    rules = family_rules(big, "sS")
    for threads in (1, 2):
        secs, (mean, std) = best_of(
            lambda t=threads: evaluate_rules(big, rules[:, 0], rules[:, 1], rules[:, 2], demand, threads=t)
        )
        i = int(mean.argmin())
        rows[f"grid_5151_pairs_threads{threads}"] = {
            "seconds": secs,
            "best": rules[i, :2].tolist(),
            "mean": float(mean[i]),
        }
    secs, _ = best_of(lambda: evaluate_policy(big, SSPolicy(39, 42), 1000, 0))
    rows["single_policy_mc_1000x90"] = {"seconds": secs}
    for lead in (1, 2):
        p = InventoryProblem(30, parse_demand("poisson(8)"), False, True, 0.5, 2.83, 3, lead, 40, 20)
        secs, res = best_of(lambda p=p: solve_dp(p))
        rows[f"dp_L{lead}"] = {"seconds": secs, "optimal_cost": res.optimal_cost, "states": res.states}
    # backlog: the on-hand axis spans -T·d_max..max_inventory (13,181 levels at T = 365)
    long = InventoryProblem(365, parse_demand("poisson(8)"), False, False, 0.5, 2.83, 3, 0, 40, 20)
    secs, res = best_of(lambda: solve_dp(long))
    rows["dp_backlog_L0_T365"] = {"seconds": secs, "optimal_cost": res.optimal_cost, "states": res.states}
    # the plain-words summary of the DP policy, validated by evaluating it on the same 300 paths
    from core.inventory.policy_brief import policy_rule

    bakery = InventoryProblem(30, parse_demand("poisson(20)"), True, True, 0.5, 3, 10, 1, 60, 60)
    table = solve_dp(bakery).policy
    secs, rule = best_of(lambda: policy_rule(bakery, "dp", table, 0))
    rows["dp_summary_validated_bakery"] = {"seconds": secs, "summary_gap_pct": rule["summary_gap_pct"]}
    print(f"{'case':32s} {'seconds':>8s}  detail")
    for k, v in rows.items():
        print(f"{k:32s} {v['seconds']:8.3f}  {', '.join(f'{a}={b}' for a, b in v.items() if a != 'seconds')}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
