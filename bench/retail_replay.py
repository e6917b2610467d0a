"""Speed of a 180-day hybrid run through the environment and the rollout loop, and of the replay page's first
paint on it (AppTest: the page script's first complete run, which reads the run list, the daily series, the
day index and day 1's calls).

Run: .venv/bin/python bench/retail_replay.py [--days 180] [--seed 0]   (prints a JSON line)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from core.retail.run import run_offline  # noqa: E402
from core.store import Store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=180)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        store = Store(db)
        started = time.perf_counter()
        out = run_offline("hybrid", days=args.days, seed=args.seed, store=store)
        total = time.perf_counter() - started
        steps = len(store.transitions(out["run_id"]))
        os.environ["ORCA_DB"] = str(db)
        paints = []
        for _ in range(3):
            at = AppTest.from_file(str(ROOT / "pages" / "retailbench_replay.py"), default_timeout=120)
            t0 = time.perf_counter()
            at.run()
            paints.append(time.perf_counter() - t0)
            assert not at.exception, at.exception
        print(json.dumps({"days": args.days, "transitions": steps, "rollout_s": out["elapsed_s"],
                          "rollout_and_store_s": round(total, 2), "final_networth": out["metrics"]["final_networth"],
                          "replay_first_paint_s": [round(p, 2) for p in paints]}))  # fmt: skip


if __name__ == "__main__":
    main()
