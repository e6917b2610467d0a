"""'We use about 25 reams a day, no wait, 30': the count with its rate is taken back, not the rate alone (blind
batch 16, b16-18, wrote demand 25 and set aside 'a day')."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say


@pytest.mark.parametrize(
    ("text", "demand"),
    [
        ("We use about 25 reams a day, no wait, 30, varies.", "poisson(30)"),
        ("we go through 40 widgets a day, sorry, 45, it jumps around", "poisson(45)"),
        ("about 12 gizmos a day, no, 14, random", "poisson(14)"),
    ],
)
def test_a_count_with_an_unknown_item_word_is_corrected_whole(text: str, demand: str) -> None:
    agent, _ = say(text)
    assert agent.table.value("demand_distribution") == demand
