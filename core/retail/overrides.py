"""`retail run --set KEY=VALUE`: preset overrides read by type and range before any simulation starts.

Each overridable field of `solvers.retail.config.RetailConfig` has one `Rule` (its kind and finite, sane range;
see docs/limits.md). A value is read by its field's kind, never guessed: booleans are `true`/`false` only (not
numbers), numbers are plain decimals of at most `MAX_VALUE_CHARS` characters (checked before any `int()` or
`float()`, so NaN, infinities, 1e308 and 100,000-digit strings are refused, not parsed), text fields take one
of their choices, `categories` a JSON list, the news tables a JSON object. Every refusal is a `SpecError`
named `--set KEY`; an unknown key is refused with the valid ones.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from core.errors import SpecError
from solvers.retail.config import ALL_CATEGORIES, NEWS_MODES, RetailConfig, preset

MAX_VALUE_CHARS = 40  # one number or word (a list or table value may be longer: MAX_SET_CHARS)
MAX_SET_CHARS = 2_000  # one KEY=VALUE, e.g. a JSON list of all 20 categories
_INT_RE = re.compile(r"[-+]?[0-9]{1,15}")
_FLOAT_RE = re.compile(r"[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")
_NULLS = ("null", "none")


class Kind(Enum):
    """How a `--set` value is read."""

    INT = "a whole number"
    FLOAT = "a number"
    BOOL = "true or false"
    CHOICE = "one of the choices"
    CATEGORIES = "a JSON list of category names"
    NEWS_TABLE = "a JSON object of news modes to numbers"


@dataclass(frozen=True)
class Rule:
    """One overridable field: its kind, its range `[low, high]` (numbers) or choices, and whether null is
    allowed (the field's "no limit" value)."""

    kind: Kind
    low: float = 0.0
    high: float = 0.0
    choices: tuple[str, ...] = ()
    nullable: bool = False

    def describe(self) -> str:
        if self.kind in (Kind.INT, Kind.FLOAT, Kind.NEWS_TABLE):
            text = f"{self.kind.value} from {_amount(self.low)} to {_amount(self.high)}"
        elif self.kind is Kind.CHOICE:
            text = " or ".join(self.choices)
        else:
            text = self.kind.value
        return f"{text}, or null" if self.nullable else text


def _amount(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


MAX_DAYS = 1_500  # equals the --days limit
RULES: dict[str, Rule] = {
    "categories": Rule(Kind.CATEGORIES),
    "initial_funds": Rule(Kind.FLOAT, 0, 1e9),
    "everyday_rent": Rule(Kind.FLOAT, 0, 1e7),
    "inventory_capacity": Rule(Kind.INT, 1, 10_000_000),
    "enable_review": Rule(Kind.BOOL),
    "review_ratio": Rule(Kind.FLOAT, 0, 1),
    "enable_news": Rule(Kind.BOOL),
    "news_impact_base_scale": Rule(Kind.FLOAT, 0, 10),
    "news_impact_abs_cap": Rule(Kind.FLOAT, 0, 10, nullable=True),
    "news_sample_ratios": Rule(Kind.NEWS_TABLE, 0, 1),
    "news_daily_count": Rule(Kind.INT, 0, 1_000),
    "news_impact_mode_weights": Rule(Kind.NEWS_TABLE, 0, 10),
    "category_effect": Rule(Kind.FLOAT, -1, 1),
    "aggregation": Rule(Kind.CHOICE, choices=("power", "legacy")),
    "rho": Rule(Kind.FLOAT, 0.1, 10),
    "enable_shelf_constraint": Rule(Kind.BOOL),
    "shelf_sku_capacity": Rule(Kind.INT, 0, 10_000, nullable=True),
    "max_order_units_per_order": Rule(Kind.INT, 1, 10_000_000, nullable=True),
    "bankruptcy_days": Rule(Kind.INT, 1, MAX_DAYS),
    "quality_first_mode": Rule(Kind.CHOICE, choices=("off", "gate")),
    "quality_first_review_window_days": Rule(Kind.INT, 1, MAX_DAYS),
    "quality_first_return_window_days": Rule(Kind.INT, 1, MAX_DAYS),
    "quality_first_review_weight": Rule(Kind.FLOAT, 0, 1),
    "quality_first_return_weight": Rule(Kind.FLOAT, 0, 1),
}
NOT_OVERRIDABLE = {"name": "the preset's name: choose another preset with --preset"}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number")


def _json(text: str, field: str, rule: Rule) -> Any:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError; so is a >4,300-digit integer
        raise SpecError(field, f"expected {rule.describe()}, got {_shown(text)}") from None


def _shown(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else f"{shown[:30]}… ({len(text):,} characters)"


def _in_range(value: float, field: str, rule: Rule, text: str) -> None:
    if not math.isfinite(value) or not rule.low <= value <= rule.high:
        raise SpecError(field, f"expected {rule.describe()}, got {_shown(text)}")


def _number(text: str, field: str, rule: Rule) -> int | float:
    """A plain decimal; its length is checked before it is converted (no NaN, no infinity, no huge strings)."""
    cleaned = text.strip()
    if cleaned.lower() in ("true", "false"):
        raise SpecError(field, f"expected {rule.describe()}, got the boolean {cleaned}")
    if len(cleaned) > MAX_VALUE_CHARS:
        raise SpecError(field, f"expected {rule.describe()}, got {len(cleaned):,} characters")
    if rule.kind is Kind.INT:
        if not _INT_RE.fullmatch(cleaned):
            raise SpecError(field, f"expected {rule.describe()}, got {_shown(text)}")
        value: int | float = int(cleaned)
    else:
        if not _FLOAT_RE.fullmatch(cleaned):
            raise SpecError(field, f"expected {rule.describe()}, got {_shown(text)}")
        value = float(cleaned)
    _in_range(value, field, rule, text)
    return value


def _categories(text: str, field: str, rule: Rule) -> tuple[str, ...]:
    value = _json(text, field, rule)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise SpecError(field, 'expected a non-empty JSON list of category names, e.g. ["Beer", "Cookies"]')
    unknown = [v for v in value if v not in ALL_CATEGORIES]
    if unknown:
        raise SpecError(field, f"unknown categories {unknown[:5]}; choose from {', '.join(ALL_CATEGORIES)}")
    if len(set(value)) != len(value):
        raise SpecError(field, "lists a category more than once")
    return tuple(value)


def _news_table(text: str, field: str, rule: Rule) -> dict[str, float]:
    value = _json(text, field, rule)
    if not isinstance(value, dict):
        raise SpecError(field, f'expected a JSON object such as {{"neutral": 0.9}} ({rule.describe()})')
    unknown = [k for k in value if k not in NEWS_MODES]
    if unknown:
        raise SpecError(field, f"unknown news modes {unknown[:5]}; use {', '.join(NEWS_MODES)}")
    out = {}
    for mode, number in value.items():
        numeric = isinstance(number, int | float) and not isinstance(number, bool)
        if not numeric or not math.isfinite(number) or not rule.low <= number <= rule.high:
            wanted = f"a number from {_amount(rule.low)} to {_amount(rule.high)}"
            raise SpecError(field, f"{mode}: expected {wanted}, got {_shown(json.dumps(number))}")
        out[mode] = float(number)
    return out


def parse_value(key: str, text: str) -> Any:
    """The value of `--set KEY=TEXT`, read by the field's kind and range; a `SpecError` named `--set KEY`."""
    field = f"--set {key}"
    rule = RULES[key]
    raw = text.strip()
    if rule.nullable and raw.lower() in _NULLS:
        return None
    if rule.kind is Kind.BOOL:
        if raw.lower() not in ("true", "false"):
            raise SpecError(field, f"expected true or false, got {_shown(text)}")
        return raw.lower() == "true"
    if rule.kind in (Kind.INT, Kind.FLOAT):
        return _number(raw, field, rule)
    if rule.kind is Kind.CHOICE:
        word = raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] == '"' else raw
        if word not in rule.choices:
            raise SpecError(field, f"expected {rule.describe()}, got {_shown(text)}")
        return word
    if rule.kind is Kind.CATEGORIES:
        return _categories(raw, field, rule)
    return _news_table(raw, field, rule)


def parse_overrides(pairs: Iterable[str]) -> dict[str, Any]:
    """`--set KEY=VALUE` pairs as typed overrides; unknown keys are refused naming the valid ones."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = str(pair).partition("=")
        key = key.strip()
        if not sep or not key:
            raise SpecError("--set", f"expected KEY=VALUE, got {_shown(str(pair))}")
        if key in NOT_OVERRIDABLE:
            raise SpecError(f"--set {key}", f"cannot be set: {NOT_OVERRIDABLE[key]}")
        if key not in RULES:
            raise SpecError(
                f"--set {key[:60]}", f"unknown setting; the settings are: {', '.join(sorted(RULES))}"
            )
        if key in out:
            raise SpecError(f"--set {key}", "is given twice")
        out[key] = parse_value(key, text)
    return out


def configured(preset_name: str, overrides: dict[str, Any]) -> RetailConfig:
    """The preset with `overrides` applied, as the run will use it: the configuration's own checks (e.g. the
    two quality-first weights not both 0) are refused naming `--set KEY` (or `--preset`)."""
    try:
        return preset(preset_name, **dict(overrides))
    except SpecError as err:
        message = str(err).removeprefix(f"{err.field}: ")
        if err.field == "preset":
            raise SpecError("--preset", message) from None
        if err.field in overrides:
            raise SpecError(f"--set {err.field}", message) from None
        raise
