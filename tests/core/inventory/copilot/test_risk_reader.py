"""The risk answer in words is read by the learned dialogue acts (risk_averse / risk_seeking / risk_neutral /
skip in core/inventory/intents.toml) and graded by the toolkit's `intensity`; a number on the scale is read as
before. Below the act's confidence nothing is read and the agent asks for a number."""

from __future__ import annotations

import pytest

from core.inventory.copilot.dialogue import ASK_CLARIFICATION
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.nlu.risk import read_risk, unsure


def _value(text: str) -> str | None:
    found = read_risk(text)
    return found[0] if found else None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # phrasings the deleted regex chain did not read (it returned None for each)
        ("running out now and then doesn't bother me", "5"),
        ("we're pretty nervous about empty shelves", "-5"),
        ("I don't mind the odd empty shelf if it saves money", "5"),
        ("we can't have the shelves empty, ever", "-5"),
        ("we tend to overstock just in case", "-5"),
        ("I'm happy to run it lean", "5"),
        ("cutting it close is fine with me", "5"),
        ("let's keep things lean and accept a few shortages", "5"),
        ("I'd rather have spare bread than turn customers away", "-5"),
        # the sentence, and phrasings it read before
        ("I'm fairly careful with money I guess", "-5"),
        ("I'm on the conservative side", "-5"),
        ("low risk please", "-5"),
        ("safety first", "-5"),
        ("high risk, high reward", "5"),
        # strength from the toolkit's word list
        ("I'm a very cautious person", "-8"),
        ("just a little cautious", "-2"),
        ("very aggressive please", "8"),
        ("slightly risk-seeking", "2"),
        # neutral words and no preference: 0
        ("neutral", "0"),
        ("somewhere in the middle", "0"),
        ("no preference", "0"),
        ("no idea", "0"),
        # numbers on the scale are slots, read as before
        ("3 out of 10", "3"),
        ("minus 4", "-4"),
        ("5 loaves", None),
    ],
)
def test_a_risk_answer_in_words(text: str, value: str | None) -> None:
    assert _value(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "the safe is in the back room",
        "careful, the shop is busy today",
        "be careful with the numbers",
        "we sell safety pins too",
        "I keep the cash in a safe",
        "the bread must be handled carefully",
        "my cat is called Lucky",
        "I'm 45 years old",
        "hmm",
        "what does risk-seeking even mean for a bakery?",
    ],
)
def test_unrelated_sentences_with_risk_words_are_no_risk_answer(text: str) -> None:
    assert read_risk(text) is None


@pytest.mark.parametrize(
    ("text", "sign"),
    [
        ("I lose sleep over stock-outs", -1),
        ("I'm a worrier when it comes to stock", -1),
        ("I'm pretty chill about running out", 1),
        ("I'm not very careful", 1),
    ],
)
def test_an_unsure_reading_asks_rather_than_guess_the_wrong_direction(text: str, sign: int) -> None:
    """Harder phrasings: read in the right direction or not at all (then the agent asks for a number)."""
    value = _value(text)
    assert value is None or float(value) * sign > 0, value


def test_no_preference_is_told_from_a_neutral_attitude() -> None:
    assert unsure("no idea") and unsure("you decide")
    assert not unsure("neutral") and not unsure("I'm very cautious")


def _agent_at_risk() -> ExtractionAgent:
    agent = ExtractionAgent()
    agent.greeting()
    agent.state.asked = "risk_tolerance"
    return agent


def test_words_are_an_approximate_value_the_agent_asks_to_confirm() -> None:
    agent = _agent_at_risk()
    turn = agent.respond("we tend to overstock just in case")
    assert turn.action == ASK_CLARIFICATION and "-5" in turn.assistant
    assert turn.table["risk_tolerance"]["value"] is None
    assert agent.respond("yes").table["risk_tolerance"]["value"] == "-5"


@pytest.mark.parametrize("text", ["the bread must be handled carefully", "I keep the cash in a safe"])
def test_an_unrelated_careful_sentence_at_the_risk_step_sets_nothing(text: str) -> None:
    agent = _agent_at_risk()
    turn = agent.respond(text)
    assert turn.table["risk_tolerance"]["value"] is None and not agent.table.conflicts
    assert "-10" in turn.assistant
