"""Typed Python functions as LLM tools: JSON Schema derived from the signature, arguments validated first.

A tool is a plain function (or bound method) with type hints and a docstring whose first paragraph describes
it and whose Google-style ``Args:`` lines describe the parameters. `Toolbox.call` never raises: unknown tools,
schema violations and exceptions come back as ``{"error": ...}`` so the model can correct itself.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Literal, Union, get_args, get_origin

from core.errors import OrcaError
from core.llm.types import ToolSpec

_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _schema_for(annotation: Any) -> dict[str, Any]:
    origin = get_origin(annotation)
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if origin is Literal:
        values = list(get_args(annotation))
        return {"type": _SCALARS[type(values[0])], "enum": values}
    if origin in (list, Sequence, tuple) or annotation is list:
        args = get_args(annotation)
        return {"type": "array", "items": _schema_for(args[0]) if args else {}}
    if origin is dict or annotation is dict:
        return {"type": "object"}
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(annotation) if a is not type(None)]
        if len(options) == 1:
            return _schema_for(options[0])
    raise TypeError(f"unsupported tool parameter annotation: {annotation!r}")


def _doc_parts(func: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    doc = inspect.getdoc(func) or ""
    description = doc.split("\n\n")[0].replace("\n", " ").strip()
    params: dict[str, str] = {}
    match = re.search(r"^Args:\s*\n(.*?)(?:\n\s*\n|\Z)", doc, flags=re.S | re.M)
    if match:
        current = None
        for line in match.group(1).splitlines():
            item = re.match(r"\s*(\w+)(?:\s*\([^)]*\))?:\s*(.*)", line)
            if item:
                current = item.group(1)
                params[current] = item.group(2).strip()
            elif current and line.strip():
                params[current] += " " + line.strip()
    return description, params


def tool_spec(func: Callable[..., Any]) -> ToolSpec:
    """Derive the `ToolSpec` (name, description, JSON Schema) of a typed function."""
    description, param_docs = _doc_parts(func)
    hints = typing.get_type_hints(func)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, param in inspect.signature(func).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        schema = _schema_for(hints.get(name, str))
        if name in param_docs:
            schema["description"] = param_docs[name]
        if param.default is inspect.Parameter.empty:
            required.append(name)
        elif param.default is not None:
            schema["default"] = param.default
        properties[name] = schema
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return ToolSpec(name=func.__name__, description=description, parameters=parameters)


def _type_ok(value: Any, schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list) and all(_type_ok(v, schema.get("items", {})) for v in value)
    if kind == "object":
        return isinstance(value, dict)
    return True


def validate_arguments(spec: ToolSpec, arguments: Any) -> dict[str, Any]:
    """Check arguments against the tool's schema; return them coerced (3.0 -> 3 for integers) or raise."""
    if not isinstance(arguments, dict):
        raise ToolArgumentError(
            f"arguments for {spec.name} must be a JSON object, got {type(arguments).__name__}"
        )
    props: dict[str, Any] = spec.parameters["properties"]
    problems = [f"missing required argument '{n}'" for n in spec.parameters["required"] if n not in arguments]
    problems += [
        f"unknown argument '{n}' (valid: {', '.join(props) or 'none'})" for n in arguments if n not in props
    ]
    clean: dict[str, Any] = {}
    for name, value in arguments.items():
        schema = props.get(name)
        if schema is None:
            continue
        if value is None and name not in spec.parameters["required"]:
            continue
        if not _type_ok(value, schema):
            problems.append(f"argument '{name}' must be of type {schema.get('type')}, got {value!r}")
        elif "enum" in schema and value not in schema["enum"]:
            allowed = ", ".join(repr(v) for v in schema["enum"])
            problems.append(f"argument '{name}' must be one of {allowed}, got {value!r}")
        else:
            clean[name] = int(value) if schema.get("type") == "integer" else value
    if problems:
        raise ToolArgumentError(f"invalid call to {spec.name}: " + "; ".join(problems))
    return clean


class ToolArgumentError(OrcaError):
    """The model called a tool with arguments that do not fit its schema."""


class Toolbox:
    """A named set of typed tools that validates and runs calls, returning JSON-able dicts."""

    def __init__(self, functions: Sequence[Callable[..., Any]]) -> None:
        self._functions = {f.__name__: f for f in functions}
        self._specs = {name: tool_spec(f) for name, f in self._functions.items()}

    @property
    def specs(self) -> list[ToolSpec]:
        return list(self._specs.values())

    @property
    def names(self) -> list[str]:
        return list(self._functions)

    def call(self, name: str, arguments: Any) -> dict[str, Any]:
        """Run one tool call; every failure is returned as ``{"error": message}``, never raised."""
        if name not in self._functions:
            return {"error": f"unknown tool '{name}'; available tools: {', '.join(self._functions)}"}
        try:
            clean = validate_arguments(self._specs[name], arguments)
            result = self._functions[name](**clean)
        except OrcaError as err:
            return {"error": str(err)}
        except Exception as err:  # a tool bug must not end the conversation; the model sees what happened
            return {"error": f"{name} failed: {type(err).__name__}: {err}"}
        return result if isinstance(result, dict) else {"result": result}
