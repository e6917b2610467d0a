"""How stored conversations read back: which user-role messages the app sent itself, and transcripts for display.

Recording goes through the one recorder (`core/recorder.py`)."""

from __future__ import annotations

from collections.abc import Sequence

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
