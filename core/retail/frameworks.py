"""LLM agent frameworks for RetailBench on the one tool loop: ReAct, Reflection, Plan-and-Act (seed 004) and
Evolving Strategy & Execution (seed 001).

All four are `LLMToolAgent`s whose environment tools are the RetailBench tools, with the day as the unit:

* a day starts with a fresh conversation (as the original runners do) holding the day message: status (the
  previous `end_today` result or the opening catalogue), the agent's saved notes, the framework's memory
  (reflection, plan or strategy), reminders; the layer's history policy keeps the last turns within a day and
  pins the notes;
* the day ends with `end_today`, forced after `day_cap` tool calls, or when the model keeps answering without
  a usable tool call (the original's "no valid call" rule) — never a crash;
* tokens are counted per day (`tokens_per_day`), the framework's extra calls (reflection, plan, strategy)
  included in both the run's usage and the day's count.

Each runs under one of two harnesses (`core.retail.paper.Harness`, stored in the run's config): `orca`, the
loop above (the opening message is resent whatever the history window drops), or `paper`, the original
runners' loop (text `<tool_call>` blocks, every call of a turn run in order, 50 turns a day, the status message
last in every request, five invalid turns close the day, per-day token files).

Prompts are ours, following the papers (`core/retail/prompts/*.md`; `paper_*.md` for the paper harness).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from core.errors import SpecError
from core.llm.runner import HistoryPolicy, LoopStop, Step
from core.llm.textcalls import TextCallFormat, parse_tool_call_batch
from core.llm.types import ChatModel, Message, ToolCall, ToolSpec, Usage
from core.llm_agent import AgentStopped, LLMToolAgent, TokenBudgetExhausted
from core.retail import paper
from core.retail.paper import INVALID_TURN_LIMIT, MAX_INPUT_TOKENS, NO_VALID_CALL, STATUS_TOOLS, Harness
from core.retail.tools import retail_toolbox
from solvers.retail.config import preset as resolve_preset
from solvers.retail.tools import ACTION_TOOLS, NEWS_TOOLS, READ_TOOLS, REVIEW_TOOLS

PROMPTS = Path(__file__).with_name("prompts")
FRAMEWORKS = ("react", "reflection", "plan_and_act", "evolving_strategy")
OBSERVATION_CHARS = 6_000
EXECUTE_FIELDS = (
    "focus_skus", "sku_supplier_mapping", "news_to_monitor", "skus_to_reorder", "price_adjustments",
    "sku_to_monitor", "other",
)  # fmt: skip
DAY_HISTORY = HistoryPolicy(keep_last_turns=24, keep_opening=True)
SIMILARITY_FIELDS = ("focus_skus", "sku_supplier_mapping", "news_to_monitor", "sku_to_monitor")


def prompt(name: str, **values: Any) -> str:
    """A prompt file of `core/retail/prompts`, formatted with `values`."""
    text = (PROMPTS / f"{name}.md").read_text(encoding="utf-8").strip()
    return text.format(**values) if values else text


def tool_names(preset_name: str) -> tuple[str, ...]:
    """The tools a preset offers (news and review tools only when enabled), in the environment's order."""
    cfg = resolve_preset(preset_name)
    names = [
        *READ_TOOLS,
        *(REVIEW_TOOLS if cfg.enable_review else ()),
        *(NEWS_TOOLS if cfg.enable_news else ()),
    ]
    return (*names, "execute_code", *ACTION_TOOLS)


def retail_env_tool_specs(preset_name: str) -> list[ToolSpec]:
    """The RetailBench tools as `ToolSpec`s without building an environment."""
    return retail_toolbox(SimpleNamespace(names=tool_names(preset_name), call=None)).specs


def render_tool_result(observation: Any) -> str:
    """A tool observation as the model sees it: the formatted text, then the JSON result (cut to 6,000 chars)."""
    if isinstance(observation, dict) and "result" in observation:
        body = json.dumps(observation["result"], default=str)
        if len(body) > OBSERVATION_CHARS:
            body = body[:OBSERVATION_CHARS] + f"... [{len(body) - OBSERVATION_CHARS} more characters cut]"
        return f"{observation.get('formatted', '')}\n{body}".strip()
    return observation if isinstance(observation, str) else json.dumps(observation, default=str)


def catalogue(products: Sequence[dict]) -> str:
    """The SKU list by category (id, shelf life, description)."""
    by_cat: dict[str, list[str]] = {}
    for p in products:
        by_cat.setdefault(p["category"], []).append(
            f"- {p['sku_id']} · {p['description']} · shelf life {p['shelf_life_days']} d · price {p['price']}"
        )
    return "\n".join(f"## {cat}\n" + "\n".join(rows) for cat, rows in by_cat.items())


@dataclass
class DayRecord:
    """What one simulated day cost and how it ended."""

    day: int
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    forced_end: str = ""  # "", "cap", "no_tool_call", "invalid_turns" (paper)
    memory: str = ""  # the reflection / plan / strategy the day started with (and Plan-and-Act's revisions)
    replans: int = 0  # Plan-and-Act: plans revised within the day
    turns: int = 0  # paper harness: model turns (requests that may carry several calls)
    runner_calls: int = 0  # paper harness: the status calls the runner itself makes
    excluded_tokens: Usage = Usage()  # paper harness: tokens the original leaves out of the day's file
    end_date: str | None = None  # the date `end_today` advanced to (the token file's current_date)


def _is_error(observation: Any) -> bool:
    result = observation.get("result") if isinstance(observation, dict) else None
    return isinstance(result, dict) and bool(result.get("error"))


@dataclass
class StrategyState:
    """Evolving Strategy & Execution: the macro strategy, the seven-field execution strategy, today's actions."""

    macro_strategy: list[str] = field(
        default_factory=lambda: ["Keep stock of the best products and price them well."]
    )
    execute_strategy: dict[str, list] = field(default_factory=lambda: {k: [] for k in EXECUTE_FIELDS})
    today_action: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"macro_strategy": list(self.macro_strategy), "execute_strategy": json.loads(json.dumps(self.execute_strategy)),
                "today_action": list(self.today_action)}  # fmt: skip


class RetailLLMAgent(LLMToolAgent):
    """ReAct: the base day loop (subclasses add reflection, planning or a strategy phase), under the `orca` or
    the `paper` harness. Under `paper`, `day_cap` counts model turns, not tool calls."""

    framework = "react"
    title = "ReAct Operations"

    def __init__(
        self,
        model: ChatModel,
        *,
        preset: str = "hard_v2",
        day_cap: int = 50,
        history: HistoryPolicy | None = DAY_HISTORY,
        token_limit: int | None = None,
        text_tools: bool | TextCallFormat = False,
        max_steps_per_act: int = 6,
        max_nudges: int = 2,
        on_step: Callable[[Step], None] | None = None,
        local_tools: Sequence[Callable[..., Any]] = (),
        extra_env_tools: Sequence[ToolSpec] = (),
        harness: Harness | str = Harness.ORCA,
        max_input_tokens: int = MAX_INPUT_TOKENS,
    ) -> None:
        self.harness = paper.harness_of(harness)
        if (
            isinstance(max_input_tokens, bool)
            or not isinstance(max_input_tokens, int)
            or max_input_tokens < 1
        ):
            raise SpecError("max_input_tokens", f"must be a positive whole number, got {max_input_tokens!r}")
        self.max_input_tokens = max_input_tokens
        if history is not None:
            history = replace(history, keep_opening=True)  # status, catalogue and memory are never dropped
        if day_cap < 2:
            raise SpecError(
                "day_cap", f"a day needs at least 2 tool calls (one action and end_today), got {day_cap}"
            )
        self.preset = preset
        self.day_cap = day_cap
        self.retail_tools = retail_env_tool_specs(preset)
        super().__init__(
            model,
            system="",
            env_tools=[*self.retail_tools, *extra_env_tools],
            local_tools=local_tools,
            history=history,
            token_limit=token_limit,
            text_tools=text_tools,
            max_steps_per_act=max_steps_per_act,
            max_nudges=max_nudges,
            on_step=on_step,
            name=f"{self.framework}:{model.name}",
        )

    # --- state ---

    def reset(self, seed: int | None) -> None:
        super().reset(seed)
        self.days: list[DayRecord] = []
        self.products: list[dict] = []
        self.env_notes: dict[str, str] = {}
        self.last_action: dict | None = None
        self.day_actions: list[dict] = []
        self.yesterday_actions: list[dict] = []
        self.last_result_text = ""
        self.day_status = ""
        self._day_start_usage = Usage()
        # the paper harness's day state
        self._p_history: list[Message] = []
        self._p_queue: list[ToolCall] = []
        self._p_runner: list[str] = []
        self._p_runner_call = False
        self._p_seen: dict[str, str] = {}
        self._p_message: str | None = None
        self._p_status = ""
        self._p_turn_open = self._p_turn_valid = False
        self._p_invalid = 0
        self._p_round_turns = 0
        self._p_last_prompt = 0
        self._p_env: dict[str, Any] = {}

    @property
    def tokens_per_day(self) -> list[int]:
        self._close_day_record()
        return [d.input_tokens + d.output_tokens for d in self.days]

    # --- hooks for the frameworks ---

    def _head(self, text: str) -> str:
        """A framework's orca heading; the paper harness has its own day message."""
        return "" if self.harness is Harness.PAPER else text

    def _goal(self) -> str:
        """The paper harness's goal paragraph (opening funds, date, rent) for reflection and plan prompts."""
        if self.harness is not Harness.PAPER or not self._p_env:
            return ""
        values = {k: self._p_env.get(k) for k in ("funds", "today", "rent")}
        return f"## Goal\n{prompt('paper_goal', **values)}\n\n"

    def begin_day(self, status: str) -> str:
        """Extra work before the day's first action; returns the framework part of the day message."""
        return self._head(prompt("react", day=len(self.days)))

    def _complete(self, system: str, text: str) -> str:
        """One tool-less model call (reflection, plan); its tokens count for the run and the day."""
        budget = self.budget
        if budget is not None and budget.exhausted:
            raise TokenBudgetExhausted(LoopStop.TOKEN_BUDGET, f"{self.name} used up its token budget")
        reply = self.model.complete(system, [Message("user", text)])
        self.usage = self.usage + reply.usage
        if self.harness is Harness.PAPER and self.framework == "reflection" and self.days:
            self.days[-1].excluded_tokens = self.days[-1].excluded_tokens + reply.usage  # as the original
        if budget is not None:
            budget.charge(reply.usage)
        self._record(Step(len(self.steps), "llm", {"text": reply.text, "tool_calls": [], "purpose": self.framework},
                          reply.usage.input_tokens, reply.usage.output_tokens, reply.latency_s))  # fmt: skip
        return reply.text.strip()

    # --- the day loop ---

    def _close_day_record(self) -> None:
        if self.days:
            spent = Usage(self.usage.input_tokens - self._day_start_usage.input_tokens,
                          self.usage.output_tokens - self._day_start_usage.output_tokens)  # fmt: skip
            self.days[-1].input_tokens, self.days[-1].output_tokens = spent.input_tokens, spent.output_tokens

    def _start_day(self, observation: Any) -> str:
        self._close_day_record()
        self._day_start_usage = self.usage
        if isinstance(observation, dict) and "products" in observation:
            self.products = list(observation["products"])
            self.system = prompt("system", rent=observation.get("rent"), shelf=observation.get("shelf_capacity"),
                                 day_cap=self.day_cap)  # fmt: skip
            status = (f"Today is {observation['current_date']}; funds {observation['funds']:.2f}; the run lasts "
                      f"{observation.get('max_days')} days.")  # fmt: skip
        else:
            status = render_tool_result(observation)
            self.last_result_text = status
        self.day_status = status
        self.yesterday_actions, self.day_actions = self.day_actions, []
        self.days.append(DayRecord(day=len(self.days) + 1))
        self.messages = []  # each day starts a fresh conversation; notes and memory carry over
        self._pending = None
        part = self.begin_day(status)
        self.days[-1].memory = part
        return self._compose(part, status)

    def _compose(self, part: str, status: str) -> str:
        """A fresh conversation's opening message: the framework part, status, notes, products, warnings."""
        notes = "\n".join(f"- [{k}] {v}" for k, v in self.env_notes.items()) or "(none)"
        return (f"{part}\n\n## Status\n{status}\n\n## Your notes\n{notes}\n\n## Products\n"
                f"{catalogue(self.products)}\n\n{prompt('warnings')}")  # fmt: skip

    def continue_day(self, observation: Any, message: str) -> str:
        """Hook after each tool result within a day: the next message for the model (Plan-and-Act may re-plan
        and open a fresh conversation here)."""
        return message

    def _remember(self, action: dict, observation: Any) -> None:
        """Mirror the store's notes (add_note/remove_note results) so they are pinned every day."""
        result = observation.get("result") if isinstance(observation, dict) else None
        if not isinstance(result, dict) or result.get("error"):
            return
        if action["name"] == "add_note" and result.get("id"):
            self.env_notes[str(result["id"])[:8]] = str(action["arguments"].get("content", ""))[:300]
        elif action["name"] == "remove_note":
            self.env_notes.pop(str(action["arguments"].get("note_id", ""))[:8], None)

    def _pinned_notes(self) -> None:
        self.notes = [f"note {k}: {v}" for k, v in self.env_notes.items()]

    def _end_today(self, reason: str) -> dict:
        self.days[-1].forced_end = reason
        self.last_note = f"end_today forced ({reason})"
        return self._emit({"name": "end_today", "arguments": {}})

    def _emit(self, action: dict) -> dict:
        self.days[-1].tool_calls += 1
        self.day_actions.append(action)
        self.last_action = action
        return action

    def act(self, observation: Any) -> dict[str, Any]:
        if self.harness is Harness.PAPER:
            return self._paper_act(observation)
        new_day = self.last_action is None or self.last_action["name"] == "end_today"
        if new_day and self.last_action is not None:
            result = observation.get("result") if isinstance(observation, dict) else None
            if isinstance(result, dict) and result.get("error"):  # end_today refused: still the same day
                new_day = False
        if not new_day and self.last_action is not None:
            self._remember(self.last_action, observation)
        if new_day:
            message: Any = self._start_day(observation)
        else:
            message = render_tool_result(observation)
            if self.days[-1].tool_calls >= self.day_cap:
                if self._pending is not None:
                    self._observe(message)
                return self._end_today("cap")
            message = self.continue_day(observation, message)
        self._pinned_notes()
        try:
            action = self._next_action(message)
        except TokenBudgetExhausted:
            raise
        except AgentStopped as err:
            if err.stop in (LoopStop.NO_TOOL_CALL, LoopStop.MAX_STEPS):
                self._pending = None
                return self._end_today("no_tool_call")
            raise
        return self._emit(action)

    def _next_action(self, message: Any) -> dict[str, Any]:
        return LLMToolAgent.act(self, message)

    # --- the paper harness (notes §7.1) ---

    def token_files(self) -> dict[str, dict]:
        """`day_<d>_token_usage.json` of every closed day (none for a day the run did not close, as the
        original writes none for the day it fails on); Reflection's reflection calls are left out, as there."""
        self._close_day_record()
        return {
            f"day_{d.day}_token_usage.json": paper.token_file(
                d.day, d.end_date, d.input_tokens - d.excluded_tokens.input_tokens,
                d.output_tokens - d.excluded_tokens.output_tokens,
            )
            for d in self.days
            if d.end_date is not None
        }  # fmt: skip

    def paper_status_tools(self) -> tuple[str, ...]:
        """The status calls the runner makes before the day's (or round's) message."""
        return STATUS_TOOLS

    def paper_tools(self) -> list[ToolSpec]:
        return [*self.env_tools, *(self.toolbox.specs if self.toolbox else [])]

    def paper_local_call(self, call: ToolCall) -> dict | None:
        """The result of a call the agent answers itself (Evolving Strategy's tools), or None for the env."""
        return None

    def paper_new_round(self) -> bool:
        """Before a turn: True when the framework reopened the conversation (Plan-and-Act's rounds)."""
        return False

    def paper_part(self) -> str:
        """The framework part of the day message (reflection memory, plan, strategy)."""
        return self.begin_day(self._p_status)

    def _paper_open_day(self, observation: Any) -> None:
        self._close_day_record()
        if isinstance(observation, dict) and "products" in observation:
            self.products = list(observation["products"])
            self._p_env = {"rent": observation.get("rent"), "shelf": observation.get("shelf_capacity"),
                           "funds": observation.get("funds"), "today": observation.get("current_date")}  # fmt: skip
            status = (f"Today is {observation['current_date']}; funds {observation['funds']:.2f}; the run lasts "
                      f"{observation.get('max_days')} days.")  # fmt: skip
        else:
            result = observation.get("result") if isinstance(observation, dict) else None
            result = result if isinstance(result, dict) else {}
            if self.days:
                self.days[-1].end_date = result.get("current_date")
            status = paper.end_today_report(result)
            self.last_result_text = status
        self._day_start_usage = self.usage
        self.day_status = self._p_status = status
        self.yesterday_actions, self.day_actions = self.day_actions, []
        self.days.append(DayRecord(day=len(self.days) + 1))
        self._p_history, self._p_queue, self._p_message = [], [], None
        self._p_turn_open = self._p_turn_valid = False
        self._p_invalid = self._p_round_turns = 0
        self._p_runner, self._p_seen = list(self.paper_status_tools()), {}

    def _paper_act(self, observation: Any) -> dict[str, Any]:
        last = self.last_action
        if last is None or (last["name"] == "end_today" and not _is_error(observation)):
            self._paper_open_day(observation)
        elif self._p_runner_call:
            self._p_runner_call = False
            formatted = observation.get("formatted") if isinstance(observation, dict) else None
            self._p_seen[last["name"]] = (formatted or render_tool_result(observation))[:3000]
        else:
            self._remember(last, observation)
            self._paper_answer(last, observation)
        return self._paper_next()

    def _paper_answer(self, action: dict, observation: Any) -> None:
        """A call's result as the next `<tool_response>` message; a result without an error makes the turn
        valid."""
        body = render_tool_result(observation)
        self._p_history.append(Message("user", f"<tool_response>\n{body}\n</tool_response>"))
        if not _is_error(observation):
            self._p_turn_valid = True
        self.paper_after_call(action, observation)

    def paper_after_call(self, action: dict, observation: Any) -> None:
        """Hook after each executed call of a turn."""

    def _paper_message(self, part: str) -> str:
        memory = f"{part}\n\n" if part else ""
        shelf = self._p_seen.get("view_shelf_status", "")
        if "view_inventory" in self._p_seen:
            shelf += "\n\n## Inventory\n" + self._p_seen["view_inventory"]
        funds = self._p_seen.get("view_funds_and_date", "")
        return prompt("paper_day", day=len(self.days), title=self.title, funds=funds, shelf=shelf, memory=memory,
                      catalogue=paper.catalogue(self.products)[:8000])  # fmt: skip

    def _paper_next(self) -> dict[str, Any]:
        while True:
            if self._p_runner:
                self.last_action = {"name": self._p_runner.pop(0), "arguments": {}}
                self._p_runner_call = True
                self.days[-1].runner_calls += 1
                return dict(self.last_action)
            if self._p_message is None:
                part = self.paper_part()
                self.days[-1].memory += part
                self._p_message = self._paper_message(part)
            if self._p_queue:
                call = self._p_queue.pop(0)
                local = self.paper_local_call(call)
                if local is None:
                    return self._emit({"name": call.name, "arguments": dict(call.arguments)})
                action = {"name": call.name, "arguments": call.arguments}
                self._record(Step(len(self.steps), "tool", {**action, "result": local}))
                self._paper_answer(action, {"result": local, "formatted": ""})
                continue
            if self._p_turn_open:
                self._p_turn_open = False
                self._p_invalid = 0 if self._p_turn_valid else self._p_invalid + 1
            if self._p_invalid >= INVALID_TURN_LIMIT:
                return self._end_today("invalid_turns")
            if self.days[-1].turns >= self.day_cap:
                return self._end_today("cap")
            if self.paper_new_round():
                continue
            self._paper_turn()

    def _paper_system(self, tools: Sequence[ToolSpec]) -> str:
        shelf = self._p_env.get("shelf") or "a limited number of"
        head = prompt("paper_system", rent=self._p_env.get("rent"), shelf=shelf)
        return f"{head}\n\n{paper.tools_block(tools)}"

    def _paper_turn(self) -> None:
        """One model turn: trim the history if the last request was over `max_input_tokens`, send system + the
        day's history + the status message, and queue every call the reply writes."""
        day = self.days[-1]
        day.turns += 1
        self._p_round_turns += 1
        trimmed = 0
        if self._p_last_prompt > self.max_input_tokens:
            starts = [i for i, m in enumerate(self._p_history) if m.role == "assistant"]
            if len(starts) >= 2:
                trimmed = starts[2] if len(starts) >= 3 else starts[1]
                self._p_history = self._p_history[trimmed:]
        opener = [
            Message("user", f"(Day {day.day}: your turns so far today follow; today's status comes last.)")
        ]
        assert self._p_message is not None
        sent = [*(opener if self._p_history else []), *self._p_history, Message("user", self._p_message)]
        if self.budget is not None and self.budget.exhausted:
            raise TokenBudgetExhausted(LoopStop.TOKEN_BUDGET, f"{self.name} used up its token budget "
                                       f"({self.budget.spent} of {self.token_limit} tokens); the run ends here.")  # fmt: skip
        tools = self.paper_tools()
        reply = self.model.complete(self._paper_system(tools), sent, [])
        self.usage = self.usage + reply.usage
        if self.budget is not None:
            self.budget.charge(reply.usage)
        self._p_last_prompt = reply.usage.input_tokens
        batch = parse_tool_call_batch(reply.text, tools)
        request = {"harness": "paper", "messages": len(sent), "turn": day.turns, "trimmed_messages": trimmed,
                   "last_message": sent[-1].content[:500], "last_role": "user"}  # fmt: skip
        self._record(Step(len(self.steps), "llm", {"model": self.model.name, "request": request, "text": reply.text,
                                                   "stop_reason": reply.stop_reason,
                                                   "tool_calls": [c.to_dict() for c in batch.calls],
                                                   "parse_method": batch.method, "parse_errors": list(batch.errors)},
                          reply.usage.input_tokens, reply.usage.output_tokens, reply.latency_s))  # fmt: skip
        self.last_note = reply.text[:500]
        self._p_history.append(Message("assistant", reply.text))
        problems = "".join(f"\n- {e}" for e in batch.errors)
        if not batch.calls:
            self._p_history.append(
                Message("user", NO_VALID_CALL + (f"\nProblems:{problems}" if problems else ""))
            )
            self._p_invalid += 1
            return
        if problems:
            self._p_history.append(Message("user", f"<tool_response>\nNot run:{problems}\n</tool_response>"))
        self._p_queue = list(batch.calls)
        self._p_turn_open, self._p_turn_valid = True, False


class ReflectionAgent(RetailLLMAgent):
    """Reflection: after each day one tool-less call writes a fresh reflection, shown the next day."""

    framework = "reflection"
    title = "Reflection Operations"

    def reset(self, seed: int | None) -> None:
        super().reset(seed)
        self.reflection = ""
        self.transcript: list[str] = []

    def _record(self, step: Step) -> None:
        super()._record(step)
        if step.kind == "llm" and step.payload.get("purpose") is None:
            self.transcript.append(str(step.payload.get("text", ""))[:1000])

    def begin_day(self, status: str) -> str:
        if len(self.days) > 1:
            actions = "\n".join(
                f"- {a['name']}({json.dumps(a['arguments'])[:300]})" for a in self.yesterday_actions
            )
            text = (f"{self._goal()}## Yesterday's result\n{status[:2000]}\n\n## What you did\n{actions[:3000]}\n\n"
                    f"## Your reasoning\n{chr(10).join(self.transcript)[:4000]}\n\n"
                    f"## Previous reflection\n{self.reflection or '(none)'}")  # fmt: skip
            self.reflection = (
                self._complete(prompt("reflection"), text) or f"Day {len(self.days) - 1}: {status[:200]}"
            )
        self.transcript = []
        head = self._head(prompt("react", day=len(self.days)))
        memory = f"## Long-term reflection memory\n{self.reflection}" if self.reflection else ""
        return "\n\n".join(p for p in (head, memory) if p)


class PlanAndActAgent(RetailLLMAgent):
    """Plan-and-Act: a tool-less planning call at the start of each day; the day then follows the plan in
    rounds. The planner revises the plan within the day (a new round, with a fresh conversation) when
    execution fails — `fail_limit` tool calls in a row return an error — or when a round has used `round_cap`
    tool calls without ending the day (the original's round budget); at most `max_rounds` rounds a day, within
    the day's `day_cap`."""

    framework = "plan_and_act"
    title = "Plan-and-Act Operations"

    def __init__(self, model: ChatModel, *, round_cap: int = 20, fail_limit: int = 2, max_rounds: int = 4,
                 **options: Any) -> None:  # fmt: skip
        for name, value, low in (
            ("round_cap", round_cap, 1),
            ("fail_limit", fail_limit, 1),
            ("max_rounds", max_rounds, 1),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise SpecError(name, f"must be a whole number of at least {low}, got {value!r}")
        self.round_cap, self.fail_limit, self.max_rounds = round_cap, fail_limit, max_rounds
        super().__init__(model, **options)

    def reset(self, seed: int | None) -> None:
        super().reset(seed)
        self.plan = ""
        self._new_round()
        self.round = 1
        self._p_replan = False

    def _new_round(self) -> None:
        self.round_calls, self.failures_in_row = 0, 0
        self.round_log: list[str] = []

    def _emit(self, action: dict) -> dict:
        self.round_calls += 1
        return super()._emit(action)

    def begin_day(self, status: str) -> str:
        self._new_round()
        self.round = 1
        actions = "\n".join(
            f"- {a['name']}({json.dumps(a['arguments'])[:200]})" for a in self.yesterday_actions
        )
        text = (f"{self._goal()}## Status\n{status[:3000]}\n\n## Yesterday's actions\n{actions[:2000] or '(none)'}\n\n"
                f"## Products\n{catalogue(self.products)[:8000]}\n\nProduce a short plan (3-7 steps).")  # fmt: skip
        self.plan = (
            self._complete(prompt("plan"), text)
            or "1. Check stock and prices. 2. Reorder what runs low. 3. end_today."
        )
        if self.harness is Harness.PAPER:
            return f"## Plan\n{self.plan}\n\nFollow the plan."
        return f"# Day {len(self.days)} — follow the plan\n\n## Plan\n{self.plan}"

    # the paper harness: rounds of `round_cap` turns, each re-reading the status and re-planning

    def paper_status_tools(self) -> tuple[str, ...]:
        return (*STATUS_TOOLS, "view_inventory")

    def _paper_status(self) -> str:
        return "\n\n".join(self._p_seen.get(t, "") for t in self.paper_status_tools())

    def paper_part(self) -> str:
        if not self._p_replan:
            return self.begin_day(f"{self._paper_status()}\n\n## Yesterday's result\n{self._p_status[:2000]}")
        self._p_replan = False
        text = (f"## Current plan\n{self.plan}\n\n## Why you are re-planning\nthe round's {self.round_cap} turns "
                f"are used up and the day is not over\n\n## What this round did\n"
                f"{chr(10).join(self.round_log)[-3000:]}\n\n## Status\n{self._paper_status()[:3000]}\n\n"
                "Revise the plan for the rest of today (3-7 steps) and end the day with end_today when done.")  # fmt: skip
        self._revise_plan(text)
        self._new_round()
        return f"\n\n## Revised plan (round {self.round})\n{self.plan}\n\nFollow the plan."

    def paper_new_round(self) -> bool:
        if self._p_round_turns < self.round_cap or self.days[-1].turns >= self.day_cap:
            return False
        self._p_replan, self._p_round_turns = True, 0
        self._p_runner, self._p_seen = list(self.paper_status_tools()), {}
        self._p_message, self._p_history = None, []
        return True

    def paper_after_call(self, action: dict, observation: Any) -> None:
        self._log_call(action, observation)

    def _log_call(self, action: dict, observation: Any) -> Any:
        """Add one call's line to the round's log; the tool's error (None when it succeeded)."""
        result = observation.get("result") if isinstance(observation, dict) else None
        error = result.get("error") if isinstance(result, dict) else None
        self.round_log.append(f"- {action['name']}({json.dumps(action['arguments'])[:200]}) -> "
                              + (f"ERROR: {str(error)[:200]}" if error else "ok"))  # fmt: skip
        return error

    def _revise_plan(self, text: str) -> None:
        """One tool-less planning call on `text` (the plan is kept when it answers nothing); a new round."""
        self.plan = self._complete(prompt("plan"), text) or self.plan
        self.round += 1
        self.days[-1].replans += 1

    def continue_day(self, observation: Any, message: str) -> str:
        error = self._log_call(self.last_action or {"name": "?", "arguments": {}}, observation)
        self.failures_in_row = self.failures_in_row + 1 if error else 0
        failed = self.failures_in_row >= self.fail_limit
        spent = self.round_calls >= self.round_cap
        room = self.round < self.max_rounds and self.days[-1].tool_calls < self.day_cap - 1
        if not (failed or spent) or not room:
            return message
        return self._replan(message, "execution failed" if failed else "the round's budget is used up")

    def _replan(self, latest: str, why: str) -> str:
        """Revise the plan (one tool-less call) and open the next round with a fresh conversation."""
        text = (f"## Current plan\n{self.plan}\n\n## Why you are re-planning\n{why}\n\n"
                f"## What this round did\n{chr(10).join(self.round_log)[-3000:]}\n\n## Latest result\n"
                f"{latest[:2000]}\n\nRevise the plan for the rest of today (3-7 steps): keep what worked, fix "
                "what failed, and end the day with end_today when done.")  # fmt: skip
        self._revise_plan(text)
        self.days[-1].memory += f"\n\n## Revised plan (round {self.round}: {why})\n{self.plan}"
        self._new_round()
        self.messages = []
        self._pending = None
        part = f"# Day {len(self.days)}, round {self.round} — follow the revised plan\n\n## Plan\n{self.plan}"
        return self._compose(part, latest)


END_STRATEGY = ToolSpec(
    "end_strategy_phase",
    "Finish the strategy phase: the strategy is fixed for today and the execution phase begins.",
    {"type": "object", "properties": {}},
)
STRATEGY_PHASE_BLOCKED = ("place_order", "modify_sku_price", "set_shelf_skus", "end_today")


class EvolvingStrategyAgent(RetailLLMAgent):
    """Evolving Strategy & Execution (seed 001): each day a strategy phase (read-only tools and the strategy
    tools) writes the macro and execution strategies, then an execution phase carries them out with the
    strategy fixed. `strategy_log` keeps each day's strategy for the instability analysis."""

    framework = "evolving_strategy"
    title = "Strategy and Execution"

    def __init__(self, model: ChatModel, *, strategy_turns: int = 10, **options: Any) -> None:
        if isinstance(strategy_turns, bool) or not isinstance(strategy_turns, int) or strategy_turns < 1:
            raise SpecError("strategy_turns", f"must be a whole number of at least 1, got {strategy_turns!r}")
        self.strategy_turns = strategy_turns  # paper harness: turns before the execution phase begins anyway
        state_tools = [self.set_macro_strategy, self.set_execute_strategy, self.set_action]
        super().__init__(model, local_tools=state_tools, extra_env_tools=[END_STRATEGY], **options)

    def reset(self, seed: int | None) -> None:
        super().reset(seed)
        self.state = StrategyState()
        self.phase = "strategy"
        self.strategy_log: list[dict] = []

    # strategy tools (local: they run inside the loop and change only the agent's state)

    def _guard(self) -> dict | None:
        if self.phase != "strategy":
            return {"error": "the strategy is fixed during the execution phase; carry it out"}
        return None

    def set_macro_strategy(self, macro_strategy: list[str]) -> dict:
        """Set the macro strategy: a few lasting principles.

        Args:
            macro_strategy: the principles, one sentence each
        """
        if (blocked := self._guard()) is not None:
            return blocked
        if not all(isinstance(s, str) and s.strip() for s in macro_strategy):
            return {"error": "macro_strategy must be a list of non-empty strings"}
        self.state.macro_strategy = [s.strip() for s in macro_strategy]
        return self.state.as_dict()

    def set_execute_strategy(self, execute_strategy: dict) -> dict:
        """Set the execution strategy (seven list fields; a missing field keeps its value).

        Args:
            execute_strategy: {focus_skus, sku_supplier_mapping, news_to_monitor, skus_to_reorder,
                price_adjustments, sku_to_monitor, other}, each a list
        """
        if (blocked := self._guard()) is not None:
            return blocked
        unknown = set(execute_strategy) - set(EXECUTE_FIELDS)
        if unknown:
            return {"error": f"unknown fields {sorted(unknown)}; the fields are {list(EXECUTE_FIELDS)}"}
        for key, value in execute_strategy.items():
            if not isinstance(value, list):
                return {"error": f"{key} must be a list"}
        self.state.execute_strategy.update({k: list(v) for k, v in execute_strategy.items()})
        return self.state.as_dict()

    def set_action(self, action: list[dict]) -> dict:
        """Set today's intended actions.

        Args:
            action: [{"tool": "place_order" or "modify_sku_price", "arguments": {...}}]
        """
        if (blocked := self._guard()) is not None:
            return blocked
        for i, a in enumerate(action):
            if not isinstance(a, dict) or a.get("tool") not in ("place_order", "modify_sku_price"):
                return {"error": f"action[{i}] needs tool place_order or modify_sku_price"}
        self.state.today_action = list(action)
        return self.state.as_dict()

    # phases

    def begin_day(self, status: str) -> str:
        self.phase = "strategy"
        self.env_tools = [t for t in self.retail_tools if t.name not in STRATEGY_PHASE_BLOCKED] + [
            END_STRATEGY
        ]
        current = json.dumps(self.state.as_dict(), indent=1)
        return f"{prompt('strategy', day=len(self.days))}\n\n## Current strategy\n{current}"

    def _enter_execution_part(self) -> str:
        """Fix the strategy (logged) and return the execution phase's part of the message."""
        self.phase = "execution"
        self.env_tools = list(self.retail_tools)
        snapshot = {"day": len(self.days), **self.state.as_dict()}
        self.strategy_log.append(snapshot)
        return f"{prompt('execution', day=len(self.days))}\n\n## Strategy\n{json.dumps(self.state.as_dict(), indent=1)}"

    def _enter_execution(self) -> str:
        """The execution phase opens a fresh conversation with the status, notes, catalogue and strategy."""
        self.messages, self._pending = [], None
        return self._compose(self._enter_execution_part(), self.day_status)

    # the paper harness: the strategy tools run inside a turn; the day message turns into the execution one

    def paper_tools(self) -> list[ToolSpec]:
        """Every tool, whatever the phase: a turn may end the strategy phase and then act (the calls are checked
        against the phase when they run)."""
        return [*self.retail_tools, END_STRATEGY, *(self.toolbox.specs if self.toolbox else [])]

    def paper_local_call(self, call: ToolCall) -> dict | None:
        if self.phase == "strategy" and call.name in STRATEGY_PHASE_BLOCKED:
            return {"error": f"{call.name} is not available in the strategy phase; finish with end_strategy_phase "
                             "first"}  # fmt: skip
        if call.name == "end_strategy_phase":
            if self.phase != "strategy":
                return {"error": "the execution phase has begun already"}
            self._p_message = self._paper_message(self._enter_execution_part())
            return {"phase": "execution", "strategy": self.state.as_dict()}
        if self.toolbox is not None and call.name in self.toolbox.names:
            return self.toolbox.call(call.name, call.arguments)
        return None

    def paper_new_round(self) -> bool:
        if self.phase == "strategy" and self.days[-1].turns >= self.strategy_turns:
            self._p_message = self._paper_message(self._enter_execution_part())
        return False

    def _next_action(self, message: Any) -> dict[str, Any]:
        action = LLMToolAgent.act(self, message)
        turns = 0
        while action["name"] == "end_strategy_phase" or (
            self.phase == "strategy" and action["name"] in STRATEGY_PHASE_BLOCKED
        ):
            turns += 1
            if action["name"] == "end_strategy_phase" or turns > 2:
                action = LLMToolAgent.act(self, self._enter_execution())
            else:
                action = LLMToolAgent.act(self, {"error": f"{action['name']} is not available in the strategy "
                                                           "phase; finish with end_strategy_phase first"})  # fmt: skip
        return action

    def act(self, observation: Any) -> dict[str, Any]:
        action = super().act(observation)
        if (
            action["name"] == "end_today" and self.phase == "strategy"
        ):  # the day closed before execution began
            self.strategy_log.append({"day": len(self.days), **self.state.as_dict()})
        return action


AGENT_CLASSES: dict[str, type[RetailLLMAgent]] = {
    "react": RetailLLMAgent,
    "reflection": ReflectionAgent,
    "plan_and_act": PlanAndActAgent,
    "evolving_strategy": EvolvingStrategyAgent,
}


def make_framework_agent(framework: str, model: ChatModel, **options: Any) -> RetailLLMAgent:
    """One of the four frameworks over `model`."""
    if framework not in AGENT_CLASSES:
        raise SpecError("framework", f"choose one of {', '.join(FRAMEWORKS)}; got {framework!r}")
    return AGENT_CLASSES[framework](model, **options)
