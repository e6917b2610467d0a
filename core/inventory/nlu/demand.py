"""Demand descriptions: named distributions, mean ± spread, ranges, fixed amounts, and their time period.

`read_demand` returns what a sentence says about daily demand. Rates given per week or month are
converted to days; when the conversion changes the variance model (a weekly normal), both readings of
seed 000's Example 3 are returned as `options` for the user to choose from.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.text.cues import TokenCue
from core.text.mentions import Kind, Token, parse
from core.text.negation import negation_scopes
from core.text.numbers import Number, find_numbers, format_number, read_number
from core.text.units import DAYS_PER, rate_period
from core.text.vocabulary import SPREAD_WORDS

_FAMILIES = {"poisson": "poisson", "normal": "normal", "gaussian": "normal", "uniform": "uniform", "n": "normal",
             "u": "uniform"}  # fmt: skip
"""A distribution written as a call: 'N(12, 3)', 'poisson(λ=4)', 'uniform(5; 15)'."""
POISSON = TokenCue(exact=frozenset(["poisson"]))
NORMAL = TokenCue(
    exact=frozenset(["normal", "normally", "gaussian"]), runs=(("bell", "-", "curve"), ("bell", "curve"))
)
UNIFORM = TokenCue(exact=frozenset(["uniform", "uniformly", "evenly"]), runs=(("equally", "likely"),))
EVEN_ODDS = TokenCue(
    exact=frozenset(["uniform", "uniformly", "evenly"]),
    runs=(("equally", "likely"), ("same", "chance"), ("equal", "chance"), ("as", "likely"), ("any", "number", "in"),
          ("anything", "in", "between"), ("any", "amount", "in"), ("anything", "between"), ("anywhere", "between"),
          ("any", "number", "between")),
)  # fmt: skip
"""Words that give two stated amounts equal odds for every value between them ('some days 20, some days 60, anything
in between same chance'): a uniform demand."""
_NONE_SOME_DAYS = TokenCue(runs=tuple(("some", d, w) for d in ("days", "day") for w in ("none", "nothing", "zero")))
"""'some days none, some days 4': the low end of a range is 0."""
_OTHER_END = TokenCue(runs=(("other", "days"), ("other", "day"), ("other", "times")))


def as_days(words: Iterable[str]) -> tuple[str, ...]:
    """The words with 'day' read as 'days', so 'some day 4' is said as 'some days 4'."""
    return tuple("days" if w == "day" else w for w in words)


def _two_ends(toks: Sequence[Token]) -> bool:
    """Two amounts said as different days ('some days 4, other days 9', 'some day 4, some day 9'): the ends of
    a range, read as 'between 4 and 9'."""
    words = list(as_days(t.low for t in toks))  # 'some day 4 tube, some day 10'
    some = sum(1 for a, b in zip(words, words[1:], strict=False) if (a, b) == ("some", "days"))
    if not (some >= 2 or (some == 1 and _OTHER_END.found(toks))):
        return False
    said = [k for k, t in enumerate(toks) if t.kind == "num"]
    return all(words[max(0, k - 2) : k] in (["some", "days"], ["other", "days"], ["other", "times"]) for k in said)


_MEAN_WORDS = ("λ", "lambda", "mean", "average", "averages", "averaged", "avg", "rate", "mu", "μ", "expected")
"""A word (or the end of one: 'rate' in 'a moderate 5') right before the mean: 'mean of 20', 'λ = 4'."""
_SD_WORDS = ("deviation", "std", "sd", "sigma", "σ", "spread", "variation")
"""The end of a word right before the spread: 'standard deviation 3', 'std dev 2', 'σ=1.5', 'the variation is
more or less 2'."""
_SD_RUNS = (("std", ".", "dev", "."), ("std", "dev", "."), ("std", ".", "dev"), ("std", "dev"), ("s", ".", "d", "."),
            ("s", ".", "d"))  # fmt: skip
_FILLERS = frozenset(["of", "is", "=", ":", "about", "around", "roughly", "maybe", "probably", "approximately", "like",
                      "more", "or", "less"])  # fmt: skip
"""At most four of these may stand between a mean or spread word and its number ('is more or less 2')."""
_PM_WORDS = (("±",), ("+", "/", "-"), ("+", "-"), *SPREAD_WORDS)
"""A spread after a mean ('20 ± 5', '20 +/- 5', '20 a day give or take 5'), around one ('± 5 around 20') or said
apart from it ('20 a day, could be more or less, give or take 5')."""
_UNITS = frozenset(["unit", "units"])
_AROUND = frozenset(["around", "about", "of", "from"])
_RATE_WORDS = frozenset(["a", "per", "/"])
_PERIODS = frozenset(["day", "week", "month"])
_RANGE_STARTS = ("between", "from")
_RANGE_TAILS = (("units",), ("a", "day"), ("per", "day"), ("daily",), ("a", "week"), ("per", "week"))
"""A range without 'between' / 'from' is demand only with one of these after it ('5-10 a day')."""
_DASHES = ("-", "–", "−")
FIXED = TokenCue(
    exact=frozenset(["exactly", "precisely", "fixed", "constant", "steady", "steadily", "consistent",
                     "consistently", "deterministic"]),
    runs=(("same", "every"), ("same", "number"), ("same", "amount"), ("same", "quantity"),
          ("every", "day", "the", "same"), ("same", "each", "day"), ("no", "variation"), ("never", "changes"),
          ("like", "clockwork"), ("known", "in", "advance"), ("every", "single", "day"), ("without", "fail")),
)  # fmt: skip
"""Words for demand that does not vary ('like clockwork', 'the same number every day')."""
RANDOM = TokenCue(
    exact=frozenset(["random", "randomly", "unpredictable", "unpredictably", "varies", "vary", "varying", "variable",
                     "uncertain", "stochastic", "unknown", "swing", "swings"]),
    starts=("fluctuat", "erratic", "irregular", "inconsistent", "uneven"),
    runs=(("all", "over", "the", "place"), ("all", "over", "the", "map"), ("up", "and", "down"),
          ("hard", "to", "predict"), ("jump", "around"), ("jumps", "around"), ("bounce", "around"),
          ("bounces", "around")),
)  # fmt: skip
"""Words for demand that varies ('it's unpredictable', 'all over the place')."""
WIDE = TokenCue(
    exact=frozenset(["wildly", "hugely", "enormously", "massively"]),
    runs=(("a", "lot"), ("a", "great", "deal"), ("like", "crazy")),
)
"""Demand said to swing more than usual: Poisson's spread would understate it, so the agent asks for it."""
CHANGE = TokenCue(exact=frozenset(["change", "changes", "changing"]))
WEEK = TokenCue(exact=frozenset(["week", "weekly"]))
PER_DAY = TokenCue(exact=frozenset(["daily"]), runs=(("per", "day"), ("a", "day")), phrases=(("/", "day"),))


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


_NAMED_BY = ("-count", "-ct", "-pack", "-pak")


def _shape(text: str, *, fixed: bool) -> tuple[str, tuple[float, ...]] | None:
    """The distribution family and its parameters as written (before any period conversion)."""
    toks = parse(text).toks
    call = _call(_Reader(text, toks))
    if call:
        return call
    pm = _plus_minus(_Reader(text, toks), text)
    if pm and UNIFORM.in_text(text):
        return "uniform", (pm[0] - pm[1], pm[0] + pm[1])
    if pm:
        return "normal", pm
    span = _range(_Reader(text, toks))
    deviation = _number_after(text, toks, _SD_WORDS, _SD_RUNS) if span else None
    if span and (NORMAL.found(toks) or deviation):  # 'avg 10, most days between 7 and 13, bell curve': mean ± one
        mean = _number_after(text, toks, _MEAN_WORDS)  # deviation; 'between 2 and 4, so a standard deviation of 1'
        sd = deviation[0] if deviation else (span[1] - span[0]) / 2
        return "normal", (mean[0] if mean else (span[0] + span[1]) / 2, sd)
    if span:
        return "uniform", span
    ends = sorted({n.value for n in find_numbers(text)} | ({0.0} if _NONE_SOME_DAYS.found(toks) else set()))
    if (EVEN_ODDS.found(toks) or _two_ends(toks)) and len(ends) == 2:
        return "uniform", (ends[0], ends[1])  # 'some days 20, some days 60 (some days none), anything in between'
    mean = _number_after(text, toks, _MEAN_WORDS)
    said = parse(text)
    periods = [m.span for m in said.of(Kind.DURATION, live_only=False)]  # "in 1 week", "over a month, 30 days"
    periods += [m.span for m in said.no_stock()]  # 'we sell 3 types, about 4 a day of this one'
    numbers = [
        n for n in find_numbers(text)
        if not any(a <= n.start < b for a, b in periods)  # 'in 1 week ...'
        and not text[n.end : n.end + 6].lower().startswith(_NAMED_BY)  # 'the 100-count boxes', 'six-packs'
    ]  # fmt: skip
    if POISSON.found(toks):
        value = mean[0] if mean else _first(numbers)
        return ("poisson", (value,)) if value is not None else ("poisson", ())
    sd = _number_after(text, toks, _SD_WORDS, _SD_RUNS)
    if sd:
        rest = [n for n in numbers if not (sd[1].start <= n.start < sd[1].end)]
        value = mean[0] if mean else _first(rest)
        return ("normal", (value, sd[0])) if value is not None else None
    if NORMAL.found(toks):
        return ("normal", ())
    value = mean[0] if mean else _first(numbers)
    if value is None:
        return None
    if fixed:
        return "deterministic", (value,)
    return "mean", (value,)


class _Reader:
    """A cursor over the parse's tokens that steps only across spaces (the written forms allow nothing else
    between their parts)."""

    def __init__(self, text: str, toks: tuple[Token, ...]) -> None:
        self.text, self.toks = text, toks

    def at(self, i: int, prev: int) -> Token | None:
        """Token `i` when only spaces separate it from token `prev` (or `prev` is -1)."""
        if not 0 <= i < len(self.toks):
            return None
        if prev >= 0 and self.text[self.toks[prev].end : self.toks[i].start].strip():
            return None
        return self.toks[i]

    def number(self, i: int, prev: int) -> float | None:
        t = self.at(i, prev)
        return read_number(t.text) if t is not None and t.kind == "num" else None

    def words(self, i: int, prev: int, options: tuple[tuple[str, ...], ...]) -> int | None:
        """The index of the last token of the first option said from `i` on, else None."""
        for option in options:
            k, last = i, prev
            for word in option:
                t = self.at(k, last)
                if t is None or t.low != word:
                    break
                k, last = k + 1, k
            else:
                return last
        return None

    def spread(self, i: int, prev: int) -> tuple[int, float] | None:
        """(index, value) of the spread number of a '±' / '+/-' / 'give or take' starting at token `i`; a sign
        the number carries ('+/-5' is '+', '/', '-5') belongs to the marker."""
        k = self.words(i, prev, _PM_WORDS)
        if k is None:
            k = self.words(i, prev, (("+", "/"), ("+",)))
            t = self.at(k + 1, k) if k is not None else None
            if t is None or t.kind != "num" or not t.text.startswith("-"):
                return None
        value = self.number(k + 1, k)
        return (k + 1, abs(value)) if value is not None else None


def _call(r: _Reader) -> tuple[str, tuple[float, ...]] | None:
    """'N(12, 3)', 'poisson(λ=4)', 'uniform(5; 15)': the family and its one or two parameters."""
    for i, t in enumerate(r.toks):
        glued = i and r.toks[i - 1].end == t.start and r.toks[i - 1].kind != "sym"
        opening = r.at(i + 1, i)
        if t.low not in _FAMILIES or glued or opening is None or opening.low != "(":
            continue
        k, params = i + 1, []
        while True:
            name, eq = r.at(k + 1, k), r.at(k + 2, k + 1)
            if name is not None and name.kind != "num" and eq is not None and eq.low == "=":
                k += 2
            values = _params(r.at(k + 1, k))
            if not values:
                break
            params.extend(values)
            k += 1
            after = r.at(k + 1, k)
            if after is not None and after.low == ")":
                return _FAMILIES[t.low], tuple(params)
            if after is None or after.low not in (",", ";") or len(params) >= 2:
                break
            k += 1
    return None


def _params(t: Token | None) -> list[float]:
    """The parameters one number token holds: 'uniform(130,170)' is read as one number with a thousands
    separator, which inside a call is two."""
    if t is None or t.kind != "num":
        return []
    parts = t.text.split(",") if "," in t.text else [t.text]
    values = [read_number(p) for p in parts]
    return [v for v in values if v is not None] if None not in values and len(values) <= 2 else []


def _range(r: _Reader) -> tuple[float, float] | None:
    """'between 5 and 15', 'from 5 to 15 units', '5-10 a day', '5 – 10 per week': both ends."""
    for i, t in enumerate(r.toks):
        if t.low.endswith(_RANGE_STARTS) and t.kind == "word":
            lo = r.number(i + 1, i)
            k = i + 1 + (r.at(i + 2, i + 1) is not None and r.toks[i + 2].low in ("unit", "units"))
            hi = _to(r, k, ("and", "to")) if lo is not None else None
            if hi is not None:
                return lo, hi[1]
        lo = r.number(i, -1)
        hi = _to(r, i, ("to",)) if lo is not None else None
        if hi is not None and r.words(hi[0] + 1, hi[0], _RANGE_TAILS) is not None:
            return lo, hi[1]
    return None


def _to(r: _Reader, k: int, words: tuple[str, ...]) -> tuple[int, float] | None:
    """(index, value) of the number that ends a range after token `k`: after one of `words` or a dash ('5-10',
    '5 – 10', '5 -10')."""
    t = r.at(k + 1, k)
    if t is None:  # an en dash is no token: '5–10'
        gap = r.text[r.toks[k].end : r.toks[k + 1].start].strip() if k + 1 < len(r.toks) else ""
        value = r.number(k + 1, -1) if gap in _DASHES else None
        return (k + 1, value) if value is not None else None
    if t.low in words or t.low in _DASHES:
        value = r.number(k + 2, k + 1)
        return (k + 2, value) if value is not None else None
    if t.kind == "num" and t.text.startswith(_DASHES) and (value := read_number(t.text)) is not None:
        return k + 1, abs(value)
    return None


def _plus_minus(r: _Reader, text: str) -> tuple[float, float] | None:
    """(mean, spread) of '± 5 around 20', '20 units a day ± 5' or a spread said apart from the mean."""
    n = len(r.toks)
    for i in range(n):  # '± 5 around 20'
        found = r.spread(i, -1)
        if found:
            k = found[0] + (r.at(found[0] + 1, found[0]) is not None and r.toks[found[0] + 1].low in _UNITS)
            word = r.at(k + 1, k)
            mean = r.number(k + 2, k + 1) if word is not None and word.low in _AROUND else None
            if mean is not None:
                return mean, found[1]
    for i in range(n):  # '20 units a day, ± 5'
        mean = r.number(i, -1)
        if mean is None:
            continue
        k = i + (r.at(i + 1, i) is not None and r.toks[i + 1].low in _UNITS)
        rate = r.at(k + 1, k)
        if rate is not None and rate.low in _RATE_WORDS and (p := r.at(k + 2, k + 1)) and p.low in _PERIODS:
            k += 2
        k += (comma := r.at(k + 1, k)) is not None and comma.low == ","
        found = r.spread(k + 1, k)
        if found:
            return mean, found[1]
    for i in range(n):  # 'about 20 a day, could be more or less, give or take 5'
        found = r.spread(i, -1) or _swing(r, i)
        if found:
            before = [  # 'when it's 30 degrees we sell about 40 a day, swings 10 either way': no temperature
                n for n in find_numbers(text[: r.toks[i].start]) if not text[n.end :].lstrip().lower().startswith(_HEAT)
            ]
            return (before[0].value, found[1]) if before else None
    return None


_HEAT = ("degree", "°", "deg ")
_SWING_VERBS = frozenset(["swing", "swings", "swinging", "vary", "varies", "varying", "move", "moves", "moving",
                          "fluctuate", "fluctuates", "goes", "go", "jump", "jumps", "shift", "shifts"])  # fmt: skip
_SWING_FILLERS = frozenset(["by", "like", "maybe", "about", "around", "roughly", "some", "up", "to"])
_EITHER_WAY = (("either", "way"), ("each", "way"), ("up", "or", "down"), ("either", "side"))


def _swing(r: _Reader, i: int) -> tuple[int, float] | None:
    """(index, value) of a spread said with a verb or 'either way' at token `i`: 'it swings by like 4', 'moves by
    maybe 4 either way', 'swings 10 either way', 'within about 8 reams of that' (the mean is said before it)."""
    t = r.toks[i]
    if t.low == "within":  # 'most days it's within about 8 reams of that'
        k = i + 1
        while k < len(r.toks) and r.toks[k].low in _SWING_FILLERS:
            k += 1
        value = r.number(k, k - 1)
        after = k + 1 + (k + 1 < len(r.toks) and r.toks[k + 1].low.isalpha() and r.toks[k + 1].low != "of")
        if value is not None and r.words(after, after - 1, _OF_THE_MEAN) is not None:
            return k, abs(value)
    if t.low in _SWING_VERBS:
        k = i + 1
        while k < len(r.toks) and r.toks[k].low in _SWING_FILLERS | _BOTH_WAYS:
            k += 1
        value = r.number(k, k - 1)
        after = k + 1 + (k + 1 < len(r.toks) and r.toks[k + 1].low in _UNITS)
        said_by = r.toks[i + 1].low == "by" if i + 1 < len(r.toks) else False
        both = {"up", "down"} <= {x.low for x in r.toks[i + 1 : k]}  # 'it goes up or down more or less 2'
        if value is not None and (said_by or both or r.words(after, after - 1, _EITHER_WAY) is not None):
            return k, abs(value)
    if t.kind == "num" and (value := r.number(i, i - 1)) is not None:
        after = i + 1 + (i + 1 < len(r.toks) and r.toks[i + 1].low in _UNITS)
        if after < len(r.toks) and r.toks[after].low.isalpha() and r.toks[after].low not in ("either", "each", "up", *_RATE_WORDS):
            after += 1  # '2 boxes a day either way': the item word
        if after + 1 < len(r.toks) and r.toks[after].low in _RATE_WORDS and r.toks[after + 1].low in _PERIODS:
            after += 2
        if r.words(after, after - 1, _EITHER_WAY) is not None:
            return i, abs(value)  # 'averages 25 a day, about 5 either way'
    return None


_OF_THE_MEAN = (("of", "that"), ("of", "it"), ("of", "this"), ("of", "the", "average"), ("of", "average"),
                ("either", "way"), ("each", "way"))  # fmt: skip
"""What ends 'within N ...' said of a mean: 'within 8 of that', 'within 5 of the average', 'within 3 either way'."""
_BOTH_WAYS = frozenset(["or", "and", "down", "more", "less"])
"""Words of 'up or down', 'up and down', 'more or less' between a swing verb and its spread."""


def _number_after(
    text: str, toks: tuple[Token, ...], ends: tuple[str, ...], runs: tuple[tuple[str, ...], ...] = ()
) -> tuple[float, Token] | None:
    """The first number that follows a word ending in one of `ends` (or a run of tokens), with at most four fillers
    ('of', 'is', '=', ...) and only spaces between: 'mean of about 20' -> 20, 'std. dev. 3' -> 3."""
    for i, t in enumerate(toks):
        k = next((i + len(r) - 1 for r in runs if tuple(x.low for x in toks[i : i + len(r)]) == r), None)
        if k is None and not t.low.removesuffix("'s").removesuffix("’s").endswith(ends):  # "deviation's about 3"
            continue
        k = i if k is None else k
        verbs = 0
        while k + 1 < len(toks) and toks[k + 1].low in _CAME_OUT and verbs < 3:  # 'came out around 2'
            k, verbs = k + 1, verbs + 1
        for j in range(k + 1, min(k + 6, len(toks))):
            if text[toks[j - 1].end : toks[j].start].strip():
                break
            if toks[j].kind == "num" and (value := read_number(toks[j].text)) is not None:
                return value, toks[j]
            if toks[j].low not in _FILLERS or j == k + 5:
                break
    return None


_CAME_OUT = frozenset(["came", "comes", "come", "worked", "works", "turned", "turns", "out", "was", "to", "be",
                       "at"])  # fmt: skip
"""Words of a result between a spread word and its number ('the standard deviation came out around 2', 'worked
out to 3', 'was about 4')."""


def _first(numbers: list[Number]) -> float | None:
    return numbers[0].value if numbers else None


def _steady(toks: tuple[Token, ...]) -> list[tuple[int, int]]:
    """Spans of words for demand that does not vary: `FIXED`, and 'always' before an amount or 'the same' ('always
    6 a day'; 'I'm always guessing' says nothing of demand)."""
    spans = FIXED.spans(toks)
    for i, t in enumerate(toks):
        if t.low == "always" and any(x.kind == "num" or x.low == "same" for x in toks[i + 1 : i + 4]):
            spans.append((t.start, t.end))
    return sorted(spans)


def says_shape(text: str) -> bool:
    """Whether a clause says how demand varies without a number ('like clockwork', 'it's unpredictable')."""
    toks = parse(text).toks
    return bool(_steady(toks)) or RANDOM.found(toks)


def read_demand(text: str) -> DemandReading:
    """Interpret a demand description such as 'about 6 a day, Poisson' or 'weekly demand ~ N(12,3)'."""
    text = _without_open_days(text)
    demand_type = None
    scopes = negation_scopes(text)
    toks = parse(text).toks
    random = RANDOM.spans(toks)
    varies = [*random, *CHANGE.spans(toks)]
    denied = any(s.covers(start) for start, _ in varies for s in scopes)  # "it doesn't really vary"
    steady = _steady(toks)
    unsteady = bool(steady) and all(
        any(s.covers(start) for s in scopes) for start, _ in steady
    )  # 'not constant'
    if (random and not denied) or unsteady:
        demand_type = "random"
    elif steady or denied:
        demand_type = "deterministic"
    shape = _shape(text, fixed=demand_type == "deterministic")
    if shape is None or not shape[1]:
        return DemandReading(demand_type=demand_type)
    family, params = shape
    period = _mean_period(text, params[0])
    days = DAYS_PER[period]
    if family == "mean":
        if demand_type == "deterministic":
            family = "deterministic"
        elif demand_type == "random" and not WIDE.found(toks):
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
    if family == "normal" and _daily_spread(text, params[1]):  # '35 a week, ... standard deviation 2 a day'
        daily = f"normal({_r(params[0] / days)},{_r(params[1])})"
        note = f"{_r(params[0])} {per} = {_r(params[0] / days)} per day, give or take {_r(params[1])} a day as said"
        return DemandReading(demand_type=kind, value=daily, note=note, period=period)
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


def _without_open_days(text: str) -> str:
    """The text without the days a week the shop is open ('open 6 days a week': the parse's whole number of days
    per week), which is no demand figure."""
    for m in reversed(parse(text).of(Kind.DURATION, live_only=False)):
        said = m.text.split()
        if (
            m.unit == "day"
            and m.per == "week"
            and said[0].isdigit()
            and said[2:3] in (["a"], ["per"], ["each"])
        ):
            text = text[: m.span[0]] + " " + text[m.span[1] :]
    return text


def _daily_spread(text: str, sd: float) -> bool:
    """Whether the spread is said per day ('the standard deviation came out around 2 boxes a day')."""
    return any(m.value == sd and m.period == "day" for m in parse(text).of(Kind.QUANTITY, live_only=False))


def _mean_period(text: str, mean: float) -> str:
    """The period of the mean's own figure when the text states both a daily and a weekly (or monthly) rate:
    'about 35 a week, so 5 a day, give or take 1' -> day; a mean said without a period takes the period of the
    nearest figure before it ('140 a week. she says 25 a day, really more like 20' -> day); else `_period`."""
    said = [m for m in parse(text).of(Kind.QUANTITY, live_only=False)]
    periods = {m.period for m in said if m.period in DAYS_PER}
    own = next((m for m in said if m.value == mean), None)
    if own is not None and own.period in DAYS_PER and len(periods) == 1:
        return own.period  # '12 in one month, some week nobody buys': the mean's own period, not 'week'
    if "day" not in periods or len(periods) < 2:
        return _period(text)
    own = next((m for m in said if m.value == mean), None)
    if own is None:
        return _period(text)
    before = [m.period for m in said if m.span[0] <= own.span[0] and m.period in DAYS_PER]
    return before[-1] if before else _period(text)


def _period(text: str) -> str:
    toks = parse(text).toks
    if WEEK.found(toks) and not PER_DAY.found(toks):
        return "week"
    period = rate_period(text)
    return period if period in DAYS_PER else "day"
