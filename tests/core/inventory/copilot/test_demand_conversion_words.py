"""The weekly → daily demand clarification in plain words with a recommended default, and 'which one do you
recommend?' answered with the recommendation (issue 11, item 4)."""

from __future__ import annotations

from core.config import Settings
from core.inventory.copilot.session import Copilot, CopilotConfig


def _copilot() -> Copilot:
    copilot = Copilot(Settings(), None, CopilotConfig(seed=0))
    copilot.greeting()
    return copilot


def test_the_question_is_plain_and_names_the_default():
    text = _copilot().respond("We sell about 140 bikes a week, give or take 20.").assistant
    assert "Do busy and quiet days even out over the week?" in text
    assert "Most shops: yes, so I'll use about 20 a day, give or take 7.6 (A)" in text
    assert "sqrt" not in text and "normal(" not in text


def test_which_one_do_you_recommend_gets_the_recommendation_and_yes_takes_it():
    copilot = _copilot()
    copilot.respond("We sell about 140 bikes a week, give or take 20.")
    answer = copilot.respond("which one do you recommend?").assistant
    assert answer.startswith("I recommend (A): about 20 a day, give or take 7.6.")
    copilot.respond("yes")
    assert copilot.table.value("demand_distribution") == "normal(20,7.5593)"


def test_b_takes_the_scaled_conversion():
    copilot = _copilot()
    copilot.respond("We sell about 140 bikes a week, give or take 20.")
    copilot.respond("B")
    assert copilot.table.value("demand_distribution") == "normal(20,2.8571)"
