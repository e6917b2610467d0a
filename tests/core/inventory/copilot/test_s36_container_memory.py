"""A container size said earlier applies to later counts (blind batch 19: b19-11, b19-20). Demand said only in
a container whose size the owner gave before ('sparkling water in crates of 24', then '2 crates a day') is asked:
crates or single units, both readings shown, nothing written; an owner who said they sell singles ('we sell
single bottles', 'one at a time') has every container count multiplied out."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from tests.support.extraction_dialogues import say


def _agent(*messages: str) -> tuple[ExtractionAgent, str]:
    agent, turn = say(*messages)
    return agent, turn.assistant


@pytest.mark.parametrize(
    ("opening", "demand", "single"),
    [
        ("corner store, sparkling water in crates of 24", "we go through 2 crates a day, give or take half a crate",
         "48"),
        ("Florist, roses come in buckets of 25", "4 buckets a day, exactly, every day", "100"),
        ("Cafe, milk comes in crates of 20", "3 crates a day, give or take half a crate", "60"),
    ],
)
def test_demand_in_a_container_sized_before_is_asked_never_written(opening: str, demand: str, single: str) -> None:
    agent, reply = _agent(opening, demand)
    assert agent.table.value("demand_distribution") is None
    assert agent.table.conflicts, reply
    assert single in reply


@pytest.mark.parametrize(
    ("opening", "demand", "mean"),
    [
        ("Wine shop, our house red comes in cases of 12, we sell single bottles.", "a case and a half a day, roughly",
         "18"),
        ("Stationery shop. Pens come in boxes of 10 but students buy them one at a time.", "about 3 boxes a day",
         "30"),
        ("We get soap in cartons of 20 and sell the bars individually", "2 cartons a day", "40"),
    ],
)
def test_an_owner_who_sells_singles_has_containers_multiplied_out(opening: str, demand: str, mean: str) -> None:
    agent, reply = _agent(opening, demand)
    assert f"About {mean} units a day" in reply, reply


def test_storage_in_cases_after_singles_is_multiplied() -> None:
    agent, _ = _agent("Wine shop, our house red comes in cases of 12, we sell single bottles.",
                      "about 18 bottles a day, random", "they go elsewhere", "no", "two months",
                      "4 cents a bottle per day", "7 dollars", "30 per order", "a fortnight", "30 cases")
    assert agent.table.value("max_inventory") == "360"


@pytest.mark.parametrize(
    ("demand", "expected"),
    [
        ("3 pallets of 40 a day, give or take 1", "normal(120,40)"),  # a bare spread after pallets: a pallet
        ("3 boxes of 5 reams a day, give or take 3 reams", "normal(15,3)"),  # the spread names its unit
    ],
)
def test_a_bare_spread_after_a_container_count(demand: str, expected: str) -> None:
    agent, _ = say(demand)
    assert agent.table.value("demand_distribution") == expected


@pytest.mark.parametrize(
    ("opening", "expected"),
    [
        ("3 crates of 24 a day, give or take 5", "normal(72,5)"),
        ("72 units per day, give or take 5", "normal(72,5)"),
        ("40 jars a day, plus or minus 6", "normal(40,6)"),
    ],
)
def test_a_spread_clause_qualifies_the_amount_before_it(opening: str, expected: str) -> None:
    agent, _ = say(opening)
    assert agent.table.value("demand_distribution") == expected
