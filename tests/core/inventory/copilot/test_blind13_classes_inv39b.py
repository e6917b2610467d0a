"""Issue 27: container classes blind batch b13 found (measured once, 12 / 20 before any change for them). Our
own phrasings, never the batch's, through the real offline `ExtractionAgent`."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE, say
from tests.support.extraction_dialogues import table_values as _values

_TO_STORAGE = TO_STORAGE


# ---------------------------------------------------------------- 1. 'N items on a / a / per <container>'


@pytest.mark.parametrize(
    ("storage", "total", "read_back"),
    [
        ("the walk-in takes 10 crates, 24 rolls on a crate", "240", "10 crates × 24 = 240"),
        ("we've room for 8 buckets, 15 roses a bucket", "120", "8 buckets × 15 = 120"),
        ("the shelf holds 6 boxes, 20 jars per box", "120", "6 boxes × 20 = 120"),
        ("the back room fits four pallets, fifty sacks on a pallet", "200", "4 pallets × 50 = 200"),
    ],
)
def test_a_size_said_as_items_on_or_per_a_container_multiplies_the_count(
    storage: str, total: str, read_back: str
) -> None:
    """The count of containers times the size said after it is the storage, read back; never (A) 10 (B) 24."""
    turn = say(*_TO_STORAGE, storage)[1]
    assert _values(turn).get("max_inventory") == total, turn.assistant
    assert read_back in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    "money",
    [
        "the courier charges 8 a box",
        "I pay 12 dollars per crate",
        "it's 3 a tray",
        "it sells for 9 and costs me 5, so 4 lost per tray",
        "a sack costs 3 and sells for 4.75, so 1.75 gone per sack",
        "we clear about a dollar forty on a tray",
        "I make 2 dollars thirty on each crate",
    ],
)
def test_money_or_a_bare_number_a_container_is_no_size(money: str) -> None:
    """An amount with no item word before 'a box' / 'per crate' (or a loss word: 'lost', or not a whole count)
    stays what it was: never a container size."""
    from core.text.mentions import container_sizes, parse

    assert container_sizes(parse(money)) == {}, money


# ---------------------------------------------------------------- 2. a size said earlier converts later counts


@pytest.mark.parametrize(
    ("storage", "order", "inventory", "limit", "read_back"),
    [
        ("the rack takes 6 trays, 10 pies on a tray", "no more than 2 trays per order", "60", "20", "2 trays × 10"),
        ("we fit 12 buckets, 25 tulips a bucket", "they ship at most 5 buckets a time", "300", "125", "5 buckets × 25"),
        ("space for 30 cases, 6 bottles per case", "max 10 cases in one order", "180", "60", "10 cases × 6"),
    ],
)
def test_a_size_said_in_the_storage_answer_converts_the_order_limit(
    storage: str, order: str, inventory: str, limit: str, read_back: str
) -> None:
    turn = say(*_TO_STORAGE, storage, order)[1]
    values = _values(turn)
    assert values.get("max_inventory") == inventory and values.get("max_order") == limit, turn.assistant
    assert read_back in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("storage", "total"),
    [
        ("the rack takes four trays, ten loaves on a tray", "40"),
        ("our shelf fits 3 crates, eight loaves a crate", "24"),
        ("we keep 5 boxes, 9 loaves per box", "45"),
    ],
)
def test_the_size_phrase_with_an_item_word_is_set_aside_whole(storage: str, total: str) -> None:
    """The size phrase leaves the message whole before the rows read it ('ten loaves on a tray' was read as a
    second candidate, 10, beside 4 trays × 10 = 40)."""
    turn = say(*_TO_STORAGE, storage)[1]
    assert _values(turn).get("max_inventory") == total, turn.assistant
