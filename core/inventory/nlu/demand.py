"""Demand descriptions: named distributions, mean ± spread, ranges, fixed amounts, and their time period.

`read_demand` returns what a sentence says about daily demand. Rates given per week or month are
converted to days; when the conversion changes the variance model (a weekly normal), both readings of
seed 000's Example 3 are returned as `options` for the user to choose from.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from core.text.negation import negation_scopes
from core.text.numbers import NUMBER_RE, Number, find_numbers, format_number
from core.text.units import DAYS_PER, rate_period

_NUM = NUMBER_RE.pattern
_CALL_RE = re.compile(
    rf"\b(poisson|normal|gaussian|uniform|n|u)\s*\(\s*(?:\w+\s*=\s*)?({_NUM})\s*(?:[,;]\s*(?:\w+\s*=\s*)?({_NUM}))?\s*\)",
    re.I,
)
_POISSON_RE = re.compile(r"\bpoisson\b", re.I)
_NORMAL_RE = re.compile(r"\bnormal(?:ly)?\b|\bgaussian\b|\bbell[- ]curve\b", re.I)
_UNIFORM_RE = re.compile(r"\buniform(?:ly)?\b|\bequally likely\b|\bevenly\b", re.I)
_MEAN_RE = re.compile(
    rf"(?:λ|lambda|mean|average|avg|rate|mu|μ|expected)\s*(?:of|is|=|:|about|around|roughly)?\s*(?:of|is|=|:|about|around|roughly)?\s*({_NUM})",
    re.I,
)
_SD_RE = re.compile(
    rf"(?:standard deviation|std\.?\s*dev\.?|std|s\.?d\.?|sigma|σ|deviation|spread)\s*(?:of|is|=|:|about|around|roughly)?\s*(?:of|is|=|:|about|around|roughly)?\s*({_NUM})",
    re.I,
)
_PM_RE = re.compile(
    rf"({_NUM})\s*(?:units?\s*)?(?:(?:a|per|/)\s*(?:day|week|month)\s*)?,?\s*(?:±|\+/-|\+-|plus or minus|give or take)\s*({_NUM})",
    re.I,
)
_PM_TAIL_RE = re.compile(rf"(?:±|\+/-|\+-|plus or minus|give or take)\s*({_NUM})", re.I)
"""A spread stated apart from the mean ('20 a day, could be more or less, give or take 5')."""
_PM_AROUND_RE = re.compile(
    rf"(?:±|\+/-|\+-|plus or minus|give or take)\s*({_NUM})\s*(?:units?\s*)?(?:around|about|of|from)\s*({_NUM})",
    re.I,
)
_RANGE_RE = re.compile(
    rf"(?:between|from)\s*({_NUM})\s*(?:units?\s*)?(?:and|to|-|–)\s*({_NUM})|({_NUM})\s*(?:to|-|–)\s*({_NUM})\s*(?:units|a day|per day|daily|a week|per week)",
    re.I,
)
_FIXED_RE = re.compile(
    r"\b(?:exactly|precisely|always|fixed|constant|steady|steadily|consistent(?:ly)?|deterministic|same every|same (?:number|amount|quantity)|every day the same|same each day|no variation|never changes|like clockwork|known in advance|every single day|without fail)\b",
    re.I,
)
_RANDOM_RE = re.compile(
    r"\b(?:random(?:ly)?|unpredictabl[ey]|varies|vary|varying|variable|fluctuat\w*|uncertain|stochastic|unknown|swings?|all over the place|all over the map|up and down|hard to predict|jumps? around|bounces? around|erratic\w*|irregular\w*|inconsistent\w*|uneven\w*)\b",
    re.I,
)
_WIDE_RE = re.compile(r"\b(?:a lot|wildly|hugely|enormously|massively|a great deal|like crazy)\b", re.I)
"""Demand said to swing more than usual: Poisson's spread would understate it, so the agent asks for it."""
_CHANGE_RE = re.compile(r"\bchang(?:e|es|ing)\b", re.I)

_OPEN_DAYS_RE = re.compile(r"\b\d+ days? (?:a|per|each) week\b", re.I)


@dataclass(frozen=True)
class DemandReading:
    """What a text says about demand. `value` is canonical daily demand; `options` (label, value, text)
    are alternative conversions the user must choose between; `mean_only` is a mean without a shape."""

    demand_type: str | None = None
    value: str | None = None
    note: str = ""
    options: tuple[tuple[str, str, str], ...] = ()
    mean_only: float | None = None
    period: str = "day"


def _r(x: float) -> str:
    return format_number(x, 4)


def _shape(text: str, *, fixed: bool) -> tuple[str, tuple[float, ...]] | None:
    """The distribution family and its parameters as written (before any period conversion)."""
    m = _CALL_RE.search(text)
    if m:
        family = {"gaussian": "normal", "n": "normal", "u": "uniform"}.get(
            m.group(1).lower(), m.group(1).lower()
        )
        params = tuple(float(g) for g in m.groups()[1:] if g is not None)
        return family, params
    m = _PM_AROUND_RE.search(text)
    pm = (float(m.group(2)), float(m.group(1))) if m else None
    if pm is None and (m := _PM_RE.search(text)):
        pm = (float(m.group(1)), float(m.group(2)))
    if pm is None and (m := _PM_TAIL_RE.search(text)):
        before = find_numbers(text[: m.start()])
        pm = (before[0].value, float(m.group(1))) if before else None
    if pm and _UNIFORM_RE.search(text):
        return "uniform", (pm[0] - pm[1], pm[0] + pm[1])
    if pm:
        return "normal", pm
    m = _RANGE_RE.search(text)
    if m:
        lo, hi = (g for g in m.groups() if g is not None)
        return "uniform", (float(lo), float(hi))
    mean = _MEAN_RE.search(text)
    numbers = [n for n in find_numbers(text)]
    if _POISSON_RE.search(text):
        value = float(mean.group(1)) if mean else _first(numbers)
        return ("poisson", (value,)) if value is not None else ("poisson", ())
    sd = _SD_RE.search(text)
    if sd:
        rest = [n for n in numbers if not (sd.start(1) <= n.start < sd.end(1))]
        value = float(mean.group(1)) if mean else _first(rest)
        return ("normal", (value, float(sd.group(1)))) if value is not None else None
    if _NORMAL_RE.search(text):
        return ("normal", ())
    value = float(mean.group(1)) if mean else _first(numbers)
    if value is None:
        return None
    if fixed:
        return "deterministic", (value,)
    return "mean", (value,)


def _first(numbers: list[Number]) -> float | None:
    return numbers[0].value if numbers else None


def says_shape(text: str) -> bool:
    """Whether a clause says how demand varies without a number ('like clockwork', 'it's unpredictable')."""
    return bool(_FIXED_RE.search(text) or _RANDOM_RE.search(text))


def read_demand(text: str) -> DemandReading:
    """Interpret a demand description such as 'about 6 a day, Poisson' or 'weekly demand ~ N(12,3)'."""
    text = _OPEN_DAYS_RE.sub(" ", text)
    demand_type = None
    scopes = negation_scopes(text)
    varies = [*_RANDOM_RE.finditer(text), *_CHANGE_RE.finditer(text)]
    denied = any(s.covers(m.start()) for m in varies for s in scopes)  # "it doesn't really vary"
    steady = list(_FIXED_RE.finditer(text))
    unsteady = bool(steady) and all(
        any(s.covers(m.start()) for s in scopes) for m in steady
    )  # 'not constant'
    if (_RANDOM_RE.search(text) and not denied) or unsteady:
        demand_type = "random"
    elif steady or denied:
        demand_type = "deterministic"
    shape = _shape(text, fixed=demand_type == "deterministic")
    if shape is None or not shape[1]:
        return DemandReading(demand_type=demand_type)
    family, params = shape
    period = _period(text)
    days = DAYS_PER[period]
    if family == "mean":
        if demand_type == "deterministic":
            family = "deterministic"
        elif demand_type == "random" and not _WIDE_RE.search(text):
            return _poisson_mean(params[0], period)
        else:
            note = f"{_r(params[0])} per {period} = {_r(params[0] / days)} per day" if days > 1 else ""
            return DemandReading(
                demand_type=demand_type, mean_only=params[0] / days, note=note, period=period
            )
    if family == "normal" and len(params) < 2:
        return DemandReading(demand_type="random")
    if family in ("uniform",) and len(params) < 2:
        return DemandReading(demand_type="random")
    kind = "deterministic" if family == "deterministic" else "random"
    written = _canonical(family, params)
    if days == 1:
        return DemandReading(demand_type=kind, value=written)
    per = f"per {period}"
    if family == "normal":
        mean, sd = params
        a = f"normal({_r(mean / days)},{_r(sd / math.sqrt(days))})"
        b = f"normal({_r(mean / days)},{_r(sd / days)})"
        options = (
            ("A", a, f"independent daily normals whose {period}ly sum is normal({_r(mean)},{_r(sd)}): "
                     f"daily mean {_r(mean)}/{days}, daily sd {_r(sd)}/sqrt({days}) -> {a}"),
            ("B", b, f"simply scale the {period}ly mean and sd by 1/{days} -> {b}"),
        )  # fmt: skip
        return DemandReading(demand_type=kind, options=options, period=period)
    daily = _canonical(family, tuple(p / days for p in params))
    note = f"{written} {per} = {daily} per day"
    if family == "uniform":
        option = ("A", daily, f"scale the {period}ly range by 1/{days} -> {daily}")
        return DemandReading(demand_type=kind, options=(option,), period=period)
    return DemandReading(demand_type=kind, value=daily, note=note, period=period)


def _poisson_mean(mean: float, period: str) -> DemandReading:
    """Demand said to vary at random, with only its average ('varies randomly, about 5 a day'): Poisson with
    that mean, the standard model of counted customers; its spread is the square root of the mean, which the
    note states so a user whose days swing more can give the spread instead."""
    daily = mean / DAYS_PER[period]
    per = f"{_r(mean)} per {period} = {_r(daily)} per day; " if period != "day" else ""
    note = (
        f"{per}random with only an average given, so Poisson with mean {_r(daily)}, which swings about ±"
        f"{_r(round(math.sqrt(daily), 1))} a day; give me the spread if yours swing more"
    )
    return DemandReading(demand_type="random", value=f"poisson({_r(daily)})", note=note, period=period)


def _canonical(family: str, params: tuple[float, ...]) -> str:
    if family == "deterministic":
        return _r(params[0])
    return f"{family}({','.join(_r(p) for p in params)})"


def _period(text: str) -> str:
    if re.search(r"\bweekly\b|\bper week\b|\ba week\b|\bweek\b", text, re.I) and not re.search(
        r"\b(?:per|a)\s+day\b|\bdaily\b|/\s*day", text, re.I
    ):
        return "week"
    period = rate_period(text)
    return period if period in DAYS_PER else "day"
