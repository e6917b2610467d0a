"""The one parameter table: seed 000's 12 rows in table order, the asking order, units and readers."""

from __future__ import annotations

from solvers.inventory import parameters as pm
from solvers.inventory import spec


def test_the_twelve_rows_of_seed_000_in_table_order():
    assert pm.PARAMETER_KEYS == (
        "time_horizon",
        "demand_type",
        "demand_distribution",
        "perishability",
        "state_transition_model",
        "holding_cost",
        "penalty_cost",
        "setup_cost",
        "lead_time",
        "max_inventory",
        "max_order",
        "risk_tolerance",
    )
    assert pm.OPTIONAL_KEYS == ("initial_inventory",)
    assert spec.PARAMETER_KEYS is pm.PARAMETER_KEYS and spec.DEFAULT_UNITS is pm.DEFAULT_UNITS


def test_the_copilot_asks_about_demand_first_and_risk_last():
    demand_first = ("demand_type", "demand_distribution", "state_transition_model", "perishability")
    assert pm.QUESTION_ORDER[:4] == demand_first
    assert pm.QUESTION_ORDER[-1] == "risk_tolerance"
    assert sorted(pm.QUESTION_ORDER) == sorted(pm.PARAMETER_KEYS)
    assert list(pm.QUESTIONS) == list(pm.QUESTION_ORDER)
    assert all("?" in text for text in pm.QUESTIONS.values()), "every asked row has a question"
    assert pm.QUESTIONS["risk_tolerance"] == pm.RISK_QUESTION


def test_units_labels_and_the_number_rows():
    assert pm.DEFAULT_UNITS["holding_cost"] == "USD/unit/day"
    assert pm.DEFAULT_UNITS["initial_inventory"] == "units"
    assert set(pm.PARAMETER_LABELS) == set(pm.PARAMETER_KEYS) | set(pm.OPTIONAL_KEYS)
    assert pm.ROW_KEYS == (
        "time_horizon",
        "holding_cost",
        "penalty_cost",
        "setup_cost",
        "lead_time",
        "max_inventory",
        "max_order",
        "risk_tolerance",
    )
