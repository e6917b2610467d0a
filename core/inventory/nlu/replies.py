"""Replies to a clarification: which option a reply picks (a label, 'the second one', an option's words,
one of the two numbers of a changed value), or None when the reply does not answer it."""

from __future__ import annotations

from core.inventory.nlu.risk import read_risk
from core.inventory.table import Cell, Conflict, Option
from core.text.answers import choose
from core.text.cues import TokenCue
from core.text.mentions import Token, parse
from core.text.negation import strip_denied
from core.text.numbers import find_numbers, format_number, read_number, words_to_digits
from core.text.vocabulary import SPREAD_WORDS

_ANY_LABEL = ("A", "B", "C")
ORDINAL = TokenCue(exact=frozenset(["first", "second", "third", "former", "latter", "last"]))
SPREAD = TokenCue(
    exact=frozenset(["std", "sd", "sigma", "σ", "deviation", "±"]),
    phrases=SPREAD_WORDS,
)
"""Words that introduce a spread ('standard deviation 3', 'give or take 4', '± 2')."""
_SPREAD_REACH = 12
"""How many characters (none a digit) may stand between a spread word and its number."""


def _spread(text: str) -> str | None:
    """The number after the first spread word that has one within reach ('sd of about 3' -> '3')."""
    toks = parse(text).toks
    for _, end in SPREAD.spans(toks):
        number = next((t for t in toks if t.start >= end and t.kind == "num"), None)
        gap = text[end : number.start] if number else ""
        value = read_number(number.text) if number else None
        if value is not None and len(gap) <= _SPREAD_REACH and not any(c.isdigit() for c in gap):
            return format_number(abs(value))
    return None


def resolve(conflict: Conflict, text: str) -> tuple[Cell, ...] | None:
    """The cells the user's reply chooses, or None when the reply does not answer the clarification."""
    ordinal = ORDINAL.found(parse(text).toks)  # 'the second one' picks by place, whatever its digits
    text = words_to_digits(text)
    if conflict.kind == "risk_scale" and (found := read_risk(text)) and not found[1]:
        return (Cell("risk_tolerance", found[0]),)
    by_label = {o.label: o for o in conflict.options}
    if not ordinal and (numbers := find_numbers(text)) and (valued := _valued(conflict)):
        said = {n.value for n in numbers}  # '(A) 0, (B) -1, or another number?' answered '-1' is (B), never 1st
        hits = [o for o, value in valued if value in said]
        return hits[0].cells if len(hits) == 1 else None
    picked = choose(text, _ANY_LABEL) if not find_numbers(text) or len(text) < 40 else None
    if picked is not None and _ANY_LABEL[picked] in by_label:
        return by_label[_ANY_LABEL[picked]].cells
    data = dict(conflict.data)
    if conflict.kind == "demand_shape":
        sd = _spread(text)
        bare = [n for n in find_numbers(text) if n.value > 0] if data.get("sd_only") else []
        if sd or bare:
            spread = sd or format_number(bare[0].value)
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
    toks = parse(positive).toks
    scores = {o.label: sum(_says(toks, w) for w in o.aliases) for o in conflict.options}
    best = max(scores.values(), default=0)
    winners = [label for label, score in scores.items() if score == best]
    if best > 0 and len(winners) == 1:
        return by_label[winners[0]].cells
    return None


def _valued(conflict: Conflict) -> list[tuple[Option, float]]:
    """The options of a which-number question with their values ('(A) 30 units, (B) 40 units'), or [] when an
    option is no single number (then a number in the reply may be an option's ordinal or a new figure)."""
    out = []
    for option in conflict.options:
        try:
            value = float(option.cells[0].value) if len(option.cells) == 1 else None
        except ValueError:
            value = None
        if value is None:
            return []
        out.append((option, value))
    return out


def _says(toks: tuple[Token, ...], alias: str) -> bool:
    """Whether the reply's tokens say an option's word or words at a word start ('wait' also in 'waiting')."""
    words = [t.low for t in parse(alias.lower()).toks]
    if not words:
        return True
    last = len(words) - 1
    return any(
        [t.low for t in toks[i : i + last]] == words[:last] and toks[i + last].low.startswith(words[last])
        for i in range(len(toks) - last)
    )


NORMAL = TokenCue(exact=frozenset(["normal", "normally", "gaussian", "bell"]))


def picks_normal(conflict: Conflict, text: str) -> bool:
    """Whether a reply to 'how does demand vary?' picks the normal option without giving its spread."""
    label = dict(conflict.data).get("normal")
    if conflict.kind != "demand_shape" or not label:
        return False
    text = words_to_digits(text)
    index = choose(text, _ANY_LABEL)
    picked = _ANY_LABEL[index] if index is not None else None
    return picked == label or (picked is None and NORMAL.in_text(text))
