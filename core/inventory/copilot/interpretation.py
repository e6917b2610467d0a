"""The Policy Interpretation Agent (seed 000 §2.4, Tables 9–10, Figure 4).

`InterpretationAgent(model, brief)`: Scenario A (a simple rule or the exact DP wins: explain it in plain
words) or Scenario B (the DQN wins: an on-demand expert answering order queries through the typed
`calculate_dqn_order` tool, offering the simpler (s,S) and its cost difference when the user is confused or
skeptical). Every answer ends with "Do you have any other questions?"; when the user is done the dialogue is
archived as `interpret.txt`. Offline, `offline_policy(brief)` drives `core.llm.OfflineModel` through the
same tool loop (`core.llm.run_tools`) as an LLM.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.inventory.copilot.critic import dollars
from core.inventory.copilot.order_query import (
    OrderQuery,
    check_day_numbering,
    day_of_step,
    days_in,
    make_order_tool,
    parse_order_query,
)
from core.inventory.copilot.policy_answers import answer_question
from core.inventory.copilot.policy_brief import PolicyBrief, display_name
from core.inventory.copilot.policy_explanation import (
    CLOSING_QUESTION,
    critic_words,
    opening_text,
    rule_sentence,
    system_prompt,
    with_closing,
)
from core.llm import (
    ChatModel,
    Message,
    OfflineTurn,
    Step,
    Toolbox,
    ToolSpec,
    last_user_text,
    run_tools,
    trailing_tool_results,
)
from core.runlog import POLICY_OPENING
from core.text.mentions import parse

INTERPRET, DONE = "INTERPRET", "DONE"
OPENING_REQUEST = POLICY_OPENING
FAREWELL = (
    "Glad I could help. I have archived this conversation as interpret.txt together with the parameter "
    "table and the deployment artifacts. Good luck with your stock!"
)
FINISHED = (
    "This conversation is finished and saved. You can still ask me about this policy, for example 'how much "
    "should I order with 4 on hand, day 3, no incoming orders?'. To plan another item or change the "
    "parameters, start a new conversation: the Restart button on the page, or `inventory chat` without "
    "--resume."
)


# --- the offline policy ---

_DONE_PHRASES = {
    "no", "nope", "nah", "no thanks", "no thank you", "no thanks you", "thanks", "thank you", "thanks a lot",
    "thank you very much", "many thanks", "thats all", "that is all", "thats it", "that is it", "im done",
    "i am done", "we are done", "were done", "done", "all good", "nothing else", "nothing more",
    "no more questions", "no other questions", "no further questions", "no questions", "bye", "goodbye",
    "ok", "okay", "great", "perfect", "got it", "understood", "im good", "all clear", "cheers",
    "that will be all", "thats everything", "i understand", "makes sense", "that makes sense", "sounds good",
    "i will use it", "ill use it", "i will adopt it", "ill adopt it",
}  # fmt: skip


def is_done(text: str) -> bool:
    """Does the message only say "no thanks" / "that's all" and the like?"""
    message = parse(text)
    pieces = [[w.replace("'", "") for w in message.words(c.index)] for c in message.clauses]
    pieces = [p for p in pieces if p]
    return bool(pieces) and all(_only_done_phrases(p) for p in pieces)


def _only_done_phrases(words: list[str]) -> bool:
    """Whether the words are one or more done phrases in a row ('ok thanks thats all')."""
    if not words:
        return True
    return any(
        " ".join(words[:n]) in _DONE_PHRASES and _only_done_phrases(words[n:])
        for n in range(len(words), 0, -1)
    )


def offline_policy(
    brief: PolicyBrief, day_numbering: str = "from_one"
) -> Callable[[str, Sequence[Message], Sequence[ToolSpec]], OfflineTurn]:
    """The deterministic interpretation agent: same tool protocol as an LLM (asks for tool calls, reads results).
    The user's "day d" is read per `day_numbering` (`order_query.DAY_NUMBERINGS`)."""
    p = brief.problem
    check_day_numbering(day_numbering)

    pending: list[OrderQuery] = []
    stock: list[OrderQuery] = []

    def policy(system: str, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> OfflineTurn:
        names = {t.name for t in tools}
        results = trailing_tool_results(messages)
        text = last_user_text(messages)
        if results:
            query = pending.pop() if pending else parse_order_query(text, p.lead_time, day_numbering)
            return OfflineTurn(_answer_tool(brief, results[-1], query))
        if text == OPENING_REQUEST:
            return OfflineTurn(opening_text(brief))
        query = parse_order_query(text, p.lead_time, day_numbering)
        earlier = pending.pop() if pending else None
        if earlier is not None:
            query = merge_followup(earlier, text, p.lead_time, day_numbering) if query is None else query
        if query is None and stock:  # the stock figure given a turn or more earlier
            query = merge_followup(stock[-1], text, p.lead_time, day_numbering)
            if query is None and asks_to_order(text):  # 'how much should I order?'
                query = stock[-1]
            if query is not None:
                said = f"the {stock[-1].current_inventory} on hand you told me"
                query = replace(query, notes=tuple(dict.fromkeys((*query.notes, said))))
        if query is not None:
            stock[:] = [replace(query, notes=())]
        tool = next(iter(names), None)
        if query is not None and tool is not None:
            if query.current_time_step is None and (brief.scenario == "B" or _time_dependent(brief)):
                query = replace(
                    query,
                    current_time_step=0,
                    notes=(
                        *query.notes,
                        f"I took today as day {day_of_step(0, day_numbering)} of your {p.time_horizon}-day plan; tell me "
                        "if you are further along, for example 'we are 20 days in'",
                    ),
                )
            if query.pipeline_orders is None:
                pending.append(query)
                days = "a day" if p.lead_time == 1 else f"{p.lead_time} days"
                return OfflineTurn(
                    with_closing(
                        f"You have {query.current_inventory} on hand. Deliveries take {days}: is anything already "
                        "on order? Say for example '24 arriving tomorrow' or 'nothing on order'."
                    )
                )
            pending.append(query)
            args = {
                "current_inventory": query.current_inventory,
                "current_time_step": query.current_time_step or 0,
                "pipeline_orders": query.pipeline_orders,
            }
            return OfflineTurn("", [(tool, args)])
        return OfflineTurn(with_closing(answer_question(brief, text)))

    return policy


def asks_to_order(text: str) -> bool:
    """An order question without a stock figure ('how much should I order?'), from the one parse: answered with
    the stock given earlier in the conversation."""
    words = set(parse(text).words())
    asks = ("how" in words and words & {"much", "many"}) or "what" in words or "should" in words
    return bool(asks and words & {"order", "buy", "restock"})


def merge_followup(
    earlier: OrderQuery, text: str, lead_time: int, day_numbering: str = "from_one"
) -> OrderQuery | None:
    """A reply that completes an order question asked before ('it's day 1', 'nothing on order', '24 arriving
    tomorrow'): the earlier stock with the new day or deliveries; None when the reply adds neither."""
    filled = parse_order_query(text, lead_time, day_numbering, inventory=earlier.current_inventory)
    if filled is None:
        return None
    day = days_in(text, day_numbering)
    step = earlier.current_time_step if day is None else day
    pipeline = filled.pipeline_orders if filled.pipeline_orders is not None else earlier.pipeline_orders
    if step == earlier.current_time_step and pipeline == earlier.pipeline_orders:
        return None
    kept = tuple(n for n in earlier.notes if not (day is not None and n.startswith("I took today as day")))
    return OrderQuery(earlier.current_inventory, step, pipeline, kept + filled.notes)


def _time_dependent(brief: PolicyBrief) -> bool:
    return bool(brief.rule.get("cutoff")) or brief.rule["kind"] in ("table", "dqn")


def _answer_tool(brief: PolicyBrief, result: Message, query: OrderQuery | None) -> str:
    try:
        data = json.loads(result.content)
    except ValueError:
        data = {"error": result.content}
    if "error" in data:
        return with_closing(f"I could not compute that order: {data['error']}. Could you check the numbers?")
    order = data.get("recommended_order")
    notes = f" (Reading your message: {'; '.join(query.notes)}.)" if query and query.notes else ""
    if brief.scenario == "B":
        body = (
            f"Based on the provided information and the DQN policy, I recommend placing an order for {order} "
            f"units.{notes} This decision balances holding, shortage and ordering costs over the rest of the plan "
            f"(the network values this state at {dollars(-float(data.get('q_value', 0.0)))} of expected cost to go)."
        )
    else:
        ip = data.get("inventory_position")
        body = (
            f"With the {display_name(brief)}, order {order} units now.{notes} Your inventory position "
            f"(on hand plus on order) is {ip}. {rule_sentence(brief)}"
        )
    return with_closing(body)


# --- the agent ---


@dataclass(frozen=True)
class InterpretationTurn:
    """One agent answer: text, INTERPRET or DONE, the tool calls it ran and the new loop messages."""

    assistant: str
    action: str
    tool_calls: tuple[dict[str, Any], ...] = ()
    messages: tuple[Message, ...] = ()


class InterpretationAgent:
    """Q&A about the recommended policy through `run_tools`; `transcript()` is `interpret.txt`."""

    def __init__(
        self,
        model: ChatModel,
        brief: PolicyBrief,
        on_step: Callable[[Step], None] | None = None,
        max_steps: int = 6,
        day_numbering: str = "from_one",
    ) -> None:
        self.model = model
        self.brief = brief
        self.system = system_prompt(brief)
        self.toolbox = Toolbox([make_order_tool(brief, day_numbering)])
        self.on_step = on_step
        self.max_steps = max_steps
        self.history: list[Message] = []
        self.log: list[tuple[str, str]] = []
        self.done = False
        self.last_tool_calls: tuple[dict[str, Any], ...] = ()
        """The tool calls (name, arguments, result) of the latest answer, for callers that check them."""

    def opening(self) -> InterpretationTurn:
        """Present the recommended policy (critic findings and assumptions included)."""
        turn = self._run(OPENING_REQUEST, show_user=False)
        text = turn.assistant
        if "assum" not in text.lower():
            text = with_closing(
                text.removesuffix(CLOSING_QUESTION).rstrip() + "\n\n" + critic_words(self.brief)
            )
            self.log[-1] = ("assistant", text)
            self.history[-1] = Message("assistant", text)
        return InterpretationTurn(text, INTERPRET, turn.tool_calls, turn.messages)

    def respond(self, text: str) -> InterpretationTurn:
        """Answer one user message; "no thanks" / "that's all" ends the dialogue (DONE), and a later message
        reopens it (every message gets an answer)."""
        self.done = False  # a message after the farewell reopens the dialogue about the same policy
        if is_done(text):
            self.log += [("user", text), ("assistant", FAREWELL)]
            self.history += [Message("user", text), Message("assistant", FAREWELL)]
            self.done = True
            return InterpretationTurn(
                FAREWELL, DONE, (), (Message("user", text), Message("assistant", FAREWELL))
            )
        return self._run(text, show_user=True)

    def finished(self, text: str) -> InterpretationTurn:
        """Answer a message after the farewell that asks nothing about the policy: the conversation is
        finished, how to go on (DONE again; the dialogue stays closed)."""
        self.log += [("user", text), ("assistant", FINISHED)]
        self.history += [Message("user", text), Message("assistant", FINISHED)]
        self.done = True
        return InterpretationTurn(FINISHED, DONE, (), (Message("user", text), Message("assistant", FINISHED)))

    def _run(self, text: str, show_user: bool) -> InterpretationTurn:
        user = Message("user", text)
        loop = run_tools(
            self.model, self.system, [*self.history, user], self.toolbox, self.max_steps, self.on_step
        )
        answer = with_closing(loop.text)
        self.history += [user, *loop.messages[:-1], Message("assistant", answer)]
        if show_user:
            self.log.append(("user", text))
        for call in loop.tool_calls:
            self.log.append(
                ("tool", f"[CALLING TOOL]: {call['name']}({call['arguments']}) -> {call['result']}")
            )
        self.log.append(("assistant", answer))
        self.last_tool_calls = tuple(loop.tool_calls)
        return InterpretationTurn(answer, INTERPRET, tuple(loop.tool_calls), (user, *loop.messages))

    def restore(self, turns: Sequence[tuple[str, str]]) -> None:
        """Continue a stored dialogue: (role, text) pairs of user and assistant messages after the opening."""
        for role, text in turns:
            if role in ("user", "assistant"):
                self.history.append(Message(role, text))  # type: ignore[arg-type]
                self.log.append((role, text))
                self.done = role == "assistant" and text in (FAREWELL, FINISHED)

    def transcript(self) -> str:
        """`interpret.txt`: the scenario, the system prompt's facts and the dialogue with its tool calls."""
        names = {"user": "User", "assistant": "Assistant", "tool": "Optimization Agent"}
        head = (
            f"Policy Interpretation Agent, Scenario {self.brief.scenario} "
            f"(recommended: {self.brief.recommended_policy})\n\n"
        )
        return head + "\n\n".join(f"{names[r]}: {t}" for r, t in self.log) + "\n"
