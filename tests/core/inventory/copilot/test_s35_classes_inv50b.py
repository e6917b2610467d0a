"""Issue 27 item 1, session 35 (inv50b): corrections inside one answer, the 'corrected' scope of the one parse.
A figure taken back by a second one of the same kind in the same message ('call it X', 'says X but in practice
Y', 'no, that's too much, say Y') is set aside and read back; the replacement is written to the row asked and
never offered to another row. Our own phrasings, never a blind batch's."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE
from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

_TO_HOLDING, _TO_PENALTY, _TO_SETUP = TO_STORAGE[:5], TO_STORAGE[:6], TO_STORAGE[:7]


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("we pay 3 and charge 10 for one, so 7 gone, and the goodwill on top - call it 9", "9", "7"),
        ("a lost sale is about 4 bucks, maybe more once you count the tip, let's say 5", "5", "4"),
        ("it's 6 dollars a unit, round it to 7", "7", "6"),
        ("around 12 per missed sale, more like 15", "15", "12"),
    ],
)
def test_a_figure_restated_as_call_it_replaces_the_first(text: str, value: str, dropped: str) -> None:
    """'X ..., call it Y' / 'let's say Y' / 'round it to Y' / 'more like Y': Y is the penalty, X set aside."""
    _, turn = _talk(*_TO_PENALTY, text, asked="penalty_cost")
    assert _values(turn).get("penalty_cost") == value, turn.assistant
    assert "set aside" in turn.assistant and f"'{dropped}" in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("text", "row", "value"),
    [
        ("4 dollars, call it a loss", "penalty_cost", "4"),
        ("about 3 dollars, call it the price of doing business", "penalty_cost", "3"),
    ],
)
def test_call_it_without_a_figure_corrects_nothing(text: str, row: str, value: str) -> None:
    _, turn = _talk(*_TO_PENALTY, text, asked=row)
    assert _values(turn).get(row) == value, turn.assistant
    assert "set aside" not in turn.assistant, turn.assistant


def test_call_it_with_another_kind_of_figure_corrects_nothing() -> None:
    """'20 per order, call it 2 days to arrive': a duration after money restates nothing."""
    _, turn = _talk(*_TO_SETUP, "20 per order, call it 2 days to arrive", asked="setup_cost")
    values = _values(turn)
    assert values.get("setup_cost") == "20" and values.get("lead_time") == "2", turn.assistant
    assert "set aside" not in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("the brochure says 6 per drop, but in reality they charge us $9", "9", "6"),
        ("their website say 8 a delivery, but really we pay 11", "11", "8"),
        ("the rep told me 5 per shipment but actually it comes to 7 dollars", "7", "5"),
    ],
)
def test_a_figure_someone_else_states_then_but_really_money(text: str, value: str, dropped: str) -> None:
    """'<source> says X for delivery but really they charge Y': Y (money) replaces the bare X."""
    _, turn = _talk(*_TO_SETUP, text, asked="setup_cost")
    assert _values(turn).get("setup_cost") == value, turn.assistant
    assert "set aside" in turn.assistant and f"'{dropped}" in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("text", "value", "dropped"),
    [
        ("maybe 30 cents a day each... no, that's too much, say 20 cents a day", "0.2", "30 cents"),
        ("perhaps 9 a month per item on the rack... no, that's too high, say 6 a month", "0.2", "9 a month"),
        ("around 2 a week for each one, hmm no, that's too low, say 7 a week", "1", "2 a week"),
    ],
)
def test_too_much_say_y_replaces_the_holding_cost(text: str, value: str, dropped: str) -> None:
    """'X ... no, that's too much, say Y': Y is the holding cost, never a demand rate nor a choice of two."""
    _, turn = _talk(*_TO_HOLDING, text, asked="holding_cost")
    values = _values(turn)
    assert values.get("holding_cost") == value, turn.assistant
    assert values.get("demand_distribution") == "normal(20,5)", turn.assistant
    assert "set aside" in turn.assistant and f"'{dropped}" in turn.assistant, turn.assistant
    assert "demand" not in turn.assistant.lower(), turn.assistant


@pytest.mark.parametrize(
    "text",
    [
        "a box gives about 30 slices, but really when we're out we lose about 15 on each box",
        "one crate makes 30 portions, but actually a missed sale costs me 15",
    ],
)
def test_a_count_then_but_really_money_restates_nothing(text: str) -> None:
    """A count of things ('30 slices') is no figure that money restates: the storage of 30 stays."""
    agent, _ = _talk(*_TO_HOLDING, "5 cents a day", "room for 30", asked="max_inventory")
    agent.state.asked = "penalty_cost"
    turn = agent.respond(text)
    values = _values(turn)
    assert values.get("max_inventory") == "30" and values.get("penalty_cost") == "15", turn.assistant
