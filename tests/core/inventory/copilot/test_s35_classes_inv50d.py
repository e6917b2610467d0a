"""Issue 27, session 35 (inv50d): 'a quarter' before a measure is a size, not a quarter-year; a bare number
after a shipping verb ('the supplier ships 24') is a quantity, not a lead time. Our own phrasings."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

# ---------------------------------------------------------------- 1. 'a quarter kilo' is a size, no horizon


@pytest.mark.parametrize(
    "text",
    [
        "we portion the cheese, a quarter kilo each, roughly 30 a day",
        "I grill burgers, a quarter-pound each, about 70 a day",
        "we bag coffee in a quarter pound, maybe 25 bags a day",
    ],
)
def test_a_quarter_before_a_measure_is_no_horizon(text: str) -> None:
    _, turn = say(text)
    assert "time_horizon" not in _values(turn)


def test_the_next_quarter_is_still_a_horizon() -> None:
    _, turn = say("about 20 a day, it varies", "they go elsewhere", "no, it keeps", "over the next quarter")
    assert _values(turn)["time_horizon"] == "90"


# ---------------------------------------------------------------- 2. 'ships 24' is a quantity, no lead time


@pytest.mark.parametrize(
    "text",
    [
        "the supplier delivers 48",
        "the distributor sends 24",
        "the supplier sends 24",
    ],
)
def test_a_number_shipped_is_no_lead_time(text: str) -> None:
    _, turn = say("I sell flour, about 30 bags a day, it varies", text)
    assert "lead_time" not in _values(turn)


def test_ships_in_a_number_is_still_a_wait() -> None:
    _, turn = say("I sell flour", "lead time: the wholesaler ships in 4")
    assert _values(turn)["lead_time"] == "4"
