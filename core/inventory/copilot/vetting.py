"""The last look before a value counts (issue 27 item 2): a row value the readers propose is checked against the
message's one parse, and values that make the table implausible are put to the user.

Three checks, all on typed facts, never on the raw text:

- `doubt(key, value, message, asked=...)`: the parse says the money or the duration behind a proposed value is of
  another kind than the row wants — the price of the item where a holding cost per day is read, or rent, wages and
  bills per month of the whole business where a cost per unit is read; a span that says nothing of delivery (shelf
  life, ripening) written as the delivery time while another row was asked. Such a value is never written: the
  agent says why and asks the row.
- `crossed(key, value, message, current=...)`: a filled row other than the one asked would change although the
  message states no figure of its kind ('a week, sometimes 10 days, say 8' against a $10 fee): it keeps its value.
- `implausible(table)`: rows that contradict each other in a way a shop almost never does — an order limit or a
  storage smaller than one day's demand, a holding cost per day above half the cost of a unit short, a plan of a
  day or two. The value stays, and the agent asks once whether it is right (`conflicts.check_value`), so a
  misread is caught before the policy is computed and a true but unusual figure costs one "yes".
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import SpecError
from core.inventory.table import ParameterTable
from core.text.mentions import Kind, Mention, Message, Scope
from core.text.numbers import format_number
from core.text.vocabulary import TIME_UNITS, WHOLE_BUSINESS_ROLES
from solvers.inventory.distribution import parse_demand

PRICE_ROLES = frozenset(["purchase_price", "sale_price", "margin", "price", "loss", "penalty"])
"""Money of the item's price or its margin: in a message that names no time at all, a figure with one of these
roles is never a holding cost per unit per day."""
_LONG_PERIODS = frozenset(["week", "fortnight", "month", "quarter", "year"])
_EACH = frozenset(["each", "every", "per", "apiece"])
_LEAD_ROLES = frozenset(["lead_time", "weekday_gap"])
_COSTS = ("holding_cost", "penalty_cost", "setup_cost")
_OFF = Scope.NEGATED | Scope.CORRECTED | Scope.HYPOTHETICAL | Scope.OTHERS
_BUSINESS = (
    "that sounds like a running cost of the whole business (rent, bills, staff, the premises), not a cost per unit"
)


@dataclass(frozen=True)
class Doubt:
    """A proposed value the parse does not back: `reason` is said to the user, and the row is asked."""

    key: str
    value: str
    reason: str


def doubt(key: str, value: str, message: Message, *, asked: str | None) -> Doubt | None:
    """Why `value` must not be written to row `key` from `message`, or None when the parse backs it."""
    money = [m for m in message.of(Kind.MONEY) if not m.scope & _OFF]
    counts = [m for m in message.of(Kind.QUANTITY) if not m.scope & _OFF and _same(m.value, value)]
    if counts:  # '15 per shipment, on top of the shop rent': the figure itself is no business money
        money = [*money, *counts]
    each = bool(_EACH & set(message.words()))  # 'each crate I store costs 1.40 a week in rent': per unit
    if key in _COSTS and money and not each and all(_business(m) for m in money):
        return Doubt(key, value, _BUSINESS)
    timed = any(w in TIME_UNITS or w == "daily" for w in message.words())  # 'per day, the fridge costs 3 cents'
    if key == "holding_cost" and money and not timed and all(_price(m) for m in money):
        return Doubt(key, value, "that sounds like the price of the item or its margin, not what keeping one "
                     "in stock costs per day")
    bought = [m for m in money if m.kind is Kind.MONEY and m.role in ("purchase_price", "price")]
    paid = set(message.words()) & _PAID_WORDS and not set(message.words()) & _LOSS_WORDS  # not 'costs us $6'
    if key == "penalty_cost" and paid and bought and len(bought) == len(money) and all(m.per in (None, "unit") for m in bought):
        return Doubt(key, value, "that sounds like what one costs you, not what a missed sale loses (usually the "
                     "margin: what you sell it for minus that)")  # 'I pay 0.55 a can' answering the penalty
    listed = [m for m in money if m.kind is Kind.MONEY and m.role in ("price", "sale_price")]
    if key == "penalty_cost" and listed and len(listed) == len(money) and not set(message.words()) & _LOSS_WORDS:
        return Doubt(key, value, "that sounds like the price of the item, not what a missed sale loses (usually the "
                     "margin: that price minus what one costs you)")  # 'list price is 28 and I get it at 60%'
    if key in ("max_inventory", "max_order") and asked in _COSTS and any(m.whole_business for m in money):
        return Doubt(key, value, "that sounds like what the whole place holds, said to share out the rent, not "
                     "what you keep of this item")  # 'rent is 600 a month and it holds like 2000 reams'
    if key == "lead_time" and asked not in (None, "lead_time"):
        spans = [m for m in message.of(Kind.DURATION) if not m.scope & _OFF]
        if spans and not any(m.role in _LEAD_ROLES for m in spans):
            return Doubt(key, value, "nothing in it says that is how long a delivery takes")
    return None


_KINDS = {
    **dict.fromkeys(["holding_cost", "penalty_cost", "setup_cost"], Kind.MONEY),
    **dict.fromkeys(["time_horizon", "lead_time"], Kind.DURATION),
}


def crossed(key: str, value: str, message: Message, *, current: str) -> Doubt | None:
    """Why `value` must not replace what filled row `key` (not the row asked) holds: the message states no
    figure of the row's kind — no money for a cost, no span for a duration — and no bare number equal to it, so
    the figure belongs to another row ('a week, sometimes 10 days, say 8' changed a $10 fee to 8)."""
    kind = _KINDS.get(key)
    if kind is None or any(_same(m.value, current) and _fits(m, kind) for m in message.mentions):
        return None  # 'sorry, I meant 40, not 45': the row's own figure is taken back, so the row is named
    live = [m for m in message.mentions if not m.scope & _OFF]
    if any(m.kind is kind for m in live) or any(_fits(m, kind) and _same(m.value, value) for m in live):
        return None
    return Doubt(key, value, "the figure in your message is of another kind than this row")


_PAID_WORDS = frozenset(["pay", "paid", "pays", "buy", "bought", "buying", "purchase", "wholesale"])
_LOSS_WORDS = frozenset(["cost", "costs", "lose", "lost", "loses", "losing", "loss", "miss", "missed", "short", "gone",
                         "out", "without", "missing", "shortage", "stockout"])  # fmt: skip


def _fits(m: Mention, kind: Kind) -> bool:
    """A mention of the row's kind, or a bare number that could be one ('40')."""
    return m.kind is kind or (m.kind is Kind.QUANTITY and m.unit is None and m.container is None)


def _business(m: Mention) -> bool:
    """Rent, wages or bills per week, month or year, said of no unit: money of the whole business."""
    return m.role in WHOLE_BUSINESS_ROLES and m.per in _LONG_PERIODS


def _price(m: Mention) -> bool:
    return m.role in PRICE_ROLES and m.per is None


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _same(a: float | str, b: str) -> bool:
    try:
        return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))
    except (TypeError, ValueError):
        return False


_SHORTEST_PLAN = 3
"""Days: a shorter planning horizon is put to the user (none of the 380 blind owners plans fewer than 5 days)."""


def implausible(table: ParameterTable) -> list[Doubt]:
    """Filled rows that contradict each other as a shop's figures almost never do (the value is kept and put to
    the user once): an order limit or a storage below one day's demand, a holding cost above half a shortage,
    a planning horizon shorter than `_SHORTEST_PLAN` days."""
    found = []
    mean = _daily_mean(table.value("demand_distribution"))
    for key, name in (("max_order", "largest order"), ("max_inventory", "storage")):
        value = table.value(key)
        if mean is not None and value is not None and _numeric(value) and float(value) < mean:
            units = "unit" if float(value) == 1 else "units"
            found.append(Doubt(key, value, f"a {name} of {value} {units} is less than one day's demand (about "
                               f"{format_number(round(mean, 1))} a day)"))
    horizon = table.value("time_horizon")
    if horizon is not None and _numeric(horizon) and float(horizon) < _SHORTEST_PLAN:
        days = "day" if float(horizon) == 1 else "days"
        found.append(Doubt("time_horizon", horizon, f"a plan of {horizon} {days} is shorter than almost any "
                           "shop plans ahead ('next day' is usually how soon a delivery comes)"))
    holding, penalty = table.value("holding_cost"), table.value("penalty_cost")
    if holding is not None and penalty is not None and float(penalty) > 0 and float(holding) > float(penalty) / 2:
        found.append(Doubt("holding_cost", holding, f"keeping one unit a day would cost {holding}, more than half "
                           f"of what a unit short costs you ({penalty})"))
    return found


def _daily_mean(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return parse_demand(text).mean
    except (SpecError, ValueError):
        return None
