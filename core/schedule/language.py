"""Small text readers for the offline agent: school mentions, clock times, limits and intent cues.

Deterministic regular expressions, no model. Each function reads one kind of thing from a
lower-cased clause so the policy in `offline.py` can stay a readable list of rules.
"""

from __future__ import annotations

import difflib
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
NUMBER = re.compile(r"(?<![\w:,.-])(-?\d[\d,]*(?:\.\d+)?)")
TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))\s*(a\.?m\.?|p\.?m\.?)?|\b(\d{1,2})\s*(a\.?m\.?|p\.?m\.?)")
BARE_HOUR = re.compile(
    r"\b(?:at|after|before|by|until|till|around|about|than|to|from)\s+(\d{1,2})\b"
    r"(?![\d,.:]|\s*(?:min|minute|student|kid|child|percent|%|hundred|people|option|school))"
)
NEGATION = re.compile(
    r"\bnot\b|\bnever\b|n't\b|\bcannot\b|\bno (?=earlier|later|sooner|longer)|instead of|rather than|"
    r"other than|\bexcept\b|anything but|\bavoid|\bwithout\b|\bno schools?\b|\bnone\b"
)
_NOT_NEGATION = re.compile(r"why not|(?:can't|couldn't|wouldn't|won't) (?:we|you|it|they)\b")
_GROUPS = {
    "ALL": r"all (?:the |of the |our )?schools|every school|each school|the whole district|\bno schools?\b|"
    r"\bnone of the schools\b|\bany school\b",
    "HS": r"high schools|all (?:the )?high school|every high school|the hs schools",
    "MS": r"middle schools|all (?:the )?middle school|every middle school",
    "ES": r"elementary schools|elementaries|all (?:the )?elementary|every elementary",
    "PK": r"pre-?k schools|preschools|pre-?schools|all (?:the )?pre-?k",
    "K8": r"k-?8 schools|all (?:the )?k-?8",
}
_GRADE_CODES = {
    "HS": ("hs", "high"),
    "MS": ("ms", "middle"),
    "ES": ("es", "elementary"),
    "PK": ("pk", "prek", "pre-k"),
    "K8": ("k8", "k-8"),
}
_COUNT_WORDS = {
    w: n
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SPELLED = re.compile(
    rf"\b((?:{'|'.join(_COUNT_WORDS)})(?:[ -](?:{'|'.join(_COUNT_WORDS)}))?)(?: (hundred|thousand))?"
    r"(?: and a half)?\b"
)
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


def fuzzy_mentions(text: str, district: District) -> list[tuple[int, str, tuple[str, ...]]]:
    """(position, word, candidate schools) for words that look like a misspelt school name ('everet')."""
    aliases = school_aliases(district)
    words = {a: n for a, n in aliases.items() if " " not in a and len(a) >= 5}
    taken = {pos for pos, _ in mentioned_schools(text, district)}
    out = []
    for match in re.finditer(r"[a-z][a-z'\-]{4,}", text.lower()):
        word = match.group(0)
        if word in aliases or match.start() in taken:
            continue
        close = [w for w in difflib.get_close_matches(word, list(words), n=3, cutoff=0.8) if w[0] == word[0]]
        schools = tuple(dict.fromkeys(words[w] for w in close))
        if schools:
            out.append((match.start(), word, schools))
    return out


def group_schools(text: str, district: District) -> list[tuple[str, list[str]]]:
    """(group word, schools) for plural grade groups such as 'the high schools' or 'all middle schools'."""
    out = []
    for code, pattern in _GROUPS.items():
        match = re.search(pattern, text.lower())
        if match:
            names = [
                s.name
                for s in district.schools
                if code == "ALL" or s.grade.strip().lower() in _GRADE_CODES[code]
            ]
            out.append((match.group(0), names))
    return out


def clock_times(text: str, bare: bool = False) -> list[tuple[int, int, int]]:
    """(start, end, minutes) of clock times like '8:40', '9:30 am', '8am', '12:00 am' (midnight); morning is
    assumed without a suffix. With bare=True an hour after a time word counts too ('at 10', 'after 9')."""
    low = text.lower()
    out = []
    for match in TIME.finditer(low):
        hour = int(match.group(1) or match.group(4))
        minute = int(match.group(2) or 0)
        suffix = (match.group(3) or match.group(5) or "").replace(".", "")
        if hour > 23 or minute > 59 or (suffix and not 1 <= hour <= 12):
            continue
        if suffix == "pm" and hour < 12:
            hour += 12
        elif suffix == "am" and hour == 12:
            hour = 0
        out.append((match.start(), match.end(), hour * 60 + minute))
    if bare:
        spans = [(a, b) for a, b, _ in out]
        for match in BARE_HOUR.finditer(low):
            start, end = match.span(1)
            hour = int(match.group(1))
            if 1 <= hour <= 12 and not any(a <= start < b for a, b in spans):
                out.append((start, end, hour * 60))
    return sorted(out)


def negated(window: str) -> bool:
    """Whether a stretch of text (the words leading up to a time or a direction) negates it."""
    return bool(NEGATION.search(_NOT_NEGATION.sub(" ", window)))


def spelled_numbers(text: str) -> str:
    """Spelled-out amounts as digits: 'two thousand' -> '2000', 'twenty five' -> '25', 'ten and a half' -> '10.5'."""

    def digits(match: re.Match[str]) -> str:
        words = re.split(r"[ -]", match.group(1))
        value = float(sum(_COUNT_WORDS[w] for w in words))
        value *= {"hundred": 100, "thousand": 1000}.get(match.group(2) or "", 1)
        if match.group(0).endswith("and a half"):
            value += 0.5 * {"hundred": 100, "thousand": 1000}.get(match.group(2) or "", 1)
        return f"{value:g}"

    return _SPELLED.sub(digits, text)


def limit_value(text: str) -> float | None:
    """The first number in a clause that uses a limit word ('under 2,100', 'under two thousand'), clock times ignored."""
    stripped = spelled_numbers(TIME.sub(" ", text.lower()).replace("minus ", "-"))
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
