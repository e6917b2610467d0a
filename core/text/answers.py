"""Short answers to the agent's own questions: yes / no / unsure, "skip" or "use a default", and which
option of a multiple-choice question a reply picks ("ok A I guess", "B obviously", "the second one", "c")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from core.text.negation import HEDGE, strip_denied


class Polarity(Enum):
    """A short answer's direction."""

    YES = "yes"
    NO = "no"
    UNSURE = "unsure"


_ECHO = r"^\W*(?:[a-z'-]+\?\s+)?"
"""A one-word echo of the question before the answer ('screws? no lol', 'bread? yes')."""
_YES_RE = re.compile(
    _ECHO + r"(?:yes|yeah|yea|yep|yup|sure|ok(?:ay)?|correct|right|exactly|definitely|absolutely|of course|please do|"
    r"do it|go ahead|sounds good|that'?s right|that works|they do|it does|indeed|affirmative|certainly|true)\b",
    re.I,
)
_NO_RE = re.compile(
    _ECHO + r"(?:no|nope|nah|not really|no thanks|no thank you|don'?t|never|negative|not at all|they don'?t|"
    r"it doesn'?t|none|false)\b",
    re.I,
)
_UNSURE_RE = re.compile(
    rf"\b(?:{HEDGE}|unsure|dunno|hard to say|maybe|perhaps|i guess not|who knows)\b", re.I
)
_SKIP_RE = re.compile(
    r"\b(?:skip(?: it| this| that)?|pass|use (?:a|the|your) default|(?:the )?default (?:is )?(?:fine|ok|okay)|"
    r"go with (?:a|the|your) default|whatever you (?:think|suggest|recommend)|you (?:decide|choose|pick)|"
    r"up to you|any (?:value|number) is fine|just assume|assume something|make (?:something|it) up|"
    r"move on|next question)\b",
    re.I,
)
_ORDINALS = {"first": 0, "1st": 0, "former": 0, "second": 1, "2nd": 1, "latter": 1, "third": 2, "3rd": 2,
             "fourth": 3, "4th": 3, "fifth": 4, "5th": 4}  # fmt: skip
_ORDINAL_RE = re.compile(
    r"\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th)\b(?!\s+(?:time|day|week|month|year|of|order))"
    r"|\bthe (former|latter)\b|\b(?:option|choice|number|no\.?|#)\s*#?\s*(\d)\b|^\W*(\d)\W*$",
    re.I,
)
_LETTER_RE = re.compile(r"(?<![\w'’-])\(?([A-Ea-e])\)?(?![\w'’-])")
_LETTER_CUE_RE = re.compile(
    r"(?:option|choice|answer|go with|pick|choose|take|prefer|with|say|is|'s)\s*\(?$", re.I
)
_LAST_RE = re.compile(r"\bthe last (?:one|option|choice)\b|\blast one\b", re.I)


def polarity(text: str) -> Polarity | None:
    """YES / NO for a reply that starts with one, UNSURE for 'not sure' / 'no idea', else None."""
    if _UNSURE_RE.search(text):
        return Polarity.UNSURE
    if _NO_RE.search(text):
        return Polarity.NO
    if _YES_RE.search(text):
        return Polarity.YES
    return None


def wants_skip(text: str) -> bool:
    """Whether the reply asks to skip the question or to use a default value."""
    return bool(_SKIP_RE.search(text))


def choose(text: str, labels: Sequence[str], names: Sequence[Sequence[str]] = ()) -> int | None:
    """The index of the option a reply picks among `labels` ('A', 'B', 'C'), by its letter in any natural
    phrasing, an ordinal ('the second one', 'option 2', 'the latter', 'the last one') or, with `names`, by
    one option's own words. None when the reply picks none or several."""
    positive = strip_denied(text)
    wanted = {label.lower(): i for i, label in enumerate(labels)}
    hits: set[int] = set()
    for m in _LETTER_RE.finditer(positive):
        letter = m.group(1)
        if letter.lower() not in wanted:
            continue
        bare = positive.strip(" .!?()").lower() == letter.lower()
        marked = m.group(0).startswith("(") or _LETTER_CUE_RE.search(
            positive[max(0, m.start() - 12) : m.start()]
        )
        closing = not re.match(r"\s*[A-Za-z]", positive[m.end() :])
        if (
            letter.islower()
            and letter in "ai"
            and not (bare or m.group(0).startswith("(") or (marked and closing))
        ):
            continue
        hits.add(wanted[letter.lower()])
    if len(hits) == 1:
        return hits.pop()
    if hits:
        return None
    if _LAST_RE.search(positive) and labels:
        return len(labels) - 1
    for m in _ORDINAL_RE.finditer(positive):
        word = next(g for g in m.groups() if g)
        index = int(word) - 1 if word.isdigit() else _ORDINALS[word.lower()]
        if 0 <= index < len(labels):
            return index
    scored = [
        sum(bool(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", positive, re.I)) for w in ws) for ws in names
    ]
    best = max(scored, default=0)
    if best and scored.count(best) == 1:
        return scored.index(best)
    return None
