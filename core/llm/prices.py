"""The LLM price table: USD per million input and output tokens per provider and model, from a user-editable
TOML file (`data/llm_prices.toml`, or `$ORCA_LLM_PRICES`), validated on load.

    [anthropic]
    "claude-sonnet-4-5" = { input = 3.0, output = 15.0 }

Providers are the LLM providers of `core.llm.registry`; a model name is 1-200 printable characters; a price is a
finite, non-negative number; no other fields. Every error is a `SpecError` naming the file, the line and the
field. A model not in the table has no price: `PriceTable.cost` returns None and reports print
"price unknown", never 0.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.llm.registry import PROVIDER_REGISTRY
from core.llm.types import Usage

PRICES_ENV = "ORCA_LLM_PRICES"
DEFAULT_PRICES_PATH = Path(__file__).resolve().parents[2] / "data" / "llm_prices.toml"
MAX_PRICES_CHARS = 200_000
MAX_MODEL_CHARS = 200
PRICE_FIELDS = ("input", "output")
UNKNOWN = "price unknown"
_LINE_ERROR = re.compile(r"\(at line (\d+), column (\d+)\)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Price:
    """USD per million tokens of one model."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, usage: Usage) -> float:
        """USD for `usage`."""
        return (usage.input_tokens * self.input_per_mtok + usage.output_tokens * self.output_per_mtok) / 1e6


@dataclass(frozen=True)
class PriceTable:
    """Prices by (provider, model); `source` names the file they came from."""

    prices: Mapping[tuple[str, str], Price] = field(default_factory=dict)
    source: str = ""

    def price(self, provider: str | None, model: str | None) -> Price | None:
        """The model's price, or None when the table does not list it."""
        return self.prices.get((str(provider), str(model)))

    def cost(self, provider: str | None, model: str | None, usage: Usage) -> float | None:
        """USD for `usage` of the model; 0 for the offline provider; None when the price is unknown."""
        if provider in (None, "offline"):
            return 0.0
        price = self.price(provider, model)
        return None if price is None else price.cost(usage)


def format_cost(cost: float | None) -> str:
    """A cost as reports show it: "$0.0123", or "price unknown" (never 0 for a missing price)."""
    if cost is None or not math.isfinite(cost):
        return UNKNOWN
    return f"${cost:.4f}"


def _line_of(text: str, *needles: str) -> int | None:
    """The 1-based line of the last needle, each found at or after the previous one's line; None if one is
    missing."""
    lines = text.splitlines()
    start = 0
    found: int | None = None
    for needle in needles:
        for i in range(start, len(lines)):
            if needle in lines[i]:
                found, start = i + 1, i
                break
        else:
            return None
    return found


def _where(source: str, text: str, provider: str, model: str | None = None) -> str:
    """`source line N` of the provider's table or the model's entry (quoted or bare), else `source`."""
    if model is None:
        line = _line_of(text, f"[{provider}") or _line_of(text, provider)
    else:
        line = _line_of(text, provider, f'"{model}"') or _line_of(text, provider, model) or _line_of(text, provider)
    return f"{source} line {line}" if line else source


def _number(value: Any, where: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SpecError(f"{where}: {name}", f"must be a number of USD per million tokens, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise SpecError(f"{where}: {name}", f"must be a finite number that is not negative, got {value!r}")
    return number


def parse_prices(text: str, source: str = "llm_prices.toml") -> PriceTable:
    """The validated price table in TOML `text` (see the module docstring)."""
    if len(text) > MAX_PRICES_CHARS:
        raise SpecError(source, f"a price table is at most {MAX_PRICES_CHARS:,} characters")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        match = _LINE_ERROR.search(str(err))
        where = f"{source} line {match.group(1)}" if match else source
        raise SpecError(where, f"not valid TOML: {str(err).split(' (at ')[0]}") from None
    llm_providers = sorted(name for name, entry in PROVIDER_REGISTRY.items() if entry.adapter is not None)
    prices: dict[tuple[str, str], Price] = {}
    for provider, models in data.items():
        where = _where(source, text, provider)
        if provider not in llm_providers:
            raise SpecError(f"{where}: {provider}", f"unknown provider; choose one of {', '.join(llm_providers)}")
        if not isinstance(models, dict):
            raise SpecError(f"{where}: {provider}", 'must be a table of models: [provider] "model" = {...}')
        for model, entry in models.items():
            where = _where(source, text, provider, model)
            name = f"{provider}.{model}"
            if not model.strip() or len(model) > MAX_MODEL_CHARS or _CONTROL.search(model):
                raise SpecError(
                    f"{where}: {name!r}", f"a model name is 1-{MAX_MODEL_CHARS} printable characters"
                )
            if not isinstance(entry, dict):
                raise SpecError(f"{where}: {name}", "must be a table { input = ..., output = ... }")
            unknown = sorted(set(entry) - set(PRICE_FIELDS))
            if unknown:
                raise SpecError(f"{where}: {name}.{unknown[0]}", "unknown field; a price has only input and output")
            missing = [f for f in PRICE_FIELDS if f not in entry]
            if missing:
                raise SpecError(f"{where}: {name}.{missing[0]}", "is required (USD per million tokens)")
            prices[(provider, model)] = Price(
                _number(entry["input"], where, f"{name}.input"), _number(entry["output"], where, f"{name}.output")
            )
    return PriceTable(prices, source)


def prices_path(env: Mapping[str, str] | None = None) -> Path:
    """`$ORCA_LLM_PRICES`, else `data/llm_prices.toml`."""
    value = (os.environ if env is None else env).get(PRICES_ENV, "").strip()
    return Path(value).expanduser() if value else DEFAULT_PRICES_PATH


def load_prices(path: str | Path | None = None) -> PriceTable:
    """The validated price table in `path` (default: `prices_path()`); a missing file is a `SpecError`."""
    file = Path(path) if path is not None else prices_path()
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SpecError(str(file), f"cannot read the price table: {getattr(err, 'strerror', None) or err}") from None
    return parse_prices(text, str(file))
