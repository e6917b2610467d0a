"""Model-state edits as tool calls: the diff between two states, and an offered relaxation applied to a state.

Undo, start over and relaxations all reach a target state through the ordinary tools, so every change
is recorded (and replayable) like any other tool call.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from core.schedule.state import Constraint, ModelState
from solvers.schedule.data import format_time
from solvers.schedule.diagnose import Relaxation
from solvers.schedule.model import OBJECTIVES

Call = tuple[str, dict[str, Any]]


def relaxed_state(base: ModelState, relax: Relaxation) -> ModelState:
    """`base` with one relaxation applied: a bound raised, a fixed school moved, or constraints removed."""
    if relax.action == "remove":
        return base.without(set(relax.constraints))
    out = []
    for c in base.constraints:
        if c.name not in relax.constraints:
            out.append(c)
        elif relax.action == "raise_bound":
            out.append(Constraint("bound", objective=c.objective, value=relax.value))
        else:
            out.append(Constraint("fix", school=c.school, minutes=int(relax.value or 0)))
    return replace(base, constraints=tuple(out))


def diff_calls(current: ModelState, target: ModelState, short: bool) -> list[Call]:
    """Calls from `current` to `target`; short=True skips removals a later fix or bound replaces anyway."""
    added = [c for c in target.constraints if c not in current.constraints or not short]

    def replaced(c: Constraint) -> bool:
        if c.kind == "bound":
            return any(a.kind == "bound" and a.objective == c.objective for a in added)
        return any(a.kind == "fix" and a.school == c.school for a in added)

    calls: list[Call] = [
        ("remove_constraint", {"name": c.name})
        for c in current.constraints
        if (c not in target.constraints or not short) and not (short and replaced(c))
    ]
    for c in added:
        if c.kind == "bound":
            calls.append(("add_objective_upper_bound", {"objective": c.objective, "value": c.value}))
        else:
            calls.append(
                ("fix_start_time", {"school": c.school, "time": format_time(c.minutes), "type": c.kind})
            )  # type: ignore[arg-type]
    for objective in sorted(OBJECTIVES, key=lambda o: -target.weight(o)):
        if current.weight(objective) != target.weight(objective):
            calls.append(
                ("change_objective_weight", {"objective": objective, "weight": target.weight(objective)})
            )
    return calls
