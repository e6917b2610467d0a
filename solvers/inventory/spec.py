"""The Parameter Specification Table of seed 000 (Tables 1, 2 and 4) as a typed, validated problem.

`InventoryProblem` is what every solver in this package consumes. The 12-row table (CSV columns
`parameter,value,unit,status`, the paper's `extracted_params.csv`) maps to it with `problem_from_table`
and back with `table_from_problem`; `read_params_csv` / `params_csv_text` round-trip exactly. Values are
plain numbers (units live in the unit column); an unquoted `normal(30,10)` that spills over several CSV
cells is joined back. The demand value (`Demand`, `parse_demand`) lives in `distribution.py`.
Every error is a `SpecError` naming the offending field, worded for a store manager.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from core.errors import SpecError
from solvers.inventory.distribution import MAX_UNITS, NUMBER, Demand, format_number, parse_demand
from solvers.inventory.parameters import DEFAULT_UNITS, OPTIONAL_KEYS, PARAMETER_KEYS
from solvers.records import read_fields
from solvers.upload import csv_rows

COST_KEYS: tuple[str, ...] = ("holding_cost", "penalty_cost", "setup_cost")
# Largest cost per unit, per unit-day or per order: with at most MAX_UNITS units a period, horizon totals stay
# far inside float range (and exact enough), so no sum overflows to inf or NaN.
MAX_COST = 1_000_000_000


def _number(key: str, value: object, *, integer: bool = False) -> float:
    """A plain number from a cell such as `5`, `-2.5`, `1e3` or `1,000`. Units belong in the unit column,
    so `60 days`, `$5` or `5abc` are refused rather than read as 60, 5 or 5."""
    if isinstance(value, bool):
        raise SpecError(key, f"expected a number, got {value!r}")
    if isinstance(value, int | float):
        x = float(value)
    else:
        text = str(value).strip().replace("\u2212", "-")
        if not re.fullmatch(NUMBER + r"|[-+]?\d{1,3}(?:,\d{3})+", text):
            raise SpecError(
                key, f"expected a plain number (the unit goes in the unit column), got {str(value)!r}"
            )
        x = float(text.replace(",", ""))
    if not math.isfinite(x):
        raise SpecError(key, f"expected a finite number, got {value!r}")
    if integer and not x.is_integer():
        raise SpecError(key, f"must be a whole number, got {format_number(x)}")
    return x


_TRUE = {"true", "yes", "y", "1", "perishable", "t"}
_FALSE = {"false", "no", "n", "0", "non-perishable", "nonperishable", "not perishable", "f"}
_LOST = {"lost_sale", "lost sale", "lost sales", "lost-sale", "lost-sales", "lost_sales", "lostsale", "lost"}
_BACK = {
    "backlog",
    "backlogs",
    "backorder",
    "backorders",
    "back-order",
    "back order",
    "back_order",
    "backlogged",
}


def validate_parameter(key: str, value: object) -> str:
    """Canonical string for one table row, or `SpecError(key, ...)` a manager can act on."""
    if key not in PARAMETER_KEYS and key not in OPTIONAL_KEYS:
        raise SpecError(key, f"unknown parameter; expected one of {', '.join(PARAMETER_KEYS)}")
    if value is None or (isinstance(value, str) and value.strip() in ("", "-", "–")):
        raise SpecError(key, "is missing")
    text = str(value).strip().lower() if not isinstance(value, int | float) else ""
    if key == "demand_type":
        if text in ("random", "stochastic", "uncertain", "variable"):
            return "random"
        if text in ("deterministic", "constant", "fixed", "known"):
            return "deterministic"
        raise SpecError(key, f"must be 'random' or 'deterministic', got {value!r}")
    if key == "demand_distribution":
        return parse_demand(str(value)).canonical()
    if key == "perishability":
        if value is True or text in _TRUE:
            return "true"
        if value is False or text in _FALSE:
            return "false"
        raise SpecError(key, f"must be true (items expire at the end of each day) or false, got {value!r}")
    if key == "state_transition_model":
        if text in _LOST:
            return "lost_sale"
        if text in _BACK:
            return "backlog"
        raise SpecError(key, f"must be 'lost_sale' (unmet demand is lost) or 'backlog', got {value!r}")
    integer = key in ("time_horizon", "lead_time", "max_inventory", "max_order", "initial_inventory")
    x = _number(key, value, integer=integer)
    if integer and x > MAX_UNITS:
        raise SpecError(key, f"must be at most {MAX_UNITS:,}, got {format_number(x)}")
    if key in COST_KEYS and x > MAX_COST:
        raise SpecError(
            key,
            f"must be at most {MAX_COST:,} (larger costs overflow the horizon totals), got {format_number(x)}",
        )
    if key == "time_horizon" and x < 1:
        raise SpecError(key, "must be at least 1 day")
    if key in ("max_inventory", "max_order") and x < 1:
        raise SpecError(key, "must be at least 1 unit")
    if key == "risk_tolerance" and not -10 <= x <= 10:
        raise SpecError(key, f"must lie between -10 (very risk averse) and 10, got {format_number(x)}")
    if key != "risk_tolerance" and x < 0:
        raise SpecError(key, f"cannot be negative, got {format_number(x)}")
    return format_number(x)


class CapacityBasis(StrEnum):
    """What the storage capacity (`max_inventory`) is counted on when an order is placed.

    - `INVENTORY_POSITION` (the default): on-hand plus everything on order, `IP + q <= max_inventory`, so
      on-hand never exceeds the capacity.
    - `ON_HAND` (seed 000, Appendix A.1, whose rules truncate only by the per-order cap): the stock on the shelf
      when the order is placed — on-hand after this period's delivery x1 arrived (Appendix A's event order) —
      `I + x1 + q <= max_inventory`; orders still in transit (x2..xL) are not counted. With a lead time of 0
      or 1 both bases are the same rule; from L = 2 on, on-hand-only admits orders the position basis refuses,
      and deliveries can lift on-hand above the capacity (at most `max_on_hand`).
    """

    INVENTORY_POSITION = "inventory_position"
    ON_HAND = "on_hand"


@dataclass(frozen=True, kw_only=True)
class InventoryProblem:
    """A fully specified single-item periodic-review instance (seed 000, Appendix A).

    `capacity_basis` is a modelling convention, not a row of the parameter table: the table round-trips
    with the default basis."""

    time_horizon: int
    demand: Demand
    perishable: bool
    lost_sales: bool
    holding_cost: float
    penalty_cost: float
    setup_cost: float
    lead_time: int
    max_inventory: int
    max_order: int
    risk_tolerance: float = 0.0
    initial_inventory: int = 0
    capacity_basis: CapacityBasis = CapacityBasis.INVENTORY_POSITION

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "capacity_basis", CapacityBasis(self.capacity_basis))
        except ValueError:
            raise SpecError(
                "capacity_basis",
                f"must be one of {', '.join(b.value for b in CapacityBasis)}, got {self.capacity_basis!r}",
            ) from None
        if not isinstance(self.demand, Demand):
            raise SpecError("demand_distribution", "must be a Demand (use parse_demand)")
        for key in ("perishable", "lost_sales"):
            if not isinstance(getattr(self, key), bool):
                raise SpecError(
                    "perishability" if key == "perishable" else "state_transition_model",
                    "must be true or false",
                )
        for key in ("time_horizon", "lead_time", "max_inventory", "max_order", "initial_inventory"):
            object.__setattr__(self, key, int(float(validate_parameter(key, getattr(self, key)))))
        for key in ("holding_cost", "penalty_cost", "setup_cost", "risk_tolerance"):
            object.__setattr__(self, key, float(validate_parameter(key, getattr(self, key))))
        if self.max_order > self.max_inventory:
            raise SpecError(
                "max_order",
                f"the per-order cap ({self.max_order}) cannot exceed the max inventory ({self.max_inventory})",
            )
        if self.initial_inventory > self.max_inventory:
            raise SpecError("initial_inventory", f"cannot exceed the max inventory ({self.max_inventory})")

    @property
    def max_on_hand(self) -> int:
        """The highest on-hand stock (and inventory position) any path can reach from a feasible start: the
        capacity, except on the on-hand basis with L >= 2, where up to L - 1 orders in transit (each at most
        `max_order`) are not counted when ordering."""
        if self.capacity_basis is CapacityBasis.ON_HAND and self.lead_time >= 2:
            return self.max_inventory + (self.lead_time - 1) * self.max_order
        return self.max_inventory

    @property
    def state_dim(self) -> int:
        """On-hand, time period and the L pipeline slots (the DQN input of §2.3)."""
        return 2 + self.lead_time

    @property
    def action_dim(self) -> int:
        """Orders 0..max_order."""
        return self.max_order + 1


def problem_from_table(values: Mapping[str, str]) -> InventoryProblem:
    """Build a problem from the 12 table values (plus optional `initial_inventory`), with cross-field checks.

    A largest order above the storage capacity (a supplier or oven that could deliver 80 where 60 fit) is
    taken at the capacity: under either `CapacityBasis` no order exceeds the free space, so the two problems
    have the same orders, costs and policies. The owner's own figure stays in the table."""
    unknown = [k for k in values if k not in PARAMETER_KEYS and k not in OPTIONAL_KEYS]
    if unknown:
        raise SpecError(unknown[0], f"unknown parameter; expected one of {', '.join(PARAMETER_KEYS)}")
    v = {k: validate_parameter(k, values.get(k)) for k in PARAMETER_KEYS}
    demand = parse_demand(v["demand_distribution"])
    if v["demand_type"] == "deterministic" and demand.kind != "deterministic":
        raise SpecError(
            "demand_distribution", f"demand type is deterministic, so give a number, not {demand.canonical()}"
        )
    if v["demand_type"] == "random" and demand.kind == "deterministic":
        raise SpecError(
            "demand_distribution",
            f"demand type is random, so give a distribution such as poisson({v['demand_distribution']})",
        )
    initial = values.get("initial_inventory")
    v["max_order"] = str(min(int(v["max_order"]), int(v["max_inventory"])))  # the storage binds (docstring)
    return read_fields(
        InventoryProblem,
        v,
        "parameter table",
        demand=demand,
        perishable=v["perishability"] == "true",
        lost_sales=v["state_transition_model"] == "lost_sale",
        initial_inventory=int(float(validate_parameter("initial_inventory", initial)))
        if initial not in (None, "")
        else 0,
    )


def table_from_problem(problem: InventoryProblem) -> dict[str, str]:
    """The 12 canonical table values (plus `initial_inventory` when it is not 0)."""
    table = {
        "time_horizon": str(problem.time_horizon),
        "demand_type": "deterministic" if problem.demand.kind == "deterministic" else "random",
        "demand_distribution": problem.demand.canonical(),
        "perishability": "true" if problem.perishable else "false",
        "state_transition_model": "lost_sale" if problem.lost_sales else "backlog",
        "holding_cost": format_number(problem.holding_cost),
        "penalty_cost": format_number(problem.penalty_cost),
        "setup_cost": format_number(problem.setup_cost),
        "lead_time": str(problem.lead_time),
        "max_inventory": str(problem.max_inventory),
        "max_order": str(problem.max_order),
        "risk_tolerance": format_number(problem.risk_tolerance),
    }
    if problem.initial_inventory:
        table["initial_inventory"] = str(problem.initial_inventory)
    return table


def _normalise_key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def _read_text(source: str | Path | bytes) -> str:
    """The CSV text of a path, bytes or text; `SpecError("params_csv")` when missing or not UTF-8."""
    try:
        if isinstance(source, bytes):
            return source.decode("utf-8-sig")
        if isinstance(source, Path) or ("\n" not in source and "," not in source):
            path = Path(source)
            if not path.is_file():
                raise SpecError("params_csv", f"file not found: {path}")
            return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError("params_csv", "the file is not UTF-8 text; save it as a UTF-8 CSV") from None
    return source.lstrip("\ufeff")


def _cells(header: list[str], cells: list[str], row_no: int) -> dict[str, str]:
    """One row as `{column: cell}`. An unquoted `normal(30,10)` splits the value over several cells: they
    are joined back up to the closing parenthesis; any other row with more cells than the header is an error."""
    vi = header.index("value")
    if vi < len(cells) and "(" in cells[vi]:
        end = vi
        while ")" not in cells[end] and end + 1 < len(cells):
            end += 1
        cells = [*cells[:vi], ",".join(cells[vi : end + 1]), *cells[end + 1 :]]
    while len(cells) > len(header) and not cells[-1].strip():
        cells = cells[:-1]  # trailing empty cells, as spreadsheets write them
    if len(cells) > len(header):
        raise SpecError(
            _normalise_key(cells[header.index("parameter")]) or "params_csv",
            f"row {row_no} ({','.join(cells)}) has {len(cells)} cells but the header has {len(header)}; "
            "put a value that contains commas in double quotes",
        )
    return {col: (cells[i].strip() if i < len(cells) else "") for i, col in enumerate(header)}


def read_params_table(source: str | Path | bytes) -> tuple[dict[str, str], dict[str, str]]:
    """Raw `(values, units)` from an `extracted_params.csv` (a path, bytes or CSV text); rows must be defined."""
    rows = [
        (n, r)
        for n, r in csv_rows(_read_text(source), field="params_csv", name="the parameter table")
        if "".join(r).strip()
    ]
    header = [_normalise_key(c) for c in rows[0][1]] if rows else []
    if "parameter" not in header or "value" not in header:
        raise SpecError("params_csv", "needs the columns parameter,value,unit,status")
    values: dict[str, str] = {}
    units: dict[str, str] = {}
    for row_no, cells in rows[1:]:
        row = _cells(header, cells, row_no)
        key = _normalise_key(row["parameter"])
        if not key:
            continue
        if key in values:
            raise SpecError(key, f"appears twice (row {row_no})")
        if row.get("status", "defined").lower() not in ("defined", ""):
            raise SpecError(
                key, f"is still {row['status']!r} (row {row_no}); every parameter must be defined"
            )
        values[key] = row["value"]
        units[key] = row.get("unit", "") or DEFAULT_UNITS.get(key, "N/A")
    missing = [k for k in PARAMETER_KEYS if k not in values]
    if missing:
        raise SpecError(missing[0], "is missing from the parameter table")
    return values, units


def read_params_csv(source: str | Path | bytes) -> InventoryProblem:
    """Read the paper's `extracted_params.csv` (columns parameter,value,unit,status) into a problem."""
    values, _ = read_params_table(source)
    return problem_from_table(values)


def params_csv_text(problem: InventoryProblem, units: Mapping[str, str] | None = None) -> str:
    """The `extracted_params.csv` text for a problem; `read_params_csv` of it gives the problem back."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["parameter", "value", "unit", "status"])
    for key, value in table_from_problem(problem).items():
        unit = (units or {}).get(key) or DEFAULT_UNITS[key]
        writer.writerow([key, value, unit, "defined"])
    return out.getvalue()
