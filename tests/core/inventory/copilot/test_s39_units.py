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


@pytest.mark.parametrize("text", ["hey there", "good morning all"])
def test_a_greeting_states_no_fact(text: str) -> None:
    reading = read_message(text, None, {})
    assert reading.transitions == () and reading.perishable is None


def test_a_denied_sameness_beside_random_is_random() -> None:
    reading = read_message("we shift about 21 tins a week, never the same day to day, it's random", None, {})
    assert reading.demand is not None and reading.demand.demand_type == "random", reading.demand


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Delivery is 30 bucks a drop, no wait, they raised it to 35 this spring.", "35"),
        ("the van charges 12 for delivery, oh wait, they stopped charging, it's free now", "0"),
    ],
)
def test_a_fee_corrected_after_a_remark_is_the_new_one(text: str, value: str) -> None:
    assert [f.value for f in read_message(text, "setup_cost", {}).findings] == [value]


@pytest.mark.parametrize(
    ("text", "margin"),
    [
        ("a tub costs me 2.50 and brings in about 6 bucks in sundaes", "$3.5"),
        ("we buy a pack of 4 rolls for 10 bucks and sell single rolls for 4", "$1.5"),
    ],
)
def test_what_an_item_brings_in_or_costs_by_the_pack_offers_the_margin(text: str, margin: str) -> None:
    reading = read_message(text, "penalty_cost", {})
    assert not reading.findings and margin in reading.unclear[0].message, reading


def test_a_correction_after_a_phrase_with_a_number_drops_the_first_amount() -> None:
    text = "they won't ship more than 10 dozen in one load, no wait, it's 12 dozen"
    assert [f.value for f in read_message(text, "max_order", {}).findings] == ["144"]


def test_another_dozen_is_added() -> None:
    text = "two dozen on the shelf and another dozen under the counter"
    assert [f.value for f in read_message(text, "max_inventory", {}).findings] == ["36"]


@pytest.mark.parametrize(
    ("text", "unit", "value", "container"),
    [
        ("the sack is 5 kilo", "kg", 5.0, "sack"),
        ("it comes in bags of 10 kg", "kg", 10.0, "bag"),
        ("the tins are 2 kilos each", "kg", 2.0, "tin"),
    ],
)
def test_a_measure_a_container_is_said_to_weigh_sizes_it(text: str, unit: str, value: float, container: str) -> None:
    sized = [(m.unit, m.value, m.container) for m in parse(text).mentions if m.role == "size"]
    assert sized == [(unit, value, container)], parse(text).mentions


def test_kilos_sold_are_counted_in_bags_of_the_weight_said() -> None:
    turn = say("we go through around 140 kilos a week, the bags are 10 kilos each, totally random")[1]
    assert _values(turn).get("demand_distribution") == "poisson(2)", turn.assistant


def test_a_reply_that_ends_so_no_does_not_spoil() -> None:
    reading = read_message("there's a date on the jar but it's two years away, so no", "perishability", {})
    assert reading.perishable == "false"


def test_how_customers_buy_is_no_order_limit() -> None:
    assert not read_message("We sell them one tin at a time.", None, {}).findings


def test_a_container_sized_in_a_relative_clause() -> None:
    sized = {m.container: m.multiplier for m in parse("one crate, which is 48 jars").mentions if m.role == "size"}
    assert sized == {"crate": 48.0}


def test_a_count_in_one_month_is_a_monthly_rate() -> None:
    reading = read_message("we sell around 15 in one month, some week none at all, random", "demand_distribution", {})
    assert reading.demand is not None and reading.demand.value == "poisson(0.5)", reading.demand


def test_a_stock_out_only_guessed_in_the_opening_is_asked() -> None:
    turn = say(
        "Hi! I have a little gift shop and the thing I always mess up is the soy candles. People love them but I "
        "either have a mountain of them or none."
    )[1]
    assert "state_transition_model" not in _values(turn), turn.assistant


def test_what_the_whole_rented_place_holds_is_not_written_as_storage() -> None:
    _, turn = say(
        "about 8 tins a day, random",
        "they walk out",
        "no",
        "a month",
        "rent is 900 a month for the unit and it holds like 3000 tins, so about 1 cent per tin per day",
    )
    values = _values(turn)
    assert "max_inventory" not in values and values.get("holding_cost") == "0.01", turn.assistant


def test_a_stated_stock_out_answers_the_guess_question() -> None:
    _, turn = say(
        "hello, I sell the argan oil",
        "we sell around 12 in one month, it's random, some weeks nobody buys",
        "if I have none, the client doesn't buy, maybe another brand or nothing",
    )
    assert _values(turn).get("state_transition_model") == "lost_sale", turn.assistant


def test_money_per_part_of_an_item_offers_the_product() -> None:
    text = "each jar is about 10 scoops and I make roughly 2 bucks on each scoop"
    reading = read_message(text, "penalty_cost", {})
    assert not reading.findings and "$20" in reading.unclear[0].message, reading


def test_the_amount_a_cost_answer_concludes_with_is_the_cost() -> None:
    text = "The receipt says 12 for delivery but there's a 3 dollar fee on top, so 15 really"
    assert [f.value for f in read_message(text, "setup_cost", {}).findings] == ["15"]


def test_same_morning_is_no_wait() -> None:
    reading = read_message("same morning, the bakery opens at 5 and drops them by 7", "lead_time", {})
    assert [f.value for f in reading.findings] == ["0"], reading


@pytest.mark.parametrize(("text", "days"), [("6 monhts", "180"), ("3 weekz", "21"), ("2 yeras", "730")])
def test_a_misspelt_time_unit_after_a_number_is_read(text: str, days: str) -> None:
    assert [f.value for f in read_message(text, "time_horizon", {}).findings] == [days]


@pytest.mark.parametrize(
    "text", ["no, best before is two years out", "no, they're tinned, good for over a year"]
)
def test_how_long_stock_keeps_is_no_planning_horizon(text: str) -> None:
    reading = read_message(text, "perishability", {})
    assert not [f for f in reading.findings if f.key == "time_horizon"] and reading.perishable == "false"


def test_what_is_not_sold_being_binned_spoils() -> None:
    reading = read_message("yes it's fresh soup, what we don't sell we bin at night", "perishability", {})
    assert reading.perishable == "true"


def test_a_spread_per_day_with_its_item_word_beside_a_monthly_mean() -> None:
    turn = say("we go through about 60 tins a month, pretty steady, maybe 1 tin a day either way")[1]
    assert _values(turn).get("demand_distribution") == "normal(2,1)", turn.assistant


def test_litres_are_counted_in_jugs_of_the_size_said() -> None:
    turn = say("I buy juice in 2 litre jugs and we pour about 20 litres a day, always the same")[1]
    assert _values(turn).get("demand_distribution") == "10", turn.assistant


def test_always_guessing_says_nothing_of_demand() -> None:
    reading = read_message("we move about 90 a month and I'm always guessing", "demand_distribution", {})
    assert reading.demand is not None and reading.demand.demand_type != "deterministic", reading.demand


def test_examples_after_an_average_take_nothing_back() -> None:
    _, turn = say("we sell about 8 a day", "like I said, around 8 a day on average but it's random, some days 3, some days 14")
    assert _values(turn).get("demand_distribution") == "poisson(8)", turn.assistant


def test_but_its_really_still_takes_the_first_figure_back() -> None:
    said = parse("the catalogue says 3 days but it's 5").of(Kind.DURATION, live_only=False)
    assert [m.live for m in said] == [False, True]


@pytest.mark.parametrize(
    ("text", "margin"),
    [("I pay 9.60 from the wholesaler and it's 16 on the cover", "$6.4"), ("i buy 0.80 one bun and sell 2.30", "$1.5")],
)
def test_a_cover_price_or_a_price_per_one_item_is_a_sale_price(text: str, margin: str) -> None:
    reading = read_message(text, "penalty_cost", {})
    assert not reading.findings and margin in reading.unclear[0].message and reading.demand is None, reading


def test_a_lone_purchase_price_is_no_penalty() -> None:
    _, turn = say("we sell 10 a day, random", "they leave", "no", "a month", "1 cent a day", "I pay 0.40 a bottle")
    assert "penalty_cost" not in _values(turn), turn.assistant


def test_a_shelf_price_beside_what_one_pays_offers_the_margin() -> None:
    reading = read_message("I pay 0.40 a bottle and it's 1.10 on the shelf", "penalty_cost", {})
    assert not reading.findings and "$0.7" in reading.unclear[0].message, reading


def test_a_measure_and_a_half_is_one_and_a_half() -> None:
    assert [m.value for m in parse("the spread is about a kilo and a half").of(Kind.QUANTITY)] == [1.5]


def test_how_long_stock_keeps_beside_same_morning_is_no_delivery_time() -> None:
    reading = read_message("same morning, we bake at 6. they'd be stale in a day anyway", "lead_time", {})
    assert [f.value for f in reading.findings] == ["0"], reading


@pytest.mark.parametrize(
    ("text", "margin"),
    [("we buy them at 11, retail is 19", "$8"), ("I get them for 60 cents from the bakery and sell them for 2", "$1.4")],
)
def test_retail_is_and_get_them_for_are_the_two_prices(text: str, margin: str) -> None:
    reading = read_message(text, "penalty_cost", {})
    assert not reading.findings and margin in reading.unclear[0].message, reading


def test_containers_to_a_container_size_it() -> None:
    reading = read_message("the shelf holds 20 cartons, 6 packs to a carton", "max_inventory", {})
    assert [f.value for f in reading.findings] == ["120"], reading
    assert parse("12 boxes to a").mentions[0].role is None  # cut short: no size
