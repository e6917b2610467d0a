"""Policies and parameters in a shop owner's words, from the same definitions the engine uses.

`plain_name("base_stock(48,cap=24)+cutoff", problem)` is "order up to 48, at most 24 a day, none in the last
day"; `cutoff_days` counts the days the engine's end-of-plan cutoff blocks (`solvers.inventory.policies.cut_off`);
`plain_value` (with the labels of `solvers.inventory.parameters`) shows the parameter table without snake_case
keys or `normal(20,7.5593)`.
The technical name stays available (tooltips, expanders): these are labels, never the data.
These read the engine's own strings (policy names, distribution strings), never chat text: `engine_call` splits
them with string methods.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.inventory.policies import cut_off
from solvers.inventory.spec import InventoryProblem, format_number


@dataclass(frozen=True)
class EngineCall:
    """An engine string of the form `kind(arg, key=value, ...)` with an optional `+cutoff`."""

    kind: str
    args: tuple[str, ...]
    cutoff: bool = False


def engine_call(text: str, cutoff: bool = True) -> EngineCall | None:
    """Split an engine name ("sS(8,20)", "base_stock(48,cap=24)+cutoff", "normal(20,7.5)") into its kind and
    stripped arguments; None for any other string. `cutoff=False` refuses a `+cutoff` tail (distributions)."""
    body = text.strip()
    cut = cutoff and body.endswith("+cutoff")
    if cut:
        body = body.removesuffix("+cutoff").rstrip()
    head, paren, rest = body.partition("(")
    kind = head.strip()
    inside = rest.removesuffix(")")
    if not (paren and kind.isidentifier() and rest.endswith(")") and ")" not in inside and "(" not in inside):
        return None
    return EngineCall(kind, tuple(a.strip() for a in inside.split(",")), cut)


def cutoff_days(problem: InventoryProblem) -> int:
    """How many final days of the plan the engine's cutoff keeps free of orders (the last L days)."""
    return sum(cut_off(problem, t) for t in range(problem.time_horizon))


def cutoff_words(problem: InventoryProblem | None) -> str:
    """The cutoff as a short clause: "none on the last day", "none in the last 3 days" ("" when it blocks none)."""
    if problem is None:
        return "none near the end of the plan"
    n = cutoff_days(problem)
    if n == 0:
        return ""
    return "none on the last day" if n == 1 else f"none in the last {n} days"


def _num(text: str) -> str:
    try:
        return format_number(round(float(text), 1))
    except ValueError:
        return text.strip()


def plain_name(policy: str, problem: InventoryProblem | None = None, unit: str = "") -> str:
    """A policy string of the engine ("sS(8,20)", "base_stock(48,cap=24)+cutoff", "constant(25)", "rQ(5,10)",
    "dp", "dqn", or a family key) in plain words; unknown strings come back unchanged."""
    key = policy.strip()
    families = {
        "dp": "exact optimal plan",
        "dqn": "learned policy (DQN)",
        "table": "exact optimal plan",
        "sS": "reorder-point rule",
        "sS_cutoff": "reorder-point rule, stopping before the end",
        "base_stock": "order-up-to rule",
        "base_stock_cutoff": "order-up-to rule, stopping before the end",
        "constant": "fixed daily order",
        "rQ": "fixed-batch rule",
    }
    if key in families:
        return families[key]
    call = engine_call(key)
    if call is None:
        return policy
    kind, args, cut = call.kind, call.args, call.cutoff
    u = f" {unit}" if unit else ""
    named = {a.split("=")[0]: a.split("=")[1] for a in args if "=" in a}
    plain = [a for a in args if "=" not in a]
    if kind == "sS" and len(plain) == 2:
        text = f"when below {plain[0]}, top up to {plain[1]}{u}"
    elif kind == "base_stock" and plain:
        text = f"order up to {plain[0]}{u}" + (f", at most {named['cap']} a day" if "cap" in named else "")
    elif kind == "constant" and plain:
        text = f"order {plain[0]}{u} every day"
    elif kind == "rQ" and len(plain) == 2:
        text = f"when below {plain[0]}, order {plain[1]}{u}"
    else:
        return policy
    if cut and (clause := cutoff_words(problem)):
        text += f", {clause}"
    return text


def plain_value(key: str, value: object) -> str:
    """A parameter value as a shop owner reads it ("about 20 a day, give or take 7.6"); other values as is."""
    text = "" if value is None else str(value).strip()
    if key == "demand_distribution" and (call := engine_call(text, cutoff=False)):
        name, args = call.kind.lower(), [a for a in call.args if a]
        if name == "normal" and len(args) == 2:
            return f"about {_num(args[0])} a day, give or take {_num(args[1])}"
        if name == "poisson" and len(args) == 1:
            return f"about {_num(args[0])} a day, at random"
        if name == "uniform" and len(args) == 2:
            return f"between {_num(args[0])} and {_num(args[1])} a day"
        if name == "empirical":
            return f"as in your sales history ({len(args)} days)"
    if key == "state_transition_model":
        return {"lost_sale": "the sale is lost", "backlog": "customers wait (backorder)"}.get(text, text)
    if key == "perishability":
        return {"true": "yes, thrown out each day", "false": "no"}.get(text.lower(), text)
    return text
