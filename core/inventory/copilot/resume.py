"""A stored Copilot conversation read back from the run store, and the table snapshots it is rebuilt from.

Each `extraction` / `user_edit` step holds a `snapshot` of the table: values, units and the open conflicts in
full (options included), so that a resumed conversation still understands the reply to an open clarification.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from core.inventory.table import Conflict, ParameterTable
from core.store import Store

EDIT_TOOL = "user_edit"


def snapshot(
    table: ParameterTable,
    assumptions: dict[str, str] | None = None,
    memory: dict[str, object] | None = None,
) -> dict[str, Any]:
    """The table as a step payload: values, units, the open conflicts (all fields), the rows filled by an
    assumption (the user skipped them or chose a default), with the assumption in words, and the agent's
    memory of the user's units (`DialogueState.memory`: container sizes, the unit demand is counted in)."""
    return {
        "values": table.values(),
        "units": table.units(),
        "conflicts": [asdict(c) for c in table.conflicts],
        "assumptions": dict(assumptions or {}),
        "memory": dict(memory or {}),
        "late_delivery": table.late_delivery,
    }


def table_from_snapshot(payload: dict[str, Any] | None) -> ParameterTable:
    """The table of a snapshot, its open conflicts reopened (an empty table for None)."""
    table = ParameterTable()
    if payload:
        table.late_delivery = bool(payload.get("late_delivery"))
        table.load(payload["values"], payload.get("units"))
        for conflict in payload.get("conflicts") or ():
            table.open(Conflict.from_dict(conflict))
    return table


@dataclass(frozen=True)
class StoredConversation:
    """What a run holds: the table, the extraction log, the optimize step (None before TERMINATE) and the
    interpretation dialogue after it."""

    table: ParameterTable
    log: list[tuple[str, str]]
    optimized: dict[str, Any] | None
    cut: int
    interpretation: list[tuple[str, str]]
    assumptions: dict[str, str] = field(default_factory=dict)
    memory: dict[str, Any] = field(default_factory=dict)
    """The agent's memory of the user's units at the last snapshot (empty for runs stored before it)."""


def load_conversation(store: Store, run_id: str) -> StoredConversation:
    """Read a stored conversation (the last table snapshot, the messages split at the optimization)."""
    messages = store.messages(run_id).to_dict("records")
    steps = store.steps(run_id).to_dict("records")
    snapshots = [s["payload"] for s in steps if s["kind"] in ("extraction", "user_edit")]
    optimized = next((s["payload"] for s in steps if s["kind"] == "optimize"), None)
    cut = int(optimized["extraction_turns"]) if optimized else len(messages)
    interpretation = [
        (str(m["role"]), str(m["content"]))
        for m in messages[cut:]
        if m["role"] in ("user", "assistant") and not isinstance(m.get("tool_calls"), list)
    ]
    return StoredConversation(
        table_from_snapshot(snapshots[-1] if snapshots else None),
        [log_entry(m) for m in messages[:cut]],
        optimized,
        cut,
        interpretation,
        dict((snapshots[-1] if snapshots else {}).get("assumptions") or {}),
        dict((snapshots[-1] if snapshots else {}).get("memory") or {}),
    )


def log_entry(message: dict[str, Any]) -> tuple[str, str]:
    """A stored message as an extraction-log entry (table edits become ("edit", ...))."""
    calls = message.get("tool_calls")
    calls = calls if isinstance(calls, list) else []
    if message["role"] == "user" and any(c.get("name") == EDIT_TOOL for c in calls):
        return ("edit", str(message["content"]).removeprefix("(table edit) "))
    return (str(message["role"]), str(message["content"]))
