"""Order queries: the stock state read from a user's message, and the typed tool that computes the order.

`parse_order_query` reads "current inventory 4, day 4, no incoming orders"; `make_order_tool(brief)` is
`calculate_dqn_order` (Scenario B) or `calculate_policy_order` (Scenario A).

Day numbering (a paper-exact switch): the tools take a 0-based `current_time_step`. `"from_one"` (default)
reads the user's "day d" as the d-th day of the plan, time step d − 1; `"fig4"` is Figure 4's convention,
where "day 4" is passed on as `current_time_step` 4 (the plan's first day is day 0).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.errors import SpecError
from core.inventory.copilot.policy_brief import PolicyBrief
from core.text.mentions import Kind, Message, Scope, parse
from core.text.vocabulary import ITEM_WORDS
from solvers.inventory import artifacts as engine_artifacts
from solvers.inventory.artifacts import parse_pipeline
from solvers.inventory.period import counted_stock, truncate_orders

DAY_NUMBERINGS = ("from_one", "fig4")
DAY_NUMBERING_WORDS = {
    "from_one": "'day d' is the d-th day of the plan (day 1 is time step 0)",
    "fig4": "Fig. 4's numbering: 'day d' is time step d (the first day of the plan is day 0)",
}


def check_day_numbering(numbering: str) -> str:
    if numbering not in DAY_NUMBERINGS:
        raise SpecError("day_numbering", f"must be one of {', '.join(DAY_NUMBERINGS)}, got {numbering!r}")
    return numbering


def step_of_day(day: int, numbering: str = "from_one") -> int:
    """The 0-based time step a user's "day d" means under a day numbering."""
    return day if check_day_numbering(numbering) == "fig4" else max(day - 1, 0)


def day_of_step(step: int, numbering: str = "from_one") -> int:
    """How a user names time step `step` under a day numbering."""
    return step if check_day_numbering(numbering) == "fig4" else step + 1


@dataclass(frozen=True)
class OrderQuery:
    """A state read from a message: on-hand, time step (0-based) and pipeline text; notes explain readings."""

    current_inventory: int | None
    current_time_step: int | None
    pipeline_orders: str | None
    notes: tuple[str, ...] = ()


# The words of an order question, read from the one parse (`core.text.mentions.parse`): numbers are its
# QUANTITY mentions, cues are runs of its words (exact words; a slot of alternatives may be optional: None).
_STOCK_BEFORE = (("inventory",), ("stock",), ("on", "hand"), ("i", "have"), ("we", "have"), ("i", "hold"),
                 ("we", "hold"), ("i", "got"), ("we", "got"), ("have", "got"), ("i've", "got"), ("we've", "got"))  # fmt: skip
_STOCK_FILLERS = (("on", "hand"), ("right", "now"), ("level",), ("position",), ("count",), ("now",), ("currently",),
                  ("today",), ("is",), ("are",), ("of",), ("at",), ("about",), ("around",), ("only",), ("just",),
                  ("got",))  # fmt: skip
_STOCK_AFTER = (("on", "hand"), ("in", "stock"), ("left",), ("on", "the", "shelf"), ("in", "inventory"))
_ITEM_WORDS = frozenset(["unit", "units", "item", "items", "piece", "pieces"])
_ITEMS = frozenset(ITEM_WORDS.values())
_STEP_WORDS = (("time", "step"), ("timestep",), ("step",), ("period",), ("t",))
_DAY_WORDS = (("day", "number"), ("day", "no"), ("day",))
_PIPE_CUES = (("pipeline",), ("incoming",), ("on", "order"), ("on", "the", "way"), ("outstanding",),
              ("in", "transit"), ("arriving",))  # fmt: skip
_ARRIVING = (("arriving",), ("incoming",), ("on", "order"), ("on", "the", "way"), ("in", "transit"), ("coming",))
_CHAIN_JOINERS = frozenset(["and", "then"])
_Slot = tuple[tuple[str, ...] | None, ...]
_ANY: _Slot = (("*",), None)
_NO_PIPE: tuple[tuple[_Slot, ...], ...] = (
    ((("no",), ("nothing",)), _ANY, (("incoming",), ("pipeline",), ("outstanding",), ("open",), ("pending",))),
    ((("nothing",),), (("is",), ("was",), None), (("on", "order"), ("incoming",), ("in", "the", "pipeline"),
                                                  ("on", "the", "way"), ("coming",))),
    ((("no",),), (("order",), ("orders",)), (("are",), ("is",), None),
     (("on", "the", "way"), ("in", "transit"), ("coming",), ("pending",))),
    ((("pipeline",),), (("is",), None), (("empty",),)),
    ((("empty",),), (("pipeline",),)),
    ((("none",),), (("incoming",), ("on", "order"))),
    ((("nothing",),), (("ordered",),)),
)  # fmt: skip
"""'no incoming orders', 'nothing on order', 'no orders are on the way', 'pipeline is empty', ..."""
_PIPE_REACH = 6
"""How many words a pipeline cue may stand before its numbers ('on order for tomorrow: 3, 5')."""


@dataclass(frozen=True)
class _Number:
    """A whole-number QUANTITY mention of the message and the indices of its words."""

    value: int
    first: int
    last: int
    counted: bool
    """Whether it can be a stock figure: not 'one box' / 'a case' (a container named, not counted)."""


def _numbers(message: Message) -> list[_Number]:
    """The whole numbers the message states (counts or bare numbers; not negated or corrected)."""
    starts = [a for a, _ in message.word_spans()]
    out = []
    for m in message.of(Kind.QUANTITY, live_only=False):
        if m.scope & (Scope.NEGATED | Scope.CORRECTED) or m.unit not in (None, "item") or m.per:
            continue
        amount = m.amount
        first = bisect_left(starts, m.span[0])
        last = bisect_left(starts, m.span[1]) - 1
        if amount == int(amount) and first <= last:
            counted = m.container is None or m.container in _ITEMS or amount != 1  # not 'one box'
            out.append(_Number(int(amount), first, last, counted))
    return out


def _ends(words: tuple[str, ...], end: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """The length of the longest phrase that ends right before `words[end]` (0 when none)."""
    return max((len(p) for p in phrases if len(p) <= end and words[end - len(p) : end] == p), default=0)


def _starts(words: tuple[str, ...], at: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """The length of the longest phrase that starts at `words[at]` (0 when none)."""
    return max((len(p) for p in phrases if words[at : at + len(p)] == p), default=0)


def _seq(words: tuple[str, ...], at: int, slots: tuple[_Slot, ...]) -> bool:
    """Whether the slots match the words from `at`, each slot one of its alternatives (None: nothing, '*': any
    one word)."""
    if not slots:
        return True
    for alt in slots[0]:
        if alt is None:
            if _seq(words, at, slots[1:]):
                return True
        elif alt == ("*",):
            if at < len(words) and _seq(words, at + 1, slots[1:]):
                return True
        elif words[at : at + len(alt)] == alt and _seq(words, at + len(alt), slots[1:]):
            return True
    return False


def _stock(message: Message, numbers: list[_Number]) -> _Number | None:
    """The first number bound to a stock cue: 'inventory 4', 'we have about 7', 'stock is four' (cue, then filler
    words), or '7 units on hand', '12 left', '5 in stock' (the tail right after it). Only spaces and ':=,-' may
    stand between the words ('max inventory (20)' and 'base_stock(20)' state no stock)."""
    words, spans, text = message.words(), message.word_spans(), message.text

    def joined(i: int, j: int) -> bool:  # nothing but spaces and ':=,-' between words i and j
        return i >= 0 and j < len(spans) and not text[spans[i][1] : spans[j][0]].strip(" \t:=,-")

    for n in (n for n in numbers if n.counted):  # 'one box on the shelf' is no stock figure
        k = n.first
        while joined(k - 1, k):
            if _ends(words, k, _STOCK_BEFORE):
                return n
            skip = _ends(words, k, _STOCK_FILLERS)
            if not skip or not all(joined(i - 1, i) for i in range(k - skip + 1, k)):
                break
            k -= skip
        e = n.last + 1
        e += 1 if e < len(words) and words[e] in _ITEM_WORDS and joined(e - 1, e) else 0
        if joined(e - 1, e) and _starts(words, e, _STOCK_AFTER):
            return n
    return None


def _cued(message: Message, numbers: list[_Number], cues: tuple[tuple[str, ...], ...]) -> _Number | None:
    """The first number right after one of the cue phrases, only spaces, '#' or '=' between ('day 4', 'day #4',
    'time step 5', 't=3'; not 'every day: 100')."""
    words, spans, text = message.words(), message.word_spans(), message.text
    for n in numbers:
        size = _ends(words, n.first, cues)
        if size and not text[spans[n.first - 1][1] : spans[n.first][0]].strip(" \t#="):
            return n
    return None


def _chains(numbers: list[_Number], words: tuple[str, ...]) -> list[list[_Number]]:
    """Runs of numbers said one after another ('3, 5', '3 and 5', '2 then 3'), left to right, each number once."""
    runs: list[list[_Number]] = []
    for n in numbers:
        prev = runs[-1][-1] if runs else None
        if prev and (n.first == prev.last + 1 or (n.first == prev.last + 2 and words[prev.last + 1] in _CHAIN_JOINERS)):
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _incoming(words: tuple[str, ...], numbers: list[_Number]) -> list[int] | None:
    """The incoming orders, next arrival first: the numbers after a pipeline word ('on order: 3, 5'), else a run
    of numbers before an arriving word ('3 and 5 arriving', '24 coming tomorrow')."""
    runs = _chains(numbers, words)
    firsts = {run[0].first: run for run in runs}
    taken = {i for n in numbers for i in range(n.first, n.last + 1)}
    for i in range(len(words)):
        if not (size := _starts(words, i, _PIPE_CUES)):
            continue
        for k in range(i + size, min(i + size + _PIPE_REACH, len(words))):
            if k in firsts:
                return [n.value for n in firsts[k]]
            if k in taken:  # the number is inside a run: read from it on
                run = next(r for r in runs if any(n.first <= k <= n.last for n in r))
                return [n.value for n in run if n.first >= k]
    for run in runs:
        e = run[-1].last + 1
        e += 1 if e < len(words) and words[e] in ("unit", "units") else 0
        if _starts(words, e, _ARRIVING):
            return [n.value for n in run]
    return None


def days_in(text: str, day_numbering: str = "from_one") -> int | None:
    """The time step a reply names: '20 days in' (20), 'it's day 4' (per the day numbering)."""
    message = parse(text)
    words = message.words()
    starts = [a for a, _ in message.word_spans()]
    for m in message.of(Kind.DURATION, live_only=False):
        after = bisect_left(starts, m.span[1])
        said = m.text.lower().replace("-", " ").split()
        counted = said[-1] in ("day", "days") and said[0] not in ("a", "an")  # not 'a night in', 'overnight in'
        if counted and m.amount == int(m.amount) and words[after : after + 1] in (("in",), ("into",)):
            return int(m.amount)
    day = _cued(message, _numbers(message), _DAY_WORDS)
    return None if day is None else step_of_day(day.value, day_numbering)


def parse_order_query(
    text: str, lead_time: int, day_numbering: str = "from_one", inventory: int | None = None
) -> OrderQuery | None:
    """Read "current inventory 4, day 4, no incoming orders" from the one parse; None unless a stock cue
    ("inventory", "on hand", "we have") is bound to a number by at most a few filler words, or `inventory` is
    the stock given earlier (then every number of the message may be a delivery). "day d" is read per
    `day_numbering`."""
    message = parse(text)
    words = message.words()
    numbers = _numbers(message)
    inv = _stock(message, numbers) if inventory is None else None  # a reply's numbers are all deliveries
    if inv is None and inventory is None:
        return None
    notes: list[str] = []
    step: int | None = None
    if m := _cued(message, numbers, _STEP_WORDS):
        step = m.value
    elif m := _cued(message, numbers, _DAY_WORDS):
        step = step_of_day(m.value, day_numbering)
    rest = [n for n in numbers if n is not inv and n is not m]
    pipeline: str | None = None
    if lead_time == 0 or any(_seq(words, i, pattern) for i in range(len(words)) for pattern in _NO_PIPE):
        pipeline = ""
    elif (values := _incoming(words, rest)) is not None:
        if len(values) < lead_time:
            notes.append(
                f"I read {len(values)} incoming order(s) for a {lead_time}-day lead time and took the rest as 0, "
                "next arrival first"
            )
            values += [0] * (lead_time - len(values))
        pipeline = ",".join(str(v) for v in values[:lead_time])
    stock = inv.value if inv is not None else int(inventory)  # type: ignore[arg-type]
    return OrderQuery(stock, step, pipeline, tuple(notes))


def make_order_tool(brief: PolicyBrief, day_numbering: str = "from_one") -> Callable[..., dict[str, object]]:
    """The order tool for this scenario: `calculate_dqn_order` (B) or `calculate_policy_order` (A); its
    description of `current_time_step` states the day numbering (what an LLM passes for the user's "day d")."""
    tool = _order_tool(brief)
    if check_day_numbering(day_numbering) == "fig4" and tool.__doc__:
        tool.__doc__ = tool.__doc__.replace(_STEP_DOC, _FIG4_STEP_DOC)
    return tool


_STEP_DOC = "current_time_step: today's period, counting from 0 for the first day of the plan"
_FIG4_STEP_DOC = (
    "current_time_step: today's period as the user numbers days (Fig. 4): the user's 'day 4' is 4, "
    "the first day of the plan is 0"
)


def _order_tool(brief: PolicyBrief) -> Callable[..., dict[str, object]]:
    p = brief.problem
    if brief.scenario == "B":
        if brief.artifacts_dir is None:
            raise SpecError("artifacts", "the DQN won but no deployment artifacts were written")
        folder = brief.artifacts_dir

        def calculate_dqn_order(
            current_inventory: int, current_time_step: int, pipeline_orders: str = ""
        ) -> dict[str, object]:
            """Recommended order quantity from the trained DQN for the current state of the stock.

            Args:
                current_inventory: units on hand now, before today's delivery
                current_time_step: today's period, counting from 0 for the first day of the plan
                pipeline_orders: outstanding orders, next arrival first, comma-separated such as "0,5"; "" when none
            """
            return engine_artifacts.calculate_dqn_order(
                current_inventory, current_time_step, _pipeline_text(pipeline_orders), folder
            )

        return calculate_dqn_order

    policy = brief.policy

    def calculate_policy_order(
        current_inventory: int, current_time_step: int = 0, pipeline_orders: str = ""
    ) -> dict[str, object]:
        """Order quantity the recommended policy places in the current state of the stock.

        Args:
            current_inventory: units on hand now, before today's delivery
            current_time_step: today's period, counting from 0 for the first day of the plan
            pipeline_orders: outstanding orders, next arrival first, comma-separated such as "0,5"; "" when none
        """
        pipe = parse_pipeline(_pipeline_text(pipeline_orders), p.lead_time)
        low = 0 if p.lost_sales else -10 * p.max_inventory
        if not low <= current_inventory <= p.max_on_hand:
            raise SpecError("current_inventory", f"must lie between {low} and {p.max_on_hand}")
        if not 0 <= current_time_step < p.time_horizon:
            raise SpecError("current_time_step", f"must lie between 0 and {p.time_horizon - 1}")
        on_hand, pipeline = (
            np.array([current_inventory]),
            np.array([pipe], dtype=np.int64).reshape(1, p.lead_time),
        )
        ip = on_hand + pipeline.sum(axis=1)
        asked = np.asarray(policy.orders(p, current_time_step, on_hand, pipeline), dtype=np.int64)
        order = int(truncate_orders(p, asked, counted_stock(p, on_hand, pipeline))[0])
        return {
            "recommended_order": order,
            "inventory_position": int(ip[0]),
            "policy": brief.recommended_policy,
        }

    return calculate_policy_order


def _pipeline_text(pipeline_orders: str) -> str:
    """ "0" (the paper's way of saying nothing is on order) and "" both mean an empty pipeline."""
    values = pipeline_orders.strip().strip("[]").replace(",", " ").split()  # a tool argument, not chat text
    return "" if all(v == "0" for v in values) else ",".join(values)
