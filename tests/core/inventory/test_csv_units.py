"""The unit column of an uploaded `extracted_params.csv` and of table cells: converted, or refused naming the row."""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.inventory.table import ParameterTable, problem_from_csv
from solvers.inventory.spec import params_csv_text

ROWS = {
    "time_horizon": ("30", "days"),
    "demand_type": ("random", "N/A"),
    "demand_distribution": ("poisson(3)", "units/day"),
    "perishability": ("false", "N/A"),
    "state_transition_model": ("lost_sale", "N/A"),
    "holding_cost": ("0.5", "USD/unit/day"),
    "penalty_cost": ("4", "USD/unit"),
    "setup_cost": ("3", "USD/order"),
    "lead_time": ("2", "days"),
    "max_inventory": ("40", "N/A"),
    "max_order": ("20", "N/A"),
    "risk_tolerance": ("0", "N/A"),
}


def _csv(**changes: tuple[str, str]) -> str:
    rows = ROWS | changes
    lines = [f'{k},"{v}",{u},defined' for k, (v, u) in rows.items()]
    return "\n".join(["parameter,value,unit,status", *lines]) + "\n"


@pytest.mark.parametrize(
    ("key", "cell", "field", "expected"),
    [
        ("lead_time", ("2", "weeks"), "lead_time", 14),
        ("time_horizon", ("3", "months"), "time_horizon", 90),
        ("time_horizon", ("1", "quarter"), "time_horizon", 90),
        ("holding_cost", ("50", "cents"), "holding_cost", 0.5),
        ("holding_cost", ("70", "cents/unit/week"), "holding_cost", 0.1),
        ("holding_cost", ("3.5", "USD/unit/week"), "holding_cost", 0.5),
        ("penalty_cost", ("250", "cents/unit"), "penalty_cost", 2.5),
        ("setup_cost", ("800", "¢/order"), "setup_cost", 8.0),
    ],
)
def test_csv_units_are_converted(key: str, cell: tuple[str, str], field: str, expected: float) -> None:
    problem = problem_from_csv(_csv(**{key: cell}))
    assert getattr(problem, field) == expected


def test_weekly_poisson_and_fixed_demand_become_daily() -> None:
    assert problem_from_csv(_csv(demand_distribution=("poisson(21)", "units/week"))).demand.canonical() == (
        "poisson(3)"
    )
    fixed = _csv(demand_type=("deterministic", "N/A"), demand_distribution=("70", "units per week"))
    assert problem_from_csv(fixed).demand.canonical() == "10"


def test_weekly_normal_demand_is_refused_with_the_two_daily_options() -> None:
    with pytest.raises(SpecError) as err:
        problem_from_csv(_csv(demand_distribution=("normal(70,7)", "units/week")))
    assert err.value.field == "demand_distribution"
    assert "normal(10,2.6458)" in str(err.value) and "normal(10,1)" in str(err.value)
    assert "units/week" in str(err.value)


@pytest.mark.parametrize(
    ("key", "cell"),
    [
        ("lead_time", ("2", "lightyears")),
        ("holding_cost", ("0.5", "USD/order")),
        ("max_inventory", ("40", "pallets")),
        ("demand_distribution", ("poisson(3)", "kg/hour")),
        ("risk_tolerance", ("2", "percent")),
    ],
)
def test_unknown_csv_units_are_refused_naming_the_row(key: str, cell: tuple[str, str]) -> None:
    with pytest.raises(SpecError) as err:
        problem_from_csv(_csv(**{key: cell}))
    assert err.value.field == key and cell[1] in str(err.value)


def test_the_copilot_csv_round_trips_through_the_unit_aware_reader() -> None:
    table = ParameterTable()
    table.load({k: v for k, (v, _) in ROWS.items()})
    assert problem_from_csv(table.csv_text()) == table.problem()
    assert problem_from_csv(params_csv_text(table.problem())) == table.problem()


def test_a_table_edit_with_a_weekly_unit_is_converted() -> None:
    table = ParameterTable()
    assert table.set("demand_distribution", "poisson(14)", "units/week") == "poisson(2)"
    assert table.set("holding_cost", "20", "cents/unit/day") == "0.2"
