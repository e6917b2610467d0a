"""The offline agent's reply, written from the tool results of its turn (Section 9, step 5).

It states every model change (including objective limits), the new schedule as a table, the
objective values with the limit-versus-achieved distinction, and for infeasible models the
conflicting constraints with concrete, tested alternatives (as in the seed's Figure 10).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.llm import Message
from core.schedule.processing import (
    OBJECTIVE_LABELS,
    format_deviation,
    format_load,
    markdown_schedule,
    objective_delta,
)
from core.schedule.session import ScheduleSession
from solvers.schedule.model import DEVIATION, LOAD


def _calls_with_results(
    messages: Sequence[Message], results: Sequence[Message]
) -> list[tuple[str, dict, dict]]:
    by_id = {}
    for message in messages:
        for call in message.tool_calls:
            by_id[call.id] = call
    out = []
    for message in results:
        call = by_id.get(message.tool_call_id or "")
        try:
            payload = json.loads(message.content)
        except json.JSONDecodeError:
            payload = {"error": message.content}
        out.append((message.name or (call.name if call else "tool"), call.arguments if call else {}, payload))
    return out


def compose_report(session: ScheduleSession, messages: Sequence[Message], results: Sequence[Message]) -> str:
    """Markdown reply describing what the tools did and what the solver found."""
    done = _calls_with_results(messages, results)
    parts: list[str] = []
    changes = [p["message"] for name, _, p in done if "message" in p and name != "call_solver"]
    errors = [f"I could not run {name}: {p['error']}" for name, _, p in done if "error" in p]
    if errors:
        parts.append("\n".join(f"- {e}" for e in errors))
    if changes:
        parts.append("### Changes to the model\n" + "\n".join(f"- {c}" for c in changes))
    for name, _, payload in done:
        if name == "call_solver" and "error" not in payload:
            parts.append(
                _solution(session, payload, done)
                if payload.get("status") in ("optimal", "feasible")
                else _infeasible(payload)
            )
        elif name == "show_alternatives" and "error" not in payload:
            parts.append(_alternatives(payload))
        elif name == "get_model_summary":
            parts.append(_summary(payload["model_summary"]))
    if not parts:
        return "Done."
    return "\n\n".join(parts)


def _solution(session: ScheduleSession, payload: dict[str, Any], done: list[tuple[str, dict, dict]]) -> str:
    number = payload["proposal"]
    proposal = session.proposals[number - 1]
    previous = session.proposals[number - 2] if number > 1 else None
    load, dev = payload["objectives"][LOAD], payload["objectives"][DEVIATION]
    if previous is None:
        table = markdown_schedule(session.district, proposal.result.assignment)
    else:  # the full schedule is on the page's panel: the reply shows what changed
        changed = markdown_schedule(
            session.district, proposal.result.assignment, previous.result.assignment, only_changed=True
        )
        table = (
            f"What changed since proposal {number - 1} (the full schedule is in the panel):\n\n{changed}"
            if changed
            else f"No school's start changed since proposal {number - 1}."
        )
    lines = [f"### Proposal {number}", table]
    before = previous.result if previous else None
    lines.append(
        "\n".join(
            [
                f"- **{OBJECTIVE_LABELS[LOAD]}**: {format_load(load)}{objective_delta(load, before and before.load, LOAD)}",
                f"- **{OBJECTIVE_LABELS[DEVIATION]}**: {format_deviation(dev)}{objective_delta(dev, before and before.deviation, DEVIATION)}",
            ]
        )
    )
    for name, args, _ in done:
        if name == "add_objective_upper_bound":
            limit, achieved = args["value"], payload["objectives"][args["objective"]]
            if args["objective"] == LOAD:
                lines.append(
                    f"I limited the peak to {round(limit * 100):,} students; the resulting peak is {round(achieved * 100):,} students."
                )
            else:
                lines.append(
                    f"I limited the average change to {limit:g} minutes; the result is {achieved:g} minutes."
                )
    moved = payload["changes_vs_previous_proposal"]
    if previous is not None:
        lines.append(
            "Compared with the previous proposal: "
            + "; ".join(f"{m['school']} {m['from']} -> {m['to']}" for m in moved)
            if moved
            else "The schedule is the same as the previous proposal (the change did not bind)."
        )
    if payload.get("note"):
        lines.append(payload["note"])
    lines.append("Does this work for you, or what would you like to adjust?")
    return "\n\n".join(lines)


def _infeasible(payload: dict[str, Any]) -> str:
    conflicts = payload.get("conflicting_constraints") or []
    # the constraints just requested come last, so a limit that replaces an older one is named by its new value
    listed = payload["model_summary"]["active_constraints"] + payload.get("attempted_constraints", [])
    meaning = {c["name"]: c["meaning"] for c in listed}
    lines = ["### No schedule meets all of these requirements"]
    if conflicts:
        lines.append(
            "These requirements cannot all hold at once:\n"
            + "\n".join(f"- {meaning.get(c, c)} (`{c}`)" for c in conflicts)
        )
    for other in payload.get("other_conflicts", []):
        lines.append(
            "There is also a separate conflict:\n"
            + "\n".join(f"- {meaning.get(c, c)} (`{c}`)" for c in other)
        )
    options, seen = [], set()
    for number, relax in enumerate(payload.get("relaxations", []), start=1):
        objectives = relax["resulting_objectives"]
        key = (relax["description"], objectives[LOAD], objectives[DEVIATION])
        if key in seen:
            continue
        seen.add(key)
        options.append(
            f"{number}. {relax['description'][0].upper()}{relax['description'][1:]}: peak {format_load(objectives[LOAD])}, "
            f"average change {format_deviation(objectives[DEVIATION])}"
        )
    if options:
        lines.append("Here is what would work instead:\n" + "\n".join(options))
    kept = payload.get("current_proposal_kept")
    if kept:
        lines.append(
            f"I have not applied this request: proposal {kept} is still the current schedule and the model is back to "
            "its constraints."
        )
    if options:
        first = payload["relaxations"][0]["description"]
        lines.append(f'Shall I go with option 1 ({first}), or another one (say "option 2")?')
    return "\n\n".join(lines)


def _alternatives(payload: dict[str, Any]) -> str:
    options = payload["alternatives"]
    if not options:
        return "There are no other efficient schedules under the current fixes; the current proposal is the only trade-off."
    lines = [f"### {len(options)} options to compare"]
    for option in options:
        objectives = option["objectives"]
        moves = option["changes_vs_current_proposal"]
        moved = "; ".join(f"{m['school']} {m['from']} -> {m['to']}" for m in moves) or "same schedule"
        lines.append(
            f"**Option {option['option']}**: peak {format_load(objectives[LOAD])}, average change "
            f"{format_deviation(objectives[DEVIATION])}. Changes from the current proposal: {moved}."
        )
    lines.append('Say which option you prefer (for example "let\'s go with option 1") and I will adopt it.')
    return "\n\n".join(lines)


def _summary(summary: dict[str, Any]) -> str:
    weights = summary["objective_weights"]
    constraints = summary["active_constraints"]
    lines = [
        f"- Weights: student_load_balancing {weights[LOAD]:g}, schedule_deviation {weights[DEVIATION]:g}",
        "- Active constraints: "
        + ("; ".join(f"{c['meaning']} (`{c['name']}`)" for c in constraints) or "none"),
    ]
    return "### Current model\n" + "\n".join(lines)
