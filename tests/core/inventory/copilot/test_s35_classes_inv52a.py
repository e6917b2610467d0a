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
