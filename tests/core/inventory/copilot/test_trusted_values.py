"""Issue 27 (items 2 and 3), the offline Inventory Copilot: a value the user did not mean is never written
(it is asked about), every written value is read back with its conversion, and no clarification is a dead end.
Built from the sentences quoted in the issue; the assertions check behaviour, not wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.inventory.copilot.extraction import ExtractionAgent, split_asked
from core.inventory.copilot.session import Copilot, CopilotConfig
from core.inventory.copilot.turn import CopilotTurn
from core.store import Store
from tests.core.inventory.copilot.test_copilot import TINY_DIALOGUE

UP_TO_RISK = (
    "Poisson, 5 a day",
    "customers leave",
    "no",
    "30 days",
    "$1",
    "$5",
    "$10",
    "2 days",
    "we can store 40",
    "at most 20 per order",
)


def _agent(asked: str | None = None, said: tuple[str, ...] = ()) -> ExtractionAgent:
    agent = ExtractionAgent()
    agent.greeting()
    for text in said:
        agent.respond(text)
    if asked is not None:
        agent.state.asked = asked
    return agent


def _values(turn: CopilotTurn) -> dict[str, str]:
    return {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}


def test_a_question_about_the_scale_is_answered_and_the_attitude_beside_it_is_asked() -> None:
    agent = _agent(said=UP_TO_RISK)
    assert agent.state.asked == "risk_tolerance"
    turn = agent.respond("what's a 5 on that scale? I don't like gambling")
    assert turn.table["risk_tolerance"]["value"] is None
    assert turn.action != "TERMINATE"  # no policy computed in the same turn
    assert "-10" in turn.assistant  # the scale explained
    assert [c.kind for c in agent.table.conflicts] == ["risk_scale"]  # the attitude put on the scale, asked
    assert agent.table.conflicts[0].options[0].cells[0].value.startswith("-")  # risk-averse


@pytest.mark.parametrize("asked", [None, "lead_time", "time_horizon"])
def test_how_long_stock_keeps_is_not_a_lead_time(asked: str | None) -> None:
    agent = _agent(asked)
    turn = agent.respond("they last about a week in the fridge")
    assert "lead_time" not in _values(turn) and "time_horizon" not in _values(turn)
    assert [c.kind for c in agent.table.conflicts] == ["shelf_life"]  # asked how to model the shelf life


@pytest.mark.parametrize("asked", [None, "lead_time", "demand_type", "demand_distribution"])
def test_an_amount_per_week_is_demand_never_a_lead_time_of_seven_days(asked: str | None) -> None:
    agent = _agent(asked)
    turn = agent.respond("about 119 a week in total")
    assert "lead_time" not in _values(turn) and "time_horizon" not in _values(turn)
    assert "17" in turn.assistant  # read back as 17 a day
    agent.respond("A")
    assert agent.table.value("demand_distribution") == "poisson(17)"


@pytest.mark.parametrize("asked", ["holding_cost", None])
@pytest.mark.parametrize(
    "text", ["holding? I pay 2000 a month rent … skip", "holding? I pay 2000 a month rent ... skip"]
)
def test_the_rent_of_the_whole_shop_is_never_a_holding_cost(asked: str | None, text: str) -> None:
    turn = _agent(asked).respond(text)
    assert "holding_cost" not in _values(turn)
    assert "66.67" not in turn.assistant


@pytest.mark.parametrize("asked", [None, "perishability", "max_inventory"])
def test_a_full_back_room_is_not_perishability(asked: str | None) -> None:
    turn = _agent(asked).respond("the back is full of crisps")
    assert "perishability" not in _values(turn)
    assert "max_inventory" not in _values(turn)


@pytest.mark.parametrize("asked", [None, "penalty_cost"])
def test_the_loss_per_missed_sale_is_the_penalty_not_the_purchase_price(asked: str | None) -> None:
    turn = _agent(asked).respond(
        "A tube costs me 4 dollars and I sell it for 11, so I lose about 7 per missed sale"
    )
    assert _values(turn).get("penalty_cost") in ("7", None)
    assert _values(turn).get("penalty_cost") == "7" or turn.action == "ASK CLARIFICATION"


@pytest.mark.parametrize(
    "opening", ["about 12 a week, give or take 3", "about 20 a day", "customers leave, and sometimes they wait"]
)
def test_a_stated_cost_is_read_while_an_option_question_is_pending(opening: str) -> None:
    agent = _agent()
    agent.respond(opening)
    assert agent.table.conflicts
    kind = agent.table.conflicts[0].kind
    turn = agent.respond("I lose 7 dollars per missed sale")
    assert turn.table["penalty_cost"]["value"] == "7"
    assert "7" in turn.assistant  # what was taken is said
    assert agent.table.conflicts and agent.table.conflicts[0].kind == kind  # the question stays open


@pytest.mark.parametrize("asked", ["holding_cost", None])
def test_cents_per_bag_per_day_is_the_holding_cost(asked: str | None) -> None:
    turn = _agent(asked).respond("50 cents per bag per day")
    assert _values(turn).get("holding_cost") == "0.5"
    assert "50 cents" in turn.assistant and "0.5" in turn.assistant  # read back with its conversion


def test_a_definition_question_is_answered_and_the_value_in_it_is_read() -> None:
    turn = _agent("holding_cost").respond(
        "what do you mean by holding cost? if you mean storage, about ten cents"
    )
    assert _values(turn).get("holding_cost") == "0.1"
    assert "one unit in stock for one day" in turn.assistant  # the meaning, in plain words


def test_split_asked_keeps_questions_apart_from_answers() -> None:
    assert split_asked("what's a 5 on that scale? I don't like gambling") == (
        "what's a 5 on that scale?",
        "I don't like gambling",
    )
    assert split_asked("about 20 a day") == ("", "about 20 a day")
    assert split_asked("is 3 ok?") == ("is 3 ok?", "")


@pytest.mark.parametrize(
    ("text", "asked", "key", "value"),
    [
        ("we can store 10 cases of 12 bottles", None, "max_inventory", "120"),
        ("10 cases of 12", "max_inventory", "max_inventory", "120"),
        ("six crates of 24 fit in the back room", None, "max_inventory", "144"),
        ("holding costs $2 per case of 12 per day", None, "holding_cost", "0.1667"),
    ],
)
def test_containers_are_multiplied_out_and_read_back(text: str, asked: str | None, key: str, value: str) -> None:
    turn = _agent(asked).respond(text)
    assert _values(turn).get(key) == value
    assert "×" in turn.assistant or "per unit" in turn.assistant  # the conversion is said


def test_a_dozen_per_case_in_demand_is_read_back_while_its_shape_is_asked() -> None:
    agent = _agent()
    turn = agent.respond("we sell about 3 cases of a dozen a day")
    assert "36" in turn.assistant and "×" in turn.assistant
    agent.respond("A")
    assert agent.table.value("demand_distribution") == "poisson(36)"


@pytest.mark.parametrize(
    ("reply", "penalty", "still_asked"),
    [
        ("it's 3 dollars a day", "3", False),  # a per-day amount answers the backlog question
        ("I lose 7 dollars per missed sale", "7", True),  # a new amount is taken, the question stays open
        ("7 dollars", "7", True),
    ],
)
def test_a_stated_penalty_answers_the_backlog_option_question(reply: str, penalty: str, still_asked: bool) -> None:
    agent = _agent("penalty_cost")
    agent.respond("customers wait for the next delivery")
    agent.state.asked = "penalty_cost"
    agent.respond("$3 per unit")
    assert [c.kind for c in agent.table.conflicts] == ["backlog_unit_penalty"]
    turn = agent.respond(reply)
    assert turn.table["penalty_cost"]["value"] == penalty
    assert penalty in turn.assistant  # what was taken is said
    assert bool(agent.table.conflicts) is still_asked


@pytest.mark.parametrize("asked", ["demand_type", "max_inventory", None])
def test_an_amount_naming_no_cost_is_asked_which_cost(asked: str | None) -> None:
    agent = _agent(asked)
    turn = agent.respond("it's 7 dollars")
    assert not {"holding_cost", "penalty_cost", "setup_cost"} & set(_values(turn))
    assert turn.action == "ASK CLARIFICATION"
    agent.respond("the order fee")
    assert agent.table.value("setup_cost") == "7"


def test_costs_per_litre_are_accepted_once_demand_was_accepted_in_litres() -> None:
    agent = _agent()
    first = agent.respond("we sell about 40 litres a day")
    assert "demand_distribution" not in _values(first)  # a measure of unknown size is asked once (session 37)
    agent.respond("40 litres a day, we count litres")
    agent.respond("A")
    turn = agent.respond("holding costs 10 cents per litre per day")
    assert _values(turn).get("holding_cost") == "0.1"
    turn = agent.respond("a lost sale costs $2 per litre")
    assert _values(turn).get("penalty_cost") == "2"


def test_costs_per_kilo_are_still_refused_when_demand_was_in_litres() -> None:
    agent = _agent()
    agent.respond("we sell about 40 litres a day")
    agent.respond("A")
    turn = agent.respond("holding costs 10 cents per kg per day")
    assert "holding_cost" not in _values(turn)


def _computed(store_path: Path) -> Copilot:
    copilot = Copilot(Settings(), Store(store_path), CopilotConfig(paths=300, seed=0))
    copilot.greeting()
    turns = [copilot.respond(line) for line in TINY_DIALOGUE]
    assert turns[-1].action == "TERMINATE"
    return copilot


def test_a_correction_after_the_policy_reopens_the_table_and_optimizes_again(store_path: Path) -> None:
    copilot = _computed(store_path)
    turn = copilot.respond("actually deliveries take 2 days")
    assert turn.table["lead_time"]["value"] == "2"
    assert turn.action == "TERMINATE" and turn.policy is not None  # computed again, for the corrected table


def test_a_storage_statement_after_the_policy_is_no_order_question(store_path: Path) -> None:
    copilot = _computed(store_path)
    turn = copilot.respond("we can store 10 units")
    assert turn.action == "ASK CLARIFICATION"  # the change is confirmed, then the policy is computed again
    assert "10" in turn.assistant and "order" not in turn.assistant.split("?")[0].lower()
    turn = copilot.respond("B")
    assert turn.table["max_inventory"]["value"] == "10" and turn.action == "TERMINATE"


def test_an_order_question_remembers_the_stock_given_a_turn_earlier(store_path: Path) -> None:
    copilot = _computed(store_path)
    copilot.respond("I have 4 in stock")
    turn = copilot.respond("how much should I order?")
    assert "4 on hand" in turn.assistant  # not asked for the stock again
    turn = copilot.respond("it is day 3 and nothing is on the way")
    assert "order" in turn.assistant and "units now" in turn.assistant
    assert "day 1" not in turn.assistant  # the day just given is used, not the earlier assumption


@pytest.mark.parametrize(
    ("text", "asked", "key"),
    [
        ("3 days?", "lead_time", "lead_time"),
        ("maybe 100?", "max_inventory", "max_inventory"),
        ("I think 3 days, not sure", "lead_time", "lead_time"),
        ("$10? I'm not sure", "setup_cost", "setup_cost"),
        ("no idea, maybe 50 cents?", "holding_cost", "holding_cost"),
    ],
)
def test_a_questioned_or_doubted_value_is_asked_never_written(text: str, asked: str, key: str) -> None:
    agent = _agent(asked)
    turn = agent.respond(text)
    assert key not in _values(turn) and turn.action == "ASK CLARIFICATION"
    turn = agent.respond("yes")
    assert key in _values(turn)  # confirmed: now written


def test_a_figure_given_after_a_doubted_one_replaces_it() -> None:
    agent = _agent("lead_time")
    agent.respond("3 days?")
    turn = agent.respond("4 days")
    assert _values(turn)["lead_time"] == "4"


@pytest.mark.parametrize(
    ("text", "asked", "key"),
    [("maybe 80", "max_inventory", "max_inventory"), ("shall we plan for 8 weeks?", None, "time_horizon")],
)
def test_an_estimate_or_a_request_is_not_doubt(text: str, asked: str | None, key: str) -> None:
    assert key in _values(_agent(asked).respond(text))


def test_a_filled_row_is_not_overwritten_by_an_answer_to_another_question() -> None:
    agent = _agent()
    agent.respond("deliveries take 3 days")
    agent.state.asked = "holding_cost"
    turn = agent.respond("about 50 cents a day, deliveries take a week")
    assert _values(turn)["holding_cost"] == "0.5"  # the answer to the question asked is taken
    assert _values(turn)["lead_time"] == "3"  # the filled row is kept ...
    assert turn.action == "ASK CLARIFICATION" and "7" in turn.assistant  # ... and the new figure is asked about
