"""Two weekdays as a span: the days from the first to the second, and the lists, ranges and routines that are
no span."""

from __future__ import annotations

import pytest

from core.text.weekdays import weekday_gap


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("I order on a Monday and they arrive the following Monday", 7),
        ("order Tuesday, here Thursday", 2),
        ("we order on friday and it shows up tuesday", 4),
        ("I order Friday and they come the Tuesday after", 4),
        ("put it in on Wednesday, lands next Wednesday", 7),
        ("SUNDAY order, MONDAY delivery", 1),
    ],
)
def test_two_weekdays_are_a_span(text: str, days: int) -> None:
    gap = weekday_gap(text)
    assert gap is not None and gap.days == days
    assert text[gap.start : gap.end].lower().split()[-1].rstrip(".") in {
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "after",
    }  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "we're open Monday to Friday",
        "deliveries come Monday and Thursday",
        "every Monday we order, every Thursday it comes",
        "on Mondays we order and it comes Thursday",
        "Monday, Wednesday, Friday",
        "the truck comes on Tuesday",
        "Monday through Saturday",
    ],
)
def test_lists_ranges_and_routines_are_no_span(text: str) -> None:
    assert weekday_gap(text) is None

