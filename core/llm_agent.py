"""An LLM agent for tool environments, built on the one tool loop (`core.llm.run_tools`).

The environment's actions are tool calls (`{"name": TOOL, "arguments": {...}}`) and its observations are the
results of those calls. Each `act(observation)` answers the previous action's call with the observation (the
first observation is the opening user message), then runs the loop until the model calls an environment tool,
which is returned as the action unexecuted. Local tools (a notes tool, calculators) run inside the loop.
A model that will not call an environment tool, or a used-up token budget, raises an `AgentStopped`
(an `OrcaError`, so the rollout ends the run as failed with the reason) instead of acting by default.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from core.errors import OrcaError, SpecError
from core.llm.runner import (
    HistoryPolicy,
    LoopStop,
    Step,
    TokenBudget,
    run_tools,
    text_format_of,
    tool_result_message,
)
from core.llm.textcalls import TextCallFormat
from core.llm.tools import Toolbox
from core.llm.types import ChatModel, Message, ToolCall, ToolSpec, Usage

MAX_NOTES = 20
DEFAULT_HISTORY = HistoryPolicy(keep_last_turns=24)


class AgentStopped(OrcaError):
    """The LLM agent could not produce an action; `stop` says why (a `LoopStop`)."""

    def __init__(self, stop: LoopStop, message: str) -> None:
        self.stop = stop
        super().__init__(message)


class TokenBudgetExhausted(AgentStopped):
    """The run's token budget is used up; the run ends here."""


def render_observation(observation: Any) -> str:
    """An observation as message text: strings as they are, anything else as JSON."""
    return observation if isinstance(observation, str) else json.dumps(observation, default=str)


class LLMToolAgent:
    """`Agent` protocol (`reset(seed)`, `act(observation) -> action`) for environments whose actions are tool calls.

    Args:
        model: the chat model (an LLM adapter or an `OfflineModel`).
        system: the task description (system prompt).
        env_tools: the environment's actions as tool specs; a call to one of them is the action.
        local_tools: functions the loop runs itself (their results go back to the model, not to the env).
        notes: add a `take_note` tool; from the next action on, its notes are pinned in every request, even
            after old turns are dropped (keeps the last 20).
        history: what is sent each request (default: the last 24 turns); None sends everything.
        token_limit: tokens (input + output) one run may use; None is unlimited.
        text_tools: for models without native tool calling: True or a `TextCallFormat`.
        max_steps_per_act: model calls allowed for one action (local tools and corrections included).
        max_nudges: reminders per action when the model answers without calling a tool.
        on_step: called with every loop `Step` (e.g. a recorder).
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        system: str,
        env_tools: Sequence[ToolSpec],
        local_tools: Sequence[Callable[..., Any]] = (),
        notes: bool = False,
        history: HistoryPolicy | None = DEFAULT_HISTORY,
        token_limit: int | None = None,
        text_tools: bool | TextCallFormat = False,
        max_steps_per_act: int = 6,
        max_nudges: int = 2,
        on_step: Callable[[Step], None] | None = None,
        name: str | None = None,
    ) -> None:
        if not env_tools:
            raise SpecError("env_tools", "an environment agent needs at least one environment tool")
        if max_steps_per_act < 1:
            raise SpecError("max_steps_per_act", f"must be at least 1, got {max_steps_per_act}")
        if max_nudges < 0:
            raise SpecError("max_nudges", f"must be 0 or more, got {max_nudges}")
        if token_limit is not None:
            TokenBudget(token_limit)  # validates
        self.model = model
        self.name = name or f"llm:{model.name}"
        self.system = system
        self.env_tools = list(env_tools)
        functions = [*local_tools, *([self.take_note] if notes else [])]
        self.toolbox = Toolbox(functions) if functions else None
        clash = {t.name for t in self.env_tools} & set(self.toolbox.names if self.toolbox else ())
        if clash:
            raise SpecError("local_tools", f"{', '.join(sorted(clash))} is also an environment tool")
        self.history = history
        self.token_limit = token_limit
        self.text_format = text_format_of(text_tools)
        self.max_steps_per_act = max_steps_per_act
        self.max_nudges = max_nudges
        self.on_step = on_step
        self.reset(None)

    def reset(self, seed: int | None) -> None:
        """Start a new run: empty conversation, notes, usage and token budget."""
        self.seed = seed
        self.messages: list[Message] = []
        self.notes: list[str] = []
        self.steps: list[Step] = []
        self.usage = Usage()
        self.last_note = ""
        self.budget = TokenBudget(self.token_limit) if self.token_limit is not None else None
        self._pending: ToolCall | None = None

    def take_note(self, note: str) -> dict:
        """Save a short note for later; notes stay visible for the whole run, even when old turns are hidden.

        Args:
            note: what to remember (one or two sentences)
        """
        self.notes = [*self.notes, note.strip()][-MAX_NOTES:]
        return {"saved": True, "notes": len(self.notes)}

    def _observe(self, observation: Any) -> None:
        if self._pending is None:
            self.messages.append(Message("user", render_observation(observation)))
        else:
            self.messages.append(tool_result_message(self._pending, observation, self.text_format))
            self._pending = None

    def _record(self, step: Step) -> None:
        self.steps.append(step)
        if self.on_step:
            self.on_step(step)

    def act(self, observation: Any) -> dict[str, Any]:
        """The next action, `{"name": ..., "arguments": {...}}`, or `AgentStopped` when the model gives none."""
        self._observe(observation)
        history = self.history
        if history is not None and self.notes:
            history = replace(history, pinned=(*history.pinned, *self.notes))
        loop = run_tools(
            self.model,
            self.system,
            self.messages,
            self.toolbox,
            self.max_steps_per_act,
            self._record,
            external_tools=self.env_tools,
            require_tool=True,
            max_nudges=self.max_nudges,
            history=history,
            token_budget=self.budget,
            text_tools=self.text_format or False,
        )
        self.messages.extend(loop.messages)
        self.usage = self.usage + loop.usage
        self.last_note = loop.text
        if loop.stopped is LoopStop.PENDING and loop.pending is not None:
            self._pending = loop.pending
            return {"name": loop.pending.name, "arguments": dict(loop.pending.arguments)}
        if loop.stopped is LoopStop.TOKEN_BUDGET:
            raise TokenBudgetExhausted(
                loop.stopped,
                f"{self.name} used up its token budget ({self.budget.spent if self.budget else 0} of "
                f"{self.token_limit} tokens); the run ends here.",
            )
        names = ", ".join(t.name for t in self.env_tools)
        last = next((s.payload["text"] for s in reversed(loop.steps) if s.kind == "llm"), "")
        if loop.stopped is LoopStop.NO_TOOL_CALL:
            raise AgentStopped(
                loop.stopped,
                f"{self.name} answered without calling an environment tool ({names}), also after "
                f"{loop.nudges} reminder(s); its last reply: {last[:200]!r}",
            )
        raise AgentStopped(
            loop.stopped,
            f"{self.name} made {self.max_steps_per_act} model calls without choosing an environment action "
            f"({names}); its last reply: {last[:200]!r}",
        )
