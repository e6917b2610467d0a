"""Code-writing optimization agents C-P-P, C-P-R and C-N-R (seed 003 §3.3): model-written Python with PuLP (in
place of the paper's Julia/JuMP) run in `core/sandbox.py` with its opt-in `pulp` extension (HiGHS in-process
through highspy; no solver process, no files).

C-P-R and C-P-P: as the paper automates the solver step, the agent writes only formulation code, which runs
after a pipeline prelude, then the pipeline solves, all as one step:

    prelude (given): import pulp; schools (name, grade, enrollment, current_start in minutes after midnight),
      start_times (minutes), labels ("7:50 AM", ...), Q = range(len(schools)), T = range(len(start_times));
      prob = pulp.LpProblem("start_times", pulp.LpMinimize); x[q, t] binary (school q starts at option t);
      c[q] >= |start - current| (minutes); load >= sum of enrollment starting at t, for every t;
      prob += alpha * load / 100 + beta * pulp.lpSum(c[q] for q in Q) / len(Q) with alpha = beta = 1;
      each school gets exactly one start time.
    your code: add or change constraints (prob += ...), the objective (prob.setObjective(...)), new variables;
      do not solve.
    after your code (given): prob is solved with HiGHS and the x[q, t] values are read.

The agent then sees raw x[q,t] values (C-P-R) or a readable schedule with its objectives (C-P-P). C-N-R has
no problem prompt and no pipeline: its code (PuLP allowed) runs as is and it sees stdout/result/error (raw).

The solve step is the host's, not the sandbox's: the sandbox returns the final `prob` as plain data
(`run_code(..., export="prob")`, PuLP's `toDict`), which `solve_exported` checks, rebuilds and solves here
with HiGHS (in-process, one thread, a time limit). The recorded status and x values are that solve's, so
model code that rewrites `pulp.LpStatus`, replaces `prob` or prints a fake result cannot record "optimal"
for an infeasible model.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Any

import pulp

from core.errors import SpecError
from core.llm import ChatModel, Message, Toolbox, Usage, run_tools
from core.sandbox import SandboxLimits, run_code
from core.schedule.processing import markdown_schedule, objective_lines
from solvers.schedule.data import District, format_time, sfusd_district
from solvers.schedule.model import evaluate


class Design(StrEnum):
    CPP = "C-P-P"
    CPR = "C-P-R"
    CNR = "C-N-R"


PIPELINE = __doc__.split("all as one step:")[1].split("The agent then sees")[0]

PRELUDE = """import pulp
Q = range(len(schools))
T = range(len(start_times))
prob = pulp.LpProblem("start_times", pulp.LpMinimize)
x = pulp.LpVariable.dicts("x", [(q, t) for q in Q for t in T], cat=pulp.LpBinary)
c = pulp.LpVariable.dicts("c", list(Q), lowBound=0)
load = pulp.LpVariable("load", lowBound=0)
for q in Q:
    prob += pulp.lpSum(x[q, t] for t in T) == 1, f"assign_one_start_time_{q}"
    start = pulp.lpSum(start_times[t] * x[q, t] for t in T)
    prob += c[q] >= start - schools[q]["current_start"], f"change_up_{q}"
    prob += c[q] >= schools[q]["current_start"] - start, f"change_down_{q}"
for t in T:
    prob += load >= pulp.lpSum(schools[q]["enrollment"] * x[q, t] for q in Q), f"max_students_per_time_{t}"
alpha = 1.0
beta = 1.0
prob += alpha * load / 100 + beta * pulp.lpSum(c[q] for q in Q) / len(Q)
"""
HOST_SOLVE_SECONDS = 4.0
MAX_MODEL_VARIABLES = 20_000
MAX_MODEL_CONSTRAINTS = 20_000
CATEGORIES = ("Continuous", "Integer")

PROMPT = """You are an interactive optimization assistant for school start times in {district}: {n} schools, each
must start at exactly one of {options}. The base model minimises alpha * peak load (students starting at the
same time, in hundreds) + beta * average change from current start times (minutes), alpha = beta = 1.
Stakeholders will give feedback; adjust the formulation by writing Python (PuLP) for the execute_code tool.
Your code runs inside a pipeline:{pipeline}
After each solve, report the changes you made, the full schedule (a table of school and start time) and the
objective values. {processing}
Schools: {schools}"""

GENERIC = (
    "You are a helpful assistant. You can run Python code with the execute_code tool (set `result`; PuLP "
    "with the in-process HiGHS solver is available: import pulp, solve with pulp.HiGHS())."
)


def _number(value: Any, where: str, *, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SpecError("model", f"{where} must be a finite number")
    return float(value)


def _problem_from(model: Any) -> pulp.LpProblem:
    """Rebuild the exported model (PuLP `toDict` data) after checking every field; SpecError("model") if it
    is not a linear model of a size this lab solves."""
    if not isinstance(model, dict) or not all(
        isinstance(model.get(k), t)
        for k, t in (("parameters", dict), ("objective", dict), ("variables", list), ("constraints", list))
    ):
        raise SpecError("model", "the exported model lacks parameters, objective, variables or constraints")
    if model.get("sos1") or model.get("sos2"):
        raise SpecError("model", "SOS constraints are not supported")
    variables, constraints = model["variables"], model["constraints"]
    if len(variables) > MAX_MODEL_VARIABLES or len(constraints) > MAX_MODEL_CONSTRAINTS:
        raise SpecError(
            "model", f"at most {MAX_MODEL_VARIABLES} variables and {MAX_MODEL_CONSTRAINTS} constraints"
        )
    sense = model["parameters"].get("sense")
    if sense not in (pulp.LpMinimize, pulp.LpMaximize) or isinstance(sense, bool):
        raise SpecError("model", "the objective sense must be 1 (minimise) or -1 (maximise)")
    problem = pulp.LpProblem("exported", sense)
    lp_vars: dict[str, pulp.LpVariable] = {}
    for v in variables:
        name = v.get("name") if isinstance(v, dict) else None
        if not isinstance(name, str) or not name or len(name) > 255 or name in lp_vars:
            raise SpecError("model", f"variable name {name!r} is missing, too long or repeated")
        if v.get("cat") not in CATEGORIES:
            raise SpecError("model", f"variable {name}: category must be one of {CATEGORIES}")
        low = _number(v.get("lowBound"), f"variable {name}: lowBound", optional=True)
        up = _number(v.get("upBound"), f"variable {name}: upBound", optional=True)
        lp_vars[name] = pulp.LpVariable(name, low, up, v["cat"])

    def expression(coefficients: Any, where: str) -> pulp.LpAffineExpression:
        if not isinstance(coefficients, list):
            raise SpecError("model", f"{where}: coefficients must be a list")
        terms = []
        for c in coefficients:
            name = c.get("name") if isinstance(c, dict) else None
            if not isinstance(name, str) or name not in lp_vars:
                raise SpecError("model", f"{where}: unknown variable {name!r}")
            terms.append((lp_vars[name], _number(c.get("value"), f"{where}: coefficient of {name}")))
        return pulp.LpAffineExpression(terms)

    problem += expression(model["objective"].get("coefficients"), "objective")
    for i, c in enumerate(constraints):
        if not isinstance(c, dict) or c.get("sense") not in (-1, 0, 1) or isinstance(c.get("sense"), bool):
            raise SpecError("model", f"constraint {i}: sense must be -1, 0 or 1")
        name = c.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 255):
            raise SpecError("model", f"constraint {i}: name must be a short string")
        lhs = expression(c.get("coefficients"), f"constraint {name or i}")
        lhs.constant = _number(c.get("constant"), f"constraint {name or i}: constant")
        try:
            problem += pulp.LpConstraint(lhs, sense=c["sense"], name=name)
        except pulp.PulpError as err:
            raise SpecError("model", f"constraint {name or i}: {err}") from err
    return problem


def solve_exported(model: Any, time_limit: float = HOST_SOLVE_SECONDS) -> tuple[str, dict[str, float | None]]:
    """Solve the model a sandbox exported, here in the host with HiGHS (in-process through highspy, one thread,
    no log, `time_limit` seconds): its status in lower case ("optimal", "infeasible", ...) and the variables'
    values by name. SpecError("model") if the data is not a model."""
    problem = _problem_from(model)
    try:
        status = problem.solve(pulp.HiGHS(msg=False, timeLimit=time_limit, threads=1))
    except pulp.PulpError as err:
        raise SpecError("model", f"the model could not be solved: {err}") from err
    return pulp.LpStatus[status].lower(), {v.name: v.varValue for v in problem.variables()}


def assignment_from(district: District, rows: Any) -> tuple[int, ...]:
    """The schedule in the pipeline's x values (SpecError if a school does not get exactly one start)."""
    n, k = len(district.schools), len(district.start_times)
    if (
        not isinstance(rows, list)
        or len(rows) != n
        or any(not isinstance(r, list) or len(r) != k for r in rows)
    ):
        raise SpecError("x", f"expected {n} rows of {k} values")
    out = []
    for q, row in enumerate(rows):
        ones = [t for t, v in enumerate(row) if v == 1]
        if len(ones) != 1 or sum(row) != 1:
            raise SpecError("x", f"{district.schools[q].name} does not get exactly one start time")
        out.append(ones[0])
    return tuple(out)


class CodeAgent:
    """One code-writing design over an LLM (no offline policy exists for these designs)."""

    def __init__(
        self,
        design: Design | str,
        model: ChatModel,
        *,
        district: District | None = None,
        limits: SandboxLimits | None = None,
        max_steps: int = 8,
    ) -> None:
        try:
            self.design = Design(design)
        except ValueError as err:
            raise SpecError("design", f"use one of {[d.value for d in Design]}") from err
        self.model = model
        self.district = district or sfusd_district()
        self.limits = limits or SandboxLimits(cpu_seconds=5, wall_seconds=10.0)
        self.max_steps = max_steps
        self.name = f"{self.design.value} (LLM {getattr(model, 'name', '')})".strip()
        self.solver_calls = 0
        self.messages: list[Message] = []
        self.executions: list[dict[str, Any]] = []
        self.usage = Usage()  # tokens of every request so far
        d = self.district
        schools = "; ".join(
            f"{s.name} ({s.grade}, {s.enrollment} students, now {format_time(s.current_start)})"
            for s in d.schools
        )
        processing = (
            "Solutions come back as a readable schedule."
            if self.design is Design.CPP
            else "Solutions come back as raw x[school_index,time_index] values (0-based, in the order listed)."
        )
        self.system = (
            GENERIC
            if self.design is Design.CNR
            else PROMPT.format(
                district=d.name,
                n=len(d.schools),
                options=", ".join(d.time_labels),
                pipeline=PIPELINE,
                processing=processing,
                schools=schools,
            )  # fmt: skip
        )

    def execute_code(self, code: str) -> dict:
        """Run Python (PuLP) in the sandbox; see the instructions for what is given and what to set."""
        if self.design is Design.CNR:
            out = run_code(code, limits=self.limits, extensions=("pulp",))
            record = {"stdout": out.get("stdout", ""), "error": out.get("error"), "result": out.get("result")}
            if record["error"] is None and ".solve(" in code:
                self.solver_calls += 1
            self.executions.append(record)
            return record
        variables = {
            "schools": [
                {
                    "name": s.name,
                    "grade": s.grade,
                    "enrollment": s.enrollment,
                    "current_start": s.current_start,
                }
                for s in self.district.schools
            ],
            "start_times": list(self.district.start_times),
            "labels": list(self.district.time_labels),
        }
        out = run_code(PRELUDE + code, variables, limits=self.limits, extensions=("pulp",), export="prob")
        record: dict[str, Any] = {"stdout": out.get("stdout", ""), "error": out.get("error")}
        if record["error"] is None and out.get("model") is None:
            record["error"] = "the pipeline could not solve `prob` (did the code replace prob?)"
        if record["error"] is not None:
            self.executions.append(record)
            return record
        try:
            status, values = solve_exported(
                out["model"], min(HOST_SOLVE_SECONDS, float(self.limits.cpu_seconds))
            )
            rows = self._x_rows(values)
        except SpecError as err:
            record["error"] = str(err)
            self.executions.append(record)
            return record
        self.solver_calls += 1
        record["status"] = status
        if status == "optimal":
            try:
                assignment = assignment_from(self.district, rows)
            except SpecError as err:
                record["error"] = str(err)
                self.executions.append(record)
                return record
            if self.design is Design.CPP:
                load, deviation = evaluate(self.district, assignment)
                record["schedule"] = markdown_schedule(self.district, assignment)
                record["objectives"] = objective_lines(load, deviation)
            else:
                record["x"] = {
                    f"x[{q},{t}]": int(assignment[q] == t)
                    for q in range(len(self.district.schools))
                    for t in range(len(self.district.start_times))
                }
        self.executions.append(record)
        return record

    def _x_rows(self, values: dict[str, float | None]) -> list[list[int]]:
        """The pipeline's x[q, t] values from the host's solve (SpecError if the model lost one of them)."""
        schools, times = range(len(self.district.schools)), range(len(self.district.start_times))
        x = pulp.LpVariable.dicts("x", [(q, t) for q in schools for t in times], cat=pulp.LpBinary)
        missing = [x[q, t].name for q in schools for t in times if x[q, t].name not in values]
        if missing:
            raise SpecError("x", f"the model has no variable {missing[0]} (did the code replace x?)")
        return [[round(values[x[q, t].name] or 0) for t in times] for q in schools]

    def opening(self) -> str:
        if self.design is Design.CNR:
            return "Hello! What decision can I help you with today?"
        return self.respond("Solve the base model and present the proposed schedule.")

    def respond(self, text: str) -> str:
        self.messages.append(Message("user", text))
        loop = run_tools(self.model, self.system, self.messages, Toolbox([self.execute_code]), self.max_steps)
        self.messages.extend(loop.messages)
        self.usage = self.usage + loop.usage
        return loop.text
