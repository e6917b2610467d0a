"""Solution processing: turn solver output into what people (and the agent) read.

A readable schedule (school -> "7:50 AM"), objective values in the seed's wording
("Student Load Balancing: 25.65 (2,565 students)"), and the changes versus the current
schedule and versus the previous proposal. Nothing here solves anything.
"""

from __future__ import annotations

from typing import Any

from solvers.schedule.data import District, format_time
from solvers.schedule.model import DEVIATION, LOAD

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
    """A bound in the user's units: 'student_load_balancing <= 24.5 (2,450 students)'."""
    if objective == LOAD:
        return f"{objective} <= {value:g} ({round(value * 100):,} students)"
    return f"{objective} <= {value:g} minutes"


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


def markdown_schedule(
    district: District, assignment: tuple[int, ...], previous: tuple[int, ...] | None = None
) -> str:
    """GitHub-flavoured table of school, current start, proposed start (changes since last time in bold)."""
    lines = ["| School | Current start | Proposed start |", "| --- | --- | --- |"]
    for row in schedule_rows(district, assignment, previous):
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
