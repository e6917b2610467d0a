"""Risk preference on the -10 (very risk-averse) .. 10 (very risk-seeking) scale: a number, or words.

Words map by direction and strength ('a bit' ±2, plain or 'pretty' ±5, 'very' ±8); such a reading is
approximate and the agent asks the user to confirm it before storing it. Neutral words give 0 directly, and
so does no preference ('not sure', 'average is fine'). Only a number that can be on the scale counts: not
'5 loaves', '$5' or '5 days'.
"""

from __future__ import annotations

import re

from core.text.numbers import find_numbers, format_number

_NEG_WORD_RE = re.compile(r"\b(?:minus|negative)\s+(\d+(?:\.\d+)?)", re.I)
_NEUTRAL_RE = re.compile(r"\b(?:neutral|indifferent|middle)\b", re.I)
_AVERSE_RE = re.compile(
    r"averse|aversion|conservative|cautious|careful|(?:play(?:ing)?|be|stay) (?:it )?safe|safe side|risk-?shy|"
    r"(?:don't|do not|hate|dislike|avoid)(?: like)?(?: taking)? risks?|\blow(?:er)? risk\b|\blow (?:risk )?tolerance|"
    r"minimi[sz]e (?:the )?risks?|safety first|(?:can't|cannot|can not) afford (?:any )?(?:surprises|risks?)|"
    r"(?:avoid|hate|dislike) (?:surprises|uncertainty)",
    re.I,
)
_SEEKING_RE = re.compile(
    r"risk-?(?:seeking|seeker|taker|loving|lover)|aggressive|gambl\w*|bold|adventurous|"
    r"(?:like|love|happy|willing|don't mind) (?:to )?(?:tak(?:e|ing) )?(?:some |a few )?(?:risks|chances)|"
    r"\bonly (?:care about )?(?:the )?average\b|(?:don't|do not) (?:really )?care about (?:the )?risks?|\bhigh(?:er)? risk\b|\bhigh (?:risk )?tolerance|risk-?tolerant|(?:fine|ok|okay|comfortable) with (?:some |a lot of )?risks?",
    re.I,
)
_NEGATED_RE = re.compile(
    r"\bnot\s+(?:very\s+|too\s+|that\s+|really\s+|at all\s+)?(?:risk|averse|cautious|conservative|careful|aggressive|bold)",
    re.I,
)
_UNSURE_RE = re.compile(
    r"\bnot (?:really )?sure\b|\bno idea\b|\b(?:don'?t|do not) (?:really )?know\b|\bdunno\b|\bno (?:real )?preference\b|"
    r"\beither way\b|\baverage\b|\bnormal\b|\bmiddle of the road\b|\bin between\b|\bmoderate\b|\bbalanced\b|"
    r"\bdefault\b|\bwhatever\b|\bno strong (?:feeling|opinion|view)s?\b|\bno (?:clue|opinion)\b|\bidk\b|"
    r"\b(?:don'?t|do not) (?:really )?care\b(?! about)|\b(?:doesn'?t|does not) (?:really )?matter\b|"
    r"\b(?:you (?:decide|choose|pick)|your call|up to you|not bothered|skip(?: it| this| that)?)\b",
    re.I,
)
_SCALE_FOLLOWER_RE = re.compile(
    r"\s*(?:$|[^\w\s]|(?:out|of|on|or|and|i|i'?d|i'?m|we|we'?re|please|maybe|probably|perhaps|is|would|should|"
    r"sounds?|seems?|feels?|points?|then|thanks|thank|for|to|too|tops|max|at|as|fine|ok|okay|works|because|since|"
    r"but|though|if|i guess|i think)\b)",
    re.I,
)
"""What may follow a number meant on the scale ('3 out of 10', '3 I guess'); '5 loaves' or '5 days' is not."""
_PERCENT_AFTER_RE = re.compile(r"\s*(?:%|percent)", re.I)
_STRONG_RE = re.compile(r"\b(?:very|extremely|really|super|highly|hugely|incredibly|totally|quite a)\b", re.I)
_MILD_RE = re.compile(
    r"\b(?:a bit|a little|slightly|somewhat|mildly|a tad|kind of|kinda|sort of|moderately)\b", re.I
)


def read_risk(text: str) -> tuple[str, str] | None:
    """(value, words) for a risk answer: words is empty for an exact number or a neutral word, else the
    description that was interpreted; None when there is nothing to read."""
    text = _NEG_WORD_RE.sub(r"-\1", text)
    numbers = [
        n
        for n in find_numbers(text)
        if _SCALE_FOLLOWER_RE.match(text, n.end)
        and not _PERCENT_AFTER_RE.match(text, n.end)
        and not text[: n.start].rstrip().endswith(("$", "€", "£"))
    ]
    scale = {-10.0, 10.0}
    useful = [n for n in numbers if n.value not in scale] or numbers
    if len(numbers) >= 2 and {n.value for n in numbers[:2]} == scale:
        useful = numbers[2:]
    if useful:
        return format_number(useful[0].value), ""
    if _NEUTRAL_RE.search(text):
        return "0", ""
    averse, seeking = _AVERSE_RE.search(text), _SEEKING_RE.search(text)
    if bool(averse) == bool(seeking) or _NEGATED_RE.search(text):
        return ("0", "") if unsure(text) else None
    size = 8 if _STRONG_RE.search(text) else 2 if _MILD_RE.search(text) else 5
    return format_number(-size if averse else size), text.strip(" .!?\n")


def unsure(text: str) -> bool:
    """No preference stated ('not sure, average is fine', 'no idea'): the neutral 0 is the sensible default."""
    return bool(_UNSURE_RE.search(text)) and not (_AVERSE_RE.search(text) or _SEEKING_RE.search(text))
