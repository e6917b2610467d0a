"""Session 35 (inv50a) classes, in our own phrasings, through the real `ExtractionAgent`: the counting unit
when the owner names their goods as a pack and its contents ('made up in boxes of 4', 'our lager four-packs')
and says demand in the contents: asked once, both readings shown; the answer fixes the unit."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE, say, table_values

_PACK_AND_CONTENTS = [
    ("Fresh pies, made up in boxes of 4.", "about 80 pies a day, give or take 8", "boxes", "normal(20,2)",
     "normal(80,8)"),
    ("We brew and can our lager four-packs.", "we shift about 40 cans a day in four-packs, plus or minus 8",
     "four-packs", "normal(10,2)", "normal(40,8)"),
    ("Cookies, packed in bags of 10.", "around 200 cookies a day, give or take 20", "bags", "normal(20,2)",
     "normal(200,20)"),
    ("Our honey is bottled in cases of 12.", "we sell about 36 jars a day, give or take 12", "cases",
     "normal(3,1)", "normal(36,12)"),
]  # fmt: skip


@pytest.mark.parametrize(("intro", "demand", "packs", "as_packs", "as_items"), _PACK_AND_CONTENTS)
def test_demand_in_the_contents_of_the_owners_pack_is_asked(
    intro: str, demand: str, packs: str, as_packs: str, as_items: str
) -> None:
    agent, turn = say(intro, demand)
    assert "demand_distribution" not in table_values(turn), turn.assistant
    assert [c.kind for c in agent.table.conflicts] == ["count_basis"], turn.assistant
    question = turn.assistant
    assert packs in question and "(A)" in question and "(B)" in question, question


@pytest.mark.parametrize(("intro", "demand", "packs", "as_packs", "as_items"), _PACK_AND_CONTENTS)
def test_the_answer_packs_fixes_the_unit(intro: str, demand: str, packs: str, as_packs: str, as_items: str) -> None:
    _, turn = say(intro, demand, f"count {packs}")
    assert table_values(turn)["demand_distribution"] == as_packs, turn.assistant


@pytest.mark.parametrize(("intro", "demand", "packs", "as_packs", "as_items"), _PACK_AND_CONTENTS)
def test_the_answer_single_items_keeps_the_contents(
    intro: str, demand: str, packs: str, as_packs: str, as_items: str
) -> None:
    _, turn = say(intro, demand, "single units")
    assert table_values(turn)["demand_distribution"] == as_items, turn.assistant


def test_a_restated_pack_count_answers_in_packs_and_later_packs_stay_packs() -> None:
    agent, turn = say(
        "We brew and can our lager four-packs.",
        "we shift about 40 cans a day in four-packs, plus or minus 8",
        "10 four-packs a day, give or take 2",
    )
    assert table_values(turn)["demand_distribution"] == "normal(10,2)", turn.assistant
    agent.state.asked = "max_order"
    assert table_values(agent.respond("one run makes 100 four-packs"))["max_order"] == "100"


def test_packs_picked_then_contents_are_divided_and_storage_in_packs_is_kept() -> None:
    agent, _ = say("Fresh pies, made up in boxes of 4.", "about 80 pies a day, give or take 8", "boxes")
    agent.state.asked = "max_inventory"
    assert table_values(agent.respond("the shelf holds 30 boxes"))["max_inventory"] == "30"
    agent.state.asked = "max_order"
    assert table_values(agent.respond("we can bake 200 pies at once"))["max_order"] == "50"


def test_items_picked_then_packs_are_multiplied() -> None:
    agent, _ = say("Cookies, packed in bags of 10.", "around 200 cookies a day, give or take 20", "single units")
    agent.state.asked = "max_inventory"
    assert table_values(agent.respond("room for 30 bags"))["max_inventory"] == "300"


@pytest.mark.parametrize(
    ("intro", "demand", "value"),
    [
        ("We can our own tomato soup.", "about 40 cans a day, give or take 5", "normal(40,5)"),
        ("I sell a craft cider by the four-pack.", "about 9 four-packs a day, give or take 2", "normal(9,2)"),
        ("We bottle our own kombucha.", "roughly 30 bottles a day, give or take 6", "normal(30,6)"),
    ],
)
def test_a_verb_or_an_explicit_unit_is_not_asked(intro: str, demand: str, value: str) -> None:
    agent, turn = say(intro, demand)
    assert table_values(turn)["demand_distribution"] == value, turn.assistant
    assert not agent.table.conflicts


@pytest.mark.parametrize(
    ("said", "total"),
    [
        ("we have 3 fridges, each holds 40", "120"),
        ("we have 3 of them, each holds 40", "120"),
        ("we've got 5 bins, each holds 12", "60"),
        ("we have 3 of them, each holds 40 units", "120"),
    ],
)
def test_holders_each_holding_the_same_multiply(said: str, total: str) -> None:
    _, turn = say(*TO_STORAGE, said)
    assert table_values(turn)["max_inventory"] == total, turn.assistant
    assert "each" in turn.assistant


def test_holders_joined_by_but_are_not_multiplied() -> None:
    _, turn = say(*TO_STORAGE, "3 shelves, but each holds 40")
    assert table_values(turn).get("max_inventory") != "40", turn.assistant
