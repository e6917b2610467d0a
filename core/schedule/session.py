"""The T-P-P toolkit (seed 003 §3.3, Section 9 tips) as methods of a session holding the model state.

Every tool validates its arguments (unknown schools and times come back as errors naming the valid
ones), edits the immutable `ModelState`, and returns the current model summary. `call_solver`
returns a processed solution, or, when the model is infeasible, the conflicting constraints and
tested relaxations; the last feasible proposal stays current.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from core.errors import SpecError
from core.schedule.processing import bound_text, objective_lines, schedule_changes
from core.schedule.state import Constraint, ModelState, resolve_school, resolve_time
from solvers.schedule.data import District, format_time, sfusd_district
from solvers.schedule.diagnose import InfeasibilityReport, diagnose_infeasibility
from solvers.schedule.model import DEVIATION, LOAD, OBJECTIVES, ScheduleResult, solve_schedule
from solvers.schedule.pareto import ParetoPoint, alternatives_near, pareto_frontier

Objective = Literal["student_load_balancing", "schedule_deviation"]


@dataclass(frozen=True)
class Proposal:
    """A solved schedule together with the model state that produced it."""

    number: int
    state: ModelState
    result: ScheduleResult


@dataclass(frozen=True)
class Attempt:
    """The latest call_solver: its state, result and (if infeasible) the diagnosis."""

    state: ModelState
    result: ScheduleResult
    report: InfeasibilityReport | None = None


class ScheduleSession:
    """Model state, proposals and the tools an agent (offline or LLM) uses to edit and solve."""

    def __init__(self, district: District | None = None, time_limit: float = 10.0) -> None:
        self.district = district or sfusd_district()
        self.time_limit = time_limit
        self.state = ModelState()
        self.proposals: list[Proposal] = []
        self.last_attempt: Attempt | None = None
        self.alternatives: tuple[ParetoPoint, ...] = ()

    # ----- read-only views -------------------------------------------------------------------
    @property
    def current(self) -> Proposal | None:
        return self.proposals[-1] if self.proposals else None

    @property
    def previous(self) -> Proposal | None:
        return self.proposals[-2] if len(self.proposals) > 1 else None

    def tools(self) -> list[Callable[..., dict[str, Any]]]:
        """The tools in the order the prompt describes them."""
        return [
            self.fix_start_time,
            self.change_objective_weight,
            self.add_objective_upper_bound,
            self.remove_constraint,
            self.call_solver,
            self.get_model_summary,
            self.show_alternatives,
        ]

    def summary(self) -> dict[str, Any]:
        """Weights, active constraints (name and meaning), options and the current proposal's values."""
        current = self.current
        return {
            "objective_weights": {LOAD: self.state.alpha, DEVIATION: self.state.beta},
            "active_constraints": [{"name": c.name, "meaning": c.meaning} for c in self.state.constraints],
            "start_time_options": list(self.district.time_labels),
            "current_proposal": None
            if current is None
            else {
                "number": current.number,
                LOAD: current.result.load,
                DEVIATION: current.result.deviation,
                "solved_with_current_model": current.state == self.state,
            },
        }

    # ----- tools -----------------------------------------------------------------------------
    def fix_start_time(
        self, school: str, time: str, type: Literal["fix", "forbid"] = "fix"
    ) -> dict[str, Any]:
        """Fix a school to one start time, or forbid that start time for it.

        Conflicting constraints for the same school are removed automatically (a fix replaces any
        earlier fix and forbids of that school; a forbid replaces a fix at the same time).

        Args:
            school: School name as in the data table (close spellings are matched).
            time: One of the start-time options, e.g. "8:40 AM".
            type: "fix" to require this start time, "forbid" to exclude it.
        """
        name = resolve_school(self.district, school)
        minutes = resolve_time(self.district, time)
        if type not in ("fix", "forbid"):
            raise SpecError("type", f"type must be 'fix' or 'forbid', got {type!r}")
        kept, removed = [], []
        for c in self.state.constraints:
            same_school = c.school == name
            conflict = same_school and (type == "fix" or (c.kind == "fix" and c.minutes == minutes))
            duplicate = same_school and c.kind == type and c.minutes == minutes
            (removed if conflict or duplicate else kept).append(c)
        if type == "forbid":
            banned = {c.minutes for c in kept if c.school == name and c.kind == "forbid"} | {minutes}
            if banned >= set(self.district.start_times):
                raise SpecError(
                    "time",
                    f"forbidding {format_time(minutes)} would leave {name} no start time; "
                    "remove another forbid for this school first",
                )
        added = Constraint(type, school=name, minutes=minutes)
        self.state = replace(self.state, constraints=tuple(kept) + (added,))
        verb = "must start at" if type == "fix" else "may not start at"
        message = f"Added {added.name}: {name} {verb} {format_time(minutes)}."
        conflicting = [c.name for c in removed if c.name != added.name]
        if conflicting:
            message += f" Removed conflicting: {', '.join(conflicting)}."
        return {"message": message, "model_summary": self.summary()}

    def change_objective_weight(self, objective: Objective, weight: float) -> dict[str, Any]:
        """Set the weight of one objective in the weighted sum (alpha for load, beta for deviation; default 1).

        Args:
            objective: "student_load_balancing" or "schedule_deviation".
            weight: New weight, a number >= 0 (larger means this objective matters more).
        """
        objective = self._objective(objective)
        if not math.isfinite(weight) or weight < 0:
            raise SpecError("weight", f"weight must be a finite number >= 0, got {weight}")
        other = DEVIATION if objective == LOAD else LOAD
        if weight == 0 and self.state.weight(other) == 0:
            raise SpecError("weight", "at least one objective must keep a positive weight")
        old = self.state.weight(objective)
        self.state = self.state.with_weight(objective, float(weight))
        return {
            "message": f"Changed the weight of {objective} from {old:g} to {weight:g}.",
            "model_summary": self.summary(),
        }

    def add_objective_upper_bound(self, objective: Objective, value: float) -> dict[str, Any]:
        """Impose objective <= value; replaces an earlier bound on the same objective.

        student_load_balancing is in hundreds of students (24.5 = 2,450 students); schedule_deviation is in
        minutes. To lower an objective the bound must be binding: below the current value.

        Args:
            objective: "student_load_balancing" or "schedule_deviation".
            value: Upper bound in the objective's units (a number > 0).
        """
        objective = self._objective(objective)
        if not math.isfinite(value) or value <= 0:
            raise SpecError("value", f"the bound must be a positive number, got {value}")
        replaced = self.state.bound(objective)
        added = Constraint("bound", objective=objective, value=float(value))
        kept = tuple(c for c in self.state.constraints if c.name != added.name)
        self.state = replace(self.state, constraints=kept + (added,))
        message = f"Added {added.name}: {bound_text(objective, value)}."
        if replaced is not None:
            message += f" It replaces the earlier limit {replaced:g}."
        current = self.current
        if current is not None:
            now = current.result.load if objective == LOAD else current.result.deviation
            binding = "binding" if now > value + 1e-9 else "not binding"
            message += f" The current proposal has {objective} = {now:g}, so this limit is {binding}."
        return {"message": message, "model_summary": self.summary()}

    def remove_constraint(self, name: str) -> dict[str, Any]:
        """Remove one active constraint by its name (as listed in the model summary).

        Args:
            name: Constraint name, e.g. "fix_start_time[Everett MS=9:30 AM]" or "upper_bound[schedule_deviation]".
        """
        found = self.state.find(name.strip())
        if found is None:
            if name.strip().startswith(("assign_one_start_time", "max_students_per_time", "change_")):
                raise SpecError("name", f"{name} is part of the base model and cannot be removed")
            active = ", ".join(self.state.names()) or "none"
            raise SpecError("name", f"no active constraint named {name!r}; active constraints: {active}")
        self.state = replace(
            self.state, constraints=tuple(c for c in self.state.constraints if c is not found)
        )
        return {"message": f"Removed {found.name} ({found.meaning}).", "model_summary": self.summary()}

    def call_solver(self) -> dict[str, Any]:
        """Solve the current model and return the processed solution (or why it is infeasible)."""
        spec = self.state.to_spec(self.district, self.time_limit)
        result = solve_schedule(spec)
        if not result.has_schedule:
            report = diagnose_infeasibility(spec) if result.status.value == "infeasible" else None
            self.last_attempt = Attempt(self.state, result, report)
            return self._infeasible(result, report)
        previous = self.current
        proposal = Proposal(len(self.proposals) + 1, self.state, result)
        self.proposals.append(proposal)
        self.last_attempt = Attempt(self.state, result)
        return self.processed(proposal, previous) | {"model_summary": self.summary()}

    def get_model_summary(self) -> dict[str, Any]:
        """Show the current objective weights, active constraints and the current proposal's values."""
        return {"model_summary": self.summary()}

    def show_alternatives(self, count: int = 3) -> dict[str, Any]:
        """Show distinct efficient alternatives (load vs deviation) near the current proposal; the model is unchanged.

        Args:
            count: How many alternatives to show (1 to 5).
        """
        if not 1 <= count <= 5:
            raise SpecError("count", f"ask for 1 to 5 alternatives, got {count}")
        spec = self.state.to_spec(self.district, self.time_limit)
        spec = replace(spec, max_load=None, max_deviation=None)
        frontier = pareto_frontier(spec)
        current = self.current
        if current is None:
            picked = frontier[:count]
        else:
            picked = alternatives_near(
                frontier, current.result.load, current.result.deviation, current.result.assignment, count
            )
        self.alternatives = picked
        options = [
            {
                "option": i + 1,
                "objectives": {LOAD: p.load, DEVIATION: p.deviation},
                "objective_summary": objective_lines(p.load, p.deviation),
                "schedule": p.result.schedule,
                "changes_vs_current_proposal": schedule_changes(
                    self.district, p.result.assignment, None if current is None else current.result.assignment
                ),
            }
            for i, p in enumerate(picked)
        ]
        note = (
            "Efficient trade-offs between peak load and average change under the fixes/forbids in force "
            "(objective bounds ignored). To adopt one, bound both objectives at its values and call the solver."
        )
        return {"alternatives": options, "note": note, "model_summary": self.summary()}

    # ----- helpers ---------------------------------------------------------------------------
    def frontier(self) -> list[dict[str, Any]]:
        """Efficient load/deviation schedules under the active fixes and forbids (bounds ignored), for charts."""
        spec = replace(self.state.to_spec(self.district, self.time_limit), max_load=None, max_deviation=None)
        marks = {p.result.assignment: p.number for p in self.proposals}
        current = self.current.result.assignment if self.current else None
        return [
            {
                LOAD: p.load,
                DEVIATION: p.deviation,
                "schedule": p.result.schedule,
                "is_current": p.result.assignment == current,
                "proposal": marks.get(p.result.assignment),
            }
            for p in pareto_frontier(spec)
        ]

    def processed(self, proposal: Proposal, previous: Proposal | None) -> dict[str, Any]:
        """The T-P-P processed solution of one proposal."""
        result = proposal.result
        out: dict[str, Any] = {
            "status": result.status.value,
            "proposal": proposal.number,
            "schedule": dict(result.schedule),
            "objectives": {LOAD: result.load, DEVIATION: result.deviation},
            "objective_summary": objective_lines(result.load, result.deviation),
            "changes_vs_current_schedule": schedule_changes(self.district, result.assignment, None),
            "changes_vs_previous_proposal": []
            if previous is None
            else schedule_changes(self.district, result.assignment, previous.result.assignment),
            "solver": {"name": result.solver, "seconds": round(result.seconds, 4), "gap": result.gap},
        }
        if result.status.value == "feasible":
            out["note"] = (
                f"Time limit reached; best schedule found is within a {100 * (result.gap or 0):.2f}% gap."
            )
        return out

    def _infeasible(self, result: ScheduleResult, report: InfeasibilityReport | None) -> dict[str, Any]:
        current = self.current
        out: dict[str, Any] = {
            "status": result.status.value,
            "message": "No schedule satisfies all active constraints."
            if report
            else "The solver stopped at its time limit without finding a schedule.",
            "model_summary": self.summary(),
        }
        if report is not None:
            out["conflicting_constraints"] = list(report.conflicts)
            out["relaxations"] = [
                {
                    "constraints": list(r.constraints),
                    "action": r.action,
                    "description": r.description,
                    "value": r.value,
                    "resulting_objectives": {LOAD: r.load, DEVIATION: r.deviation},
                }
                for r in report.relaxations
            ]
        out["current_proposal_kept"] = None if current is None else current.number
        return out

    def _objective(self, objective: str) -> str:
        if objective not in OBJECTIVES:
            raise SpecError("objective", f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
        return objective

    def calls_to_reach(self, target: ModelState) -> list[tuple[str, dict[str, Any]]]:
        """Tool calls that turn the current state into `target` (used for undo and start over)."""
        calls: list[tuple[str, dict[str, Any]]] = []
        for c in self.state.constraints:
            if c not in target.constraints:
                calls.append(("remove_constraint", {"name": c.name}))
        for c in target.constraints:
            if c in self.state.constraints:
                continue
            if c.kind == "bound":
                calls.append(("add_objective_upper_bound", {"objective": c.objective, "value": c.value}))
            else:
                calls.append(
                    ("fix_start_time", {"school": c.school, "time": format_time(c.minutes), "type": c.kind})
                )
        for objective in sorted(OBJECTIVES, key=lambda o: -target.weight(o)):
            if self.state.weight(objective) != target.weight(objective):
                calls.append(
                    ("change_objective_weight", {"objective": objective, "weight": target.weight(objective)})
                )
        return calls
