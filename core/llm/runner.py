"""The one tool-loop runner: ask the model, run the tools it calls, feed results back, repeat.

Unknown tools, schema violations, malformed argument JSON and tool exceptions become error results the model
reads; the loop is capped at `max_steps` model calls; every request and tool call is recorded as a `Step`.
The new messages always end with an assistant message without tool calls, and every tool call in them is
answered by a tool result, so they can be sent back to any provider as history.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from core.llm.tools import Toolbox
from core.llm.types import ChatModel, Message, Usage


@dataclass(frozen=True)
class Step:
    """One recorded event of a loop: a model request (`llm`) or a tool execution (`tool`)."""

    index: int
    kind: Literal["llm", "tool"]
    payload: dict[str, Any]
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0


@dataclass
class LoopResult:
    """The new messages of a loop, its final text, its steps and token totals."""

    messages: list[Message] = field(default_factory=list)
    text: str = ""
    steps: list[Step] = field(default_factory=list)
    usage: Usage = Usage()
    stopped: Literal["done", "max_steps"] = "done"

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        """Each executed call with its arguments and result, in order."""
        return [s.payload for s in self.steps if s.kind == "tool"]


def run_tools(
    model: ChatModel,
    system: str,
    messages: Sequence[Message],
    toolbox: Toolbox | None = None,
    max_steps: int = 8,
    on_step: Callable[[Step], None] | None = None,
) -> LoopResult:
    """Run the model with tools until it answers without calling any, or `max_steps` requests were made."""
    history = list(messages)
    result = LoopResult()
    specs = toolbox.specs if toolbox else []

    def record(step: Step) -> None:
        result.steps.append(step)
        if on_step:
            on_step(step)

    for _ in range(max_steps):
        request = {
            "messages": len(history),
            "last_message": history[-1].content[:500] if history else "",
            "last_role": history[-1].role if history else None,
            "tools": [t.name for t in specs],
        }
        reply = model.complete(system, history, specs)
        result.usage = result.usage + reply.usage
        record(
            Step(
                len(result.steps),
                "llm",
                {
                    "model": model.name,
                    "request": request,
                    "text": reply.text,
                    "stop_reason": reply.stop_reason,
                    "tool_calls": [c.to_dict() for c in reply.tool_calls],
                },
                reply.usage.input_tokens,
                reply.usage.output_tokens,
                reply.latency_s,
            )
        )
        assistant = Message("assistant", reply.text, reply.tool_calls)
        history.append(assistant)
        result.messages.append(assistant)
        if not reply.tool_calls:
            result.text = reply.text
            return result
        for call in reply.tool_calls:
            start = time.perf_counter()
            if call.error:
                output: dict[str, Any] = {"error": f"could not call {call.name}: {call.error}"}
            elif toolbox is None:
                output = {"error": "no tools are available in this conversation"}
            else:
                output = toolbox.call(call.name, call.arguments)
            latency = time.perf_counter() - start
            record(
                Step(
                    len(result.steps),
                    "tool",
                    {"name": call.name, "arguments": call.arguments, "result": output},
                    latency_s=latency,
                )
            )
            message = Message("tool", json.dumps(output, default=str), tool_call_id=call.id, name=call.name)
            history.append(message)
            result.messages.append(message)
    result.stopped = "max_steps"
    result.text = f"(stopped after {max_steps} model calls without a final answer)"
    result.messages.append(Message("assistant", result.text))  # every tool call above has its result
    return result
