"""First paint of every page in a real browser (issue 31 item 2): one row per page.

Starts the app as `make run` does (`python -m core.serve`: healthy only once warmed up, `core/serve.py`) offline
on a fresh store that holds one 180-day hybrid RetailBench run (so the replay page has a long run to paint), then
opens each page in a fresh browser context (headless Debian chromium through Playwright) and times, from the
navigation:

- `heading_ms`: the page's title is visible (first paint);
- `usable_ms`: the page's first script run has finished (Streamlit reports no run in progress) — every widget
  and the page's main view are there.

`cold` is each page's first visit after the server started (pages are visited in the order below; what a
process pays once, the shared imports and fitted classifiers, the launcher paid before the server answered); `warm` is the median of `--repeat` later visits, each in a new
browser session (a new Streamlit session: nothing of the earlier visit is reused but the process's caches).

Pages that finish their work after the first script run also time when their main view is complete
(`READY`: School Scheduling's opening proposal, `proposal_ms`, and its frontier chart, `frontier_ms`, both
computed in the background).

Run: .venv/bin/python bench/page_paint.py [--repeat 3] [--days 180] [--only /school_scheduling ...]
(prints a table, then one JSON line; `--only` visits just those paths, `--days 0` stores no RetailBench run)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from core.retail.run import run_agent  # noqa: E402
from core.store import Store  # noqa: E402
from tests.support.browser import CHROMIUM_ARGS, find_chromium, start_server  # noqa: E402

PAGES = (
    ("/", "ORCA"),
    ("/inventory_copilot", "Inventory Copilot"),
    ("/policy_simulator", "Policy Simulator"),
    ("/inventory_lab", "Inventory evaluation lab"),
    ("/school_scheduling", "School Scheduling"),
    ("/school_scheduling_lab", "School Scheduling Lab"),
    ("/lp_repair_lab", "LP Repair Lab"),
    ("/retailbench", "RetailBench"),
    ("/retailbench_replay", "RetailBench replay"),
    ("/experiments", "Experiments"),
    ("/run_history", "Run history"),
)
READY = {
    "/school_scheduling": {"proposal": '[data-testid="stMetric"]', "frontier": ".js-plotly-plot"},
}
"""Per page: what else to wait for after the first script run, by name (`<name>_ms`) and CSS selector."""
IDLE_JS = (
    "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
    " return a && a.getAttribute('data-test-connection-state') === 'CONNECTED'"
    " && a.getAttribute('data-test-script-state') === 'notRunning'; }"
)


def visit(browser, base: str, path: str) -> tuple[float, ...]:  # noqa: ANN001 - a Playwright browser
    """(heading_ms, usable_ms, then one time per `READY` selector of the page) of one visit in a fresh context."""
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=base)
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(path, wait_until="commit")
        page.locator("h1").first.wait_for(state="visible", timeout=120_000)
        heading = time.perf_counter() - start
        page.wait_for_function(IDLE_JS, timeout=180_000, polling=20)
        usable = time.perf_counter() - start
        ready = []
        for selector in READY.get(path, {}).values():
            page.locator(selector).first.wait_for(state="visible", timeout=180_000)
            ready.append(round(1000 * (time.perf_counter() - start)))
        if page.locator('[data-testid="stException"]').count():
            raise RuntimeError(f"{path}: the page shows an exception")
        return (round(1000 * heading), round(1000 * usable), *ready)
    finally:
        context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--days", type=int, default=180)
    ap.add_argument("--only", action="append", default=[], metavar="PATH", help="visit only these paths")
    args = ap.parse_args()
    pages = [(path, title) for path, title in PAGES if not args.only or path in args.only]
    exe = find_chromium()
    if exe is None:
        sys.exit("Debian 'chromium' not found (apt-get install chromium, or set CHROMIUM_PATH)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "paint.duckdb"
        run = run_agent("hybrid", days=args.days, seed=0, store=Store(db)) if args.days > 0 else {"run_id": None}
        server = start_server(Path(tmp), {"ORCA_DB": str(db), "ORCA_PROVIDER": "offline"})
        rows = []
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
                cold = {path: visit(browser, server.url, path) for path, _ in pages}
                for path, title in pages:
                    warm = [visit(browser, server.url, path) for _ in range(args.repeat)]
                    rows.append(
                        {
                            "page": title,
                            "path": path,
                            "cold_heading_ms": cold[path][0],
                            "cold_usable_ms": cold[path][1],
                            "warm_heading_ms": statistics.median(w[0] for w in warm),
                            "warm_usable_ms": statistics.median(w[1] for w in warm),
                        }
                    )
                    for i, name in enumerate(READY.get(path, {}), start=2):
                        rows[-1][f"cold_{name}_ms"] = cold[path][i]
                        rows[-1][f"warm_{name}_ms"] = statistics.median(w[i] for w in warm)
                browser.close()
        finally:
            server.stop()
    print(f"{'page':28} {'cold heading':>13} {'cold usable':>12} {'warm heading':>13} {'warm usable':>12}")
    for r in rows:
        print(
            f"{r['page']:28} {r['cold_heading_ms']:>11} ms {r['cold_usable_ms']:>10} ms "
            f"{r['warm_heading_ms']:>11} ms {r['warm_usable_ms']:>10} ms"
        )
        for name in READY.get(r["path"], {}):
            print(f"  {name + ' visible':26} {r[f'cold_{name}_ms']:>37} ms {r[f'warm_{name}_ms']:>10} ms")
    print(json.dumps({"replay_run_days": args.days, "replay_run_id": run["run_id"], "pages": rows}))


if __name__ == "__main__":
    main()
