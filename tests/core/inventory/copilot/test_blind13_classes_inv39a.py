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


# ---------------------------------------------------------------- 2. two amounts joined for one row add up

_TO_CAP = ("a pharmacy", "5 a day give or take 1", "they wait", "no", "90 days", "10 cents", "2 dollars",
           "3 dollars", "2 days", "100")  # fmt: skip


@pytest.mark.parametrize(
    ("answer", "total", "read_back"),
    [
        ("the most they let us have is 24 in one crate plus 6 in a bag, that's it", "30", "24 + 6 = 30"),
        ("we get 15 in one carton + 5 in a small one", "20", "15 + 5 = 20"),
        ("they send 40 in a box plus 8 loose, never more", "48", "40 + 8 = 48"),
        ("12 on the pallet and 6 more in the van", "18", "12 + 6 = 18"),
    ],
)
def test_amounts_joined_for_the_order_cap_add_up(answer: str, total: str, read_back: str) -> None:
    """'one crate' / 'a box' holding a counted amount is no amount of 1 (was '1 + 6 = 7' and 24 written)."""
    turn = _say(*_TO_CAP, answer)
    assert _values(turn).get("max_order") == total, turn.assistant
    assert read_back in turn.assistant, turn.assistant
