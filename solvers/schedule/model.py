"""The school start-time MILP of seed 003 §3.1, equations (1)-(6), built with PuLP and solved by HiGHS.

    min  alpha * l + beta * (1/|Q|) * sum_q c_q - sum_{q,t} gamma[q,t] * x[q,t]            (1)
    s.t. sum_t x[q,t] = 1                         assign_one_start_time[q]                 (2)
         c_q >= sum_t h_t x[q,t] - o_q            change_above_current[q]                  (3)
         c_q >= o_q - sum_t h_t x[q,t]            change_below_current[q]                  (4)
         l >= sum_q e_q x[q,t] / 100              max_students_per_time[t]                 (5)
         x[q,t] in {0, 1}                                                                  (6)

`l` is `student_load_balancing` (peak students at one start, in hundreds) and the mean of `c_q`
is `schedule_deviation` (minutes). Stakeholder edits add named rows: `fix_start_time[q=t]`,
`forbid_start_time[q=t]`, `upper_bound[objective]` and `exclude_schedule[k]` (no-good cuts).
Reported objective values are recomputed from the schedule, never read off auxiliary variables.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from enum import StrEnum

import pulp

from core.errors import SolverError, SpecError
from solvers.schedule.data import District, format_time

LOAD = "student_load_balancing"
DEVIATION = "schedule_deviation"
OBJECTIVES = (LOAD, DEVIATION)
MAX_WEIGHT = 1e6  # larger weights make HiGHS's objective coefficients numerically meaningless


class TimeLimitReached(SolverError):
    """The spec's `deadline` passed before a solve could start."""


class ScheduleStatus(StrEnum):
    """Outcome of one solve; infeasible is a status, not an exception."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"  # stopped at the time limit with an incumbent
    INFEASIBLE = "infeasible"
    NOT_SOLVED = "not_solved"  # stopped at the time limit without any schedule


def fix_name(school: str, minutes: int) -> str:
    return f"fix_start_time[{school}={format_time(minutes)}]"


def forbid_name(school: str, minutes: int) -> str:
    return f"forbid_start_time[{school}={format_time(minutes)}]"


def bound_name(objective: str) -> str:
    return f"upper_bound[{objective}]"


@dataclass(frozen=True)
class ScheduleSpec:
    """Everything one solve needs: data, weights (alpha, beta, gamma) and the stakeholder constraints.

    gamma entries are (school, start minutes, weight): a positive weight rewards that assignment.
    max_load is in hundreds of students, max_deviation in minutes. excluded holds whole schedules
    (slot index per school) that must not be returned again.
    """

    district: District
    alpha: float = 1.0
    beta: float = 1.0
    gamma: tuple[tuple[str, int, float], ...] = ()
    fixed: tuple[tuple[str, int], ...] = ()
    forbidden: tuple[tuple[str, int], ...] = ()
    max_load: float | None = None
    max_deviation: float | None = None
    excluded: tuple[tuple[int, ...], ...] = ()
    time_limit: float = 30.0
    gap: float = 1e-6
    solver: str = "highs"
    deadline: float | None = None  # `time.monotonic()` by which every solve of this spec must end

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise SpecError(name, f"objective weight must be a finite number >= 0, got {value}")
            if value > MAX_WEIGHT:
                raise SpecError(name, f"objective weight must be at most {MAX_WEIGHT:g}, got {value:g}")
        for school, minutes, weight in self.gamma:
            self.district.school_index(school)
            self.district.time_index(minutes)
            if not math.isfinite(weight):
                raise SpecError("gamma", f"preference weight for {school} must be finite")
        for field_name in ("fixed", "forbidden"):
            for school, minutes in getattr(self, field_name):
                self.district.school_index(school)
                self.district.time_index(minutes)
        for name in ("max_load", "max_deviation"):
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value < 0):
                raise SpecError(name, f"upper bound must be a finite number >= 0, got {value}")
        n, k = len(self.district.schools), len(self.district.start_times)
        for cut in self.excluded:
            if len(cut) != n or any(not 0 <= s < k for s in cut):
                raise SpecError("excluded", f"each excluded schedule needs {n} slot indices in 0..{k - 1}")
        if not self.time_limit > 0:
            raise SpecError("time_limit", "time limit must be positive (seconds)")
        if not 0 <= self.gap < 1:
            raise SpecError("gap", "relative gap must be in [0, 1)")
        if self.solver not in ("highs", "cbc"):
            raise SpecError("solver", f"unknown solver {self.solver!r}; use 'highs' or 'cbc'")

    def added_constraints(self) -> tuple[str, ...]:
        """Readable names of the stakeholder constraints (what tools show and users can remove)."""
        names = [fix_name(s, t) for s, t in self.fixed] + [forbid_name(s, t) for s, t in self.forbidden]
        if self.max_load is not None:
            names.append(bound_name(LOAD))
        if self.max_deviation is not None:
            names.append(bound_name(DEVIATION))
        names += [f"exclude_schedule[{k + 1}]" for k in range(len(self.excluded))]
        return tuple(names)


@dataclass(frozen=True)
class ScheduleResult:
    """One solve: status, the schedule (school -> "7:50 AM"), recomputed objectives, gap and timing."""

    status: ScheduleStatus
    assignment: tuple[int, ...] | None
    schedule: dict[str, str] = field(hash=False)
    load: float | None
    deviation: float | None
    objective: float | None
    gap: float | None
    seconds: float
    solver: str

    def __post_init__(self) -> None:
        has_schedule = self.assignment is not None
        if has_schedule != (self.status in (ScheduleStatus.OPTIMAL, ScheduleStatus.FEASIBLE)):
            raise SpecError(
                "assignment",
                f"a {self.status.value} result must {'' if has_schedule else 'not '}carry a schedule",
            )

    @property
    def has_schedule(self) -> bool:
        return self.assignment is not None


def evaluate(district: District, assignment: tuple[int, ...]) -> tuple[float, float]:
    """(student_load_balancing, schedule_deviation) of a schedule given as slot index per school."""
    loads = [0] * len(district.start_times)
    moved = 0
    for school, slot in zip(district.schools, assignment, strict=True):
        loads[slot] += school.enrollment
        moved += abs(district.start_times[slot] - school.current_start)
    return max(loads) / 100.0, moved / len(district.schools)


def weighted_objective(spec: ScheduleSpec, assignment: tuple[int, ...]) -> float:
    """Objective (1) of a schedule under the spec's weights."""
    load, deviation = evaluate(spec.district, assignment)
    bonus = 0.0
    for school, minutes, weight in spec.gamma:
        if assignment[spec.district.school_index(school)] == spec.district.time_index(minutes):
            bonus += weight
    return spec.alpha * load + spec.beta * deviation - bonus


@dataclass
class BuiltModel:
    """A PuLP problem plus its decision variables and readable-name -> row map."""

    problem: pulp.LpProblem
    x: dict[tuple[int, int], pulp.LpVariable]
    rows: dict[str, pulp.LpConstraint]


def build_model(spec: ScheduleSpec) -> BuiltModel:
    """Build the MILP for a spec; rows keep readable names (PuLP gets safe internal ones)."""
    district = spec.district
    schools, times = district.schools, district.start_times
    n, k = len(schools), len(times)
    prob = pulp.LpProblem("school_start_times", pulp.LpMinimize)
    x = {(q, t): prob.add_variable(f"x_{q}_{t}", cat=pulp.LpBinary) for q in range(n) for t in range(k)}
    change = {q: prob.add_variable(f"c_{q}", lowBound=0) for q in range(n)}
    peak = prob.add_variable("peak_load", lowBound=0)
    rows: dict[str, pulp.LpConstraint] = {}

    def add(name: str, constraint: pulp.LpConstraint) -> None:
        prob.addConstraint(constraint, f"r{len(rows)}")
        rows[name] = constraint

    gamma_term = pulp.lpSum(w * x[district.school_index(s), district.time_index(m)] for s, m, w in spec.gamma)
    prob.setObjective(spec.alpha * peak + (spec.beta / n) * pulp.lpSum(change.values()) - gamma_term)
    # (2) every school gets exactly one start time
    for q, school in enumerate(schools):
        add(f"assign_one_start_time[{school.name}]", pulp.lpSum(x[q, t] for t in range(k)) == 1)
    # (3)-(4) c_q is at least the absolute change from the current start
    for q, school in enumerate(schools):
        start = pulp.lpSum(times[t] * x[q, t] for t in range(k))
        add(f"change_above_current[{school.name}]", change[q] >= start - school.current_start)
        add(f"change_below_current[{school.name}]", change[q] >= school.current_start - start)
    # (5) the peak load (hundreds of students) covers every start time
    for t, label in enumerate(district.time_labels):
        add(
            f"max_students_per_time[{label}]",
            pulp.lpSum(schools[q].enrollment * x[q, t] for q in range(n)) <= 100 * peak,
        )
    # stakeholder constraints
    for school, minutes in spec.fixed:
        add(fix_name(school, minutes), x[district.school_index(school), district.time_index(minutes)] == 1)
    for school, minutes in spec.forbidden:
        add(forbid_name(school, minutes), x[district.school_index(school), district.time_index(minutes)] == 0)
    if spec.max_load is not None:
        add(bound_name(LOAD), peak <= spec.max_load)
    if spec.max_deviation is not None:
        add(bound_name(DEVIATION), pulp.lpSum(change.values()) <= n * spec.max_deviation)
    for number, cut in enumerate(spec.excluded, start=1):
        add(f"exclude_schedule[{number}]", pulp.lpSum(x[q, s] for q, s in enumerate(cut)) <= n - 1)
    return BuiltModel(prob, x, rows)


def _make_solver(spec: ScheduleSpec) -> pulp.LpSolver:
    if spec.solver == "highs" and pulp.HiGHS().available():
        return pulp.HiGHS(msg=False, timeLimit=spec.time_limit, gapRel=spec.gap, threads=1)
    return pulp.PULP_CBC_CMD(msg=False, timeLimit=spec.time_limit, gapRel=spec.gap)


def solve_schedule(spec: ScheduleSpec) -> ScheduleResult:
    """Build and solve; HiGHS in-process, CBC only when HiGHS is unavailable or asked for."""
    started = time.perf_counter()
    if spec.deadline is not None:
        left = spec.deadline - time.monotonic()
        if left < 0.05:
            raise TimeLimitReached("the time limit was used up")
        spec = replace(spec, time_limit=min(spec.time_limit, left))
    built = build_model(spec)
    solver = _make_solver(spec)
    try:
        built.problem.solve(solver)
    except pulp.PulpSolverError as err:
        raise SolverError(f"{solver.name} could not run on the schedule model: {err}") from err
    seconds = time.perf_counter() - started
    status = _status(built.problem)
    if status not in (ScheduleStatus.OPTIMAL, ScheduleStatus.FEASIBLE):
        return ScheduleResult(status, None, {}, None, None, None, None, seconds, solver.name)
    k = len(spec.district.start_times)
    assignment = tuple(
        max(range(k), key=lambda t, q=q: built.x[q, t].varValue or 0.0)
        for q in range(len(spec.district.schools))
    )
    load, deviation = evaluate(spec.district, assignment)
    schedule = {
        s.name: spec.district.time_labels[a] for s, a in zip(spec.district.schools, assignment, strict=True)
    }
    return ScheduleResult(
        status,
        assignment,
        schedule,
        load,
        deviation,
        weighted_objective(spec, assignment),
        _gap(built.problem, status),
        seconds,
        solver.name,
    )


def _status(problem: pulp.LpProblem) -> ScheduleStatus:
    # PuLP maps time-outs to "Optimal"; sol_status tells optimal (1) from feasible-only (2).
    if problem.status == pulp.LpStatusInfeasible or problem.sol_status == pulp.LpSolutionInfeasible:
        return ScheduleStatus.INFEASIBLE
    if problem.sol_status == pulp.LpSolutionOptimal:
        return ScheduleStatus.OPTIMAL
    if problem.sol_status == pulp.LpSolutionIntegerFeasible:
        return ScheduleStatus.FEASIBLE
    return ScheduleStatus.NOT_SOLVED


def _gap(problem: pulp.LpProblem, status: ScheduleStatus) -> float | None:
    highs = getattr(problem, "solverModel", None)
    if highs is not None and hasattr(highs, "getInfo"):
        return max(0.0, float(highs.getInfo().mip_gap))
    return 0.0 if status == ScheduleStatus.OPTIMAL else None
