"""Adversarial long messages (128 KB and 1 MB) are read with bounded work by both offline chats: a message is
read up to `MAX_CHARS` characters and its patterns scan it a bounded number of times (issue 12). The work is
counted, not timed: the time per message is checked by `bench/offline_turn.py` (before the fix a 128 KB
message took 108 s in the inventory chat and 563 KB took 58 s in the scheduling chat)."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.schedule.agent import ScheduleAgent
from core.schedule.offline import Memory, interpret
from core.text.clean import MAX_CHARS
from tests.support.scans import Scans, counting_scans

SIZES = (128 * 1024, 1024 * 1024)
SHAPES = {
    "letters": "x",
    "day-wait": "a-",
    "spaces": " ",
    "digits": "1 ",
    "money": "$1 ",
    "corrections": "not 1, ",
    "schools": "galileo earlier and ",
}
SCANNED_CHARS = 200 * MAX_CHARS
"""At most this many characters scanned per message: measured at most 105 times `MAX_CHARS` for these shapes;
one re-scan of the rest of the message per word would be thousands of times."""


def long_message(shape: str, size: int) -> str:
    """`shape` repeated to `size` characters, then a number."""
    return (shape * (size // len(shape) + 1))[:size] + " 5"


def _bounded(scans: Scans) -> None:
    assert scans.longest <= MAX_CHARS, "a pattern read past the cut"
    assert 0 < scans.chars <= SCANNED_CHARS, f"{scans.chars:,} characters scanned"


@pytest.fixture(scope="module")
def inventory() -> ExtractionAgent:
    agent = ExtractionAgent()
    agent.greeting()
    return agent


@pytest.fixture(scope="module")
def schedule() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_inventory_reads_a_long_message_in_bounded_time(inventory: ExtractionAgent, shape: str, size: int):
    with counting_scans() as scans:
        turn = inventory.respond(long_message(SHAPES[shape], size))
    _bounded(scans)
    assert "first 20,000 characters" in turn.assistant


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_scheduling_reads_a_long_message_in_bounded_time(schedule: ScheduleAgent, shape: str, size: int):
    with counting_scans() as scans:
        plan = interpret(long_message(SHAPES[shape], size), schedule.session, Memory())
    _bounded(scans)
    assert plan.reply or plan.calls
