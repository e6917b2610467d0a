"""Numbers as people write them: digits with thousands separators, number words, halves and dozens, spoken
prices ("two fifty" = 2.50), proper fractions ("3/4", "1 1/2") and percentages; and `number_words`, the
renderer back to words (for the labs' simulated speakers).

Every pattern here is linear in the text length (no nested quantifiers over the same characters), so a
megabyte of input is read in well under a second."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000}
_UNIT_WORDS = {v: k for k, v in _UNITS.items()}
_TEN_WORDS = {v: k for k, v in _TENS.items() if k != "fourty"}


def number_words(n: int) -> str:
    """English words for 0..999 ('sixty-five', 'one hundred and two'); other numbers stay digits. The inverse
    of `words_to_digits` on that range."""
    if not 0 <= n <= 999:
        return str(n)
    if n < 20:
        return _UNIT_WORDS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TEN_WORDS[tens * 10] + (f"-{_UNIT_WORDS[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_UNIT_WORDS[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")


_TOKEN_RE = re.compile(r"[A-Za-z]+")
_KEEP_ONE = re.compile(r"^[\s-]*(?:time|off)\b", re.IGNORECASE)
_SIGN_RE = re.compile(r"(?<!plus or )(?<!plus-)(?<!plus/)\b(?:minus|negative)\s+(?=\.?\d)", re.IGNORECASE)
_THOUSANDS_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:k|thousand|grand)\b", re.IGNORECASE)

_HUNDREDS_RE = re.compile(r"(?<![\w.,])(\d{1,2}(?:\.\d+)?)\s?hundreds?\b(?!\s*(?:and\s+)?\d)", re.IGNORECASE)
"""'22 hundred' (how people say 2,200): digits followed by the word."""
_DOZENS_RE = re.compile(r"(?<![\w.,])(\d{1,3})\s?dozens?\b(?!\s*(?:and\s+)?\d)", re.IGNORECASE)
"""'8 dozen' (digits followed by the word): 96."""
_FRACTION_RE = re.compile(r"(?<![\w./])(?:(\d{1,6})\s+)?(\d{1,2})/(\d{1,2})(?![\w/.])")
_PERCENT_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b|pct\b)", re.IGNORECASE)

NUMBER_RE = re.compile(
    r"(?<![\w.])[-−–]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|(?<![\w.])[-−–]?(?:\d+(?:\.\d+)?|\.\d+)"
)


@dataclass(frozen=True)
class Number:
    """A number found in text, with its character span."""

    value: float
    start: int
    end: int


def _read_number(words: list[str], i: int) -> tuple[float, int] | None:
    """Read a number-word phrase starting at words[i]; return (value, index after it) or None."""
    total, current, j, last = 0.0, 0.0, i, ""
    if words[i] == "half" and i + 1 < len(words) and words[i + 1] in ("a", "an"):
        return 0.5, i + 2
    if words[i] == "a" and i + 1 < len(words) and words[i + 1] in ("dozen", "hundred", "thousand"):
        current, j, last = 1.0, i + 1, "a"
    while j < len(words):
        word, nxt = words[j], words[j + 1] if j + 1 < len(words) else ""
        if word in _UNITS and last in ("", "a", "tens", "scale", "and"):
            current += _UNITS[word]
            last = "unit"
        elif word in _TENS and last in ("", "a", "scale", "and"):
            current += _TENS[word]
            last = "tens"
        elif word in _TENS and last == "unit" and total == 0 and current < 10 and j == i + 1:
            cents = _TENS[word] + (_UNITS.get(nxt, 0) if nxt in _UNITS and _UNITS[nxt] < 10 else 0)
            return current + cents / 100, j + (2 if cents % 10 else 1)
        elif word == "hundred" and last in ("a", "unit"):
            current = (current or 1) * 100
            last = "scale"
        elif word == "thousand" and last in ("a", "unit", "tens", "scale"):
            total, current = total + (current or 1) * 1000, 0.0
            last = "scale"
        elif word == "dozen" and last in ("a", "unit"):
            current = (current or 1) * 12
            last = "dozen"
        elif word == "and" and last == "scale" and (nxt in _UNITS or nxt in _TENS):
            last = "and"
        elif (
            word == "and"
            and last in ("unit", "tens", "dozen")
            and nxt == "a"
            and j + 2 < len(words)
            and words[j + 2] == "half"
        ):
            return total + current + 0.5, j + 3
        else:
            break
        j += 1
    if last in ("", "a", "and"):
        return None
    return total + current, j


def words_to_digits(text: str) -> str:
    """Replace number words by digits: 'twenty-five' -> '25', 'two and a half' -> '2.5', 'a dozen' -> '12',
    'two fifty' -> '2.5' (a spoken price); 'minus 3' / 'negative three' -> '-3' (a sign, so the validator sees
    it); '1.5k' -> '1500'; '22 hundred' -> '2200'; '8 dozen' -> '96'; '1 1/2' -> '1.5', '3/4' -> '0.75'."""
    text = _FRACTION_RE.sub(_fraction, _spell_out(text))
    text = _SIGN_RE.sub("-", text)
    text = _HUNDREDS_RE.sub(lambda m: format_number(float(m.group(1)) * 100), text)
    text = _DOZENS_RE.sub(lambda m: str(int(m.group(1)) * 12), text)
    return _THOUSANDS_RE.sub(lambda m: format_number(float(m.group(1)) * 1000), text)


def _spell_out(text: str) -> str:
    tokens = list(_TOKEN_RE.finditer(text))
    words = [t.group(0).lower() for t in tokens]
    pieces, cursor, i = [], 0, 0
    while i < len(tokens):
        found = _read_number(words, i)
        if found is None or (
            words[i] == "one" and found[1] == i + 1 and _KEEP_ONE.match(text[tokens[i].end() :])
        ):
            i += 1
            continue
        value, after = found
        between = text[tokens[i].start() : tokens[after - 1].end()]
        if re.search(r"[^A-Za-z\s-]", between):
            i += 1
            continue
        pieces.append(text[cursor : tokens[i].start()])
        pieces.append(format_number(value))
        cursor, i = tokens[after - 1].end(), after
    pieces.append(text[cursor:])
    return "".join(pieces)


def _fraction(m: re.Match[str]) -> str:
    """A proper fraction (numerator below denominator, so '24/7' stays) as a decimal."""
    whole, num, den = m.group(1), int(m.group(2)), int(m.group(3))
    if not 0 < num < den:
        return m.group(0)
    return format_number((int(whole) if whole else 0) + num / den)


def find_percentages(text: str) -> list[Number]:
    """Percentages ('20%', '15 percent') as fractions: 0.2, 0.15."""
    return [Number(float(m.group(1)) / 100, m.start(), m.end()) for m in _PERCENT_RE.finditer(text)]


def parse_number(token: str) -> float:
    """The value of one numeric token such as '1,200', '-3' or '.5'."""
    return float(token.replace(",", "").replace("−", "-").replace("–", "-"))


def find_numbers(text: str) -> list[Number]:
    """All numbers in `text` (digits only; run `words_to_digits` first), in order."""
    return [Number(parse_number(m.group(0)), m.start(), m.end()) for m in NUMBER_RE.finditer(text)]


def format_number(value: float, places: int = 4) -> str:
    """A short canonical rendering: integers without a decimal point, others rounded to `places`."""
    rounded = round(float(value), places)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.{places}f}".rstrip("0").rstrip(".")


class _Span(Protocol):
    start: int
    end: int


def outside(numbers: list[Number], spans: Iterable[_Span]) -> list[Number]:
    """The numbers that do not start inside any of the spans (money, durations, percentages): the '2' of
    '2 weeks' is no count, the '5' of '$5' no scale point."""
    spans = list(spans)
    return [n for n in numbers if not any(s.start <= n.start < s.end for s in spans)]
