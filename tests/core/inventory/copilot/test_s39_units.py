"""Issue 27, session 39 (classes the fresh batches b30-b37 found, each measured once at 5d4eb79 before any change
for it; our own phrasings): a container sized in the message that first states demand in it keeps the table in
items for later messages; 'cases are 6 cartons' and 'each box 12 filter' size the container; what the owner gets
or a sell word beside a purchase price is the sale price; 'after tomorrow' is two days; a spread said per day beside
a weekly mean stays per day; money said as lost after 'so' answers the penalty; a count of things ('6 lattes') is no
cost."""

from __future__ import annotations

import pytest

from core.inventory.nlu.extractors import read_message
from core.text.mentions import Kind, parse
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def test_a_container_multiplied_out_keeps_the_table_in_items() -> None:
    _, turn = say(
        "We get soda in trays of 12 cans and sell about 4 trays a day.",
        "4 trays a day on average, give or take a tray",
        "they walk out",
        "no, it keeps",
        "a month",
        "1 cent a can a day",
        "a can sells for 1.50 and costs me 0.60, so 0.90",
        "nothing",
        "2 days",
        "the cooler takes 30 trays",
    )
    values = _values(turn)
    assert values.get("demand_distribution") == "normal(48,12)", turn.assistant
    assert values.get("max_inventory") == "360", turn.assistant


@pytest.mark.parametrize(
    ("text", "container", "size"),
    [
        ("we use 3 crates a day, crates are 8 bags", "crate", 8.0),
        ("the shelf takes 20 box, each box 6 bottle", "box", 6.0),
        ("a pallet is 40 boxes", "pallet", 40.0),
    ],
)
def test_a_container_said_to_hold_other_containers_is_sized(text: str, container: str, size: float) -> None:
    sized = {m.container: m.multiplier for m in parse(text).mentions if m.role == "size"}
    assert sized.get(container) == size, parse(text).mentions


def test_a_range_of_cases_sized_after_it_is_counted_in_what_they_hold() -> None:
    turn = say("between 2 and 4 cases a day, cases are 6 cartons, any number in between equally")[1]
    assert _values(turn).get("demand_distribution") == "uniform(12,24)", turn.assistant


@pytest.mark.parametrize(
    ("text", "sale"),
    [
        ("they cost me 2.40 and I get 6 each", 6.0),
        ("sells 15, costs 9.50", 15.0),
        ("I pay 3 for one and we charge 7.50", 7.5),
    ],
)
def test_what_the_owner_gets_beside_a_purchase_price_is_the_sale_price(text: str, sale: float) -> None:
    sold = [m.value for m in parse(text).of(Kind.MONEY) if m.role == "sale_price"]
    assert sold == [sale], parse(text).mentions


@pytest.mark.parametrize("text", ["I get 30 a day from the bakery", "we sell 20 a day and they cost 1.50"])
def test_a_count_per_day_beside_a_price_stays_a_count(text: str) -> None:
    assert not [m for m in parse(text).of(Kind.MONEY) if m.role == "sale_price"], parse(text).mentions


def test_a_sale_and_purchase_price_offer_the_margin_for_the_penalty() -> None:
    reading = read_message("sells 15, costs 9.50", "penalty_cost", {})
    assert not reading.findings
    assert "$5.5" in reading.unclear[0].message


@pytest.mark.parametrize("text", ["it come after-tomorrow", "we order Monday and it's here after tomorrow"])
def test_after_tomorrow_is_two_days(text: str) -> None:
    assert [f.value for f in read_message(text, "lead_time", {}).findings] == ["2"]


def test_a_spread_said_per_day_beside_a_weekly_mean_stays_per_day() -> None:
    turn = say("about 42 a week, so 6 a day, and the standard deviation worked out to 2 a day")[1]
    assert _values(turn).get("demand_distribution") == "normal(6,2)", turn.assistant


def test_a_loss_said_after_so_answers_the_penalty() -> None:
    text = "a jar fills about 8 cups and the extra is 50 cents a cup, so we lose like $4 a jar I think"
    reading = read_message(text, "penalty_cost", {})
    assert [f.value for f in reading.findings] == ["4"], reading
