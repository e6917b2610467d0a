"""core.text.questions: a question to the agent, told from an answer; confusion about the agent's question."""

from __future__ import annotations

import pytest

from core.text.questions import is_confused, is_question

QUESTIONS = [
    "why should I order when I still have 5 loaves?",
    "what if demand goes up?",
    "Is that a problem?",
    "How about if demand doubles?",
    "what happens if sales drop",
    "don't you think 5 is too many?",
    "isn't it better to keep the current times?",
    "Can we stay closer to the schools' current start times?",
    "what does risk-seeking even mean for a bakery?",
    "which one would you recommend?",
    "what's the difference between A and B?",
    "what's the peak now?",
    "what is the peak now",
    "whats the peak",
    "how long does delivery take",
    "where do we stand",
    "explain the trade-off",
    "can you explain what deviation means",
    "could you tell me why the peak went up",
    "tell me more",
    "we lose the sale, why?",
    "20 a day, but why?",
    "why?",
    "how come the peak went up",
    "Should I order now?",
    "do I need to order today?",
    "when will the order arrive?",
]
ANSWERS = [
    "how about 5?",
    "What about Everett?",
    "about 20 a day?",
    "5, I think?",
    "maybe 20?",
    "3",
    "no, 5",
    "not sure",
    "what we sell is 20 a day",
    "how much we sell varies",
    "what's left is about 5 units",
    "When is delivery? Usually 3 days after ordering.",
    "which is fine by me",
    "Lick later please",
    "we sell about 20 a day",
    "I don't like taking chances",
    "why not, let's do 40",
    "why not 40?",
    "why not?",
    "",
]


@pytest.mark.parametrize("text", QUESTIONS)
def test_questions_to_the_agent(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_answers_and_proposals_are_not_questions(text: str) -> None:
    assert not is_question(text)


@pytest.mark.parametrize(
    "text",
    [
        "huh?",
        "huh",
        "what?",
        "sorry, what?",
        "eh? what?",
        "pardon?",
        "I don't understand",
        "I don\u2019t really get it",
        "I didn't follow",
        "I'm confused",
        "that's confusing",
        "what do you mean by holding cost",
        "what's the meaning of that",
    ],
)
def test_confusion_is_a_question_too(text: str) -> None:
    assert is_confused(text)
    assert is_question(text)


@pytest.mark.parametrize("text", ["what if demand goes up?", "why?", "5", "I understand", "sorry, 5"])
def test_plain_questions_and_answers_are_not_confusion(text: str) -> None:
    assert not is_confused(text)


LONG_TEXTS = ("what " * 50_000, "why " + "a" * 200_000 + "?", "huh " * 50_000, "?" * 100_000)
"""Long messages shaped for backtracking; `bench/offline_turn.py` times them (within 2 s together)."""


def test_long_messages_are_read_in_linear_time() -> None:
    """Three pattern scans at most, each over the message once: the work grows with the length alone."""
    from tests.support.scans import counting_scans

    for text in LONG_TEXTS:
        with counting_scans() as scans:
            is_question(text)
        assert 1 <= scans.calls <= 3 and scans.chars <= 3 * len(text)
