"""Questions asked while the table is filled are answered, not read as values; 'not sure' gives neutral risk;
a bakery owner's one-message story keeps every cost, the horizon and a one-day lead time; how demand varies
is offered as consecutively labelled options."""

from __future__ import annotations

import re

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.nlu.risk import read_risk
from core.text.questions import is_question
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


@pytest.mark.parametrize(
    "text", ["what's a 5 on that scale?", "what is risk tolerance?", "huh?", "I don't understand", "is 3 ok?"]
)
def test_a_question_at_the_risk_step_explains_the_scale_and_asks_again(text: str) -> None:
    agent = _agent_at_risk_question()
    turn = agent.respond(text)
    assert turn.table["risk_tolerance"]["value"] is None
    assert "-10" in turn.assistant and "0 is neutral" in turn.assistant
    assert "I can't use that" not in turn.assistant
    assert turn.action == "ASK NEXT QUESTION" and agent.state.asked == "risk_tolerance"
    assert turn.assistant.endswith("how would you rate your business strategy?")


@pytest.mark.parametrize(
    "answer",
    [
        "not sure, average is fine",
        "no idea",
        "I don't know",
        "no preference",
        "idk",
        "doesn't matter",
        "you decide",
        "whatever",
    ],
)
def test_no_preference_is_the_neutral_default(answer: str) -> None:
    turn = _agent_at_risk_question().respond(answer)
    assert turn.table["risk_tolerance"]["value"] == "0"
    assert "neutral" in turn.assistant
    assert turn.action == "TERMINATE"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", "3"),
        ("3 out of 10", "3"),
        ("-2 I guess", "-2"),
        ("5 loaves", None),
        ("$5", None),
        ("5 days", None),
        ("5 units", None),
        ("low risk please", "-5"),
        ("safety first", "-5"),
        ("I can't afford surprises", "-5"),
        ("high risk, high reward", "5"),
        ("I don't care about risk, only the average", "0"),  # risk_neutral in the learned bank
    ],
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
        ("How about if demand doubles?", True),
        ("what happens if sales drop", True),
        ("huh?", True),
        ("I don't understand", True),
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


@pytest.mark.parametrize(
    ("text", "meaning"),
    [
        ("what does perishable mean?", "thrown away at the end of each day"),
        ("what is holding cost?", "keeping one unit in stock for one day"),
        ("what do you mean by lead time?", "between placing an order and receiving it"),
        ("what's a backlog?", "the customer waits"),
    ],
)
def test_a_question_naming_a_row_gets_its_meaning_and_sets_nothing(text: str, meaning: str) -> None:
    agent = ExtractionAgent()
    agent.greeting()
    agent.respond("Poisson, 5 a day")
    turn = agent.respond(text)
    assert meaning in turn.assistant
    assert "I can't use that" not in turn.assistant
    assert {k for k, row in turn.table.items() if row["value"]} == {"demand_type", "demand_distribution"}
    assert turn.assistant.endswith("wait until you restock (a backlog)?")


def test_confusion_gets_the_meaning_of_the_pending_question() -> None:
    agent = ExtractionAgent()
    agent.greeting()
    for text in UP_TO_RISK[:4]:
        agent.respond(text)
    assert agent.state.asked == "holding_cost"
    turn = agent.respond("huh?")
    assert "keeping one unit in stock for one day" in turn.assistant
    assert turn.table["holding_cost"]["value"] is None


@pytest.mark.parametrize(
    ("mean_text", "labels", "normal"),
    [("We sell about 20 a day", "(A)(B)(C)", "C"), ("we sell about 12 a week", "(A)(B)", "B")],
)
def test_demand_shape_options_are_labelled_consecutively(mean_text: str, labels: str, normal: str) -> None:
    agent = ExtractionAgent()
    agent.greeting()
    turn = agent.respond(mean_text)
    assert "".join(re.findall(r"\([A-Z]\)", turn.assistant)) == labels
    asked = agent.respond(normal)
    assert asked.action == "ASK CLARIFICATION" and "standard deviation" in asked.assistant
    assert asked.table["demand_distribution"]["value"] is None
    done = agent.respond("2")
    mean = "20" if "day" in mean_text else "1.7143"
    assert done.table["demand_distribution"]["value"] == f"normal({mean},2)"


def test_the_poisson_option_stays_available_while_the_spread_is_asked() -> None:
    agent = ExtractionAgent()
    agent.greeting()
    agent.respond("We sell about 20 a day")
    agent.respond("normal")
    assert agent.respond("A").table["demand_distribution"]["value"] == "poisson(20)"


def test_the_bakery_story_states_its_conversions() -> None:
    turn = ExtractionAgent().respond(BAKERY)
    assert "3 months = 90 days" in turn.assistant and "50 cents = $0.5" in turn.assistant


def test_a_question_about_an_option_does_not_pick_it() -> None:
    agent = ExtractionAgent()
    agent.greeting()
    agent.respond("we sell about 12 a week, give or take 3")
    turn = agent.respond("why would I pick option B?")
    assert turn.action == "ASK CLARIFICATION" and turn.table["demand_distribution"]["value"] is None
    assert "reply with its letter" in turn.assistant
    assert agent.respond("B").table["demand_distribution"]["value"] == "normal(1.7143,0.4286)"
