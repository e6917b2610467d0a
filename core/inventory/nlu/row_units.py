"""Units of table cells: check the unit written next to a value (by either agent or a table edit) and
convert it to the row's canonical unit, so a weekly holding cost is never stored as a daily one."""

from __future__ import annotations

import re

from core.errors import SpecError
from core.inventory.nlu.demand import read_demand
from core.text.numbers import format_number
from core.text.units import DAYS_PER

_PERIOD = {
    "d": "day", "day": "day", "days": "day", "wk": "week", "week": "week", "weeks": "week",
    "fortnight": "fortnight", "fortnights": "fortnight", "mo": "month", "month": "month", "months": "month",
    "quarter": "quarter", "quarters": "quarter",
    "yr": "year", "year": "year", "years": "year",
}  # fmt: skip
_CURRENCY = {"$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "€": "EUR", "eur": "EUR",
             "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP"}  # fmt: skip
_CENTS = ("cent", "cents", "¢")
_COST_RE = re.compile(
    r"^\s*(?P<cur>[$€£¢]|cents?|[a-z]{3}|dollars?|euros?)?\s*(?:/|per)?\s*(?P<what>units?|items?|orders?|shipments?|"
    r"deliver(?:y|ies)|batch(?:es)?)?\s*(?:/|per)?\s*(?P<per>[a-z]+)?\s*$",
    re.I,
)
_COUNT_UNITS = ("", "n/a", "unit", "units", "item", "items", "piece", "pieces", "pcs")
_NO_UNITS = ("", "n/a", "na", "none", "-", "scale", "points")
_DEMAND_UNIT_RE = re.compile(
    r"^\s*(?:units?|items?|pieces?|pcs|customers?|sales?)?\s*(?:/|per|a)?\s*(?P<per>[a-z]+)?\s*$", re.I
)
_DAILY_WORDS = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
}


def canonical_unit(key: str, value: str, unit: str, default: str) -> tuple[str, str]:
    """(value, unit) in the row's canonical unit; `SpecError(key, ...)` for a unit that does not fit."""
    text = unit.strip()
    low = text.lower()
    if key in ("time_horizon", "lead_time"):
        period = _PERIOD.get(low)
        if not text:
            return value, default
        if period is None:
            raise SpecError(key, f"must be given in days, got the unit {unit!r}")
        return _scaled(key, value, DAYS_PER[period], multiply=True), "days"
    if key in ("max_inventory", "max_order"):
        if low not in _COUNT_UNITS:
            raise SpecError(key, f"must be a number of units, got the unit {unit!r}")
        return value, text or default
    if key in ("holding_cost", "penalty_cost", "setup_cost"):
        return _cost_unit(key, value, text, default)
    if key == "demand_distribution":
        return _demand_unit(value, text, default)
    if key == "risk_tolerance" and low not in _NO_UNITS:
        raise SpecError(key, f"is a point on the -10..10 scale without a unit, got {unit!r}")
    return value, text or default


def _cost_unit(key: str, value: str, unit: str, default: str) -> tuple[str, str]:
    if not unit:
        return value, default
    m = _COST_RE.match(unit)
    if m is None:
        raise SpecError(key, f"has an unknown unit {unit!r}; use e.g. {default}")
    marker = (m.group("cur") or "usd").lower()
    if marker in _CENTS:
        value = _scaled(key, value, 100, multiply=False)
    cur = "USD" if marker in _CENTS else _CURRENCY.get(marker, marker.upper())
    what = (m.group("what") or "").lower()
    per = m.group("per")
    period = _PERIOD.get(per.lower()) if per else None
    if per and period is None:
        raise SpecError(key, f"has an unknown time unit in {unit!r}; use e.g. {default}")
    if key == "setup_cost":
        if what.startswith(("unit", "item")) or period:
            raise SpecError(key, f"is a fixed cost per order, not {unit!r}")
        return value, f"{cur}/order"
    if what.startswith(("order", "shipment", "deliver", "batch")):
        raise SpecError(key, f"is a cost per unit, not per order ({unit!r})")
    if period is None and key == "penalty_cost":
        return value, f"{cur}/unit"
    return _scaled(key, value, DAYS_PER[period or "day"], multiply=False), f"{cur}/unit/day"


def _scaled(key: str, value: str, days: float, multiply: bool) -> str:
    if days == 1:
        return value
    try:
        x = float(value)
    except ValueError as err:
        raise SpecError(key, f"must be a number, got {value!r}") from err
    return format_number(x * days if multiply else x / days)


def _demand_unit(value: str, unit: str, default: str) -> tuple[str, str]:
    """Daily demand as is; demand per week/month/... converted when the conversion is exact (Poisson, a fixed
    number), else refused with the daily options of seed 000 Example 3 spelled out."""
    m = _DEMAND_UNIT_RE.match(unit)
    per = (m.group("per") or "day").lower() if m else None
    period = _DAILY_WORDS.get(per or "", _PERIOD.get(per or ""))
    if unit.lower() in _NO_UNITS or per in ("unit", "units", "item", "items"):
        return value, unit or default
    if period is None:
        raise SpecError("demand_distribution", f"has an unknown unit {unit!r}; give daily demand (units/day)")
    if period == "day":
        return value, "units/day"
    if re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value):
        return format_number(float(value) / DAYS_PER[period], 4), "units/day"
    reading = read_demand(f"{value} per {period}")
    if reading.value is not None:
        return reading.value, "units/day"
    options = " or ".join(f"({label}) {text}" for label, _, text in reading.options)
    raise SpecError(
        "demand_distribution",
        f"is given per {period} ({value} {unit}), but the table holds daily demand; "
        f"write the daily distribution instead: {options or 'the daily demand'}",
    )
