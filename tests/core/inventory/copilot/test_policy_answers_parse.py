"""Questions about the computed policy read through the one parse (issue 27 item 5): the cues are the parse's
words, the numbers its mentions ('the 90-day plan' is a span, 'order 20 daily' a fixed daily order)."""

from __future__ import annotations

import pytest

from core.inventory.copilot.policy_answers import (
    _SIMPLE_RULE,
    _chooses,
    answer_question,
    demand_factor,
    fixed_daily_order,
)
from core.text.mentions import parse
from tests.core.inventory.copilot.test_interpretation import SMALL
from tests.core.inventory.copilot.test_policy_words import _brief_for


@pytest.fixture(scope="module")
def brief():
    return _brief_for(SMALL, "sS")


def test_a_kind_of_cost_said_in_two_words_is_named_and_scaled_to_the_span(brief) -> None:
    said = answer_question(brief, "what do stock outs cost me over a 90-day season?")
    penalty = brief.costs["sS"]["penalty"]
    assert "shortage penalties come to about" in said
    assert f"over 90 days at the same daily rate that is about ${penalty / 20 * 90:,.2f}" in said


def test_a_span_needs_a_number_a_day_is_no_span(brief) -> None:
    said = answer_question(brief, "how much does holding cost a day?")
    assert "holding costs come to about" in said and "at the same daily rate" not in said
    assert "over 14 days" in answer_question(brief, "what would it cost over two weeks?")


@pytest.mark.parametrize(
    ("text", "daily"),
    [
        ("why not just order 20 every day?", 20),
        ("what if we order 20 daily?", 20),
        ("every day, just order 7", 7),
        ("reorder three each day", 3),
        ("order 20 bags every day", None),
        ("I order 5 a week", None),
        ("customers want 20 a day", None),
    ],
)
def test_a_fixed_daily_order_is_a_count_per_day_after_an_ordering_verb(text: str, daily: int | None) -> None:
    assert fixed_daily_order(parse(text)) == daily


def test_choosing_words_are_whole_words() -> None:
    assert _chooses(parse("OK, I'll go with the simpler rule").words(), _SIMPLE_RULE)
    assert _chooses(parse("let's use (s, S)").words(), _SIMPLE_RULE)
    assert not _chooses(parse("it takes the simple route").words(), _SIMPLE_RULE)
    assert demand_factor("what if sales go up thirty percent") == pytest.approx(1.3)
