"""Negation and correction scope: which of several stated values the speaker means.

"not X, it's Y", "X, sorry, Y", "X - no wait - Y", "used to be X, now Y" and "was X but now it's Y" all mean
Y; `settle` rewrites the text so that only Y is left, and reports that a correction happened (so an agent
may overwrite a value it already holds). A negated value with no replacement ("not 5 days! 5pm is the
cutoff") is removed too: what a user denies is never read as a value. Runs after `words_to_digits`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.text.negation import DENIAL

_UNIT = (
    r"(?:\s?(?:business\s)?(?:days?|weeks?|months?|years?|units?|items?|pieces?|dollars?|bucks?|cents?|euros?"
    r"|pounds?|a\.?m\.?|p\.?m\.?|hours?|minutes?|mins?|students?|kids?)\b)?"
)
_VALUE = rf"(?:[$€£]\s?)?-?(?<![\d.,:])\d+(?:[.,:]\d+)*{_UNIT}"
"""A value as said: it starts at the start of a number, never inside one (so a long run of digits or of
'1,1,1,...' is tried once, in linear time, not from each of its digits)."""
_NEXT_VALUE = r"(?=\s{0,3}(?:[$€£]\s?)?-?\.?\d)"
_NEGATED = re.compile(
    rf"\b{DENIAL}\s+(?:really\s+|exactly\s+|quite\s+)?{_VALUE}(?![\d%])\s*[,;!.]*\s*(?:-+\s*)?"
    r"(?:(?:but|rather|it'?s|it is|they'?re|they are|more like|make it|closer to|instead)\s+){0,2}",
    re.IGNORECASE,
)
_FORMER = re.compile(
    rf"\b(?:used to be|was|were|had been|it was)\s+(?:about\s+|around\s+)?{_VALUE}\s*[,;.]?\s*"
    r"(?:(?:but|and)\s+)?(?=(?:now|these days|nowadays|today|currently|at the moment)\b)",
    re.IGNORECASE,
)
_REPAIR = re.compile(
    rf"{_VALUE}(?:\s+(?:i guess|i think|maybe|probably|or so)|\s+(?:for|to|in|on|at|an?|per)(?:\s+(?!(?:days?|weeks?|months?|years?)\b)[a-z0-9']+){{1,3}}(?=\s*[,;.!]))?\s*[,;.!]?\s*(?:-+\s*)?(?:(?:oh|ah|uh|um|er)\s*,?\s*)?(?:(?:sorry|no|nope|wait|oops|whoops|i mean|i meant|or rather|rather|"
    r"correction|scratch that|make (?:that|it)|actually|my bad|my mistake|typo)\s*[,;:!.]*\s*(?:-+\s*)?){1,3}"
    r"(?:[^\d$€£.!?]{0,60}?\b(?:it'?s|it is|they'?re|that'?s|more like|now|to)\s+)?"  # 'no wait, they changed the
    rf"(?:{_NEXT_VALUE}|(?=free\b))",  # route, it's 4 now': a short remark before the value meant ('it's free')
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Settled:
    """The text with denied and superseded values removed; `dropped` lists what was removed."""

    text: str
    dropped: tuple[str, ...] = ()

    @property
    def corrected(self) -> bool:
        return bool(self.dropped)


def settle(text: str) -> Settled:
    """Keep only the value the speaker ends up meaning (see the module docstring)."""
    dropped: list[str] = []

    def drop(m: re.Match[str]) -> str:
        dropped.append(m.group(0).strip())
        return " " + _UNIT_MARK + (_unit_of(m.group(0)) or "") + _UNIT_MARK

    for pattern in (_FORMER, _REPAIR, _NEGATED):
        text = pattern.sub(drop, text)
    return Settled(re.sub(r"  +", " ", _carry_units(text)), tuple(dropped))


_UNIT_MARK = "\x00"
_MARKED_RE = re.compile(
    rf"{_UNIT_MARK}([^{_UNIT_MARK}]*){_UNIT_MARK}(\s*(?:[$€£]\s?)?-?\d+(?:\.\d+)?)(?![\d.]|\s?[A-Za-z%$])"
)


def _unit_of(value: str) -> str | None:
    """The unit word of a dropped value ('3 days' -> 'days'), if it has one."""
    found = re.search(r"\d(\s?(?:business\s)?[a-z.]+)\b", value, re.IGNORECASE)
    if found and re.fullmatch(_UNIT, found.group(1), re.IGNORECASE):
        return found.group(1).strip()
    return None


def _carry_units(text: str) -> str:
    """'not 2 days, it's 3' means 3 days: a bare replacement takes the dropped value's unit."""
    text = _MARKED_RE.sub(lambda m: f"{m.group(2)} {m.group(1)}" if m.group(1) else m.group(2), text)
    return re.sub(rf"{_UNIT_MARK}[^{_UNIT_MARK}]*{_UNIT_MARK}", "", text)


_MARKER_RE = re.compile(
    r"\bactually\b|\bcorrection\b|\bsorry\b|\bi meant\b|\bmake (?:that|it)\b|\bchange (?:that|it|the)\b|\binstead\b|"
    r"\bupdate (?:that|it|the)\b|\bscratch that\b|\bmy (?:bad|mistake)\b|\bi misspoke\b|\bon second thought\b|"
    r"\blet me correct\b|\bnot \S+,? but\b|\bwait,|^\s*no,|\b(?:w?hoops|oops|typo)\b|\bi mean\b|"
    r"\bthat'?s (?:wrong|not right|incorrect)\b|\b(?:that|it) (?:is|was) (?:wrong|incorrect)\b",
    re.IGNORECASE,
)
_RECALL_RE = re.compile(
    r"\bi meant\b|\bi mean\b|\b(?:w?hoops|oops|typo)\b|\bmake (?:that|it)\b|\bscratch that\b|\bmy (?:bad|mistake)\b|"
    r"\bi misspoke\b|\bcorrection\b|\bchange (?:that|it)\b|\bthat'?s (?:wrong|not right|incorrect)\b|"
    r"\b(?:that|it) (?:is|was) (?:wrong|incorrect)\b",
    re.IGNORECASE,
)


def is_correction(text: str) -> bool:
    """Whether a message corrects something ('actually', 'sorry', 'that's wrong, it's 60', 'make that 5'): an
    agent then overwrites a value it holds instead of raising a conflict."""
    return bool(_MARKER_RE.search(text))


def recalls(text: str) -> bool:
    """Whether a message takes back the speaker's own last answer ('oops, 4', 'I meant 5', 'make that 3'):
    a bare value then fixes the answer given last, not the row asked next."""
    return bool(_RECALL_RE.search(text))
