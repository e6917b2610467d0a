"""The tool loop with offline models: tool execution, error feedback, step cap and recording; the stop
condition, nudges, history window, token budget and text-format calls environment agents use."""

import json

import pytest

from core.errors import SpecError
from core.llm import (
    HistoryPolicy,
    LoopStop,
    Message,
    OfflineModel,
    OfflineTurn,
    Reply,
    TextCallFormat,
    TokenBudget,
    Toolbox,
    ToolCall,
    Usage,
    run_tools,
    tool_result_message,
    tool_spec,
    trailing_tool_results,
)


def multiply(x: int, y: int) -> dict:
    """Multiply two integers."""
    return {"product": x * y}


def scripted_policy(turns):
    """A policy that answers user messages with the scripted turns and summarises tool results."""
    pending = list(turns)

    def policy(system, messages, tools):
        results = trailing_tool_results(messages)
        if results and not pending:
            return OfflineTurn("results: " + "; ".join(m.content for m in results))
        return pending.pop(0) if pending else OfflineTurn("nothing to do")

    return policy


def test_loop_runs_tools_and_returns_final_text():
    model = OfflineModel(scripted_policy([OfflineTurn("", [("multiply", {"x": 6, "y": 7})])]))
    seen = []
    result = run_tools(
        model, "sys", [Message("user", "6 times 7?")], Toolbox([multiply]), on_step=seen.append
    )
    assert result.stopped == "done"
    assert json.loads(result.messages[1].content) == {"product": 42}
    assert result.text == 'results: {"product": 42}'
    assert [s.kind for s in result.steps] == ["llm", "tool", "llm"]
    assert result.steps[0].payload["request"] == {
        "messages": 1,
        "last_message": "6 times 7?",
        "last_role": "user",
        "tools": ["multiply"],
    }
    assert result.steps[2].payload["request"]["last_role"] == "tool"
    assert seen == result.steps
    assert result.tool_calls == [
        {"name": "multiply", "arguments": {"x": 6, "y": 7}, "result": {"product": 42}}
    ]


def test_bad_calls_become_error_results_for_the_model():
    model = OfflineModel(scripted_policy([OfflineTurn("", [("multiply", {"x": "6"}), ("divide", {})])]))
    result = run_tools(model, "sys", [Message("user", "go")], Toolbox([multiply]))
    errors = [json.loads(m.content)["error"] for m in result.messages if m.role == "tool"]
    assert "missing required argument 'y'" in errors[0] and "must be of type integer" in errors[0]
    assert "unknown tool 'divide'" in errors[1]
    assert result.stopped == "done"


def test_step_cap_stops_a_model_that_never_finishes():
    def always_call(system, messages, tools):
        return OfflineTurn("again", [("multiply", {"x": 1, "y": 1})])

    result = run_tools(
        OfflineModel(always_call), "sys", [Message("user", "loop")], Toolbox([multiply]), max_steps=3
    )
    assert result.stopped == "max_steps"
    assert sum(1 for s in result.steps if s.kind == "llm") == 3
    assert sum(1 for s in result.steps if s.kind == "tool") == 3
    assert result.text == "(stopped after 3 model calls without a final answer)"
    last = result.messages[-1]
    assert (last.role, last.content, last.tool_calls) == ("assistant", result.text, ())
    called = [c.id for m in result.messages for c in m.tool_calls]
    answered = [m.tool_call_id for m in result.messages if m.role == "tool"]
    assert called == answered and len(called) == 3


# --- what environment agents need: stop condition, nudges, history window, token budget, text-format calls


def step_env(action: str) -> dict:
    """Advance the environment (executed by the caller, never by the loop)."""
    return {}


ENV = [tool_spec(step_env)]


class Scripted:
    """A chat model answering with scripted replies (text, [(name, args)]) and keeping what it was sent."""

    name = "scripted"

    def __init__(self, replies, usage=None):
        self.replies = list(replies)
        self.usage = usage or Usage()
        self.sent = []
        self.calls = 0

    def complete(self, system, messages, tools=()):
        self.sent.append({"system": system, "messages": list(messages), "tools": [t.name for t in tools]})
        text, calls = self.replies.pop(0)
        tool_calls = []
        for name, args in calls:
            self.calls += 1
            tool_calls.append(ToolCall(f"c{self.calls}", name, args))
        return Reply(text, tuple(tool_calls), self.usage)


def assert_answered(messages, pending=None):
    """Every call in `messages` has exactly one result, except the pending one."""
    called = [c.id for m in messages for c in m.tool_calls if not pending or c.id != pending.id]
    answered = [m.tool_call_id for m in messages if m.role == "tool"]
    assert sorted(called) == sorted(answered)


def test_stopped_values_stay_strings():
    assert LoopStop.MAX_STEPS == "max_steps" and LoopStop("done") is LoopStop.DONE
    assert json.dumps({"stopped": LoopStop.TOKEN_BUDGET}) == '{"stopped": "token_budget"}'


def test_an_environment_call_is_returned_pending_and_local_calls_run():
    model = Scripted([("Moving.", [("multiply", {"x": 2, "y": 3}), ("step_env", {"action": "up"})])])
    result = run_tools(
        model, "s", [Message("user", "start")], Toolbox([multiply]), external_tools=ENV, require_tool=True
    )
    assert result.stopped is LoopStop.PENDING and result.text == "Moving."
    assert (result.pending.name, result.pending.arguments) == ("step_env", {"action": "up"})
    assert result.tool_calls == [
        {"name": "multiply", "arguments": {"x": 2, "y": 3}, "result": {"product": 6}}
    ]
    assert model.sent[0]["tools"] == ["multiply", "step_env"]
    assert_answered(result.messages, result.pending)
    assert result.messages[0].tool_calls[1].id == result.pending.id


def test_an_unknown_tool_is_an_error_listing_local_and_environment_tools():
    model = Scripted([("", [("teleport", {})]), ("", [("step_env", {"action": "up"})])])
    result = run_tools(model, "s", [Message("user", "go")], Toolbox([multiply]), external_tools=ENV)
    assert json.loads(result.messages[1].content) == {
        "error": "unknown tool 'teleport'; available tools: multiply, step_env"
    }
    assert result.stopped is LoopStop.PENDING


def test_a_second_environment_call_in_one_reply_is_refused_not_executed():
    model = Scripted([("", [("step_env", {"action": "a"}), ("step_env", {"action": "b"})])])
    result = run_tools(model, "s", [Message("user", "go")], stop_when=lambda c: c.name == "step_env")
    assert result.pending.arguments == {"action": "a"}
    refused = json.loads(result.messages[-1].content)["error"]
    assert "one environment action per reply" in refused and result.messages[-1].tool_call_id == "c2"


def test_a_broken_environment_call_is_answered_by_the_loop_not_returned():
    class Broken(Scripted):
        def complete(self, system, messages, tools=()):
            reply = super().complete(system, messages, tools)
            if len(self.sent) == 1:
                return Reply("", (ToolCall("b1", "step_env", {}, error="arguments are not valid JSON"),))
            return reply

    model = Broken([("", []), ("", [("step_env", {"action": "ok"})])])
    result = run_tools(model, "s", [Message("user", "go")], external_tools=ENV)
    assert "could not call step_env" in json.loads(result.messages[1].content)["error"]
    assert result.pending.arguments == {"action": "ok"}


def test_nudges_are_bounded_then_the_loop_stops():
    model = Scripted(
        [("I would move up.", []), ("Still thinking.", []), ("", [("step_env", {"action": "up"})])]
    )
    result = run_tools(
        model, "s", [Message("user", "go")], external_tools=ENV, require_tool=True, max_nudges=2
    )
    assert result.stopped is LoopStop.PENDING and result.nudges == 1 + 1
    nudges = [m.content for m in result.messages if m.role == "user"]
    assert len(nudges) == 2 and "did not call a tool" in nudges[0] and "step_env" in nudges[0]

    stubborn = Scripted([("no", []), ("no", []), ("never", [])])
    result = run_tools(
        stubborn, "s", [Message("user", "go")], external_tools=ENV, require_tool=True, max_nudges=2
    )
    assert result.stopped is LoopStop.NO_TOOL_CALL and result.nudges == 2 and result.pending is None
    assert result.text == "never" and result.messages[-1].role == "assistant"
    assert len(stubborn.sent) == 3


def test_without_require_tool_a_text_reply_is_the_answer():
    result = run_tools(Scripted([("all done", [])]), "s", [Message("user", "go")], external_tools=ENV)
    assert (result.stopped, result.text, result.nudges) == (LoopStop.DONE, "all done", 0)


def test_history_window_keeps_pinned_notes_and_the_last_turns_whole():
    conversation = [Message("user", "day 0")]
    for day in range(1, 7):
        call = ToolCall(f"a{day}", "step_env", {"action": "x"})
        conversation += [
            Message("assistant", f"day {day}", (call,)),
            Message("tool", f"obs {day}", tool_call_id=call.id),
        ]
    policy = HistoryPolicy(keep_last_turns=2, pinned=("target is 5",))
    sent, dropped_messages, dropped_turns = policy.window(conversation)
    assert (dropped_messages, dropped_turns) == (9, 4)
    assert (
        sent[0].role == "user"
        and "- target is 5" in sent[0].content
        and "9 earlier messages" in sent[0].content
    )
    assert [m.content for m in sent[1:]] == ["day 5", "obs 5", "day 6", "obs 6"]
    short, dropped, _ = HistoryPolicy(keep_last_turns=10).window(conversation)
    assert short == conversation and dropped == 0

    model = Scripted([("", [("step_env", {"action": "y"})])])
    result = run_tools(model, "s", conversation, external_tools=ENV, history=policy)
    request = result.steps[0].payload["request"]
    assert (request["messages"], request["dropped_messages"], request["dropped_turns"]) == (5, 9, 4)
    assert len(model.sent[0]["messages"]) == 5


def test_history_window_never_separates_a_call_from_its_results():
    calls = (ToolCall("p", "multiply", {"x": 1, "y": 1}), ToolCall("q", "multiply", {"x": 2, "y": 2}))
    conversation = [
        Message("user", "go"),
        Message("assistant", "", calls),
        Message("tool", "1", tool_call_id="p"),
        Message("tool", "4", tool_call_id="q"),
        Message("user", "a nudge"),
        Message("assistant", "", (ToolCall("r", "multiply", {"x": 3, "y": 3}),)),
        Message("tool", "9", tool_call_id="r"),
    ]
    for keep in (1, 2):
        sent, _, _ = HistoryPolicy(keep_last_turns=keep).window(conversation)
        assert_answered(sent)
        assert sent[1].role == "assistant"


def test_history_policy_is_validated():
    with pytest.raises(SpecError, match="history.keep_last_turns"):
        HistoryPolicy(keep_last_turns=0)
    with pytest.raises(SpecError, match="history.pinned"):
        HistoryPolicy(keep_last_turns=2, pinned="one string")
    with pytest.raises(SpecError, match="token_budget"):
        TokenBudget(0)


def test_token_budget_ends_the_loop_cleanly_and_is_shared_across_loops():
    budget = TokenBudget(100)
    model = Scripted([("", [("multiply", {"x": 1, "y": 1})])] * 5, usage=Usage(30, 10))
    result = run_tools(model, "s", [Message("user", "go")], Toolbox([multiply]), token_budget=budget)
    assert result.stopped is LoopStop.TOKEN_BUDGET and len(model.sent) == 3
    assert (budget.spent, budget.remaining, budget.exhausted) == (120, 0, True)
    assert result.messages[-1] == Message(
        "assistant", "(stopped: the run's token budget of 100 tokens is used up)"
    )
    assert_answered(result.messages)
    again = run_tools(model, "s", [Message("user", "more")], Toolbox([multiply]), token_budget=budget)
    assert again.stopped is LoopStop.TOKEN_BUDGET and again.steps == [] and len(model.sent) == 3


@pytest.mark.parametrize("fmt", [True, TextCallFormat.ACTION])
def test_text_format_calls_run_tools_and_answer_with_user_messages(fmt):
    model = Scripted(
        [
            ("<think>six times seven</think>Let me compute.\nAction: multiply(6, 7)", []),
            ('<tool_call>{"name": "step_env", "arguments": {"action": "up"}}</tool_call>', []),
        ]
    )
    result = run_tools(
        model, "Be useful.", [Message("user", "go")], Toolbox([multiply]), external_tools=ENV, text_tools=fmt
    )
    assert model.sent[0]["tools"] == []
    assert (
        model.sent[0]["system"].startswith("Be useful.\n\n## Tools")
        and "multiply(x: integer" in model.sent[0]["system"]
    )
    assert result.tool_calls == [
        {"name": "multiply", "arguments": {"x": 6, "y": 7}, "result": {"product": 42}}
    ]
    answer = result.messages[1]
    assert answer.role == "user" and '{"product": 42}' in answer.content
    assert answer.content.startswith("Observation:" if fmt is TextCallFormat.ACTION else "<tool_response>")
    assert all(not m.tool_calls for m in result.messages) and not any(
        m.role == "tool" for m in result.messages
    )
    assert result.stopped is LoopStop.PENDING and result.pending.arguments == {"action": "up"}
    assert result.steps[0].payload["request"]["text_tools"] == (
        "action" if fmt is TextCallFormat.ACTION else "tool_call"
    )
    assert result.steps[0].payload["tool_calls"][0]["name"] == "multiply"
    obs = tool_result_message(
        result.pending, {"pos": 1}, TextCallFormat(fmt if fmt is not True else "tool_call")
    )
    assert obs.role == "user" and '{"pos": 1}' in obs.content


def test_an_unreadable_text_call_is_an_error_result_and_costs_a_step():
    model = Scripted([("Action: multiply(6, ", []), ("Action: multiply(x=6, y=7)", []), ("42", [])])
    result = run_tools(model, "s", [Message("user", "go")], Toolbox([multiply]), text_tools=True, max_steps=3)
    assert [s.kind for s in result.steps] == ["llm", "tool", "llm", "tool", "llm"]
    error = json.loads(result.messages[1].content.split("\n")[1])["error"]
    assert error.startswith("your tool call could not be read") and "never closed" in error
    assert error.endswith('End your reply with <tool_call>{"name": NAME, "arguments": {...}}</tool_call>.')
    parse_error = result.steps[0].payload["parse_error"]
    assert error.startswith(parse_error) and result.steps[0].payload["tool_calls"] == []
    assert result.text == "42" and result.stopped is LoopStop.DONE

    endless = Scripted([("Action: multiply(", [])] * 2)
    capped = run_tools(
        endless, "s", [Message("user", "go")], Toolbox([multiply]), text_tools=True, max_steps=2
    )
    assert capped.stopped is LoopStop.MAX_STEPS and capped.tool_calls[0]["name"] == "(unreadable call)"
