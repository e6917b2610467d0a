"""Demand distributions as the parameter table writes them: the `Demand` value and its text parser.

`parse_demand` reads `poisson(8)`, `Normal(μ=30, σ=10)`, `uniform(10,20)`, `empirical(3,5,8)` or a plain
number (deterministic) case-insensitively; `Demand.canonical()` writes the canonical table text back.
Sampling and probability mass functions live in `demand.py`. Every error is a
`SpecError("demand_distribution", ...)`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from core.errors import SpecError

DEMAND_KINDS: tuple[str, ...] = ("deterministic", "poisson", "normal", "uniform", "empirical")
_ARITY = {"deterministic": 1, "poisson": 1, "normal": 2, "uniform": 2}
MAX_UNITS = 1_000_000_000  # largest parameter or daily demand (keeps every integer sum inside int64)


def format_number(x: float) -> str:
    """Shortest exact text for a number: `8` for 8.0, `2.83` for 2.83 (repr round-trips floats)."""
    x = float(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


@dataclass(frozen=True)
class Demand:
    """Daily demand: a constant, poisson(λ), normal(μ,σ) (rounded, floored at 0), uniform(a,b) on the
    integers a..b, or empirical (resampled from a daily history)."""

    kind: str
    params: tuple[float, ...] = ()
    history: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        f = "demand_distribution"
        if self.kind not in DEMAND_KINDS:
            raise SpecError(f, f"unknown demand kind {self.kind!r}; use one of {', '.join(DEMAND_KINDS)}")
        params = tuple(float(p) for p in self.params)
        if any(not math.isfinite(p) for p in params):
            raise SpecError(f, "parameters must be finite numbers")
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "history", tuple(int(h) for h in self.history))
        if any(abs(x) > MAX_UNITS for x in (*params, *self.history)):
            raise SpecError(f, f"demand values above {MAX_UNITS:,} units per period are not supported")
        if self.kind == "empirical":
            if params or not self.history:
                raise SpecError(f, "an empirical demand needs a non-empty daily history and no parameters")
            if min(self.history) < 0:
                raise SpecError(f, "the demand history cannot contain negative values")
            return
        if self.history:
            raise SpecError(f, f"a {self.kind} demand takes no history")
        if len(params) != _ARITY[self.kind]:
            raise SpecError(
                f, f"{self.kind} demand takes {_ARITY[self.kind]} parameter(s), got {len(params)}"
            )
        if self.kind == "deterministic" and (params[0] < 0 or not params[0].is_integer()):
            raise SpecError(f, "a deterministic demand must be a whole number of units, at least 0")
        if self.kind == "poisson" and params[0] <= 0:
            raise SpecError(f, "the Poisson mean λ must be positive")
        if self.kind == "normal" and (params[0] < 0 or params[1] < 0):
            raise SpecError(f, "the normal mean μ and standard deviation σ cannot be negative")
        if self.kind == "uniform":
            a, b = params
            if not (a.is_integer() and b.is_integer()) or a < 0 or a > b:
                raise SpecError(f, "uniform(a,b) needs whole numbers with 0 <= a <= b")

    def canonical(self) -> str:
        """The canonical table text: `poisson(8)`, `normal(30,10)`, `uniform(10,20)`, `8`, `empirical(3,5,8)`."""
        if self.kind == "deterministic":
            return format_number(self.params[0])
        if self.kind == "empirical":
            return "empirical(" + ",".join(str(h) for h in self.history) + ")"
        return f"{self.kind}(" + ",".join(format_number(p) for p in self.params) + ")"

    @property
    def mean(self) -> float:
        """Expected daily demand (before normal rounding/flooring)."""
        if self.kind == "empirical":
            return sum(self.history) / len(self.history)
        if self.kind == "uniform":
            return (self.params[0] + self.params[1]) / 2
        return self.params[0]


NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_CALL = re.compile(r"^\s*([A-Za-z_]+)\s*\((.*)\)\s*$", re.S)
_ALIASES = {
    "poisson": "poisson",
    "pois": "poisson",
    "normal": "normal",
    "gaussian": "normal",
    "norm": "normal",
    "n": "normal",
    "uniform": "uniform",
    "unif": "uniform",
    "u": "uniform",
    "empirical": "empirical",
    "custom": "empirical",
    "deterministic": "deterministic",
    "constant": "deterministic",
    "const": "deterministic",
}


def parse_demand(text: str) -> Demand:
    """Parse a demand expression, case-insensitively: `Poisson(λ = 10)`, `normal(30, 10)`,
    `Normal(μ=30, σ=10)`, `uniform(10,20)`, `8`, `empirical(3,5,8)`."""
    f = "demand_distribution"
    if not isinstance(text, str) or not text.strip():
        raise SpecError(f, "is empty; write e.g. poisson(8), normal(30,10), uniform(10,20) or a number")
    raw = text.strip()
    if re.fullmatch(NUMBER, raw):
        return Demand("deterministic", (float(raw),))
    m = _CALL.match(raw)
    if not m or m.group(1).lower() not in _ALIASES:
        raise SpecError(
            f,
            f"cannot read {raw!r}; write poisson(8), normal(30,10), uniform(10,20), empirical(...) or a number",
        )
    kind = _ALIASES[m.group(1).lower()]
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
    values: list[float] = []
    for a in args:
        a = re.sub(r"^[^=]*=\s*", "", a)  # drop a "λ =" / "mu=" style name
        if not re.fullmatch(NUMBER, a):
            raise SpecError(f, f"{a!r} in {raw!r} is not a number")
        values.append(float(a))
    if kind == "empirical":
        if any(v < 0 or not v.is_integer() for v in values):
            raise SpecError(f, "an empirical history must list whole, non-negative daily demands")
        return Demand("empirical", (), tuple(int(v) for v in values))
    return Demand(kind, tuple(values))
