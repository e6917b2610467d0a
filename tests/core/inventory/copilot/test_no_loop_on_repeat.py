"""No dead ends (issue 27 item 3): a loss said as 'every time someone leaves' answers the penalty question asked;
the same unplaced reply twice is put to the user as a yes/no for the row asked, never re-asked forever and never
written unconfirmed; a filled row read again with its own value is no 'what you said gave me ...' news."""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import say

_OPENING = (
    "liquor store, plan 30 days, about 10 a day at random, customers leave if out, nothing spoils, holding 5 cents "
    "a unit a day, room for 50"
)


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("I'm down 6 every time somebody walks out", "6"),
        ("it's 8 bucks every time a guy leaves empty-handed", "8"),
        ("4 every time a customer goes elsewhere", "4"),
    ],
)
def test_loss_every_time_someone_leaves_answers_the_penalty_asked(answer: str, value: str) -> None:
    agent, turn = say(_OPENING, answer)
    assert turn.table["penalty_cost"]["value"] == value, turn.assistant
    assert turn.table["setup_cost"]["value"] is None


def test_a_charge_every_time_is_still_the_setup_cost_although_the_penalty_was_asked() -> None:
    _, turn = say(_OPENING, "the van charges 12 every time")
    assert turn.table["setup_cost"]["value"] == "12"
    assert turn.table["penalty_cost"]["value"] is None


@pytest.mark.parametrize(
    ("answer", "value"), [("we're talking 7 here", "7"), ("the 7 hurts", "7"), ("the 6 hurts", "6")]
)
def test_the_same_unplaced_reply_twice_is_put_to_the_user_not_looped(answer: str, value: str) -> None:
    agent, first = say(_OPENING, answer)
    assert first.table["penalty_cost"]["value"] is None
    second = agent.respond(answer)
    assert second.table["penalty_cost"]["value"] is None  # asked, never written
    assert f"penalty cost = {value}" in second.assistant and "(yes)" in second.assistant, second.assistant
    assert agent.respond("yes").table["penalty_cost"]["value"] == value


@pytest.mark.parametrize("answer", ["rent is 5 grand", "I pay 9 a bottle and sell at 14"])
def test_a_repeated_business_cost_or_price_is_never_offered_as_the_row(answer: str) -> None:
    agent, _ = say(_OPENING, answer)
    second = agent.respond(answer)
    assert "(yes)" not in second.assistant, second.assistant
    assert second.table["penalty_cost"]["value"] is None


def test_a_filled_row_read_again_with_its_own_value_is_no_news() -> None:
    _, turn = say(_OPENING, "a fiver gone, folks go elsewhere")
    assert "what you said gave me" not in turn.assistant, turn.assistant
    assert "could not find" in turn.assistant


@pytest.mark.parametrize(
    ("answer", "middle"),
    [("one or two a day, quite random", "1.5"), ("two or three a day", "2.5"), ("five or six a day, it jumps", "5.5")],
)
def test_two_typical_amounts_in_words_put_the_middle_to_the_user(answer: str, middle: str) -> None:
    _, turn = say("bookshop, plan 30 days", answer)
    assert turn.table["demand_distribution"]["value"] is None, turn.assistant
    assert f"around {middle}" in turn.assistant, turn.assistant


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("for one six-pack, say 4 cents a day", "0.04"),
        ("for one crate, 30 cents a day", "0.3"),
        ("one box? about 2 cents a day", "0.02"),
    ],
)
def test_one_pack_named_beside_a_cost_is_no_dollar(answer: str, value: str) -> None:
    _, turn = say("corner shop, plan 30 days, about 10 a day at random, customers leave, nothing spoils", answer)
    assert turn.table["holding_cost"]["value"] == value, turn.assistant
    assert "1 USD" not in turn.assistant


@pytest.mark.parametrize(
    "opening",
    [
        "Autumn's coming and I want to get the firewood right this year.",
        "Christmas is coming and I want to stock the crackers properly this year.",
        "Exams are coming and I need the notebooks right this month.",
    ],
)
def test_an_unasked_span_with_nothing_to_plan_over_is_no_horizon(opening: str) -> None:
    _, turn = say(opening)
    assert turn.table["time_horizon"]["value"] is None, turn.assistant


@pytest.mark.parametrize(
    ("opening", "days"),
    [("Toy shop, I want to plan for this year", "365"), ("Kiosk, looking at the next 10 days", "10")],
)
def test_a_span_to_plan_over_is_still_read_unasked(opening: str, days: str) -> None:
    _, turn = say(opening)
    assert turn.table["time_horizon"]["value"] == days, turn.assistant
