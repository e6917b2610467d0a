"""Issue 27: a message that takes back durations corrects no cost row that happens to hold the same number
('a week, sometimes 10 days, say 8' turned a $10 fee into 8). Our own phrasings."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_LEAD = (
    "I sell paint",
    "plan 30 days",
    "about 20 a day, it varies",
    "they go elsewhere",
    "no, it keeps",
    "10 cents",
    "5 dollars",
)


@pytest.mark.parametrize(
    ("fee", "reply", "lead"),
    [
        ("10 dollars per delivery", "a week, sometimes 10 days, say 8", "8"),
        ("12 per order", "12 days, no wait, 9", "9"),
        ("4 dollars a delivery", "4 days, sorry, 3 days", "3"),
    ],
)
def test_durations_taken_back_answer_the_delivery_question(fee: str, reply: str, lead: str) -> None:
    agent, turn = say(*_TO_LEAD, fee, reply)
    values = _values(turn)
    assert values.get("lead_time") == lead, turn.assistant
    assert values.get("setup_cost") == fee.split()[0], turn.assistant


def test_money_taken_back_still_corrects_the_fee_just_written() -> None:
    _, turn = say(*_TO_LEAD, "45 per order", "sorry, not 45, 55")
    values = _values(turn)
    assert values.get("setup_cost") == "55" and values.get("lead_time") is None, turn.assistant
