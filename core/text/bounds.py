"""How a clock time is meant by the words beside it: asked for, refused, a bound, where it is now, or one of two.

`clock_relations(text, spans)` gives each clock time of a text its relation (`ClockRelation`), from the words
between it and the time before and the words right after it. The one parse (`core.text.mentions.parse`) stores
it as the `role` of each `CLOCK` mention, so readers never re-read the text around a time:

- `at`: the time asked for ('Lick at 8:40', 'make it 8:40'); `to`: the end of a move ('from 7:50 to 9:30');
- `or`: asked for as the second of two ('8:40 or 9:30 is fine');
- `not_at`: refused ('instead of 7:50', 'keep X off the 7:50 slot', '7:50 is too early', "can't start at 7:50
  or 8:40": a time coordinated with a refused one is refused too);
- `from`: where it is now ('from 7:50 to 9:30');
- bounds: `after` (later, the time excluded: 'after 8:40', 'later than 8:40'), `before` ('before 8:40'),
  `not_before` (the time or later: '8:40 or later', 'not before 8:40', 'the earliest Lick can start is 8:40'),
  `not_after` (the time or earlier: 'by 8:40', 'until 8:40', '9:30 or earlier', 'not after 9:30').
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from core.text.negation import negated_at


class ClockRelation(StrEnum):
    """What the words beside a clock time make of it (the `role` of a `CLOCK` mention)."""

    AT = "at"
    TO = "to"
    OR = "or"
    NOT_AT = "not_at"
    FROM = "from"
    AFTER = "after"
    BEFORE = "before"
    NOT_BEFORE = "not_before"
    NOT_AFTER = "not_after"


BOUNDS = frozenset([ClockRelation.AFTER, ClockRelation.BEFORE, ClockRelation.NOT_BEFORE, ClockRelation.NOT_AFTER])
WANTED = frozenset([ClockRelation.AT, ClockRelation.TO, ClockRelation.OR])

_BOUND_BEFORE = re.compile(
    r"\b(before|after|past|earlier than|later than|by|until|till)\s+(?:about\s+|around\s+)?$"
    r"|\b(earlier than|later than)\s+the\s+$",
    re.I,
)
"""A bound word right before a time ('no earlier than 8:40', 'by ten to eight', 'start past 8:40', 'earlier than the
9:30 it starts now'; 'half past eight' is one clock time, whose 'past' stands inside it)."""
_EXTREME_IS = re.compile(
    r"\b(earliest|latest)\b[^.;:]{0,50}?\b(?:is|would be|should be|can be|could be)\s+(?:at\s+)?$", re.I
)
"""'The earliest Lawton can start is 8:40', 'the latest Muir should start is 8:40'."""
_OR_SIDE = re.compile(r"\s*(?:or|and)\s+(later|after|earlier|before|sooner)\b", re.I)
"""An inclusive bound right after a time ('9:30 or later')."""
_REFUSED_AFTER = re.compile(
    r"\s*(?:am|a\.m\.)?\s*,?\s*(?:start|slot|bell)?\s*(?:is|'s|would be|will be)?\s*(?:off the table|out\b|a no-?go|"
    r"no good|not (?:an option|possible|ok|okay|good|great|acceptable|going to work)|too (?:early|late)|"
    r"(?:doesn'?t|does not|won'?t|will not|wouldn'?t|can'?t) work|unacceptable|impossible|a non-?starter|"
    r"out of the question|not happening|not workable|a problem)",
    re.I,
)
"""Words after a time (or a named slot) that refuse it ('7:50 is too early', 'the early slot is off the table')."""
_OFF_BEFORE = re.compile(
    r"\b(?:off|out of)\s+(?:the\s+)?(?:(?:early|earliest|late|latest|first|second|third|middle|last|morning)\s+)?$",
    re.I,
)
"""'keep Everett off the 7:50 slot', 'out of the 9:30 bell', 'off the early 7:50 start'."""
_COORDINATED = re.compile(r"\s*(?:,\s*)?(?:or|and|nor|,)\s*(?:at\s+)?", re.I)
"""Between two times, words that give the second the first one's polarity ("can't start at 7:50 or 8:40")."""
_EITHER = re.compile(r"\s*,?\s*or\b", re.I)
_ORIGIN = re.compile(r"(?<!away )\bfrom\s+$", re.I)
_TO = re.compile(r"\s*to\s+", re.I)
_WINDOW = 100
"""How far before a time a bound may start ('the earliest ... is' spans at most about 75 characters)."""


def refused_after(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether the words from `start` (up to `end`) refuse what stands right before them ('is too early', 'is off
    the table', "won't work")."""
    return bool(_REFUSED_AFTER.match(text, start, len(text) if end is None else end))


def denies(window: str) -> bool:
    """Whether the words leading up to a time or a direction negate or exclude it ('Lick not ', 'instead of ',
    'none ', a bare 'no ' as in 'no 7:50 start'; not 'why not move Lick ' nor the reply 'no, 7:50')."""
    low = window.lower()
    if negated_at(low, len(low), exclusions=True):
        return True
    stripped = low.rstrip()
    before = stripped[:-2]
    return low[-1:].isspace() and stripped.endswith("no") and not (before[-1:].isalnum() or before[-1:] in (",", "_"))


def _bound(text: str, previous_end: int, start: int, end: int) -> ClockRelation | None:
    """The bound a time is given by the words before it ('after 8:40', 'the earliest ... is 8:40') or right after
    it ('9:30 or later'); a negation before the bound turns it round and includes the time."""
    low = max(previous_end, start - _WINDOW)
    extreme = _EXTREME_IS.search(text, low, start)
    before = None if extreme else _BOUND_BEFORE.search(text, max(low, start - 40), start)
    after = None if extreme or before else _OR_SIDE.match(text, end, end + 40)
    if extreme:
        later, at, exclusive = extreme.group(1).lower() == "earliest", extreme.start(), False
    elif before:
        word = (before.group(1) or before.group(2)).lower()
        later, at, exclusive = word in ("after", "past", "later than"), before.start(), word not in ("by", "until", "till")
    elif after:
        later, at, exclusive = after.group(1).lower() in ("later", "after"), start, False
    else:
        return None
    denied = denies(text[previous_end:at])
    later, strict = later != denied, exclusive and not denied
    if strict:
        return ClockRelation.AFTER if later else ClockRelation.BEFORE
    return ClockRelation.NOT_BEFORE if later else ClockRelation.NOT_AFTER


def clock_relations(text: str, spans: Sequence[tuple[int, int]]) -> list[ClockRelation]:
    """The relation of each clock time (spans in text order) to what the text asks (module docstring)."""
    relations: list[ClockRelation] = []
    previous_end, refused = 0, False
    for i, (start, end) in enumerate(spans):
        lead = text[previous_end:start]
        relation = ClockRelation.AT
        coordinated = i > 0 and _COORDINATED.fullmatch(lead) is not None
        if not coordinated:
            tail_end = min(spans[i + 1][0] if i + 1 < len(spans) else len(text), end + _WINDOW)
            refused = denies(lead) or bool(_OFF_BEFORE.search(lead)) or refused_after(text, end, tail_end)
        if refused:
            relation = ClockRelation.NOT_AT
        elif coordinated and _EITHER.match(lead):
            relation = ClockRelation.OR
        elif i > 0 and relations[-1] is ClockRelation.FROM and _TO.fullmatch(lead):
            relation = ClockRelation.TO
        if _ORIGIN.search(lead):
            relation = ClockRelation.FROM
        relations.append(_bound(text, previous_end, start, end) or relation)
        previous_end = end
    return relations
