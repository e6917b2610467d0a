"""Issue 27, session 35 (inv51b): classes b16 found, fixed generically and tested with our own phrasings through
the real `ExtractionAgent` (never the batch's sentences)."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say as _say
from tests.support.extraction_dialogues import table_values as _values

# --- 1. an opening that only names the business, its place or its goods states no fact --------------------------

NAMES_ONLY = [
    "Creamery by the lake.",
    "Creamery by the lake. Big tubs of pistachio, we scoop them.",
    "Flower stall by the church",
    "Cheese and cream stall by the quay",
    "Flower barrow by the station",
]


@pytest.mark.parametrize("text", NAMES_ONLY)
def test_naming_the_business_states_no_perishability(text: str) -> None:
    """The item words alone ('creamery', 'flower') say nothing about stock thrown out each day: asked later."""
    _, turn = _say(text)
    assert "perishability" not in _values(turn), turn.assistant


def test_a_business_name_beside_a_spoil_statement_is_still_read() -> None:
    """A clause that does say the stock is binned keeps its fact beside the business name."""
    _, turn = _say("Flower stall by the church. Whatever's left at closing goes in the bin.")
    assert _values(turn).get("perishability") == "true", turn.assistant


# --- 2. an amount said short while the penalty is asked is no risk answer; risk is never asked out of turn -------

FILLED = (
    "Bike shop. We sell about 10 inner tubes a day, give or take 3, they keep forever, storage costs 5 cents a "
    "day each, plan for 60 days, customers go elsewhere"
)
SHORT = [
    ("they go next door and I'm 4 short", "4"),
    ("they leave, I'm 5 short", "5"),
    ("folks walk away and I'm 8 short", "8"),
    ("I'm 3 short, they shop elsewhere", "3"),
]


@pytest.mark.parametrize(("text", "value"), SHORT)
def test_short_by_an_amount_answers_the_penalty_asked(text: str, value: str) -> None:
    """'I'm 4 short' asked about the penalty is the penalty (read back), never a refused risk answer."""
    agent, turn = _say(FILLED)
    assert agent.state.asked == "penalty_cost", turn.assistant
    turn = agent.respond(text)
    assert _values(turn).get("penalty_cost") == value, turn.assistant
    assert agent.state.asked != "risk_tolerance" and "risk" not in turn.assistant, turn.assistant


OUT_OF_SCALE = [
    "Hardware store, I'd say risk is 15 for us",
    "Toy shop. 12 a day, give or take 3, risk appetite 20",
    "Garden centre; on your risk scale we'd be minus 14",
]


@pytest.mark.parametrize("text", OUT_OF_SCALE)
def test_a_refused_risk_answer_does_not_skip_the_open_rows(text: str) -> None:
    """Risk off the scale in an opening is refused and said so, but the next open row is asked, not risk."""
    agent, turn = _say(text)
    assert "risk_tolerance" not in _values(turn)
    assert "I can't use that for the risk tolerance" in turn.assistant
    assert agent.state.asked not in (None, "risk_tolerance"), turn.assistant


# --- 3. an opening story with a time said in passing is thanked, never "could not find a value" -----------------

STORIES = [
    "Bakery. Christmas is in two weeks and I want to get the mince pies right.",
    "Florist here, I want to do better with the roses this year.",
    "Deli in town; I'd like to sort out my cheese ordering this month.",
]


@pytest.mark.parametrize("text", STORIES)
def test_an_opening_story_with_a_time_in_passing_is_thanked(text: str) -> None:
    """A span no row reads ('this year', 'in two weeks') does not turn a story into a failure."""
    _, turn = _say(text)
    assert "Thanks for telling me about your business" in turn.assistant, turn.assistant
    assert "could not find a value" not in turn.assistant
    assert not _values(turn)


def test_a_bare_span_opening_still_asks_which_row() -> None:
    """'3 weeks' alone is read as a span: asked whether it is the horizon or the delivery time."""
    _, turn = _say("3 weeks")
    assert "planning horizon or the delivery lead time" in turn.assistant, turn.assistant
