"""Issue 27, session 40 (classes left open after session 39, found by the fresh batches b47-b48; our own
phrasings): storage said in a measure of unknown size once demand is counted in items is asked, never written as
that many items; 'a box either way' after a swing is a spread of one box; an order cutoff ('order by 3', 'order
before 5') is a time of day, never a delivery time or an order limit, and the consequent of 'if I order ... they're
here next morning' states the delivery time."""

from __future__ import annotations

import pytest

from core.inventory.nlu.extractors import read_message
from core.text.mentions import Kind, parse
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_STORAGE_IN_BAGS = (
    "we move about 300 kilos a week of dog food",
    "5 bags a day on average, random",
    "they go to the supermarket",
    "no, it keeps a year",
    "60 days",
    "10 cents a bag a day",
    "9 per missed sale",
    "25 per delivery",
    "3 days",
)


def test_storage_in_kilos_of_bags_of_unknown_size_is_asked_not_written() -> None:
    agent, turn = say(*_TO_STORAGE_IN_BAGS, "the back room takes about 700 kilos")
    assert "max_inventory" not in _values(turn), turn.assistant
    assert "kilos" in turn.assistant and "bag" in turn.assistant, turn.assistant
    turn = agent.respond("about 50 bags")
    assert _values(turn).get("max_inventory") == "50", turn.assistant


def test_storage_in_kilos_of_bags_of_known_size_is_not_asked() -> None:
    turn = say("we sell 10 kilo bags, about 5 bags a day on average, random", *_TO_STORAGE_IN_BAGS[2:],
               "the back room takes about 400 kilos")[1]  # fmt: skip
    assert "max_inventory" in _values(turn) or "kilos" not in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    "text",
    [
        "it swings by about a box either way",
        "day to day it goes up or down by a case either way",
        "give or take a tray",
    ],
)
def test_one_container_either_way_is_a_spread_of_one(text: str) -> None:
    quantities = parse(text).of(Kind.QUANTITY)
    assert [m.value for m in quantities] == [1.0], quantities
    assert quantities[0].container is not None


def test_a_box_without_either_way_is_no_spread() -> None:
    assert not parse("we sell it by the box").of(Kind.QUANTITY)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("if I order by 3 they're here next morning at 6", "1"),
        ("order before 5 and it's here next morning", "1"),
        ("if we order by 11 it's here in 2 days", "2"),
    ],
)
def test_an_order_cutoff_is_no_delivery_time(text: str, days: str) -> None:
    reading = read_message(text, "lead_time", {})
    found = {f.key: f.value for f in reading.findings}
    assert found.get("lead_time") == days, reading
    assert "max_order" not in found, reading


def test_an_order_cutoff_is_a_clock_time() -> None:
    clocks = parse("if I order by 3 they're here next morning").of(Kind.CLOCK, live_only=False)
    assert [m.value for m in clocks] == [180.0]


@pytest.mark.parametrize("text", ["we top out at 12 a delivery", "I can order up to 40 at a time"])
def test_a_limit_after_at_stays_a_limit(text: str) -> None:
    found = {f.key: f.value for f in read_message(text, "max_order", {}).findings}
    assert found.get("max_order") in ("12", "40"), found


def test_demand_in_quarts_is_asked_like_other_measures() -> None:
    turn = say("we sell about 20 quarts a day, random")[1]
    assert "demand_distribution" not in _values(turn), turn.assistant
    assert "quarts" in turn.assistant


def test_a_container_of_containers_uses_the_inner_size_said_before() -> None:
    sized = parse("a crate is 10 boxes and they cap us at two crates", sizes={"box": 6.0}).of(Kind.QUANTITY)
    assert [m.amount for m in sized if m.role != "size"] == [120.0], sized


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("shipping is 30 bucks, oh no wait, they raised it in March, 35", 35.0),
        ("the fee was 12, sorry, they changed it last month, 15", 15.0),
    ],
)
def test_a_correction_across_a_reason_takes_the_new_figure(text: str, value: float) -> None:
    live = parse(text).of(Kind.MONEY, Kind.QUANTITY)
    assert [m.value for m in live] == [value], parse(text).mentions


@pytest.mark.parametrize(
    "text",
    [
        "the list says we pay $5 but really with tax it's $6, and we sell it for $11.",
        "the bakery pays me $3 a loaf and the flour and all costs me $1.20",
        "we get them for 7 and sell for 15, no wait, 16 now",
    ],
)
def test_a_purchase_and_a_sale_price_offer_the_margin_never_a_price(text: str) -> None:
    reading = read_message(text, "penalty_cost", {})
    assert not [f for f in reading.findings if f.key == "penalty_cost"], reading
    assert any("margin" in u.message for u in reading.unclear), reading


@pytest.mark.parametrize(
    "text",
    [
        "we want to plan the 60-count vitamin bottles for the season",
        "I'm looking at the 100-count boxes of nails",
    ],
)
def test_a_count_naming_the_item_is_no_value(text: str) -> None:
    assert not read_message(text, None, {}).findings


@pytest.mark.parametrize(
    ("text", "mean"),
    [
        ("in one week I sell around 140 of them, random", "poisson(20)"),
        ("the 50-count boxes, we move around 21 boxes a week, random", "poisson(3)"),
        ("we go through a tray of 24 roughly every 3 days, random", "poisson(8)"),
        ("it's never the same, but over the month it averages out to about 6 a day, random", "poisson(6)"),
        ("the report says 70 a week, but that was before the school started ordering. It's more like 84 a week now, random", "poisson(12)"),  # noqa: E501
        ("the till says 600 last month, so what, 20 a day? random", "poisson(20)"),
    ],
)
def test_demand_said_around_other_figures_keeps_its_own_mean(text: str, mean: str) -> None:
    demand = read_message(text, "demand_distribution", {}).demand
    assert demand is not None and demand.value == mean, demand


def test_a_measure_then_so_a_count_counts_the_count() -> None:
    live = parse("about 30 kilos a day, so 2 bags").of(Kind.QUANTITY)
    assert [(m.value, m.container) for m in live] == [(2.0, "bag")], live


def test_an_unasked_never_the_same_says_nothing_of_spoiling() -> None:
    assert read_message("about 50 a day, but it's never the same", "demand_distribution", {}).perishable is None


def test_a_hedged_alternative_then_a_restatement_settles_both() -> None:
    live = parse("it costs us 2 dollars a day per unit, maybe 2.50. let's say 2.50").of(Kind.MONEY, Kind.QUANTITY)
    assert [m.value for m in live] == [2.5], live


@pytest.mark.parametrize(
    "text",
    [
        "the wholesaler used to charge $12 an order but they dropped that last year",
        "our distributor doesn't charge per order",
    ],
)
def test_a_fee_that_is_gone_is_zero(text: str) -> None:
    found = {f.key: f.value for f in read_message(text, "setup_cost", {}).findings}
    assert found.get("setup_cost") == "0", found


def test_a_fee_dropped_to_a_new_amount_is_not_zero() -> None:
    found = [f.value for f in read_message("they dropped it to $5 last year", "setup_cost", {}).findings]
    assert found and "0" not in found, found


def test_a_size_said_per_container_beside_a_count_of_them() -> None:
    live = [m for m in parse("6 crates, 25 per crate").of(Kind.QUANTITY) if m.role != "size"]
    assert [m.amount for m in live] == [150.0], live


@pytest.mark.parametrize(
    "text",
    ["family shop, been here 15 years, about 8 a day", "we've been going 30 years now and sell about 8 a day"],
)
def test_how_long_the_shop_has_been_open_is_no_horizon(text: str) -> None:
    found = {f.key for f in read_message(text, None, {}).findings}
    assert "time_horizon" not in found, found


def test_one_week_against_the_next_is_how_demand_varies() -> None:
    text = "around 10 a week, one week a club comes in and the next week nobody"
    found = {f.key for f in read_message(text, "demand_distribution", {}).findings}
    assert not found & {"lead_time", "time_horizon"}, found


def test_a_minimum_order_is_no_largest_order() -> None:
    found = {f.key: f.value for f in read_message("minimum order 30 units, fee is 10", None, {}).findings}
    assert "max_order" not in found, found


def test_an_arrival_time_of_day_is_no_delivery_time() -> None:
    text = "I order by 9 at night and they're here at 5 in the morning"
    found = [f.value for f in read_message(text, "lead_time", {}).findings if f.key == "lead_time"]
    assert "5" not in found and "9" not in found, found


_TO_HOLDING_IN_BAGS = ("about 4 bags a day on average, random", "they go elsewhere", "no, it keeps", "30 days")


def test_a_cost_per_kilo_of_bags_of_known_size_is_per_bag() -> None:
    turn = say("we sell 10 kilo bags, " + _TO_HOLDING_IN_BAGS[0], *_TO_HOLDING_IN_BAGS[1:], "1 cent per kilo per day")[1]
    assert _values(turn).get("holding_cost") == "0.1", turn.assistant
    assert "10 kg" in turn.assistant, turn.assistant


def test_a_cost_per_kilo_of_bags_of_unknown_size_is_asked_not_written() -> None:
    agent, turn = say(*_TO_HOLDING_IN_BAGS, "we lose about 3 dollars a kilo")
    assert "penalty_cost" not in _values(turn) and "holding_cost" not in _values(turn), turn.assistant
    assert "per kg" in turn.assistant, turn.assistant


def test_a_cost_per_kilo_when_the_table_counts_kilos_is_written() -> None:
    turn = say("about 40 kilos a day, random", "40 kilos a day, random", "they go elsewhere", "no, it keeps",
               "30 days", "1 cent per kilo per day")[1]  # fmt: skip
    assert _values(turn).get("holding_cost") == "0.01", turn.assistant


@pytest.mark.parametrize(("text", "value"), [("nails? no lol", "false"), ("false", "false"), ("true", "true")])
def test_a_spoil_answer_with_an_echo_or_true_false_is_read(text: str, value: str) -> None:
    agent, _ = say("about 5 boxes a day on average, random", "they wait")
    turn = agent.respond(text)
    assert _values(turn).get("perishability") == value, turn.assistant


def test_an_upset_thrown_off_is_no_spoiling() -> None:
    text = "about 20 a week, random, some weeks one customer buys ten and throws the whole count off"
    assert read_message(text, "demand_distribution", {}).perishable is None


def test_anything_between_two_figures_is_uniform() -> None:
    demand = read_message("totally random, some days 10 some days 30, anything between", "demand_distribution", {}).demand
    assert demand is not None and demand.value == "uniform(10,30)", demand


def test_a_figure_then_really_replaces_the_one_before() -> None:
    live = parse("it takes about a week after I call, well, 4 days really").of(Kind.DURATION)
    assert [(m.value, m.unit) for m in live] == [(4.0, "day")], live


def test_a_most_said_to_the_storage_question_is_storage() -> None:
    found = {f.key: f.value for f in read_message("room is tight, max 45 cans", "max_inventory", {}).findings}
    assert found == {"max_inventory": "45"}, found


def test_a_misspelt_really_after_but_takes_the_owners_figure() -> None:
    live = parse("the website says 5 days but realy its 3").of(Kind.DURATION, Kind.QUANTITY)
    assert [m.value for m in live] == [3.0], live


def test_a_size_to_the_box_and_a_spread_of_one_box() -> None:
    live = [m for m in parse("about 6 boxes a day, 10 packs to the box, standard deviation is about a box").mentions
            if m.role != "size"]  # fmt: skip
    assert [m.amount for m in live] == [60.0, 10.0], live


def test_the_answer_naming_one_options_row_settles_which_row() -> None:
    agent, turn = say(*_TO_HOLDING_IN_BAGS, "1 cent a bag a day", "4 dollars per missed sale",
                      "delivery is 15, no wait, 18 since they changed the rates")  # fmt: skip
    if "(A)" in turn.assistant:
        turn = agent.respond("18 dollars per order")
    assert _values(turn).get("setup_cost") == "18", turn.assistant
    assert "(A)" not in turn.assistant, turn.assistant


def test_a_denied_dying_overnight_keeps() -> None:
    assert read_message("no, they don't wilt overnight, fine for days", "perishability", {}).perishable == "false"


@pytest.mark.parametrize("text", ["the customers are not going anywhere", "they're not going anywhere, they wait"])
def test_not_going_anywhere_is_a_backlog(text: str) -> None:
    assert read_message(text, "state_transition_model", {}).transitions == ("backlog",)


def test_a_measure_sizes_a_bag_across_three_words_of_contents() -> None:
    sized = parse("the 20kg dry cat food bags").of(Kind.QUANTITY)
    assert [(m.unit, m.container, m.role) for m in sized] == [("kg", "bag", "size")], sized


@pytest.mark.parametrize(("text", "value"), [("three dozen and half", 42.0), ("two and half", 2.5)])
def test_and_half_without_an_article_is_a_half(text: str, value: float) -> None:
    assert [m.value for m in parse(f"some days {text}").of(Kind.QUANTITY)] == [value]
