"""Issue 27: everyday money answers found by probing the offline Copilot (not from a blind batch): a cost said to
be nothing ('none', 'they deliver free', 'no charge') is 0, while 'next to nothing, 2 cents' is the 2 cents;
pence written on the number ('40p') are hundredths, never 40 whole units."""

from __future__ import annotations

import pytest

from core.inventory.copilot.turn import CopilotTurn
from core.text.mentions import Kind, parse
from core.text.units import find_money
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_HOLDING = ("about 60 a day, give or take 10", "they'd just go elsewhere", "no, it keeps", "2 weeks")
_TO_FEE = (*_TO_HOLDING, "1 cent a day", "40 cents")


def _say(*texts: str) -> CopilotTurn:
    return say(*texts)[1]


@pytest.mark.parametrize(
    "reply", ["none", "nope, nothing", "no charge", "they deliver free", "nothing at all", "none, the farm brings it free"]
)
def test_a_fee_said_to_be_nothing_is_zero(reply: str) -> None:
    turn = _say(*_TO_FEE, reply)
    assert _values(turn).get("setup_cost") == "0", turn.assistant


@pytest.mark.parametrize("reply", ["nothing really, it just sits there", "it's free, it's my own garage"])
def test_a_holding_cost_said_to_be_nothing_is_zero(reply: str) -> None:
    turn = _say(*_TO_HOLDING, reply)
    assert _values(turn).get("holding_cost") == "0", turn.assistant


@pytest.mark.parametrize(
    ("reply", "value"), [("honestly next to nothing, maybe 2 cents a day", "0.02"), ("almost nothing, 3 cents a day", "0.03")]
)
def test_next_to_nothing_is_the_amount_that_follows(reply: str, value: str) -> None:
    turn = _say(*_TO_HOLDING, reply)
    assert _values(turn).get("holding_cost") == value, turn.assistant


def test_a_cost_per_day_a_customer_goes_without_is_no_zero() -> None:
    """'goes without costs me $1' names an amount: never read as 'without charge'."""
    turn = _say("If we're out, the customer waits.", "Every day a customer goes without costs me $1 per unit per day.")
    assert _values(turn).get("penalty_cost") == "1", turn.assistant


@pytest.mark.parametrize(("text", "amount"), [("I make 40p on each", 0.4), ("about 5p a day", 0.05), ("I lose 60 pence", 0.6)])
def test_pence_are_hundredths(text: str, amount: float) -> None:
    money = parse(text).of(Kind.MONEY)
    assert [m.amount for m in money] == [amount]
    assert [m.amount for m in find_money(text)] == [amount]


@pytest.mark.parametrize(("reply", "value"), [("I make 40p on each one", "0.4"), ("about 75p a loaf", "0.75")])
def test_a_penalty_in_pence_is_written_in_pounds(reply: str, value: str) -> None:
    turn = _say(*_TO_HOLDING, "1p a day", reply)
    assert _values(turn).get("penalty_cost") == value, turn.assistant
    assert "p = " in turn.assistant, turn.assistant
