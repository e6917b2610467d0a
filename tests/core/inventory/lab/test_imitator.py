"""The offline imitator: reproducible under a seed, reveals only what is asked, noise knobs behave."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from core.errors import SpecError
from core.inventory.copilot.dialogue import QUESTIONS
from core.inventory.lab.generator import generate
from core.inventory.lab.imitator import (
    TOPICS,
    ImitatorNoise,
    OfflineImitator,
    asked_topics,
    phrasing_bank,
)
from core.text.numbers import number_words

PROBES = {
    "demand": "What is your average daily demand, and how much does it vary?",
    "state_transition_model": "When you run out, do customers leave or wait for a backorder?",
    "perishability": "Do your items expire or spoil?",
    "time_horizon": "Over how many days should we plan?",
    "holding_cost": "What is your holding cost per unit per day?",
    "penalty_cost": "What penalty do you pay per unit short?",
    "setup_cost": "Is there a fixed cost per order?",
    "lead_time": "How long does delivery take after you order?",
    "max_inventory": "What's your storage capacity?",
    "max_order": "What's the maximum order you can place at once?",
    "risk_tolerance": "How much risk are you willing to take, from -10 to 10?",
}


def test_questions_are_read_as_their_topic() -> None:
    for topic, text in PROBES.items():
        assert asked_topics(text) == (topic,), text
    for key, text in QUESTIONS.items():  # the Copilot's own questions
        expected = "demand" if key.startswith("demand") else key
        assert asked_topics(text) == (expected,), text
    assert asked_topics("Noted: lead time = 3 days. Do your items spoil?") == ("perishability",)
    assert set(asked_topics("What is your lead time and your storage capacity?")) == {
        "lead_time",
        "max_inventory",
    }


def test_reproducible_under_a_seed() -> None:
    scenario = generate(3, seed=4, protocol="mixed")[2]
    noisy = ImitatorNoise.scaled(3)

    def run(seed: int) -> list[str]:
        im = OfflineImitator(scenario, noisy, seed=seed)
        return [im.opening()] + [im.reply(q).text for q in list(PROBES.values()) * 2]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_reveals_only_what_is_asked() -> None:
    for scenario in generate(30, seed=9, protocol="mixed"):
        im = OfflineImitator(scenario, ImitatorNoise.scaled(2), seed=scenario.seed)
        opening = im.opening()
        assert not re.search(r"\d", opening), opening
        asked: set[str] = set()
        for topic in TOPICS:
            reply = im.reply(PROBES[topic])
            asked.add(topic)
            assert set(reply.revealed) <= asked, (topic, reply)
        assert im.revealed <= asked
    unrelated = OfflineImitator(generate(1, seed=1, protocol="mixed")[0], ImitatorNoise.quiet(), seed=0)
    reply = unrelated.reply("Nice weather today, isn't it?")
    assert reply.revealed == () and not re.search(r"\d", reply.text)


def test_quiet_answers_state_the_truth() -> None:
    scenario = generate(1, seed=2, protocol="mixed")[0]
    p = scenario.problem
    im = OfflineImitator(scenario, ImitatorNoise.quiet(), seed=0)
    assert str(p.max_inventory) in im.reply(PROBES["max_inventory"]).text
    assert str(p.lead_time) in im.reply(PROBES["lead_time"]).text
    assert f"{p.penalty_cost:.2f}" in im.reply(PROBES["penalty_cost"]).text


def test_noise_knobs_fire_at_high_noise() -> None:
    seen: Counter[str] = Counter()
    for scenario in generate(40, seed=3, protocol="mixed"):
        im = OfflineImitator(scenario, ImitatorNoise.scaled(4), seed=int(scenario.key[1:]))
        for text in PROBES.values():
            seen.update(im.reply(text).behaviours)
        seen.update(
            im.reply(
                "Earlier you said 5, now 6. Which should I use: (A) 5 or (B) 6 for the lead time?"
            ).behaviours
        )
    for behaviour in (
        "hedge",
        "range",
        "other_units",
        "number_words",
        "wrong_value",
        "self_correction",
        "question_back",
        "off_question",
        "chatter",
        "clarification",
    ):
        assert seen[behaviour] > 0, behaviour
    assert ImitatorNoise.quiet().chatter == 0
    with pytest.raises(SpecError) as err:
        ImitatorNoise(vagueness=1.5)
    assert err.value.field == "vagueness"


def test_bank_is_its_own() -> None:
    assert number_words(65) == "sixty-five" and number_words(100) == "one hundred"
    bank = phrasing_bank()
    lines = {line for section in bank.values() for group in section.values() for line in group}
    copilot_tests = Path(__file__).parents[1]
    test_text = " ".join(p.read_text() for p in copilot_tests.glob("test_*.py"))
    test_text = test_text.lower()
    chunks = {c.strip() for line in lines for c in re.split(r"\{[a-z]+\}", line.lower())}
    shared = [c for c in chunks if len(c) >= 25 and c in test_text]
    assert not shared, shared


def test_imitator_text_goes_through_the_shared_toolkit() -> None:
    """Numbers in words are read back by core/text's reader (0..999); questions with typographic dashes and
    spaces are cleaned by core/text before their topics are read; weekly and monthly figures use core/text's
    day counts."""
    from core.text.numbers import words_to_digits
    from core.text.units import DAYS_PER

    assert all(words_to_digits(number_words(n)) == str(n) for n in range(1000))
    # a typographic apostrophe (as LLMs write) is made plain by core.text.clean.clean before reading
    assert asked_topics("And for a unit you can\u2019t serve, what do you lose?") == ("penalty_cost",)
    weekly = 0
    for scenario in generate(30, seed=5, protocol="mixed"):
        if scenario.problem.demand.kind != "poisson":
            continue
        im = OfflineImitator(
            scenario, ImitatorNoise(**{**ImitatorNoise.quiet().to_dict(), "other_units": 1.0})
        )
        reply = im.reply(PROBES["demand"])
        if "other_units" in reply.behaviours and "week" in reply.text:
            mean = scenario.problem.demand.params[0] * DAYS_PER["week"]
            assert f"{mean:g}" in reply.text or f"{round(mean, 1):g}" in reply.text, reply.text
            weekly += 1
    assert weekly > 0
