"""Issue 27: classes blind batch b13 found (measured once at 657d866 before any change for them: 12 / 20 exact,
9 values silently wrong). Our own phrasings, never the batch's, through the real `ExtractionAgent`."""

from __future__ import annotations

import pytest

from core.inventory.copilot.turn import CopilotTurn
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_SPOIL = ("a shop", "about 20 a day, it varies", "they go elsewhere")
"""Up to the spoil question ('Do the items spoil ...?')."""


def _say(*texts: str) -> CopilotTurn:
    return say(*texts)[1]


# ---------------------------------------------------------------- 1a. 'sold by the X' is a unit of sale


@pytest.mark.parametrize(
    "opening",
    [
        "I have a paper merchant's. Card stock, sold by the sheet, we buy it in packs of 100.",
        "A sewing shop: embroidery thread, sold by the spool, comes in cartons of 40.",
        "Craft supplies. Gift wrap, sold by the sheet, arrives in bundles.",
    ],
)
def test_sold_by_a_unit_says_nothing_of_spoiling(opening: str) -> None:
    """b13 class (silently wrong): 'sold by the <unit>' was read as a sell-by date, perishability = true."""
    turn = _say(opening)
    assert "perishability" not in _values(turn), turn.assistant


@pytest.mark.parametrize(
    "reply", ["sold by the metre, cut from the roll", "they're sold by the gram", "sold by the bundle mostly"]
)
def test_sold_by_a_unit_is_no_answer_to_the_spoil_question(reply: str) -> None:
    turn = _say(*_TO_SPOIL, reply)
    assert _values(turn).get("perishability") != "true", turn.assistant


def test_not_sold_by_the_end_of_the_day_still_spoils() -> None:
    turn = _say(*_TO_SPOIL, "whatever is not sold by closing time goes in the bin")
    assert _values(turn).get("perishability") == "true", turn.assistant


# ---------------------------------------------------------------- 1b. a shelf life of weeks or more


@pytest.mark.parametrize(
    "reply",
    [
        "there's a best-before on them but it's a year away",
        "they expire eventually, about 18 months from delivery",
        "a use-by date, sure, but that's 6 weeks out",
    ],
)
def test_a_shelf_life_of_weeks_or_more_is_not_perishable(reply: str) -> None:
    """b13 class (silently wrong): an expiry years away answering the spoil question wrote perishability =
    true. Stock that keeps weeks or longer is never thrown out at the end of a day: false, read back."""
    turn = _say(*_TO_SPOIL, reply)
    assert _values(turn).get("perishability") == "false", turn.assistant
    assert "how long your items keep" in turn.assistant, turn.assistant
    assert "time_horizon" not in _values(turn), turn.assistant


# ---------------------------------------------------------------- 1c. throwing away denied


_SHELF = (*_TO_SPOIL, "they keep about 4 days")
"""Up to the shelf-life (A)/(B) question."""


@pytest.mark.parametrize(
    "reply",
    [
        "they stay fine for a few days in the chiller, we don't toss them at closing",
        "nothing gets binned at night, they last a while",
        "we never throw them away at the end of the day",
    ],
)
def test_denied_disposal_answers_the_shelf_question_with_not_perishable(reply: str) -> None:
    """b13 class (silently wrong): 'I don't bin them at night' to (A) perishable / (B) non-perishable was (A)."""
    first = _say(*_SHELF)
    assert "(B) as non-perishable" in first.assistant, first.assistant
    turn = _say(*_SHELF, reply)
    assert _values(turn).get("perishability") == "false", turn.assistant


@pytest.mark.parametrize(
    "reply", ["nothing is ever thrown away overnight", "we do not chuck them", "we don't bin any of it at closing"]
)
def test_denied_disposal_answers_the_spoil_question(reply: str) -> None:
    turn = _say(*_TO_SPOIL, reply)
    assert _values(turn).get("perishability") == "false", turn.assistant


def test_disposal_said_stays_perishable() -> None:
    turn = _say(*_SHELF, "we throw out what's left each evening")
    assert _values(turn).get("perishability") == "true", turn.assistant


# ---------------------------------------------------------------- 3. a shelf life beside the delivery time

_TO_LEAD = ("a shop", "about 20 a day, it varies", "they go elsewhere", "no", "30 days", "10 cents", "5 dollars",
            "12 per order")  # fmt: skip
"""Up to the lead-time question."""


@pytest.mark.parametrize(
    ("reply", "days"),
    [
        ("next day. it's only fine for 3 days anyway", "1"),
        ("the day after I order; the stuff is good for 4 days", "1"),
        ("overnight, and it is okay for 4 days", "1"),
    ],
)
def test_how_long_stock_keeps_is_no_lead_time(reply: str, days: str) -> None:
    """b13 class (silently wrong): 'next day, it's only good for 2 days' wrote a lead time of 2. The span the
    stock keeps ('good for', 'fine for', 'fresh for') is a shelf life; the delivery time is the other span."""
    turn = _say(*_TO_LEAD, reply)
    assert _values(turn).get("lead_time") == days, turn.assistant


# ---------------------------------------------------------------- 2. an amount in a condition is no fee

_TO_FEE = ("a shop", "about 20 a day, it varies", "they go elsewhere", "no", "30 days", "10 cents", "5 dollars")
"""Up to the fee-per-order question."""


@pytest.mark.parametrize(
    "reply",
    [
        "the distributor bills 12 a shipment under 400 dollars, which mine always are",
        "12 dollars for orders below 250, we never get that high",
        "they add 12 dollars per delivery on orders under $300",
    ],
)
def test_an_amount_in_a_condition_is_no_fee(reply: str) -> None:
    """b13 class (silently wrong): 'charges 18 per order under 500 dollars' wrote a fee of 500."""
    turn = _say(*_TO_FEE, reply)
    assert _values(turn).get("setup_cost") == "12", turn.assistant
    assert "a condition on the order" in turn.assistant, turn.assistant
