"""Issue 27, session 38 (classes the read batches b20 and b22 still missed; our own phrasings): a measure naming
a bag's size across the words for its contents ('15kg dog food bags') sizes the item, so kilos are counted in
bags; 'a cent and a half' and 'two and a half dozen' are read whole; 'store credit' a waiting customer is given
is the backlog penalty, no storage; a per-item amount answers a cost's (A)/(B) question and is no demand; how
often someone orders ('twice a week') is no delivery time."""

from __future__ import annotations

import pytest

from core.inventory.nlu.extractors import read_message
from core.text.mentions import Kind, parse
from core.text.numbers import words_to_digits
from core.text.units import spoken_money
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


@pytest.mark.parametrize(
    ("text", "unit", "value", "container"),
    [
        ("we stock the big 15kg dog food bags", "kg", 15.0, "bag"),
        ("our 2 litre milk bottles", "litre", 2.0, "bottle"),
        ("the 25 kg potato sacks", "kg", 25.0, "sack"),
    ],
)
def test_a_measure_before_a_vessels_contents_sizes_the_vessel(
    text: str, unit: str, value: float, container: str
) -> None:
    sized = [m for m in parse(text).mentions if m.role == "size"]
    assert [(m.unit, m.value, m.container) for m in sized] == [(unit, value, container)]


@pytest.mark.parametrize(
    "text", ["60 kilos of rice in bags", "we sell 60 kilos chicken wings a day", "30 kg a day, in bags"]
)
def test_an_amount_sold_beside_a_bag_is_no_size(text: str) -> None:
    assert not [m for m in parse(text).mentions if m.role == "size"]


def test_kilos_of_sized_bags_are_counted_in_bags() -> None:
    _, turn = say(
        "Hi, I have a question about the 20kg bird seed sacks we sell",
        "we go through about 140 kilos a week, it's random",
        "about 400 kilos fits in the back",
    )
    values = _values(turn)
    assert values.get("demand_distribution") == "poisson(1)", turn.assistant
    assert values.get("max_inventory") == "20", turn.assistant


@pytest.mark.parametrize(
    ("text", "amount"),
    [("a cent and a half per book", 0.015), ("a dollar and a half each", 1.5), ("2 dollars and a half", 2.5)],
)
def test_and_a_half_after_a_currency_is_half_of_that_currency(text: str, amount: float) -> None:
    assert [m.value for m in parse(text).of(Kind.MONEY)] == [amount]


def test_a_spoken_cent_and_a_half_is_one_and_a_half_cents() -> None:
    assert spoken_money("a cent and a half per book per day") == "1.5 cents per book per day"
    assert spoken_money("a dime and a half") == "15 cents"


def test_a_cent_and_a_half_is_the_holding_cost() -> None:
    _, turn = say("I sell paperbacks", "storage? a cent and a half per book per day I guess")
    assert _values(turn).get("holding_cost") == "0.015", turn.assistant


@pytest.mark.parametrize(
    ("text", "value"),
    [("roughly two and a half dozen a day", "30"), ("2.5 dozen a day", "30"), ("three and a half dozen", "42")],
)
def test_a_half_dozen_count_is_read_whole(text: str, value: str) -> None:
    assert words_to_digits(text).split()[1 if text.startswith("roughly") else 0] == value


def test_store_credit_for_each_day_they_wait_is_the_backlog_penalty() -> None:
    _, turn = say(
        "I sell board games",
        "about 2 a day, random",
        "customers wait for us to restock",
        "holding is 5 cents per game per day",
        "we give 30 cents of store credit per game for every day they wait",
    )
    values = _values(turn)
    assert values.get("penalty_cost") == "0.3", turn.assistant
    assert values.get("holding_cost") == "0.05", turn.assistant


def test_a_per_item_amount_answers_a_cost_conflict_and_is_no_demand() -> None:
    agent, turn = say(
        "we sell about 21 books a week, random",
        "customers wait",
        "no they don't spoil",
        "45 days",
        "holding is 1 cent per book per day",
        "holding is 20 cents per book per day",
    )
    assert agent.table.conflicts, turn.assistant
    turn = agent.respond("0.015 per book per day")
    values = _values(turn)
    assert values.get("holding_cost") == "0.015", turn.assistant
    assert values.get("demand_distribution") == "poisson(3)", turn.assistant
    assert not agent.table.conflicts, turn.assistant


@pytest.mark.parametrize(
    "text",
    [
        "I order from the wholesaler twice a week and never know how much to get",
        "we get deliveries once a week-ish",
        "I place orders three times a week",
    ],
)
def test_how_often_someone_orders_is_no_delivery_time(text: str) -> None:
    assert not [f for f in read_message(text, None, {}).findings if f.key == "lead_time"]
    assert not [f for f in read_message(text, "lead_time", {}).findings if f.key == "lead_time"]


def test_a_delivery_time_beside_an_order_frequency_is_read() -> None:
    found = [f for f in read_message("we order once a week and it takes 3 days", "lead_time", {}).findings]
    assert [(f.key, f.value) for f in found] == [("lead_time", "3")]


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("some days 4, other days 9, it's all over the place", "uniform(4,9)"),
        ("some days 4, some days 9, it's all over the place", "uniform(4,9)"),
        ("some days 20, other days 40", "uniform(20,40)"),
    ],
)
def test_two_amounts_said_as_different_days_are_a_range(reply: str, value: str) -> None:
    _, turn = say("I sell candles", reply)
    assert _values(turn).get("demand_distribution") == value, turn.assistant
    assert "delivery time" not in turn.assistant


@pytest.mark.parametrize(
    "reply", ["the supplier sells them to us for 2", "the wholesaler sells them to me for 2 and we sell for 5"]
)
def test_what_a_supplier_sells_to_us_for_is_no_penalty(reply: str) -> None:
    _, turn = say(
        "I sell candles", "about 4 a day, random", "the sale is lost", "no", "30 days", "5 cents per candle per day",
        reply,
    )
    assert "penalty_cost" not in _values(turn), turn.assistant


@pytest.mark.parametrize("text", ["the supplier sells them to us for 2", "they sell it to me for 3.50"])
def test_a_sale_to_the_speaker_is_a_purchase_price(text: str) -> None:
    assert [m.role for m in parse(text).of(Kind.MONEY)] == ["purchase_price"]


@pytest.mark.parametrize(
    ("reply", "value"), [("the display case takes 5 dozen", "60"), ("the glass case holds 40 cakes", "40")]
)
def test_a_display_case_is_storage_not_a_case_of_items(reply: str, value: str) -> None:
    found = read_message(reply, "max_inventory", {}).findings
    assert [(f.key, f.value) for f in found] == [("max_inventory", value)]


def test_a_cost_answer_to_a_two_amount_question_is_no_demand() -> None:
    agent, turn = say(
        "I buy croissants for my cafe",
        "four dozen a day, exactly, it never changes",
        "the sale is lost",
        "they go stale by the evening, we throw out what's left",
        "just this week",
        "nothing really, they sit on the counter for the day, say 2 cents each",
        "0.02 per croissant per day",
    )
    values = _values(turn)
    assert values.get("demand_distribution") == "48", turn.assistant
    assert values.get("holding_cost") == "0.02", turn.assistant
    assert not agent.table.conflicts, turn.assistant  # no 'about 0.02 units a day, how does it vary?'


@pytest.mark.parametrize(
    ("text", "container", "size"),
    [("cases are 24", "case", 24.0), ("each crate has 20", "crate", 20.0), ("a box holds 50", "box", 50.0)],
)
def test_a_container_said_to_be_a_count_is_sized(text: str, container: str, size: float) -> None:
    sized = [m for m in parse(text).mentions if m.role == "size"]
    assert [(m.container, m.multiplier) for m in sized] == [(container, size)]


@pytest.mark.parametrize("text", ["no idea, honestly", "dunno, the cases are 24", "I am unsure"])
def test_an_answer_word_beside_a_size_never_raises(text: str) -> None:
    parse(text)


def test_half_a_case_of_a_stated_size_is_counted_in_items() -> None:
    _, turn = say("I run a shop", "we go through half a case a day, cases are 24, pretty random")
    assert _values(turn).get("demand_distribution") == "poisson(12)", turn.assistant


def test_kilos_sold_in_blocks_of_a_stated_weight_are_counted_in_blocks() -> None:
    _, turn = say("I run a deli", "we sell 1.5 kg of cheese a day in 250 g blocks, random")
    assert _values(turn).get("demand_distribution") == "poisson(6)", turn.assistant


@pytest.mark.parametrize(
    ("text", "pallet"),
    [("each pallet is 40 boxes of 10", 400.0), ("a pallet holds 40 cases of 12", 480.0), ("a case is 6 packs of 4", 24.0)],
)
def test_a_container_of_containers_holds_the_product(text: str, pallet: float) -> None:
    sized = [m for m in parse(text).mentions if m.role == "size"]
    assert sized[0].multiplier == pallet


def test_storage_in_pallets_of_boxes_is_counted_in_items() -> None:
    agent, _ = say(
        "I run a shop", "about 20 a day, random", "the sale is lost", "no they keep", "30 days",
        "5 cents per unit per day", "I lose 2 per missed sale", "10 per order", "2 days",
    )
    turn = agent.respond("two pallets worth, each pallet is 40 boxes of 10")
    assert _values(turn).get("max_inventory") == "800", turn.assistant


def test_a_mean_with_some_days_at_either_end_is_no_range() -> None:
    _, turn = say("I sell dog food", "about 2 bags a day, some days none, some days 5")
    assert _values(turn).get("demand_distribution") != "uniform(2,5)", turn.assistant


def _to_holding() -> list[str]:
    return ["I sell scented candles", "about 6 a day, random", "the sale is lost", "no", "60 days"]


def test_a_reported_figure_set_aside_asks_for_no_other_row() -> None:
    _, turn = say(*_to_holding(), "the supplier says it's 5 cents a day but really it's more like 3 cents per candle")
    assert _values(turn).get("holding_cost") == "0.03", turn.assistant
    assert "lead time" not in turn.assistant, turn.assistant


def test_a_hedged_second_value_stays_with_its_row() -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale", "10 per order",
        "usually 3 days, sometimes 4",
    )
    values = _values(turn)
    assert values.get("lead_time") == "3", turn.assistant
    assert values.get("demand_distribution") == "poisson(6)", turn.assistant
    assert "how does it vary" not in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("text", "digits"),
    [("between 2 and 3 dozen a day", "between 24 and 36 a day"), ("two or three dozen eggs", "24 or 36 eggs"),
     ("2-3 dozen", "24-36"), ("a dozen or two", "12 or 24")],
)
def test_a_dozen_counts_both_ends_of_a_range(text: str, digits: str) -> None:
    assert words_to_digits(text) == digits


def test_a_range_of_dozens_is_a_range_of_items() -> None:
    _, turn = say("I sell bagels", "between 2 and 3 dozen a day")
    assert _values(turn).get("demand_distribution") == "uniform(24,36)", turn.assistant


def test_a_case_and_a_half_a_week_is_no_half_week() -> None:
    _, turn = say("I sell wine", "we sell about a case and a half a week, 12 to a case, random")
    assert _values(turn).get("demand_distribution") == "poisson(2.5714)", turn.assistant
    assert "delivery time" not in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("on average 6 a day, it goes up or down more or less 2", "normal(6,2)"),
        ("averages 25 a day, about 5 either way", "normal(25,5)"),
        ("about 40 a day and it moves up and down by 8", "normal(40,8)"),
    ],
)
def test_a_spread_said_as_up_or_down_or_either_way_is_normal(reply: str, value: str) -> None:
    _, turn = say("I sell juice", reply)
    assert _values(turn).get("demand_distribution") == value, turn.assistant


def test_the_spread_answers_the_how_does_it_vary_question() -> None:
    agent, turn = say("I run a pharmacy, we sell maybe 6 bottles a day")
    assert agent.table.conflicts, turn.assistant
    turn = agent.respond("on average 6 every day, it goes up or down more or less 2")
    assert _values(turn).get("demand_distribution") == "normal(6,2)", turn.assistant


def test_a_unit_corrected_right_after_an_amount_is_the_unit_meant() -> None:
    said = parse("It's 18 pounds, sorry, dollars on the cover")
    assert [(m.kind, m.value, m.unit) for m in said.mentions] == [(Kind.MONEY, 18.0, "USD")]
    assert [(m.kind, m.unit) for m in parse("it weighs 18 pounds").mentions] == [(Kind.QUANTITY, "lb")]


def test_a_percentage_off_the_price_is_the_purchase_price_and_no_delivery_time() -> None:
    _, turn = say(
        "I run a bookshop", "about 2 a day, exactly", "the sale is lost", "no", "60 days", "1 cent per book per day",
        "It's 18 dollars on the cover and I get 40% off from the distributor",
    )
    values = _values(turn)
    assert "penalty_cost" not in values and "lead_time" not in values, turn.assistant
    assert "$7.2" in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("reply", "value"),
    [("they're 18 retail and I buy them at 9", "9"), ("I buy 1.20, I sell 3", "1.8")],
)
def test_prices_said_tersely_offer_the_margin_and_write_no_penalty(reply: str, value: str) -> None:
    _, turn = say(*_to_holding(), "0.04 per candle per day", reply)
    assert "penalty_cost" not in _values(turn), turn.assistant
    assert f"${value}" in turn.assistant, turn.assistant


def test_half_of_one_cent_is_half_a_cent() -> None:
    _, turn = say(*_to_holding(), "is very small, half of one cent each day for one candle")
    assert _values(turn).get("holding_cost") == "0.005", turn.assistant


def test_a_range_said_on_a_bell_curve_is_normal() -> None:
    _, turn = say("I sell oil filters", "avg 10 a day, most days somewhere between 7 and 13, bell curve kinda")
    assert _values(turn).get("demand_distribution") == "normal(10,3)", turn.assistant


@pytest.mark.parametrize(
    ("reply", "row", "value"),
    [
        ("it takes 5 days, no wait, they changed the route, it's 4 now", "lead_time", "4"),
    ],
)
def test_a_correction_after_a_short_remark_is_read(reply: str, row: str, value: str) -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale", "10 per order", reply
    )
    assert _values(turn).get(row) == value, turn.assistant


def test_a_hedged_count_then_no_then_the_count_meant() -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale", "10 per order", "2 days",
        "room for 200", "the wholesaler caps us at 100 I guess, no, it's 80, they told me last week",
    )
    assert _values(turn).get("max_order") == "80", turn.assistant


@pytest.mark.parametrize(
    ("reply", "value"),
    [("wholesaler sells in bunch of 25, they send at most 6 bunch per order", "150"),
     ("a pallet is 50 bags and they won't send more than one", "50")],
)
def test_a_container_sized_then_counted_gives_the_order_cap(reply: str, value: str) -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale", "10 per order", "2 days",
        "room for 200", reply,
    )
    assert _values(turn).get("max_order") == value, turn.assistant


def test_a_short_count_answers_the_order_cap_check() -> None:
    agent, turn = say(
        "I sell dog food", "about 4 bags a day, random", "lost sale", "no", "30 days", "10 cents per bag per day",
        "5 per missed sale", "20 per order", "2 days", "100 bags", "1",
    )
    assert agent.table.conflicts, turn.assistant
    turn = agent.respond("50 bags")
    assert _values(turn).get("max_order") == "50", turn.assistant
    assert not agent.table.conflicts, turn.assistant


def test_demand_in_packs_of_unknown_size_is_read_back_in_packs() -> None:
    _, turn = say("I run a food truck and need to sort the buns", "we use 10 packs a day, exactly that")
    assert "I count your stock in packs" in turn.assistant, turn.assistant


def test_a_second_amount_after_maybe_is_asked_never_dropped() -> None:
    agent, turn = say("I sell candles", "about 6 a day, maybe 7, random")
    assert "demand_distribution" not in _values(turn), turn.assistant
    assert "6 or 7 a day" in turn.assistant and agent.table.conflicts, turn.assistant


@pytest.mark.parametrize(
    ("text", "role"), [("case of 24, max 2 cases", "size"), ("a case of 24 a day, sometimes 2 cases", None)]
)
def test_a_container_counted_again_was_its_size(text: str, role: str | None) -> None:
    assert parse(text).mentions[0].role == role


def test_case_of_24_then_max_2_cases_is_48() -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale", "10 per order", "2 days",
        "room for 50", "case of 24, max 2 cases",
    )
    assert _values(turn).get("max_order") == "48", turn.assistant


def test_a_correction_after_a_remark_about_the_first_value_is_read() -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale",
        "the supplier charges 20 for delivery, no wait, they dropped it to 15 last month",
    )
    assert _values(turn).get("setup_cost") == "15", turn.assistant


def test_a_careful_answer_is_not_overruled_by_a_fragment_read_as_no_preference() -> None:
    _, turn = say(
        *_to_holding(), "3 cents per candle per day", "5 dollars per missed sale", "10 per order", "2 days",
        "room for 200", "100 per order at most", "I am very careful, never I want a customer come and we dont have",
    )
    assert _values(turn).get("risk_tolerance") != "0", turn.assistant
