"""What one message sets, as the slot measurements compare it: the Inventory Copilot's table rows after one
turn, and School Scheduling's tool calls as sorted tuples. Shared by `bench/nlu_accuracy.py` and the slot tests."""

from __future__ import annotations

from core.inventory.copilot.extraction import ExtractionAgent
from core.schedule.agent import ScheduleAgent
from core.schedule.offline import Memory, interpret

_OPENING = object()


def table_after(text: str, asked: str | None | object = _OPENING) -> dict[str, str]:
    """The rows a fresh Inventory Copilot holds after `text`, said right after its greeting or, when `asked`
    is given, as the answer to that row (None: to no question)."""
    agent = ExtractionAgent()
    agent.greeting()
    if asked is not _OPENING:
        agent.state.asked = asked  # type: ignore[assignment]
    turn = agent.respond(text)
    return {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}


def call_slots(name: str, args: dict[str, object]) -> tuple[str, ...]:
    """One tool call as compared: (name, school, time, type), (name, count) or (name, objective, value)."""
    if name == "fix_start_time":
        return (name, str(args["school"]), str(args["time"]), str(args["type"]))
    if name == "show_alternatives":
        return (name, str(args["count"]))
    value = float(args.get("value", args.get("weight", 0)))  # type: ignore[arg-type]
    return (name, str(args["objective"]), f"{value:g}")


def planned(agent: ScheduleAgent, text: str) -> tuple[list[tuple[str, ...]], str]:
    """The sorted calls (solver runs left out) School Scheduling plans for `text`, and its reply."""
    plan = interpret(text, agent.session, Memory())
    calls = sorted(call_slots(name, args) for name, args in plan.calls if name != "call_solver")
    return calls, plan.reply or plan.say
