"""Issue 27, session 41 (classes found by the read round-4 batches b68-b73; our own phrasings): counts of kinds,
models, staff or stores are no stock; 'the ... one' ending a clause is a pronoun; a fee said in an opening is the
fee, never a storage figure; 'N more packs' adds to what was said; a corrected fee lowered 'now' is no dropped fee;
a span of days beside 'tomorrow' or a shelf life; grids ('4 high by 5'); stock given away; 'some day 4, some day 10';
'a month and half'; 'penny a day'; a bare span said to a cost question is asked about."""

from __future__ import annotations

import pytest

from core.inventory.nlu.demand import read_demand
from core.inventory.nlu.extractors import read_message
from core.text.mentions import Kind, parse
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def _found(text: str, expected: str | None) -> dict[str, str]:
    return {str(f.key): f.value for f in read_message(text, expected, {}).findings}


@pytest.mark.parametrize(
    "text",
    [
        "Brake pads for one model only, the one for the Corolla. I need a plan.",
        "We carry two brands of this glue.",
        "Printer ink, three colours, I mean the black.",
        "Garden centre with 2 stores, compost bags.",
    ],
)
def test_counts_of_kinds_and_places_fill_no_row(text: str) -> None:
    found = _found(text, None)
    assert not {"max_inventory", "max_order", "time_horizon", "lead_time"} & set(found), found


def test_kinds_beside_an_amount_leave_the_amount_to_demand() -> None:
    reading = read_demand("we stock 4 sizes, about 6 a day of this one")
    assert reading is not None and reading.mean_only == 6, reading


@pytest.mark.parametrize(
    ("text", "ones"),
    [
        ("Wiper blades, the long curved one. Drivers wait for it.", 0),
        ("We keep the big blue one, it sells well.", 0),
        ("the trailer takes one.", 1),
    ],
)
def test_the_described_one_ending_a_clause_is_a_pronoun(text: str, ones: int) -> None:
    assert len([m for m in parse(text).of(Kind.QUANTITY) if m.value == 1]) == ones


def test_a_fee_in_an_opening_is_the_fee_and_no_storage() -> None:
    found = _found("Tyre shop. Valve caps, the usual chrome one. Carriage is 25 a shipment.", None)
    assert found.get("setup_cost") == "25" and "max_inventory" not in found, found


def test_storage_capacity_said_with_a_role_word_stays_a_count() -> None:
    assert _found("storage capacity 200, max order 90", None) == {"max_inventory": "200", "max_order": "90"}


def test_more_containers_add_to_the_first_amount() -> None:
    reading = read_message("the rack takes 5 trays of 8, and there's space for 3 more trays underneath", "max_inventory")
    assert [(f.key, f.value) for f in reading.findings] == [("max_inventory", "64")], reading


def test_a_fee_corrected_and_lowered_now_is_no_dropped_fee() -> None:
    found = _found("the mill charges 15 a delivery, no sorry, it's 11 now, they dropped it", "setup_cost")
    assert found == {"setup_cost": "11"}


def test_a_fee_dropped_without_a_new_amount_is_zero() -> None:
    assert _found("they used to charge 15 a delivery but they dropped that", "setup_cost") == {"setup_cost": "0"}


@pytest.mark.parametrize(
    "text",
    ["send the order tonight and it's here tomorow. the cheese keeps about 12 days", "it keeps good for about 9 days"],
)
def test_a_shelf_life_is_no_delivery_time(text: str) -> None:
    found = _found(text, "lead_time")
    assert found.get("lead_time") in (None, "1"), found
    assert found.get("lead_time") == ("1" if "tomorow" in text else None)


def test_a_business_amount_is_no_span_of_days() -> None:
    found = _found("the lease is 2400 for the whole place and I pay three barbers... say 3 cents a jar a day", "holding_cost")
    assert found == {"holding_cost": "0.03"}, found


def test_a_grid_is_layers_times_items() -> None:
    found = _found("boxes sit 3 high by 6 along the wall, that's all the space", "max_inventory")
    assert found == {"max_inventory": "18"}, found


def test_one_by_one_is_still_no_grid() -> None:
    assert not parse("we sell them one by one").of(Kind.QUANTITY)


def test_stock_given_away_is_not_the_storage() -> None:
    found = _found("the fridge holds 20 trays of 6, no wait, 18 trays, I gave two away", "max_inventory")
    assert found == {"max_inventory": "108"}, found


def test_a_clock_after_a_clock_is_no_span() -> None:
    found = _found("I pick them up at 6am and they're on the shelf by 8, same day", "lead_time")
    assert found == {"lead_time": "0"}, found


def test_some_day_singular_gives_the_ends_of_a_range() -> None:
    reading = read_demand("some day 3 jar, some day 9, anything in between")
    assert reading is not None and reading.value == "uniform(3,9)", reading


@pytest.mark.parametrize("text", ["two month and half", "2 months and half, 75 days"])
def test_and_half_without_its_article_adds_half(text: str) -> None:
    assert _found(text, "time_horizon") == {"time_horizon": "75"}


def test_a_standard_deviation_with_an_apostrophe_s_is_read() -> None:
    reading = read_demand("we sell about 20 jars a day, standard deviation's about 4 jars")
    assert reading is not None and reading.value == "normal(20,4)", reading


def test_over_a_period_with_an_appositive_is_the_rate_period() -> None:
    reading = read_message("it's random, but over a week, 7 days, we sell maybe 70 tins", "demand_distribution")
    assert not [f for f in reading.findings if f.key == "time_horizon"], reading
    turn = say("anchovy tins", "it's random, but over a week, 7 days, we sell maybe 70 tins")[1]
    assert _values(turn).get("demand_distribution") == "poisson(10)", turn.assistant


@pytest.mark.parametrize("text", ["penny a day", "nickel a day per tin"])
def test_a_coin_without_its_article_is_money(text: str) -> None:
    money = parse(text).of(Kind.MONEY)
    assert len(money) == 1 and money[0].value in (0.01, 0.05), money


def test_a_bare_span_to_a_cost_question_asks_which_span() -> None:
    agent, turn = say("mustard jars, 3 a day random", "lost", "no", "maybe 2 cents a jar per day? or 400 days")
    assert _values(turn).get("time_horizon") == "400", turn.assistant
    turn = agent.respond("40 days")
    assert "planning horizon (now 400 days)" in turn.assistant, turn.assistant
    assert "lead" in turn.assistant or "delivery" in turn.assistant, turn.assistant
    assert _values(turn).get("time_horizon") == "400"


# Rounds 5-6 (b74-b86, read after their first measurement at 681b195).


def test_stock_running_out_says_nothing_of_spoiling() -> None:
    turn = say("hello, I run a deli and the bread keeps running out, help")[1]
    assert "perishability" not in _values(turn), turn.assistant


@pytest.mark.parametrize("text", ["We're open 6 days a week.", "the shop is trading 7 days"])
def test_opening_days_are_no_span(text: str) -> None:
    assert not {"time_horizon", "lead_time"} & set(_found(text, None))


def test_a_fee_only_below_a_threshold_never_reached_is_zero() -> None:
    text = "they only charge a fee on orders under $150 and we always spend more, so none"
    assert _found(text, "setup_cost") == {"setup_cost": "0"}


def test_containers_called_flats() -> None:
    assert _found("the table holds 6 flats, 12 pots per flat", "max_inventory") == {"max_inventory": "72"}


def test_a_measure_and_a_quarter() -> None:
    amounts = parse("it swings by a kilo and a quarter").of(Kind.QUANTITY)
    assert [m.value for m in amounts] == [1.25], amounts


def test_nobody_buys_one_is_no_amount() -> None:
    reading = read_demand("maybe 35 a week? some days nobody buys one")
    assert reading is not None and reading.mean_only == 5, reading


def test_a_stated_deviation_beats_the_range() -> None:
    reading = read_demand("4 a day on average, mostly between 3 and 5, so a standard deviation of about 1")
    assert reading is not None and reading.value == "normal(4,1)", reading


def test_a_hypothetical_span_is_no_horizon() -> None:
    found = _found("mugs don't go off, though the glaze fades if it sits for a year", "perishability")
    assert "time_horizon" not in found, found


def test_pounds_before_a_charge_are_money() -> None:
    money = parse("20 pound delivery charge per order").of(Kind.MONEY)
    assert [m.value for m in money] == [20.0] and money[0].unit == "GBP", money


def test_raised_it_to_corrects_the_fee() -> None:
    text = "they charge 18 bucks per order, no wait, they raised it to 22 in March"
    assert _found(text, "setup_cost") == {"setup_cost": "22"}


def test_a_price_in_cents_after_sell_is_money() -> None:
    reading = read_message("we sell them 4.25 and they cost us 1.75", "penalty_cost", {})
    assert not reading.findings and "2.5" in reading.unclear[0].message, reading


def test_a_span_before_that_is_no_delivery_time() -> None:
    found = _found("order by 10 and it comes next morning; it's baked about 3 days before that", "lead_time")
    assert found == {"lead_time": "1"}, found


def test_a_list_price_is_asked_not_written_as_the_penalty() -> None:
    agent, turn = say("novels, 5 a day random", "lost", "no", "42 days", "1 cent a book a day")
    turn = agent.respond("the cover price is 20 and I pay half of that")
    assert "penalty_cost" not in _values(turn), turn.assistant


# Round 7 (b88-b93, measured first at 681b195 and at 828fc1b).


@pytest.mark.parametrize(
    "text",
    ["we get them at 14.60 from the wholesaler and sell at 25", "they're $6.50 and cost me $2.75", "they're 12 and cost us 5 to make"],
)
def test_a_price_and_a_cost_offer_the_margin(text: str) -> None:
    reading = read_message(text, "penalty_cost", {})
    assert not reading.findings and "margin" in reading.unclear[0].message, reading


def test_a_stated_value_answers_the_which_row_question() -> None:
    agent, turn = say("notebooks, 5 a day random", "lost", "no", "42 days", "a penny a day per notebook")
    turn = agent.respond("We get them at 3.40 from the supplier and sell at 6")
    turn = agent.respond("2.60 per missed sale")
    assert _values(turn).get("penalty_cost") == "2.6", turn.assistant
    turn = agent.respond("2.60 per missed sale")
    assert _values(turn).get("penalty_cost") == "2.6", turn.assistant


def test_cases_of_unknown_size_are_asked_even_when_demand_named_no_item() -> None:
    agent, turn = say("spark plugs, 6 a day random", "backorder", "no", "30 days", "1 cent a plug a day",
                      "50 cents a day", "12 per order", "2 days", "60 plugs")  # fmt: skip
    turn = agent.respond("3 cases")
    assert "max_order" not in _values(turn) and "case" in turn.assistant, turn.assistant
    turn = agent.respond("10 plugs in a case")
    assert _values(turn).get("max_order") == "30", turn.assistant


def test_one_batch_a_morning_is_no_order_limit() -> None:
    text = "the mixer does 5 dozen a batch, no wait, 7 dozen with the new bowl, and there's only time for one batch a day"
    assert _found(text, "max_order") == {"max_order": "84"}


def test_the_delivery_beats_the_same_day_baking() -> None:
    text = "I order by noon and the van comes next morning. the dough keeps for weeks but I bake it all same day"
    assert _found(text, "lead_time") == {"lead_time": "1"}


def test_a_cost_per_pack_of_known_size_is_divided_for_the_items_counted() -> None:
    turn = say("naan bread, we sell about 40 naans a day, random. they come in packs of 10", "lost", "no", "30 days",
               "20 cents a pack a day")[1]  # fmt: skip
    assert _values(turn).get("holding_cost") == "0.02", turn.assistant
    assert "÷ 10" in turn.assistant, turn.assistant


def test_a_cost_per_item_beside_packs_is_not_divided() -> None:
    turn = say("naan bread, we sell about 40 naans a day, random. they come in packs of 10", "lost", "no", "30 days",
               "2 cents a naan a day")[1]  # fmt: skip
    assert _values(turn).get("holding_cost") == "0.02", turn.assistant


def test_a_size_before_the_goods_named_is_one_items_size() -> None:
    turn = say("hi, I want to plan the 20 kg rice we stock", "we go through about 140 kilos a week, random")[1]
    assert _values(turn).get("demand_distribution") == "poisson(1)", turn.assistant


def test_a_measure_of_the_goods_is_no_size() -> None:
    sizes = [m for m in parse("the 10 kilos of rice we sell").of(Kind.QUANTITY) if m.role == "size"]
    assert not sizes


def test_a_case_sized_in_a_measure_holds_that_many_items() -> None:
    turn = say("hair developer, half litre bottles, we use 4 bottles a day exactly", "wait", "no", "30 days",
               "1 cent a bottle a day", "5 dollars a day", "10 per order", "3 days",
               "the cabinet fits 4 cases, 6 litres in a case")[1]  # fmt: skip
    assert _values(turn).get("max_inventory") == "48", turn.assistant


# Round 8 (b95-b100, measured first at 681b195 and a391517).


def test_actually_no_just_corrects_across_a_remark() -> None:
    text = "Next 45 days, through the spring fair... actually no, just 20, let's keep it short"
    assert _found(text, "time_horizon") == {"time_horizon": "20"}


def test_they_upped_it_corrects_the_count() -> None:
    assert _found("the mill sends max 5 sacks, no wait, they upped it, 6 sacks now", "max_order") == {"max_order": "6"}


def test_digits_and_a_half_dozen() -> None:
    turn = say("duck eggs", "we sell about 1 and a half dozen a day, more or less random")[1]
    assert _values(turn).get("demand_distribution") == "poisson(18)", turn.assistant


def test_some_days_none_is_the_low_end() -> None:
    reading = read_demand("it's all over the place, some days none, some days 6, anything in between")
    assert reading is not None and reading.value == "uniform(0,6)", reading


def test_the_second_end_keeps_the_measure_of_the_first() -> None:
    turn = say("kombucha, 1.5 litre bottles",
               "some days it's 6 litres, some days 12, anything in between is about as likely")[1]  # fmt: skip
    assert _values(turn).get("demand_distribution") == "uniform(4,8)", turn.assistant


def test_a_cost_per_box_said_with_its_size() -> None:
    turn = say("gel pens, we sell 10 every day", "lost", "no", "30 days",
               "a box of 10 pens costs me about 20 cents a day to keep")[1]  # fmt: skip
    assert _values(turn).get("holding_cost") == "0.02", turn.assistant


def test_places_are_no_stock() -> None:
    turn = say("printer paper", "the three offices nearby take 9 reams between them every day, exactly that")[1]
    assert _values(turn).get("demand_distribution") == "9", turn.assistant


# Read batches at the session's code (regressions found and mended).


def test_containers_and_half_dozen_are_summed() -> None:
    turn = say("bagels", "every day about 3 trays and half dozen, a tray is 12 bagels. varies, standard deviation maybe 5")[1]
    assert _values(turn).get("demand_distribution") == "normal(42,5)", turn.assistant


def test_a_bare_purchase_beside_a_read_sale_price_is_a_price() -> None:
    reading = read_message("buy .80, sell 2.40", "penalty_cost", {})
    assert not reading.findings and "1.6" in reading.unclear[0].message, reading


def test_prices_beside_a_fee_in_an_opening_never_crash() -> None:
    """A blind owner's first message (b104-08) raised TypeError at 681b195: a money mention with no role beside
    priced ones was sorted with them."""
    text = ("Hello, hardware store here. The big 20 kg bags of salt, we buy them at $9 and sell at $15 and there's a "
            "$30 delivery charge each time.")
    turn = say(text)[1]
    assert _values(turn).get("setup_cost") == "30", turn.assistant


# Round 9 (b102-b107, measured first at 681b195 and 66890c1).


def test_a_cost_for_month_is_per_month() -> None:
    found = _found("for one jar i think 90 cents for month", "holding_cost")
    assert found == {"holding_cost": "0.03"}, found


def test_basically_nothing_then_a_couple_of_cents() -> None:
    assert _found("honestly that's basically nothing, couple cents each maybe", "holding_cost") == {"holding_cost": "0.02"}


def test_an_unsure_answer_leaves_a_spoken_amount_free() -> None:
    said = parse("couple cents each maybe")
    assert [m.value for m in said.of(Kind.MONEY)] == [0.02] and said.of(Kind.ANSWER)[0].text == "maybe"


def test_a_whole_distribution_answers_how_demand_varies() -> None:
    turn = say("we sell one conditioner brand at the desk", "anywhere from 2 to 6 bottles a day, totally random")[1]
    assert _values(turn).get("demand_distribution") == "uniform(2,6)", turn.assistant


def test_one_brand_is_no_demand() -> None:
    turn = say("hi, we sell one shampoo brand at the front desk")[1]
    assert "demand_distribution" not in _values(turn) and "Thanks for telling me" in turn.assistant, turn.assistant


def test_some_days_a_customer_takes_four_is_demand() -> None:
    text = "Around 90 tins a month. It comes in randomly, some days nobody, some days a builder takes five."
    assert "lead_time" not in _found(text, "demand_distribution")


def test_a_container_size_taken_back_is_replaced() -> None:
    from core.text.mentions import container_sizes

    assert container_sizes(parse("room for one crate, which holds 30 jars, no wait, 36.")) == {"crate": 36.0}


# Round 10 (b109-b114, s49, measured first at 681b195 and 5336661).


def test_a_decimal_comma_in_a_price() -> None:
    reading = read_message("I buy for 2,40 and I sell for 4,90 euro", "penalty_cost", {})
    assert not reading.findings and "2.5" in reading.unclear[0].message, reading


def test_raised_it_then_its_now() -> None:
    text = "The wholesaler charges 30 bucks freight, no wait, they raised it in March, it's 35 now"
    assert _found(text, "setup_cost") == {"setup_cost": "35"}


@pytest.mark.parametrize(("text", "margin"), [("$20 cover and I pay 55% of that", "9"),
                                                ("list price is 40 and I get it at 75% of list", "10")])
def test_a_share_of_the_price_is_the_purchase_price(text: str, margin: str) -> None:
    reading = read_message(text, "penalty_cost", {})
    assert not reading.findings and f"${margin}" in reading.unclear[0].message, reading


def test_a_replacement_takes_the_finest_unit() -> None:
    assert _found("6 days usually, sometimes a week, but call it 6", "lead_time") == {"lead_time": "6"}


def test_well_then_if_im_honest() -> None:
    assert _found("the back fits 40 sacks, well 35 if I'm honest, the door's in the way", "max_inventory") == {
        "max_inventory": "35"
    }


def test_supposed_to_hold_but_really() -> None:
    assert _found("the shelf is supposed to hold 20 but we squeeze 26 on it", "max_inventory") == {"max_inventory": "26"}


def test_an_amount_in_a_measure_beside_the_items_size() -> None:
    turn = say("hand soap", "we sell about 60 litres a month of the refill bottles, they're 500ml each, pretty random")[1]
    assert _values(turn).get("demand_distribution") == "poisson(4)", turn.assistant
