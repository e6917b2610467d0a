"""Run a scripted Copilot extraction dialogue and check the final table and action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.inventory.copilot.extraction import ExtractionAgent


def check_dialogue(turns: Sequence[str], expected: Mapping[str, str | None], action: str) -> None:
    """Feed `turns` to a fresh offline agent; the named rows and the last action must match."""
    agent = ExtractionAgent()
    agent.greeting()
    turn = None
    for text in turns:
        turn = agent.respond(text)
    assert turn is not None
    values = {k: row["value"] for k, row in turn.table.items()}
    assert {k: values[k] for k in expected} == dict(expected), turn.assistant
    assert turn.action == action, turn.assistant
    if len(expected) == 12:
        assert all(row["status"] == "defined" for row in turn.table.values())
