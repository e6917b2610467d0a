"""Issue 27, session 35 (inv50c): classes b15 found, fixed generically and tested with our own phrasings through
the real `ExtractionAgent` (never the batch's sentences)."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

# --- 1. a part of a money unit ('a tenth of a cent') is the unit times the part ----------------------------

PARTS = [
    ("holding_cost", "each jar costs us a tenth of a cent a day to keep", "0.001"),
    ("holding_cost", "I'd put it at a quarter of a penny per item per day", "0.0025"),
    ("holding_cost", "roughly a fifth of a cent per bottle each day", "0.002"),
    ("penalty_cost", "a missed sale costs me a third of a dollar", "0.3333"),
    ("setup_cost", "every order costs a tenth of a dollar in paperwork", "0.1"),
]


@pytest.mark.parametrize(("row", "text", "value"), PARTS)
def test_a_part_of_a_money_unit_is_the_unit_times_the_part(row: str, text: str, value: str) -> None:
    """'a tenth of a cent' is $0.001, never a whole cent ($0.01) nor a dollar."""
    _, turn = _talk("a corner shop", text, asked=row)
    assert _values(turn).get(row) == value, turn.assistant
