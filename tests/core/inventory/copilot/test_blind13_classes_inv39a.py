"""Issue 27: classes blind batch b13 found (measured once, 12 / 20 exact, before any change for them). Our own
phrasings, never the batch's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.turn import CopilotTurn
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def _say(*texts: str) -> CopilotTurn:
    return say(*texts)[1]


# ---------------------------------------------------------------- 1. a weekly demand beside a daily figure


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("we shift roughly 42 bags a week, that's 6 a day, give or take 2", "normal(6,2)"),
        ("around 70 loaves every week, so 10 a day, plus or minus 3", "normal(10,3)"),
        ("my manager reckons 56 a week. my brother says 9 a day, but honestly it's nearer 8, give or take 2",
         "normal(8,2)"),
        ("about 60 tins a week; on a normal day it's 12 a day, give or take 3", "normal(12,3)"),
    ],
)  # fmt: skip
def test_a_daily_figure_beside_a_weekly_one_is_the_demand(message: str, expected: str) -> None:
    """The daily figure is the demand; the weekly one is never divided into it (was normal(6/7, ...) and the
    weekly (A)/(B) question)."""
    turn = _say("a corner shop", message)
    assert _values(turn).get("demand_distribution") == expected, turn.assistant


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("6 a day on average, plus or minus 2", "normal(6,2)"),
        ("it's 7 bags a day, give or take 1", "normal(7,1)"),
        ("per day? about 9 on average, give or take 3", "normal(9,3)"),
    ],
)
def test_daily_figures_answer_the_weekly_question(answer: str, expected: str) -> None:
    """Daily figures given to 'Reply yes (or A), B, or give me daily figures' are the demand (the 'a' of '6 a
    day' was read as option A and the weekly conversion written silently)."""
    first = _say("a corner shop", "about 42 bags a week, give or take 7")
    assert "give me daily figures" in first.assistant, first.assistant
    turn = _say("a corner shop", "about 42 bags a week, give or take 7", answer)
    assert _values(turn).get("demand_distribution") == expected, turn.assistant


def test_a_daily_mean_answering_the_weekly_question_asks_how_it_varies() -> None:
    turn = _say("a corner shop", "about 42 bags a week, give or take 7", "roughly 5 a day")
    assert _values(turn).get("demand_distribution") is None, turn.assistant
    assert "how does it vary" in turn.assistant, turn.assistant


@pytest.mark.parametrize("answer", ["yes", "A", "B"])
def test_the_options_still_answer_the_weekly_question(answer: str) -> None:
    turn = _say("a corner shop", "about 42 bags a week, give or take 7", answer)
    assert _values(turn).get("demand_distribution") in ("normal(6,2.6458)", "normal(6,1)"), turn.assistant
