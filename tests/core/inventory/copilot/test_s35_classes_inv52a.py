"""Session 35 (inv52a) classes, in our own phrasings, through the real `ExtractionAgent`: a loss concluded after
prices ('I'd say we lose about 3 per one we don't have') is the penalty, never a price before it."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE
from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

_TO_PENALTY = TO_STORAGE[:6]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a muffin is 80 cents, a coffee with it sells for 4, honestly we lose about 2 per muffin we run out of",
         "2"),
        ("a bagel is 40 cents, but the sandwich sells for 9, I'd say we lose about 5 per bagel we haven't got",
         "5"),
        ("a lemon is 30 cents, a jug of lemonade sells for 8, I guess we lose around 3 per lemon we lack", "3"),
    ],
)  # fmt: skip
def test_a_loss_concluded_after_prices_is_the_penalty(text: str, value: str) -> None:
    """Prices first (one of them unroled, 'a muffin is 80 cents'), then the loss per unit: the loss is written."""
    _, turn = _talk(*_TO_PENALTY, text, asked="penalty_cost")
    assert _values(turn).get("penalty_cost") == value, turn.assistant


_TO_LEAD = (*TO_STORAGE[:6], "12 dollars per order")


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("usually 5 days, occasionally a week, call it 6", "6", "5 days"),
        ("4 days, sometimes up to a week, let's say 5", "5", "4 days"),
        ("a fortnight, sometimes 20 days, call it 17", "17", "20 days"),
        ("about a week, sometimes 9 days, say 8", "8", "9 days"),
    ],
)
def test_a_restated_span_settles_every_span_before_it(text: str, value: str, dropped: str) -> None:
    """Spans joined by words of variation, then 'call it Y' / 'say Y': Y (in the finer unit) is the lead time, each
    span before it set aside and read back, and nothing becomes a demand rate."""
    _, turn = _talk(*_TO_LEAD, text, asked="lead_time")
    values = _values(turn)
    assert values.get("lead_time") == value, turn.assistant
    assert "set aside" in turn.assistant and f"'{dropped}'" in turn.assistant, turn.assistant
    assert values.get("demand_distribution") == "normal(20,5)", turn.assistant


@pytest.mark.parametrize(
    "text",
    [
        "most customers will hang on a week till it arrives",
        "they hang on a couple of days till it arrives",
        "our clients usually wait 3 days or so for it to come in",
        "patients wait 5 days for it to come in",
        "our regulars wait 3 days, we order it in",
    ],
)
def test_a_span_customers_wait_is_a_backlog_never_the_lead_time(text: str) -> None:
    """Asked whether customers leave or wait: people waiting a span is a backlog; the span is no lead time."""
    _, turn = _talk(*TO_STORAGE[:2], text, asked="state_transition_model")
    values = _values(turn)
    assert values.get("state_transition_model") == "backlog", turn.assistant
    assert "lead_time" not in values, turn.assistant
