"""The tool loop with the offline model: tool execution, error feedback, step cap and recording."""

import json

from core.llm import Message, OfflineModel, OfflineTurn, Toolbox, run_tools, trailing_tool_results


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
