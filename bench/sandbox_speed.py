"""Speed of the sandbox (issue 29 item 4): `execute_code("1+1")` through RetailBench's tool (the environment's
`code_runner` is `core.sandbox.run_code`), a direct tool call for comparison, and a code call that makes five
bridged tool calls. Each call forks a fresh child from the template process; the first call (which starts the
template) is reported apart from the medians.

Run: .venv/bin/python bench/sandbox_speed.py [--calls 50]   (prints a JSON line)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.sandbox import run_code  # noqa: E402
from solvers.retail.env import RetailBenchEnv  # noqa: E402


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    env = RetailBenchEnv("hard_v2", max_days=1, code_runner=run_code)
    env.reset(seed=0)
    tools = env.tools
    assert tools is not None

    def code(text: str) -> None:
        out = tools.call("execute_code", {"code": text})
        assert out["result"].get("error") is None, out

    first = timed(lambda: code("1+1"))
    one_plus_one = [timed(lambda: code("1+1")) for _ in range(args.calls)]
    direct = [timed(lambda: tools.call("view_funds_and_date", {})) for _ in range(args.calls)]
    five = "for i in range(5):\n    view_funds_and_date()\nresult = 1"
    bridged = [timed(lambda: code(five)) for _ in range(args.calls)]
    print(json.dumps({
        "calls": args.calls, "root": os.geteuid() == 0, "load_1min": round(os.getloadavg()[0], 2),
        "first_call_ms": round(first, 1),
        "execute_code_1plus1_median_ms": round(statistics.median(one_plus_one), 1),
        "execute_code_1plus1_p90_ms": round(sorted(one_plus_one)[int(0.9 * len(one_plus_one))], 1),
        "direct_tool_median_ms": round(statistics.median(direct), 3),
        "execute_code_5_bridged_calls_median_ms": round(statistics.median(bridged), 1),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
