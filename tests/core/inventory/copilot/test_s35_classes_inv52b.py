"""Issue 27, session 35 (inv52b): containers sized by 'with' / 'holding' / 'containing' ('8 crates with 15'
is 8 x 15 on the one parse); a risk attitude softened by a negated amount ('careful, not too much') is mild and
asked; a risk number said with a question mark or a doubt is explained and asked, never written. Our own
phrasings, never a blind batch's."""

from __future__ import annotations

import pytest

from core.text.mentions import parse
from tests.support.extraction_dialogues import TO_STORAGE
from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk


@pytest.mark.parametrize(
    ("text", "value", "readback"),
    [
        ("the back room fits 8 crates with 15", "120", "8 crates × 15 = 120"),
        ("we have 5 shelves holding 40 bottles", "200", "5 shelves × 40 = 200"),
        ("the cold room can take 6 pallets containing 30", "180", "6 pallets × 30 = 180"),
        ("my car is carrying 4 boxes with 25 each", "100", "4 boxes × 25 = 100"),
    ],
)
def test_containers_with_a_count_each_are_multiplied(text: str, value: str, readback: str) -> None:
    """'<N> <containers> with/holding/containing <M>' is N x M items, read back as the product."""
    _, turn = _talk(*TO_STORAGE, text, asked="max_inventory")
    assert _values(turn).get("max_inventory") == value, turn.assistant
    assert readback in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    "text", ["3 crates with 2 days to spare", "2 boxes with 10 dollars of tape", "4 crates with 50% off"]
)
def test_a_duration_money_or_percentage_after_with_is_no_size(text: str) -> None:
    """'with' then a duration, money or a percentage sizes no container."""
    crates = [m for m in parse(text).mentions if m.container]
    assert crates and all(m.multiplier == 1 for m in crates), crates


_TO_RISK = (*TO_STORAGE, "100", "50")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("somewhat cautious, but not too much", "-2"),
        ("I'm careful, not overly", "-2"),
        ("play it safe, though not to the extreme", "-2"),
        ("I enjoy a gamble, not too much though", "2"),
    ],
)
def test_an_attitude_softened_by_a_negated_amount_is_mild_and_asked(text: str, value: str) -> None:
    """'<attitude>, not too much': the tail softens the attitude to a mild one (±2), put to the user, never
    read as the neutral 0."""
    _, turn = _talk(*_TO_RISK, text, asked="risk_tolerance")
    assert "risk_tolerance" not in _values(turn), turn.assistant
    assert f"I would put that at {value}" in turn.assistant, turn.assistant



@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("6? no idea what that scale is", "6"),
        ("minus 3? I'm not sure what the numbers mean", "-3"),
        ("7, but I don't know what this measures", "7"),
        ("2?", "2"),
    ],
)
def test_a_questioned_risk_number_is_explained_and_asked(text: str, value: str) -> None:
    """A risk number said with a question mark or a doubt is put to the user after the scale is explained,
    never written; a later plain number is written."""
    agent, turn = _talk(*_TO_RISK, text, asked="risk_tolerance")
    assert "risk_tolerance" not in _values(turn), turn.assistant
    assert f"risk tolerance = {value} (yes)" in turn.assistant and "-10 means" in turn.assistant, turn.assistant
    assert _values(agent.respond("4")).get("risk_tolerance") == "4"


@pytest.mark.parametrize(("text", "value"), [("4", "4"), ("I'd say 3", "3"), ("no idea", "0")])
def test_a_plain_risk_number_or_no_preference_is_still_written(text: str, value: str) -> None:
    _, turn = _talk(*_TO_RISK, text, asked="risk_tolerance")
    assert _values(turn).get("risk_tolerance") == value, turn.assistant
