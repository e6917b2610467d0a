"""Tool calls written as text, for models without native tool calling.

Two formats are read, in the part of a reply after any ``<think>…</think>`` block:

    <tool_call>{"name": "add", "arguments": {"n": 3}}</tool_call>     (Hermes/Qwen style; the closing tag may
                                                                     be missing at the end of the reply)
    Action: add(3, note="three, please", weights=[1, 2], ok=true)    (one line; ReAct style)

One reply yields at most one call: when several are written, the last one wins (models often draft a call,
then correct it). Action arguments are Python/JSON literals (strings, numbers, lists, dicts, true/false/null)
or bare words, which are read as strings (``move(left)``); positional arguments are named after the tool's
parameters in the order of its JSON Schema, so they need the tool list. A reply with call markup that cannot
be read gives an `error` for the model to correct, never a guessed call; a reply without any markup is a plain
answer (no calls, no error).
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.llm.types import ToolCall, ToolSpec

MAX_ARGUMENT_CHARS = 20_000
TEXT_CALL_ID = "text_call"
_THINK_OPEN = re.compile(r"<think>", re.I)
_THINK_CLOSE = re.compile(r"</think>", re.I)
_TOOL_CALL = re.compile(r"<tool_call>(?P<body>.*?)(?:</tool_call>|\Z)", re.S | re.I)
_ACTION = re.compile(r"^[ \t>*_`#-]*action[*_`]*[ \t]*:[ \t*_`]*(?P<name>[A-Za-z_][\w\-]*)?", re.I | re.M)
_LINE_TAIL = re.compile(r"[ \t*_`.;]*(?:\n|\Z)")
_WORDS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
_PAIRS = {"(": ")", "[": "]", "{": "}"}


class TextCallFormat(StrEnum):
    """How a text-format model is told to write a tool call (both formats are always parsed)."""

    TOOL_CALL = "tool_call"
    ACTION = "action"


@dataclass(frozen=True)
class TextCallParse:
    """The call read from a reply (at most one), or why none could be read, and the reply's visible text.

    `visible_text` is the reply without thinking and without the call markup: what the model said to people.
    """

    calls: tuple[ToolCall, ...] = ()
    error: str | None = None
    visible_text: str = ""


class _Unreadable(ValueError):
    """A call markup whose content cannot be turned into a call."""


def split_thinking(text: str) -> tuple[str, str]:
    """`(thinking, rest)`: everything up to the last ``</think>`` (or from an unclosed ``<think>``) is thinking."""
    closes = list(_THINK_CLOSE.finditer(text))
    thinking, rest = "", text
    if closes:
        thinking, rest = text[: closes[-1].start()], text[closes[-1].end() :]
    opened = _THINK_OPEN.search(rest)
    if opened:  # the reply ended inside a thinking block (e.g. cut off by the token limit)
        thinking, rest = thinking + rest[opened.start() :], rest[: opened.start()]
    return _THINK_OPEN.sub("", thinking).strip(), rest


def _closing(text: str, start: int) -> int:
    """Index just past the bracket that closes `text[start]`, honouring quotes; -1 when it never closes."""
    stack: list[str] = []
    quote = ""
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in _PAIRS:
            stack.append(_PAIRS[ch])
        elif ch in ")]}":
            if not stack or ch != stack.pop():
                return -1
            if not stack:
                return i + 1
        i += 1
    return -1


def _literal(node: ast.expr, where: str) -> Any:
    """The JSON value of one argument expression; bare words are strings, anything computed is refused."""
    if isinstance(node, ast.Constant) and (
        node.value is None or isinstance(node.value, str | int | float | bool)
    ):
        return node.value
    if isinstance(node, ast.Name):
        return _WORDS.get(node.id, node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _literal(node.operand, where)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.List | ast.Tuple):
        return [_literal(item, where) for item in node.elts]
    if isinstance(node, ast.Dict):
        out: dict[str, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            name = _literal(key, where) if key is not None else None
            if not isinstance(name, str):
                raise _Unreadable(f"{where}: dictionary keys must be strings")
            out[name] = _literal(value, where)
        return out
    raise _Unreadable(f"{where} is not a literal value: {ast.unparse(node)[:80]}")


def _unknown(name: str, tools: Sequence[ToolSpec]) -> str:
    return f"unknown tool '{name}'; available tools: {', '.join(t.name for t in tools) or 'none'}"


def _positional_names(name: str, count: int, tools: Sequence[ToolSpec] | None) -> list[str]:
    if tools is None:
        raise _Unreadable(
            f"{name} got {count} positional argument(s) but no tool list was given to name them; "
            "write them as key=value"
        )
    spec = next((t for t in tools if t.name == name), None)
    if spec is None:
        raise _Unreadable(_unknown(name, tools))
    order = list(spec.parameters.get("properties", {}))
    if count > len(order):
        shown = ", ".join(order) or "none"
        raise _Unreadable(f"{name} takes at most {len(order)} argument(s) ({shown}), got {count}")
    return order[:count]


def _action_arguments(name: str, inner: str, tools: Sequence[ToolSpec] | None) -> dict[str, Any]:
    if len(inner) > MAX_ARGUMENT_CHARS:
        raise _Unreadable(f"the arguments of {name} are longer than {MAX_ARGUMENT_CHARS} characters")
    try:
        tree = ast.parse(f"_({inner})", mode="eval")
    except SyntaxError as err:
        raise _Unreadable(
            f"could not read the arguments of {name}({inner.strip()[:120]}): {err.msg}"
        ) from err
    except (RecursionError, MemoryError) as err:
        raise _Unreadable(f"the arguments of {name} are nested too deeply") from err
    call = tree.body
    assert isinstance(call, ast.Call)
    try:
        positional = [_literal(a, f"argument {i + 1} of {name}") for i, a in enumerate(call.args)]
        keywords: dict[str, Any] = {}
        for kw in call.keywords:
            if kw.arg is None:
                raise _Unreadable(f"{name}: **expansion is not allowed; write key=value")
            if kw.arg in keywords:
                raise _Unreadable(f"{name} got argument '{kw.arg}' twice")
            keywords[kw.arg] = _literal(kw.value, f"argument '{kw.arg}' of {name}")
    except RecursionError as err:
        raise _Unreadable(f"the arguments of {name} are nested too deeply") from err
    arguments: dict[str, Any] = {}
    if positional:
        arguments = dict(zip(_positional_names(name, len(positional), tools), positional, strict=True))
    twice = sorted(set(arguments) & set(keywords))
    if twice:
        raise _Unreadable(f"{name} got argument '{twice[0]}' both by position and by name")
    return arguments | keywords


def _read_action(text: str, match: re.Match[str], tools: Sequence[ToolSpec] | None) -> tuple[ToolCall, int]:
    """The call of one `Action:` line and where its markup ends."""
    name = match.group("name")
    line = text[match.start() :].split("\n", 1)[0]
    if not name:
        raise _Unreadable(f"'{line.strip()[:120]}' names no tool; write Action: NAME(arguments)")
    after = match.end()
    while after < len(text) and text[after] in " \t":
        after += 1
    if after < len(text) and text[after] == "(":
        end = _closing(text, after)
        if end < 0:
            raise _Unreadable(f"the parenthesis after {name} is never closed (or brackets do not match)")
        inner = text[after + 1 : end - 1]
        arguments = _action_arguments(name, inner, tools) if inner.strip() else {}
        tail = _LINE_TAIL.match(text, end)
        return ToolCall(TEXT_CALL_ID, name, arguments), tail.end() if tail else end
    tail = _LINE_TAIL.match(text, match.end())
    if tail:  # `Action: finish` alone on its line: a call without arguments
        return ToolCall(TEXT_CALL_ID, name, {}), tail.end()
    raise _Unreadable(f"could not read '{line.strip()[:120]}'; write Action: NAME(arguments)")


def _read_json_call(body: str) -> ToolCall:
    """The call in one ``<tool_call>`` block."""
    body = body.strip()
    fence = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", body, re.S)
    if fence:
        body = fence.group(1)
    if not body:
        raise _Unreadable("the <tool_call> block is empty")
    try:
        value, end = json.JSONDecoder().raw_decode(body)
    except json.JSONDecodeError as err:
        raise _Unreadable(
            f"the <tool_call> block is not valid JSON ({err.msg} at position {err.pos}): {body[:200]}"
        ) from err
    if body[end:].strip():
        raise _Unreadable(f"the <tool_call> block has text after its JSON object: {body[end:].strip()[:80]}")
    if not isinstance(value, dict):
        raise _Unreadable(f"the <tool_call> block must hold one JSON object, got {type(value).__name__}")
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _Unreadable('the <tool_call> object needs a "name" string')
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):  # some models encode the arguments twice
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as err:
            raise _Unreadable(f'the "arguments" of {name} are not valid JSON: {arguments[:200]}') from err
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise _Unreadable(f'the "arguments" of {name} must be a JSON object, got {type(arguments).__name__}')
    return ToolCall(TEXT_CALL_ID, name.strip(), arguments)


def parse_text_tool_calls(text: str, tools: Sequence[ToolSpec] | None = None) -> TextCallParse:
    """Read the tool call a text-format model wrote (the last one wins); see the module docstring.

    With `tools`, positional Action arguments are named after the tool's parameters and a call to a tool
    that is not in the list is an error.
    """
    _, rest = split_thinking(text or "")
    found: list[tuple[int, int, ToolCall | None, str | None]] = []  # (start, end, call, problem)
    for match in _TOOL_CALL.finditer(rest):
        try:
            found.append((match.start(), match.end(), _read_json_call(match.group("body")), None))
        except _Unreadable as err:
            found.append((match.start(), match.end(), None, str(err)))
    for match in _ACTION.finditer(rest):
        if any(start <= match.start() < end for start, end, _, _ in found):
            continue  # an "Action:" inside a <tool_call> block
        try:
            call, end = _read_action(rest, match, tools)
            found.append((match.start(), end, call, None))
        except _Unreadable as err:
            line_end = rest.find("\n", match.start())
            found.append((match.start(), len(rest) if line_end < 0 else line_end, None, str(err)))
    visible = rest
    for start, end, _, _ in sorted(found, reverse=True):
        visible = visible[:start] + visible[end:]
    visible = visible.strip()
    if not found:
        return TextCallParse(visible_text=visible)
    _, _, call, problem = max(found, key=lambda item: item[0])
    if call is not None and tools is not None and call.name not in {t.name for t in tools}:
        problem = _unknown(call.name, tools)
    if problem or call is None:
        return TextCallParse(error=f"your tool call could not be read: {problem}", visible_text=visible)
    return TextCallParse(calls=(call,), visible_text=visible)


@dataclass(frozen=True)
class TextCallBatch:
    """Every call of one reply in the order written (`parse_tool_call_batch`), the problems of the markup that
    could not be read or named no offered tool, and how the calls were found (`xml`, `function`, `json`,
    `none`)."""

    calls: tuple[ToolCall, ...] = ()
    errors: tuple[str, ...] = ()
    method: str = "none"


def _function_calls(rest: str, tools: Sequence[ToolSpec]) -> tuple[list[ToolCall], list[str]]:
    """`name(key=literal, ...)` calls of offered tools, in order."""
    names = sorted((t.name for t in tools), key=len, reverse=True)
    if not names:
        return [], []
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")[ \t]*\(")
    calls: list[ToolCall] = []
    errors: list[str] = []
    pos = 0
    while (match := pattern.search(rest, pos)) is not None:
        opening = match.end() - 1
        end = _closing(rest, opening)
        if end < 0:
            errors.append(f"the parenthesis after {match.group(1)} is never closed")
            break
        inner = rest[opening + 1 : end - 1]
        try:
            arguments = _action_arguments(match.group(1), inner, tools) if inner.strip() else {}
            calls.append(ToolCall(TEXT_CALL_ID, match.group(1), arguments))
        except _Unreadable as err:
            errors.append(str(err))
        pos = end
    return calls, errors


def _json_calls(rest: str) -> list[ToolCall]:
    """Standalone JSON objects shaped {name, arguments} or {function: {name, arguments}}, in order."""
    decoder = json.JSONDecoder()
    calls: list[ToolCall] = []
    pos = rest.find("{")
    while pos >= 0:
        try:
            value, end = decoder.raw_decode(rest, pos)
        except json.JSONDecodeError:
            pos = rest.find("{", pos + 1)
            continue
        if isinstance(value, dict) and isinstance(value.get("function"), dict):
            value = value["function"]
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            with contextlib.suppress(_Unreadable):
                calls.append(_read_json_call(json.dumps(value)))
        pos = rest.find("{", end)
    return calls


def parse_tool_call_batch(text: str, tools: Sequence[ToolSpec]) -> TextCallBatch:
    """Every tool call of a reply in order, read like the original RetailBench runners (the paper harness): the
    ``<tool_call>`` blocks; if there are none, ``name(key=value, ...)`` calls of offered tools; if none, standalone
    JSON objects {name, arguments}. Calls to tools not in `tools` are left out (and named in `errors`), as is a
    repeated ``end_today`` with the same arguments; a block that cannot be read is an error, never a guess."""
    _, rest = split_thinking(text or "")
    allowed = {t.name for t in tools}
    calls: list[ToolCall] = []
    errors: list[str] = []
    method = "none"
    blocks = list(_TOOL_CALL.finditer(rest))
    if blocks:
        method = "xml"
        for block in blocks:
            try:
                calls.append(_read_json_call(block.group("body")))
            except _Unreadable as err:
                errors.append(str(err))
    else:
        calls, errors = _function_calls(rest, tools)
        method = "function" if calls or errors else "none"
        if method == "none":
            calls = _json_calls(rest)
            method = "json" if calls else "none"
    kept: list[ToolCall] = []
    for call in calls:
        if call.name not in allowed:
            errors.append(_unknown(call.name, tools))
        elif call.name == "end_today" and any(
            k.name == call.name and k.arguments == call.arguments for k in kept
        ):
            continue
        else:
            kept.append(call)
    return TextCallBatch(tuple(kept), tuple(errors), method)


def _signature(spec: ToolSpec) -> str:
    props: dict[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    parts = []
    for name, schema in props.items():
        kind = schema.get("type", "any")
        if kind == "array" and isinstance(schema.get("items"), dict) and schema["items"].get("type"):
            kind = f"list of {schema['items']['type']}"
        part = f"{name}: {kind}"
        if "enum" in schema:
            part += " (one of " + ", ".join(json.dumps(v) for v in schema["enum"]) + ")"
        if name not in required:
            part += f" = {json.dumps(schema['default'])}" if "default" in schema else " (optional)"
        parts.append(part)
    return f"{spec.name}({', '.join(parts)})"


def _tool_lines(tools: Sequence[ToolSpec]) -> list[str]:
    lines = []
    for spec in tools:
        lines.append(f"- {_signature(spec)}: {spec.description}".rstrip(": "))
        for name, schema in spec.parameters.get("properties", {}).items():
            if schema.get("description"):
                lines.append(f"    {name}: {schema['description']}")
    return lines


def text_tool_instructions(
    tools: Sequence[ToolSpec],
    fmt: TextCallFormat | str = TextCallFormat.TOOL_CALL,
    *,
    require_tool: bool = False,
) -> str:
    """The system-prompt section that lists the tools and tells a text-format model how to call one.

    With `require_tool` the model is told that every reply must call a tool (an environment's action).
    """
    fmt = TextCallFormat(fmt)
    head = ["## Tools", "You can call these tools (arguments in this order):", *_tool_lines(tools), ""]
    example = tools[0] if tools else None
    if fmt is TextCallFormat.ACTION:
        sample = f"Action: {example.name}(...)" if example else "Action: NAME(...)"
        how = [
            "To call a tool, end your reply with one line of the form",
            "Action: NAME(value1, value2, name=value)",
            "Values are positional in the order listed above or written name=value; strings in double quotes,",
            "numbers plain, lists as [1, 2], true/false/null. Example: " + sample,
        ]
    else:
        sample = (
            f'<tool_call>{{"name": "{example.name}", "arguments": {{...}}}}</tool_call>'
            if example
            else '<tool_call>{"name": "NAME", "arguments": {...}}</tool_call>'
        )
        how = [
            "To call a tool, end your reply with one block holding a JSON object:",
            '<tool_call>{"name": "NAME", "arguments": {"parameter": value}}</tool_call>',
            "Example: " + sample,
        ]
    tail = [
        "Call one tool per reply; if you write several, only the last one counts. You may think first.",
        "The tool's result comes back in the next message. "
        + (
            "Every reply must call a tool."
            if require_tool
            else "A reply without a tool call is your final answer."
        ),
    ]
    return "\n".join(head + how + tail)
