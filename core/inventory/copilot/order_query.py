"""Order queries: the stock state read from a user's message, and the typed tool that computes the order.

`parse_order_query` reads "current inventory 4, day 4, no incoming orders"; `make_order_tool(brief)` is
`calculate_dqn_order` (Scenario B) or `calculate_policy_order` (Scenario A).

Day numbering (a paper-exact switch): the tools take a 0-based `current_time_step`. `"from_one"` (default)
reads the user's "day d" as the d-th day of the plan, time step d − 1; `"fig4"` is Figure 4's convention,
where "day 4" is passed on as `current_time_step` 4 (the plan's first day is day 0).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.errors import SpecError
from core.inventory.copilot.policy_brief import PolicyBrief
from core.text.numbers import words_to_digits
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


_FILLER = r"(?:\s+|\s*[:=,-]\s*|\s+(?:level|position|count|on hand|now|currently|right now|today|is|are|of|at|about|around|only|just|got)\b)*"
_NOT_STOCK = r"(?!\s*(?:\.\d|[eE]\d|%|percent|days?\b|weeks?\b|months?\b|dollars?\b|cents?\b|\$))"
_INV_RE = re.compile(
    rf"(?:inventory|stock|on[- ]hand|(?:i|we) (?:have|hold|got)|have got){_FILLER}\s*(\d+){_NOT_STOCK}"
    rf"|(?<![$.\d])(\d+){_NOT_STOCK}\s*(?:units?|items?|pieces?)?\s*(?:on hand|in stock|left|on the shelf|in inventory)",
    re.I,
)
_DAY_RE = re.compile(r"\bday\s*(?:number\s*|no\.?\s*|#\s*)?(\d+)", re.I)
_STEP_RE = re.compile(r"\b(?:time[- ]?step|step|period|t\s*=)\s*(\d+)", re.I)
_NO_PIPE_RE = re.compile(
    r"\bno(?:thing)?\s+(?:\w+\s+)?(?:incoming|pipeline|outstanding|open|pending)|nothing\s+(?:(?:is|was)\s+)?(?:on order|"
    r"incoming|in the pipeline|on the way|coming)|no orders?\s+(?:(?:are|is)\s+)?(?:on the way|in transit|coming|pending)|"
    r"pipeline\s+(?:is\s+)?empty|empty pipeline|none (?:incoming|on order)|nothing ordered",
    re.I,
)
# "3 and 5 arriving": a chain of numbers, then the word. Chains are found left to right (each text position is
# read once) and only then checked for the word: one regex for both tried every number of a long "1,1,1,..."
# line as a start, which is quadratic at the chat line cap.
_CHAIN_RE = re.compile(r"\d+(?:\s*(?:,|and)\s*\d+)*", re.I)
_ARRIVING_RE = re.compile(
    r"\s*(?:units?\s*)?(?:arriving|incoming|on order|on the way|in transit|coming)", re.I
)
_PIPE_RE = re.compile(
    r"(?:pipeline|incoming|on order|on the way|outstanding|in transit|arriving)\D{0,30}?"
    r"(\d+(?:\s*(?:,|and|then|&|\s)\s*\d+)*)",
    re.I,
)


def parse_order_query(text: str, lead_time: int, day_numbering: str = "from_one") -> OrderQuery | None:
    """Read "current inventory 4, day 4, no incoming orders"; None unless a stock cue ("inventory", "on hand",
    "we have") is bound to the number by at most a few filler words. "day d" is read per `day_numbering`."""
    t = words_to_digits(text)
    inv = _INV_RE.search(t)
    if inv is None:
        return None
    notes: list[str] = []
    step: int | None = None
    spans = [inv.span()]
    if m := _STEP_RE.search(t):
        step, spans = int(m.group(1)), [*spans, m.span()]
    elif m := _DAY_RE.search(t):
        step, spans = step_of_day(int(m.group(1)), day_numbering), [*spans, m.span()]
    rest = t
    for a, b in spans:
        rest = rest[:a] + " " * (b - a) + rest[b:]
    pipeline: str | None = None
    if lead_time == 0 or _NO_PIPE_RE.search(t):
        pipeline = ""
    elif chain := _incoming_chain(rest):
        values = [int(x) for x in re.findall(r"\d+", chain)]
        if len(values) < lead_time:
            notes.append(
                f"I read {len(values)} incoming order(s) for a {lead_time}-day lead time and took the rest as 0, "
                "next arrival first"
            )
            values += [0] * (lead_time - len(values))
        pipeline = ",".join(str(v) for v in values[:lead_time])
    return OrderQuery(int(inv.group(1) or inv.group(2)), step, pipeline, tuple(notes))


def _incoming_chain(text: str) -> str | None:
    """The numbers of the incoming orders: after a pipeline word ("on order: 3, 5"), else before one."""
    if m := _PIPE_RE.search(text):
        return m.group(1)
    return next((m.group(0) for m in _CHAIN_RE.finditer(text) if _ARRIVING_RE.match(text, m.end())), None)


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
