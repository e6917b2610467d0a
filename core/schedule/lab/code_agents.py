"""Code-writing optimization agents C-P-P, C-P-R and C-N-R (seed 003 §3.3), Python in `core/sandbox.py`.

PuLP is not importable inside the sandbox (its import whitelist is the standard library subset listed there;
PuLP spawns solver processes and writes files, which the sandbox forbids), so the prompted designs write
formulation code against a documented restricted model-building API instead, and the pipeline solves it
(as the paper automates the solver step for C-P-R/C-P-P):

    variables given to the code: schools (name, grade, enrollment, current_start in minutes after midnight),
    start_times (minutes), labels ("7:50 AM", ...). The code sets `result` to a model dict:
      {"alpha": weight of peak load (hundreds), "beta": weight of mean change (minutes),
       "fix": [[school, "9:30 AM"], ...], "forbid": [[school, "7:50 AM"], ...],
       "prefer": [[school, "8:40 AM", weight], ...], "max_load": hundreds or null, "max_deviation": min or null}

The pipeline turns it into a ScheduleSpec (an invalid model is an error result naming the field), solves the
MILP with HiGHS, and returns raw x[q,t] values (C-P-R) or a readable schedule with objectives (C-P-P).
C-N-R has no problem prompt and no pipeline: its code runs as is and it sees stdout/result/error (raw).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from core.errors import SpecError
from core.llm import ChatModel, Message, Toolbox, run_tools
from core.sandbox import SandboxLimits, run_code
from core.schedule.processing import markdown_schedule, objective_lines
from solvers.schedule.data import District, format_time, sfusd_district
from solvers.schedule.model import ScheduleSpec, solve_schedule


class Design(StrEnum):
    CPP = "C-P-P"
    CPR = "C-P-R"
    CNR = "C-N-R"


MODEL_API = __doc__.split("variables given to the code:")[1].split("The pipeline")[0]

PROMPT = """You are an interactive optimization assistant for school start times in {district}: {n} schools, each
must start at exactly one of {options}. The base model minimises alpha * peak load (students starting at the
same time, in hundreds) + beta * average change from current start times (minutes), alpha = beta = 1.
Stakeholders will give feedback; adjust the formulation by writing Python for the execute_code tool.
Variables given to your code:{api}
After each solve, report the changes you made, the full schedule (a table of school and start time) and the
objective values. {processing}
Schools: {schools}"""

GENERIC = "You are a helpful assistant. You can run Python code with the execute_code tool (set `result`)."


def _labels(district: District) -> dict[str, int]:
    return {format_time(t).lower().replace(" ", ""): i for i, t in enumerate(district.start_times)}


def model_spec(district: District, model: Any) -> ScheduleSpec:
    """The ScheduleSpec of a model dict written by the code (SpecError names the bad field)."""
    if not isinstance(model, dict):
        raise SpecError("result", "set `result` to a model dict (see the prompt)")
    labels = _labels(district)

    def slot(value: Any, where: str) -> int:
        key = str(value).lower().replace(" ", "")
        if key not in labels:
            raise SpecError(where, f"{value!r} is not one of {district.time_labels}")
        return district.start_times[labels[key]]

    def pairs(name: str) -> tuple[tuple[str, int], ...]:
        out = []
        for item in model.get(name) or []:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise SpecError(name, "each entry must be [school, time]")
            district.school_index(str(item[0]))
            out.append((str(item[0]), slot(item[1], name)))
        return tuple(out)

    gamma = []
    for item in model.get("prefer") or []:
        if not isinstance(item, list | tuple) or len(item) != 3:
            raise SpecError("prefer", "each entry must be [school, time, weight]")
        gamma.append((str(item[0]), slot(item[1], "prefer"), float(item[2])))
    try:
        return ScheduleSpec(
            district,
            alpha=float(model.get("alpha", 1.0)),
            beta=float(model.get("beta", 1.0)),
            gamma=tuple(gamma),
            fixed=pairs("fix"),
            forbidden=pairs("forbid"),
            max_load=None if model.get("max_load") is None else float(model["max_load"]),
            max_deviation=None if model.get("max_deviation") is None else float(model["max_deviation"]),
            time_limit=10.0,
        )
    except (TypeError, ValueError) as err:
        if isinstance(err, SpecError):
            raise
        raise SpecError("result", str(err)) from err


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
                api=MODEL_API,
                processing=processing,
                schools=schools,
            )  # fmt: skip
        )

    def execute_code(self, code: str) -> dict:
        """Run Python in the sandbox. Set `result` (see the instructions); returns the outcome."""
        variables = (
            {}
            if self.design is Design.CNR
            else {
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
        )
        out = run_code(code, variables, limits=self.limits)
        record: dict[str, Any] = {"stdout": out.get("stdout", ""), "error": out.get("error")}
        if self.design is Design.CNR or out.get("error"):
            record["result"] = out.get("result")
            self.executions.append(record)
            return record
        try:
            spec = model_spec(self.district, out.get("result"))
        except SpecError as err:
            record["error"] = str(err)
            self.executions.append(record)
            return record
        result = solve_schedule(spec)
        self.solver_calls += 1
        record["status"] = result.status.value
        if result.has_schedule:
            assert result.assignment is not None
            if self.design is Design.CPP:
                record["schedule"] = markdown_schedule(self.district, result.assignment)
                record["objectives"] = objective_lines(result.load or 0.0, result.deviation or 0.0)
            else:
                record["x"] = {
                    f"x[{q},{t}]": int(result.assignment[q] == t)
                    for q in range(len(self.district.schools))
                    for t in range(len(self.district.start_times))
                }
        self.executions.append(record)
        return record

    def opening(self) -> str:
        if self.design is Design.CNR:
            return "Hello! What decision can I help you with today?"
        return self.respond("Solve the base model and present the proposed schedule.")

    def respond(self, text: str) -> str:
        self.messages.append(Message("user", text))
        loop = run_tools(self.model, self.system, self.messages, Toolbox([self.execute_code]), self.max_steps)
        self.messages.extend(loop.messages)
        return loop.text
