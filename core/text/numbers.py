"""Numbers as people write them: digits with thousands separators, number words, halves and dozens, spoken
prices ("two fifty" = 2.50), proper fractions ("3/4", "1 1/2"), percentages and scientific notation
("2.5e3"); and `number_words`, the renderer back to words (for the labs' simulated speakers).

A number is read exactly or not at all: one with more than `MAX_SIGNIFICANT_DIGITS` significant digits, a
magnitude of `MAX_MAGNITUDE` or more, or one other than 0 below 10^`MIN_MAGNITUDE_EXPONENT`, would come out
of a float as another value (1e308 as infinity, a 23-digit number rounded, 1e-400 as 0), so the readers skip
it and `unreadable_number` names it; the chats answer such a message with that refusal before reading
anything from it.

Every pattern here is linear in the text length (no nested quantifiers over the same characters), so a
megabyte of input is read in well under a second."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol

MAX_SIGNIFICANT_DIGITS = 15
"""A double holds 15 significant decimal digits exactly; a 16th would be rounded away silently."""
MAX_MAGNITUDE_EXPONENT = 15
MAX_MAGNITUDE = 10**MAX_MAGNITUDE_EXPONENT
"""Numbers are read below 10^15 in magnitude: far beyond every table limit, and every whole number below it
is exact in a float."""
MIN_MAGNITUDE_EXPONENT = -15
"""A nonzero number below 10^-15 in magnitude is refused (1e-400 would be read as 0)."""
MAX_DIGIT_RUN = 30
"""A run of more digits than this (anywhere, even inside a word) is no number ORCA can read; the chats refuse
it before any other reading, which also keeps every later pattern linear."""
_MAX_EXPONENT_DIGITS = 6

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
_KEEP_ONE = re.compile(
    r"^[\s-]*(?:time|off|at\s+a\s+time|of\s+(?:the|them|those|these|our|my|us)\b)\b", re.IGNORECASE
)  # 'one at a time' is a manner of buying, as 'one by one'; no amount
_PRONOUN_ONE_AFTER = frozenset(["each", "every", "that", "this", "which", "no", "any", "another", "the", "other",
                                "only", "right", "wrong", "big", "main"])  # fmt: skip
"""'each one I don't have', 'every one we miss', 'no one buys': 'one' is a pronoun there, not the number 1."""
_SIGN_RE = re.compile(r"(?<!plus or )(?<!plus-)(?<!plus/)(?<!plus )\b(?:minus|negative)\s+(?=\.?\d)", re.IGNORECASE)
_THOUSANDS_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:k|thousand|grand)\b", re.IGNORECASE)

_HUNDREDS_RE = re.compile(r"(?<![\w.,])(\d{1,2}(?:\.\d+)?)\s?hundreds?\b(?!\s*(?:and\s+)?\d)", re.IGNORECASE)
"""'22 hundred' (how people say 2,200): digits followed by the word."""
_DOZEN_RANGE_RE = re.compile(
    r"(?<![\w.,])(\d{1,3}(?:\.\d+)?)(\s*(?:and|to|or|-)\s*)(\d{1,3}(?:\.\d+)?)\s?dozens?\b(?!\s*(?:and\s+)?\d)",
    re.IGNORECASE,
)
"""'2 to 3 dozen', 'between 2 and 3 dozen': the dozen counts both ends (24 to 36)."""
_DOZENS_RE = re.compile(r"(?<![\w.,])(\d{1,3}(?:\.\d+)?)\s?dozens?\b(?!\s*(?:and\s+)?\d)", re.IGNORECASE)
"""'8 dozen' (digits followed by the word): 96."""
_FRACTION_RE = re.compile(r"(?<![\w./])(?:(\d{1,6})\s+)?(\d{1,2})/(\d{1,2})(?![\w/.])")
_PERCENT_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b|pct\b)", re.IGNORECASE)

_SCIENTIFIC_RE = re.compile(r"(?<![\w.])(?:\d+(?:\.\d+)?|\.\d+)[eE][-+]?\d+")
_LONG_RUN_RE = re.compile(rf"(?<!\d)\d{{{MAX_DIGIT_RUN + 1},}}")

NUMBER_RE = re.compile(
    r"(?<![\w.])[-−–]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)"
    r"|(?<![\w.])[-−–]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
)
"""A number as written: '1,200', '-3', '.5', '2.5e3'. No capturing groups (other patterns embed it)."""


@dataclass(frozen=True)
class Number:
    """A number found in text, with its character span."""

    value: float
    start: int
    end: int


def _read_number(words: list[str], i: int) -> tuple[float, int] | None:
    """Read a number-word phrase starting at words[i]; return (value, index after it) or None."""
    total, current, j, last = 0.0, 0.0, i, ""
    if words[i : i + 3] == ["half", "a", "dozen"]:
        return 6.0, i + 3  # as the one parse reads it
    if words[i] == "half" and i + 1 < len(words) and words[i + 1] in ("a", "an"):
        return 0.5, i + 2
    if words[i : i + 2] == ["another", "dozen"]:
        return 12.0, i + 2  # 'and another dozen in the back'
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
        elif word == "and" and last in ("unit", "tens", "dozen") and nxt == "half":  # 'three dozen and half'
            return total + current + (6 if last == "dozen" else 0.5), j + 2
        elif (
            word == "and"
            and last in ("unit", "tens", "dozen")
            and nxt == "a"
            and j + 2 < len(words)
            and words[j + 2] == "half"
        ):
            if last != "dozen" and words[j + 3 : j + 4] == ["dozen"]:
                return (total + current + 0.5) * 12, j + 4  # 'two and a half dozen' is 30
            return total + current + (6 if last == "dozen" else 0.5), j + 3  # 'a dozen and a half' is 18
        else:
            break
        j += 1
    if last in ("", "a", "and"):
        return None
    return total + current, j


def words_to_digits(text: str) -> str:
    """Replace number words by digits: 'twenty-five' -> '25', 'two and a half' -> '2.5', 'a dozen' -> '12',
    'two fifty' -> '2.5' (a spoken price); 'minus 3' / 'negative three' -> '-3' (a sign, so the validator sees
    it); '1.5k' -> '1500'; '22 hundred' -> '2200'; '8 dozen' -> '96'; '3 and a half dozen' -> '42'; '1 1/2' -> '1.5', '3/4' -> '0.75'."""
    text = _SCIENTIFIC_RE.sub(lambda m: scaled(m.group(0), 1) or m.group(0), text)
    text = _DOZEN_OR_TWO_RE.sub("12 or 24", text)
    text = _WORD_DOZEN_RANGE_RE.sub(lambda m: f"{_UNITS[m.group(1).lower()]}{m.group(2)}{_UNITS[m.group(3).lower()]} dozen", text)
    text = _FRACTION_RE.sub(_fraction, _spell_out(text))
    text = _SIGN_RE.sub("-", text)
    text = _HUNDREDS_RE.sub(lambda m: scaled(m.group(1), 100) or m.group(0), text)
    text = _HALF_DOZENS_RE.sub(lambda m: format_number(int(m.group(1)) * 12 + 6), text)
    text = _DOZEN_RANGE_RE.sub(_dozen_range, text)
    text = _DOZENS_RE.sub(lambda m: scaled(m.group(1), 12) or m.group(0), text)
    return _THOUSANDS_RE.sub(lambda m: scaled(m.group(1), 1000) or m.group(0), text)


_HALF_DOZENS_RE = re.compile(r"(?<![\w.,])(\d{1,3})\s+and\s+a\s+half\s+dozens?\b", re.IGNORECASE)
"""'3 and a half dozen' in digits: 42, as 'three and a half dozen' in words."""
_DOZEN_OR_TWO_RE = re.compile(r"\b(?:a|one) dozen or two\b", re.IGNORECASE)
"""'a dozen or two': one or two dozen (12 or 24), never 12 or 2."""
_SMALL = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_WORD_DOZEN_RANGE_RE = re.compile(rf"\b({_SMALL})(\s+(?:or|to|and)\s+)({_SMALL})\s+dozens?\b", re.IGNORECASE)
"""'two or three dozen' in words: digits first, so that the dozen counts both ends (`_DOZEN_RANGE_RE`)."""


def _dozen_range(m: re.Match[str]) -> str:
    low, high = scaled(m.group(1), 12), scaled(m.group(3), 12)
    return f"{low}{m.group(2)}{high}" if low and high else m.group(0)


def scaled(token: str, factor: int) -> str | None:
    """`token` times `factor`, exactly, as plain digits ('1.5', 1000 -> '1500'; '2.5e3', 1 -> '2500'); None
    when the token cannot be read exactly (see `unreadable_number`), so a caller leaves the text as written.
    The product may exceed the limits: `unreadable_number` then refuses it in the rewritten text."""
    if _problem(token) is not None:
        return None
    product = Decimal(_plain_token(token)) * factor
    rendered = format(product, "f")
    if "." in rendered:
        rendered = rendered.rstrip("0").rstrip(".")
    return "0" if rendered in ("-0", "") else rendered


def _spell_out(text: str) -> str:
    tokens = list(_TOKEN_RE.finditer(text))
    words = [t.group(0).lower() for t in tokens]
    pieces, cursor, i = [], 0, 0
    while i < len(tokens):
        found = _read_number(words, i)
        by_itself = words[i + 1 : i + 3] == ["by", words[i]] or (i >= 2 and words[i - 2 : i] == [words[i], "by"])
        if words[i] == "half" and words[max(0, i - 2) : i] == ["and", "a"]:
            found = None  # 'a case and a half a day': the half ends 'a case and a half', no 'half a day'
        if found is None or by_itself or (  # 'one by one' is a manner, no amount
            words[i] == "one"
            and found[1] == i + 1
            and (_KEEP_ONE.match(text[tokens[i].end() :]) or _pronoun_one(text, tokens, words, i))
        ):
            i += 1
            continue
        value, after = found
        between = text[tokens[i].start() : tokens[after - 1].end()]
        if re.search(r"[^A-Za-z\s-]", between):
            i += 1
            continue
        keep = i + 1 if words[i] == "another" else i  # 'another dozen' -> 'another 12': the sum stays said
        pieces.append(text[cursor : tokens[keep].start()])
        pieces.append(format_number(value))
        cursor, i = tokens[after - 1].end(), after
    pieces.append(text[cursor:])
    return "".join(pieces)


def _pronoun_one(text: str, tokens: list[re.Match[str]], words: list[str], i: int) -> bool:
    """'each one', 'no one', 'a missed one' (a pronoun), but not 'each one-litre bottle' (a size)."""
    ends = not re.match(r"\s*[A-Za-z0-9]", text[tokens[i].end() :])
    nobody = i > 1 and words[i - 2] in _NOBODY  # 'some days nobody buys one'
    before = i > 0 and (words[i - 1] in _PRONOUN_ONE_AFTER or described_one(words, i) or named_one(words, i, ends_clause=ends) or nobody)
    return before and not text[tokens[i].end() :].startswith("-")


def described_one(words: Sequence[str], i: int) -> bool:
    """'a missed one', 'every lost one', 'the broken one': a determiner, one word describing, then 'one' at i,
    the pronoun for a thing already named, never the number 1."""
    return i >= 2 and words[i - 2] in _DESCRIBED_AFTER and words[i - 1].isalpha() and not _number_word(words[i - 1])


_NOBODY = frozenset(["nobody", "noone", "anybody", "anyone", "everybody", "everyone"])


def named_one(words: Sequence[str], i: int, *, ends_clause: bool) -> bool:
    """'the common spin-on one.', 'the big blue one,': 'the' / 'this' / 'that', up to four describing words (hyphens
    between them) and 'one' ending its clause: the pronoun for a thing already named, never the number 1 ('the van
    takes one.' is: a verb stops the describing words)."""
    if not ends_clause:
        return False
    k = i - 1
    while k >= max(0, i - 6) and (words[k] == "-" or words[k].isalpha()):
        if words[k] in ("the", "this", "that"):
            return k < i - 1
        if words[k] in _ONE_VERBS or _number_word(words[k]):
            return False
        k -= 1
    return False


_ONE_VERBS = frozenset(["sell", "sells", "sold", "buy", "buys", "order", "orders", "get", "gets", "need", "needs",
                        "use", "uses", "have", "has", "is", "are", "was", "only", "just", "move", "moves", "take",
                        "takes", "hold", "holds", "fit", "fits", "carry", "carries", "stock", "stocks", "keep", "keeps",
                        "can", "do", "does", "put", "puts", "fill", "fills", "make", "makes", "cost", "costs",
                        "charge", "charges"])  # fmt: skip
"""Verbs that end the describing words before 'one' ('the van takes one.' is a count)."""


def _number_word(word: str) -> bool:
    return word in _UNITS or word in _TENS or word in ("hundred", "thousand", "million", "dozen", "and")


_DESCRIBED_AFTER = frozenset(["a", "an", "each", "every", "the", "that", "this", "any", "no"])


def _fraction(m: re.Match[str]) -> str:
    """A proper fraction (numerator below denominator, so '24/7' stays) as a decimal."""
    whole, num, den = m.group(1), int(m.group(2)), int(m.group(3))
    if not 0 < num < den:
        return m.group(0)
    return format_number((int(whole) if whole else 0) + num / den)


def find_percentages(text: str) -> list[Number]:
    """Percentages ('20%', '15 percent') as fractions: 0.2, 0.15 (one not readable exactly is skipped)."""
    found = []
    for m in _PERCENT_RE.finditer(text):
        value = read_number(m.group(1))
        if value is not None:
            found.append(Number(value / 100, m.start(), m.end()))
    return found


def _plain_token(token: str) -> str:
    """The token without thousands separators and with an ASCII sign."""
    return token.replace(",", "").replace("−", "-").replace("–", "-")


def _problem(token: str) -> str | None:
    """Why a numeric token (as `NUMBER_RE` finds it) cannot be read exactly as a float, or None. Linear in
    the token's length, whatever it holds."""
    body = _plain_token(token).lstrip("-+")
    mantissa, _, exponent = body.lower().partition("e")
    exponent = exponent.lstrip("+")
    negative_exponent = exponent.startswith("-")
    exponent = exponent.lstrip("-").lstrip("0")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).strip("0")
    if len(digits) > MAX_SIGNIFICANT_DIGITS:
        return (
            f"it has {len(digits):,} significant digits, and I read numbers exactly only up to "
            f"{MAX_SIGNIFICANT_DIGITS} digits; please round it"
        )
    if not digits:
        return None
    too_large = f"it is too large: I read numbers below {MAX_MAGNITUDE:,}"
    too_small = f"it is too close to zero: I read numbers other than 0 from 1e{MIN_MAGNITUDE_EXPONENT} up"
    if len(exponent) > _MAX_EXPONENT_DIGITS:
        return too_small if negative_exponent else too_large
    leading = whole.lstrip("0")
    magnitude = len(leading) - 1 if leading else -(len(fraction) - len(fraction.lstrip("0")) + 1)
    magnitude += (-1 if negative_exponent else 1) * int(exponent or 0)
    if magnitude >= MAX_MAGNITUDE_EXPONENT:
        return too_large
    if magnitude < MIN_MAGNITUDE_EXPONENT:
        return too_small
    return None


def read_number(token: str) -> float | None:
    """The value of one numeric token such as '1,200', '-3', '.5' or '2.5e3'; None when it cannot be read
    exactly (too many significant digits, too large, too close to zero). Never raises on a `NUMBER_RE`
    match."""
    if _problem(token) is not None:
        return None
    return float(_plain_token(token))


def parse_number(token: str) -> float:
    """The value of one numeric token such as '1,200', '-3' or '.5' (NaN when it cannot be read exactly, so it
    compares unequal to everything; `read_number` says None instead)."""
    value = read_number(token)
    return math.nan if value is None else value


PRODUCT_CODE_RE = re.compile(r"\b\d+(?![eE]-)[A-Za-z]+-\d+[A-Za-z]*\b|\b\d+(?:\.\d+)?\s?(?i:iu|mg|mcg)\b")
"""A product code ('5W-30' motor oil, '10W-40') or a strength ('vitamin D3 1000 IU', 'the 500mg tablets'): part of
a name, never a number of items (the parse reads it as one word); '4e-2' is a number."""


def find_numbers(text: str) -> list[Number]:
    """All numbers in `text` (digits only; run `words_to_digits` first), in order. A number that cannot be
    read exactly is skipped, never read as another value; `unreadable_number` names it. Numbers inside a
    product code (`PRODUCT_CODE_RE`) are no values."""
    found = []
    codes, k = [c.span() for c in PRODUCT_CODE_RE.finditer(text)], 0
    for m in NUMBER_RE.finditer(text):
        while k < len(codes) and codes[k][1] <= m.start():
            k += 1
        if k < len(codes) and codes[k][0] <= m.start():
            continue
        value = read_number(m.group(0))
        if value is not None:
            found.append(Number(value, m.start(), m.end()))
    return found


@dataclass(frozen=True)
class UnreadableNumber:
    """A number in a message that cannot be read exactly: its text (shortened when long) and why; `message`
    is the refusal the chats answer with."""

    text: str
    reason: str

    @property
    def message(self) -> str:
        return f"I can't read the number '{self.text}': {self.reason}."


def _shown(token: str) -> str:
    return token if len(token) <= 24 else f"{token[:10]}…{token[-6:]} ({len(token):,} characters)"


def unreadable_number(text: str) -> UnreadableNumber | None:
    """The first number in `text` that ORCA cannot read exactly, or None: a run of more than `MAX_DIGIT_RUN`
    digits anywhere, then any number (as written, or after `words_to_digits`: '2e20', '999999999999999k')
    with too many significant digits or a magnitude out of range. Linear in the text length: the chats call
    it before any other reading, so a hostile line never reaches the slower readers."""
    run = _LONG_RUN_RE.search(text)
    if run is not None:
        return UnreadableNumber(
            _shown(run.group(0)),
            f"a run of {len(run.group(0)):,} digits is longer than any number I read "
            f"(at most {MAX_SIGNIFICANT_DIGITS} significant digits)",
        )
    for source in (text, words_to_digits(text)):
        for m in NUMBER_RE.finditer(source):
            reason = _problem(m.group(0))
            if reason is not None:
                return UnreadableNumber(_shown(m.group(0)), reason)
    return None


def format_number(value: float, places: int = 4) -> str:
    """A short canonical rendering: integers without a decimal point, others rounded to `places` (infinities
    and NaN as Python writes them: a rendering, never raised)."""
    if not math.isfinite(value):
        return str(float(value))
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
