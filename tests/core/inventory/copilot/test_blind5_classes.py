"""Issue 27: classes the fifth blind batch (b5, measured once at 7736f3f) found written wrong silently — a range
whose unit follows only its second end, money of the whole business (wages, a fee per day) where a per-unit cost
is asked, a duration of an event beside another answer, a correction with 'well, maybe', a count of people beside
the count of items, and demand said in the contents of the item planned. Our own phrasings, never b5's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn


def _talk(*texts: str, asked: str | None = None) -> tuple[ExtractionAgent, CopilotTurn]:
    """A fresh agent; every message but the last is sent as is, the last one answers `asked`."""
    agent = ExtractionAgent()
    agent.greeting()
    turn = None
    for text in texts[:-1]:
        turn = agent.respond(text)
    agent.state.asked = asked
    turn = agent.respond(texts[-1])
    return agent, turn


def _values(turn: CopilotTurn) -> dict[str, str]:
    return {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}


# ---------------------------------------------------------------- 4. a correction with 'well, maybe'


@pytest.mark.parametrize(
    ("text", "demand"),
    [
        ("average 40 a day, give or take 8, well, maybe 10", "normal(40,10)"),
        ("mean of 15 a day, plus or minus 3, hmm, perhaps 4", "normal(15,4)"),
        ("roughly 60 a day, give or take 12, well, probably 15", "normal(60,15)"),
    ],
)
def test_a_second_thought_replaces_the_value_before_it(text: str, demand: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand


def test_a_second_thought_on_a_duration_keeps_its_unit() -> None:
    _, turn = _talk("the wholesaler takes 3 days, well, maybe 4", asked="lead_time")
    assert _values(turn).get("lead_time") == "4"


# ---------------------------------------------------------------- 5. a count of people beside the items sold


@pytest.mark.parametrize(
    ("text", "mean"),
    [
        ("about 30 people come in a day and maybe 4 buy a candle, it varies", "poisson(4)"),
        ("we see 50 customers a day, about 5 take a jar home, random", "poisson(5)"),
        ("around 40 shoppers a day, roughly 6 of them pick up a loaf, it's random", "poisson(6)"),
    ],
)
def test_a_count_of_people_is_not_the_demand(text: str, mean: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == mean
    assert "people, not units sold" in turn.assistant  # said, so the owner can object


def test_a_count_of_people_alone_is_still_read() -> None:
    """Without a count of items beside it nothing is taken out ('50 customers a day' may be the demand)."""
    _, turn = _talk("about 12 a day, random", asked="demand_type")
    assert _values(turn).get("demand_distribution") == "poisson(12)"


# ---------------------------------------------------------------- 2. money of the whole business, asked per unit


@pytest.mark.parametrize(
    ("asked", "text"),
    [
        ("penalty_cost", "my assistant costs me 2500 a month, busy or not"),
        ("holding_cost", "I pay my helper 400 a week"),
        ("setup_cost", "the two drivers cost me 900 a week between them"),
        ("holding_cost", "the mechanic is 3200 a month"),
    ],
)
def test_wages_are_asked_per_unit_never_divided(asked: str, text: str) -> None:
    _, turn = _talk(text, asked=asked)
    assert _values(turn) == {}, turn.assistant
    assert "whole business" in turn.assistant


@pytest.mark.parametrize(
    "text", ["the market pitch fee is 120 a day", "the stall fee is 90 a week", "my licence fee is 45 a day"]
)
def test_a_fee_per_period_is_never_demand(text: str) -> None:
    _, turn = _talk(text, asked="setup_cost")
    values = _values(turn)
    assert "demand_distribution" not in values and "setup_cost" not in values, turn.assistant


def test_a_fee_per_period_said_while_demand_is_asked_is_never_demand() -> None:
    _, turn = _talk("the market pitch fee is 120 a day", asked="demand_type")
    assert "demand_distribution" not in _values(turn)


# ---------------------------------------------------------------- 3. a duration of an event beside another answer


@pytest.mark.parametrize(
    ("asked", "text", "row"),
    [
        ("demand_type", "4 or 5 a day, and the big sale is in 2 weeks", None),
        ("demand_type", "about 6 a day, random, the festival starts in 10 days", "demand_distribution"),
        ("max_inventory", "room for 40, the shop refit is in 3 weeks", "max_inventory"),
    ],
)
def test_a_duration_without_a_word_of_delivery_is_no_lead_time(asked: str, text: str, row: str | None) -> None:
    agent, turn = _talk(text, asked=asked)
    values = _values(turn)
    assert "lead_time" not in values, turn.assistant
    assert row is None or row in values
    assert not agent.table.is_defined("lead_time")


@pytest.mark.parametrize(
    "text", ["about 12 a day, random; the supplier takes 2 days anyway", "around 8 a day, random, and it takes 2 days to get here"]
)  # fmt: skip
def test_a_duration_naming_delivery_is_still_the_lead_time(text: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("lead_time") == "2"
