"""Small text readers for the offline agent: school mentions, clock times, limits and intent cues.

Deterministic regular expressions, no model. Each function reads one kind of thing from a
lower-cased clause so the policy in `offline.py` can stay a readable list of rules.
"""

from __future__ import annotations

import re

from core.schedule.state import school_aliases
from solvers.schedule.data import District

LOAD_WORDS = re.compile(
    r"kids|students|children|peak|crowd|rush|load|buses|\bbus\b|arriv|congest|transport|cost|cheap|expens|"
    r"money|budget|at once|same time|pile|fleet|drivers"
)
DEVIATION_WORDS = re.compile(
    r"disrupt|chang|shift|deviation|moved|moving|stabil|stable|used to|adjust|familiar|upheaval|reshuffl|churn"
)
REDUCE_WORDS = re.compile(
    r"fewer|less|lower|reduc|smaller|smooth|spread|down|\bcut|minimi|decreas|not so many|too many|too much|"
    r"too high|gentler|cheaper|save|ease up on|calmer|flatten|even out|limit|under|below"
)
LIMIT_WORDS = re.compile(
    r"under|below|at most|no more than|max|cap|limit|within|less than|fewer than|<|up to|not exceed|keep|"
    r"get (it|that|the \w+( \w+)?) to|bring|target"
)
NUMBER = re.compile(r"(?<![\d:])(\d[\d,]*(?:\.\d+)?)")
TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))\s*(a\.?m\.?|p\.?m\.?)?|\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)")
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "first": 1, "second": 2, "third": 3}


def mentioned_schools(text: str, district: District) -> list[tuple[int, str]]:
    """(position, school) for each school named in the text, in order of appearance."""
    low = text.lower()
    found: dict[str, int] = {}
    taken: list[tuple[int, int]] = []
    for alias, school in sorted(school_aliases(district).items(), key=lambda kv: -len(kv[0])):
        for match in re.finditer(rf"(?<![a-z]){re.escape(alias)}(?![a-z])", low):
            span = match.span()
            if any(a < span[1] and span[0] < b for a, b in taken):
                continue
            taken.append(span)
            found.setdefault(school, span[0])
            found[school] = min(found[school], span[0])
    return sorted((pos, school) for school, pos in found.items())


def clock_times(text: str) -> list[tuple[int, int]]:
    """(position, minutes) of clock times like '8:40', '9:30 am', '8am' (morning assumed without a suffix)."""
    out = []
    for match in TIME.finditer(text.lower()):
        hour = int(match.group(1) or match.group(4))
        minute = int(match.group(2) or 0)
        suffix = (match.group(3) or match.group(5) or "").replace(".", "")
        if hour > 23 or minute > 59:
            continue
        if suffix == "pm" and hour < 12:
            hour += 12
        out.append((match.start(), hour * 60 + minute))
    return out


def limit_value(text: str) -> float | None:
    """The first number in a clause that uses a limit word ('under 2,100', 'cap ... at 24.6'), clock times ignored."""
    stripped = TIME.sub(" ", text.lower())
    if not LIMIT_WORDS.search(stripped):
        return None
    match = NUMBER.search(stripped)
    return float(match.group(1).replace(",", "")) if match else None


def ordinal(text: str) -> int | None:
    """'option 2', 'the second one', 'option #3' -> 2 / 2 / 3."""
    match = re.search(
        r"(?:option|alternative|choice|schedule|number|#)\s*#?\s*(\d|one|two|three|four|five)\b", text
    )
    if match:
        token = match.group(1)
        return int(token) if token.isdigit() else _NUMBER_WORDS[token]
    match = re.search(r"\b(first|second|third)\b (?:one|option|alternative|choice)", text)
    return _NUMBER_WORDS[match.group(1)] if match else None


def split_clauses(text: str) -> list[str]:
    """Split a message into clauses on sentence ends, semicolons, 'and', 'but', 'also'."""
    parts = re.split(r"[.;!?]+(?=\s|$)\s*|\n+|,?\s+\b(?:and|but|also|plus|while)\b\s+", text.lower())
    return [p.strip() for p in parts if p and p.strip()]
