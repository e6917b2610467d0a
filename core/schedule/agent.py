"""The T-P-P agent: a chat model (offline policy or LLM) driving the schedule tools through `run_tools`.

One class serves the page, the CLI and tests. `opening()` solves the base model and presents the
default proposal; `respond(text)` runs one user turn; `replay(...)` rebuilds a stored conversation
by re-executing its recorded tool calls (the tools are deterministic), so chats are resumable.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.config import Settings
from core.llm import (
    ChatModel,
    Message,
    OfflineModel,
    Step,
    Toolbox,
    ToolCall,
    Usage,
    make_chat_model,
    run_tools,
)
from core.runlog import SCHEDULE_OPENING
from core.schedule.offline import make_offline_policy
from core.schedule.processing import markdown_schedule, objective_lines
from core.schedule.report import compose_report
from core.schedule.session import ScheduleSession
from solvers.schedule.data import District, format_time, load_district
from solvers.schedule.model import DEVIATION, LOAD

PROMPT_PATH = Path(__file__).with_name("prompt.md")
OPENING_REQUEST = SCHEDULE_OPENING


@dataclass
class TurnResult:
    """One agent turn: its reply, the tool calls it made, and the model state afterwards."""

    text: str
    status: str
    tool_calls: list[dict[str, Any]]
    schedule: dict[str, str]
    objectives: dict[str, float | None]
    constraints: list[str]
    steps: list[Step] = field(default_factory=list)
    usage: Usage = Usage()
    messages: list[Message] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The CLI's chat line: assistant, status, schedule, objectives, constraints, tool_calls."""
        return {
            "assistant": self.text,
            "status": self.status,
            "schedule": self.schedule,
            "objectives": self.objectives,
            "constraints": self.constraints,
            "tool_calls": self.tool_calls,
        }


def build_system_prompt(session: ScheduleSession, district_title: str | None = None) -> str:
    """The four-part Section 9 prompt with this district's data and base-model proposal filled in."""
    district_title = district_title or session.district.name or "school district"
    base = session.proposals[0] if session.proposals else None
    rows = [
        "| School Name | Grade | Enrollment | Current Start | Proposed Start |",
        "| --- | --- | --- | --- | --- |",
    ]
    for q, school in enumerate(session.district.schools):
        proposed = session.district.time_labels[base.result.assignment[q]] if base else "-"
        rows.append(
            f"| {school.name} | {school.grade} | {school.enrollment} | {format_time(school.current_start)} | {proposed} |"
        )
    lines = objective_lines(base.result.load, base.result.deviation) if base else ["(not solved yet)", ""]
    return PROMPT_PATH.read_text(encoding="utf-8").format(
        district_title=district_title,
        school_count=len(session.district.schools),
        options=", ".join(session.district.time_labels),
        school_table="\n".join(rows),
        load_line=lines[0],
        deviation_line=lines[1],
    )


def district_record(
    schools_csv: bytes | str | None, start_times: list[str] | None, name: str | None = None
) -> dict[str, Any] | None:
    """What a stored run needs to rebuild an uploaded district (None for the shipped SFUSD data)."""
    if schools_csv is None and not start_times:
        return None
    text = schools_csv.decode("utf-8-sig") if isinstance(schools_csv, bytes) else schools_csv
    return {"schools_csv": text, "start_times": start_times, "name": name}


def district_from_record(record: dict[str, Any] | None) -> District | None:
    """The district of a stored run (None means the shipped SFUSD data)."""
    if not record:
        return None
    return load_district(record.get("schools_csv"), record.get("start_times"), record.get("name"))


class ScheduleAgent:
    """Conversation state plus the chat model and toolbox of one scheduling chat."""

    def __init__(
        self, model: ChatModel | None = None, session: ScheduleSession | None = None, max_steps: int = 10
    ) -> None:
        self.session = session or ScheduleSession()
        self.model = model or OfflineModel(make_offline_policy(self.session), name="orca-offline")
        self.toolbox = Toolbox(self.session.tools())
        self.max_steps = max_steps
        self.messages: list[Message] = []
        self.system = ""

    @classmethod
    def from_settings(
        cls, settings: Settings, district: District | None = None, max_steps: int = 10
    ) -> ScheduleAgent:
        """The offline agent or the configured LLM, over a fresh session."""
        session = ScheduleSession(district)
        return cls(make_chat_model(settings, make_offline_policy(session)), session, max_steps)

    def state(
        self,
        text: str,
        calls: list[dict[str, Any]],
        steps: list[Step],
        usage: Usage,
        new: list[Message],
        status: str | None = None,
    ) -> TurnResult:
        """The turn's result; status is the last solve's status, "error" or "no_change" when nothing was solved."""
        current = self.session.current
        solves = [c["result"].get("status") for c in calls if c.get("name") == "call_solver"]
        status = status or next((s for s in reversed(solves) if s), None)
        if status is None:
            status = "error" if any("error" in c.get("result", {}) for c in calls) else "no_change"
        return TurnResult(
            text=text,
            status=status,
            tool_calls=calls,
            schedule=dict(current.result.schedule) if current else {},
            objectives={
                LOAD: current.result.load if current else None,
                DEVIATION: current.result.deviation if current else None,
            },
            constraints=self.session.state.names(),
            steps=steps,
            usage=usage,
            messages=new,
        )

    def opening(self) -> TurnResult:
        """Solve the base model and present the default proposal (the first message of every chat)."""
        if not self.session.proposals:
            self.session.call_solver()
        self.system = build_system_prompt(self.session)
        current = self.session.current
        assert current is not None
        lines = objective_lines(current.result.load, current.result.deviation)
        text = (
            "### Proposed schedule (base model)\n\n"
            + markdown_schedule(self.session.district, current.result.assignment)
            + f"\n\n- {lines[0]}\n- {lines[1]}\n\n"
            "Tell me what you think: a school's start time, how many students start at once, or how much times change."
        )
        new = [Message("user", OPENING_REQUEST), Message("assistant", text)]
        self.messages.extend(new)
        return self.state(text, [], [], Usage(), new, status=current.result.status.value)

    def respond(self, text: str) -> TurnResult:
        """Run one user turn through the tool loop."""
        if not self.messages:
            self.opening()
        user = Message("user", text)
        self.messages.append(user)
        loop = run_tools(self.model, self.system, self.messages, self.toolbox, self.max_steps)
        self.messages.extend(loop.messages)
        return self.state(loop.text, loop.tool_calls, loop.steps, loop.usage, [user, *loop.messages])

    def act(self, note: str, calls: Sequence[tuple[str, dict[str, Any]]]) -> TurnResult:
        """Apply tool calls chosen in the UI (remove a constraint, adopt a frontier point) as a recorded turn."""
        if not self.messages:
            self.opening()
        tool_calls = tuple(
            ToolCall(f"ui_{len(self.messages)}_{i}", name, dict(args)) for i, (name, args) in enumerate(calls)
        )
        new: list[Message] = [Message("user", note), Message("assistant", "", tool_calls)]
        records = []
        for call in tool_calls:
            result = self.toolbox.call(call.name, call.arguments)
            records.append({"name": call.name, "arguments": call.arguments, "result": result})
            new.append(Message("tool", json.dumps(result, default=str), tool_call_id=call.id, name=call.name))
        text = compose_report(self.session, new, new[2:])
        new.append(Message("assistant", text))
        self.messages.extend(new)
        return self.state(text, records, [], Usage(), new)

    def replay(self, stored: Sequence[dict[str, Any]]) -> list[str]:
        """Rebuild a conversation from stored rows (role, content, tool_calls) by re-running its tool calls.

        Returns the replay problems: a recorded call that now fails, or one that failed at the time.
        """
        problems: list[str] = []
        self.messages = []
        if not self.session.proposals:
            self.session.call_solver()
        pending: list[ToolCall] = []
        for row in stored:
            role, content = row["role"], row.get("content") or ""
            if role == "assistant":
                calls = tuple(
                    ToolCall(c["id"], c["name"], dict(c.get("arguments") or {}), c.get("error"))
                    for c in (row.get("tool_calls") or [])
                )
                for call in calls:
                    if call.error:
                        problems.append(f"{call.name} was not run in the original chat: {call.error}")
                        continue
                    outcome = self.toolbox.call(call.name, call.arguments)
                    if "error" in outcome:
                        problems.append(f"{call.name}({json.dumps(call.arguments)}): {outcome['error']}")
                pending = list(calls)
                self.messages.append(Message("assistant", content, calls))
            elif role == "tool":
                call = pending.pop(0) if pending else None
                self.messages.append(
                    Message(
                        "tool",
                        content,
                        tool_call_id=call.id if call else None,
                        name=call.name if call else None,
                    )
                )
            else:
                self.messages.append(Message("user", content))
        self.system = build_system_prompt(self.session)
        return problems
