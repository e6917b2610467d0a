"""Offline turn latency (issue 13: an offline turn stays <= 300 ms, parsing included, solver excluded): every user
turn of the scripted Inventory Copilot dialogue suites replayed through the offline extraction agent, and
every School Scheduling offline script read by the offline interpreter (no solver call), timed per turn in
wall-clock and CPU time. Classifiers are trained and the unit registry loaded before timing (the app does that
at start-up). Then the long-message checks the tests left to this bench (they count pattern scans instead):
adversarial 128 KB and 1 MB messages within 5 s each, long question texts within 2 s; exit status 1 otherwise.

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


LONG_MESSAGE_BOUND_S = 5.0
"""Most time a long message may take to read, per message and chat (was 108 s before issue 12's fix)."""
LONG_QUESTIONS_BOUND_S = 2.0
"""Most time `is_question` may take on the four long question texts together."""


def long_messages() -> dict[str, object]:
    """The wall-clock checks that left the tests (which count pattern scans instead): every adversarial long
    message of `tests/core/text/test_long_inputs.py` read by both chats, and `is_question` on the long texts of
    `tests/core/text/test_questions.py`, each against its bound."""
    from core.text.questions import is_question
    from tests.core.text.test_long_inputs import SHAPES, SIZES, long_message
    from tests.core.text.test_questions import LONG_TEXTS

    inventory, schedule = ExtractionAgent(), ScheduleAgent()
    inventory.greeting()
    schedule.opening()
    slowest = {"inventory": (0.0, ""), "schedule": (0.0, "")}
    for shape, unit in SHAPES.items():
        for size in SIZES:
            text = long_message(unit, size)
            for chat, read in (
                ("inventory", lambda t=text: inventory.respond(t)),
                ("schedule", lambda t=text: interpret(t, schedule.session, Memory())),
            ):
                start = time.perf_counter()
                read()
                seconds = time.perf_counter() - start
                if seconds > slowest[chat][0]:
                    slowest[chat] = (seconds, f"{shape} {size // 1024} KB")
    start = time.perf_counter()
    for text in LONG_TEXTS:
        is_question(text)
    questions_s = time.perf_counter() - start
    return {
        **{f"{chat}_slowest_s": round(s, 3) for chat, (s, _) in slowest.items()},
        **{f"{chat}_slowest_message": m for chat, (_, m) in slowest.items()},
        "is_question_long_texts_s": round(questions_s, 3),
        "within_bounds": max(s for s, _ in slowest.values()) <= LONG_MESSAGE_BOUND_S
        and questions_s <= LONG_QUESTIONS_BOUND_S,
    }


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
        "long_messages": long_messages(),
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
    long = report["long_messages"]
    print(
        f"long messages: inventory {long['inventory_slowest_s']:.2f} s ({long['inventory_slowest_message']}), "
        f"schedule {long['schedule_slowest_s']:.2f} s ({long['schedule_slowest_message']}) "
        f"[bound {LONG_MESSAGE_BOUND_S} s]; is_question on long texts {long['is_question_long_texts_s']:.2f} s "
        f"[bound {LONG_QUESTIONS_BOUND_S} s]; within bounds: {long['within_bounds']}"
    )
    print(f"load average during the run: {report['load_average']}")
    print(json.dumps(report))
    if not long["within_bounds"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
