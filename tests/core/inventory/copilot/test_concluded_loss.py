"""Issue 27 (blind batch b12, b12-19): prices, then a conclusion ('so 12 lost', 'so I lose 16') ending on one
amount: that amount is the penalty, never the price said first. Our own phrasings."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_PENALTY = ("a small shop", "about 20 a day, give or take 5", "they go elsewhere", "no, it keeps", "30 days",
               "5 cents a day")  # fmt: skip


@pytest.mark.parametrize(
    ("answer", "penalty"),
    [
        ("a bowl sells for 4 dollars and a bag makes 3 bowls, so 12 gone", "12"),
        ("a slice is 2 dollars and a pie is 8 slices, so I lose 16", "16"),
        ("one cup is 3 dollars and a carton does 5 cups, so 15 lost", "15"),
    ],
)
def test_a_concluded_loss_after_the_prices_is_the_penalty(answer: str, penalty: str) -> None:
    turn = say(*_TO_PENALTY, answer)[1]
    assert _values(turn).get("penalty_cost") == penalty, turn.assistant


def test_a_conclusion_without_a_word_of_loss_is_no_penalty() -> None:
    """'so 12 a week' is no loss: whatever is read, it is not 12."""
    turn = say(*_TO_PENALTY, "a bowl sells for 4 dollars and a bag makes 3 bowls, so 12 a week")[1]
    assert _values(turn).get("penalty_cost") != "12", turn.assistant


@pytest.mark.parametrize("answer", ["i buy 2.40 and sell 6.00", "we buy them at 3 and sell at 8", "I buy at 1.50, sell for 4"])
def test_bare_prices_after_buy_and_sell_are_never_the_penalty(answer: str) -> None:
    """(b15) prices with no money word are still prices: the penalty is asked with the margin, never the first
    price written."""
    turn = say(*_TO_PENALTY, answer)[1]
    assert _values(turn).get("penalty_cost") is None, turn.assistant
    assert "margin" in turn.assistant, turn.assistant


def test_bare_prices_with_the_loss_stated_give_the_loss() -> None:
    turn = say(*_TO_PENALTY, "I buy 1.50 and sell 4.00, so I lose 2.50")[1]
    assert _values(turn).get("penalty_cost") == "2.5", turn.assistant


def test_counts_after_sell_and_buy_stay_counts() -> None:
    from core.text.mentions import Kind, parse

    assert not parse("we sell 40 and buy 50").of(Kind.MONEY)
