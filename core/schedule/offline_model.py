"""Offline agent, model-wide requests: objective bounds and priorities, loosen, undo, relaxations, options.

Objective bounds follow the Section 9 tip: to lower a value the bound sits just below the incumbent.
After an infeasible solve the session has rolled back; a request that matches an offered relaxation
("loosen that", "yes", "option 2", "try Ortega at 8:40 instead") applies it to the attempted model.
"""

from __future__ import annotations

from dataclasses import replace

from core.schedule import language as lang
from core.schedule.offline_schools import Call, Plan
from core.schedule.session import ScheduleSession
from core.schedule.state import Constraint
from solvers.schedule.data import format_time
from solvers.schedule.diagnose import Relaxation
from solvers.schedule.model import DEVIATION, LOAD

STEP = 0.01  # "strictly below the incumbent" for both objectives (values are multiples of 0.01 or 1/n)
NUDGE = {LOAD: 0.03, DEVIATION: 0.15}
"""A vague request ('spread the students out more') lowers the objective by this share of its current value,
times the number of times it was repeated: a step the user can see, not one student."""
PRIORITY_WEIGHT = 3.0
SOLVE: Call = ("call_solver", {})


def bound(objective: str, clause: str, session: ScheduleSession, plan: Plan, nudge: int = 0) -> None:
    """An upper bound from a stated limit, else just below the incumbent (and below an existing bound); with
    `nudge` (a vague request said `nudge` times), a visible step below it, and a note on the trade-off."""
    value = lang.limit_value(clause)
    if (
        value is not None
        and objective == LOAD
        and value >= 100  # '2,300 students' is 23 hundreds; '23' and '22.5 hundred' already are
    ):
        value = value / 100
    if value is None:
        current = session.current
        if current is None:
            plan.say.append("Let me first produce a schedule; then I can push that number down.")
            return
        incumbent = current.result.load if objective == LOAD else current.result.deviation
        existing = session.state.bound(objective)
        reference = min(incumbent, existing) if existing is not None else incumbent
        step = max(STEP, round(reference * NUDGE[objective] * nudge, 2)) if nudge else STEP
        value = round(reference - step, 2)
        if nudge:
            plan.say.append(_trade_note(objective, reference, value, nudge))
    if value <= 0:
        plan.say.append(
            f"A limit of {value:g} on {objective} is impossible; could you give a positive number?"
        )
        return
    plan.calls.append(("add_objective_upper_bound", {"objective": objective, "value": value}))


def _trade_note(objective: str, reference: float, value: float, nudge: int) -> str:
    """What a vague request was turned into and what it will cost on the other objective."""
    again = " again, further than last time" if nudge > 1 else ""
    if objective == LOAD:
        return (
            f"You asked in general terms, so I lowered the peak{again}: at most {round(value * 100):,} students "
            f"starting at once (now {round(reference * 100):,}). Spreading students out usually moves more start "
            "times, so the average change may grow; the numbers below show the trade."
        )
    return (
        f"You asked in general terms, so I limited the average change{again} to {value:.2f} minutes (now "
        f"{reference:.2f}). Keeping schools closer to today's times usually puts more students at the same "
        "start, so the peak may grow; the numbers below show the trade."
    )


def priority(load_cue: bool, dev_cue: bool, session: ScheduleSession, plan: Plan) -> None:
    """Weights 3:1 toward the objective that matters most, or 1:1 for 'both equally'."""
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
        plan.say.append(
            "The model already weighs the objectives that way; tell me what you would like to change in the schedule."
        )


def undo(session: ScheduleSession) -> Plan:
    """Drop a failed request (already rolled back), else return to the state before the last accepted change."""
    attempt, current = session.infeasible, session.current
    if attempt is not None and current is not None:
        session.dismiss_infeasible()
        return Plan(
            reply=f"I've set that request aside: it had no feasible schedule, so the model is back to proposal "
            f"{current.number}'s constraints and proposal {current.number} is still the current schedule."
        )
    target = session.undo_target()
    if target is None:
        return Plan(reply="There is no earlier change to undo.")
    return Plan([*session.calls_to_reach(target), SOLVE])


def relaxation_plan(session: ScheduleSession, relax: Relaxation, value: float | None = None) -> Plan:
    """Calls that apply one offered relaxation to the attempted model (optionally with the user's own bound)."""
    target = session.relaxed_state(relax)
    if value is not None and relax.action == "raise_bound":
        target = replace(
            target,
            constraints=tuple(
                Constraint("bound", objective=c.objective, value=value) if c.name in relax.constraints else c
                for c in target.constraints
            ),
        )
    calls = session.calls_to_reach(target)
    if not calls and session.current is not None:
        session.dismiss_infeasible()
        number = session.current.number
        return Plan(
            reply=f"That way out ({relax.description}) leaves the model as it is now, so proposal {number} "
            "stays the current schedule."
        )
    return Plan([*calls, SOLVE])


def choose_relaxation(session: ScheduleSession, number: int) -> Plan:
    """'option 2' / 'yes' after an infeasible result: the numbered relaxation."""
    relaxations = _relaxations(session)
    if not 1 <= number <= len(relaxations):
        return Plan(
            reply=f"I offered {len(relaxations)} ways out; which one would you like (1-{len(relaxations)})?"
        )
    return relaxation_plan(session, relaxations[number - 1])


def match_relaxation(plan: Plan, session: ScheduleSession) -> None:
    """Replace planned calls that amount to an offered relaxation by that relaxation applied to the attempt."""
    for relax in _relaxations(session):
        matched, value = [], None
        for name, args in plan.calls:
            if relax.action == "change_time" and name == "fix_start_time" and args["type"] == "fix":
                constraint = session.infeasible.state.find(relax.constraints[0])  # type: ignore[union-attr]
                if (
                    constraint
                    and constraint.school == args["school"]
                    and args["time"] == format_time(int(relax.value or 0))
                ):
                    matched.append((name, args))
            elif (
                relax.action == "remove" and name == "remove_constraint" and args["name"] in relax.constraints
            ):
                matched.append((name, args))
            elif (
                relax.action == "raise_bound"
                and name == "add_objective_upper_bound"
                and f"upper_bound[{args['objective']}]" in relax.constraints
                and args["value"] >= (relax.value or 0)
            ):
                matched.append((name, args))
                value = args["value"]
        if matched:
            rest = [c for c in plan.calls if c not in matched]
            plan.calls = relaxation_plan(session, relax, value).calls[:-1] + rest
            plan.say.append(
                f"That is one of the ways out I offered ({relax.description}), applied to your last request."
            )
            return
    names = set(session.state.names())
    plan.calls = [c for c in plan.calls if c[0] != "remove_constraint" or c[1]["name"] in names]


def loosen(session: ScheduleSession, low: str) -> Plan:
    """Raise the bound that caused an infeasibility, else the latest bound by 10%, else drop the latest constraint."""
    load, dev = bool(lang.load_cue(low)), bool(lang.change_cue(low))
    wanted = LOAD if load and not dev else DEVIATION if dev and not load else None
    relaxations = _relaxations(session)
    if relaxations:
        raising = [r for r in relaxations if r.action == "raise_bound"]
        chosen = next(
            (r for r in raising if wanted is None or r.constraints[0] == f"upper_bound[{wanted}]"), None
        )
        return relaxation_plan(session, chosen or relaxations[0])
    bounds = [c for c in session.state.constraints if c.kind == "bound" and wanted in (None, c.objective)]
    if bounds:
        latest = bounds[-1]
        value = round(latest.value * 1.1, 2 if latest.objective == LOAD else 1)  # type: ignore[operator]
        return Plan([("add_objective_upper_bound", {"objective": latest.objective, "value": value}), SOLVE])
    if session.state.constraints:
        return Plan([("remove_constraint", {"name": session.state.constraints[-1].name}), SOLVE])
    return Plan(reply="There are no constraints to loosen; the model is the base model.")


def adopt(session: ScheduleSession, number: int) -> Plan:
    """Bound both objectives at a shown alternative's values and re-solve."""
    shown = session.alternatives
    if not shown:
        return Plan(
            reply="I haven't shown any options yet. Shall I show you three alternatives to compare?",
            offer=[("show_alternatives", {"count": 3})],
        )
    if not 1 <= number <= len(shown):
        return Plan(reply=f"I showed {len(shown)} options; which one would you like (1-{len(shown)})?")
    point = shown[number - 1]
    return Plan(
        [
            ("add_objective_upper_bound", {"objective": LOAD, "value": point.load}),
            ("add_objective_upper_bound", {"objective": DEVIATION, "value": point.deviation}),
            SOLVE,
        ]
    )


def _relaxations(session: ScheduleSession) -> tuple[Relaxation, ...]:
    attempt = session.infeasible
    return attempt.report.relaxations if attempt is not None and attempt.report is not None else ()
