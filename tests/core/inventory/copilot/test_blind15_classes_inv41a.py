"""Issue 27: the class blind batch 15 (b15, measured once at 5756c5a) found written wrong silently by the pack
sold — 'we sell X in cases of 6', then demand in an item word the statement did not name ('bottles'): the case
or the bottle is asked (`conflicts.count_basis`), and the answer sets the unit of storage and orders. Our own
phrasings, never b15's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

CASES = [
    ("We sell cider in cases of 12 at our farm shop.", "about 24 bottles a day, give or take 12", "bottles",
     "normal(2,1)", "normal(24,12)", "space for 10 cases", "120"),
    ("Deli here, we sell the olive oil in boxes of 4.", "roughly 8 bottles a day, random", "bottles",
     "poisson(2)", "poisson(8)", "the shelf holds 25 boxes", "100"),
    ("We sell honey in crates of 6, a small stall.", "around 12 jars a day, plus or minus 6", "jars",
     "normal(2,1)", "normal(12,6)", "room for 20 crates", "120"),
]  # fmt: skip


@pytest.mark.parametrize(("opening", "text", "word", "packs", "items", "storage", "total"), CASES)
def test_demand_in_the_item_word_of_a_pack_sold_is_asked(
    opening: str, text: str, word: str, packs: str, items: str, storage: str, total: str
) -> None:
    """Packs or bottles? Both readings are shown, neither is written before the owner says which."""
    agent, turn = _talk(opening, text, asked="demand_type")
    assert "demand_distribution" not in _values(turn), turn.assistant
    assert agent.table.conflicts and agent.table.conflicts[0].kind == "count_basis"
    assert f"(B) {word}" in turn.assistant


@pytest.mark.parametrize(("opening", "text", "word", "packs", "items", "storage", "total"), CASES)
def test_the_items_picked_count_storage_in_items(
    opening: str, text: str, word: str, packs: str, items: str, storage: str, total: str
) -> None:
    agent, _ = _talk(opening, text, asked="demand_type")
    turn = agent.respond(f"we count {word}")
    assert _values(turn).get("demand_distribution") == items, turn.assistant
    agent.state.asked = "max_inventory"
    turn = agent.respond(storage)
    assert _values(turn).get("max_inventory") == total, turn.assistant


@pytest.mark.parametrize(("opening", "text", "word", "packs", "items", "storage", "total"), CASES)
def test_the_demand_said_again_in_items_answers_items(
    opening: str, text: str, word: str, packs: str, items: str, storage: str, total: str
) -> None:
    """The same amount in bottles again is (B), never the packs it would be divided into."""
    agent, _ = _talk(opening, text, asked="demand_type")
    turn = agent.respond(text)
    assert _values(turn).get("demand_distribution") == items, turn.assistant


@pytest.mark.parametrize(("opening", "text", "word", "packs", "items", "storage", "total"), CASES)
def test_the_packs_picked_stay_the_unit(
    opening: str, text: str, word: str, packs: str, items: str, storage: str, total: str
) -> None:
    agent, _ = _talk(opening, text, asked="demand_type")
    turn = agent.respond("A")
    assert _values(turn).get("demand_distribution") == packs, turn.assistant
    agent.state.asked = "max_inventory"
    turn = agent.respond(storage)
    assert _values(turn).get("max_inventory") == storage.split()[-2], turn.assistant


@pytest.mark.parametrize(
    ("opening", "text", "demand"),
    [
        ("We sell cider in cases of 12 and we count cases.", "about 24 bottles a day, give or take 12",
         "normal(2,1)"),
        ("We sell burritos in boxes of 4.", "roughly 40 burritos a day, random", "poisson(10)"),
        ("Wine shop; we sell the rioja in cases of 6.", "about 5 cases a day, random", "poisson(5)"),
    ],
)  # fmt: skip
def test_a_pack_counted_or_its_named_contents_is_not_asked(opening: str, text: str, demand: str) -> None:
    """'and we count cases', a noun the statement named ('burritos'), or demand in the pack itself: no question."""
    agent, turn = _talk(opening, text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand, turn.assistant


def test_a_resumed_conversation_still_asks_the_case_or_the_bottle() -> None:
    """The pack sold only is kept with the table's snapshot (`DialogueState.memory`), so a resumed run asks too."""
    agent, _ = _talk("We sell cider in cases of 12 at our farm shop.", asked="time_horizon")
    resumed = ExtractionAgent()
    resumed.greeting()
    resumed.state.recall(agent.state.memory())
    resumed.state.asked = "demand_type"
    turn = resumed.respond("about 24 bottles a day, give or take 12")
    assert resumed.table.conflicts and resumed.table.conflicts[0].kind == "count_basis", turn.assistant
