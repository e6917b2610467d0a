"""Spans given as two weekdays ('I order on a Monday and it comes the following Monday' is 7 days, 'order
Tuesday, here Thursday' is 2): the days from the first weekday named to the second."""

from __future__ import annotations

import re
from dataclasses import dataclass

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The days of the week in order (counting a span such as 'Monday to Friday')."""
_WEEKDAY_RE = re.compile(
    r"\b(?:(?:the\s+)?(?:following|next)\s+)?(?P<day>"
    + "|".join(DAYS)
    + r")(?P<plural>s)?\b(?:\s+after\b)?",
    re.IGNORECASE,
)
_JOINED_RE = re.compile(r"^\W*(?:-|to|through|thru|till|til|until|and|or|&)?\W*$", re.IGNORECASE)
"""Two weekdays joined like this are a list or opening hours ('Monday to Friday', 'Monday, Thursday')."""
_HABIT_RE = re.compile(r"\b(?:every|each)\s+$", re.IGNORECASE)
"""'every Monday': a routine, not the day one order was placed."""


@dataclass(frozen=True)
class WeekdayGap:
    """The second weekday of a pair (`start`, `end`: its words in the text) and the days since the first."""

    start: int
    end: int
    days: int


def weekday_gap(text: str) -> WeekdayGap | None:
    """The gap when the text names exactly two single weekdays, the day something starts and then the day it
    ends; None for lists, ranges, routines ('every Monday', 'Mondays') or any other number of weekdays. The
    same weekday twice ('the following Monday') is a week later."""
    found = list(_WEEKDAY_RE.finditer(text))
    if len(found) != 2 or any(m["plural"] for m in found):
        return None
    first, second = found
    if _JOINED_RE.match(text[first.end() : second.start()]):
        return None
    if any(_HABIT_RE.search(text[: m.start()]) for m in found):
        return None
    days = (DAYS.index(second["day"].lower()) - DAYS.index(first["day"].lower())) % 7
    return WeekdayGap(second.start(), second.end(), days or 7)
