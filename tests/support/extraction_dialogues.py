"""Run a scripted Copilot extraction dialogue and check the final table and action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn


def check_dialogue(turns: Sequence[str], expected: Mapping[str, str | None], action: str) -> None:
    """Feed `turns` to a fresh offline agent; the named rows and the last action must match."""
    _, turn = say(*turns)
    values = {k: row["value"] for k, row in turn.table.items()}
    assert {k: values[k] for k in expected} == dict(expected), turn.assistant
    assert turn.action == action, turn.assistant
    if len(expected) == 12:
        assert all(row["status"] == "defined" for row in turn.table.values())


def talk(*texts: str, asked: str | None = None) -> tuple[ExtractionAgent, CopilotTurn]:
    """A fresh offline agent; every message but the last is sent as is, the last one answers the row `asked`
    (None: whatever the agent asked last)."""
    agent = ExtractionAgent()
    agent.greeting()
    for text in texts[:-1]:
        agent.respond(text)
    agent.state.asked = asked
    return agent, agent.respond(texts[-1])


def say(*texts: str) -> tuple[ExtractionAgent, CopilotTurn]:
    """A fresh offline agent after its greeting, every message sent in turn: the agent and the last turn."""
    agent = ExtractionAgent()
    agent.greeting()
    turn = None
    for text in texts:
        turn = agent.respond(text)
    assert turn is not None
    return agent, turn


def table_values(turn: CopilotTurn) -> dict[str, str]:
    """The filled rows of a turn's table: key -> value."""
    return {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}


TO_STORAGE = (
    "a small shop",
    "about 20 a day, give or take 5",
    "they go elsewhere",
    "no, it keeps",
    "30 days",
    "5 cents a day",
    "2 dollars",
    "10 dollars per order",
    "2 days",
)
"""Plain answers that bring a fresh Copilot to the storage question (the order question after one more)."""
