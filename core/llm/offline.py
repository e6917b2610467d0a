"""The offline model: a deterministic domain policy speaking the same protocol as an LLM.

A policy reads the conversation and returns text and tool calls, so an offline run produces the same kind of
trace (steps, tool calls, results) as an LLM run, through the same tool loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.llm.types import Message, Reply, ToolCall, ToolSpec, Usage


@dataclass(frozen=True)
class OfflineTurn:
    """What a deterministic policy says: text, and tool calls as (name, arguments) pairs."""

    text: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


OfflinePolicy = Callable[[str, Sequence[Message], Sequence[ToolSpec]], OfflineTurn]


class OfflineModel:
    """Wrap a deterministic policy as a `ChatModel` (no network, no tokens)."""

    def __init__(self, policy: OfflinePolicy, name: str = "offline") -> None:
        self.name = name
        self._policy = policy
        self._calls = 0

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        start = time.perf_counter()
        turn = self._policy(system, messages, tools)
        calls = []
        for name, arguments in turn.tool_calls:
            self._calls += 1
            calls.append(ToolCall(id=f"offline_{self._calls}", name=name, arguments=dict(arguments)))
        return Reply(
            turn.text, tuple(calls), Usage(), time.perf_counter() - start, "tool_use" if calls else "end_turn"
        )


def last_user_text(messages: Sequence[Message]) -> str:
    """The most recent user message, which an offline policy usually answers."""
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


def trailing_tool_results(messages: Sequence[Message]) -> list[Message]:
    """The tool results after the last assistant turn (empty when the user spoke last)."""
    results: list[Message] = []
    for m in reversed(messages):
        if m.role != "tool":
            break
        results.append(m)
    return list(reversed(results))
