"""Schema derivation and argument validation of typed tools."""

from typing import Literal

from core.errors import SpecError
from core.llm import Toolbox, tool_spec


def add_items(
    a: int,
    b: float = 1.5,
    label: str | None = None,
    mode: Literal["fast", "exact"] = "fast",
    tags: list[str] | None = None,
) -> dict:
    """Add two numbers.

    Args:
        a: the first number
        b: the second number
        label: an optional name
        mode: how to add
        tags: free tags
    """
    if a < 0:
        raise SpecError("a", "must be non-negative")
    if a == 13:
        raise RuntimeError("unlucky")
    return {"sum": a + b, "label": label, "mode": mode, "tags": tags or []}


def test_schema_is_derived_from_signature_and_docstring():
    spec = tool_spec(add_items)
    props = spec.parameters["properties"]
    assert spec.name == "add_items"
    assert spec.description == "Add two numbers."
    assert props["a"] == {"type": "integer", "description": "the first number"}
    assert props["b"]["type"] == "number" and props["b"]["default"] == 1.5
    assert props["mode"]["enum"] == ["fast", "exact"]
    assert props["tags"]["type"] == "array" and props["tags"]["items"] == {"type": "string"}
    assert props["label"]["type"] == "string" and "default" not in props["label"]
    assert spec.parameters["required"] == ["a"]
    assert spec.parameters["additionalProperties"] is False


def test_valid_call_coerces_integral_floats():
    box = Toolbox([add_items])
    assert box.call("add_items", {"a": 2.0, "tags": ["x"]}) == {
        "sum": 3.5,
        "label": None,
        "mode": "fast",
        "tags": ["x"],
    }


def test_errors_are_returned_not_raised():
    box = Toolbox([add_items])
    assert "unknown tool 'nope'" in box.call("nope", {})["error"]
    assert "add_items" in box.call("nope", {})["error"]
    assert "missing required argument 'a'" in box.call("add_items", {})["error"]
    assert "unknown argument 'c'" in box.call("add_items", {"a": 1, "c": 2})["error"]
    assert "must be of type integer" in box.call("add_items", {"a": "two"})["error"]
    assert "must be of type integer" in box.call("add_items", {"a": True})["error"]
    assert "must be one of 'fast', 'exact'" in box.call("add_items", {"a": 1, "mode": "slow"})["error"]
    assert box.call("add_items", {"a": -1})["error"] == "a: must be non-negative"
    assert "RuntimeError: unlucky" in box.call("add_items", {"a": 13})["error"]
    assert "must be a JSON object" in box.call("add_items", ["a"])["error"]


def test_bound_methods_are_tools():
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def bump(self, by: int = 1) -> dict:
            """Increase the counter."""
            self.n += by
            return {"n": self.n}

    counter = Counter()
    box = Toolbox([counter.bump])
    assert box.specs[0].parameters["required"] == []
    assert box.call("bump", {"by": 4}) == {"n": 4}
    assert counter.n == 4
