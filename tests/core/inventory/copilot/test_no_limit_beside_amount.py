"""Issue 27 item 2 (blind batch b11, b11-02): 'no limit' said beside an amount of items for the order cap is put
to the user, never written as 'as much as fits in storage' (nor as the amount). Our own phrasings."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import TO_STORAGE, say
from tests.support.extraction_dialogues import table_values as _values

_TO_ORDER_CAP = (*TO_STORAGE, "300 units")


@pytest.mark.parametrize(
    ("answer", "amount"),
    [
        ("no hard cap, but a truckload is 120 and I would never go past that", "120"),
        ("no real cap, though 80 units is the most that makes sense for us", "80"),
        ("there's no limit really, a crate is 60 and one crate is my max", "60"),
    ],
)
def test_no_limit_beside_an_amount_is_asked(answer: str, amount: str) -> None:
    """The max order stays empty and the question names the amount and the 'as much as fits' reading."""
    turn = say(*_TO_ORDER_CAP, answer)[1]
    assert _values(turn).get("max_order") is None, turn.assistant
    assert amount in turn.assistant and "300" in turn.assistant, turn.assistant


def test_the_amount_chosen_is_written() -> None:
    turn = say(*_TO_ORDER_CAP, "no real cap, though 80 units is the most that makes sense for us", "A")[1]
    assert _values(turn).get("max_order") == "80", turn.assistant


@pytest.mark.parametrize("answer", ["no limit", "there's no limit, as many as we want"])
def test_a_plain_no_limit_still_means_as_much_as_fits(answer: str) -> None:
    turn = say(*_TO_ORDER_CAP, answer)[1]
    assert _values(turn).get("max_order") == "300", turn.assistant
