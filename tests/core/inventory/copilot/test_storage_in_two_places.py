"""Issue 27 (blind batches b11 and b15): storage said in two places joined by 'and' answering the storage question
adds up and is read back; the first place alone was written. Our own phrasings."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE, say
from tests.support.extraction_dialogues import table_values as _values


@pytest.mark.parametrize(
    ("answer", "total"),
    [
        ("70 fit in the garage and 30 in the van", "100"),
        ("25 in the back room and 15 on the counter", "40"),
        ("about 90 go in the cellar and 10 under the stairs", "100"),
    ],
)
def test_storage_in_two_places_adds_up(answer: str, total: str) -> None:
    turn = say(*TO_STORAGE, answer)[1]
    assert _values(turn).get("max_inventory") == total, turn.assistant
    assert f"= {total} units" in turn.assistant, turn.assistant


@pytest.mark.parametrize("answer", ["70 in the garage or 30 in the van", "70 fit in the garage, 30 of them on the top shelf"])
def test_alternatives_or_parts_are_no_sum(answer: str) -> None:
    turn = say(*TO_STORAGE, answer)[1]
    assert _values(turn).get("max_inventory") != "100", turn.assistant
