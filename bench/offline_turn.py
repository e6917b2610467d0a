"""Offline turn latency (issue 13: an offline turn stays <= 300 ms, parsing included, solver excluded): every user
turn of the scripted Inventory Copilot dialogue suites replayed through the offline extraction agent, and
every School Scheduling offline script read by the offline interpreter (no solver call), timed per turn in
wall-clock and CPU time. Classifiers are trained and the unit registry loaded before timing (the app does that
at start-up).

Run: .venv/bin/python bench/offline_turn.py   (prints a report, then one JSON line)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.inventory.copilot.extraction import ExtractionAgent, warm_up  # noqa: E402
from core.schedule.agent import ScheduleAgent  # noqa: E402
from core.schedule.language import intents as schedule_intents  # noqa: E402
from core.schedule.offline import Memory, interpret  # noqa: E402


def _stats(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "turns": len(values),
        "p50_ms": 1000 * statistics.median(values),
        "p95_ms": 1000 * values[int(0.95 * (len(values) - 1))],
        "max_ms": 1000 * values[-1],
        "over_300ms": sum(v > 0.3 for v in values),
    }


SLOWEST: dict[str, tuple[float, str]] = {}


def _note(chat: str, cpu: float, text: str) -> None:
    if cpu > SLOWEST.get(chat, (0.0, ""))[0]:
        SLOWEST[chat] = (cpu, text[:80])


def inventory_turns() -> tuple[list[float], list[float]]:
    from tests.core.inventory.copilot import test_dialogues, test_dialogues_managers, test_dialogues_phrasing

    wall, cpu = [], []
    for _, turns, _, _ in [
        *test_dialogues.DIALOGUES,
        *test_dialogues_managers.DIALOGUES,
        *test_dialogues_phrasing.DIALOGUES,
    ]:
        agent = ExtractionAgent()
        agent.greeting()
        for text in turns:
            w, c = time.perf_counter(), time.process_time()
            agent.respond(text)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
            _note("inventory", cpu[-1], text)
    return wall, cpu


def schedule_turns() -> tuple[list[float], list[float]]:
    from tests.core.schedule import test_schedule_offline_dialogues, test_schedule_offline_regressions

    agent = ScheduleAgent()
    agent.opening()
    wall, cpu = [], []
    for _, turns in [*test_schedule_offline_dialogues.SCRIPTS, *test_schedule_offline_regressions.SCRIPTS]:
        memory = Memory()
        for text, _ in turns:
            w, c = time.perf_counter(), time.process_time()
            interpret(text, agent.session, memory)
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c)
            _note("schedule_without_solver", cpu[-1], text)
    return wall, cpu


def main() -> None:
    started = time.perf_counter()
    warm_up()
    schedule_intents()
    warm_s = time.perf_counter() - started
    inv_wall, inv_cpu = inventory_turns()
    sch_wall, sch_cpu = schedule_turns()
    report = {
        "warm_up_seconds": warm_s,
        "load_average": os.getloadavg(),
        "inventory": {"wall": _stats(inv_wall), "cpu": _stats(inv_cpu)},
        "schedule_without_solver": {"wall": _stats(sch_wall), "cpu": _stats(sch_cpu)},
        "slowest_cpu": {k: {"ms": 1000 * v[0], "text": v[1]} for k, v in SLOWEST.items()},
    }
    print(f"warm-up (classifiers trained, unit registry loaded): {warm_s * 1000:.0f} ms")
    for chat in ("inventory", "schedule_without_solver"):
        for kind in ("wall", "cpu"):
            r = report[chat][kind]
            print(
                f"{chat:24} {kind:4}: {r['turns']} turns, p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, "
                f"max {r['max_ms']:.1f} ms, {r['over_300ms']} over 300 ms"
            )
    for chat, (secs, text) in SLOWEST.items():
        print(f"slowest {chat} turn by CPU: {secs * 1000:.1f} ms, {text!r}")
    print(f"load average during the run: {report['load_average']}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
