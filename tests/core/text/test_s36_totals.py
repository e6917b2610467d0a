"""A total after figures added up ('2 days to cure, plus a day to label them, so 3') is the figure meant; the
parts are set aside like a corrected value (blind batch 11, b11-20: the lead time was 2 and the 3 became demand)."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.text.mentions import Kind, Scope, parse


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("candles need 2 days to cure after pouring, plus a day to label them, so 3", 3.0),
        ("2 days shipping plus a day customs, that makes 3 days", 3.0),
        ("a week to bake plus 2 days to pack, so 9", 9.0),
    ],
)
def test_the_total_is_live_and_its_parts_are_set_aside(text: str, total: float) -> None:
    spans = parse(text).of(Kind.DURATION, live_only=False)
    assert [m.value for m in spans if not m.scope & Scope.CORRECTED] == [total]


@pytest.mark.parametrize("text", ["we sell 20 a day, so 600 a month", "it takes 4 days, so order early"])
def test_a_plain_so_sets_nothing_aside(text: str) -> None:
    assert not any(m.scope & Scope.CORRECTED for m in parse(text).mentions)


def test_the_total_answers_the_delivery_question() -> None:
    agent = ExtractionAgent()
    agent.greeting()
    for message in ("I make soy candles, about 5 a day, random", "they wait", "no", "4 weeks", "2 cents a day",
                    "15 cents a day per candle they wait for", "25 per batch"):
        agent.respond(message)
    agent.respond("candles need 2 days to cure after pouring, plus a day to label them, so 3")
    assert agent.table.value("lead_time") == "3"
    assert agent.table.value("demand_distribution") == "poisson(5)"
