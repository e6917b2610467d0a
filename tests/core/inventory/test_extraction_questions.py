"""Questions asked while the table is filled are answered, not read as values; 'not sure' gives neutral risk;
a bakery owner's one-message story keeps every cost, the horizon and a one-day lead time."""

from __future__ import annotations

import pytest

from core.inventory.extraction import ExtractionAgent
from core.inventory.nlu.cues import is_question
from core.inventory.nlu.risk import read_risk
from tests.support.extraction_dialogues import check_dialogue

UP_TO_RISK = (
    "Poisson, 5 a day",
    "customers leave",
    "no",
    "30 days",
    "$1",
    "$5",
    "$10",
    "2 days",
    "we can store 40",
    "at most 20 per order",
)
BAKERY = (
    "I run a small bakery. We sell about 20 loaves a day, bread spoils after a day, a missing sale costs 3 "
    "dollars, ordering has a 10 dollar fee, holding a loaf overnight costs 50 cents, delivery takes a day, plan "
    "for 3 months."
)


def _agent_at_risk_question() -> ExtractionAgent:
    agent = ExtractionAgent()
    agent.greeting()
    for text in UP_TO_RISK:
        turn = agent.respond(text)
    assert agent.state.asked == "risk_tolerance", turn.assistant
    return agent


def test_a_number_inside_a_question_is_not_the_risk_tolerance() -> None:
    agent = _agent_at_risk_question()
    turn = agent.respond("why should I order when I still have 5 loaves?")
    assert turn.table["risk_tolerance"]["value"] is None
    assert "-10" in turn.assistant and "neutral" in turn.assistant
    assert turn.action == "ASK NEXT QUESTION"


@pytest.mark.parametrize("answer", ["not sure, average is fine", "no idea", "I don't know", "no preference"])
def test_no_preference_is_the_neutral_default(answer: str) -> None:
    turn = _agent_at_risk_question().respond(answer)
    assert turn.table["risk_tolerance"]["value"] == "0"
    assert "neutral" in turn.assistant
    assert turn.action == "TERMINATE"


@pytest.mark.parametrize(
    ("text", "value"),
    [("3", "3"), ("3 out of 10", "3"), ("-2 I guess", "-2"), ("5 loaves", None), ("$5", None), ("5 days", None)],
)
def test_only_numbers_that_can_be_on_the_scale_count(text: str, value: str | None) -> None:
    found = read_risk(text)
    assert (found[0] if found else None) == value


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("why should I order when I still have 5 loaves?", True),
        ("what if demand goes up?", True),
        ("Is that a problem?", True),
        ("how about 5?", False),
        ("about 20 a day?", False),
        ("3", False),
    ],
)
def test_questions_are_told_from_answers(text: str, question: bool) -> None:
    assert is_question(text) is question


def test_a_what_if_question_gets_an_answer_and_the_pending_question() -> None:
    agent = ExtractionAgent()
    agent.greeting()
    agent.respond("We sell about 20 a day")
    turn = agent.respond("what if demand goes up?")
    assert "Policy Simulator" in turn.assistant and "(A)" in turn.assistant
    assert "order up to" not in turn.assistant


def test_the_bakery_story_keeps_every_fact() -> None:
    check_dialogue(
        (BAKERY,),
        {
            "penalty_cost": "3",
            "setup_cost": "10",
            "holding_cost": "0.5",
            "lead_time": "1",
            "time_horizon": "90",
            "perishability": "true",
        },
        "ASK CLARIFICATION",
    )
