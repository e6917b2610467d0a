"""Issue 27: classes the fifth blind batch (b5, measured once at 7736f3f) found written wrong silently — a range
whose unit follows only its second end, money of the whole business (wages, a fee per day) where a per-unit cost
is asked, a duration of an event beside another answer, a correction with 'well, maybe', a count of people beside
the count of items, and demand said in the contents of the item planned. Our own phrasings, never b5's."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

# ---------------------------------------------------------------- 4. a correction with 'well, maybe'


@pytest.mark.parametrize(
    ("text", "demand"),
    [
        ("average 40 a day, give or take 8, well, maybe 10", "normal(40,10)"),
        ("mean of 15 a day, plus or minus 3, hmm, perhaps 4", "normal(15,4)"),
        ("roughly 60 a day, give or take 12, well, probably 15", "normal(60,15)"),
    ],
)
def test_a_second_thought_replaces_the_value_before_it(text: str, demand: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand


def test_a_second_thought_on_a_duration_keeps_its_unit() -> None:
    _, turn = _talk("the wholesaler takes 3 days, well, maybe 4", asked="lead_time")
    assert _values(turn).get("lead_time") == "4"


# ---------------------------------------------------------------- 5. a count of people beside the items sold


@pytest.mark.parametrize(
    ("text", "mean"),
    [
        ("about 30 people come in a day and maybe 4 buy a candle, it varies", "poisson(4)"),
        ("we see 50 customers a day, about 5 take a jar home, random", "poisson(5)"),
        ("around 40 shoppers a day, roughly 6 of them pick up a loaf, it's random", "poisson(6)"),
    ],
)
def test_a_count_of_people_is_not_the_demand(text: str, mean: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == mean
    assert "people, not units sold" in turn.assistant  # said, so the owner can object


def test_a_count_of_people_alone_is_still_read() -> None:
    """Without a count of items beside it nothing is taken out ('50 customers a day' may be the demand)."""
    _, turn = _talk("about 12 a day, random", asked="demand_type")
    assert _values(turn).get("demand_distribution") == "poisson(12)"


# ---------------------------------------------------------------- 2. money of the whole business, asked per unit


@pytest.mark.parametrize(
    ("asked", "text"),
    [
        ("penalty_cost", "my assistant costs me 2500 a month, busy or not"),
        ("holding_cost", "I pay my helper 400 a week"),
        ("setup_cost", "the two drivers cost me 900 a week between them"),
        ("holding_cost", "the mechanic is 3200 a month"),
    ],
)
def test_wages_are_asked_per_unit_never_divided(asked: str, text: str) -> None:
    _, turn = _talk(text, asked=asked)
    assert _values(turn) == {}, turn.assistant
    assert "whole business" in turn.assistant


@pytest.mark.parametrize(
    "text", ["the market pitch fee is 120 a day", "the stall fee is 90 a week", "my licence fee is 45 a day"]
)
def test_a_fee_per_period_is_never_demand(text: str) -> None:
    _, turn = _talk(text, asked="setup_cost")
    values = _values(turn)
    assert "demand_distribution" not in values and "setup_cost" not in values, turn.assistant


def test_a_fee_per_period_said_while_demand_is_asked_is_never_demand() -> None:
    _, turn = _talk("the market pitch fee is 120 a day", asked="demand_type")
    assert "demand_distribution" not in _values(turn)


# ---------------------------------------------------------------- 3. a duration of an event beside another answer


@pytest.mark.parametrize(
    ("asked", "text", "row"),
    [
        ("demand_type", "4 or 5 a day, and the big sale is in 2 weeks", None),
        ("demand_type", "about 6 a day, random, the festival starts in 10 days", "demand_distribution"),
        ("max_inventory", "room for 40, the shop refit is in 3 weeks", "max_inventory"),
        ("demand_type", "about 3 a day, random; it takes an hour to put together", "demand_distribution"),
    ],
)
def test_a_duration_without_a_word_of_delivery_is_no_lead_time(
    asked: str, text: str, row: str | None
) -> None:
    agent, turn = _talk(text, asked=asked)
    values = _values(turn)
    assert "lead_time" not in values, turn.assistant
    assert row is None or row in values
    assert not agent.table.is_defined("lead_time")


@pytest.mark.parametrize(
    "text", ["about 12 a day, random; the supplier takes 2 days anyway", "around 8 a day, random, and it takes 2 days to get here"]
)  # fmt: skip
def test_a_duration_naming_delivery_is_still_the_lead_time(text: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("lead_time") == "2"


# ---------------------------------------------------------------- 1. a range whose unit follows its second end


@pytest.mark.parametrize(
    ("text", "demand"),
    [
        ("somewhere from 2 to 4 crates of 10 a day, no pattern", "uniform(20,40)"),
        ("between 3 and 5 cases of 6 a day, any number equally likely", "uniform(18,30)"),
        ("anything from 1 to 3 trays of 20 a day, all equally likely", "uniform(20,60)"),
    ],
)
def test_both_ends_of_a_range_count_the_container(text: str, demand: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand


@pytest.mark.parametrize(
    ("opening", "text", "packs", "units"),
    [
        ("Doughnuts, they come in boxes of 6.", "anything from 4 to 8 boxes a day, no pattern", "uniform(4,8)",
         "uniform(24,48)"),
        ("Yoghurt pots arrive in trays of 12.", "between 2 and 3 trays a day, any number equally likely",
         "uniform(2,3)", "uniform(24,36)"),
        ("Batteries come in packs of 4.", "from 5 to 10 packs a day, all equally likely", "uniform(5,10)",
         "uniform(20,40)"),
    ],
)  # fmt: skip
def test_demand_only_in_the_pack_goods_come_in_is_asked(
    opening: str, text: str, packs: str, units: str
) -> None:
    """Packs or single units? Never written in either unit before the owner says which."""
    agent, turn = _talk(opening, text, asked="demand_type")
    assert "demand_distribution" not in _values(turn)
    assert agent.table.conflicts and agent.table.conflicts[0].kind == "count_basis"
    assert "(A)" in turn.assistant and "(B)" in turn.assistant
    turn = agent.respond("B")
    assert _values(turn).get("demand_distribution") == units
    agent.state.asked = "max_order"
    turn = agent.respond("at most 10 per order")
    assert _values(turn).get("max_order") == "10"


def test_packs_picked_make_the_pack_the_unit() -> None:
    agent, _ = _talk("Doughnuts, they come in boxes of 6.", "anything from 4 to 8 boxes a day, no pattern",
                     asked="demand_type")  # fmt: skip
    turn = agent.respond("A, we count boxes")
    assert _values(turn).get("demand_distribution") == "uniform(4,8)"
    agent.state.asked = "max_inventory"
    turn = agent.respond("room for 30 boxes")
    assert _values(turn).get("max_inventory") == "30"


# ---------------------------------------------------------------- 6. demand said in the contents of the item planned


@pytest.mark.parametrize(
    ("opening", "text", "demand", "said"),
    [
        ("I run a bakery and we sell the rolls in bags of four.", "about 80 rolls a day, give or take 2 bags",
         "normal(20,2)", "80 rolls ÷ 4 per bag"),
        ("Corner shop; we sell yoghurt by the dozen carton.", "240 yoghurts a day, the same every day", "20",
         "240 yoghurts ÷ 12 per carton"),
        ("Off-licence here, I want to plan how many four-packs of cider to keep.",
         "around 40 cans a day, it varies randomly", "poisson(10)", "40 cans ÷ 4 per four-pack"),
        ("Butcher; we sell burgers in boxes of 8.", "roughly 96 burgers a day, random", "poisson(12)",
         "96 burgers ÷ 8 per box"),
    ],
)  # fmt: skip
def test_demand_in_the_contents_of_the_pack_sold_counts_packs(
    opening: str, text: str, demand: str, said: str
) -> None:
    agent, turn = _talk(opening, text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand, turn.assistant
    assert said in turn.assistant  # read back with its conversion


def test_a_pack_sold_is_the_unit_of_storage_too() -> None:
    agent, _ = _talk(
        "Butcher; we sell burgers in boxes of 8.", "roughly 96 burgers a day, random", asked="demand_type"
    )
    agent.state.asked = "max_inventory"
    turn = agent.respond("the freezer takes 50 boxes")
    assert _values(turn).get("max_inventory") == "50"


def test_a_pack_the_goods_come_in_is_no_pack_sold() -> None:
    """'they come in packs of 8' says how they are bought: demand in single items stays in items."""
    _, turn = _talk("Bagels, they come in packs of 6.", "about 30 bagels a day, random", asked="demand_type")
    assert _values(turn).get("demand_distribution") == "poisson(30)"


def test_a_pack_someone_else_sells_is_no_pack_sold() -> None:
    """'the wholesaler sells them in boxes of 10' is how they are bought: demand in candles stays in candles."""
    _, turn = _talk(
        "I sell candles one at a time. The wholesaler sells them in boxes of 10.",
        "about 20 candles a day, random",
        asked="demand_type",
    )
    assert _values(turn).get("demand_distribution") == "poisson(20)"


@pytest.mark.parametrize(("asked", "text"), [("setup_cost", "the market pitch costs 120 a day"),
                                             ("holding_cost", "the stall costs me 45 a day")])  # fmt: skip
def test_a_pitch_or_stall_per_day_is_never_a_cost_per_unit(asked: str, text: str) -> None:
    _, turn = _talk(text, asked=asked)
    assert _values(turn) == {}, turn.assistant
