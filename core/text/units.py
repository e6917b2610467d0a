"""Units: durations converted to days, money converted to dollars, and rate denominators (per day, per order)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.text.numbers import NUMBER_RE, format_number, read_number, scaled, words_to_digits

DAYS_PER = {"day": 1, "week": 7, "business week": 5, "fortnight": 14, "month": 30, "quarter": 90, "year": 365}
_UNIT_WORDS = {
    "d": "day", "day": "day", "days": "day", "business day": "day", "business days": "day",
    "business week": "business week", "business weeks": "business week", "work week": "business week",
    "wk": "week", "wks": "week", "week": "week", "weeks": "week", "fortnight": "fortnight",
    "fortnights": "fortnight", "mo": "month", "mos": "month", "month": "month", "months": "month",
    "quarter": "quarter", "quarters": "quarter", "yr": "year", "yrs": "year", "year": "year", "years": "year",
}  # fmt: skip
_UNIT_ALT = "|".join(sorted((re.escape(w) for w in _UNIT_WORDS), key=len, reverse=True))
_DURATION_RE = re.compile(rf"({NUMBER_RE.pattern})\s*-?\s*(?:calendar\s+)?({_UNIT_ALT})\b", re.IGNORECASE)
_BARE_PERIOD_RE = re.compile(
    r"\b(?:a|an|one|the next|next|per|the coming|the following|the upcoming|this coming|the whole|the entire|"
    r"a single)\s+(?:(?:whole|full|entire|single|calendar|good|solid)\s+)?(business week|week|fortnight|month|quarter|year)\b",
    re.IGNORECASE,
)

_PERIOD_PATTERNS = {
    "day": r"(?:per|a|an|each|every|/)\s*(?:business\s+)?(?:day|night)\b|\bdaily\b|/\s*d\b|\bper\s+diem\b",
    "week": r"(?:per|a|each|every|/)\s*week\b|\bweekly\b|/\s*wk\b",
    "month": r"(?:per|a|each|every|/)\s*month\b|\bmonthly\b|/\s*mo\b",
    "year": r"(?:per|a|each|every|/)\s*year\b|\byearly\b|\bannual(?:ly)?\b|/\s*yr\b|\bper\s+annum\b",
}
_PER_ORDER_RE = re.compile(
    r"\b(?:per|each|every|an|a|/)\s*(?:purchase\s+)?(?:order|shipment|delivery|batch|replenishment|po)\b"
    r"|\bevery\s+time\s+we\s+(?:order|place)|\bwhenever\s+we\s+(?:order|place)|\bfixed\b|\bflat\b|\bper\s+time\b",
    re.IGNORECASE,
)
_PER_UNIT_RE = re.compile(
    r"\b(?:per|each|a|an|every|/)\s*(?:unit|item|piece|pc|part|product|one|thing|box|case|customer|sale)s?\b"
    r"|\bper\s+lost\b|\beach\s+(?:lost|missed|unfilled|unmet|short)",
    re.IGNORECASE,
)
_CURRENCY = {"$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "buck": "USD", "bucks": "USD",
             "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP",
             "pound": "GBP", "pounds": "GBP"}  # fmt: skip
_MONEY_RE = re.compile(
    rf"(?P<pre>[$€£]|\b(?:usd|eur|gbp)\s?)\s*(?P<a>{NUMBER_RE.pattern})"
    rf"|(?P<b>{NUMBER_RE.pattern})\s*(?P<post>cents?\b|¢|c\b|pence\b|(?<=\d)p\b|dollars?\b|bucks?\b|usd\b|euros?\b|eur\b|pounds?\b|gbp\b)",
    re.IGNORECASE,
)
_CUR_WORD = r"(dollars?|bucks?|euros?|pounds?)"
_SPOKEN_MONEY_RE = re.compile(
    rf"(?<![\w.$€£])(?:(\d+(?:\.\d+)?|a|one)\s+)?{_CUR_WORD}(?:\s+and)?\s+(?:(a\s+half)|(\d{{1,2}})\b(?:\s+cents?\b|(?!\s+(?!(?:a|an|the|per|each|every|for|on|in|and|or|to|so|but|at|is|was|lost|gone|down|out|off|back|total|from|plus|with|which|that)\b)[a-z])))"
    r"(?![.,]\d)(?!\s*(?:%|percent|units?|items?|pieces?|days?|weeks?|months?|years?)\b)",
    re.IGNORECASE,
)
_A_CUR_RE = re.compile(rf"(?<!\d\s)\b(?:a|one)\s+{_CUR_WORD}\b", re.IGNORECASE)
"""'a dollar', 'one pound' as 1 of the currency; not after an amount ('3 a pound' is a price per pound)."""
_COIN_RE = re.compile(r"\b(a|an|one|\d+)\s+(penn(?:y|ies)|nickels?|dimes?|cents?)\b(\s+and\s+a\s+half\b)?", re.IGNORECASE)
_COIN_CENTS = {"penn": 1, "nick": 5, "dime": 10, "cent": 1}
_QUARTER_RE = re.compile(r"\b(a|one|\d+)\s+quarters?\b(?!\s+of\b)", re.IGNORECASE)
PARTS_OF: dict[str, float] = {
    "half": 0.5, "halves": 0.5, "third": 1 / 3, "thirds": 1 / 3, "quarter": 0.25, "quarters": 0.25,
    "fourth": 0.25, "fourths": 0.25, "fifth": 0.2, "fifths": 0.2, "tenth": 0.1, "tenths": 0.1,
    "hundredth": 0.01, "hundredths": 0.01,
}  # fmt: skip
"""A part of one unit said as a word ('a tenth of a cent', 'two thirds of a dollar')."""
_PART_OF_MONEY_RE = re.compile(
    r"\b(?:(a|an|one|\d+)\s+)?(" + "|".join(PARTS_OF) + r")\s+of\s+(?:a|an|one|1)\s+"
    r"(cent|penny|dollar|buck|euro|quid)\b",  # 'a quarter of a pound' stays a weight
    re.IGNORECASE,
)
"""A part of a money unit ('a tenth of a cent', 'quarter of a penny', 'a third of a dollar'): the unit times the part."""
_PAID_RE = re.compile(
    r"\b(?:costs?|costing|pa(?:y|ys|id)|charges?|charged|spends?|lose|loses|lost|out|worth|runs? (?:me|us)|"
    r"sets? (?:me|us) back)(?:\s+(?:me|us|them|about|around|roughly|maybe|just|only|like|another|extra))*\s+$",
    re.IGNORECASE,
)
"""What makes 'a quarter' the coin ('costs me a quarter a day'), not three months or a fourth of something."""
_PER_AFTER_RE = re.compile(
    r"\s+(?:per|each|apiece|a piece|every|for each|for every|an? (?:day|night|week|month|unit|item|box|piece|bag))\b",
    re.IGNORECASE,
)
"""A rate after 'a quarter' ('a quarter a day', 'a quarter for each one'): a span of three months is no rate."""


def spoken_money(text: str, *, price_asked: bool = False) -> str:
    """Spoken amounts as plain numbers (after `words_to_digits`): 'a dollar 50' -> '1.5 dollars', 'buck 50' -> '1.5
    buck', 'a dollar and a half' -> '1.5 dollars', '2 dollars and 25 cents' -> '2.25 dollars', 'a buck' -> '1 buck',
    'a dime' -> '10 cents', 'a cent' -> '1 cents', 'costs me a quarter' -> '25 cents' (a quarter of a year or of the stock stays);
    `price_asked` (the text answers a question about a price): any 'a quarter' not 'of' something is the coin."""

    def amount(m: re.Match[str]) -> str:
        whole = 1.0 if m.group(1) is None or m.group(1).lower() in ("a", "one") else read_number(m.group(1))
        if whole is None:  # not readable exactly: left as written
            return m.group(0)
        part = 0.5 if m.group(3) else float(m.group(4)) / 100
        return f"{format_number(whole + part)} {m.group(2)}"

    def coins(m: re.Match[str]) -> str:
        if m.group(1).lower() not in ("a", "an", "one") and m.group(2).lower().startswith("cent"):
            return m.group(0)  # '25 cents' is already plain; only 'a cent' is spoken
        count = (1 if m.group(1).lower() in ("a", "an", "one") else int(m.group(1))) + (0.5 if m.group(3) else 0)
        return f"{format_number(count * _COIN_CENTS[m.group(2).lower()[:4]])} cents"  # 'a cent and a half': 1.5

    def quarters(m: re.Match[str]) -> str:
        if not (price_asked or _PAID_RE.search(text[: m.start()]) or _PER_AFTER_RE.match(text, m.end())):
            return m.group(0)
        count = 1 if m.group(1).lower() in ("a", "one") else int(m.group(1))
        return f"{count * 25} cents"

    text = _PART_OF_MONEY_RE.sub(_part_of_money, text)
    text = _QUARTER_RE.sub(quarters, text)
    text = _COIN_RE.sub(coins, _SPOKEN_MONEY_RE.sub(amount, text))
    return _A_CUR_RE.sub(lambda m: f"1 {m.group(1)}", text)


def _part_of_money(m: re.Match[str]) -> str:
    """'a tenth of a cent' -> '0.1 cents', 'two thirds of a dollar' -> '0.6667 dollar' (`_PART_OF_MONEY_RE`)."""
    count = 1.0 if (m.group(1) or "a").lower() in ("a", "an", "one") else float(m.group(1))
    unit = m.group(3).lower()
    value = count * PARTS_OF[m.group(2).lower()]
    return f"{format_number(value)} {'cents' if unit in ('cent', 'penny') else unit}"


@dataclass(frozen=True)
class Duration:
    """A duration found in text, converted to days; `note` explains a conversion, empty when none happened."""

    days: float
    start: int
    end: int
    note: str = ""


@dataclass(frozen=True)
class Money:
    """An amount of money converted to whole currency units (cents become dollars)."""

    amount: float
    currency: str
    start: int
    end: int
    note: str = ""


_AND_HALF_RE = re.compile(
    rf"\b(?:({NUMBER_RE.pattern})|an?)\s+({_UNIT_ALT})\s+and\s+(?:a\s+)?half\b", re.IGNORECASE
)
"""'a week and a half', '2 days and a half': the unit's count plus one half."""


def join_halves(text: str) -> str:
    """'a week and a half' -> '1.5 weeks': one duration, so a clause splitter does not cut it at 'and'; 'half a
    year' -> '6 months'."""

    def half(m: re.Match[str]) -> str:
        count = read_number(m.group(1)) if m.group(1) else 1
        if count is None:
            return m.group(0)
        amount = count + 0.5
        return f"{format_number(amount)} {_UNIT_WORDS[m.group(2).lower()]}s"

    def half_a(m: re.Match[str]) -> str:
        unit, amount = _HALF_OF[m.group(1).lower()]
        return f"{format_number(amount)} {unit}s"

    return _HALF_A_RE.sub(half_a, _AND_HALF_RE.sub(half, text))


def find_durations(text: str) -> list[Duration]:
    """Durations such as '10 days', '3 months', '2 weeks', 'a quarter' or 'a week and a half', in days."""
    found = []
    for m in _AND_HALF_RE.finditer(text):
        count = read_number(m.group(1)) if m.group(1) else 1
        if count is not None:
            found.append(_duration(count + 0.5, _UNIT_WORDS[m.group(2).lower()], m.start(), m.end()))
    for m in _DURATION_RE.finditer(text):
        amount, unit = read_number(m.group(1)), _UNIT_WORDS[m.group(2).lower()]
        if amount is None or any(d.start <= m.start() < d.end for d in found):
            continue
        found.append(_duration(amount, unit, m.start(), m.end()))
    for m in _HALF_A_RE.finditer(text):
        unit, amount = _HALF_OF[m.group(1).lower()]
        found.append(_duration(amount, unit, m.start(), m.end()))
    for m in _BARE_PERIOD_RE.finditer(text):
        if not any(d.start <= m.start() < d.end for d in found) and not _part_of_measure(text, m):
            found.append(_duration(1, m.group(1).lower(), m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


_HALF_A_RE = re.compile(r"(?<!and a )\bhalf (?:of )?(?:a|an|one) (year|month|fortnight|week)\b", re.IGNORECASE)
_HALF_OF = {"year": ("month", 6), "month": ("day", 15), "fortnight": ("day", 7), "week": ("day", 3.5)}
"""'half a year' is 6 months (180 days, the 30-day months of '6 months'), never the 'a year' inside it; not after
'and a' ('a case and a half a week' is 1.5 cases a week, no half week)."""


MEASURES: dict[str, str] = {
    "l": "litre", "litre": "litre", "litres": "litre", "liter": "litre", "liters": "litre", "ltr": "litre",
    "ml": "ml", "millilitre": "ml", "millilitres": "ml", "milliliter": "ml", "milliliters": "ml",
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
    "g": "g", "gram": "g", "grams": "g", "lb": "lb", "lbs": "lb", "oz": "oz", "ounce": "oz", "ounces": "oz",
    "gallon": "gallon", "gallons": "gallon", "gal": "gallon", "quart": "quart", "quarts": "quart", "qt": "quart",
    "ton": "tonne", "tons": "tonne",
    "tonne": "tonne", "tonnes": "tonne", "metre": "m", "metres": "m", "meter": "m", "meters": "m",
}  # fmt: skip
"""Measures a shop quotes instead of a count, canonical unit by word (`core.text.vocabulary.MEASURES`)."""


def _part_of_measure(text: str, m: re.Match[str]) -> bool:
    """Whether a bare 'a quarter' is a part of a measure ('a quarter kilo each', 'a quarter-pound'), no period."""
    if m.group(1).lower() != "quarter":
        return False
    after = text[m.end() :].lstrip(" -").split(maxsplit=1)
    return bool(after) and after[0].strip(".,;:!?").lower() in (*MEASURES, "pound", "pounds")


def _duration(amount: float, unit: str, start: int, end: int) -> Duration:
    days = amount * DAYS_PER[unit]
    note = ""
    if unit != "day":
        plural = unit if amount == 1 else f"{unit}s"
        basis = {
            "month": " (30-day months)",
            "year": " (365-day years)",
            "business week": " (business days counted as days)",
        }.get(unit, "")
        note = f"{format_number(amount)} {plural} = {format_number(days)} days{basis}"
    return Duration(days, start, end, note)


def rate_period(text: str) -> str | None:
    """The time denominator of a rate ('per day', 'a week', 'monthly', ...), or None."""
    hits = [
        (m.start(), p) for p, pat in _PERIOD_PATTERNS.items() for m in re.finditer(pat, text, re.IGNORECASE)
    ]
    return min(hits)[1] if hits else None


def is_per_order(text: str) -> bool:
    """Whether the text prices something per order (per shipment, per delivery, fixed fee)."""
    return bool(_PER_ORDER_RE.search(text))


def is_per_unit(text: str) -> bool:
    """Whether the text prices something per unit (per item, each, per lost sale)."""
    return bool(_PER_UNIT_RE.search(text))


def find_money(text: str) -> list[Money]:
    """Amounts with a currency marker: '$2.80', '2.80 dollars', '50 cents', 'EUR 3'."""
    found = []
    for m in _MONEY_RE.finditer(text):
        if m.group("a"):
            amount, marker = read_number(m.group("a")), m.group("pre").strip().lower()
        else:
            amount, marker = read_number(m.group("b")), m.group("post").lower()
        if amount is None:  # not readable exactly: no amount rather than another one
            continue
        if marker in ("cent", "cents", "¢", "c"):
            found.append(Money(amount / 100, "USD", m.start(), m.end(), _cents_note(amount)))
        elif marker in ("p", "pence"):  # '40p': pence, a hundredth of the pound
            note = f"{format_number(amount)}p = {format_number(amount / 100)}"
            found.append(Money(amount / 100, "GBP", m.start(), m.end(), note))
        else:
            found.append(Money(amount, _CURRENCY.get(marker, "USD"), m.start(), m.end()))
    return found


def _cents_note(cents: float) -> str:
    return f"{format_number(cents)} cents = ${format_number(cents / 100)}"


def per_day_rate(amount: float, period: str | None) -> tuple[float, str]:
    """Convert a rate per `period` into a rate per day, with a note when a conversion happened."""
    if period in (None, "day"):
        return amount, ""
    days = DAYS_PER[period]
    return amount / days, f"{format_number(amount)} per {period} = {format_number(amount / days)} per day"


_TIME_RE = re.compile(
    r"\b(\d{1,2})(?::|\s(?=\d{2}\s*[ap]\.?m))(\d{2})\s*(a\.?m\.?|p\.?m\.?)?|\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)(?!\w)|\b(\d{1,2})\s*o'?clock\b",
    re.IGNORECASE,
)
_BARE_HOUR_RE = re.compile(
    r"\b(?:at|after|before|by|until|till|around|about|than|to|from)\s+(\d{1,2})\b"
    r"(?![\d:]|[,.]\d|\s*(?:min|minute|student|kid|child|percent|%|hundred|people|option|school|unit|item|piece|case|"
    r"bottle|box|bag|pack|jar|can|dollar|buck|cent|day|week|month))",
    re.IGNORECASE,
)


_HOUR_WORDS = (
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)
_HOURS = {w: i + 1 for i, w in enumerate(_HOUR_WORDS)}
_HOUR_W = "|".join(sorted(_HOURS, key=len, reverse=True))
_ONES_W = "one|two|three|four|five|six|seven|eight|nine"
_MINUTE_W = (
    rf"(?:twenty|thirty|forty|fourty|fifty)(?:[- ]?(?:{_ONES_W}))?|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    rf"sixteen|seventeen|eighteen|nineteen|o[h']?[- ]?(?:{_ONES_W})"
)
_NOT_A_TIME = (
    r"(?!\s*(?:-\s*)?(?:%|percent|minutes?|mins?|hours?|hrs?|students?|kids?|children|pupils?|riders?|buses|bus|"
    r"people|schools?|options?|alternatives?|dollars?|bucks?|cents?|days?|weeks?|months?|years?|units?|items?|"
    r"hundred|thousand|k\b|times)\b)"
)
_AMOUNT_BEFORE_RE = re.compile(
    r"\b(?:under|below|over|above|(?:more|less|fewer) than|at most|at least|max(?:imum)?|cap|limit|exceed)\s+$",
    re.IGNORECASE,
)
"""Words before a number without a colon that make it an amount ('under 10.25'), not a time."""
_RANGE_BEFORE_RE = re.compile(r"\b(?:from|between)\s+$", re.IGNORECASE)
"""Words after a number that make it a count or an amount, not a clock time ('from ten to eight minutes')."""
_SUFFIX = r"(?:\s*(a\.?m\.?|p\.?m\.?)(?!\w))?"
_SPOKEN_RES = (
    # 'nine thirty', 'eight-forty', 'seven fifty am', 'nine oh five'
    ("hm", re.compile(rf"\b({_HOUR_W})[- ]({_MINUTE_W})\b{_SUFFIX}{_NOT_A_TIME}", re.IGNORECASE)),
    # 'ten to eight', 'a quarter to nine', 'twenty minutes to nine', 'half past nine', '10 past 8'
    (
        "rel",
        re.compile(
            rf"\b(?:(a\s+)?(quarter|half)|({_MINUTE_W}|one|two|three|four|five|six|seven|eight|nine|\d{{1,2}})"
            rf"(?:\s+minutes?)?)[\s-]+(past|after|to|till|til|of)[\s-]+({_HOUR_W}|\d{{1,2}})\b(?![:.]\d){_SUFFIX}"
            rf"{_NOT_A_TIME}",
            re.IGNORECASE,
        ),
    ),
    # 'half nine' (British: 9:30)
    ("half", re.compile(rf"\bhalf\s+({_HOUR_W})\b{_SUFFIX}{_NOT_A_TIME}", re.IGNORECASE)),
    # '9.30', '8.40am' (a dot for the colon), '0840', '0930h'; the compact forms only after a time word
    (
        "dot",
        re.compile(
            rf"(?<![\w.$€£,])(\d{{1,2}})\.([0-5]\d)(?![\d.]|,\d){_SUFFIX}{_NOT_A_TIME}", re.IGNORECASE
        ),
    ),
    (
        "compact",
        re.compile(
            rf"(?:\b(?:at|to|by|until|till|from|for|before|after|than|around|about)\s+|(?<![\w.$€£,]))"
            rf"(0\d|1[0-2]|(?<=\s)[1-9])([0-5]\d)(?:\s*(?:h|hrs|hours)\b)?(?![\d.,]){_SUFFIX}{_NOT_A_TIME}",
            re.IGNORECASE,
        ),
    ),
)


def _spoken_count(word: str) -> int | None:
    """Minutes said as a word or digits ('twenty', 'twenty-five', 'oh five', '10'); None above 59."""
    word = re.sub(r"^o[h']?[- ]?", "", word.lower()) if re.match(r"o[h']?[- ]?[a-z]", word.lower()) else word
    value = words_to_digits(word.replace("-", " ")).strip()
    return int(value) if value.isdigit() and int(value) < 60 else None


_NEXT_WORD_RE = re.compile(r"\s{1,3}([a-z][a-z'-]*)", re.IGNORECASE)
_COUNTED_NOUNS = frozenset(["family", "signature", "petition", "vote", "parent", "teacher", "staff", "seat", "mile",
                            "household", "member", "response", "complaint", "email", "call", "letter", "name"])
_NOT_COUNTED_S = frozenset(["works", "sounds", "seems", "starts", "begins", "suits", "fits", "looks", "helps", "makes",
                            "gives", "means", "does", "goes", "thanks", "always", "is", "was", "has", "its", "this",
                            "plus", "yes", "as", "us", "instead"])  # fmt: skip


def _counts_after(text: str, end: int) -> bool:
    """Whether the word after a compact number makes it a count ('120 signatures', '145 families', '115 parent
    volunteers'): a counted noun or a plural, not a verb ('930 works for us')."""
    m = _NEXT_WORD_RE.match(text, end)
    if not m:
        return False
    word = m.group(1).lower()
    return word in _COUNTED_NOUNS or (
        len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "'s")) and word not in _NOT_COUNTED_S
    )


def _spoken_times(text: str) -> list[tuple[int, int, int, str]]:
    """(start, end, hour, minute, suffix) of times said or typed without a colon: see `clock_times`."""
    out = []
    for kind, pattern in _SPOKEN_RES:
        for m in pattern.finditer(text):
            groups = m.groups()
            suffix = (groups[-1] or "").replace(".", "").lower()
            start = m.start()
            if kind == "hm":
                hour, minute = _HOURS[groups[0].lower()], _spoken_count(groups[1])
            elif kind == "rel":
                count = {"quarter": 15, "half": 30}.get((groups[1] or "").lower()) or _spoken_count(groups[2])
                target = groups[4].lower()
                hour = _HOURS.get(target) or int(target)
                back = groups[3].lower() in ("past", "after")
                if (
                    count is None
                    or not 1 <= hour <= 12
                    or ((groups[1] or "").lower() == "half" and not back)
                    or (not back and (groups[2] or "").isdigit() and "minute" not in m.group(0).lower())
                    or _RANGE_BEFORE_RE.search(text, max(0, start - 9), start)
                ):
                    continue  # '10 to 8' and 'from ten to eight' are ranges, not 7:50
                if back:
                    minute = count
                else:
                    hour, minute = (hour - 2) % 12 + 1, 60 - count
            elif kind == "half":
                hour, minute = _HOURS[groups[0].lower()], 30
            else:
                hour, minute = int(groups[0]), int(groups[1])
                start = m.start(1)
                if not 1 <= hour <= 12 and not (kind == "compact" and hour == 0):
                    continue
                if _AMOUNT_BEFORE_RE.search(text, max(0, start - 16), start):
                    continue  # 'under 10.25', 'at most 9.30': a limit's amount, not a time
                if kind == "compact" and not suffix and m.group(0)[:1].isdigit() and _counts_after(text, m.end()):
                    continue  # 'we got 120 signatures': a count, not 1:20
            if minute is None:
                continue
            out.append((start, m.end(), hour, minute, suffix))
    return out


def clock_times(text: str, bare: bool = False, *, spoken: bool = False) -> list[tuple[int, int, int]]:
    """(start, end, minutes after midnight) of clock times like '8:40', '9:30 am', '8am', '5 o'clock'; morning
    is assumed without a suffix. With `bare`, an hour after a time word counts too ('at 10', 'after 9'). With
    `spoken`, times said or typed without a colon count too: 'nine thirty', 'eight-forty', 'ten to eight',
    'a quarter past nine', 'half past nine', 'half nine', '9.30', '0840', 'at 840' (a chat about start times
    turns these on; a shop's prices such as '9.30' or 'two fifty' stay amounts elsewhere)."""
    found = []
    for match in _TIME_RE.finditer(text):
        hour = int(match.group(1) or match.group(4) or match.group(6))
        minute = int(match.group(2) or 0)
        suffix = (match.group(3) or match.group(5) or "").replace(".", "").lower()
        if not (hour > 23 or minute > 59 or (suffix and not 1 <= hour <= 12)):  # not '40am' of '8.40am'
            found.append((match.start(), match.end(), hour, minute, suffix))
    if spoken:
        taken = [(a, b) for a, b, *_ in found]
        for hit in sorted(_spoken_times(text), key=lambda h: (h[0], -h[1])):
            if not any(a < hit[1] and hit[0] < b for a, b in taken):
                found.append(hit)
                taken.append(hit[:2])
    out = []
    for start, end, hour, minute, suffix in found:
        if hour > 23 or minute > 59 or (suffix and not 1 <= hour <= 12):
            continue
        if suffix == "pm" and hour < 12:
            hour += 12
        elif suffix == "am" and hour == 12:
            hour = 0
        out.append((start, end, hour * 60 + minute))
    if bare:
        spans = [(a, b) for a, b, _ in out]
        for match in _BARE_HOUR_RE.finditer(text):
            start, end = match.span(1)
            hour = int(match.group(1))
            if 1 <= hour <= 12 and not any(a <= start < b for a, b in spans):
                out.append((start, end, hour * 60))
    return sorted(out)


_WORD_RE = re.compile(r"(?<![a-z])([a-z]{2,}(?:-years?)?)(?![a-z])", re.IGNORECASE)
_BEFORE_UNIT_RE = re.compile(
    r"(?:\d\s{0,2}-?\s{0,2}|\b(?:per|a|an|each|every)\s{1,3}|/\s{0,2})$", re.IGNORECASE
)
_NOT_PHYSICAL = frozenset(
    [
        "in",
        "at",
        "an",
        "as",
        "by",
        "of",
        "or",
        "and",
        "to",
        "is",
        "it",
        "on",
        "ft",
        "unit",
        "units",
        "item",
        "items",
        "piece",
        "pieces",
        "box",
        "boxes",
        "case",
        "cases",
        "bag",
        "bags",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "hour",
        "hours",
        "minute",
        "minutes",
        "min",
        "mins",
        "second",
        "seconds",
        "time",
        "times",
        "dollar",
        "dollars",
        "cent",
        "cents",
        "buck",
        "bucks",
        "euro",
        "euros",
        "pound",
        "pounds",
        "order",
        "orders",
        "sale",
        "sales",
        "customer",
        "customers",
        "percent",
        "dozen",
        "pack",
        "packs",
        "bottle",
        "bottles",
        "loaf",
        "loaves",
        "tray",
        "trays",
        "set",
        "sets",
        "pair",
        "pairs",
        "roll",
        "rolls",
        "can",
        "cans",
        "bar",
        "bars",
        "cup",
        "cups",
        "pallet",
        "pallets",
        "carton",
        "cartons",
        "crate",
        "crates",
        "shipment",
        "delivery",
        "batch",
    ]
)
_MEASURES = frozenset(
    [
        "kilogram",
        "gram",
        "milligram",
        "pound",
        "ounce",
        "metric_ton",
        "ton",
        "meter",
        "kilometer",
        "centimeter",
        "millimeter",
        "mile",
        "foot",
        "inch",
        "yard",
        "light_year",
        "parsec",
        "astronomical_unit",
        "liter",
        "milliliter",
        "gallon",
        "quart",
        "kelvin",
        "degree_Celsius",
        "degree_Fahrenheit",
        "square_meter",
        "square_foot",
        "acre",
        "hectare",
    ]
)
"""The measures a shop owner may quote instead of a count (pint parses the word, plurals and abbreviations
included); pint's rarer units ('chain', 'stone', 'pint', 'cup') are ordinary words in a shop."""


@lru_cache(maxsize=1)
def _registry():  # type: ignore[no-untyped-def]
    import pint

    return pint.UnitRegistry()


def warm_up() -> None:
    """Load the unit registry now (about half a second) rather than during the first message that needs it."""
    _registry()


@lru_cache(maxsize=512)
def _is_physical(word: str) -> bool:
    word = word.lower().replace(" ", "_").replace("-", "_")
    if word in _NOT_PHYSICAL or word in _UNIT_WORDS or word.rstrip("s") in _UNIT_WORDS or len(word) < 2:
        return False
    try:
        units = _registry().parse_units(word)
    except Exception:  # noqa: BLE001 - pint raises several error types for unknown words
        return False
    return str(units) in _MEASURES


def physical_units(text: str) -> list[str]:
    """Physical units after a number or 'per' ('3 light-years', 'per kg', '/litre'): measures the inventory
    table cannot take as days, units or dollars (pint decides what is a physical unit)."""
    return [
        m.group(1)
        for m in _WORD_RE.finditer(text)
        if _BEFORE_UNIT_RE.search(text[max(0, m.start() - 8) : m.start()]) and _is_physical(m.group(1))
    ]


_HOUR_PHRASES = (
    (re.compile(r"\b(?:three|3)[ -]quarters? of an hour\b", re.IGNORECASE), "45 minutes"),
    (
        re.compile(r"\b(?:an|one|1) hour and a half\b|\b(?:one|1) and a half hours?\b", re.IGNORECASE),
        "90 minutes",
    ),
    (re.compile(r"\b(?:a )?quarter(?: of an |[ -])hour\b", re.IGNORECASE), "15 minutes"),
    (re.compile(r"\bhalf(?: an |[ -])hour\b", re.IGNORECASE), "30 minutes"),
    (re.compile(r"\b(?:an|one) hour\b", re.IGNORECASE), "60 minutes"),
)
_HOURS_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:hours?|hrs?)\b", re.IGNORECASE)


def hours_as_minutes(text: str) -> str:
    """Durations in hours rewritten in minutes, for readers that count minutes: 'half an hour' -> '30 minutes',
    'a quarter of an hour' -> '15 minutes', 'an hour and a half' -> '90 minutes', '1.5 hours' -> '90 minutes'."""
    for pattern, minutes in _HOUR_PHRASES:
        text = pattern.sub(minutes, text)
    return _HOURS_RE.sub(
        lambda m: f"{minutes} minutes" if (minutes := scaled(m.group(1), 60)) else m.group(0), text
    )
