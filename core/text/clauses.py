"""Clause splitting: sentence ends, semicolons, line breaks and joining words ('and', 'but', ...), with
ranges ('between 10 and 20'), 'anything but' and parentheses kept whole. One pass over the text, linear in its length."""

from __future__ import annotations

import re

_JOINERS = ("and", "but", "while", "whereas", "although", "though", "also", "plus")
_EXCEPT_RE = re.compile(r"\b(?:anything|everything|nothing|all)$", re.I)
"""'anything but 7:50' is one exclusion, not two clauses."""
_SCALE_TAIL_RE = re.compile(r"\b(?:hundred|thousand)$", re.I)
_NUMBER_HEAD_RE = re.compile(
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|"
    r"sixty|seventy|eighty|ninety)\b",
    re.I,
)
"""'twenty-one hundred and fifty' is one number, not two clauses."""
_PAIRS = frozenset([("up", "down"), ("ups", "downs"), ("back", "forth"), ("on", "off"), ("now", "then"),
                    ("here", "there")])
"""'it goes up and down', 'on and off': one expression, never two clauses."""
_FRACTION_RE = re.compile(r"(?:a|one)\s+(?:half|quarter|third)\b", re.I)
_NUMBER_END_RE = re.compile(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen))$", re.I)
"""'4 and a half bucks', 'two and a half dozen': one number, never two clauses."""
_RANGE_TAIL_RE = re.compile(
    r"(?:between|from)\s+\$?[\d.]{1,20}\s*(?:units?|dollars?|days?|weeks?)?\s*$", re.I
)


def _split_re(joiners: tuple[str, ...], commas: bool) -> re.Pattern[str]:
    words = "|".join(joiners)
    comma = r"|,(?!\d{3}\b)" if commas else r"|,\s*(?=(?:" + words + r")\b)"
    return re.compile(rf"(?<!\s)\s+(?:{words})\s+|[;!?\n]|\.(?=\s|$){comma}", re.I)


_SPLITTERS: dict[tuple[tuple[str, ...], bool], re.Pattern[str]] = {}


def split_clauses(text: str, *, commas: bool = True, joiners: tuple[str, ...] = _JOINERS) -> list[str]:
    """The clauses of a message, stripped, in order. With `commas`, a comma ends a clause too (not the
    thousands separator of '1,200')."""
    splitter = _SPLITTERS.setdefault((joiners, commas), _split_re(joiners, commas))
    out, start, depth_at = [], 0, _paren_depths(text)
    for m in splitter.finditer(text):
        joiner = m.group(0).strip().lower()
        if (
            depth_at[m.start()] > 0
            or (joiner == "and" and _RANGE_TAIL_RE.search(text[max(start, m.start() - 40) : m.start()]))
            or (joiner == "and" and _paired(text, m.start(), m.end()))
            or (joiner == "and" and _fraction(text, m.start(), m.end()))
            or (joiner == "but" and _EXCEPT_RE.search(text, max(start, m.start() - 12), m.start()))
            or (
                joiner == "and"
                and _SCALE_TAIL_RE.search(text, max(0, m.start() - 8), m.start())
                and _NUMBER_HEAD_RE.match(text, m.end())
            )
        ):
            continue
        out.append(text[start : m.start()])
        start = m.end()
    out.append(text[start:])
    return [c.strip() for c in out if c.strip()]


def _fraction(text: str, start: int, end: int) -> bool:
    """Whether the 'and' at start..end joins a number and its fraction ('4 and a half bucks'), read in a bounded
    window on either side."""
    return bool(_FRACTION_RE.match(text, end, end + 16) and _NUMBER_END_RE.search(text, max(0, start - 8), start))


def _paired(text: str, start: int, end: int) -> bool:
    """Whether the 'and' between `start` and `end` joins a fixed pair ('up and down', 'back and forth')."""
    left = text[max(0, start - 8) : start].lower().split()
    right = text[end : end + 8].lower().split()
    return bool(left and right) and (left[-1], right[0].strip(".,;:!?")) in _PAIRS


def _paren_depths(text: str) -> list[int]:
    depth, depths = 0, []
    for ch in text:
        depth += ch == "("
        depths.append(depth)
        depth -= ch == ")" and depth > 0
    return depths
