"""Reading an LLM's reply into one repair `Action`: both of OptiRepair's formats.

* think/Action (D.1): `<think>…</think>` then `Action: NAME(arg, ...)`. Only text after the last `</think>`
  counts, and the last `Action:` line there wins (an `Action:` inside the reasoning is never taken).
* JSON (D.5): `{"reasoning", "action", "target", "value"}` (+ `value2` for UPDATE_BOUNDS' upper bound,
  `var`/`lag` for UPDATE_COEF), possibly inside a ```json fence; nested objects are fine; the last
  object with an "action" key wins.

The Action line (and a `<tool_call>{json}</tool_call>` block) is read by the shared text-call parser
(`core/llm/textcalls.py`); this module adds the repair grammar on top: names are case-insensitive, hyphens
become underscores, the short forms DROP, RELAX, IIS, GETIIS, SLACK, RHS, OBJ, BOUNDS are accepted, positional
arguments are (target, value[, value2]) — (target, var, value, lag) for UPDATE_COEF — and `name=`, `amount=`,
`lb=`/`ub=` keywords are understood; `inf`/`-inf` are infinities, `None`/`null` mean "no bound". Anything else raises `ReplyError` (a SpecError naming what was wrong); the environment
turns it into an invalid step that changes nothing.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from core.errors import SpecError
from core.llm.textcalls import parse_text_tool_calls
from core.llm.types import ToolSpec
from solvers.lp.actions import Action, ActionName, validate

_THINK_END = re.compile(r"</think\s*>", re.IGNORECASE)
_THINK_START = re.compile(r"<think\s*>", re.IGNORECASE)
_ACTION = re.compile(
    r"\baction\s*:\s*\**\s*([A-Za-z][A-Za-z_\- ]*?)\s*(?:\((.*?)\)|$)", re.IGNORECASE | re.MULTILINE
)

ALIASES = {
    "DROP": ActionName.DROP_CONSTRAINT,
    "REMOVE_CONSTRAINT": ActionName.DROP_CONSTRAINT,
    "RELAX": ActionName.RELAX_CONSTRAINT,
    "IIS": ActionName.GET_IIS,
    "GETIIS": ActionName.GET_IIS,
    "COMPUTE_IIS": ActionName.GET_IIS,
    "SLACK": ActionName.CHECK_SLACK,
    "RHS": ActionName.UPDATE_RHS,
    "SET_RHS": ActionName.UPDATE_RHS,
    "OBJ": ActionName.UPDATE_OBJ,
    "UPDATE_OBJECTIVE": ActionName.UPDATE_OBJ,
    "BOUNDS": ActionName.UPDATE_BOUNDS,
    "SET_BOUNDS": ActionName.UPDATE_BOUNDS,
    "COEF": ActionName.UPDATE_COEF,
    "UPDATE_COEFFICIENT": ActionName.UPDATE_COEF,
}
NO_TARGET = {ActionName.GET_IIS, ActionName.SUBMIT, ActionName.RESET}


class ReplyError(SpecError):
    """The reply holds no readable action; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__("reply", message)


@dataclass(frozen=True)
class ParsedReply:
    action: Action
    reasoning: str
    format: str  # "think" or "json"


def action_name(raw: str) -> ActionName:
    key = re.sub(r"[\s\-]+", "_", raw.strip()).upper().strip("_")
    if key in ActionName.__members__:
        return ActionName(key)
    if key in ALIASES:
        return ALIASES[key]
    raise ReplyError(f"unknown action {raw.strip()!r}; use one of {', '.join(a.value for a in ActionName)}")


def _number(raw: Any, field: str) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise ReplyError(f"{field} must be a number, got {raw!r}")
    if isinstance(raw, int | float):
        return float(raw)
    text = str(raw).strip().strip("'\"").strip()
    if text.lower() in ("none", "null", ""):
        return None
    if text.lower() in ("inf", "+inf", "infinity", "+infinity"):
        return math.inf
    if text.lower() in ("-inf", "-infinity"):
        return -math.inf
    try:
        value = float(text)
    except ValueError:
        raise ReplyError(f"{field} must be a number, got {text!r}") from None
    if math.isnan(value):
        raise ReplyError(f"{field} must be a number, not NaN")
    return value


def _build(name: ActionName, target: Any, values: list[Any], var: Any = None, lag: Any = None) -> Action:
    if name in NO_TARGET:
        return validate(Action(name))
    if target is None or str(target).strip() == "":
        raise ReplyError(f"{name.value} needs a constraint or variable name as its first argument")
    target = str(target).strip()
    if name is ActionName.UPDATE_COEF:
        if var is None and values:
            var, values = values[0], values[1:]
        value = _number(values[0], "value") if values else None
        raw_lag = lag if lag is not None else (values[1] if len(values) > 1 else 0)
        try:
            lag_int = int(float(raw_lag or 0))
        except (TypeError, ValueError):
            raise ReplyError(f"lag must be a whole number, got {raw_lag!r}") from None
        action = Action(name, target, value, var=None if var is None else str(var).strip(), lag=lag_int)
    else:
        nums = [_number(v, "value" if k == 0 else "value2") for k, v in enumerate(values[:2])]
        nums += [None] * (2 - len(nums))
        action = Action(name, target, nums[0], nums[1])
    try:
        return validate(action)
    except SpecError as err:
        raise ReplyError(str(err)) from None


_PARAMS: dict[ActionName, tuple[str, ...]] = {
    ActionName.UPDATE_BOUNDS: ("target", "value", "value2"),
    ActionName.UPDATE_COEF: ("target", "var", "value", "lag"),
}
_KEY_ALIASES = {
    "name": "target",
    "row": "target",
    "constraint": "target",
    "variable": "target",
    "var_prefix": "target",
    "amount": "value",
    "rhs": "value",
    "lb": "value",
    "lower": "value",
    "coef": "value",
    "ub": "value2",
    "upper": "value2",
}
_WRITTEN = re.compile(r"\baction[*_`]*[ \t]*:[ \t*_`]*([A-Za-z_][\w\-]*)", re.IGNORECASE)
_NEG_INF = re.compile(r"(?<![\w\"'])-\s*inf(inity)?\b", re.IGNORECASE)
_DOTTED = re.compile(r"(?<![\w\"'.])([A-Za-z_]\w*(?:\.\w+)+)")


def _literalise(text: str) -> str:
    """Quote what the paper writes bare but Python literals cannot hold (`hold.e1`, `-inf`) on Action lines."""
    lines = []
    for line in text.split("\n"):
        if _WRITTEN.search(line):
            line = _DOTTED.sub(r'"\1"', _NEG_INF.sub('"-inf"', line))
        lines.append(line)
    return "\n".join(lines)


def _spec(written: str) -> ToolSpec | None:
    try:
        name = action_name(written)
    except ReplyError:
        return None
    params = _PARAMS.get(name, () if name in NO_TARGET else ("target", "value"))
    return ToolSpec(written, name.value, {"type": "object", "properties": {k: {} for k in params}})


def _from_action_line(text: str) -> Action | None:
    """The last `Action: NAME(args)` (or `<tool_call>`) in `text`, read by the shared text-call parser."""
    written = _WRITTEN.findall(text)
    names = dict.fromkeys([*(a.value for a in ActionName), *written])
    specs = [s for s in (_spec(w) for w in names) if s is not None]
    parsed = parse_text_tool_calls(_literalise(text), specs)
    if parsed.error:
        unknown = [w for w in written if _spec(w) is None]
        if unknown and "unknown tool" in parsed.error:
            action_name(unknown[-1])  # raises with the list of valid actions
        raise ReplyError(parsed.error)
    if not parsed.calls:
        return None
    call = parsed.calls[-1]
    name = action_name(call.name)
    args = {_KEY_ALIASES.get(k, k): v for k, v in call.arguments.items()}
    target = args.get("target")
    if name not in NO_TARGET and target is not None and not isinstance(target, str):
        raise ReplyError(f"{name.value} needs a name as its first argument, got the number {target}")
    values = [args.get("value"), args.get("value2")]
    while values and values[-1] is None:
        values.pop()
    return _build(name, target, values, var=args.get("var"), lag=args.get("lag"))


def _json_objects(text: str) -> list[dict]:
    decoder = json.JSONDecoder()
    found = []
    i = text.find("{")
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            found.append(obj)
        i = text.find("{", end)
    return found


def _from_json(obj: dict) -> Action:
    raw = obj.get("action")
    if isinstance(raw, dict):  # {"action": {"name": ..., "target": ...}}
        obj = {**obj, **raw}
        raw = raw.get("name") or raw.get("type")
    if not isinstance(raw, str):
        raise ReplyError("the JSON reply has no 'action' string")
    name = action_name(raw)
    target = obj.get("target", obj.get("name") if name not in NO_TARGET else None)
    values = [obj.get("value", obj.get("lb")), obj.get("value2", obj.get("ub"))]
    while values and values[-1] is None:
        values.pop()
    return _build(name, target, values, var=obj.get("var"), lag=obj.get("lag"))


def parse_reply(text: str) -> ParsedReply:
    """The action in an LLM reply (either format); `ReplyError` when there is none or it is malformed."""
    if not isinstance(text, str) or not text.strip():
        raise ReplyError("the reply is empty")
    ends = list(_THINK_END.finditer(text))
    if ends:
        reasoning = _THINK_START.sub("", text[: ends[-1].start()]).strip()
        tail = text[ends[-1].end() :]
    elif _THINK_START.search(text):
        raise ReplyError("the <think> block is never closed with </think>, so there is no action after it")
    else:
        reasoning, tail = "", text
    action = _from_action_line(tail)
    if action is not None:
        return ParsedReply(action, reasoning, "think")
    objects = [o for o in _json_objects(tail) if "action" in o]
    if objects:
        obj = objects[-1]
        return ParsedReply(_from_json(obj), str(obj.get("reasoning", reasoning)), "json")
    if ends and _WRITTEN.search(text[: ends[-1].start()]):
        raise ReplyError("the only Action: line is inside <think>; write it after </think>")
    raise ReplyError(
        "no action found: end with `Action: NAME(args)` after </think>, or reply with a JSON object "
        '{"reasoning": ..., "action": ..., "target": ..., "value": ...}'
    )


def parse_error_action(err: Exception) -> dict[str, Any]:
    """The tool call an agent sends when its reply could not be parsed (costs a step, changes nothing)."""
    return {"name": "PARSE_ERROR", "arguments": {"error": str(err)}}
