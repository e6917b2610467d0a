"""Issue 27: classes blind batch b14 found in an opening message that writes rows from words that answer
nothing (measured once at 9870194 and 657d866 before any change for them). Our own phrasings, never the batch's."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_NUMBER_ROWS = ("lead_time", "time_horizon", "max_inventory", "max_order", "holding_cost", "penalty_cost",
                "setup_cost", "risk_tolerance", "demand_distribution")


def _numbers(opening: str) -> dict[str, str]:
    """The numeric rows an opening wrote (whether the goods spoil is another class's business)."""
    turn = say(opening)[1]
    return {k: v for k, v in _values(turn).items() if k in _NUMBER_ROWS}


# ---------------------------------------------------------------- 1. a clock time is never a number of days


@pytest.mark.parametrize(
    "opening",
    [
        "Morning. I have a small cake shop and the cheesecake is either sold out by 10 or still on the counter at "
        "closing. Want to get it right.",
        "Morning. Our bagels usually sell out by 9, some days they are still there at 6. Help me plan.",
        "Morning. I run a deli and the bagels are gone by 9 or sitting there at close. Want to sort it.",
        "Morning. Small bakery here, the baguettes sell out by 11 or sit there till close. Want to get it right.",
    ],
)
def test_a_clock_time_in_the_opening_writes_no_row(opening: str) -> None:
    """A greeting ('Morning') names no delivery time, and 'sell out by 9' is an hour, never 9 days."""
    assert _numbers(opening) == {}


@pytest.mark.parametrize(
    "opening",
    [
        "Morning. Cheese shop, the brie is 8 short or too much, never right. Want to get it right.",
        "Morning! Cheese shop, the brie is 8 short or too much, never right. Want to get it right.",
        "Morning all. Cheese shop, the brie is 8 short or too much, never right. Want to get it right.",
    ],
)
def test_an_unasked_number_without_a_unit_after_a_greeting_writes_no_row(opening: str) -> None:
    assert _numbers(opening) == {}


# ---------------------------------------------------------------- 2. a pack's name is never an amount of days


@pytest.mark.parametrize(
    "opening",
    [
        "Planning how often to bottle and can our cider 4-packs.",
        "Planning how often to brew and bottle our stout twelve-packs.",
        "Planning how often to mix and can our seltzer 8-packs.",
        "Planning how often to bake and box our cookie 4-packs.",
    ],
)
def test_the_size_in_a_packs_name_is_no_span_of_days(opening: str) -> None:
    """A six-pack is an item: 'how often ... our 4-packs' plans no 4 days."""
    assert _numbers(opening) == {}


# ---------------------------------------------------------------- 3. one item's weight, said beside its name

_WEIGHED = [
    ("I sell cod loins, about 250 g each.", "we sell about 10 kilos a day", "40"),
    ("Deli. Our hams are around 4 kg each.", "we sell about 20 kilos a day", "5"),
    ("Cheese shop here. Our wheels are about 2 kilos each.", "about 30 kilos a day", "15"),
    ("I'm a butcher. Lamb shoulders, roughly one and a half kilos each.", "we sell about 30 kilos a day", "20"),
]


@pytest.mark.parametrize(("opening", "demand", "items"), _WEIGHED)
def test_one_items_weight_counts_demand_said_in_weight(opening: str, demand: str, items: str) -> None:
    """'about 250 g each' sizes the item, as 'we pack it in half-kilo trays' does: kilos a day become items."""
    turn = say(opening, demand)[1]
    assert f"= {items} units" in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    "opening",
    [
        "I'm a fishmonger. Salmon steaks, about half a kilo each.",
        "I'm a fishmonger. Sea bass, roughly half a kilo each.",
        "I'm a fishmonger. Tuna steaks, about half a kilo each.",
    ],
)
def test_half_a_kilo_each_is_no_risk_answer(opening: str) -> None:
    """A weight joins no clause the classifier took for the risk score ('I'm a fishmonger')."""
    turn = say(opening)[1]
    assert "risk" not in turn.assistant, turn.assistant
