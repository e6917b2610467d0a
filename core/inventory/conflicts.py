"""Conflicts and clarifications: how each is worded, its options, and how a reply resolves it.

Kinds: `changed_value` (a defined row restated differently, Example 5), `transition_both` (lost sale and
backlog at once, Example 1), `lost_sale_daily_penalty` (Example 4), `demand_conversion` (weekly → daily,
Example 3), `demand_shape` (a mean without a distribution), `shelf_life` (items keep longer than a day) and
`risk_scale` (a risk preference given in words).
"""

from __future__ import annotations

import re

from core.inventory.nlu.numbers import find_numbers, format_number, words_to_digits
from core.inventory.nlu.risk import read_risk
from core.inventory.table import LABELS, Cell, Conflict, Option

_LABEL_RE = re.compile(r"^\W*(?:option\s+)?\(?([abc])\)?(?:$|[\s).:,;!-])", re.I)
_OPTION_RE = re.compile(r"\b(?:option|choice|go with|pick|choose)\s+\(?([abc])\b", re.I)
_NEGATED_RE = re.compile(
    r"\b(?:rather than|instead of|not|no longer|and not)\s+(?:an?\s+|the\s+)?['\"]?[\w$.,-]+", re.I
)
_YES_WORDS = (
    "yes",
    "yeah",
    "yep",
    "ok",
    "okay",
    "fine",
    "right",
    "correct",
    "sure",
    "confirm",
    "go ahead",
    "sounds good",
)
_SD_RE = re.compile(
    r"(?:standard deviation|std|sd|sigma|σ|deviation|give or take|plus or minus|±)\D{0,12}(\d+(?:\.\d+)?)",
    re.I,
)


def _show(key: str, value: str, unit: str = "") -> str:
    return f"{value} {unit}".strip() if unit and unit != "N/A" else value


def changed_value(current: tuple[Cell, ...], proposed: tuple[Cell, ...]) -> Conflict:
    """A defined row restated with a different value (seed 000, Example 5)."""
    key = proposed[-1].key
    old = next(c for c in current if c.key == key)
    new = next(c for c in proposed if c.key == key)
    if key == "state_transition_model":
        question = (
            f"Earlier you told me unmet demand is a {old.value.replace('_', ' ')}, but now it sounds like a "
            f"{new.value.replace('_', ' ')}. These conflict. Which model should I use: (A) {old.value} or (B) {new.value}?"
        )
    else:
        question = (
            f"I detected a conflict: the table has {LABELS[key]} = {_show(key, old.value, old.unit)}, but you now said "
            f"{_show(key, new.value, new.unit)}. Which should I use: (A) keep {old.value} or (B) change to {new.value}?"
        )
    keep_words = (
        "keep",
        "old",
        "original",
        "previous",
        "stick",
        "stay",
        "unchanged",
        old.value.replace("_", " "),
    )
    new_words = ("yes", "new", "change", "update", "switch", "correct", new.value.replace("_", " "))
    return Conflict(
        "changed_value",
        tuple(c.key for c in proposed),
        question,
        (
            Option("A", f"keep {old.value}", current, keep_words + _transition_words(old.value)),
            Option("B", f"change to {new.value}", proposed, new_words + _transition_words(new.value)),
        ),
        (("old", old.value), ("new", new.value)),
    )


def _transition_words(value: str) -> tuple[str, ...]:
    if value == "lost_sale":
        return ("lost", "leave", "walk away", "go elsewhere", "lost_sale")
    if value == "backlog":
        return ("backlog", "backorder", "wait", "come back")
    return ()


def transition_both() -> Conflict:
    """The user described unmet demand as both lost and backlogged (seed 000, Example 1)."""
    return Conflict(
        "transition_both",
        ("state_transition_model",),
        "You mentioned both lost sales and backlog. These conflict: the model needs exactly one. When an item is "
        "out of stock, do customers (A) leave, so the sale is lost (lost_sale), or (B) wait until you restock (backlog)?",
        (
            Option(
                "A",
                "lost_sale",
                (Cell("state_transition_model", "lost_sale"),),
                _transition_words("lost_sale"),
            ),
            Option(
                "B", "backlog", (Cell("state_transition_model", "backlog"),), _transition_words("backlog")
            ),
        ),
    )


def lost_sale_daily_penalty(penalty: str, currency: str = "USD") -> Conflict:
    """A lost-sale model with a per-unit-per-day penalty (seed 000, Example 4)."""
    return Conflict(
        "lost_sale_daily_penalty",
        ("state_transition_model", "penalty_cost"),
        f"You said unmet demand is lost (lost_sale), but the penalty is {penalty} {currency} per unit per day. "
        "These conflict: in a lost-sale model a missed unit costs a one-time penalty, while a per-day penalty means "
        f"unmet demand is backlogged and accrues daily. Should I (A) keep lost_sale with a one-time penalty of "
        f"{penalty} {currency} per lost unit, or (B) switch to backlog with {penalty} {currency} per unit per day?",
        (
            Option(
                "A",
                "lost_sale, one-time penalty",
                (
                    Cell("state_transition_model", "lost_sale"),
                    Cell("penalty_cost", penalty, f"{currency}/unit"),
                ),
                ("keep", "lost", "one-time", "one time", "once", "per lost unit", "leave"),
            ),
            Option(
                "B",
                "backlog, daily penalty",
                (
                    Cell("state_transition_model", "backlog"),
                    Cell("penalty_cost", penalty, f"{currency}/unit/day"),
                ),
                ("backlog", "backorder", "switch", "accrue", "wait"),
            ),
        ),
    )


def demand_conversion(period: str, options: tuple[tuple[str, str, str], ...]) -> Conflict:
    """How to turn a weekly (or monthly) demand into a daily one (seed 000, Example 3)."""
    cells = {
        label: (Cell("demand_type", "random"), Cell("demand_distribution", value))
        for label, value, _ in options
    }
    if len(options) == 1:
        (label, value, text) = options[0]
        question = (
            f"You gave demand per {period}, and I model demand per day. I would {text}. "
            f"Is that right (yes), or would you rather give me the daily figures?"
        )
        opts = (
            Option(
                label,
                text,
                cells[label],
                _YES_WORDS,
            ),
        )
    else:
        lines = " ".join(f"{label}) {text}." for label, _, text in options)
        question = (
            f"Quick clarification before I fill the distribution: you gave demand per {period}, and I model daily "
            f"demand. Which conversion should I use? {lines} Reply A or B (or give daily figures)."
        )
        words = {
            "A": ("independent", "sqrt", "square root", "√", "sum"),
            "B": ("scale", "simply", "divide", "proportional"),
        }
        opts = tuple(Option(label, text, cells[label], words.get(label, ())) for label, _, text in options)
    return Conflict("demand_conversion", ("demand_type", "demand_distribution"), question, opts)


def demand_shape(mean: float, note: str = "") -> Conflict:
    """A typical daily demand without a distribution: ask how it varies."""
    m = format_number(mean)
    prefix = f"({note}) " if note else ""
    options = [
        Option(
            "A",
            f"poisson({m})",
            (Cell("demand_type", "random"), Cell("demand_distribution", f"poisson({m})")),
            ("poisson", "random", "varies", "vary"),
        )
    ]
    text = f"(A) it varies randomly around {m} (Poisson with mean {m}), "
    if float(mean).is_integer():
        options.append(
            Option(
                "B",
                m,
                (Cell("demand_type", "deterministic"), Cell("demand_distribution", m)),
                ("fixed", "exactly", "always", "constant", "deterministic", "same"),
            )
        )
        text += f"(B) it is exactly {m} every day, "
    return Conflict(
        "demand_shape",
        ("demand_type", "demand_distribution"),
        f"{prefix}About {m} units a day — how does it vary? {text}or (C) normally distributed: tell me the standard deviation.",
        tuple(options),
        (("mean", m),),
    )


def shelf_life(days: float) -> Conflict:
    """Items keep several days, but the engine only models stock that expires at the end of each day."""
    d = format_number(days)
    return Conflict(
        "shelf_life",
        ("perishability",),
        f"Your items keep about {d} days. The model treats perishable stock as expiring at the end of each day. "
        f"Should I (A) treat the items as perishable (unsold stock discarded daily) or (B) as non-perishable?",
        (
            Option(
                "A", "perishable", (Cell("perishability", "true"),), ("perishable", "discard", "yes", "spoil")
            ),
            Option(
                "B",
                "non-perishable",
                (Cell("perishability", "false"),),
                ("non-perishable", "not perishable", "no", "keep"),
            ),
        ),
    )


def risk_scale(value: str, words: str) -> Conflict:
    """A risk preference given in words: confirm the number it maps to, or take the user's own."""
    return Conflict(
        "risk_scale",
        ("risk_tolerance",),
        f"You said '{words}'. On the scale from -10 (very risk-averse) to 10 (very "
        f"risk-seeking) I would put that at {value}. Is {value} right (yes), or which number would you give?",
        (Option("A", value, (Cell("risk_tolerance", value),), _YES_WORDS),),
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
    data = dict(conflict.data)
    if conflict.kind == "demand_shape" and (sd := _SD_RE.search(text)):
        return (
            Cell("demand_type", "random"),
            Cell("demand_distribution", f"normal({data['mean']},{sd.group(1)})"),
        )
    positive = _NEGATED_RE.sub(" ", text).lower()
    if conflict.kind == "changed_value":
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
