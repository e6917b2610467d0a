"""Issue 13, Inventory Copilot: the offline agent never writes a value the user did not give, never dead-ends,
answers questions at any stage, keeps order questions in context and runs what-if simulations."""

from __future__ import annotations

import pytest

from core.inventory.copilot.dialogue import ASK_CLARIFICATION, TERMINATE
from core.inventory.copilot.extraction import ExtractionAgent

TRAPS: list[tuple[str, str | None]] = [
    # clock times are no quantities
    ("No no, not 5 days! 5pm is the cutoff time", "max_inventory"),
    ("The truck comes at 7am", "lead_time"),
    ("We open at 9 and close at 5pm", "max_inventory"),
    ("Orders placed after 3 p.m. ship the day after", "max_order"),
    ("I call them at 10:30 every morning", "time_horizon"),
    # prices of other things, running costs, several amounts
    ("We sell them for $3.50", "penalty_cost"),
    ("A loaf sells at $4", "holding_cost"),
    ("We sell them for $3.50, so I'd lose the $2.30 margin", "penalty_cost"),
    ("Shipping is $5 or maybe $8", "setup_cost"),
    ("I pay my staff $15 an hour", "holding_cost"),
    ("Rent is $2000 a month", "holding_cost"),
    ("Holding is $1, the other shop pays $2", "holding_cost"),
    # fees per week or month are not per order
    ("a $15 delivery fee per week", None),
    ("we pay $40 a month for deliveries", "setup_cost"),
    ("the courier charges $100 per year", "setup_cost"),
    # physical units are not days, items or dollars per item
    ("Plan for 3 light-years", None),
    ("Holding is $2 per kg per day", None),
    ("We can store 50 kg", None),
    ("storage costs $1 per litre per day", None),
    ("Lead time is 3 miles", None),
    ("our shelf holds 40 gallons", None),
    ("Our supplier is 30 miles away", "lead_time"),
    # denied values are never read
    ("Lead time is not 3 days", None),
    ("It's not $5 per order", None),
    ("Capacity isn't 100 units", None),
    # noise and escape sequences
    ("\x1b[31m\x1b[0m", "demand_distribution"),
    ("\x1b[1;32mhello\x1b[0m", "max_inventory"),
    ("asdfghjkl", "lead_time"),
    ("🙂🙂🙂", None),
    # questions are answered, never read as values
    ("what does risk-seeking even mean for a bakery?", "risk_tolerance"),
    ("what is a holding cost?", "holding_cost"),
    ("Why do you need the lead time?", "lead_time"),
    ("What's the difference between a backlog and a lost sale?", "state_transition_model"),
    ("which one would you recommend?", "risk_tolerance"),
    # past spans, percentages, order questions
    ("We've been open 3 years", "time_horizon"),
    ("I called them 2 days ago", "lead_time"),
    ("We're 20% busier in summer", "max_inventory"),
    ("Holding is about 25% a year", "holding_cost"),
    ("we have 10 in stock, how many should I order?", None),
    ("Deliveries come on Mondays", "lead_time"),
    ("I'm 45 years old", "risk_tolerance"),
]


def _agent(asked: str | None, **values: str) -> ExtractionAgent:
    agent = ExtractionAgent()
    agent.greeting()
    for key, value in values.items():
        agent.table.set(key, value)
    agent.state.asked = asked
    return agent


def _values(turn) -> dict[str, str | None]:
    return {k: row["value"] for k, row in turn.table.items()}


def test_the_trap_corpus_is_large_enough():
    assert len(TRAPS) >= 40


@pytest.mark.parametrize(("text", "asked"), TRAPS, ids=[f"{i:02d}" for i in range(len(TRAPS))])
def test_a_trap_leaves_the_table_unchanged_and_asks(text: str, asked: str | None):
    agent = _agent(asked, lead_time="3")
    before = agent.table.to_dict()
    turn = agent.respond(text)
    assert turn.table == before, turn.assistant
    assert "?" in turn.assistant


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Holding cost is not $2, it is $1", "holding_cost", "1"),
        ("Lead time is not 3 days, it's 5", "lead_time", "5"),
        ("Lead time used to be 5 days but now it's 2", "lead_time", "2"),
        ("holding is $2, sorry, $1.50 per unit per day", "holding_cost", "1.5"),
        ("If I call before 5pm they bring them the next morning", "lead_time", "1"),
        ("Whoever comes after we sell out just leaves.", "state_transition_model", "lost_sale"),
    ],
)
def test_the_value_the_user_ends_on_is_kept(text: str, key: str, value: str):
    turn = _agent(None).respond(text)
    assert _values(turn)[key] == value, turn.assistant


def test_two_fifty_and_its_digits_agree():
    turn = _agent("setup_cost").respond("Two fifty per order, so $2.50.")
    assert _values(turn)["setup_cost"] == "2.5" and turn.action != ASK_CLARIFICATION


def test_an_explicit_correction_is_applied_directly():
    agent = _agent(None)
    agent.respond("the horizon is 30 days")
    turn = agent.respond("that's wrong, it's 60")
    assert _values(turn)["time_horizon"] == "60" and turn.action != ASK_CLARIFICATION


def test_a_backorder_answer_to_the_penalty_question_is_taken_for_its_own_row():
    agent = _agent("penalty_cost", lead_time="3")
    turn = agent.respond("Patients place an order and pick it up when it arrives, so backorders.")
    assert _values(turn)["state_transition_model"] == "backlog"
    assert "lead time" not in turn.assistant.split("?")[0].split("(I asked")[0].replace("Noted", "")
    assert "I asked about the penalty cost" in turn.assistant


def test_a_risk_attitude_in_everyday_words_is_understood():
    agent = _agent("risk_tolerance")
    turn = agent.respond("I'm fairly careful with money I guess")
    assert turn.action == ASK_CLARIFICATION and "-5" in turn.assistant
    assert _values(agent.respond("ok A I guess"))["risk_tolerance"] == "-5"


@pytest.mark.parametrize(
    "answer", ["ok A I guess", "B obviously", "the second one", "b", "let's go with (A)"]
)
def test_choice_answers_in_any_form(answer: str):
    agent = _agent(None, penalty_cost="3")
    agent.respond("each lost sale costs $5")
    assert agent.table.conflicts, "a changed value opens a keep-or-change question"
    turn = agent.respond(answer)
    assert not agent.table.conflicts, turn.assistant
    assert _values(turn)["penalty_cost"] in ("3", "5")


def test_no_question_is_asked_a_third_time_in_the_same_words_and_skip_records_an_assumption():
    agent = _agent(None)
    for key, value in {"demand_type": "random", "demand_distribution": "poisson(5)"}.items():
        agent.table.set(key, value)
    asked = [agent.respond(noise).assistant for noise in ("blah", "blah blah", "hmm", "no idea really")]
    questions = [a[a.rfind(". ") :] for a in asked]
    assert all(questions.count(q) <= 2 for q in questions)
    assert "skip" in asked[2]
    turn = agent.respond("skip")
    assert _values(turn)["state_transition_model"] == "lost_sale"
    assert "assum" in turn.assistant
    assert agent.state.assumptions["state_transition_model"]


def test_a_business_figure_skipped_twice_gets_a_labelled_placeholder():
    agent = _agent("holding_cost")
    first = agent.respond("use a default")
    assert _values(first)["holding_cost"] is None and "skip" in first.assistant
    second = agent.respond("skip")
    assert _values(second)["holding_cost"] == "0.1" and "placeholder" in second.assistant


def test_skipped_rows_are_listed_as_assumptions_in_the_summary():
    agent = _agent(None)
    for key, value in {
        "demand_type": "random", "demand_distribution": "poisson(5)", "state_transition_model": "lost_sale",
        "perishability": "false", "time_horizon": "30", "holding_cost": "0.5", "penalty_cost": "4",
        "setup_cost": "3", "lead_time": "1", "max_inventory": "40", "max_order": "20",
    }.items():  # fmt: skip
        agent.table.set(key, value)
    agent.state.asked = "risk_tolerance"
    turn = agent.respond("use a default")
    assert turn.action == TERMINATE and "Assumptions you agreed to: risk tolerance" in turn.assistant


def test_questions_get_answers_not_values():
    agent = _agent("risk_tolerance")
    turn = agent.respond("what does risk-seeking even mean for a bakery?")
    assert "-10" in turn.assistant and not agent.table.conflicts
    assert _values(turn)["risk_tolerance"] is None
