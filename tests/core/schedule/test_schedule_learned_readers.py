"""School Scheduling reads priorities, 'both equally', 'tighten', definitions and adopting a shown option from
the learned intents (core/schedule/intents.toml) and the toolkit's `choose`, not from hand-written regexes:
phrasings the deleted regexes missed now act, and questions about the options do not adopt one."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent

BOUND = "add_objective_upper_bound"
WEIGHT = "change_objective_weight"
FIX = "fix_start_time"
SOLVE = "call_solver"
LOAD = "student_load_balancing"
DEV = "schedule_deviation"


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


def _tools(turn) -> list[str]:
    return [c["name"] for c in turn.tool_calls]


def _weights(turn) -> dict[str, float]:
    return {
        c["arguments"]["objective"]: c["arguments"]["weight"] for c in turn.tool_calls if c["name"] == WEIGHT
    }


def test_a_priority_next_to_a_school_request_is_not_lost():
    """The clause 'families come first' was dropped by the priority regex (no 'priority'/'matters most')."""
    turn = _agent().respond("Move Everett to 8:40 and families come first")
    assert _tools(turn)[0] == FIX and _weights(turn) == {DEV: 3.0}, turn.text


@pytest.mark.parametrize("text", ["buses matter just as much as families", "I care about both equally"])
def test_both_goals_equally_resets_the_weights(text: str):
    agent = _agent()
    assert _weights(agent.respond("Cost matters most to me")) == {LOAD: 3.0}
    turn = agent.respond(text)
    assert _weights(turn) == {LOAD: 1.0}, turn.text


def test_keep_going_tightens_the_last_limit():
    """'keep going' matched no tighten regex and fell through to the clarification menu."""
    agent = _agent()
    first = agent.respond("fewer buses please")
    again = agent.respond("keep going")
    assert _tools(again) == [BOUND, SOLVE], again.text
    assert again.objectives[LOAD] < first.objectives[LOAD]


@pytest.mark.parametrize("text", ["we'll run with option 3", "Let's go with option 3", "the third one please"])
def test_adopting_a_shown_option(text: str):
    agent = _agent()
    agent.respond("what are my options?")
    turn = agent.respond(text)
    assert _tools(turn) == [BOUND, BOUND, SOLVE], turn.text
    assert turn.objectives == pytest.approx({LOAD: 24.53, DEV: 11.5})


def test_the_last_one_counts_from_the_end_of_the_shown_list():
    agent = _agent()
    agent.respond("show me a couple of options")
    turn = agent.respond("go with the last one")
    assert _tools(turn) == [BOUND, BOUND, SOLVE], turn.text


@pytest.mark.parametrize(
    "text", ["how do option 1 and option 3 differ?", "which option would you recommend?"]
)
def test_a_question_about_the_options_adopts_nothing(text: str):
    agent = _agent()
    agent.respond("what are my options?")
    turn = agent.respond(text)
    assert _tools(turn) == [] and "option" in turn.text.lower()


def test_an_option_number_beyond_the_list_is_asked_about():
    agent = _agent()
    agent.respond("show me a couple of options")
    turn = agent.respond("go with option 5")
    assert _tools(turn) == [] and "2 options" in turn.text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("how is the change measured?", "**Schedule deviation** is"),  # the define regex read current values
        ("what do you mean by the peak?", "**Student load balancing** is"),
        ("what are these numbers?", "**Schedule deviation** is"),
    ],
)
def test_a_definition_question_gets_the_definition(text: str, says: str):
    turn = _agent().respond(text)
    assert _tools(turn) == [] and says in turn.text, turn.text


def test_a_question_about_the_current_value_gets_the_value():
    turn = _agent().respond("what's the peak now?")
    assert _tools(turn) == [] and "In proposal 1" in turn.text and "**" not in turn.text
