"""School Scheduling speed: 10-school solve, 20-point Pareto frontier, 40-school district frontier (the page's
bounded grid), 500x6 synthetic district, offline chat turn.

Run: .venv/bin/python bench/schedule_speed.py   (prints a table, then one JSON line)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.schedule.agent import ScheduleAgent  # noqa: E402
from core.schedule.session import ScheduleSession  # noqa: E402
from solvers.schedule.data import District, School, sfusd_district  # noqa: E402
from solvers.schedule.model import ScheduleSpec, solve_schedule  # noqa: E402
from solvers.schedule.pareto import pareto_frontier  # noqa: E402

TURNS = [
    "Could Everett start at 9:30?",
    "and keep the average change under 12 minutes",
    "loosen that",
    "fewer kids arriving at once please",
    "show me a couple of options",
    "undo that",
    "this works",
]


def synthetic(n: int, k: int, seed: int = 0) -> District:
    rng = np.random.default_rng(seed)
    starts = tuple(range(450, 450 + 30 * k, 30))
    schools = tuple(
        School(
            f"School {i}", "ES", int(rng.integers(20, 1500)), int(rng.choice(np.arange(440, 460 + 30 * k, 5)))
        )
        for i in range(n)
    )
    return District(schools, starts)


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    district = sfusd_district()
    rows = []
    solve = timed(lambda: solve_schedule(ScheduleSpec(district)), 20)
    rows.append(("10-school solve (build + HiGHS), median of 20", statistics.median(solve), 0.050))
    pareto = timed(lambda: pareto_frontier(ScheduleSpec(district), points=20), 3)
    points = len(pareto_frontier(ScheduleSpec(district), points=20))
    rows.append(
        (
            f"20-point epsilon grid on SFUSD ({points} distinct points), median of 3",
            statistics.median(pareto),
            2.0,
        )
    )
    exact = timed(lambda: pareto_frontier(ScheduleSpec(district)), 3)
    rows.append(("exact SFUSD frontier enumeration, median of 3", statistics.median(exact), 2.0))
    session = ScheduleSession(synthetic(40, 4))
    start = time.perf_counter()
    points = len(session.frontier())
    first = time.perf_counter() - start
    start = time.perf_counter()
    session.frontier()
    cached = time.perf_counter() - start
    partial = " partial" if session.frontier_partial else ""
    rows.append(
        (
            f"40 x 4 district frontier, page grid ({points} points{partial}, budget {session.frontier_budget:g} s)",
            first,
            session.frontier_budget + 1.0,
        )
    )
    rows.append(("40 x 4 district frontier again (cached, page rerun)", cached, 0.010))
    big = ScheduleSpec(synthetic(500, 6), gap=0.01, time_limit=60)
    result = solve_schedule(big)
    rows.append(
        (f"500 x 6 synthetic to 1% gap ({result.status.value}, gap {result.gap:.4f})", result.seconds, 20.0)
    )
    agent = ScheduleAgent()
    agent.opening()
    totals, overheads = [], []
    for text in TURNS:
        start = time.perf_counter()
        turn = agent.respond(text)
        total = time.perf_counter() - start
        tools = sum(s.latency_s for s in turn.steps if s.kind == "tool")
        totals.append(total)
        overheads.append(total - tools)
    rows.append((f"offline chat turn excluding tool/solver time, max of {len(TURNS)}", max(overheads), 0.300))
    rows.append(
        (f"offline chat turn including solver, median of {len(TURNS)}", statistics.median(totals), None)
    )
    print(f"{'measurement':<72} {'seconds':>9} {'target':>8}")
    for name, seconds, target in rows:
        print(f"{name:<72} {seconds:9.4f} {'' if target is None else f'<= {target:g}':>8}")
    print(json.dumps({name: round(seconds, 4) for name, seconds, _ in rows}))


if __name__ == "__main__":
    main()
