"""Issue 27, session 35 (inv50c): classes b15 found, fixed generically and tested with our own phrasings through
the real `ExtractionAgent` (never the batch's sentences)."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE
from tests.support.extraction_dialogues import say as _say
from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

# --- 1. a part of a money unit ('a tenth of a cent') is the unit times the part ----------------------------

PARTS = [
    ("holding_cost", "each jar costs us a tenth of a cent a day to keep", "0.001"),
    ("holding_cost", "I'd put it at a quarter of a penny per item per day", "0.0025"),
    ("holding_cost", "roughly a fifth of a cent per bottle each day", "0.002"),
    ("penalty_cost", "a missed sale costs me a third of a dollar", "0.3333"),
    ("setup_cost", "every order costs a tenth of a dollar in paperwork", "0.1"),
]


@pytest.mark.parametrize(("row", "text", "value"), PARTS)
def test_a_part_of_a_money_unit_is_the_unit_times_the_part(row: str, text: str, value: str) -> None:
    """'a tenth of a cent' is $0.001, never a whole cent ($0.01) nor a dollar."""
    _, turn = _talk("a corner shop", text, asked=row)
    assert _values(turn).get(row) == value, turn.assistant


# --- 2. a span answering the delivery question goes to the delivery time, its whole restatement is taken ------

TO_LEAD = TO_STORAGE[:-1]  # the delivery time is asked next; the horizon is filled (30)
SPANS = [
    ("a week and a half, ten days-ish", "10"),
    ("half a week, 3 days roughly", "3"),
    ("a week and a half, so 10 days", "10"),
]
ASKED_BOTH = [
    ("usually a week and a half, so about 10 days", "(A) 10.5 days, (B) 10 days"),
    ("two and a half weeks, 17 days or so", "(A) 17.5 days, (B) 17 days"),
]


@pytest.mark.parametrize(("text", "days"), SPANS)
def test_a_span_said_twice_answers_the_delivery_time_with_its_whole_number(text: str, days: str) -> None:
    """Never re-routed to the filled horizon, never refused as 'not a whole number' beside a whole number."""
    agent, turn = _say(*TO_LEAD, text)
    values = _values(turn)
    assert values.get("lead_time") == days, turn.assistant
    assert values.get("time_horizon") == "30", turn.assistant
    assert "whole number" not in turn.assistant and "time horizon" not in turn.assistant


@pytest.mark.parametrize(("text", "options"), ASKED_BOTH)
def test_a_span_said_twice_in_two_clauses_is_asked_with_both(text: str, options: str) -> None:
    """Two clauses, two readings: both are offered for the delivery time, nothing written, the horizon kept."""
    _, turn = _say(*TO_LEAD, text)
    assert options in turn.assistant and "lead time" in turn.assistant, turn.assistant
    assert _values(turn).get("time_horizon") == "30" and "lead_time" not in _values(turn)


# --- 3. 'yes' to a re-asked question about a filled row keeps it and moves on --------------------------------

KEEPS = ["yes", "sure", "yes please", "yeah that's fine"]


@pytest.mark.parametrize("reply", KEEPS)
def test_yes_to_a_reasked_filled_row_keeps_it_and_moves_on(reply: str) -> None:
    agent, turn = _say(*TO_LEAD, "we plan for 10.5 days")
    assert agent.state.asked == "time_horizon", turn.assistant
    turn = agent.respond(reply)
    assert _values(turn).get("time_horizon") == "30", turn.assistant
    assert agent.state.asked == "lead_time", turn.assistant


# --- 4. 'a missed one costs me 6' after the prices: 'one' is the thing missed, 6 the loss --------------------

LOSSES = [
    ("I pay 4 a box and sell for 10, so a missed one costs me 6", "6"),
    ("I pay 3 each and sell for 8, so a lost one costs me 5", "5"),
    ("they cost me 4 and go for 10, every missed one costs 6", "6"),
]


@pytest.mark.parametrize(("text", "penalty"), LOSSES)
def test_a_loss_said_for_a_missed_one_after_the_prices_is_the_penalty(text: str, penalty: str) -> None:
    """Never a loss of 1 with 6 read as the purchase price, nor a suggested margin of 4."""
    _, turn = _talk("a corner shop", text, asked="penalty_cost")
    assert _values(turn).get("penalty_cost") == penalty, turn.assistant
