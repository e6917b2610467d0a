"""Infeasibility analysis for the schedule MILP: which stakeholder constraints conflict, and which
relaxations would restore feasibility.

The base model (one start per school) is always feasible, so any infeasibility comes from added
rows: fixes, forbids, objective upper bounds and excluded schedules. A deletion filter (Chinneck)
over those members, with a MIP feasibility solve per probe, leaves an irreducible conflicting
set. For each member of that set we then test concrete repairs: raise a bound to the smallest
value that works, move a fixed school to another start time, or drop the member. With a bounded
extra effort (dropping one member of the first set at a time) a second, disjoint conflict is found
when one exists, so the explanation does not pretend the first set is the only problem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from core.errors import SpecError
from solvers.schedule.data import format_time
from solvers.schedule.model import (
    DEVIATION,
    LOAD,
    ScheduleSpec,
    bound_name,
    fix_name,
    forbid_name,
    solve_schedule,
)

_ACTIONS = ("raise_bound", "change_time", "remove")


@dataclass(frozen=True)
class Relaxation:
    """One way to restore feasibility, with the objectives of the schedule it then gives."""

    constraints: tuple[str, ...]
    action: str
    description: str
    value: float | None
    load: float
    deviation: float

    def __post_init__(self) -> None:
        if not self.constraints:
            raise SpecError("constraints", "a relaxation names at least one constraint")
        if self.action not in _ACTIONS:
            raise SpecError("action", f"unknown relaxation {self.action!r}; one of {', '.join(_ACTIONS)}")


@dataclass(frozen=True)
class InfeasibilityReport:
    """An irreducible set of conflicting constraint names, the relaxations that fix it, and other
    conflicting sets found among the remaining constraints."""

    conflicts: tuple[str, ...]
    relaxations: tuple[Relaxation, ...]
    other_conflicts: tuple[tuple[str, ...], ...] = ()


def _members(spec: ScheduleSpec) -> list[tuple[str, str, object]]:
    members: list[tuple[str, str, object]] = [("fixed", fix_name(s, t), (s, t)) for s, t in spec.fixed]
    members += [("forbidden", forbid_name(s, t), (s, t)) for s, t in spec.forbidden]
    if spec.max_load is not None:
        members.append(("max_load", bound_name(LOAD), spec.max_load))
    if spec.max_deviation is not None:
        members.append(("max_deviation", bound_name(DEVIATION), spec.max_deviation))
    members += [("excluded", f"exclude_schedule[{k + 1}]", cut) for k, cut in enumerate(spec.excluded)]
    return members


def _subset(spec: ScheduleSpec, members: list[tuple[str, str, object]]) -> ScheduleSpec:
    keep = {kind: [v for k, _, v in members if k == kind] for kind in ("fixed", "forbidden", "excluded")}
    loads = [v for k, _, v in members if k == "max_load"]
    devs = [v for k, _, v in members if k == "max_deviation"]
    return replace(
        spec,
        fixed=tuple(keep["fixed"]),
        forbidden=tuple(keep["forbidden"]),
        excluded=tuple(keep["excluded"]),
        max_load=loads[0] if loads else None,
        max_deviation=devs[0] if devs else None,
    )


def _feasible(spec: ScheduleSpec) -> bool:
    return solve_schedule(replace(spec, alpha=0.0, beta=0.0, gamma=())).has_schedule


def conflicting_constraints(spec: ScheduleSpec) -> tuple[str, ...]:
    """Names of an irreducible infeasible subset of the added constraints (empty if feasible)."""
    members = _members(spec)
    if _feasible(_subset(spec, members)):
        return ()
    kept = list(members)
    for member in members:
        trial = [m for m in kept if m is not member]
        if not _feasible(_subset(spec, trial)):
            kept = trial
    return tuple(name for _, name, _ in kept)


def other_conflicts(
    spec: ScheduleSpec, first: tuple[str, ...], tries: int = 3
) -> tuple[tuple[str, ...], ...]:
    """A second irreducible conflict: drop one member of the first set (up to `tries`) and look again."""
    members = _members(spec)
    for name in first[:tries]:
        rest = _subset(spec, [m for m in members if m[1] != name])
        if not _feasible(rest):
            second = conflicting_constraints(rest)
            return (second,) if second and set(second) != set(first) else ()
    return ()


def diagnose_infeasibility(spec: ScheduleSpec) -> InfeasibilityReport:
    """Conflicting constraints plus tested relaxations (each one leaves a feasible model)."""
    conflicts = conflicting_constraints(spec)
    members = _members(spec)
    relaxations: list[Relaxation] = []
    for kind, name, value in members:
        if name not in conflicts:
            continue
        others = [m for m in members if m[1] != name]
        base = _subset(spec, others)
        if kind in ("max_load", "max_deviation"):
            relaxations.extend(_raise_bound(base, kind, name))
        elif kind == "fixed":
            relaxations.extend(_move_fixed(base, name, value))
        result = solve_schedule(base)
        if result.has_schedule:
            relaxations.append(
                Relaxation((name,), "remove", f"remove {name}", None, result.load, result.deviation)
            )
    if conflicts and not relaxations:
        relaxations.append(_remove_until_feasible(spec))
    return InfeasibilityReport(conflicts, tuple(relaxations), other_conflicts(spec, conflicts))


def _remove_until_feasible(spec: ScheduleSpec) -> Relaxation:
    """Several independent conflicts: drop one conflicting set after another until a schedule exists."""
    members, dropped = _members(spec), []
    while True:
        current = _subset(spec, members)
        result = solve_schedule(current)
        if result.has_schedule:
            names = tuple(dropped)
            return Relaxation(
                names, "remove", "remove " + " and ".join(names), None, result.load, result.deviation
            )
        conflict = set(conflicting_constraints(current))
        dropped += [name for _, name, _ in members if name in conflict]
        members = [m for m in members if m[1] not in conflict]


def _raise_bound(base: ScheduleSpec, kind: str, name: str) -> list[Relaxation]:
    objective = LOAD if kind == "max_load" else DEVIATION
    weights = {"alpha": 1.0, "beta": 0.0} if objective == LOAD else {"alpha": 0.0, "beta": 1.0}
    best = solve_schedule(replace(base, gamma=(), **weights))
    if not best.has_schedule:
        return []
    floor = best.load if objective == LOAD else best.deviation
    limit = math.ceil(floor * 100 - 1e-6) / 100
    result = solve_schedule(replace(base, **{kind: limit}))
    if not result.has_schedule:
        return []
    unit = "" if objective == LOAD else " minutes"
    return [
        Relaxation(
            (name,),
            "raise_bound",
            f"raise the {objective} limit to {limit:g}{unit}",
            limit,
            result.load,
            result.deviation,
        )
    ]


def _move_fixed(base: ScheduleSpec, name: str, value: object) -> list[Relaxation]:
    school, minutes = value  # type: ignore[misc]
    out = []
    for other in base.district.start_times:
        if other == minutes or (school, other) in base.forbidden:
            continue
        result = solve_schedule(replace(base, fixed=base.fixed + ((school, other),)))
        if result.has_schedule:
            out.append(
                Relaxation(
                    (name,),
                    "change_time",
                    f"start {school} at {format_time(other)} instead",
                    float(other),
                    result.load,
                    result.deviation,
                )
            )
    return out
