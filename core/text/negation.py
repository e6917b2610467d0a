"""Negation: which words of a message the speaker denies or excludes, and which only look negative.

A *negator* ('not', 'never', 'no', 'nor', 'without', 'hardly', "don't", "can't", and the typo forms 'dont',
'cant', 'wont') denies the words after it up to the end of its clause (`scope_end`: a punctuation mark or a
joining word such as 'but', 'and', 'because'). An *exclusion* ('instead of', 'rather than', 'other than',
'except', 'anything but', 'avoid', 'away from', 'rule out', 'forbid', 'block', 'none', 'nothing') names what the
speaker does not want; it counts only when asked for (`exclusions=True`), as the scheduling chat does for the times and directions it reads.

Not negation: a negative question that proposes ('why not move Lick earlier', "can't we start later?",
"isn't it better to ...", "don't you think 5 is too many?"), a hedge ('not sure', "I don't know", 'no idea')
and a reply particle ('no, 5', 'no I meant 7'). Which value a correction keeps ("not 3, it's 5") is
`core.text.corrections`' job; its pattern starts from `DENIAL`. Every reader here is linear in the text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

DENIAL = r"(?:not|never|(?:is|are|was|were)n'?t)"
"""The negators that deny a stated value ('not 5 days', "isn't $2"): a regex fragment for other readers."""

_TYPOS = r"(?:do|does|did|is|are|was|were|could|would|should|has|have|had|must|need)nt|cant|wont|aint"
HEDGE = (
    rf"(?:(?:not|never|cannot|\w+n't|{_TYPOS})\s+(?:(?:really|quite|too|very|all that|so|100%?)\s+)?"
    r"(?:sure|certain|know)|(?:can'?t|cannot) say|no (?:idea|clue))\b"
)
"""A hedge that looks negative ('not sure', "I don't know", 'no idea'): uncertainty, not denial; a regex
fragment (`core.text.answers` reads it as an unsure answer)."""
_HEDGE_RE = re.compile(HEDGE, re.IGNORECASE)
_NEGATOR_RE = re.compile(
    rf"\b(?:not|never|nor|neither|without|hardly|barely|cannot|no|\w+n't|{_TYPOS})\b", re.IGNORECASE
)
_EXCLUSION_RE = re.compile(
    r"\b(?:instead of|rather than|better than|other than|except(?: for)?|anything but|avoid(?:ing)?|none(?: of)?|nothing|"
    r"away from|nobody|no one|rul(?:e|ed|ing) out|forbid(?:den)?|ban(?:ned)?|block|exclude|prohibit|disallow|"
    r"no-go)\b",
    re.IGNORECASE,
)
_INTENSIFIED = (
    r"much|many|often|far|long|soon|early|late|high|low|big|small|few|little|fast|slow|close|busy|crowded|"
    r"expensive|cheap|risky|careful|sure|hard|bad|good|great|\w+ly"
)
_SCOPE_END_RE = re.compile(
    rf"[.,;:!?](?!\d)|\b(?:but|and|because|though|although|while|whereas|if)\b|\bso\b(?!\s+(?:{_INTENSIFIED})\b)",
    re.IGNORECASE,
)
_PRONOUN = r"(?:i|we|you|u|they|it|he|she|there|that|this)"
_AFTER_PARTICLE_NO_RE = re.compile(
    rf"\s*(?:[^\w\s]|\d|$)|\s+(?:no|nope|wait|sorry|thanks|thank|problem|worries|ok|okay|please|actually|"
    rf"{_PRONOUN}|let'?s|i'?m)\b",
    re.IGNORECASE,
)
_SUBJECT_NEXT_RE = re.compile(rf"\s+{_PRONOUN}\b", re.IGNORECASE)
_WHY_BEFORE_RE = re.compile(r"\bwhy\s+$", re.IGNORECASE)


@dataclass(frozen=True)
class Scope:
    """One negation: the cue as written, where it starts, and the stretch it negates [`begin`, `end`)."""

    cue: str
    start: int
    begin: int
    end: int
    exclusion: bool = False

    def covers(self, index: int) -> bool:
        """Whether the character at `index` is negated (the scope's end counts: a window cut right before
        the negated words, 'Lick no ', covers its own end)."""
        return self.begin <= index <= self.end


def scope_end(text: str, start: int) -> int:
    """Where the clause that `start` is in ends: the next punctuation mark or joining word, else the text's end."""
    found = _SCOPE_END_RE.search(text, start)
    return found.start() if found else len(text)


_IDIOM_RE = re.compile(r"no time\b|not only\b", re.IGNORECASE)
_IN_BEFORE_RE = re.compile(r"\bin\s+$", re.IGNORECASE)
"""Idioms that look negative and deny nothing: 'spoils in no time' (very fast), 'not only ... but'."""


def _proposes_or_hedges(text: str, cue: re.Match[str]) -> bool:
    """A negator that does not negate: 'why not', "can't we" / "isn't it" (a negative question proposes),
    'not sure' (a hedge), 'no, 5' / 'no I meant' (a reply particle), 'in no time' (an idiom)."""
    word = cue.group(0).lower()
    start, end = cue.start(), cue.end()
    near = end + _LOOKAHEAD  # the anchored patterns below read a few words: each reads a bounded window, so
    # a clause with many negators ('not 1, not 1, ...') is read in linear work
    if _IDIOM_RE.match(text, start, near) and (
        word != "no" or _IN_BEFORE_RE.search(text, max(0, start - 8), start)
    ):
        return True
    if _HEDGE_RE.match(text, start, near) or _WHY_BEFORE_RE.search(text, max(0, start - 8), start):
        return True
    if word == "no":  # a window cut right before the negated words ('Lick no ') still negates them
        cut = start > 0 and not text[end:near].strip() and near >= len(text)
        return bool(_AFTER_PARTICLE_NO_RE.match(text, end, near)) and not cut
    contracted = word.endswith(("n't", "nt")) and word not in ("cannot",)
    return contracted and bool(_SUBJECT_NEXT_RE.match(text, end, near))


_LOOKAHEAD = 64
"""Characters after a negator that decide whether it negates ('not really sure', 'no, 5', "don't we"): the
anchored checks read at most this far (all their patterns are shorter), so reading every negator of a long
clause costs a bounded window each, not the rest of the text."""


def negation_scopes(text: str, *, exclusions: bool = False) -> tuple[Scope, ...]:
    """Every negation in the text, in order: its cue and the words it negates (to the clause end). With
    `exclusions`, 'instead of 7:50', 'except Lick', 'none before 9' count too."""
    text = text.replace("\u2019", "'")
    ends = [m.start() for m in _SCOPE_END_RE.finditer(text)]

    def close(begin: int) -> int:
        i = bisect_left(ends, begin)
        return ends[i] if i < len(ends) else len(text)

    found: dict[int, Scope] = {}
    for m in _NEGATOR_RE.finditer(text):
        if not _proposes_or_hedges(text, m):
            found[m.start()] = Scope(m.group(0), m.start(), m.end(), close(m.end()))
    if exclusions:
        for m in _EXCLUSION_RE.finditer(text):
            found.setdefault(m.start(), Scope(m.group(0), m.start(), m.end(), close(m.end()), exclusion=True))
    return tuple(found[k] for k in sorted(found))


def negated(text: str, *, exclusions: bool = False) -> bool:
    """Whether the text negates anything ("I don't like chances"; not 'why not move Lick earlier')."""
    return bool(negation_scopes(text, exclusions=exclusions))


def negated_at(text: str, index: int, *, exclusions: bool = False) -> bool:
    """Whether the word at `index` lies in a negation's scope: in 'Lick not earlier than 8' the word
    'earlier' does; in 'not Lick, Everett earlier' it does not. `negated_at(window, len(window))` asks
    whether the words leading up to a time or a direction negate it."""
    return any(s.covers(index) for s in negation_scopes(text, exclusions=exclusions))


_DENIED_RE = re.compile(
    r"(?<!why )\b(?:not|no longer|never|(?:is|are|was|were)n'?t|rather than|instead of|anything but|"
    r"except(?: for)?|other than|avoid(?:ing)?)\s+(?:(?:option|choice|the|an?(?=\s+(?!(?:or|and|but|nor)\b)\w\w))\s+)?"
    r"['\"(]?[\w$.,-]+\)?['\"]?",
    re.IGNORECASE,
)


def strip_denied(text: str) -> str:
    """The text without the options it denies or excludes ('not A', "rather than the old one", 'anything
    but (b)', 'not $5'), for reading which option a reply picks; 'why not A' keeps A."""
    return _DENIED_RE.sub(" ", text.replace("\u2019", "'"))
