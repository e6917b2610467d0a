"""Parameter table: parsing, validation naming the field, CSV round-trip."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.errors import SpecError
from solvers.inventory.spec import (
    PARAMETER_KEYS,
    Demand,
    InventoryProblem,
    params_csv_text,
    parse_demand,
    problem_from_table,
    read_params_csv,
    read_params_table,
    table_from_problem,
    validate_parameter,
)

PAPER_CSV = """parameter,value,unit,status
time_horizon,60,days,defined
demand_type,random,N/A,defined
demand_distribution,Poisson(λ = 10),N/A,defined
perishability,TRUE,N/A,defined
state_transition_model,lost sale,N/A,defined
holding_cost,5,USD/unit/day,defined
penalty_cost,15,USD/unit,defined
setup_cost,100,USD/order,defined
lead_time,5,days,defined
max_inventory,100,N/A,defined
max_order,20,N/A,defined
risk_tolerance,3,N/A,defined
"""


def base_table() -> dict[str, str]:
    return {
        "time_horizon": "30",
        "demand_type": "random",
        "demand_distribution": "poisson(8)",
        "perishability": "false",
        "state_transition_model": "lost_sale",
        "holding_cost": "0.5",
        "penalty_cost": "2.83",
        "setup_cost": "3",
        "lead_time": "1",
        "max_inventory": "40",
        "max_order": "20",
        "risk_tolerance": "0",
    }


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("poisson(8)", "poisson(8)"),
        ("Poisson(λ = 10)", "poisson(10)"),
        ("  NORMAL( 30 , 10 ) ", "normal(30,10)"),
        ("Normal(µ = 30, σ = 10)", "normal(30,10)"),
        ("uniform(10,20)", "uniform(10,20)"),
        ("8", "8"),
        ("8.0", "8"),
        ("normal(2.5,0.75)", "normal(2.5,0.75)"),
        ("empirical(3, 5, 8)", "empirical(3,5,8)"),
    ],
)
def test_parse_demand_canonical(text: str, canonical: str) -> None:
    d = parse_demand(text)
    assert d.canonical() == canonical
    assert parse_demand(d.canonical()) == d


@pytest.mark.parametrize(
    "text",
    [
        "gamma(2,3)",
        "poisson()",
        "poisson(-1)",
        "normal(30)",
        "uniform(20,10)",
        "lots",
        "",
        "normal(1e300,1)",  # would overflow int64 when sampled
        "poisson(2e9)",
        "empirical(3,5000000000)",
    ],
)
def test_parse_demand_rejects(text: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_demand(text)
    assert err.value.field == "demand_distribution"


def test_validate_parameter_canonical_forms() -> None:
    assert validate_parameter("perishability", "TRUE") == "true"
    assert validate_parameter("state_transition_model", "lost sale") == "lost_sale"
    assert validate_parameter("state_transition_model", "Backorder") == "backlog"
    assert validate_parameter("holding_cost", " 5 ") == "5"
    assert validate_parameter("holding_cost", "1,000") == "1000"
    assert validate_parameter("risk_tolerance", "\u22123") == "-3"
    assert validate_parameter("time_horizon", "60") == "60"
    assert validate_parameter("penalty_cost", 2.83) == "2.83"
    assert validate_parameter("demand_type", "Random") == "random"


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("holding_cost", "-1"),
        ("lead_time", "2.5"),
        ("risk_tolerance", "11"),
        ("time_horizon", "0"),
        ("perishability", "sometimes"),
        ("state_transition_model", "refund"),
        ("max_order", "many"),
        ("setup_cost", ""),
        ("lead_time", "2 weeks"),  # units live in the unit column: never read as 2 (days)
        ("time_horizon", "3 months"),
        ("setup_cost", "5abc"),
        ("holding_cost", "$5 USD/unit/day"),
        ("max_inventory", "100 units"),
        ("max_inventory", "1e19"),  # beyond int64
        ("time_horizon", "2000000000"),
    ],
)
def test_validate_parameter_names_field(key: str, value: str) -> None:
    with pytest.raises(SpecError) as err:
        validate_parameter(key, value)
    assert err.value.field == key
    assert key in str(err.value)


def test_problem_from_table_and_back() -> None:
    p = problem_from_table(base_table())
    assert p.demand == Demand("poisson", (8.0,))
    assert p.lost_sales and not p.perishable
    assert (p.holding_cost, p.penalty_cost, p.setup_cost) == (0.5, 2.83, 3.0)
    assert table_from_problem(p) == base_table()
    assert p.state_dim == 3 and p.action_dim == 21


def test_cross_field_checks() -> None:
    t = base_table() | {"max_order": "50"}  # above the storage: the storage binds every order
    assert problem_from_table(t).max_order == problem_from_table(t).max_inventory < 50
    with pytest.raises(SpecError) as err:  # built directly, the problem still refuses it
        replace(problem_from_table(base_table()), max_order=10_000)
    assert err.value.field == "max_order"
    t = base_table() | {"demand_type": "deterministic"}
    with pytest.raises(SpecError) as err:
        problem_from_table(t)
    assert err.value.field == "demand_distribution"
    t = base_table()
    del t["lead_time"]
    with pytest.raises(SpecError) as err:
        problem_from_table(t)
    assert err.value.field == "lead_time"


def test_problem_validation_in_post_init() -> None:
    p = problem_from_table(base_table())
    with pytest.raises(SpecError) as err:
        InventoryProblem(**{**p.__dict__, "lead_time": -1})
    assert err.value.field == "lead_time"
    with pytest.raises(SpecError) as err:
        InventoryProblem(**{**p.__dict__, "initial_inventory": 41})
    assert err.value.field == "initial_inventory"


def test_paper_csv_reads_and_round_trips(tmp_path) -> None:
    p = read_params_csv(PAPER_CSV)
    assert p.time_horizon == 60 and p.demand.canonical() == "poisson(10)"
    assert p.perishable and p.lost_sales and p.lead_time == 5 and p.risk_tolerance == 3
    text = params_csv_text(p)
    assert read_params_csv(text) == p
    assert params_csv_text(read_params_csv(text)) == text
    path = tmp_path / "extracted_params.csv"
    path.write_text(text)
    assert read_params_csv(path) == p and read_params_csv(str(path)) == p
    assert read_params_csv(text.encode()) == p
    assert [line.split(",")[0] for line in text.splitlines()[1:]] == list(PARAMETER_KEYS)


@pytest.mark.parametrize(
    ("demand", "kind", "perishable", "transition"),
    [
        ("poisson(8)", "random", "false", "lost_sale"),
        ('"normal(30,10)"', "random", "true", "backlog"),
        ('"uniform(10,20)"', "random", "false", "backlog"),
        ("12", "deterministic", "true", "lost_sale"),
        ('"empirical(3,0,7)"', "random", "false", "lost_sale"),
    ],
)
def test_canonical_csv_round_trips_byte_for_byte(demand, kind, perishable, transition) -> None:
    text = (
        "parameter,value,unit,status\n"
        "time_horizon,90,days,defined\n"
        f"demand_type,{kind},N/A,defined\n"
        f"demand_distribution,{demand},units/day,defined\n"
        f"perishability,{perishable},N/A,defined\n"
        f"state_transition_model,{transition},N/A,defined\n"
        "holding_cost,0.25,USD/unit/day,defined\n"
        "penalty_cost,2.83,USD/unit,defined\n"
        "setup_cost,3,USD/order,defined\n"
        "lead_time,2,days,defined\n"
        "max_inventory,120,units,defined\n"
        "max_order,60,units,defined\n"
        "risk_tolerance,-1.5,N/A,defined\n"
    )
    values, units = read_params_table(text)
    assert params_csv_text(problem_from_table(values), units) == text


def test_csv_errors_name_row_and_field() -> None:
    bad = PAPER_CSV.replace("lead_time,5,days,defined", "lead_time,-,days,undefined")
    with pytest.raises(SpecError) as err:
        read_params_csv(bad)
    assert err.value.field == "lead_time" and "row 10" in str(err.value)
    with pytest.raises(SpecError) as err:
        read_params_csv(PAPER_CSV.replace("uniform", "x").replace("Poisson(λ = 10)", "weibull(2)"))
    assert err.value.field == "demand_distribution"
    with pytest.raises(SpecError):
        read_params_csv("/nonexistent/extracted_params.csv")


def test_empirical_round_trip() -> None:
    t = base_table() | {"demand_distribution": "empirical(3,5,8,0,12)"}
    p = problem_from_table(t)
    assert p.demand.history == (3, 5, 8, 0, 12) and p.demand.mean == pytest.approx(5.6)
    assert read_params_csv(params_csv_text(p)) == p


@pytest.mark.parametrize(
    ("cell", "canonical"),
    [
        ("normal(30,10)", "normal(30,10)"),
        ("normal(30, 10)", "normal(30,10)"),
        ("uniform(10,20)", "uniform(10,20)"),
        ("empirical(3,5,8,0)", "empirical(3,5,8,0)"),
        ('"normal(30,10)"', "normal(30,10)"),
    ],
)
def test_unquoted_demand_with_commas_is_joined_back(cell: str, canonical: str) -> None:
    """The paper's own canonical `normal(30,10)` written unquoted splits over several CSV cells."""
    text = PAPER_CSV.replace("Poisson(λ = 10)", cell)
    values, units = read_params_table(text)
    assert values["demand_distribution"] == cell.strip('"')
    assert read_params_csv(text).demand.canonical() == canonical
    assert units["demand_distribution"] == "N/A" and values["perishability"] == "TRUE"
    two_columns = "parameter,value\n" + "\n".join(
        ",".join(line.split(",")[:2])
        if not line.startswith("demand_distribution")
        else f"demand_distribution,{cell}"
        for line in PAPER_CSV.splitlines()[1:]
    )
    assert read_params_csv(two_columns).demand.canonical() == canonical


def test_unknown_unquoted_distribution_is_a_spec_error() -> None:
    with pytest.raises(SpecError) as err:
        read_params_csv(PAPER_CSV.replace("Poisson(λ = 10)", "gamma(2,3)"))
    assert err.value.field == "demand_distribution"


def test_extra_cells_elsewhere_name_the_row() -> None:
    with pytest.raises(SpecError) as err:
        read_params_csv(PAPER_CSV.replace("setup_cost,100,", "setup_cost,1,000,"))
    assert err.value.field == "setup_cost" and "row 9" in str(err.value) and "quotes" in str(err.value)
    trailing = PAPER_CSV.replace("max_order,20,N/A,defined", "max_order,20,N/A,defined,,")
    assert read_params_csv(trailing).max_order == 20


def test_non_utf8_file_is_a_spec_error(tmp_path) -> None:
    data = PAPER_CSV.replace("Poisson(λ = 10)", "poisson(10)").replace("USD", "\u00a3").encode("latin-1")
    path = tmp_path / "extracted_params.csv"
    path.write_bytes(data)
    for source in (data, path, str(path)):
        with pytest.raises(SpecError) as err:
            read_params_csv(source)
        assert err.value.field == "params_csv" and "UTF-8" in str(err.value)


def test_the_problem_takes_keyword_arguments_only():
    with pytest.raises(TypeError, match="positional"):
        InventoryProblem(30, parse_demand("poisson(8)"), False, True, 0.5, 2.83, 3, 1, 40, 20)
    p = InventoryProblem(
        time_horizon=30,
        demand=parse_demand("poisson(8)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=1,
        max_inventory=40,
        max_order=20,
    )
    assert (p.lead_time, p.max_order, p.risk_tolerance, p.initial_inventory) == (1, 20, 0.0, 0)
