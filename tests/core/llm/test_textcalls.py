"""Tool calls written as text: both formats, thinking blocks, last-match-wins, positional arguments named from
the schema, and a clear error (never a guessed call) for every reply whose call markup cannot be read."""

import pytest

from core.llm import tool_spec
from core.llm.textcalls import (
    TextCallFormat,
    parse_text_tool_calls,
    split_thinking,
    text_tool_instructions,
)


def add(n: int, note: str = "") -> dict:
    """Add n to the counter.

    Args:
        n: how much to add
        note: why
    """
    return {}


def order(item: str, quantity: int, weights: list[float] | None = None, urgent: bool = False) -> dict:
    """Order an item."""
    return {}


def finish() -> dict:
    """End the episode."""
    return {}


TOOLS = [tool_spec(add), tool_spec(order), tool_spec(finish)]

PARSED = [
    # --- <tool_call> JSON blocks
    ('<tool_call>{"name": "add", "arguments": {"n": 2}}</tool_call>', "add", {"n": 2}),
    ('<tool_call>\n{"name": "add", "arguments": {"n": 2}}\n</tool_call>', "add", {"n": 2}),
    ('I will add two.\n<tool_call>{"name": "add", "arguments": {"n": 2}}', "add", {"n": 2}),  # no closing tag
    ('<tool_call>{"name": "add", "parameters": {"n": 5}}</tool_call>', "add", {"n": 5}),  # Llama-style key
    (
        '<tool_call>{"name": "add", "arguments": "{\\"n\\": 4}"}</tool_call>',
        "add",
        {"n": 4},
    ),  # double-encoded
    ('<tool_call>{"name": "finish"}</tool_call>', "finish", {}),
    ('<TOOL_CALL>{"name": "finish", "arguments": null}</TOOL_CALL>', "finish", {}),
    ('<tool_call>```json\n{"name": "add", "arguments": {"n": 1}}\n```</tool_call>', "add", {"n": 1}),
    (
        '<tool_call>{"name": "order", "arguments": {"item": "Action: x", "quantity": 1}}</tool_call>',
        "order",
        {"item": "Action: x", "quantity": 1},
    ),
    # --- Action lines
    ("Action: add(3)", "add", {"n": 3}),
    ("Action: add(n=3)", "add", {"n": 3}),
    ('Action: add(3, "three, please")', "add", {"n": 3, "note": "three, please"}),
    ("Action: add(3, note='it''s')", "add", {"n": 3, "note": "its"}),
    ("Action: add(-2.5)", "add", {"n": -2.5}),
    ("action: add(7)", "add", {"n": 7}),
    ("**Action:** `add(4)`", "add", {"n": 4}),
    ("Action: finish()", "finish", {}),
    ("Action: finish", "finish", {}),
    ("Action: finish.", "finish", {}),
    (
        'Action: order("apple", 3, [1, 2.5], urgent=true)',
        "order",
        {"item": "apple", "quantity": 3, "weights": [1, 2.5], "urgent": True},
    ),
    ('Action: order(item="a(b)", quantity=2)', "order", {"item": "a(b)", "quantity": 2}),
    ("Action: order(apple, 2)", "order", {"item": "apple", "quantity": 2}),  # bare word -> string
    ("Action: order(\n  'pear',\n  quantity=1,\n)", "order", {"item": "pear", "quantity": 1}),
    ("Action: add(1, note=null)", "add", {"n": 1, "note": None}),
    ('Action: add(1, note={"a": [1, {"b": false}]})', "add", {"n": 1, "note": {"a": [1, {"b": False}]}}),
    # --- thinking, prose and last-match-wins
    ("<think>Maybe Action: add(9)</think>\nAction: add(1)", "add", {"n": 1}),
    ("<think>a</think><think>Action: add(8)</think>Action: add(2)", "add", {"n": 2}),
    ("reasoning without an opening tag</think>Action: add(6)", "add", {"n": 6}),
    ("Action: add(1)\nOn second thought:\nAction: add(2)", "add", {"n": 2}),
    ('Action: add(1)\n<tool_call>{"name": "finish"}</tool_call>', "finish", {}),
    ('<tool_call>{"name": "finish"}</tool_call>\nAction: add(5)', "add", {"n": 5}),
    ("Thought: the counter is low.\nAction: add(10)\n", "add", {"n": 10}),
]


@pytest.mark.parametrize(("text", "name", "arguments"), PARSED)
def test_calls_are_read(text, name, arguments):
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.error is None
    assert [(c.name, c.arguments) for c in parsed.calls] == [(name, arguments)]


ERRORS = [
    ('<tool_call>{"name": "add", "arguments": {"n": 2}</tool_call>', "not valid JSON"),
    ("<tool_call></tool_call>", "empty"),
    ('<tool_call>["add", 2]</tool_call>', "one JSON object"),
    ('<tool_call>{"arguments": {"n": 2}}</tool_call>', '"name" string'),
    ('<tool_call>{"name": "add", "arguments": [2]}</tool_call>', "must be a JSON object"),
    ('<tool_call>{"name": "add", "arguments": "{n: 2"}</tool_call>', "not valid JSON"),
    ('<tool_call>{"name": "add"} and more</tool_call>', "text after its JSON object"),
    ("Action: add(2", "never closed"),
    ("Action: add(2]", "never closed"),
    ("Action: add(1 + 2)", "not a literal value"),
    ("Action: add(__import__('os'))", "not a literal value"),
    ("Action: add(n=1, n=2)", "got argument 'n' twice"),
    ("Action: add(1, n=1)", "both by position and by name"),
    ("Action: add(1, 'a', 3)", "at most 2 argument(s)"),
    ("Action: multiply(2, 3)", "unknown tool 'multiply'"),
    ('<tool_call>{"name": "multiply"}</tool_call>', "unknown tool 'multiply'"),
    ("Action: do something useful", "write Action: NAME(arguments)"),
    ("Action: (3)", "names no tool"),
    ("Action: add(**{'n': 1})", "write key=value"),
    ("Action: add({1: 2})", "keys must be strings"),
    ("Action: add(2)\nAction: add(", "never closed"),  # the last call is the broken one: no fallback
    ("Action: add(" + "[" * 400 + "]" * 400 + ")", "nested"),
]


@pytest.mark.parametrize(("text", "fragment"), ERRORS)
def test_unreadable_calls_are_errors_never_guesses(text, fragment):
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.calls == ()
    assert parsed.error is not None and fragment in parsed.error
    assert parsed.error.startswith("your tool call could not be read: ")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "The counter is at 3; I am done.",
        "<think>Action: add(1)</think>No call after thinking.",
        "<think>Action: add(1)",
        "Transaction: add(1)",
        "Actions: add(1)",
    ],
)
def test_replies_without_call_markup_are_plain_answers(text):
    parsed = parse_text_tool_calls(text, TOOLS)
    assert (parsed.calls, parsed.error) == ((), None)


def test_visible_text_drops_thinking_and_markup():
    text = "<think>hmm, Action: add(9)</think>\nThe counter is low, so I add three.\nAction: add(3)\n"
    parsed = parse_text_tool_calls(text, TOOLS)
    assert parsed.visible_text == "The counter is low, so I add three."
    tagged = parse_text_tool_calls('Adding.\n<tool_call>{"name": "add", "arguments": {"n": 1}}</tool_call>')
    assert tagged.visible_text == "Adding."


def test_without_tools_keywords_work_and_positionals_are_an_error():
    assert parse_text_tool_calls("Action: anything(x=1)").calls[0].arguments == {"x": 1}
    assert parse_text_tool_calls('<tool_call>{"name": "anything"}</tool_call>').calls[0].name == "anything"
    error = parse_text_tool_calls("Action: anything(1)").error
    assert error is not None and "write them as key=value" in error


def test_split_thinking():
    assert split_thinking("<think>a</think>b") == ("a", "b")
    assert split_thinking("plain") == ("", "plain")
    assert split_thinking("before<think>cut off") == ("cut off", "before")


@pytest.mark.parametrize("fmt", list(TextCallFormat))
def test_instructions_list_tools_in_parameter_order_and_the_format(fmt):
    text = text_tool_instructions(TOOLS, fmt)
    assert 'add(n: integer, note: string = ""): Add n to the counter.' in text
    assert (
        "order(item: string, quantity: integer, weights: list of number (optional), urgent: boolean = false)"
        in text
    )
    assert "n: how much to add" in text
    assert ("Action: NAME(" in text) == (fmt is TextCallFormat.ACTION)
    assert ("<tool_call>" in text) == (fmt is TextCallFormat.TOOL_CALL)
    assert "final answer" in text
    assert "Every reply must call a tool." in text_tool_instructions(TOOLS, fmt, require_tool=True)


@pytest.mark.parametrize("fmt", list(TextCallFormat))
def test_the_instructions_example_shape_parses(fmt):
    """A model that follows the instructions literally produces a call the parser reads."""
    reply = (
        'Action: add(2, note="x")'
        if fmt is TextCallFormat.ACTION
        else ('<tool_call>{"name": "add", "arguments": {"n": 2, "note": "x"}}</tool_call>')
    )
    assert parse_text_tool_calls(reply, TOOLS).calls[0].arguments == {"n": 2, "note": "x"}
