"""How stored conversations read back: which user-role messages the app sent itself, and transcripts for display.

Recording goes through the one recorder (`core/recorder.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import pandas as pd

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


def first_typed(messages: Sequence[str] | None) -> str:
    """The first message a person typed (app requests and table-edit notes skipped), or "" (also for a missing
    list: None, or pandas' NA for a run without messages)."""
    if messages is None or isinstance(messages, str) or not hasattr(messages, "__iter__"):
        return ""
    for text in messages:
        if text and text not in APP_REQUESTS and not text.startswith("(table edit)"):
            return str(text)
    return ""


def run_label(
    *, first_message: str, workbench: str, created: datetime, status: str = "", width: int = 60
) -> str:
    """A human title for a stored run: "We sell croissants… · Inventory Copilot · 2026-11-24 10:41"."""
    text = " ".join(first_message.split())
    text = (text[: width - 1] + "…" if len(text) > width else text) or "(no message yet)"
    when = pd.Timestamp(created).strftime("%Y-%m-%d %H:%M")
    return " · ".join(part for part in (f"“{text}”", workbench, when, status) if part)
