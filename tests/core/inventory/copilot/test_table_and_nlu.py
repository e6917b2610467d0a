"""The parameter table's guard rails, the NLU pieces, direct edits and the TERMINATE artifacts."""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.nlu.demand import read_demand
from core.inventory.table import ParameterTable
from core.text.numbers import words_to_digits
from core.text.units import find_durations, find_money
from solvers.inventory.spec import read_params_csv


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty-five units", "25 units"),
        ("two and a half dollars", "2.5 dollars"),
        ("a dozen a day", "12 a day"),
        ("between ten and twenty", "between 10 and 20"),
        ("a hundred and twenty", "120"),
        ("a one-time fee", "a one-time fee"),
    ],
)
def test_number_words(text: str, expected: str) -> None:
    assert words_to_digits(text) == expected


def test_durations_and_money_convert() -> None:
    assert [d.days for d in find_durations("3 months, 2 weeks, a quarter")] == [90, 14, 90]
    money = find_money("80 cents and $1,200.50")
    assert [m.amount for m in money] == [0.8, 1200.5] and "cents" in money[0].note


def test_weekly_normal_offers_two_conversions() -> None:
    reading = read_demand("weekly demand is normal with mean 12 and sd 3")
    assert [o[1] for o in reading.options] == ["normal(1.7143,1.1339)", "normal(1.7143,0.4286)"]


def test_table_never_holds_invalid_value() -> None:
    table = ParameterTable()
    table.set("max_inventory", "50")
    for key, value in [
        ("lead_time", "-1"),
        ("risk_tolerance", "50"),
        ("max_order", "-60"),
        ("demand_type", "maybe"),
    ]:
        with pytest.raises(SpecError) as err:
            table.set(key, value)
        assert err.value.field == key
        assert table.value(key) is None
    assert table.values() == {"max_inventory": "50"}
    table.set("max_order", "60")  # a cap above the storage is the owner's figure, kept (the storage binds)
    assert table.values() == {"max_inventory": "50", "max_order": "60"}


def test_user_edit_logged_and_closes_conflict() -> None:
    agent = ExtractionAgent()
    agent.respond("Horizon 30 days.")
    agent.respond("We plan for 90 days.")
    assert agent.table.conflicts
    turn = agent.user_edit("time_horizon", "60")
    assert turn.table["time_horizon"]["value"] == "60" and not agent.table.conflicts
    assert "User edit: time_horizon: 30 -> 60" in agent.conversation_log()
    with pytest.raises(SpecError):
        agent.user_edit("lead_time", "-5")
    assert agent.table.value("lead_time") is None


def test_user_edit_of_distribution_sets_demand_type() -> None:
    agent = ExtractionAgent()
    agent.user_edit("demand_distribution", "12")
    assert agent.table.value("demand_type") == "deterministic"


def test_artifacts_on_terminate_round_trip() -> None:
    agent = ExtractionAgent()
    agent.greeting()
    turn = agent.respond(
        "Demand is poisson(5) a day, lost sales, not perishable, horizon 30 days, holding $1 per unit per day, "
        "penalty $9 per unit, setup cost $2 per order, lead time 2 days, capacity 40 units, max order 20 units."
    )
    assert turn.action == "ASK NEXT QUESTION" and "risk" in turn.assistant
    turn = agent.respond("-2")
    assert turn.action == "TERMINATE"
    files = agent.artifacts()
    problem = read_params_csv(files["extracted_params.csv"])
    assert problem.max_order == 20 and problem.risk_tolerance == -2
    log = files["conversation_log.txt"]
    assert log.startswith("Assistant: Hi") and "User: -2" in log


def test_risk_is_asked_last() -> None:
    agent = ExtractionAgent()
    turn = agent.respond("My risk tolerance is 5.")
    assert turn.table["risk_tolerance"]["value"] == "5"
    assert "Last question" not in turn.assistant and turn.action == "ASK NEXT QUESTION"


def test_a_restated_row_next_to_a_new_one_is_a_conflict_about_the_restated_row() -> None:
    """Regression (found by the inventory lab's imitator): a message that changes a defined row and also fills
    an undefined one raised StopIteration when the undefined row came last."""
    from core.inventory.copilot.conflicts import changed
    from core.inventory.table import Cell

    table = ParameterTable()
    table.set("time_horizon", "30", "days")
    conflict = changed(table, (Cell("time_horizon", "60", "days"), Cell("lead_time", "2", "days")))
    assert conflict is not None and conflict.kind == "changed_value"
    assert "30" in conflict.question and "60" in conflict.question
