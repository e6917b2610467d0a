"""Units: durations converted to days, money converted to dollars, and rate denominators (per day, per order)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.inventory.nlu.numbers import NUMBER_RE, format_number, parse_number

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
    r"\b(?:a|an|one|the next|next|per)\s+(business week|week|fortnight|month|quarter|year)\b", re.IGNORECASE
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
    rf"|(?P<b>{NUMBER_RE.pattern})\s*(?P<post>cents?\b|¢|c\b|dollars?\b|bucks?\b|usd\b|euros?\b|eur\b|pounds?\b|gbp\b)",
    re.IGNORECASE,
)
_CUR_WORD = r"(dollars?|bucks?|euros?|pounds?)"
_SPOKEN_MONEY_RE = re.compile(
    rf"(?<![\w.$€£])(\d+(?:\.\d+)?|a|one)\s+{_CUR_WORD}(?:\s+and)?\s+(?:(a\s+half)|(\d{{1,2}})(?:\s+cents?)?)\b"
    r"(?![.,]\d)(?!\s*(?:%|percent|units?|items?|pieces?|days?|weeks?|months?|years?)\b)",
    re.IGNORECASE,
)
_A_CUR_RE = re.compile(rf"\b(?:a|one)\s+{_CUR_WORD}\b", re.IGNORECASE)
_COIN_RE = re.compile(r"\b(a|an|one|\d+)\s+(penn(?:y|ies)|nickels?|dimes?)\b", re.IGNORECASE)
_COIN_CENTS = {"penn": 1, "nick": 5, "dime": 10}


def spoken_money(text: str) -> str:
    """Spoken amounts as plain numbers (after `words_to_digits`): 'a dollar 50' -> '1.5 dollars',
    'a dollar and a half' -> '1.5 dollars', '2 dollars and 25 cents' -> '2.25 dollars', 'a buck' -> '1 buck',
    'a dime' -> '10 cents'."""

    def amount(m: re.Match[str]) -> str:
        whole = 1.0 if m.group(1).lower() in ("a", "one") else float(m.group(1))
        part = 0.5 if m.group(3) else float(m.group(4)) / 100
        return f"{format_number(whole + part)} {m.group(2)}"

    def coins(m: re.Match[str]) -> str:
        count = 1 if m.group(1).lower() in ("a", "an", "one") else int(m.group(1))
        return f"{count * _COIN_CENTS[m.group(2).lower()[:4]]} cents"

    text = _COIN_RE.sub(coins, _SPOKEN_MONEY_RE.sub(amount, text))
    return _A_CUR_RE.sub(lambda m: f"1 {m.group(1)}", text)


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


def find_durations(text: str) -> list[Duration]:
    """Durations such as '10 days', '3 months', '2 weeks' or 'a quarter', converted to days."""
    found = []
    for m in _DURATION_RE.finditer(text):
        amount, unit = parse_number(m.group(1)), _UNIT_WORDS[m.group(2).lower()]
        found.append(_duration(amount, unit, m.start(), m.end()))
    for m in _BARE_PERIOD_RE.finditer(text):
        if not any(d.start <= m.start() < d.end for d in found):
            found.append(_duration(1, m.group(1).lower(), m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


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
            amount, marker = parse_number(m.group("a")), m.group("pre").strip().lower()
        else:
            amount, marker = parse_number(m.group("b")), m.group("post").lower()
        if marker in ("cent", "cents", "¢", "c"):
            found.append(Money(amount / 100, "USD", m.start(), m.end(), _cents_note(amount)))
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
