"""Issue 27: classes the ninth blind batch (b9, measured once at 40e29c4 and at 425c11e) found — contents of
containers where the table counts packs, a loss in cents beside two prices, 'one by one' read as a number, unasked
talk with no value asked about, 'this week' as a horizon, a delivery time corrected with words. Our own
phrasings, never b9's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn
from core.text.mentions import parse
from core.text.numbers import find_numbers
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def _say(*texts: str) -> tuple[ExtractionAgent, CopilotTurn]:
    return say(*texts)


_COSTS = ("about 20 a day, it varies", "they go elsewhere", "no, it keeps", "30 days", "10 cents a day")
"""Answers up to the penalty question."""


# ---------------------------------------------------------------- 1. contents of containers, table in packs


@pytest.mark.parametrize(
    ("opening", "demand", "storage", "expected"),
    [
        ("I want to plan the cola six-packs.", "about 60 cans a day", "the store room holds 12 crates of 24 cans", "48"),
        ("I want to plan the water 4-packs.", "about 40 bottles a day", "we can fit 8 pallets of 100 bottles", "200"),
        ("We sell them in packs of six. I need to plan the yoghurts.", "about 60 yoghurts a day",
         "the fridge takes 10 trays of 30 yoghurts", "50"),
    ],
)  # fmt: skip
def test_containers_of_contents_are_counted_in_the_planned_pack(
    opening: str, demand: str, storage: str, expected: str
) -> None:
    """Where the table counts the pack the owner plans in, a storage said as containers of the single items
    ('12 crates of 24 cans') is those items divided into packs, and the conversion is read back."""
    _, turn = _say(opening, demand, storage)
    assert _values(turn).get("max_inventory") == expected, turn.assistant
    assert "÷" in turn.assistant, turn.assistant


def test_containers_of_the_pack_itself_are_multiplied_only() -> None:
    """'10 crates of 24 six-packs' where the table counts six-packs is 240 six-packs: nothing is divided."""
    _, turn = _say("I want to plan the cola six-packs.", "about 10 six-packs a day, it varies", "the store room holds 10 crates of 24 six-packs")
    assert _values(turn).get("max_inventory") == "240", turn.assistant


# ---------------------------------------------------------------- 2. a loss in cents beside two prices


@pytest.mark.parametrize(
    ("reply", "penalty"),
    [
        ("a loaf costs me 1.50 and sells for 2.40, so I lose 90 cents", "0.9"),
        ("I pay 60 cents and sell them for 1.25, so I'm out 65 cents each", "0.65"),
        ("they cost me 2 and go for 2.75, so I lose 75 cents on each one I miss", "0.75"),
    ],
)
def test_a_loss_in_cents_beside_two_prices_is_cents(reply: str, penalty: str) -> None:
    """The stated loss in cents, equal to the margin, is written in dollars (never 90 dollars)."""
    _, turn = _say(*_COSTS, reply)
    assert _values(turn).get("penalty_cost") == penalty, turn.assistant


# ---------------------------------------------------------------- 3. 'one by one' is no number


@pytest.mark.parametrize(
    "opening",
    [
        "Hi, I'm a florist and roses are my riskiest line. I sell them one by one.",
        "Hello, I'm a jeweller and watches are my riskiest stock. We sell them one by one.",
        "I'm a baker and the cakes are my most wasteful item. I sell them one by one.",
        "Hi, I'm a florist and roses are my riskiest line, they go two by two.",
    ],
)
def test_a_manner_of_counting_fills_no_row(opening: str) -> None:
    """'one by one' names how items are sold, not a value: no row is written (b9 wrote a risk of 1)."""
    _, turn = _say(opening)
    assert not _values(turn), turn.assistant


@pytest.mark.parametrize("text", ["we sell them one by one", "they go two by two", "One by one, please"])
def test_the_parse_reads_no_number_in_a_manner_of_counting(text: str) -> None:
    assert not parse(text).mentions
    assert not find_numbers(text)


# ---------------------------------------------------------------- 4. unasked talk with no value


@pytest.mark.parametrize(
    "opening",
    [
        "Hello, I sell flowers and the tulips are the most wasteful thing I stock.",
        "Hi there, I run a taco stand and need to get the tortilla order right.",
        "Morning, I have a bike shop and the inner tubes are always a gamble for me.",
    ],
)
def test_unasked_talk_without_a_value_asks_for_no_row(opening: str) -> None:
    """An opening that mentions ordering or waste but holds no value asks the first question of the table,
    never 'I can't use that for the lead time / risk tolerance'."""
    _, turn = _say(opening)
    assert "I can't use that" not in turn.assistant, turn.assistant
    assert not _values(turn), turn.assistant


def test_a_bare_row_name_still_points_at_that_row() -> None:
    """A short pointer at a row ('Lead time') is still asked about, then answered."""
    _, turn = _say("Lead time", "about 4 days")
    assert _values(turn).get("lead_time") == "4", turn.assistant


# ---------------------------------------------------------------- 5. 'this week' as the horizon


@pytest.mark.parametrize(("reply", "days"), [("this week", "7"), ("let's do this month", "30"), ("just this quarter", "90")])
def test_this_period_is_the_horizon(reply: str, days: str) -> None:
    """'this week' answering the horizon is a week (b9 asked again and again)."""
    _, turn = _say("about 20 a day, it varies", "they go elsewhere", "no, it keeps", reply)
    assert _values(turn).get("time_horizon") == days, turn.assistant


# ---------------------------------------------------------------- 6. a delivery time said in words, corrected


_TO_LEAD = (*_COSTS, "5 dollars", "20 an order")


@pytest.mark.parametrize(
    ("reply", "days"),
    [
        ("the supplier's site says same day but it's always next morning", "1"),
        ("the website promises next day but really it's 3 days", "3"),
        ("it's always next morning", "1"),
        ("same day", "0"),
    ],
)
def test_a_delivery_time_in_words_is_read_after_its_correction(reply: str, days: str) -> None:
    """A delivery time the owner corrects ('says same day but it's always next morning') is the corrected one;
    a plain 'same day' answering the delivery question is 0 days (it asked again before)."""
    _, turn = _say(*_TO_LEAD, reply)
    assert _values(turn).get("lead_time") == days, turn.assistant


# ---------------------------------------------------------------- 7. a pack sized in a part of a measure


@pytest.mark.parametrize(
    ("reply", "mean"),
    [
        ("about 10 kilos a day and we sell them in half-kilo packs, it varies", "20"),
        ("roughly 6 kilos a day, sold in quarter-kilo tubs, it varies", "24"),
        ("around 4 kilos a day, we sell them in 500 gram packs, it varies", "8"),
    ],
)
def test_demand_in_a_measure_is_divided_by_a_pack_sized_in_the_same_message(reply: str, mean: str) -> None:
    """'10 kilos a day ... half-kilo packs' is 20 packs a day, and the reply never also claims the table counts
    grams or kilos."""
    _, turn = _say("I run a butcher's shop.", reply)
    assert _values(turn).get("demand_distribution") == f"poisson({mean})", turn.assistant
    assert "I count your stock in" not in turn.assistant, turn.assistant


# ---------------------------------------------------------------- 8. someone else's amount in a cost answer


_TO_FEE = (*_COSTS, "5 dollars")


@pytest.mark.parametrize(
    ("reply", "fee"),
    [
        ("there's a 12 delivery charge; the price list says 8 for packing as well but they never bill it", "12"),
        ("we pay 30 a drop, the website says 5 for fuel too but nobody ever asks for it", "30"),
        ("the fee is 18 an order, the brochure says 4 for insurance too but they never charge it", "18"),
    ],
)
def test_an_amount_put_in_someone_elses_mouth_is_not_the_fee(reply: str, fee: str) -> None:
    """The fee the owner pays is written; the one a price list states but nobody charges is not, and the clause
    about charging is no answer to what customers do when stock runs out."""
    _, turn = _say(*_TO_FEE, reply)
    values = _values(turn)
    assert values.get("setup_cost") == fee, turn.assistant
    assert values.get("state_transition_model") == "lost_sale" and "conflict" not in turn.assistant, turn.assistant


# ---------------------------------------------------------------- 9. an amount per order is no delivery time


@pytest.mark.parametrize(
    "reply", ["the catalogue says 8 but really it's 6 an order", "the leaflet says 9 but honestly it's 7 per order"]
)
def test_an_amount_per_order_is_never_days_of_delivery(reply: str) -> None:
    _, turn = _say(*_TO_FEE, reply)
    values = _values(turn)
    assert values.get("lead_time") is None, turn.assistant
    assert values.get("setup_cost") == reply.split("it's ")[1].split()[0], turn.assistant


@pytest.mark.parametrize(
    "reply",
    [
        "Each one costs us $2.00 to buy, and our accountant says keeping one on the shelf costs $0.60 per unit per day.",
        "We pay $2 for each, and the bookkeeper reckons storing one costs $0.60 a day.",
    ],
)
def test_a_cost_a_colleague_states_beside_a_price_is_the_cost(reply: str) -> None:
    """Someone else's figure is set aside only for a value of the speaker's own; beside a purchase price alone
    it stays: written, or put to the owner beside the price, never the price written alone (the lab's simulated
    manager: the price $2 was written as holding)."""
    _, turn = _say("about 20 a day, it varies", "they go elsewhere", "no, it keeps", "30 days", reply)
    holding = _values(turn).get("holding_cost")
    assert holding == "0.6" or (holding is None and "0.6" in turn.assistant), turn.assistant
