"""`UsageMeter`: one role's tokens summed over every model it wraps, replies passed through unchanged."""

from __future__ import annotations

from collections.abc import Sequence

from core.llm import Message, Reply, ToolSpec, Usage
from core.llm.meter import UsageMeter


class _Scripted:
    name = "scripted"
    provider = "test"

    def __init__(self, *usages: tuple[int, int]) -> None:
        self.usages = list(usages)

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        i, o = self.usages.pop(0)
        return Reply(f"{system}:{len(messages)}", usage=Usage(i, o))


def test_meter_sums_the_replies_of_every_wrapped_model() -> None:
    meter = UsageMeter()
    first, second = meter.wrap(_Scripted((10, 1), (20, 2))), meter.wrap(_Scripted((300, 30)))
    assert first.complete("a", [Message("user", "x")]).text == "a:1"
    second.complete("b", [])
    first.complete("c", [])
    assert meter.usage == Usage(330, 33) and meter.calls == 3
    assert first.name == "scripted" and first.provider == "test"  # the inner model's attributes
