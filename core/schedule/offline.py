"""The offline T-P-P agent: a deterministic mapping from stakeholder language to tool calls.

`interpret` reads the user's message (with the session for context: the incumbent values, the
latest constraint, the last infeasibility report) and returns tool calls, a clarifying question
or a closing remark. `make_offline_policy` wraps it in the LLM layer's offline protocol: first turn
tool calls, second turn the report written from the tool results (see `report.py`).
Objective bounds follow the Section 9 tip: to lower a value the bound sits just below the incumbent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.llm import Message, OfflinePolicy, OfflineTurn, ToolSpec, last_user_text, trailing_tool_results
from core.schedule import language as lang
from core.schedule.report import compose_report
from core.schedule.session import ScheduleSession
from core.schedule.state import ModelState
from solvers.schedule.data import format_time
from solvers.schedule.model import DEVIATION, LOAD

STEP = 0.01  # "strictly below the incumbent" for both objectives (values are multiples of 0.01 or 1/n)
PRIORITY_WEIGHT = 3.0

Call = tuple[str, dict[str, Any]]

_SATISFIED = re.compile(
    r"this works|that works|works for me|looks (good|great|fine)|i'?m (happy|satisfied|fine with)|happy with (this|that|it)|"
    r"\bperfect\b|sounds good|let'?s go with (this|that|it)|i can live with|good to go|i accept|we'?re done|"
    r"that'?s (it|great|good)|feel good about|nothing (else|more)|\bdone\b|all set"
)
_START_OVER = re.compile(
    r"start (over|again|from scratch)|from the top|reset|clear everything|back to (the )?(original|default|base|beginning)"
)
_UNDO = re.compile(
    r"\bundo\b|take (that|it) back|\brevert\b|go back to the (previous|last|one before)|scratch that|never ?mind|previous (one|schedule|version)"
)
_LOOSEN = re.compile(
    r"loosen|relax|\bease\b|less strict|too strict|too tight|more room|back off|more slack|soften"
)
_TIGHTEN = re.compile(
    r"tighten|stricter|more strict|even (lower|less|fewer)|push (it|that) further|a bit more"
)
_OPTIONS = re.compile(
    r"options|alternatives|choices|a few (schedules|versions)|compare|couple of|what else|other (schedules|possibilities)"
)
_ADOPT = re.compile(r"go with|\btake\b|\bpick\b|choose|i('d)? like|prefer|\buse\b|adopt|let'?s do|i want")
_PRIORITY = re.compile(
    r"matters? (the )?most|most important|top priority|priorit|care (the )?(most|more) about|focus on|more important|biggest concern|main concern"
)
_EQUAL = re.compile(r"both (equally|the same)|equally|balance (the two|both|them)|same weight")
_QUESTION = re.compile(r"^(what|why|how|explain|can you explain|what's|whats)\b")


@dataclass
class Plan:
    """What the agent will do with one message: tool calls and/or a direct reply."""

    calls: list[Call] = field(default_factory=list)
    reply: str = ""
    notes: list[str] = field(default_factory=list)


def interpret(text: str, session: ScheduleSession) -> Plan:
    """Map one stakeholder message to tool calls (ending with call_solver) or a single reply."""
    low = text.lower().strip()
    plan = Plan()
    if not low:
        return Plan(reply=_clarify())
    if _START_OVER.search(low):
        return _finish(
            Plan(session.calls_to_reach(ModelState())),
            "There is nothing to reset: the model is already the base model.",
        )
    if _UNDO.search(low):
        return _finish(Plan(_undo_calls(session)), "There is no earlier change to undo.")
    number = lang.ordinal(low)
    if number is not None and session.alternatives and _ADOPT.search(low):
        return _adopt(session, number)
    if _OPTIONS.search(low) and not lang.mentioned_schools(low, session.district):
        count = 2 if re.search(r"\b(two|couple|pair)\b", low) else 3
        return Plan([("show_alternatives", {"count": count})])
    if _LOOSEN.search(low):
        return _finish(
            _loosen(session, low), "There are no constraints to loosen; the model is the base model."
        )
    for clause in _with_pronouns(lang.split_clauses(low), session):
        _read_clause(clause, session, plan)
    if not plan.calls and plan.reply:
        return plan
    if plan.calls:
        plan.calls.append(("call_solver", {}))
        return plan
    if _SATISFIED.search(low):
        return Plan(reply=_closing(session))
    if _QUESTION.search(low):
        return Plan(reply=_explain(low))
    return Plan(reply=_clarify())


def _finish(plan: Plan, nothing: str) -> Plan:
    if not plan.calls:
        return Plan(reply=nothing)
    plan.calls.append(("call_solver", {}))
    return plan


def _with_pronouns(clauses: list[str], session: ScheduleSession) -> list[str]:
    """Carry the last named school into clauses that say 'it' / 'them' / 'that school'."""
    out, last = [], None
    for clause in clauses:
        schools = lang.mentioned_schools(clause, session.district)
        if schools:
            last = schools[-1][1]
        elif last and re.search(r"\b(it|that school|them|they)\b", clause):
            clause = f"{clause} [{last.lower()}]"
        out.append(clause)
    return out


def _read_clause(clause: str, session: ScheduleSession, plan: Plan) -> None:
    schools = lang.mentioned_schools(clause, session.district)
    if schools:
        for _, school in schools:
            _school_request(clause, school, session, plan)
        return
    load_cue, dev_cue = bool(lang.LOAD_WORDS.search(clause)), bool(lang.DEVIATION_WORDS.search(clause))
    if _PRIORITY.search(clause) and (load_cue or dev_cue or _EQUAL.search(clause)):
        _priority(clause, load_cue, dev_cue, session, plan)
        return
    if _EQUAL.search(clause):
        _priority(clause, False, False, session, plan)
        return
    tighten = bool(_TIGHTEN.search(clause))
    if not (lang.REDUCE_WORDS.search(clause) or tighten or lang.limit_value(clause) is not None):
        return
    if load_cue and not dev_cue:
        _bound(LOAD, clause, session, plan)
    elif dev_cue and not load_cue:
        _bound(DEVIATION, clause, session, plan)
    elif load_cue and dev_cue:
        _bound(LOAD, clause, session, plan)
        _bound(DEVIATION, clause, session, plan)
    elif tighten:
        latest = next((c for c in reversed(session.state.constraints) if c.kind == "bound"), None)
        if latest is not None:
            _bound(latest.objective, "", session, plan)  # type: ignore[arg-type]


def _bound(objective: str, clause: str, session: ScheduleSession, plan: Plan) -> None:
    value = lang.limit_value(clause)
    if (
        value is not None
        and objective == LOAD
        and (value >= 100 or re.search(r"students|kids|children", clause))
    ):
        value = value / 100
    if value is None:
        current = session.current
        if current is None:
            plan.reply = "Let me first produce a schedule; then I can push that number down."
            return
        incumbent = current.result.load if objective == LOAD else current.result.deviation
        existing = session.state.bound(objective)
        reference = min(incumbent, existing) if existing is not None else incumbent
        value = round(reference - STEP, 2)
        plan.notes.append(f"binding:{objective}")
    if value <= 0:
        plan.reply = f"A limit of {value:g} on {objective} is impossible; could you give a positive number?"
        return
    plan.calls.append(("add_objective_upper_bound", {"objective": objective, "value": value}))


def _priority(clause: str, load_cue: bool, dev_cue: bool, session: ScheduleSession, plan: Plan) -> None:
    if load_cue == dev_cue:
        weights = {LOAD: 1.0, DEVIATION: 1.0}
    elif load_cue:
        weights = {LOAD: PRIORITY_WEIGHT, DEVIATION: 1.0}
    else:
        weights = {LOAD: 1.0, DEVIATION: PRIORITY_WEIGHT}
    for objective in sorted(weights, key=lambda o: -weights[o]):
        if session.state.weight(objective) != weights[objective]:
            plan.calls.append(
                ("change_objective_weight", {"objective": objective, "weight": weights[objective]})
            )
    if not plan.calls:
        plan.reply = "The model already weighs the objectives that way; tell me what you would like to change in the schedule."


def _school_request(clause: str, school: str, session: ScheduleSession, plan: Plan) -> None:
    district = session.district
    options = district.start_times
    label = ", ".join(district.time_labels)
    times = [m for _, m in lang.clock_times(clause)]
    current = session.current
    slot = None if current is None else current.result.assignment[district.school_index(school)]

    def fix(minutes: int) -> None:
        plan.calls.append(("fix_start_time", {"school": school, "time": format_time(minutes), "type": "fix"}))

    def forbid(minutes: int) -> None:
        plan.calls.append(
            ("fix_start_time", {"school": school, "time": format_time(minutes), "type": "forbid"})
        )

    relation = re.search(r"\b(before|after|earlier than|later than|by)\s+\d", clause)
    if times and relation:
        negated = bool(re.search(r"\b(not|never|no)\b|n't", clause[: relation.start()]))
        later_wanted = (relation.group(1) in ("after", "later than")) != negated
        limit = times[0]
        banned = [t for t in options if (t < limit if later_wanted else t > limit)]
        if len(banned) == len(options):
            side = "at or after" if later_wanted else "at or before"
            plan.reply = (
                f"No start-time option for {school} is {side} {format_time(limit)} (options: {label})."
            )
            return
        for t in banned:
            forbid(t)
        return
    if times:
        minutes = times[0]
        if minutes not in options and minutes + 720 in options:
            minutes += 720
        if minutes not in options:
            nearest = min(options, key=lambda t: abs(t - minutes))
            plan.reply = (
                f"{format_time(minutes)} is not one of the standardized start times ({label}). "
                f"Should I put {school} at {format_time(nearest)}, the closest option?"
            )
            return
        if re.search(r"\bnot\b|n't|anything but|avoid|except|no longer|rather not", clause):
            forbid(minutes)
        else:
            fix(minutes)
        return
    if re.search(r"earliest|as early as|first (slot|start)", clause):
        fix(options[0])
    elif re.search(r"latest|as late as|last (slot|start)", clause):
        fix(options[-1])
    elif re.search(r"earlier|sooner|move (it )?up", clause):
        _step(school, slot, -1, session, plan, fix)
    elif re.search(r"later|push (it )?back|sleep in", clause):
        _step(school, slot, +1, session, plan, fix)
    elif re.search(
        r"free|unfix|release|any ?time|flexib|doesn'?t matter|let (it|them)? ?move|no preference|drop the",
        clause,
    ):
        for c in session.state.constraints:
            if c.school == school:
                plan.calls.append(("remove_constraint", {"name": c.name}))
        if not any(c.school == school for c in session.state.constraints):
            plan.reply = f"{school} has no constraints on it right now."
    elif (
        re.search(r"keep|leave|don'?t (move|touch|change)|stay|same|fine|happy with|good where|as is", clause)
        and slot is not None
    ):
        fix(options[slot])
    else:
        where = "" if slot is None else f" (it is at {district.time_labels[slot]} in the current proposal)"
        plan.reply = f"What would you like for {school}{where}: an earlier or later start, or a specific time ({label})?"


def _step(school: str, slot: int | None, direction: int, session: ScheduleSession, plan: Plan, fix) -> None:
    labels = session.district.time_labels
    if slot is None:
        plan.reply = "Let me first produce a schedule; then I can move schools relative to it."
        return
    target = slot + direction
    if not 0 <= target < len(labels):
        word = "earliest" if direction < 0 else "latest"
        plan.reply = f"{school} already has the {word} start time ({labels[slot]}). Should I keep it there, or try something else?"
        return
    fix(session.district.start_times[target])


def _undo_calls(session: ScheduleSession) -> list[Call]:
    current, attempt = session.current, session.last_attempt
    if current is None:
        return []
    failed = attempt is not None and not attempt.result.has_schedule
    if failed or session.state != current.state:
        return session.calls_to_reach(current.state)
    previous = session.previous
    return [] if previous is None else session.calls_to_reach(previous.state)


def _loosen(session: ScheduleSession, low: str) -> Plan:
    attempt = session.last_attempt
    wanted = LOAD if lang.LOAD_WORDS.search(low) and not lang.DEVIATION_WORDS.search(low) else None
    wanted = DEVIATION if lang.DEVIATION_WORDS.search(low) and not lang.LOAD_WORDS.search(low) else wanted
    if attempt is not None and attempt.report is not None:
        for relax in attempt.report.relaxations:
            objective = relax.constraints[0].removeprefix("upper_bound[").rstrip("]")
            if relax.action == "raise_bound" and wanted in (None, objective):
                return Plan([("add_objective_upper_bound", {"objective": objective, "value": relax.value})])
    bounds = [c for c in session.state.constraints if c.kind == "bound" and wanted in (None, c.objective)]
    if bounds:
        latest = bounds[-1]
        value = round(latest.value * 1.1, 2) if latest.objective == LOAD else round(latest.value * 1.1, 1)  # type: ignore[operator]
        return Plan([("add_objective_upper_bound", {"objective": latest.objective, "value": value})])
    if session.state.constraints:
        return Plan([("remove_constraint", {"name": session.state.constraints[-1].name})])
    return Plan()


def _adopt(session: ScheduleSession, number: int) -> Plan:
    if not 1 <= number <= len(session.alternatives):
        return Plan(
            reply=f"I showed {len(session.alternatives)} options; which one would you like (1-{len(session.alternatives)})?"
        )
    point = session.alternatives[number - 1]
    return Plan(
        [
            ("add_objective_upper_bound", {"objective": LOAD, "value": point.load}),
            ("add_objective_upper_bound", {"objective": DEVIATION, "value": point.deviation}),
            ("call_solver", {}),
        ]
    )


def _closing(session: ScheduleSession) -> str:
    current = session.current
    if current is None:
        return "Glad to hear it. Tell me whenever you want to look at a schedule."
    return (
        f"Great, we'll go with proposal {current.number}: peak load {current.result.load:.2f} "
        f"({round(current.result.load * 100):,} students) and an average change of {current.result.deviation:.1f} minutes. "
        "Come back any time if you want to explore other trade-offs."
    )


def _explain(low: str) -> str:
    if lang.LOAD_WORDS.search(low):
        return (
            "**Student load balancing** is the largest number of students starting school at the same time, in hundreds "
            "(25.65 means 2,565 students). It stands in for transportation cost: the bus fleet must cover the peak."
        )
    if lang.DEVIATION_WORDS.search(low):
        return (
            "**Schedule deviation** is the average number of minutes each school's start moves away from its current "
            "start time. It measures disruption for families, staff and after-school programs."
        )
    return _clarify()


def _clarify() -> str:
    return (
        "I want to make sure I change the right thing. Would you like to (a) move a particular school earlier or later, "
        "(b) reduce how many students start at the same time, or (c) reduce how much start times change from today?"
    )


def make_offline_policy(session: ScheduleSession) -> OfflinePolicy:
    """The offline agent as an `OfflinePolicy`: tool calls for a user message, then a report of the results."""

    def policy(system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> OfflineTurn:
        results = trailing_tool_results(messages)
        if results:
            return OfflineTurn(text=compose_report(session, messages, results))
        plan = interpret(last_user_text(messages), session)
        return OfflineTurn(text=plan.reply, tool_calls=plan.calls)

    return policy
