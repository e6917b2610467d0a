"""The last look before a value counts (`core/inventory/copilot/vetting.py`, issue 27 item 2): values the parse
says are of another kind than their row are not written, and rows that contradict each other are put to the user
once. Blind batch 18 (b18-06, b18-17, b18-18) had these written silently."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.vetting import implausible
from core.inventory.table import Cell, ParameterTable
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def _agent(*messages: str) -> tuple[ExtractionAgent, str]:
    agent, turn = say(*messages)
    return agent, turn.assistant


@pytest.mark.parametrize(
    "opening",
    [
        "greengrocer. avocados. I sell them for 1.50, pay 60 cents.",
        "Bike shop, inner tubes. I buy them at 4 and they go for 9.",
        "We're a pet shop. A bag of kibble costs me 12 and retails at 20.",
    ],
)
def test_prices_in_an_opening_are_never_a_holding_cost(opening: str) -> None:
    agent, _ = _agent(opening)
    assert agent.table.value("holding_cost") is None


@pytest.mark.parametrize(
    "answer",
    [
        "warehouse lease is 6000 a quarter",
        "the rent on the unit is 2400 a month",
        "I pay my two staff 3000 a month between them",
    ],
)
def test_money_of_the_whole_business_is_asked_about_never_written(answer: str) -> None:
    agent, reply = _agent("Hardware shop, we sell deck screws by the box", "about 12 boxes a day, random",
                          "they wait", "no", "two months", answer)
    assert agent.table.value("holding_cost") is None
    assert agent.state.asked == "holding_cost"
    assert "whole business" in reply


def test_a_holding_cost_said_per_day_beside_a_cost_verb_is_written() -> None:
    agent, _ = _agent("Hi, I run a café", "7 bottles of milk a day, random", "no", "people leave", "30 days",
                      "per day, the fridge costs maybe 3 cents a bottle")
    assert agent.table.value("holding_cost") == "0.03"


@pytest.mark.parametrize(
    "answer",
    [
        "about 40 a day. they ripen in about 4 days so I order a bit early",
        "around 40 a day, they keep about 5 days in the cooler, I order twice a week",
    ],
)
def test_a_span_of_keeping_is_never_the_delivery_time_out_of_turn(answer: str) -> None:
    agent, _ = _agent("greengrocer, avocados", answer)
    assert agent.table.value("lead_time") is None


def test_a_delivery_span_out_of_turn_is_still_written() -> None:
    agent, _ = _agent("greengrocer, avocados", "about 40 a day, and deliveries take 2 days")
    assert agent.table.value("lead_time") == "2"


def _table(**values: str) -> ParameterTable:
    table = ParameterTable()
    table.set_many(tuple(Cell(k, v, table.rows[k].unit) for k, v in values.items()))
    return table


def test_implausible_rows() -> None:
    assert {d.key for d in implausible(_table(demand_distribution="poisson(12)", max_order="1"))} == {"max_order"}
    assert {d.key for d in implausible(_table(demand_distribution="normal(48,6)", max_inventory="10"))} == {
        "max_inventory"
    }
    assert {d.key for d in implausible(_table(holding_cost="0.6", penalty_cost="0.9"))} == {"holding_cost"}
    assert implausible(_table(demand_distribution="poisson(12)", max_order="120", max_inventory="240",
                              holding_cost="0.02", penalty_cost="0.9")) == []


def test_an_order_limit_below_a_days_demand_is_put_to_the_user_once() -> None:
    agent, reply = _agent("Corner shop, cola cans", "about 84 cans a week, steady-ish but random",
                          "the most I can order at once is 5")
    assert "less than one day's demand" in reply and agent.table.conflicts
    agent.respond("120 cans at most per order")
    assert agent.table.value("max_order") == "120"
    assert not any("less than one day" in c.question for c in agent.table.conflicts)


def test_a_yes_keeps_an_unusual_value_and_it_is_not_asked_again() -> None:
    agent, reply = _agent("Hi, bookshop, one bestseller", "about 10 a day, random", "they wait", "no", "90 days",
                          "20 cents a book per day", "30 cents a day for each book they wait for")
    assert "One check" in reply
    agent.respond("yes")
    assert agent.table.value("holding_cost") == "0.2"
    assert not agent.table.conflicts


@pytest.mark.parametrize(
    ("answer", "holding"),
    [
        ("per bottle, about 6 dollars a month", "0.2"),
        ("per unit, roughly 2 dollars a month", "0.0667"),
        ("per bag, 50 cents a week", "0.0714"),
    ],
)
def test_what_an_amount_is_per_said_first_belongs_to_the_amount(answer: str, holding: str) -> None:
    agent, _ = _agent("Small garage, engine oil bottles", "between 3 and 9 a day, any number equally likely",
                      "they wait", "no", "two months", answer)
    assert agent.table.value("holding_cost") == holding


@pytest.mark.parametrize(
    "answer", ["a week, sometimes 10 days, say 8", "usually 10 days, call it 9", "about 10 days, no wait, 12 days"]
)
def test_a_span_never_changes_a_filled_fee(answer: str) -> None:
    agent, _ = _agent("hardware shop, screws", "12 boxes a day, random", "they wait", "no", "90 days",
                      "10 cents a box a day", "50 cents a day per box they wait for", "10 dollars per order", answer)
    assert agent.table.value("setup_cost") == "10"


def test_a_named_fee_correction_still_changes_the_fee() -> None:
    agent, _ = _agent("hardware shop, screws", "12 boxes a day, random", "they wait", "no", "90 days",
                      "10 cents a box a day", "50 cents a day per box they wait for", "10 dollars per order",
                      "sorry, the fee per order is actually 12 dollars")
    assert agent.table.value("setup_cost") == "12"


@pytest.mark.parametrize("reply", ["next day", "overnight", "1 day"])
def test_a_plan_of_one_day_is_put_to_the_owner_and_a_new_figure_replaces_it(reply: str) -> None:
    """'next day' to the horizon question read as a one-day plan: asked once, never kept silently."""
    agent, turn = say("hello, I sell cans of lager", "about 60 a day, it varies", "no, they keep",
                      "they go elsewhere", reply)
    assert [c.kind for c in agent.table.conflicts] == ["confirm_value"], turn.assistant
    assert "1 day" in turn.assistant and "1 days" not in turn.assistant
    turn = agent.respond("2 weeks")
    assert _values(turn).get("time_horizon") == "14", turn.assistant
