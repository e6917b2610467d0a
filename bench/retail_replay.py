"""Speed of a 180-day hybrid run through the environment and the rollout loop, and of the replay page's first
paint (AppTest: the page script's first complete run, which reads the run list, the daily series, the day index
and day 1's calls) on it and on an imported original-format run with tens of thousands of tool calls.

The large run is synthetic (written in the original `tool_calls.jsonl` format by this script: `--calls` calls
over the same number of days, view calls with SKU lists, execute_code inner calls, orders, price changes and
an end_today with sales for 40 SKUs per day); it measures the page's reads, not any agent.

Run: .venv/bin/python bench/retail_replay.py [--days 180] [--seed 0] [--calls 20000]   (prints a JSON line)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from core.retail.importer import import_run_dir  # noqa: E402
from core.retail.run import run_offline  # noqa: E402
from core.store import Store  # noqa: E402

PAGE = str(ROOT / "pages" / "retailbench_replay.py")


def synthetic_run_dir(root: Path, *, days: int, calls: int, seed: int) -> Path:
    """An original-format run directory with `calls` tool calls over `days` days."""
    rng = random.Random(seed)
    skus = [f"{30000000000 + 7919 * i}" for i in range(96)]
    per_day = max(calls // days - 1, 4)
    start = date(1991, 9, 7)
    funds = 30000.0
    root.mkdir(parents=True)
    with (root / "tool_calls.jsonl").open("w") as fh:
        for d in range(days):
            today = (start + timedelta(days=d)).isoformat()
            for i in range(per_day):
                kind = i % 10
                pick = rng.sample(skus, 5)
                if kind == 8:
                    tool, args, res = "place_order", {"items": [{"sku_id": pick[0], "quantity": 40}],
                                                      "supplier_id": f"supplier_{rng.randint(1, 5)}"}, {"lines": []}  # fmt: skip
                elif kind == 9:
                    tool, args, res = "modify_sku_price", {"sku_id": pick[0], "new_price": round(rng.uniform(1, 4), 2)}, {}
                else:
                    tool = ["view_sales_profit_history", "view_current_date_supplier_prices", "view_inventory",
                            "view_supplier_returns_avg_rate", "view_sku_prices"][kind % 5]  # fmt: skip
                    args = {"sku_ids": pick}
                    res = {s: {"rows": [{"date": today, "price": 2.5, "units": rng.randint(0, 30)}] * 5} for s in pick}
                source = "execute_code" if kind in (1, 3) else "direct"
                fh.write(json.dumps({"ts": "2026-01-01T00:00:00Z", "tool": tool, "call_source": source, "args": args,
                                     "result": {"result": res, "formatted": f"{tool}: " + "x" * 400},
                                     "funds": funds, "net_worth": funds, "current_date": today}) + "\n")  # fmt: skip
            funds += rng.uniform(-600, 900)
            sales = {s: rng.randint(0, 40) for s in rng.sample(skus, 40)}
            nxt = (start + timedelta(days=d + 1)).isoformat()
            fh.write(json.dumps({"ts": "x", "tool": "end_today", "call_source": "direct", "args": {},
                                 "result": {"result": {"funds": funds, "net_worth": funds + 5000, "current_date": nxt,
                                                       "sales_by_sku": sales, "insufficient_skus": [],
                                                       "returns_by_sku": {}, "expired_discount_by_sku": {}},
                                            "formatted": "day closed"},
                                 "funds": funds, "net_worth": funds + 5000, "current_date": nxt}) + "\n")  # fmt: skip
    (root / "run_react_synthetic.json").write_text("[]")
    return root


def first_paints(run_id: str, n: int = 3) -> list[float]:
    out = []
    for _ in range(n):
        at = AppTest.from_file(PAGE, default_timeout=120)
        at.session_state["orca_retail_replay_run"] = run_id
        t0 = time.perf_counter()
        at.run()
        out.append(round(time.perf_counter() - t0, 2))
        assert not at.exception, at.exception
        assert at.multiselect(key="orca_retail_runs").value == [run_id]
    return out


def day_reads(store: Store, run_id: str) -> list[float]:
    """Seconds to read and split one day (days 1, 90, 180) as the Day tab does."""
    from core.retail import replay

    bounds = replay.day_bounds(store, run_id)
    out = []
    for day in (1, len(bounds) // 2, len(bounds)):
        t0 = time.perf_counter()
        replay.day_view(replay.day_steps(store, run_id, day, bounds))
        out.append(round(time.perf_counter() - t0, 3))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=180)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--calls", type=int, default=20_000, help="tool calls of the synthetic imported run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        store = Store(db)
        started = time.perf_counter()
        out = run_offline("hybrid", days=args.days, seed=args.seed, store=store)
        total = time.perf_counter() - started
        steps = len(store.transitions(out["run_id"]))
        t0 = time.perf_counter()
        big = import_run_dir(store, synthetic_run_dir(Path(tmp) / "big", days=args.days, calls=args.calls, seed=1))
        import_s = time.perf_counter() - t0
        os.environ["ORCA_DB"] = str(db)
        print(json.dumps({"days": args.days, "transitions": steps, "rollout_s": out["elapsed_s"],
                          "rollout_and_store_s": round(total, 2), "final_networth": out["metrics"]["final_networth"],
                          "replay_first_paint_s": first_paints(out["run_id"]),
                          "day_read_s": day_reads(store, out["run_id"]),
                          "imported_calls": len(store.transitions(big)), "import_s": round(import_s, 2),
                          "imported_first_paint_s": first_paints(big),
                          "imported_day_read_s": day_reads(store, big)}))  # fmt: skip


if __name__ == "__main__":
    main()
