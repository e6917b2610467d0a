"""Issue 27, session 42 (classes found by the fresh round-1 batches b116-b121 and the risk answers left from
session 41; our own phrasings): a neutral risk answer with one clause leaning a way is a mild lean put to the owner;
a misspelt currency after a number is money; 'no wait, now is 12' corrects; a product code such as '5W-30' holds no
numbers; 'is it okay if I say 20 cases?' is the owner's own hedged figure; 'one truck' is a count of deliveries."""

from __future__ import annotations

import pytest

from core.inventory.nlu.extractors import read_message
from core.inventory.nlu.risk import read_risk
from core.text.mentions import Kind, Scope, parse
from core.text.numbers import find_numbers
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def _found(text: str, expected: str | None) -> dict[str, str]:
    return {str(f.key): f.value for f in read_message(text, expected, {}).findings}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("in the middle, maybe a bit careful", "-2"),
        ("I suppose I'm a bit cautious? doesn't matter much either way", "-2"),
        ("middle of the road, but a little careful", "-2"),
    ],
)
def test_a_neutral_answer_leaning_one_way_is_a_mild_lean(text: str, value: str) -> None:
    found = read_risk(text)
    assert found is not None and found[0] == value and found[1], found


def test_a_lean_is_never_the_neutral_zero() -> None:
    found = read_risk("pretty much in the middle, maybe a little on the careful side")
    assert found is None or (found[0] != "0" and found[1]), found  # asked for a number, or a lean to confirm


@pytest.mark.parametrize("text", ["right in the middle", "I don't mind either way", "neutral I guess"])
def test_a_plainly_neutral_answer_stays_zero(text: str) -> None:
    assert read_risk(text) == ("0", "")


def test_a_leaning_neutral_answer_is_asked_not_written() -> None:
    _, turn = say("hair gel, 4 a day", "right in the middle, maybe slightly careful")
    assert "risk_tolerance" not in _values(turn) or "?" in turn.assistant, turn.assistant


@pytest.mark.parametrize("text", ["the fee is 9 dolar", "it's 9 doller per delivery", "9 dolars for each order"])
def test_a_misspelt_dollar_after_a_number_is_money(text: str) -> None:
    money = parse(text).of(Kind.MONEY)
    assert [m.value for m in money] == [9.0] and money[0].unit == "USD", money


def test_no_wait_now_is_corrects_the_figure_before() -> None:
    first, second = parse("shipping is 20 dolar, no wait, now is 16 dolar").of(Kind.MONEY, live_only=False)
    assert first.scope & Scope.CORRECTED and not second.scope & Scope.CORRECTED
    assert _found("shipping is 20 dolar, no wait, now is 16 dolar", "setup_cost") == {"setup_cost": "16"}


@pytest.mark.parametrize("text", ["Garage here, need a plan for 10W-40 jugs.", "How much 15W-50 should I keep?"])
def test_a_product_code_holds_no_numbers(text: str) -> None:
    assert not parse(text).mentions and not find_numbers(text)
    assert not _found(text, None)


def test_numbers_beside_a_product_code_still_count() -> None:
    assert [n.value for n in find_numbers("10W-40, about 12 a day")] == [12.0]


def test_is_it_okay_if_i_say_is_the_speakers_own_figure() -> None:
    (m,) = parse("would it be fine if I say 30 boxes?").of(Kind.QUANTITY, live_only=False)
    assert m.scope & Scope.HEDGED and not m.scope & Scope.HYPOTHETICAL, m


def test_one_truck_is_no_largest_order() -> None:
    assert "max_order" not in _found("That's all they can fit on one truck.", "max_order")


def test_cases_then_one_truck_keep_the_cases() -> None:
    _, turn = say(
        "toner cartridges, about 10 boxes a day, give or take 2 boxes, a box is 4 cartridges",
        "lost", "no", "30 days", "2 cents a day", "1 dollar", "15", "2 days", "50 boxes",
        "is it alright if I say 12 boxes? They won't load more than that on one truck.",
    )  # fmt: skip
    assert _values(turn).get("max_order") == "48", turn.assistant


def test_a_split_risk_answer_is_read_as_one_attitude() -> None:
    reading = read_message("right in the middle, maybe a little bit careful", "risk_tolerance", {})
    assert [(f.key, f.value, f.approximate) for f in reading.findings] == [("risk_tolerance", "-2", True)]


@pytest.mark.parametrize(
    "text",
    [
        "postage is free but the wholesaler adds a $7 packing fee per order",
        "shipping is free, they charge a $4.50 handling fee on every order",
    ],
)
def test_free_delivery_beside_a_fee_of_its_own_is_no_zero_fee(text: str) -> None:
    values = [f.value for f in read_message(text, "setup_cost", {}).findings if f.key == "setup_cost"]
    assert values and values[-1] != "0" or len(set(values)) > 1, values  # the fee, or both put to the owner


def test_a_bare_amount_a_go_said_of_delivery_is_the_fee() -> None:
    assert _found("Freight is 35 a go.", "setup_cost") == {"setup_cost": "35"}


@pytest.mark.parametrize("text", ["three days, they pack 24 per crate", "a week, and it's 10 per carton"])
def test_a_count_per_container_is_no_order_limit(text: str) -> None:
    assert not {"max_order", "max_inventory"} & set(_found(text, "lead_time"))


def test_a_corrected_container_size_corrects_the_size_not_the_count() -> None:
    assert _found("the shelf fits 4 boxes of 10, no wait, the boxes are 12", "max_inventory") == {"max_inventory": "48"}


def test_a_container_said_with_an_article_adds_to_a_sum() -> None:
    found = _found("a crate in the back plus 8 by the till, a crate is 30 jars", "max_inventory")
    assert found == {"max_inventory": "38"}


def test_a_size_statement_with_an_article_is_no_count() -> None:
    (m, *_) = parse("a crate is 30 jars plus 8 loose").of(Kind.QUANTITY)
    assert m.role == "size" and m.multiplier == 30, m


@pytest.mark.parametrize(
    ("text", "value"),
    [("buck fifty a day per jar", 1.5), ("a buck twenty each", 1.2), ("three bucks fifty", 3.5), ("2 dollars 25", 2.25)],
)
def test_dollars_and_cents_said_aloud_are_one_amount(text: str, value: float) -> None:
    assert [m.amount for m in parse(text).of(Kind.MONEY)] == [value]


def test_a_count_after_dollars_is_no_cents() -> None:
    assert [m.amount for m in parse("we pay 10 bucks 12 times a year").of(Kind.MONEY)] == [10.0]


def test_dollars_and_cents_aloud_fill_a_cost() -> None:
    assert _found("buck fifty a day per set, I take it off their bill", "penalty_cost") == {"penalty_cost": "1.5"}


@pytest.mark.parametrize("text", ["fish oil 1000 IU, the big tubs", "the 500mg tablets", "B12 50 mcg drops"])
def test_a_strength_in_a_name_is_no_count(text: str) -> None:
    assert not find_numbers(text) and not parse(text).of(Kind.QUANTITY)


def test_a_figure_taken_back_at_once_is_corrected_by_the_next_of_its_kind() -> None:
    first, second = parse("about 30 litres a week... wait no, that's both shops. for mine it's 12 litres a week").of(
        Kind.QUANTITY, live_only=False
    )
    assert first.scope & Scope.CORRECTED and not second.scope & Scope.CORRECTED


def test_no_followed_by_a_remark_is_no_correction() -> None:
    first, _ = parse("we sell 10 a day, no, not all the time, some days 2").of(Kind.QUANTITY, live_only=False)
    assert not first.scope & Scope.CORRECTED


def test_do_you_mean_with_an_amount_is_read_and_put_to_the_owner() -> None:
    _, turn = say(
        "lip balm, 3 a day random", "lost", "no", "30 days", "1 cent a day", "2 dollars",
        "Do you mean the $18 the supplier charges every time I put in an order?",
    )  # fmt: skip
    assert "setup_cost" not in _values(turn) and "18" in turn.assistant and "?" in turn.assistant, turn.assistant


@pytest.mark.parametrize("text", ["We never reach their free minimum.", "delivery is free over 150 dollars"])
def test_free_above_an_amount_is_no_zero_fee(text: str) -> None:
    assert "setup_cost" not in _found(text, "setup_cost")


def test_a_measure_after_a_container_word_is_its_size() -> None:
    (m,) = parse("we sell bird seed in big sacks 20 kg").of(Kind.QUANTITY)
    assert m.role == "size" and m.container == "sack" and m.unit == "kg", m


def test_within_a_figure_of_the_mean_is_the_spread() -> None:
    from core.inventory.nlu.demand import read_demand

    reading = read_demand("about 30 a day, and most days it's within about 6 of that")
    assert reading is not None and reading.value == "normal(30,6)", reading


def test_money_a_container_a_day_is_per_that_container_per_day() -> None:
    (m,) = parse("4 cents a sack a day").of(Kind.MONEY)
    assert m.per == "sack/day", m


def test_a_bare_restatement_of_cents_is_cents() -> None:
    assert _found("the sheet says 6 cents a tub a day but really it's more like 4", "holding_cost") == {
        "holding_cost": "0.04"
    }


def test_a_span_in_the_cooler_is_how_long_stock_keeps() -> None:
    found = _found("it comes the next morning. they'd hold up about 6 days in the cooler", "lead_time")
    assert found == {"lead_time": "1"}, found


def test_a_count_of_containers_per_container_is_its_size() -> None:
    (outer, size) = parse("Four crates, twelve trays per crate.").of(Kind.QUANTITY)
    assert size.role == "size" and size.multiplier == 12 and outer.multiplier == 12, (outer, size)


def test_a_number_and_a_half_stays_one_clause() -> None:
    from core.text.clauses import split_clauses

    assert split_clauses("we clear about 3 and a half bucks on each one") == ["we clear about 3 and a half bucks on each one"]
    assert _found("we clear about 3 and a half bucks on each one", "penalty_cost") == {"penalty_cost": "3.5"}


@pytest.mark.parametrize("text", ["I'm the cautious type, maybe a 4 on the careful side", "pretty cautious, I'd say a 5"])
def test_a_positive_number_said_as_careful_is_put_below_zero(text: str) -> None:
    found = read_risk(text)
    assert found is not None and float(found[0]) < 0 and found[1], found


def test_a_plain_positive_number_stays() -> None:
    assert read_risk("I'd say 4, we take a few chances") == ("4", "")


def test_the_variation_is_more_or_less_a_figure_is_the_spread() -> None:
    from core.inventory.nlu.demand import read_demand

    reading = read_demand("around 9 tubs a day, the variation is more or less 3")
    assert reading is not None and reading.value == "normal(9,3)", reading


def test_one_product_carried_is_no_amount_sold() -> None:
    (m, _) = parse("we stock one conditioner retail, the 250 ml tubes").of(Kind.QUANTITY)
    assert m.unit == "variety", m


def test_an_amount_in_a_measure_answers_how_demand_varies() -> None:
    _, turn = say("conditioner, the 250 ml tubes, we sell about 1 a day", "we use about 7 litres a week, it's random")
    assert _values(turn).get("demand_distribution") == "poisson(4)", turn.assistant


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("it's anywhere from 3 to 9 a day, any number in that range is as likely as another", "demand_distribution"),
        ("until the festival is over, around 40 days", "time_horizon"),
    ],
)
def test_a_clause_about_something_else_states_no_outage_fact(text: str, expected: str) -> None:
    assert read_message(text, expected, {}).transitions == ()


def test_an_outage_said_beside_demand_is_still_read() -> None:
    assert read_message("about 5 a day, and if we run out they go next door", "demand_distribution", {}).transitions == (
        "lost_sale",
    )


def test_an_amount_of_it_every_two_weeks_is_a_daily_rate() -> None:
    reading = read_message("we sell about 28 of them every two weeks", "demand_distribution", {})
    assert reading.demand is not None and reading.demand.mean_only == 2.0, reading.demand


def test_make_it_cost_me_is_what_it_costs() -> None:
    reading = read_message("i sell 20 dolar, make it cost me 8", "penalty_cost", {})
    assert not reading.findings and "$12" in reading.unclear[0].message, reading


def test_a_figure_said_old_is_replaced_by_the_one_now() -> None:
    found = _found("three week from the old depot... no sorry, they moved, 3 week is old. now 5 days", "lead_time")
    assert found == {"lead_time": "5"}, found


def test_a_loss_per_serving_beside_servings_a_container_is_put_to_the_owner() -> None:
    reading = read_message("Each smoothie I miss is about $2 profit, and one carton makes 6 smoothies.", "penalty_cost", {})
    (finding,) = [f for f in reading.findings if f.key == "penalty_cost"]
    assert finding.choices == ("2", "12"), finding


def test_servings_are_read_with_a_hedge() -> None:
    from core.inventory.nlu.extractors import _servings

    assert _servings("each carton makes about 8 drinks") == 8 and _servings("a carton is 8 drinks") is None


def test_a_careful_answer_in_sentences_with_one_number_is_read_whole() -> None:
    reading = read_message("I can't stand empty shelves, I'm the careful type. Maybe a 5 on the careful side", "risk_tolerance", {})
    assert [(f.value, bool(f.note)) for f in reading.findings if f.key == "risk_tolerance"] == [("-5", True)], reading
