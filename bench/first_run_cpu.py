"""CPU time a server process pays on its first script run of a page, with and without the launcher's warm-up
(`core/serve.py`, issue 31 item 2). CPU time (`time.process_time`) rather than wall time: it moves less with
the machine's load, so it can be compared across runs on a shared machine; `bench/page_paint.py` measures the
browser's wall time on a quiet one.

For each page and mode, a fresh interpreter imports what `streamlit run` has imported before it serves, then
(`warm`) runs `core.serve.warm_up()`, then runs `app.py` → the page twice through Streamlit's AppTest (two
sessions): `first` is the first run's CPU, `second` the second's (what every later visit pays), `extra` their
difference (what the first visitor pays for the process), `modules` the modules the first run imported.

Run: .venv/bin/python bench/first_run_cpu.py [--repeat 2] [--only inventory_copilot ...]
(offline, on a temporary store; prints a table, then one JSON line)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("home", "inventory_copilot", "policy_simulator", "inventory_lab", "school_scheduling",
         "school_scheduling_lab", "lp_repair_lab", "retailbench", "retailbench_replay", "experiments",
         "run_history")  # fmt: skip
PROBE = """
import json, os, sys, time
sys.path.insert(0, os.getcwd())
t = time.process_time()
import streamlit.web.bootstrap, streamlit.web.cli, streamlit.web.server  # what `streamlit run` has loaded
from streamlit.testing.v1 import AppTest
server = time.process_time() - t
t = time.process_time()
if {warm}:
    from core.serve import warm_up
    warm_up()
warm = time.process_time() - t
before = set(sys.modules)


def visit():
    at = AppTest.from_file(os.path.join(os.getcwd(), "app.py"), default_timeout=300)
    t = time.process_time()
    at.run()
    if {page!r} != "home":
        at.switch_page("pages/{page}.py").run()
    assert not at.exception, at.exception
    return time.process_time() - t


first = visit()
modules = len(set(sys.modules) - before)
second = visit()
print(json.dumps({{"server_s": server, "warm_up_s": warm, "first_s": first, "second_s": second, "modules": modules}}))
"""


def probe(page: str, warm: bool, env: dict[str, str]) -> dict:
    """One fresh process's CPU seconds (see the module docstring)."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(warm=warm, page=page)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=2, help="fresh processes per page and mode (median)")
    ap.add_argument("--only", action="append", default=[], metavar="PAGE", help="only these pages")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "ORCA_DB": str(Path(tmp) / "cpu.duckdb"), "ORCA_PROVIDER": "offline"}
        for page in [p for p in PAGES if not args.only or p in args.only]:
            row: dict = {"page": page}
            for mode, warm in (("cold", False), ("warm", True)):
                runs = [probe(page, warm, env) for _ in range(args.repeat)]
                for key in ("warm_up_s", "first_s", "second_s"):
                    row[f"{mode}_{key}"] = round(statistics.median(r[key] for r in runs), 2)
                row[f"{mode}_modules"] = int(statistics.median(r["modules"] for r in runs))
            rows.append(row)
    print(f"{'page':24} {'first run, no warm-up':>22} {'first run, warmed up':>21} {'later run':>10} {'warm-up':>8}")
    for r in rows:
        print(f"{r['page']:24} {r['cold_first_s']:>7.2f} s ({r['cold_modules']:>4} mod) "
              f"{r['warm_first_s']:>7.2f} s ({r['warm_modules']:>3} mod) {r['warm_second_s']:>8.2f} s "
              f"{r['warm_warm_up_s']:>6.2f} s")  # fmt: skip
    print(json.dumps({"cpu_seconds": rows}))


if __name__ == "__main__":
    main()
