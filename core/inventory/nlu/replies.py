"""Replies to a clarification: which option a reply picks (a label, 'the second one', an option's words,
one of the two numbers of a changed value), or None when the reply does not answer it."""

from __future__ import annotations

import re

from core.inventory.nlu.risk import read_risk
from core.inventory.table import Cell, Conflict
from core.text.answers import choose
from core.text.negation import strip_denied
from core.text.numbers import find_numbers, format_number, words_to_digits

_ANY_LABEL = ("A", "B", "C")
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
    picked = choose(text, _ANY_LABEL) if not find_numbers(text) or len(text) < 40 else None
    if picked is not None and _ANY_LABEL[picked] in by_label:
        return by_label[_ANY_LABEL[picked]].cells
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
    positive = strip_denied(text).lower()
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
    index = choose(text, _ANY_LABEL)
    picked = _ANY_LABEL[index] if index is not None else None
    return picked == label or (picked is None and bool(_NORMAL_RE.search(text)))
