"""Replies to a clarification: which option a reply picks (a label, 'the second one', an option's words,
one of the two numbers of a changed value), or None when the reply does not answer it."""

from __future__ import annotations

import re

from core.inventory.nlu.numbers import find_numbers, format_number, words_to_digits
from core.inventory.nlu.risk import read_risk
from core.inventory.table import Cell, Conflict

_LABEL_RE = re.compile(r"^\W*(?:option\s+)?\(?([abc])\)?(?:$|[\s).:,;!-])", re.I)
_OPTION_RE = re.compile(r"\b(?:option|choice|go with|pick|choose)\s+\(?([abc])\b", re.I)
_ORDINAL_RE = re.compile(
    r"^\W*(?:(?:let'?s |i'?ll |we'?ll )?(?:go with|take|pick|choose|use) )?(?:the )?(first|second|third|former|latter)\b"
    r"|\b(?:the )?(first|second|third) (?:one|option|choice|conversion|approach)\b|\bthe (former|latter)\b",
    re.I,
)
_ORDINALS = {"first": "A", "former": "A", "second": "B", "latter": "B", "third": "C"}
_NEGATED_RE = re.compile(
    r"\b(?:rather than|instead of|not|no longer|and not)\s+(?:an?\s+|the\s+)?['\"]?[\w$.,-]+", re.I
)
_SD_RE = re.compile(
    r"(?:standard deviation|std|sd|sigma|σ|deviation|give or take|plus or minus|±)\D{0,12}(\d+(?:\.\d+)?)",
    re.I,
)


def resolve(conflict: Conflict, text: str) -> tuple[Cell, ...] | None:
    """The cells the user's reply chooses, or None when the reply does not answer the clarification."""
    text = words_to_digits(text)
    if conflict.kind == "risk_scale" and (found := read_risk(text)) and not found[1]:
        return (Cell("risk_tolerance", found[0]),)
    by_label = {o.label: o for o in conflict.options}
    m = _LABEL_RE.match(text) or _OPTION_RE.search(text)
    if m and m.group(1).upper() in by_label:
        return by_label[m.group(1).upper()].cells
    m = _ORDINAL_RE.search(text)
    if m and (label := _ORDINALS[next(g for g in m.groups() if g).lower()]) in by_label:
        return by_label[label].cells
    data = dict(conflict.data)
    if conflict.kind == "demand_shape":
        sd = _SD_RE.search(text)
        bare = [n for n in find_numbers(text) if n.value > 0] if data.get("sd_only") else []
        if sd or bare:
            spread = sd.group(1) if sd else format_number(bare[0].value)
            return (
                Cell("demand_type", "random"),
                Cell("demand_distribution", f"normal({data['mean']},{spread})"),
            )
    positive = _NEGATED_RE.sub(" ", text).lower()
    if "old" in data and "new" in data:
        numbers = {format_number(n.value) for n in find_numbers(positive)}
        hits = [label for label, key in (("A", "old"), ("B", "new")) if data[key] in numbers]
        if len(hits) == 1:
            return by_label[hits[0]].cells
    scores = {
        o.label: sum(bool(re.search(rf"(?<!\w){re.escape(w)}", positive)) for w in o.aliases)
        for o in conflict.options
    }
    best = max(scores.values(), default=0)
    winners = [label for label, score in scores.items() if score == best]
    if best > 0 and len(winners) == 1:
        return by_label[winners[0]].cells
    return None


_NORMAL_RE = re.compile(r"\bnormal(?:ly)?\b|\bgaussian\b|\bbell\b", re.I)


def picks_normal(conflict: Conflict, text: str) -> bool:
    """Whether a reply to 'how does demand vary?' picks the normal option without giving its spread."""
    label = dict(conflict.data).get("normal")
    if conflict.kind != "demand_shape" or not label:
        return False
    text = words_to_digits(text)
    m = _LABEL_RE.match(text) or _OPTION_RE.search(text)
    ordinal = _ORDINAL_RE.search(text)
    picked = (m.group(1) if m else None) or (
        _ORDINALS[next(g for g in ordinal.groups() if g).lower()] if ordinal else None
    )
    return (picked or "").upper() == label or (picked is None and bool(_NORMAL_RE.search(text)))
