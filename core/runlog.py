"""Glue between the tool loop and the run store: record a loop's steps and messages under a run."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.llm import Message, Step
from core.store import Store

SCHEDULE_OPENING = "Please show me the proposed schedule."
POLICY_OPENING = "Please present the optimization result and the recommended policy to me."
APP_REQUESTS = frozenset({SCHEDULE_OPENING, POLICY_OPENING})
"""User-role messages the app sends itself (a chat model needs a user turn to answer); not shown as typed."""


def transcript(messages: Sequence[dict]) -> list[tuple[str, str, object]]:
    """Stored message rows as `(speaker, text, tool_calls)` for display: "user", "assistant", "tool" or "app"
    (a request the app sent in the user's role)."""
    out = []
    for row in messages:
        role, content = row.get("role"), row.get("content") or ""
        speaker = "app" if role == "user" and content in APP_REQUESTS else str(role)
        out.append((speaker, content, row.get("tool_calls")))
    return out


def step_recorder(store: Store, run_id: str) -> Callable[[Step], None]:
    """An `on_step` callback for `run_tools` that writes each step to the store as it happens."""

    def record(step: Step) -> None:
        store.add_step(
            run_id, step.kind, step.payload, step.input_tokens, step.output_tokens, step.latency_s * 1000.0
        )

    return record


def record_messages(store: Store, run_id: str, messages: Sequence[Message]) -> None:
    """Append conversation messages (with their tool calls) to a run, in one transaction."""
    with store.batch():
        for m in messages:
            store.add_message(run_id, m.role, m.content, [c.to_dict() for c in m.tool_calls] or None)
