"""The Parameter Specification Table (seed 000, Tables 1–2): the extraction agents' authoritative memory.

Every write goes through `solvers.inventory.spec.validate_parameter` plus the cross-field checks that
make sense on a partly filled table, so the table never holds an invalid value. Open conflicts (a value
the user contradicted, a choice the agent needs) live next to the rows until the user resolves them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.inventory.nlu.row_units import canonical_unit
from solvers.inventory.parameters import DEFAULT_UNITS, PARAMETER_KEYS
from solvers.inventory.spec import (
    InventoryProblem,
    params_csv_text,
    parse_demand,
    problem_from_table,
    read_params_table,
    validate_parameter,
)

LABELS: dict[str, str] = {key: key.replace("_", " ") for key in PARAMETER_KEYS}


@dataclass(frozen=True)
class Row:
    """One table row; `value` is canonical text, or None while the row is undefined."""

    value: str | None
    unit: str
    status: str = "undefined"

    def to_dict(self) -> dict[str, str | None]:
        return {"value": self.value, "unit": self.unit, "status": self.status}


@dataclass(frozen=True)
class Cell:
    """A proposed value for one row."""

    key: str
    value: str
    unit: str = ""


@dataclass(frozen=True)
class Option:
    """One way to resolve a conflict: the cells it writes, and words that select it besides its label."""

    label: str
    description: str
    cells: tuple[Cell, ...]
    aliases: tuple[str, ...] = ()


CLARIFICATION_KINDS = frozenset(
    {"demand_conversion", "demand_shape", "shelf_life", "risk_scale", "range", "which_cost", "which_row", "confirm_value",
     "container_size", "count_basis"}
)


@dataclass(frozen=True)
class Conflict:
    """An open question the user must answer before the table can be trusted."""

    kind: str
    keys: tuple[str, ...]
    question: str
    options: tuple[Option, ...] = ()
    data: tuple[tuple[str, str], ...] = ()

    @property
    def is_clarification(self) -> bool:
        """A question about how to read what the user said (a unit conversion, a range, how demand varies),
        as opposed to a contradiction between two statements."""
        return self.kind in CLARIFICATION_KINDS

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "keys": list(self.keys), "question": self.question}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Conflict:
        """The conflict from `dataclasses.asdict(conflict)` read back from JSON (options and data optional)."""
        options = tuple(
            Option(
                o["label"],
                o["description"],
                tuple(Cell(**c) for c in o["cells"]),
                tuple(o.get("aliases", ())),
            )
            for o in data.get("options") or ()
        )
        pairs = tuple((str(k), str(v)) for k, v in data.get("data") or ())
        return cls(str(data["kind"]), tuple(data["keys"]), str(data["question"]), options, pairs)


@dataclass
class ParameterTable:
    """The 12 rows plus the open conflicts; mutate only through `set`, `clear` and the conflict methods."""

    rows: dict[str, Row] = field(
        default_factory=lambda: {k: Row(None, DEFAULT_UNITS[k]) for k in PARAMETER_KEYS}
    )
    conflicts: list[Conflict] = field(default_factory=list)
    late_delivery: bool = False
    """The owner confirmed a delivery time not shorter than the horizon (nothing ordered arrives within the
    plan, which then runs on the stock at hand); otherwise such a pair is refused (`cross_check`)."""

    def value(self, key: str) -> str | None:
        return self.rows[key].value

    def is_defined(self, key: str) -> bool:
        return self.rows[key].status == "defined"

    def values(self) -> dict[str, str]:
        """The defined values, by key."""
        return {k: r.value for k, r in self.rows.items() if r.value is not None}

    def undefined(self) -> list[str]:
        return [k for k in PARAMETER_KEYS if not self.is_defined(k)]

    def is_complete(self) -> bool:
        """Every row defined and no conflict open."""
        return not self.undefined() and not self.conflicts

    def check(self, cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
        """The cells with canonical values and units, or `SpecError` if any would make the table invalid."""
        canonical = tuple(_canonical(c) for c in cells)
        merged = self.values() | {c.key: c.value for c in canonical}
        cross_check(merged, tuple(c.key for c in canonical), late_delivery=self.late_delivery)
        return canonical

    def set(self, key: str, value: object, unit: str = "") -> str:
        """Validate and write one row; returns the canonical value."""
        return self.set_many((Cell(key, str(value), unit),))[0].value

    def set_many(self, cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
        """Validate all cells together, then write them all (or none)."""
        canonical = self.check(cells)
        for c in canonical:
            self.rows[c.key] = Row(c.value, c.unit, "defined")
        return canonical

    def clear(self, key: str) -> None:
        self.rows[key] = Row(None, DEFAULT_UNITS[key])

    def open(self, conflict: Conflict) -> None:
        """Open a conflict, replacing an older one about the same rows."""
        self.conflicts = [c for c in self.conflicts if not set(c.keys) & set(conflict.keys)] + [conflict]

    def close(self, conflict: Conflict) -> None:
        self.conflicts = [c for c in self.conflicts if c is not conflict]

    def to_dict(self) -> dict[str, dict[str, str | None]]:
        """`{key: {"value", "unit", "status"}}` in table order (the CLI and page format)."""
        return {k: self.rows[k].to_dict() for k in PARAMETER_KEYS}

    def units(self) -> dict[str, str]:
        return {k: r.unit for k, r in self.rows.items()}

    def problem(self) -> InventoryProblem:
        """The validated problem; `SpecError` if a row is missing or the rows contradict each other."""
        return problem_from_table(self.values())

    def csv_text(self) -> str:
        """`extracted_params.csv` of the complete table."""
        return params_csv_text(self.problem(), self.units())

    def load(self, values: Mapping[str, object], units: Mapping[str, str] | None = None) -> None:
        """Replace the rows with validated values (e.g. a stored conversation being resumed)."""
        cells = tuple(
            Cell(k, str(v), (units or {}).get(k, "")) for k, v in values.items() if v not in (None, "")
        )
        for key in PARAMETER_KEYS:
            self.clear(key)
        self.set_many(cells)


def problem_from_csv(source: str | Path | bytes) -> InventoryProblem:
    """A problem from an `extracted_params.csv` (path, bytes or text) with its unit column honoured: weeks,
    months and quarters become days, cents become dollars, a weekly Poisson or fixed demand becomes daily;
    a unit that cannot be converted without a choice (weekly normal demand, Example 3) is a `SpecError`
    naming the row and the options."""
    values, units = read_params_table(source)
    table = ParameterTable()
    try:
        table.load({k: values[k] for k in PARAMETER_KEYS}, units)
    except SpecError as err:
        unit = units.get(err.field, "")
        detail = str(err).split(": ", 1)[-1]
        raise SpecError(err.field, f"{detail} (the CSV row {err.field}, unit {unit!r})") from None
    extra = {k: v for k, v in values.items() if k not in PARAMETER_KEYS}
    return problem_from_table(table.values() | extra)


def _canonical(cell: Cell) -> Cell:
    """One cell in canonical value and unit; risk tolerance must be a whole number on the -10..10 scale."""
    value, unit = canonical_unit(cell.key, cell.value, cell.unit, DEFAULT_UNITS[cell.key])
    value = validate_parameter(cell.key, value)
    if cell.key == "risk_tolerance" and not float(value).is_integer():
        raise SpecError(cell.key, f"must be a whole number from -10 to 10, got {value}")
    return Cell(cell.key, value, unit)


def _blame(changed: tuple[str, ...], first: str, second: str) -> str:
    """The row to blame for a clash between two rows: the one being written (the first if both are)."""
    return second if second in changed and first not in changed else first


def cross_check(
    values: Mapping[str, str], changed: tuple[str, ...] = (), *, late_delivery: bool = False
) -> None:
    """Checks between rows that already apply to a partly filled table (canonical values); the error names
    the row among `changed` (the rows being written) that causes the clash. A largest order above the storage
    capacity is no clash: an order never exceeds the free space, so the storage is then the binding limit
    (`solvers.inventory.spec.problem_from_table`). `late_delivery`: the owner confirmed a delivery time not
    shorter than the horizon, which is then no clash."""
    if (
        not late_delivery
        and "lead_time" in values
        and "time_horizon" in values
        and int(values["lead_time"]) >= int(values["time_horizon"])
    ):
        lead, horizon = values["lead_time"], values["time_horizon"]
        raise SpecError(
            _blame(changed, "lead_time", "time_horizon"),
            f"a lead time of {lead} days is not shorter than the planning horizon of {horizon} days, "
            "so no order could arrive before the plan ends",
        )
    kind = values.get("demand_type")
    dist = values.get("demand_distribution")
    if kind and dist:
        deterministic = parse_demand(dist).kind == "deterministic"
        if kind == "deterministic" and not deterministic:
            raise SpecError("demand_distribution", f"demand is fixed, so it must be a number, not {dist}")
        if kind == "random" and deterministic:
            raise SpecError(
                "demand_distribution", f"demand is random, so it needs a distribution, not the number {dist}"
            )
