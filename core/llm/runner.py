"""The one tool-loop runner: ask the model, run the tools it calls, feed results back, repeat.

Unknown tools, schema violations, malformed argument JSON and tool exceptions become error results the model
reads; the loop is capped at `max_steps` model calls; every request and tool call is recorded as a `Step`.

What agents acting in an environment need, all optional and off by default:

- `external_tools` / `stop_when`: tools the model sees but the caller executes (an environment's actions). The
  first such call ends the loop unexecuted as `LoopResult.pending`; the caller answers it (`tool_result_message`)
  before the next run.
- `require_tool` / `max_nudges`: a reply without a tool call gets a short reminder, at most `max_nudges` times,
  then the loop stops with `LoopStop.NO_TOOL_CALL`.
- `history`: only the system prompt, pinned notes and the last K turns are sent (a turn is an assistant message
  and the results that answer it, so a call is never separated from its result); each `llm` step records how
  many messages and turns were dropped.
- `token_budget`: a per-run counter shared across loops; once used up the loop ends with
  `LoopStop.TOKEN_BUDGET` before asking the model again.
- `text_tools`: for models without native tool calling the tools are described in the system prompt, replies
  are parsed by `core.llm.textcalls` (one call per reply) and results go back as user messages; a reply whose
  call cannot be read gets an error result and costs a step, never a guessed call.

Unless the loop stops `PENDING`, its new messages end with an assistant message without tool calls and every
tool call in them is answered by a tool result, so they can be sent back to any provider as history.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from core.errors import SpecError
from core.llm.textcalls import TextCallFormat, parse_text_tool_calls, text_tool_instructions
from core.llm.tools import Toolbox
from core.llm.types import ChatModel, Message, ToolCall, ToolSpec, Usage


class LoopStop(StrEnum):
    """Why a loop ended. String-valued, so `result.stopped == "done"` keeps working."""

    DONE = "done"  # the model answered without calling a tool
    MAX_STEPS = "max_steps"  # `max_steps` model calls were made
    PENDING = "pending"  # the model called a tool the caller executes (`LoopResult.pending`)
    NO_TOOL_CALL = "no_tool_call"  # `require_tool`, and the model still called none after the nudges
    TOKEN_BUDGET = "token_budget"  # the run's token budget is used up


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
    """The new messages of a loop, its final text, its steps and token totals, and why it stopped."""

    messages: list[Message] = field(default_factory=list)
    text: str = ""
    steps: list[Step] = field(default_factory=list)
    usage: Usage = Usage()
    stopped: LoopStop = LoopStop.DONE
    pending: ToolCall | None = None
    nudges: int = 0

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        """Each executed call with its arguments and result, in order."""
        return [s.payload for s in self.steps if s.kind == "tool"]


@dataclass(frozen=True)
class HistoryPolicy:
    """Send the system prompt, the pinned notes and the last `keep_last_turns` turns; drop the rest.

    A turn is one assistant message with the messages after it up to the next one (its tool results,
    nudges, the next observation). When anything is dropped, or notes are pinned, the window opens with one
    user message holding the notes and a line saying how much was left out; with `keep_opening` it also holds
    the text of the conversation's opening messages (those before the first assistant message: a task's
    status and context), so they are never dropped.
    """

    keep_last_turns: int
    pinned: tuple[str, ...] = ()
    keep_opening: bool = False  # when turns are dropped, resend the opening messages' text in the header

    def __post_init__(self) -> None:
        if isinstance(self.keep_last_turns, bool) or not isinstance(self.keep_last_turns, int):
            raise SpecError("history.keep_last_turns", "must be a whole number")
        if self.keep_last_turns < 1:
            raise SpecError("history.keep_last_turns", f"must be at least 1, got {self.keep_last_turns}")
        if isinstance(self.pinned, str) or not all(isinstance(n, str) for n in self.pinned):
            raise SpecError("history.pinned", "must be a sequence of strings")
        object.__setattr__(self, "pinned", tuple(self.pinned))

    def window(self, messages: Sequence[Message]) -> tuple[list[Message], int, int]:
        """`(messages to send, dropped messages, dropped turns)`."""
        starts = [i for i, m in enumerate(messages) if m.role == "assistant"]
        cut = starts[-self.keep_last_turns] if len(starts) > self.keep_last_turns else 0
        dropped_turns = len(starts) - self.keep_last_turns if cut else 0
        kept = list(messages[cut:])
        lines = []
        if cut and self.keep_opening:
            lines += [m.content for m in messages[: starts[0]] if m.content.strip()]
        if self.pinned:
            lines += ["Notes:", *(f"- {note}" for note in self.pinned)]
        if cut:
            lines.append(
                f"[{cut} earlier messages ({dropped_turns} turns) are not shown to keep the conversation short.]"
            )
        if lines:
            kept.insert(0, Message("user", "\n".join(lines)))
        return kept, cut, dropped_turns


@dataclass
class TokenBudget:
    """A run's token allowance (input + output), shared by every loop of the run and charged after each reply."""

    limit: int
    used: Usage = Usage()

    def __post_init__(self) -> None:
        if isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1:
            raise SpecError("token_budget", f"must be a positive whole number of tokens, got {self.limit!r}")

    @property
    def spent(self) -> int:
        return self.used.input_tokens + self.used.output_tokens

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.spent)

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.limit

    def charge(self, usage: Usage) -> None:
        self.used = self.used + usage


def _content(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, default=str)


def tool_result_message(call: ToolCall, output: Any, text_format: TextCallFormat | None = None) -> Message:
    """The message answering `call`: a tool message, or for a text-format model a user message."""
    if text_format is None:
        return Message("tool", _content(output), tool_call_id=call.id, name=call.name)
    if text_format is TextCallFormat.ACTION:
        return Message("user", f"Observation: {_content(output)}")
    return Message("user", f"<tool_response>\n{_content(output)}\n</tool_response>")


def text_format_of(text_tools: bool | TextCallFormat | str) -> TextCallFormat | None:
    """The text call format `run_tools(text_tools=...)` uses: None for native tool calling."""
    if text_tools is True:
        return TextCallFormat.TOOL_CALL
    return TextCallFormat(text_tools) if text_tools else None


def _how(text_format: TextCallFormat | None) -> str:
    if text_format is TextCallFormat.ACTION:
        return "End your reply with one line: Action: NAME(arguments)."
    if text_format is TextCallFormat.TOOL_CALL:
        return 'End your reply with <tool_call>{"name": NAME, "arguments": {...}}</tool_call>.'
    return "Call the tool; do not only describe it."


def _nudge(names: Sequence[str], text_format: TextCallFormat | None) -> str:
    listed = ", ".join(names) or "none"
    return (
        f"Your reply did not call a tool, and this step needs one. Call one of: {listed}. {_how(text_format)}"
    )


class _Loop:
    """One `run_tools` call: the conversation so far, the result being built and how the tools are offered."""

    def __init__(
        self,
        system: str,
        messages: Sequence[Message],
        toolbox: Toolbox | None,
        external_tools: Sequence[ToolSpec],
        stop_when: Callable[[ToolCall], bool] | None,
        text_format: TextCallFormat | None,
        require_tool: bool,
        on_step: Callable[[Step], None] | None,
    ) -> None:
        self.conversation = list(messages)
        self.result = LoopResult()
        self.toolbox, self.text_format, self.on_step = toolbox, text_format, on_step
        self.specs = [*(toolbox.specs if toolbox else []), *external_tools]
        self.names = [t.name for t in self.specs]
        if stop_when is None and external_tools:
            external = {t.name for t in external_tools}
            stop_when = lambda call: call.name in external  # noqa: E731
        self.stop_when = stop_when
        self.prompt = system
        if text_format is not None:
            instructions = text_tool_instructions(self.specs, text_format, require_tool=require_tool)
            self.prompt = f"{system}\n\n{instructions}" if system else instructions
        self.native_specs = self.specs if text_format is None else []

    def record(self, step: Step) -> None:
        self.result.steps.append(step)
        if self.on_step:
            self.on_step(step)

    def add(self, message: Message) -> None:
        self.conversation.append(message)
        self.result.messages.append(message)

    def answer(self, call: ToolCall, output: Any, latency: float = 0.0) -> None:
        """Record a tool step for `call` and add the message that answers it."""
        payload = {"name": call.name, "arguments": call.arguments, "result": output}
        self.record(Step(len(self.result.steps), "tool", payload, latency_s=latency))
        self.add(tool_result_message(call, output, self.text_format))

    def finish(self, stopped: LoopStop, text: str) -> LoopResult:
        """End with a closing assistant message (every tool call above has its result)."""
        self.result.stopped, self.result.text = stopped, text
        self.result.messages.append(Message("assistant", text))
        return self.result

    def ask(
        self, model: ChatModel, history: HistoryPolicy | None, token_budget: TokenBudget | None
    ) -> tuple[tuple[ToolCall, ...], str | None, str]:
        """One model request, recorded as an `llm` step and added as the assistant message, its tokens charged.

        Returns the reply's tool calls, the text-format parse error (None if none) and its visible text."""
        conversation, text_format = self.conversation, self.text_format
        sent, dropped_messages, dropped_turns = (
            history.window(conversation) if history else (conversation, 0, 0)
        )
        request: dict[str, Any] = {
            "messages": len(sent),
            "last_message": sent[-1].content[:500] if sent else "",
            "last_role": sent[-1].role if sent else None,
            "tools": self.names,
        }
        if history:
            request |= {"dropped_messages": dropped_messages, "dropped_turns": dropped_turns}
        if text_format:
            request["text_tools"] = text_format.value
        reply = model.complete(self.prompt, sent, self.native_specs)
        self.result.usage = self.result.usage + reply.usage
        if token_budget is not None:
            token_budget.charge(reply.usage)
        calls, parse_error, text = reply.tool_calls, None, reply.text
        if text_format is not None:
            parsed = parse_text_tool_calls(reply.text, self.specs)
            call_id = f"text_{len(conversation)}"
            calls = tuple(dataclasses.replace(c, id=call_id) for c in parsed.calls)
            parse_error, text = parsed.error, parsed.visible_text
        payload: dict[str, Any] = {
            "model": model.name,
            "request": request,
            "text": reply.text,
            "stop_reason": reply.stop_reason,
            "tool_calls": [c.to_dict() for c in calls],
        }
        if text_format:
            payload["parse_error"] = parse_error
        usage = reply.usage
        self.record(
            Step(
                len(self.result.steps),
                "llm",
                payload,
                usage.input_tokens,
                usage.output_tokens,
                reply.latency_s,
            )
        )
        self.add(Message("assistant", reply.text, () if text_format else calls))
        return calls, parse_error, text

    def run_calls(self, calls: Sequence[ToolCall]) -> None:
        """Answer each call in order; the first one `stop_when` picks becomes `pending`, unexecuted."""
        result, names, toolbox = self.result, self.names, self.toolbox
        for call in calls:
            start = time.perf_counter()
            if call.error:
                output: dict[str, Any] = {"error": f"could not call {call.name}: {call.error}"}
            elif self.stop_when is not None and self.stop_when(call):
                if result.pending is None:
                    result.pending = call
                    continue
                output = {
                    "error": f"not executed: one environment action per reply, and {result.pending.name} "
                    f"({result.pending.id}) came first"
                }
            elif toolbox is None or call.name not in toolbox.names:
                output = {
                    "error": f"unknown tool '{call.name}'; available tools: {', '.join(names)}"
                    if names
                    else "no tools are available in this conversation"
                }
            else:
                output = toolbox.call(call.name, call.arguments)
            self.answer(call, output, time.perf_counter() - start)


def run_tools(
    model: ChatModel,
    system: str,
    messages: Sequence[Message],
    toolbox: Toolbox | None = None,
    max_steps: int = 8,
    on_step: Callable[[Step], None] | None = None,
    *,
    external_tools: Sequence[ToolSpec] = (),
    stop_when: Callable[[ToolCall], bool] | None = None,
    require_tool: bool = False,
    max_nudges: int = 2,
    history: HistoryPolicy | None = None,
    token_budget: TokenBudget | None = None,
    text_tools: bool | TextCallFormat = False,
) -> LoopResult:
    """Run the model with tools until it answers without calling any, or `max_steps` requests were made.

    `stop_when` defaults to "a call to one of `external_tools`"; see the module docstring for the rest.
    """
    text_format = text_format_of(text_tools)
    loop = _Loop(system, messages, toolbox, external_tools, stop_when, text_format, require_tool, on_step)
    result = loop.result
    for _ in range(max_steps):
        if token_budget is not None and token_budget.exhausted:
            return loop.finish(
                LoopStop.TOKEN_BUDGET,
                f"(stopped: the run's token budget of {token_budget.limit} tokens is used up)",
            )
        calls, parse_error, text = loop.ask(model, history, token_budget)
        if parse_error is not None:
            unreadable = ToolCall(f"text_{len(loop.conversation)}", "(unreadable call)")
            loop.answer(unreadable, {"error": f"{parse_error}. {_how(text_format)}"})
            continue
        if not calls:
            if require_tool and result.nudges < max_nudges:
                result.nudges += 1
                loop.add(Message("user", _nudge(loop.names, text_format)))
                continue
            result.text = text
            result.stopped = LoopStop.NO_TOOL_CALL if require_tool else LoopStop.DONE
            return result
        loop.run_calls(calls)
        if result.pending is not None:
            result.stopped, result.text = LoopStop.PENDING, text
            return result
    return loop.finish(LoopStop.MAX_STEPS, f"(stopped after {max_steps} model calls without a final answer)")
