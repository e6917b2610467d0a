"""Session 35 (inv51a) classes, in our own phrasings, through the real `ExtractionAgent`: (1) a count of containers
with what each holds said in the same message ('5 trays a day, two dozen eggs in each') is multiplied out and the
size is kept for later counts; (2) a pack its name sizes, named as the unit ('we only sell it by the four-pack'),
divides demand said in its contents ('48 bottles a day' is 12 four-packs), read back, never written as 48."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say, table_values

_CONTAINERS_EACH_HOLDING = [
    ("we count everything by the egg", "we go through about 5 trays a day, two dozen eggs in each, it varies",
     "poisson(120)", "they deliver at most 40 trays at a time", "960"),
    ("the table should count single bottles", "roughly 3 crates a day, 20 bottles in each, it varies day to day",
     "poisson(60)", "the brewery sends up to 10 crates per order", "200"),
    ("we count it by the stem", "on average 8 bunches a day, ten stems in each, it's random",
     "poisson(80)", "the grower caps us at 25 bunches an order", "250"),
]  # fmt: skip


@pytest.mark.parametrize(("intro", "demand", "value", "order", "most"), _CONTAINERS_EACH_HOLDING)
def test_containers_with_what_each_holds_are_multiplied(
    intro: str, demand: str, value: str, order: str, most: str
) -> None:
    _, turn = say(intro, demand)
    assert table_values(turn)["demand_distribution"] == value, turn.assistant
    assert " × " in turn.assistant, turn.assistant  # read back


@pytest.mark.parametrize(("intro", "demand", "value", "order", "most"), _CONTAINERS_EACH_HOLDING)
def test_the_size_learned_multiplies_later_counts(intro: str, demand: str, value: str, order: str, most: str) -> None:
    agent, _ = say(intro, demand)
    agent.state.asked = "max_order"
    turn = agent.respond(order)
    assert table_values(turn)["max_order"] == most, turn.assistant


@pytest.mark.parametrize(
    ("intro", "demand", "value"),
    [
        ("We only sell this stout by the four-pack.", "about 48 cans a day, give or take 8", "normal(12,2)"),
        ("I sell our cider by the 6-pack, nothing else.", "roughly 90 bottles a day, plus or minus 12",
         "normal(15,2)"),
        ("we sell the sparkling water by the twelve-pack", "around 120 cans a day, give or take 24",
         "normal(10,2)"),
    ],
)  # fmt: skip
def test_demand_in_the_contents_of_the_pack_named_as_unit_is_divided(intro: str, demand: str, value: str) -> None:
    agent, turn = say(intro, demand)
    assert table_values(turn)["demand_distribution"] == value, turn.assistant
    assert " ÷ " in turn.assistant, turn.assistant  # read back
    assert not agent.table.conflicts


def test_the_pack_named_as_unit_keeps_cases_of_packs() -> None:
    agent, _ = say("We only sell this stout by the four-pack.", "about 48 cans a day, give or take 8")
    agent.state.asked = "max_inventory"
    turn = agent.respond("the back room fits 12 cases, six four-packs to a case")
    assert table_values(turn)["max_inventory"] == "72", turn.assistant
    agent.state.asked = "max_order"
    assert table_values(agent.respond("they ship 5 cases at once"))["max_order"] == "30"


@pytest.mark.parametrize(
    ("intro", "demand", "value"),
    [
        ("we sell them by the bunch", "about 9 bunches a day, ten tulips in each, give or take 3", "normal(9,3)"),
        ("we sell eggs by the tray", "roughly 7 trays a day, 30 eggs to a tray, plus or minus 2", "normal(7,2)"),
        ("I sell it by the crate", "around 4 crates a day, 24 bottles in each, give or take 1", "normal(4,1)"),
    ],
)
def test_the_container_named_as_unit_is_not_multiplied_by_its_size(intro: str, demand: str, value: str) -> None:
    _, turn = say(intro, demand)
    assert table_values(turn)["demand_distribution"] == value, turn.assistant
