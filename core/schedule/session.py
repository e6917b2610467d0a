"""The T-P-P toolkit (seed 003 §3.3, Section 9 tips) as methods of a session holding the model state.

Every tool validates its arguments (unknown schools and times come back as errors naming the valid
ones), edits the immutable `ModelState`, and returns the current model summary. `call_solver`
returns a processed solution, or, when the model is infeasible, the conflicting constraints and
tested relaxations; the model then rolls back to the last feasible proposal's state (Section 9:
resolve the infeasibility before further changes) and `relaxed_state` applies a chosen relaxation
to the attempted model. With `rollback=False` (the lab's T-P-P paper mode) the infeasible model is kept
and the agent must relax or remove constraints itself. `history` is the undo stack of accepted model states.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from core import config
from core.errors import SpecError
from core.schedule.edits import Call, diff_calls, relaxed_state
from core.schedule.frontier import FrontierCache, frontier_rows, next_best_points
from core.schedule.processing import (
    alternatives_payload,
    bound_text,
    format_deviation,
    format_load,
    infeasible_payload,
    solution_payload,
)
from core.schedule.state import Attempt, Constraint, ModelState, Proposal, resolve_school, resolve_time
from solvers.schedule.data import District, format_time, sfusd_district
from solvers.schedule.diagnose import InfeasibilityReport, Relaxation, diagnose_infeasibility
from solvers.schedule.model import DEVIATION, LOAD, OBJECTIVES, ScheduleResult, solve_schedule
from solvers.schedule.pareto import Frontier, ParetoPoint, alternatives_near

Objective = Literal["student_load_balancing", "schedule_deviation"]


class ScheduleSession:
    """Model state, proposals and the tools an agent (offline or LLM) uses to edit and solve."""

    def __init__(
        self,
        district: District | None = None,
        time_limit: float = 10.0,
        frontier_points: int = 10,
        frontier_budget: float | None = None,
        *,
        rollback: bool = True,
    ) -> None:
        self.district = district or sfusd_district()
        self.rollback = rollback
        self.time_limit = time_limit
        self.frontier_points = frontier_points
        self.frontier_budget = config.frontier_budget() if frontier_budget is None else frontier_budget
        self.state = ModelState()
        self.proposals: list[Proposal] = []
        self.history: list[ModelState] = []
        self.last_attempt: Attempt | None = None
        self.alternatives: tuple[ParetoPoint, ...] = ()
        self.frontiers = FrontierCache()

    # ----- read-only views -------------------------------------------------------------------
    @property
    def current(self) -> Proposal | None:
        return self.proposals[-1] if self.proposals else None

    @property
    def previous(self) -> Proposal | None:
        return self.proposals[-2] if len(self.proposals) > 1 else None

    @property
    def infeasible(self) -> Attempt | None:
        """The last call_solver when it found no schedule (its relaxations are still on offer)."""
        attempt = self.last_attempt
        return attempt if attempt is not None and not attempt.result.has_schedule else None

    def dismiss_infeasible(self) -> None:
        """Forget the offered relaxations (the user moved on or took the request back)."""
        if self.infeasible is not None:
            self.last_attempt = None

    def undo_target(self) -> ModelState | None:
        """The state 'undo' returns to: unsolved edits first, else the state before the last accepted change."""
        if not self.history:
            return None
        if not self.state.same_model(self.history[-1]):
            return self.history[-1]
        return self.history[-2] if len(self.history) > 1 else None

    def _remember(self, state: ModelState) -> None:
        """Push a newly accepted state; reaching an earlier state again rewinds the stack to it."""
        for i, earlier in enumerate(self.history):
            if earlier.same_model(state):
                del self.history[i + 1 :]
                return
        self.history.append(state)

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
                "solved_with_current_model": current.state.same_model(self.state),
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
            words = format_load(now) if objective == LOAD else format_deviation(now)
            name = "a peak load of" if objective == LOAD else "an average change of"
            message += f" The current proposal has {name} {words}, so this limit is {binding}."
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
        """Solve the current model and return the processed solution (or why it is infeasible).

        When no schedule exists the model rolls back to the current proposal's constraints; the
        result lists the attempted constraints, the conflicts and tested relaxations.
        """
        spec = self.state.to_spec(self.district, self.time_limit)
        result = solve_schedule(spec)
        if not result.has_schedule:
            report = diagnose_infeasibility(spec) if result.status.value == "infeasible" else None
            self.last_attempt = Attempt(self.state, result, report)
            if self.current is not None and self.rollback:
                self.state = self.current.state
            return self._infeasible(result, report)
        return self.accept(result)

    def accept(self, result: ScheduleResult) -> dict[str, Any]:
        """Make `result`, a schedule solved for the current model, the next proposal (`call_solver`'s success;
        the page hands in the opening solve it computed in the background)."""
        previous = self.current
        proposal = Proposal(len(self.proposals) + 1, self.state, result)
        self.proposals.append(proposal)
        self._remember(self.state)
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
        frontier, current = self._frontier(), self.current
        picked = list(frontier.points[:count])
        if current is not None:
            result = current.result
            picked = list(
                alternatives_near(frontier.points, result.load, result.deviation, result.assignment, count)
            )
        on_frontier = len(picked)
        if len(picked) < count:
            picked += self._next_best(count - len(picked), picked)
        self.alternatives = tuple(picked)
        out = alternatives_payload(
            self.district, picked, on_frontier, None if current is None else current.result.assignment
        )
        if not frontier.complete:
            out["note"] += " The frontier search hit its time budget, so this is a partial frontier."
        return out | {"model_summary": self.summary()}

    # ----- frontier views --------------------------------------------------------------------
    def _frontier(self) -> Frontier:
        """Bounded epsilon-grid frontier under the fixes and forbids, cached per district and constraints."""
        spec = self.state.to_spec(self.district, self.time_limit)
        return self.frontiers.get(spec, points=self.frontier_points, budget=self.frontier_budget)

    def _next_best(self, count: int, taken: list[ParetoPoint]) -> list[ParetoPoint]:
        """Distinct next-best schedules for the current weights, avoiding the shown ones and the current one."""
        seen = [p.result.assignment for p in taken]
        if self.current is not None:
            seen.append(self.current.result.assignment)
        return next_best_points(self.state.to_spec(self.district, self.time_limit), count, seen)

    def frontier(self) -> list[dict[str, Any]]:
        """Efficient load/deviation schedules under the active fixes and forbids (bounds ignored), for charts."""
        return frontier_rows(self._frontier(), self.proposals, self.current)

    @property
    def frontier_ready(self) -> bool:
        """Whether the frontier for the current constraints is computed (`frontier()` then answers at once)."""
        spec = self.state.to_spec(self.district, self.time_limit)
        return self.frontiers.has(spec, points=self.frontier_points, budget=self.frontier_budget)

    @property
    def frontier_partial(self) -> bool:
        """True when the cached frontier for the current constraints was cut by its time budget."""
        return not self._frontier().complete

    # ----- helpers ---------------------------------------------------------------------------
    def processed(self, proposal: Proposal, previous: Proposal | None) -> dict[str, Any]:
        """The T-P-P processed solution of one proposal."""
        return solution_payload(self.district, proposal.number, proposal.result, previous and previous.result)

    def _infeasible(self, result: ScheduleResult, report: InfeasibilityReport | None) -> dict[str, Any]:
        attempted = self.last_attempt.state if self.last_attempt else self.state
        current = None if self.current is None else self.current.number
        attempted_rows = [{"name": c.name, "meaning": c.meaning} for c in attempted.constraints]
        out = infeasible_payload(result, report, attempted_rows, current if self.rollback else None)
        if not self.rollback:
            out["message"] += (
                " The model keeps these constraints (no automatic rollback): relax or remove constraints "
                "before further changes."
            )
            out["current_proposal_kept"] = current
        return out | {"model_summary": self.summary()}

    def _objective(self, objective: str) -> str:
        if objective not in OBJECTIVES:
            raise SpecError("objective", f"unknown objective {objective!r}; valid: {', '.join(OBJECTIVES)}")
        return objective

    def relaxed_state(self, relax: Relaxation) -> ModelState:
        """The attempted (infeasible) model with one offered relaxation applied."""
        attempt = self.infeasible
        return relaxed_state(attempt.state if attempt is not None else self.state, relax)

    def calls_to_reach(self, target: ModelState) -> list[Call]:
        """Tool calls that turn the current state into `target` (undo, start over, relaxations).

        Removals that a later fix or bound replaces anyway are skipped; the calls are checked on a
        scratch copy and fall back to remove-everything-then-add when the short route misses."""
        calls = diff_calls(self.state, target, short=True)
        if self._reaches(calls, target):
            return calls
        return diff_calls(self.state, target, short=False)

    def _reaches(self, calls: list[Call], target: ModelState) -> bool:
        scratch = ScheduleSession(self.district, self.time_limit)
        scratch.state = self.state
        try:
            for name, args in calls:
                getattr(scratch, name)(**args)
        except SpecError:
            return False
        return scratch.state.same_model(target)
