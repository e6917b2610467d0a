"""Hybrid, oracle (paper reference policy) and full-information reference over the named catalogs (issue 29).

Per catalog (`solvers.retail.catalogs.VARIANTS`) and seed: each agent plays hard_v2 for `--days` days (the
oracle and the full-information policy on the simulator, `run_policy`; the hybrid through the public tool
function only, `core.retail.hybrid.drive`); then per agent the mean ± 95 % CI of final net worth over every
(catalog, seed) run and over the held-out catalogs only (`core.experiments.stats.summarize`), and the ratio of
each agent's net worth to the full-information reference's and to the oracle's on the same (catalog, seed).
Also prints each catalog's calibration (`catalogs.calibration`) with the oracle's units sold a day.

Run: .venv/bin/python bench/retail_catalogs.py [--seeds 0 1 2] [--days 180] [--catalogs default holdout1 ...]
Writes the rows as JSON lines to `--out` (default bench/results/retail_catalogs.jsonl).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.experiments.stats import summarize  # noqa: E402
from core.retail.agents import make_reference_or_policy  # noqa: E402
from core.retail.hybrid import OFFLINE_TOOL_AGENTS, drive  # noqa: E402
from solvers.retail.catalogs import DEFAULT_CATALOG, VARIANTS, calibration, load_named  # noqa: E402
from solvers.retail.env import RetailBenchEnv  # noqa: E402
from solvers.retail.policies import run_policy  # noqa: E402

AGENTS = ("hybrid", "oracle", "full_info")


def run(agent: str, catalog: str, seed: int, days: int) -> dict:
    env = RetailBenchEnv("hard_v2", max_days=days, catalog=catalog)
    welcome, _ = env.reset(seed=seed)
    started = time.perf_counter()
    assert env.sim is not None and env.tools is not None
    if agent in OFFLINE_TOOL_AGENTS:
        drive(OFFLINE_TOOL_AGENTS[agent](), env.tools.call, welcome, days=days, seed=seed,
              stop=lambda: bool(env.sim and env.sim.bankrupt))  # fmt: skip
    else:
        run_policy(env.sim, make_reference_or_policy(agent, "hard_v2"), days)
    m = env.episode_metrics()
    return {"catalog": catalog, "agent": agent, "seed": seed, "wall_s": round(time.perf_counter() - started, 1),
            **{k: m[k] for k in ("run_days", "final_networth", "total_sales", "return_ratio", "expired_ratio",
                                 "stockout_days")}}  # fmt: skip


def _ci(values: list[float]) -> str:
    s = summarize(values)
    half = (s["ci_high"] - s["ci_low"]) / 2
    return f"{s['mean']:,.4g} ± {half:,.3g} (n {s['n']})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--days", type=int, default=180)
    ap.add_argument("--catalogs", nargs="+", default=list(VARIANTS))
    ap.add_argument("--agents", nargs="+", default=list(AGENTS))
    ap.add_argument("--out", type=Path, default=Path("bench/results/retail_catalogs.jsonl"))
    args = ap.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    with args.out.open("w") as fh:
        for catalog in args.catalogs:
            for seed in args.seeds:
                for agent in args.agents:
                    row = run(agent, catalog, seed, args.days)
                    rows.append(row)
                    fh.write(json.dumps(row) + "\n")
                    fh.flush()
                    print(json.dumps(row), flush=True)
    print("\ncalibration (day 1 of the run, 180 days of traffic)")
    for catalog in args.catalogs:
        cal = calibration(load_named(catalog))
        oracle = [r for r in rows if r["catalog"] == catalog and r["agent"] == "oracle"]
        units = sum(r["total_sales"] for r in oracle) / max(1, sum(r["run_days"] for r in oracle))
        print(catalog, json.dumps({**{k: round(v, 3) for k, v in cal.items()}, "oracle_units_per_day": round(units)}))
    key = {(r["catalog"], r["seed"], r["agent"]): r["final_networth"] for r in rows}
    print("\nfinal net worth, mean ± 95 % CI half-width (bootstrap, core.experiments.stats)")
    for agent in args.agents:
        every = [r["final_networth"] for r in rows if r["agent"] == agent]
        held = [r["final_networth"] for r in rows if r["agent"] == agent and r["catalog"] != DEFAULT_CATALOG]
        line = f"{agent:10} all {_ci(every)}; held-out {_ci(held) if held else '—'}"
        for ref in ("full_info", "oracle"):
            if ref == agent or ref not in args.agents:
                continue
            ratio = [key[(c, s, agent)] / key[(c, s, ref)] for (c, s, a) in key if a == agent and key[(c, s, ref)] > 0]
            held_ratio = [key[(c, s, agent)] / key[(c, s, ref)] for (c, s, a) in key
                          if a == agent and c != DEFAULT_CATALOG and key[(c, s, ref)] > 0]  # fmt: skip
            beats = sum(x > 1 for x in ratio)
            line += f"; /{ref} all {_ci(ratio)} held-out {_ci(held_ratio) if held_ratio else '—'} (>1 in {beats}/{len(ratio)})"
        print(line)


if __name__ == "__main__":
    main()
