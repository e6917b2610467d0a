"""Provider-neutral chat types: messages, tool calls, tool specs, replies and token usage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["user", "assistant", "tool"]


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked to run. `error` is set when its argument JSON could not be parsed."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.error:
            data["error"] = self.error
        return data


@dataclass(frozen=True)
class Message:
    """One conversation entry. Tool results are `role="tool"` messages that answer `tool_call_id`."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "content": self.content,
            "tool_calls": [c.to_dict() for c in self.tool_calls],
            "tool_call_id": self.tool_call_id,
            "name": self.name,
        }


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model sees it: name, description and a JSON Schema for its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Usage:
    """Token counts of one or more completions."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens)


@dataclass(frozen=True)
class Reply:
    """What a model returned for one request."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    latency_s: float = 0.0
    stop_reason: str | None = None
    cached: bool = False  # answered from the reply cache (core.llm.cache): no request was sent


@runtime_checkable
class ChatModel(Protocol):
    """The one chat interface every agent uses; adapters exist for Anthropic, OpenAI and offline policies."""

    name: str

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        """Send the conversation (and the tools it may call) and return the model's reply."""
        ...
