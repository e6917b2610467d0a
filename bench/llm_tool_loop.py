"""Overhead of the LLM layer: the offline tool loop, and one SDK round trip to a local fake server.

Run: .venv/bin/python bench/llm_tool_loop.py   (prints a table and one JSON line)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.config import Settings  # noqa: E402
from core.llm import Message, OfflineModel, OfflineTurn, Toolbox, make_chat_model, run_tools  # noqa: E402
from core.llm.offline import trailing_tool_results  # noqa: E402
from tests.support.fake_llm import FakeLLMServer  # noqa: E402


def add(a: int, b: int) -> dict:
    """Add two integers."""
    return {"sum": a + b}


def policy(system, messages, tools):
    if trailing_tool_results(messages):
        return OfflineTurn("done")
    return OfflineTurn("", [("add", {"a": 1, "b": 2})])


def timed(fn, repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    box = Toolbox([add])
    offline = timed(lambda: run_tools(OfflineModel(policy), "s", [Message("user", "go")], box), 2000)
    server = FakeLLMServer()
    results = {"offline_tool_loop_ms": offline}
    for provider in ("openai", "anthropic"):
        url = server.openai_url if provider == "openai" else server.anthropic_url
        model = make_chat_model(Settings(provider=provider, model="m", base_url=url, api_key="k"))

        def loop(model=model):
            server.script([{"tool_calls": [{"name": "add", "arguments": {"a": 1, "b": 2}}]}, {"text": "3"}])
            run_tools(model, "s", [Message("user", "go")], box)

        loop()
        results[f"{provider}_fake_server_tool_loop_ms"] = timed(loop, 50)
    server.close()
    summary = {
        k: {
            "median": round(statistics.median(v), 3),
            "p95": round(sorted(v)[int(0.95 * len(v))], 3),
            "n": len(v),
        }
        for k, v in results.items()
    }
    print(f"{'measure':40s} {'median ms':>10s} {'p95 ms':>10s} {'n':>6s}")
    for k, v in summary.items():
        print(f"{k:40s} {v['median']:10.3f} {v['p95']:10.3f} {v['n']:6d}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
