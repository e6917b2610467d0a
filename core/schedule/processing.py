"""Solution processing: turn solver output into what people (and the agent) read.

A readable schedule (school -> "7:50 AM"), objective values in the seed's wording
("Student Load Balancing: 25.65 (2,565 students)"), and the changes versus the current
schedule and versus the previous proposal. Nothing here solves anything.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from core.schedule.state import Proposal
from solvers.schedule.data import District, format_time
from solvers.schedule.diagnose import InfeasibilityReport
from solvers.schedule.model import DEVIATION, LOAD, ScheduleResult
from solvers.schedule.pareto import ParetoPoint

OBJECTIVE_LABELS = {LOAD: "Student Load Balancing", DEVIATION: "Schedule Deviation"}


def format_load(load: float) -> str:
    """'25.65 (2,565 students)': the peak in hundreds, then in students."""
    return f"{load:.2f} ({round(load * 100):,} students)"


def format_deviation(deviation: float) -> str:
    """'8.5 minutes': mean absolute change from the current start times."""
    return (
        f"{deviation:.1f} minutes"
        if abs(deviation * 10 - round(deviation * 10)) < 1e-9
        else f"{deviation:.2f} minutes"
    )


def objective_lines(load: float, deviation: float) -> list[str]:
    """The two objective values as the seed's prompt words them."""
    return [
        f"{OBJECTIVE_LABELS[LOAD]}: {format_load(load)}",
        f"{OBJECTIVE_LABELS[DEVIATION]}: {format_deviation(deviation)}",
    ]


def bound_text(objective: str, value: float) -> str:
    """A bound in the user's words: 'peak load at most 24.5 (2,450 students starting at once)'."""
    if objective == LOAD:
        return f"peak load at most {value:g} ({round(value * 100):,} students starting at once)"
    return f"average change at most {value:g} minutes"


def schedule_changes(
    district: District, new: tuple[int, ...], old: tuple[int, ...] | None
) -> list[dict[str, str]]:
    """Schools whose start differs between two schedules (old=None compares with current starts)."""
    out = []
    for q, school in enumerate(district.schools):
        before = format_time(school.current_start) if old is None else district.time_labels[old[q]]
        after = district.time_labels[new[q]]
        if before != after:
            out.append({"school": school.name, "from": before, "to": after})
    return out


def schedule_rows(
    district: District, assignment: tuple[int, ...], previous: tuple[int, ...] | None = None
) -> list[dict[str, Any]]:
    """One row per school: data, proposed start, minutes moved, and whether it changed since last time."""
    rows = []
    for q, school in enumerate(district.schools):
        start = district.start_times[assignment[q]]
        rows.append(
            {
                "school": school.name,
                "grade": school.grade,
                "enrollment": school.enrollment,
                "current_start": format_time(school.current_start),
                "proposed_start": district.time_labels[assignment[q]],
                "shift_minutes": start - school.current_start,
                "changed_since_previous": previous is not None and previous[q] != assignment[q],
            }
        )
    return rows


def proposal_rows(proposals: Sequence[Proposal]) -> list[dict[str, Any]]:
    """The proposal history: number, both objectives and the constraints that produced each proposal."""
    return [
        {
            "proposal": p.number,
            LOAD: p.result.load,
            DEVIATION: p.result.deviation,
            "constraints": ", ".join(p.state.names()) or "(base model)",
        }
        for p in proposals
    ]


def schedule_csv(district: District, assignment: tuple[int, ...]) -> str:
    """The schedule as CSV for download: school, grade, enrollment, current and proposed start, change in minutes."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["school", "grade", "enrollment", "current_start", "proposed_start", "change_minutes"])
    for row in schedule_rows(district, assignment):
        writer.writerow(
            [
                row[k]
                for k in ("school", "grade", "enrollment", "current_start", "proposed_start", "shift_minutes")
            ]
        )
    return out.getvalue()


def proposals_csv(proposals: Sequence[Proposal]) -> str:
    """The proposal history as CSV: number, peak (hundreds of students), average change, constraints."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["proposal", LOAD, DEVIATION, "constraints"])
    for row in proposal_rows(proposals):
        writer.writerow([row["proposal"], row[LOAD], row[DEVIATION], row["constraints"]])
    return out.getvalue()


def markdown_schedule(
    district: District,
    assignment: tuple[int, ...],
    previous: tuple[int, ...] | None = None,
    *,
    only_changed: bool = False,
) -> str:
    """GitHub-flavoured table of school, current start, proposed start (changes since last time in bold);
    `only_changed` keeps just the schools whose start changed since `previous` ("" when none did)."""
    lines = ["| School | Current start | Proposed start |", "| --- | --- | --- |"]
    rows = schedule_rows(district, assignment, previous)
    if only_changed:
        rows = [row for row in rows if row["changed_since_previous"]]
        if not rows:
            return ""
    for row in rows:
        proposed = f"**{row['proposed_start']}**" if row["changed_since_previous"] else row["proposed_start"]
        lines.append(f"| {row['school']} | {row['current_start']} | {proposed} |")
    return "\n".join(lines)


def objective_delta(now: float, before: float | None, objective: str) -> str:
    """' (down 1.12 from 25.65)' style note; empty without a previous value or when unchanged."""
    if before is None or abs(now - before) < 1e-9:
        return ""
    direction = "down" if now < before else "up"
    amount = f"{abs(now - before):.2f}" if objective == LOAD else f"{abs(now - before):.1f} min"
    return f" ({direction} {amount} from {before:g})"


def solution_payload(
    district: District, number: int, result: ScheduleResult, previous: ScheduleResult | None
) -> dict[str, Any]:
    """call_solver's processed solution: schedule, objectives in words, changes vs today and vs last time."""
    out: dict[str, Any] = {
        "status": result.status.value,
        "proposal": number,
        "schedule": dict(result.schedule),
        "objectives": {LOAD: result.load, DEVIATION: result.deviation},
        "objective_summary": objective_lines(result.load, result.deviation),  # type: ignore[arg-type]
        "changes_vs_current_schedule": schedule_changes(district, result.assignment, None),  # type: ignore[arg-type]
        "changes_vs_previous_proposal": []
        if previous is None
        else schedule_changes(district, result.assignment, previous.assignment),  # type: ignore[arg-type]
        "solver": {"name": result.solver, "seconds": round(result.seconds, 4), "gap": result.gap},
    }
    if result.status.value == "feasible":
        out["note"] = (
            f"Time limit reached; best schedule found is within a {100 * (result.gap or 0):.2f}% gap."
        )
    return out


def infeasible_payload(
    result: ScheduleResult,
    report: InfeasibilityReport | None,
    attempted: list[dict[str, str]],
    current: int | None,
) -> dict[str, Any]:
    """call_solver without a schedule: what was attempted, the conflicts, tested relaxations, the rollback."""
    message = (
        "No schedule satisfies all requested constraints."
        if report
        else "The solver stopped at its time limit without finding a schedule."
    )
    if current is not None:
        message += (
            f" The model was rolled back to proposal {current}'s constraints; to continue, apply one "
            "relaxation (re-adding the other requested changes)."
        )
    out: dict[str, Any] = {
        "status": result.status.value,
        "message": message,
        "attempted_constraints": attempted,
    }
    if report is not None:
        out["conflicting_constraints"] = list(report.conflicts)
        out["other_conflicts"] = [list(c) for c in report.other_conflicts]
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
    out["current_proposal_kept"] = current
    return out


def alternatives_payload(
    district: District, picked: list[ParetoPoint], on_frontier: int, current: tuple[int, ...] | None
) -> dict[str, Any]:
    """show_alternatives' options: objectives, schedule and changes; the first `on_frontier` are efficient."""
    options = [
        {
            "option": i + 1,
            "objectives": {LOAD: p.load, DEVIATION: p.deviation},
            "objective_summary": objective_lines(p.load, p.deviation),
            "efficient": i < on_frontier,
            "schedule": p.result.schedule,
            "changes_vs_current_proposal": schedule_changes(district, p.result.assignment, current),  # type: ignore[arg-type]
        }
        for i, p in enumerate(picked)
    ]
    note = (
        "Efficient trade-offs between peak load and average change under the fixes/forbids in force "
        "(objective bounds ignored); options marked efficient=false are the next-best schedules for the "
        "current weights. To adopt one, bound both objectives at its values and call the solver."
    )
    return {"alternatives": options, "note": note}
