"""Conflicts and clarifications: how each is worded, its options, and when one arises.

Kinds: `changed_value` (a defined row restated differently, Example 5), `transition_both` (lost sale and
backlog at once, Example 1), `lost_sale_daily_penalty` (Example 4), `demand_conversion` (weekly → daily,
Example 3), `demand_shape` (a mean without a distribution), `shelf_life` (items keep longer than a day) and
`risk_scale` (a risk preference given in words), `range` (two values for a one-value row) and
`backlog_unit_penalty` (the mirror of Example 4). A largest order above the storage is no conflict (both are
kept; the storage binds every order). How a reply resolves them is `core.inventory.nlu.replies.resolve`.
"""

from __future__ import annotations

from collections.abc import Callable

from core.inventory.policy_names import plain_value
from core.inventory.table import LABELS, Cell, Conflict, Option, ParameterTable
from core.text.numbers import format_number

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


def _show(key: str, value: str, unit: str = "") -> str:
    if unit == "days" and value in ("1", "1.0"):
        unit = "day"  # 'time horizon = 1 day', never '1 days'
    return f"{value} {unit}".strip() if unit and unit != "N/A" else value


def changed_value(current: tuple[Cell, ...], proposed: tuple[Cell, ...]) -> Conflict:
    """A defined row restated with a different value (seed 000, Example 5)."""
    defined = {c.key for c in current}
    key = next(c.key for c in reversed(proposed) if c.key in defined)  # the last restated row, not a new one
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
    # no 'yes': it answers no either-or question ('(A) keep 7 or (B) change to 5?'), the question is asked again
    new_words = ("new", "change", "update", "switch", new.value.replace("_", " "))
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


def inferred_transition(value: str, said: str) -> Conflict:
    """What happens at a stock-out read from a cue nobody asked about ('they're all pre-orders' said about
    demand): put to the user with the reading first, never written silently."""
    other = "backlog" if value == "lost_sale" else "lost_sale"
    words = {"lost_sale": "leave, so the sale is lost (lost_sale)", "backlog": "wait until you restock (backlog)"}
    return Conflict(
        "inferred_transition",
        ("state_transition_model",),
        f"From '{said}' I would guess that when an item is out of stock, customers {words[value]}. Is that right: "
        f"(A) yes, they {words[value]}, or (B) they {words[other]}?",
        (
            Option("A", value, (Cell("state_transition_model", value),), (*_YES_WORDS, *_transition_words(value))),
            Option("B", other, (Cell("state_transition_model", other),), ("no", "nope", *_transition_words(other))),
        ),
    )


# What answers each choice of the transition/penalty conflicts besides its letter.
_KEEP_LOST_WORDS = ("keep", "lost", "one-time", "one time", "once", "per lost unit", "leave")
_SWITCH_TO_BACKLOG_WORDS = ("backlog", "backorder", "switch", "accrue", "wait")
_KEEP_BACKLOG_WORDS = (*_YES_WORDS, "per day", "daily", "each day", "every day", "backlog")
_SWITCH_TO_LOST_WORDS = ("lost", "one-time", "one time", "once", "leave")


# How each transition model charges a unit short: the choice's label, the penalty's unit after the currency.
_PENALTY_CHOICES = {
    "lost_sale": ("lost_sale, one-time penalty", "/unit"),
    "backlog": ("backlog, daily penalty", "/unit/day"),
}


def _penalty_choice(
    letter: str, transition: str, words: tuple[str, ...], *, penalty: str, currency: str
) -> Option:
    """A choice of the transition/penalty conflicts: lost sales charged once per lost unit, or backlog
    charged per unit per day of waiting; answered by `letter` or one of `words`."""
    label, unit = _PENALTY_CHOICES[transition]
    return Option(
        letter,
        label,
        (Cell("state_transition_model", transition), Cell("penalty_cost", penalty, f"{currency}{unit}")),
        words,
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
            _penalty_choice("A", "lost_sale", _KEEP_LOST_WORDS, penalty=penalty, currency=currency),
            _penalty_choice("B", "backlog", _SWITCH_TO_BACKLOG_WORDS, penalty=penalty, currency=currency),
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
        # A: days vary independently (they even out over the period); B: the days of one period are alike
        plain = {label: plain_value("demand_distribution", value) for label, value, _ in options}
        described = {
            "A": f"busy and quiet days even out over the {period}: {plain.get('A', '')}",
            "B": f"the days within a {period} are alike (whole {period}s run high or low): {plain.get('B', '')}",
        }
        question = (
            f"You gave demand per {period}; I plan day by day. Do busy and quiet days even out over the {period}? "
            f"Most shops: yes, so I'll use {plain.get('A', '')} (A). If instead the days within a {period} are "
            f"alike and whole {period}s run high or low, I'd use {plain.get('B', '')} (B). Reply yes (or A), B, "
            "or give me daily figures."
        )
        words = {
            "A": ("independent", "sqrt", "square root", "√", "sum", "even out", *_YES_WORDS),
            "B": ("scale", "simply", "divide", "proportional", "alike", "high or low together"),
        }
        opts = tuple(
            Option(label, f"{described.get(label, text)} [{text}]", cells[label], words.get(label, ()))
            for label, _, text in options
        )
        advice = (
            f"I recommend (A): {plain.get('A', '')}. Most shops' busy and quiet days even out over the {period}; "
            f"only if the days within a {period} are alike would (B) fit: {plain.get('B', '')}."
        )
        return Conflict(
            "demand_conversion",
            ("demand_type", "demand_distribution"),
            question,
            opts,
            (("recommendation", advice),),
        )
    return Conflict("demand_conversion", ("demand_type", "demand_distribution"), question, opts)


def demand_shape(
    mean: float, note: str = "", sd_only: bool = False, *, said_random: bool = False
) -> Conflict:
    """A typical daily demand without a distribution: ask how it varies. The options are labelled (A), (B),
    ... in order; the last one (normal) needs a standard deviation, so picking it without one asks for it
    (`sd_only`: then a bare number is the standard deviation; `said_random`: the user said it varies, so
    'exactly the same every day' is no option)."""
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
    if float(mean).is_integer() and not sd_only and not said_random:
        options.append(
            Option(
                "B",
                m,
                (Cell("demand_type", "deterministic"), Cell("demand_distribution", m)),
                ("fixed", "exactly", "always", "constant", "deterministic", "same"),
            )
        )
    normal = chr(ord("A") + len(options))
    data = (("mean", m), ("normal", normal), ("sd_only", "yes" if sd_only else ""))
    if sd_only:
        question = (
            f"Normally distributed around {m} units a day: what is the standard deviation (for example "
            f"'sd 3')? Or say (A) for Poisson with mean {m}."
        )
        return Conflict(
            "demand_shape", ("demand_type", "demand_distribution"), question, tuple(options), data
        )
    text = f"(A) it varies randomly around {m} (Poisson with mean {m}), "
    if len(options) > 1:
        text += f"(B) it is exactly {m} every day, "
    return Conflict(
        "demand_shape",
        ("demand_type", "demand_distribution"),
        f"{prefix}About {m} units a day — how does it vary? {text}or ({normal}) normally distributed: tell me "
        "the standard deviation.",
        tuple(options),
        data,
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


def confirm_value(cells: tuple[Cell, ...], said: str) -> Conflict:
    """A value the user hedged or questioned ('3 days?', 'maybe 100, not sure'): put to the user, not written."""
    return _for_a_yes(
        cells, lambda shown: f"You said '{said}', which sounds unsure. Shall I put {shown} (yes), or what figure "
        "should I use? A rough number is fine."
    )


def check_value(cells: tuple[Cell, ...], reason: str) -> Conflict:
    """A written value that contradicts another row as a shop's figures almost never do (`vetting.implausible`):
    put to the user once, kept on a yes, replaced by the figure given instead."""
    return _for_a_yes(cells, lambda shown: f"One check: {reason}. Should I keep {shown} (yes), or what figure "
                      "should I use?")


def repeated_value(cells: tuple[Cell, ...], said: str) -> Conflict:
    """A reply sent again that the rules could not place: its one number is put to the user for the row asked,
    so a misread answer never loops and is never written unconfirmed."""
    return _for_a_yes(
        cells, lambda shown: f"You said '{said}' again and I could not place it. Do you mean {shown} (yes), or what "
        "figure should I use?"
    )


def _for_a_yes(cells: tuple[Cell, ...], question: Callable[[str], str]) -> Conflict:
    """The cells put to the user as one yes/no question (never written before the yes)."""
    shown = ", ".join(f"{LABELS[c.key]} = {_show(c.key, c.value, c.unit)}" for c in cells)
    return Conflict("confirm_value", tuple(c.key for c in cells), question(shown), (Option("A", shown, cells, _YES_WORDS),))


def limit_or_amount(amount: str, capacity: str | None) -> Conflict:
    """'No hard limit, but a pallet is 150 and that's the most I'd take': 'no limit' beside an amount of items
    is asked, never written as 'as much as fits' (nor as the amount)."""
    cap = Cell("max_order", amount, "units")
    options = [Option("A", _show("max_order", amount, "units"), (cap,))]
    if capacity is not None:
        fits = f"no limit: as much as your storage holds, {_show('max_order', capacity, 'units')}"
        options.append(Option("B", fits, (Cell("max_order", capacity, "units"),), ("no limit",)))
    listed = " or ".join(f"({o.label}) {o.description}" for o in options)
    return Conflict(
        "range",
        ("max_order",),
        f"You said there is no limit on an order, and also gave {amount} units. Is the {LABELS['max_order']} "
        f"{listed}, or another number?",
        tuple(options),
    )


def container_size(key: str, count: str, container: str) -> Conflict:
    """A count of containers whose size was never said ('the walk-in fits 30 cases' while the table counts
    six-packs): asked how many units one holds, never written as 30 units; the answer completes the row."""
    plural = container + ("es" if container.endswith(("x", "s")) else "s")
    return Conflict(
        "container_size",
        (key,),
        f"You said {count} {plural} for the {LABELS[key]}: how many units does one {container} hold?",
        (),
        (("count", count), ("container", container)),
    )


def size_or_total(key: str, count: float, container: str, said: float) -> Conflict:
    """An answer to 'how many units does one case hold?' that is a whole multiple of the count ('240' after
    '20 cases'): a case of 240, or 240 in all? Asked, never multiplied silently."""
    plural = container + ("es" if container.endswith(("x", "s")) else "s")
    n, c = format_number(said), format_number(count)
    each = format_number(said / count)
    product = format_number(count * said)
    return Conflict(
        "range",
        (key,),
        f"For the {LABELS[key]}: (A) {c} {plural} × {n} = {product} units ({n} in one {container}), or (B) {n} "
        f"units in all ({each} to a {container}), or another number?",
        (
            Option("A", f"{product} units", (Cell(key, product, "units"),), ()),
            Option("B", f"{n} units", (Cell(key, n, "units"),), ("in all", "total", "altogether")),
        ),
        (("old", product), ("new", n)),
    )


def count_basis(
    container: str, size: float, kind: str, as_said: str, as_items: str, items_word: str = ""
) -> Conflict:
    """Demand said only in a pack the goods come in ('they come in packs of 8', then '3 to 6 packs a day'), or
    in the item word of a pack sold ('bottles', `items_word`): which unit the owner plans in is not clear, so
    it is asked, never written in either unit."""
    named = (items_word, items_word.removesuffix("s")) if items_word else ()
    plural = container + ("es" if container.endswith(("x", "s")) else "s")
    packs = plain_value("demand_distribution", as_said)
    items = plain_value("demand_distribution", as_items)
    n = format_number(size)
    return Conflict(
        "count_basis",
        ("demand_type", "demand_distribution"),
        f"Shall I count (A) {plural}: {packs}, or (B) {items_word or 'single units'}: {items} ({n} to a "
        f"{container})? Storage, "
        "orders and costs are then counted the same way.",
        (
            Option("A", f"{packs} {plural}", (Cell("demand_type", kind), Cell("demand_distribution", as_said)),
                   (plural, container)),
            Option("B", f"{items} {items_word or 'units'}",
                   (Cell("demand_type", kind), Cell("demand_distribution", as_items)),
                   ("single", "singles", "units", "items", "individual", "each", "one by one", *named)),
        ),
        (("container", container), ("size", n), ("packs", as_said), ("items", items_word)),
    )  # fmt: skip


def risk_scale(value: str, words: str) -> Conflict:
    """A risk preference given in words: confirm the number it maps to, or take the user's own."""
    return Conflict(
        "risk_scale",
        ("risk_tolerance",),
        f"You said '{words}'. On the scale from -10 (very risk-averse) to 10 (very "
        f"risk-seeking) I would put that at {value}. Is {value} right (yes), or which number would you give?",
        (Option("A", value, (Cell("risk_tolerance", value),), _YES_WORDS),),
    )


def several_amounts(key: str, values: tuple[str, ...], unit: str = "") -> Conflict:
    """One message with several different amounts for one row ('we sell them for $3.50, so I'd lose the
    $2.30 margin'): ask which one is meant instead of storing the first and quarrelling with the second."""
    labels = "ABC"[: len(values)]
    shown = [_show(key, v, unit) for v in values]
    listed = ", ".join(f"({label}) {text}" for label, text in zip(labels, shown, strict=True))
    return Conflict(
        "range",
        (key,),
        f"Your message has {len(values)} different amounts that could be the {LABELS[key]}. Which one is it: "
        f"{listed}, or another number?",
        tuple(
            Option(label, text, (Cell(key, value, unit),), ())
            for label, text, value in zip(labels, shown, values, strict=True)
        ),
        (("old", values[0]), ("new", values[1])),
    )


def range_choice(key: str, low: str, high: str, unit: str = "", *, said: str = "") -> Conflict:
    """A range given for a row that needs one value: ask which end (or another number) to use. `said` replaces the
    opening when the two values are two readings of one amount ('per serving or per container')."""
    a, b = _show(key, low, unit), _show(key, high, unit)
    lead = said or f"You gave a range for the {LABELS[key]} ({low} to {b}), but the model needs a single value."
    return Conflict(
        "range",
        (key,),
        f"{lead} Which should I use: (A) {a}, (B) {b}, or another number?",
        (
            Option("A", a, (Cell(key, low, unit),), ("lower", "shorter", "smaller", "minimum", "best case")),
            Option("B", b, (Cell(key, high, unit),), ("higher", "longer", "larger", "maximum", "worst case")),
        ),
        (("old", low), ("new", high)),
    )


def backlog_unit_penalty(penalty: str, currency: str = "USD") -> Conflict:
    """A backlog model with a one-time per-unit penalty: the engine charges backlog per unit per day (the
    mirror of Example 4)."""
    return Conflict(
        "backlog_unit_penalty",
        ("state_transition_model", "penalty_cost"),
        f"You said customers wait for backordered items (backlog), with a penalty of {penalty} {currency} per unit. "
        "In a backlog model the penalty accrues for every day a unit waits. Should I (A) charge "
        f"{penalty} {currency} per unit per day of waiting, or (B) treat unmet demand as lost (lost_sale) with a "
        f"one-time {penalty} {currency} per unit?",
        (
            _penalty_choice("A", "backlog", _KEEP_BACKLOG_WORDS, penalty=penalty, currency=currency),
            _penalty_choice("B", "lost_sale", _SWITCH_TO_LOST_WORDS, penalty=penalty, currency=currency),
        ),
    )


_COST_WORDS = {
    "holding_cost": ("holding", "hold", "storage", "storing", "keep", "per day", "a day"),
    "penalty_cost": ("penalty", "lost", "lose", "missed", "short", "sale", "wait"),
    "setup_cost": ("order", "fee", "setup", "set-up", "delivery", "shipment"),
}
_COST_NAMES = {
    "holding_cost": "holding one unit for a day",
    "penalty_cost": "a unit you cannot sell (short)",
    "setup_cost": "the fixed fee per order",
}


def which_cost(said: str, cells: tuple[Cell, ...]) -> Conflict:
    """An amount of money that names no cost ('it's 7 dollars' while another row is asked): it could fill
    several rows, so the user picks one instead of the agent guessing."""
    labels = "ABC"
    options = tuple(
        Option(label, f"{_COST_NAMES[c.key]}: {_show(c.key, c.value, c.unit)}", (c,), _COST_WORDS[c.key])
        for label, c in zip(labels, cells, strict=False)
    )
    listed = ", ".join(f"({o.label}) {o.description}" for o in options)
    return Conflict(
        "which_cost",
        tuple(c.key for c in cells),
        f"You said '{said}', but not which cost that is. Is it {listed}? Reply with the letter or name the cost.",
        options,
    )


_ROW_ALIASES = {
    "setup_cost": ("fee", "charge", "cost", "costs", "dollars", "money", "price"),
    "holding_cost": ("holding", "keeping", "storing"),
    "penalty_cost": ("penalty", "short", "lost"),
    "max_order": ("largest", "most", "limit", "max", "maximum", "units", "at a time", "at once"),
    "max_inventory": ("storage", "room", "space", "capacity"),
}


def which_row(said: str, cells: tuple[Cell, ...]) -> Conflict:
    """A figure that could fill either the cost asked about or another row ('the van is 40 a trip' after the fee
    per order was asked: 40 dollars, or 40 units a trip?): put to the user, never written."""
    options = tuple(
        Option(label, f"{LABELS[c.key]} = {_show(c.key, c.value, c.unit)}", (c,), _ROW_ALIASES.get(c.key, ()))
        for label, c in zip("AB", cells, strict=False)
    )
    listed = " or ".join(f"({o.label}) {o.description}" for o in options)
    return Conflict(
        "which_row",
        tuple(c.key for c in cells),
        f"You said '{said}', with no money word. Is that {listed}? Reply with the letter or say it again.",
        options,
    )


def semantic(table: ParameterTable) -> list[Conflict]:
    """Conflicts between the transition model and the penalty's unit that are not open yet: a lost sale
    charged per day (Example 4), or a backlog charged once per unit."""
    unit = table.rows["penalty_cost"].unit
    model = table.value("state_transition_model")
    if not table.is_defined("penalty_cost") or model is None:
        return []
    penalty, currency = table.value("penalty_cost") or "", unit.split("/")[0]
    found = []
    if model == "lost_sale" and unit.endswith("/day"):
        found.append(lost_sale_daily_penalty(penalty, currency))
    if model == "backlog" and not unit.endswith("/day"):
        found.append(backlog_unit_penalty(penalty, currency))
    open_kinds = {c.kind for c in table.conflicts}
    return [c for c in found if c.kind not in open_kinds]


def changed(table: ParameterTable, cells: tuple[Cell, ...]) -> Conflict | None:
    """A `changed_value` conflict when canonical `cells` contradict defined rows (Example 5), else None."""
    if not any(table.is_defined(c.key) and table.value(c.key) != c.value for c in cells):
        return None
    current = tuple(
        Cell(c.key, table.value(c.key) or "", table.rows[c.key].unit)
        for c in cells
        if table.is_defined(c.key)
    )
    return changed_value(current, cells)
