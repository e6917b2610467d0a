"""`UsageMeter`: the tokens of every reply of the chat models it wraps, summed (one role's usage).

A component that builds several models for one role (the Inventory Copilot: its Table 8 extraction model and its
Policy Interpretation model) wraps each with one meter and reads `meter.usage`; the wrapped model behaves exactly
as the inner one (same replies, errors and attributes). A reply served from the reply cache counts as sent (as
`Reply.usage` and the run's transitions do; the budget takes cached tokens off on its own).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from core.llm.types import ChatModel, Message, Reply, ToolSpec, Usage


class UsageMeter:
    """Summed `Usage` of every reply of the models it wraps (`wrap`); `calls` counts the replies."""

    def __init__(self) -> None:
        self.usage = Usage()
        self.calls = 0
        self._lock = threading.Lock()

    def add(self, reply: Reply) -> None:
        with self._lock:
            self.usage = self.usage + reply.usage
            self.calls += 1

    def wrap(self, model: ChatModel) -> ChatModel:
        """`model`, with every reply's tokens added to this meter."""
        return MeteredChatModel(model, self)


class MeteredChatModel:
    """A `ChatModel` that passes every request to `inner` and adds the reply's tokens to `meter`."""

    def __init__(self, inner: ChatModel, meter: UsageMeter) -> None:
        self.inner = inner
        self.meter = meter
        self.name = inner.name

    def __repr__(self) -> str:
        return f"MeteredChatModel({self.inner!r})"

    def __getattr__(self, name: str) -> Any:  # the inner model's other attributes (provider, hits, ...)
        if name in ("inner", "meter"):  # not set yet (e.g. while unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        reply = self.inner.complete(system, messages, tools)
        self.meter.add(reply)
        return reply
