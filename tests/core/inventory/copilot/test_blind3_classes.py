"""Issue 27: classes the third blind batch (b3, measured once at 2dff7c8) found — dead ends on the agent's own
(A)/(B) questions, costs the row classifier gave to the wrong row, the pronoun 'one' read as 1, a purchase price
said with 'pay', and perishability set from an answer to another question. Our own phrasings, never b3's."""

from __future__ import annotations

import pytest

from core.inventory.copilot import conflicts as cf
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn
from core.inventory.table import Cell
from core.text.numbers import words_to_digits


def _agent(**rows: str) -> ExtractionAgent:
    agent = ExtractionAgent()
    agent.greeting()
    for key, value in rows.items():
        agent.table.set_many((Cell(key, value),))
    return agent


def _answer(agent: ExtractionAgent, asked: str | None, text: str) -> CopilotTurn:
    agent.state.asked = asked
    return agent.respond(text)


def _values(turn: CopilotTurn) -> dict[str, str]:
    return {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}


@pytest.mark.parametrize(
    ("options", "reply", "picked"),
    [
        (("30", "2"), "30 jars", "30"),
        (("30", "2"), "it's 30", "30"),
        (("12", "144"), "144 tins", "144"),
        (("25", "1"), "25 boxes", "25"),
    ],
)
def test_an_amount_answers_the_several_amounts_question(
    options: tuple[str, str], reply: str, picked: str
) -> None:
    """Was a dead end: the amount went to demand, the question stayed open and was asked 20+ times."""
    agent = _agent()
    agent.table.open(cf.several_amounts("max_order", options, "units"))
    turn = _answer(agent, None, reply)
    values = _values(turn)
    assert values.get("max_order") == picked
    assert "demand_distribution" not in values
    assert not agent.table.conflicts


def test_an_amount_for_another_named_row_leaves_the_question_open() -> None:
    agent = _agent()
    agent.table.open(cf.several_amounts("lead_time", ("2", "5"), "days"))
    turn = _answer(agent, None, "we can store 5 units at most")
    assert _values(turn).get("max_inventory") == "5"
    assert "lead_time" not in _values(turn)


@pytest.mark.parametrize("reply", ["yes", "yes please", "yeah"])
def test_yes_to_keep_or_change_is_asked_again_never_taken_as_change(reply: str) -> None:
    agent = _agent(holding_cost="0.02")
    agent.table.open(cf.changed_value((Cell("holding_cost", "0.02"),), (Cell("holding_cost", "0.9"),)))
    turn = _answer(agent, None, reply)
    assert _values(turn)["holding_cost"] == "0.02"
    assert agent.table.conflicts, turn.assistant
    turn = _answer(agent, None, "change it")
    assert _values(turn)["holding_cost"] == "0.9"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("it's 30 cents per tin for every day they wait", "0.3"),
        ("0.5 per box per day", "0.5"),
        ("about 20 cents a bottle for each day", "0.2"),
    ],
)
def test_backlog_penalty_per_unit_per_day_is_the_penalty(text: str, value: str) -> None:
    """Was read as the holding cost (or as a demand of 0.5 a day) while the backlog penalty was asked."""
    agent = _agent(state_transition_model="backlog", holding_cost="0.01")
    turn = _answer(agent, "penalty_cost", text)
    values = _values(turn)
    assert values.get("penalty_cost") == value, turn.assistant
    assert values["holding_cost"] == "0.01"
    assert "demand_distribution" not in values


@pytest.mark.parametrize(
    ("text", "value"),
    [("I make 60 cents on each loaf", "0.6"), ("we earn about 2 dollars on a bottle", "2")],
)
def test_a_margin_answering_the_lost_sale_penalty_is_the_penalty(text: str, value: str) -> None:
    agent = _agent(state_transition_model="lost_sale", holding_cost="0.01")
    turn = _answer(agent, "penalty_cost", text)
    assert _values(turn).get("penalty_cost") == value, turn.assistant
    assert _values(turn)["holding_cost"] == "0.01"


@pytest.mark.parametrize(
    ("text", "loss"),
    [
        ("I pay 1.50 and sell for 4, so each one I miss is 2.50 gone", "2.5"),
        ("I pay 3 dollars and sell them for 8, so every one we run short on is 5 lost", "5"),
        ("we pay 70 cents, sell for 2, so that's 1.30 gone per missed sale", "1.3"),
    ],
)
def test_pay_and_sell_with_the_loss_is_the_penalty(text: str, loss: str) -> None:
    """'pay' beside a sale price is the purchase price; 'each one' is no 1; the loss is the penalty."""
    turn = _answer(_agent(state_transition_model="lost_sale"), "penalty_cost", text)
    values = _values(turn)
    assert values.get("penalty_cost") == loss, turn.assistant
    assert "holding_cost" not in values


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("each one we miss", "each one"),
        ("every one of them sells", "every one"),
        ("no one buys them", "no one"),
        ("which one do you mean", "which one"),
    ],
)
def test_the_pronoun_one_is_no_number(text: str, kept: str) -> None:
    assert kept in words_to_digits(text)


def test_one_as_a_number_still_reads() -> None:
    assert words_to_digits("one day") == "1 day"
    assert words_to_digits("each one-litre bottle") == "each 1-litre bottle"


@pytest.mark.parametrize(
    "text",
    [
        "honestly next to nothing, maybe 2 cents a day",
        "barely anything, maybe 4 cents a day",
        "nothing much, 3 cents a day",
    ],
)
def test_an_answer_to_the_holding_question_sets_no_perishability(text: str) -> None:
    turn = _answer(_agent(), "holding_cost", text)
    values = _values(turn)
    assert "perishability" not in values
    assert "holding_cost" in values


@pytest.mark.parametrize(
    ("said", "reply", "picked"),
    [
        ("a crate is 30 jars and they only send one crate per order", "30 jars", "30"),
        ("a skid is 50 bags and they ship one skid per order", "50 bags", "50"),
    ],
)
def test_the_amount_answer_to_an_asked_max_order_ends_the_question(said: str, reply: str, picked: str) -> None:
    agent = _agent(max_inventory="200", demand_distribution="poisson(3)")
    turn = _answer(agent, "max_order", said)
    if "max_order" in _values(turn):  # the container's size read at once: one crate per order is 30 jars
        assert _values(turn)["max_order"] == picked
        return
    turn = _answer(agent, agent.state.asked, reply)
    assert _values(turn).get("max_order") == picked, turn.assistant
    assert _values(turn)["demand_distribution"] == "poisson(3)"
    assert not agent.table.conflicts


def test_an_order_above_storage_keeps_both_and_says_the_storage_binds() -> None:
    """Was a refusal repeated every turn ('the largest order cannot exceed the storage capacity'), then a
    question that rewrote one of the owner's two figures: both are kept, and the reply says which binds."""
    agent = _agent(max_inventory="50")
    turn = _answer(agent, "max_order", "they bring up to 80 at a time")
    assert (_values(turn)["max_inventory"], _values(turn)["max_order"]) == ("50", "80")
    assert not agent.table.conflicts and "at most 50 units" in turn.assistant, turn.assistant


def test_a_plain_no_spoiling_answer_closes_the_shelf_life_question() -> None:
    agent = _agent()
    agent.table.open(cf.shelf_life(400))
    turn = _answer(agent, None, "no, they never go off")
    assert _values(turn)["perishability"] == "false"
    assert not agent.table.conflicts, turn.assistant


@pytest.mark.parametrize(
    ("demand", "later", "row", "value"),
    [
        ("roughly 3 crates a day, a crate is 20 bottles", "the back room takes 12 crates", "max_inventory", "240"),
        ("about 6 trays of 30 a week", "the shed fits 40 trays", "max_inventory", "1200"),
        ("2 packs a day, each pack has 10 rolls", "I can order 8 packs at once at most", "max_order", "80"),
    ],
)
def test_a_container_sized_with_demand_is_multiplied_out_later(demand: str, later: str, row: str, value: str) -> None:
    """b3 class (silently wrong): demand said in containers with their size was multiplied out to items, yet the
    container was taken as the table's unit, so '15 boxes' later became 15 units. Now the size is applied."""
    agent = _agent()
    _answer(agent, "demand_distribution", demand)
    turn = _answer(agent, row, later)
    assert _values(turn).get(row) == value, turn.assistant


@pytest.mark.parametrize(
    "reply",
    ["roughly 14 tins a day on average", "it averages 14 a day", "about 14 a day, some days more, some less"],
)
def test_the_same_amount_said_to_vary_answers_how_demand_varies(reply: str) -> None:
    """b4 class (dead end): restating the amount asked about with 'on average' or 'it moves around' was no
    option, so 'how does it vary?' was asked until the end. Now it is (A), Poisson with that mean."""
    agent = _agent()
    agent.table.open(cf.demand_shape(14.0))
    turn = _answer(agent, None, reply)
    assert _values(turn).get("demand_distribution") == "poisson(14)", turn.assistant
    assert not agent.table.conflicts


@pytest.mark.parametrize("reply", ["14 a day", "about 14 a day, sd 3"])
def test_the_same_amount_without_variation_words_is_no_poisson(reply: str) -> None:
    agent = _agent()
    agent.table.open(cf.demand_shape(14.0))
    turn = _answer(agent, None, reply)
    assert _values(turn).get("demand_distribution") != "poisson(14)"


@pytest.mark.parametrize(
    "opening",
    [
        "Hi, summer is here and the sun cream goes fast.",
        "Morning, pet shop, and cat litter goes quickly.",
        "Hi there, kiosk, winter is here and the gloves go fast.",
    ],
)
def test_stock_that_goes_fast_is_no_spoiling(opening: str) -> None:
    """b3 class (silently wrong): an unasked 'compost goes fast' set perishability to true; it says the stock
    sells fast. A word of spoiling ('goes off fast') still counts."""
    agent = _agent()
    turn = _answer(agent, None, opening)
    assert "perishability" not in _values(turn), turn.assistant


def test_stock_that_goes_off_fast_still_spoils() -> None:
    agent = _agent()
    turn = _answer(agent, None, "the fish goes off fast, we bin what's left each night")
    assert _values(turn).get("perishability") == "true", turn.assistant


@pytest.mark.parametrize(
    ("reply", "days"),
    [("the jam is fine for two weeks", "14"), ("still sellable for 12 days", "12"), ("they'd be alright for 10 days", "10")],
)
def test_a_duration_answering_the_spoil_question_is_a_shelf_life(reply: str, days: str) -> None:
    """b3 class (silently wrong): a span of days said to 'do the items spoil?' became the planning horizon.
    It is how long the items keep: the shelf-life question is put, no horizon is written."""
    agent = _agent()
    turn = _answer(agent, "perishability", reply)
    assert "time_horizon" not in _values(turn), turn.assistant
    assert agent.table.conflicts and agent.table.conflicts[0].kind == "shelf_life", turn.assistant
    assert f"keep about {days} days" in turn.assistant


# --- A resumed conversation remembers the user's containers (reload, `?run=ID`) ---


@pytest.mark.parametrize(
    ("said", "later", "units"),
    [
        ("Our soap comes in cartons of 12.", "the stockroom has room for 15 cartons", "180"),
        ("The candles are packed in boxes of 8.", "we can keep 30 boxes out back", "240"),
        ("Jam arrives in trays of 6 jars.", "the shelves hold 20 trays", "120"),
    ],
)
def test_a_resumed_copilot_still_knows_the_container_sizes(store_path, said, later, units):
    from core.config import Settings
    from core.inventory.copilot.session import Copilot, CopilotConfig
    from core.store import Store

    store = Store(store_path)
    copilot = Copilot(Settings(), store, CopilotConfig(paths=300, seed=0))
    copilot.greeting()
    copilot.respond(said)
    assert copilot.extraction.state.sizes  # learned in the live session
    resumed = Copilot.resume(store, copilot.run_id, Settings())
    resumed.extraction.state.asked = "max_inventory"
    turn = resumed.respond(later)
    assert turn.table["max_inventory"]["value"] == units


# --- Silently wrong: a free-delivery threshold is no fee, no limit and no zero fee (blind b3, b4) ---


@pytest.mark.parametrize(
    ("text", "fee"),
    [
        ("shipping is free on orders above 200, otherwise it's 12", "12"),
        ("orders over 100 ship free, smaller ones cost 8 to send", "8"),
        ("they waive the fee past 80 crates but we usually pay 25", "25"),
        ("free delivery on anything over 40 tins", None),
    ],
)
def test_a_free_delivery_threshold_is_set_aside(text, fee):
    turn = _answer(_agent(), "setup_cost", text)
    values = _values(turn)
    assert values.get("setup_cost") == fee
    assert "max_order" not in values and "max_inventory" not in values
    if fee is None:
        assert "below it" in turn.assistant  # asked, never 0 and never the threshold


# --- Silently wrong: the purchase price is never the penalty; a sale said with any verb is found by its margin ---


@pytest.mark.parametrize(
    ("text", "penalty"),
    [
        ("a crate costs me 12 and fetches 30 at the market, so 18 down the drain", "18"),
        ("I buy them for 3, they bring in 9, that's 6 gone", "6"),
        ("each jar costs me 2.50, goes out at 6, so I'm short 3.50", "3.5"),
        ("it costs me 5 and earns me 12", None),
        ("a bag costs us 4 dollars", None),
        ("they cost me 7 wholesale", None),
    ],
)
def test_the_purchase_price_is_never_the_penalty(text, penalty):
    turn = _answer(_agent(state_transition_model="lost_sale"), "penalty_cost", text)
    values = _values(turn)
    assert values.get("penalty_cost") == penalty
    assert not {"max_inventory", "max_order", "lead_time", "time_horizon"} & set(values)


# --- Silently wrong: what the owner pays people per period is wages, never a holding cost per unit ---


@pytest.mark.parametrize(
    "text",
    ["my two assistants cost me 3000 a month", "the lads get 400 a week", "I pay my helper 90 a day"],
)
def test_pay_for_people_is_never_a_holding_cost(text):
    turn = _answer(_agent(), "holding_cost", text)
    assert "holding_cost" not in _values(turn)
    assert "whole business" in turn.assistant and "?." not in turn.assistant


def test_a_per_unit_monthly_holding_cost_is_still_read():
    turn = _answer(_agent(), "holding_cost", "keeping one bottle costs me 6 a month")
    assert _values(turn)["holding_cost"] == "0.2"


# --- Silently wrong: a span said about something else is no lead time unless it speaks of ordering ---


@pytest.mark.parametrize(
    "text",
    [
        "around 4 a day on average, takes a couple of hours to read one",
        "about 3 a day at random, the paint takes 2 days to dry",
        "about 8 a day at random, the glue takes a day to set",
        "about 2 a day, random, takes a week to learn the rules",
    ],
)
def test_a_span_about_the_item_is_no_lead_time(text):
    turn = _answer(_agent(), "demand_distribution", text)
    values = _values(turn)
    assert "lead_time" not in values and "time_horizon" not in values


def test_an_unasked_delivery_span_is_still_read():
    turn = _answer(_agent(), "demand_distribution", "about 6 a day, random; the supplier needs 3 days to deliver")
    assert _values(turn)["lead_time"] == "3"


# --- Dead end: a fee said as 'N an order' after naming it is money, never an order limit of N ---


@pytest.mark.parametrize(
    ("text", "fee"),
    [
        ("shipping, 12.50 an order", "12.5"),
        ("there's a handling fee... 6.40 an order", "6.4"),
        ("postage... 8.20 an order", "8.2"),
    ],
)
def test_a_fee_per_order_is_never_an_order_limit(text, fee):
    turn = _answer(_agent(), "setup_cost", text)
    values = _values(turn)
    assert values.get("setup_cost") == fee and "max_order" not in values


# --- Silently wrong: a span of hours is no storage or order limit ---


@pytest.mark.parametrize(
    "text",
    [
        "about 5 a day, random; a full charge takes 3 hours",
        "about 6 a day at random, the shop holds a class of 2 hours",
        "roughly 3 a day at random; we can fit a repair in 2 hours",
    ],
)
def test_a_span_of_hours_is_no_limit(text):
    values = _values(_answer(_agent(), "demand_distribution", text))
    assert "max_inventory" not in values and "max_order" not in values


# --- Silently wrong: 'money, no, a bare number' keeps the number (the correction inside one answer) ---


@pytest.mark.parametrize(
    ("text", "fee"),
    [
        ("the farm charges 15 delivery, no, 18 since June", "18"),
        ("the florist market charges 11 delivery, no, 13 since Easter", "13"),
        ("the mill charges 40 carriage, no, 45 since the autumn", "45"),
        ("the van charges 20 delivery, no, 22 now", "22"),  # 22 takes 20's place (read back), never the 20
    ],
)
def test_money_corrected_by_a_bare_number_keeps_the_number(text, fee):
    assert _values(_answer(_agent(), "setup_cost", text)).get("setup_cost") == fee


# --- Silently wrong: a purchase price, then the loss said with its own amount: the loss is the penalty ---


@pytest.mark.parametrize(
    ("text", "penalty"),
    [
        ("a pie costs me 2, though what I really lose is the whole meal deal, around 6 a pie", "6"),
        ("the tin costs me 4 but the loss is bigger, maybe 9 per tin once you count the paint job", "9"),
        ("it costs me 1.50 and I lose the sandwich sale too, roughly 5 each time", "5"),
    ],
)
def test_the_stated_loss_beats_the_purchase_price(text, penalty):
    turn = _answer(_agent(state_transition_model="lost_sale"), "penalty_cost", text)
    assert _values(turn).get("penalty_cost") == penalty


# --- Wrong question: an amount a week the row classifier weakly read as demand is demand, never a span ---


@pytest.mark.parametrize("asked", [None, "demand_type", "demand_distribution"])
def test_an_amount_a_week_weakly_read_as_demand_is_demand(asked):
    agent = _agent()
    turn = _answer(agent, asked, "about 42 a week")
    assert "6 per day" in turn.assistant and "lead time?" not in turn.assistant
    agent.respond("A")
    assert agent.table.value("demand_distribution") == "poisson(6)"


# --- Written wrong: rows, layers and stacks of N are containers (a count times its size) ---


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("the shelf takes 3 rows of 20", "60"),
        ("we keep 6 stacks of 10", "60"),
        ("the fridge fits 5 layers of 8", "40"),
    ],
)
def test_rows_layers_and_stacks_are_multiplied_out(text, units):
    turn = _answer(_agent(), "max_inventory", text)
    assert _values(turn)["max_inventory"] == units and "×" in turn.assistant
