"""Issue 25: numbers in messages are read exactly or refused by name, never read as another value and never
overflowing: scientific notation ('2.5e3') is read as its value, '1e308' or a 23-digit number is refused, and
no reader of the toolkit raises on any text up to the chat line cap."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.cli_args import MAX_LINE_CHARS
from core.text.corrections import settle
from core.text.numbers import (
    MAX_SIGNIFICANT_DIGITS,
    NUMBER_RE,
    find_numbers,
    find_percentages,
    format_number,
    read_number,
    unreadable_number,
    words_to_digits,
)
from core.text.ranges import split_range
from core.text.units import find_durations, find_money, hours_as_minutes, join_halves, spoken_money


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("2.5e3 units", [2500.0]),
        ("1E3 and 4e-2", [1000.0, 0.04]),
        ("999,999,999,999,999 units", [999_999_999_999_999.0]),
        ("0.000000000000001", [1e-15]),
        ("1,200 and .5", [1200.0, 0.5]),
    ],
)
def test_numbers_within_the_limits_are_read_exactly(text: str, values: list[float]) -> None:
    assert [n.value for n in find_numbers(text)] == values
    assert unreadable_number(text) is None


@pytest.mark.parametrize(
    ("text", "shown", "reason"),
    [
        ("demand is 1e308 a day", "1e308", "too large"),
        ("1e-400 dollars", "1e-400", "too close to zero"),
        ("12345678901234567890123 units", "12345678901234567890123", "23 significant digits"),
        ("$0.1234567890123456", "0.1234567890123456", "16 significant digits"),
        ("1,000,000,000,000,000 units", "1,000,000,000,000,000", "too large"),
        ("999999999999999k a year", "999999999999999000", "too large"),
        ("1" * 1_000, "1111111111…111111 (1,000 characters)", "a run of 1,000 digits"),
        ("sku" + "7" * 40, "7777777777…777777 (40 characters)", "a run of 40 digits"),
    ],
)
def test_numbers_that_cannot_be_read_exactly_are_refused_by_name(text: str, shown: str, reason: str) -> None:
    found = unreadable_number(text)
    assert found is not None and found.text == shown and reason in found.reason
    assert shown.split("…")[0] in found.message
    assert all(math.isfinite(n.value) for n in find_numbers(words_to_digits(text)))


def test_an_unreadable_number_is_skipped_never_read_as_another_value() -> None:
    assert find_numbers("1e308") == [] and find_numbers("12345678901234567890123") == []
    assert read_number("1e308") is None and read_number("1" * 8_000) is None
    assert words_to_digits("1e308 and 2.5e3") == "1e308 and 2500"
    assert find_money("$1e308") == [] and find_durations("1e400 days") == []
    assert find_percentages("12345678901234567890% off") == []
    assert hours_as_minutes("1e308 hours") == "1e308 hours" and hours_as_minutes("1.5 hours") == "90 minutes"


def _significant(token: str) -> int:
    """Significant digits of a numeric token as written ('0.0120e5' has 2)."""
    mantissa = token.lower().split("e")[0]
    return len("".join(c for c in mantissa if c.isdigit()).strip("0"))


_NUMBERISH = st.text(alphabet="0123456789.,eE-+ k%$/", min_size=0, max_size=MAX_LINE_CHARS)
_WORDS = st.lists(
    st.sampled_from(["1e308", "2.5e3", "9" * 40, "1,000", "k", "hundred", "dozen", "days", "hours", "$", "%",
                     "not", "sorry", "and a half", "dollars", "1/2", "-", "e", "0.", ".5", " "]),
    max_size=400,
).map(" ".join)  # fmt: skip


_AT_THE_CAP = [
    "1" * MAX_LINE_CHARS,
    "9" * (MAX_LINE_CHARS - 1) + "k",
    "0." + "0" * (MAX_LINE_CHARS - 3) + "1",
    "1e" + "9" * (MAX_LINE_CHARS - 2),
    "1," * (MAX_LINE_CHARS // 2),
    "1,000" * (MAX_LINE_CHARS // 5),
    "$" + "9" * 400 + " and a half days, " + "9" * 400 + " hours, " + "9" * 400 + "%",
]


@settings(derandomize=True, deadline=None, max_examples=120)
@given(st.one_of(_NUMBERISH, _WORDS, st.text(max_size=MAX_LINE_CHARS)))
@example(_AT_THE_CAP[0])
@example(_AT_THE_CAP[1])
@example(_AT_THE_CAP[2])
@example(_AT_THE_CAP[3])
@example(_AT_THE_CAP[4])
@example(_AT_THE_CAP[5])
@example(_AT_THE_CAP[6])
def test_number_reading_never_raises_and_only_reads_exact_values(text: str) -> None:
    """Whatever the text (up to the line cap), every reader returns; every value it reads is finite and is
    the token's value to the last digit."""
    unreadable_number(text)
    for source in (text, words_to_digits(text)):
        for number in find_numbers(source):
            token = source[number.start : number.end]
            assert math.isfinite(number.value) and _significant(token) <= MAX_SIGNIFICANT_DIGITS
            assert number.value == float(token.replace(",", "").replace("−", "-").replace("–", "-"))
        find_percentages(source)
        find_money(source)
        find_durations(source)
        join_halves(source)
        spoken_money(source)
        hours_as_minutes(source)
        split_range(source)
        settle(source)
    for m in NUMBER_RE.finditer(text):
        value = read_number(m.group(0))
        assert value is None or math.isfinite(value)
        format_number(value if value is not None else math.inf)


def test_a_corrected_value_is_matched_only_from_the_start_of_a_number() -> None:
    """The repair pattern ('3, sorry, 4') starts only where a number starts: a chain of n numbers such as
    '1,1,1,...' (or a run of digits) is tried once, in linear time, not once from each of its n digits."""
    from core.text.corrections import _REPAIR

    text = "12,5, sorry, 3"
    assert _REPAIR.match(text, 0) is not None
    assert [_REPAIR.match(text, start) for start in (1, 3)] == [None, None]
    assert settle(text).text == " 3"
