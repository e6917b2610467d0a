"""Issue 27 item 4, School Scheduling classes blind batch b12 (measured once at 15524c2) found. Through the real
agent (`ScheduleAgent`); the phrasings are this file's own, not the batch's."""

from __future__ import annotations

import pytest

from tests.support.schedule_dialogues import fix_edits as _edits
from tests.support.schedule_dialogues import opened_agent as _agent

LICK, EVERETT, COBB = "Lick (James) MS", "Everett MS", "Cobb (Dr William L) ES"
HIGH = ["Transition Training Center (Access)", "Balboa HS", "Galileo HS"]

# 1. A courtesy ('if it's not too much trouble') beside a request of schools is no 'loosen the model'.


@pytest.mark.parametrize(
    ("text", "edits"),
    [
        ("Lick slightly later please, if it's not too much to ask.", [(LICK, "9:30 AM", "fix")]),
        (
            "Every middle school a bit later please, if that's not too much trouble.",
            [(EVERETT, "8:40 AM", "fix"), (LICK, "9:30 AM", "fix")],
        ),
        ("Cobb a bit earlier, if it's not too much of a stretch", [(COBB, "7:50 AM", "fix")]),
        (
            "All the high schools a little later, please, if it isn't too much trouble.",
            [(HIGH[0], "8:40 AM", "fix"), (HIGH[1], "9:30 AM", "fix"), (HIGH[2], "8:40 AM", "fix")],
        ),
    ],
)
def test_a_courtesy_beside_a_request_is_no_loosening(text: str, edits: list[tuple[str, str, str]]) -> None:
    turn = _agent().respond(text)
    assert sorted(_edits(turn)) == sorted(edits), turn.text
    assert "loosen" not in turn.text


def test_asking_to_loosen_a_bound_still_loosens_it() -> None:
    agent = _agent()
    agent.respond("Keep the peak under 2,600 students.")
    turn = agent.respond("Could you loosen that limit a bit?")
    assert [c["name"] for c in turn.tool_calls][:1] == ["add_objective_upper_bound"], turn.text


# 2. 'One of the high schools' names a single school of the group, not said which: ask, then the bare name given
#    in answer takes the request held.


@pytest.mark.parametrize(
    ("text", "answer", "edit"),
    [
        ("One of our middle schools ought to begin earlier, the one my son attends.", "Lick", (LICK, "7:50 AM")),
        ("Could one of the high schools go later? It's where my kid is.", "Balboa.", ("Balboa HS", "9:30 AM")),
        ("One of the two middle schools at 9:30 please, the one we're at.", "Lick, thanks", (LICK, "9:30 AM")),
        ("One of the high schools should be later", "the third one", ("Galileo HS", "8:40 AM")),
    ],
)
def test_one_of_a_group_asks_which_and_the_answer_takes_the_request(
    text: str, answer: str, edit: tuple[str, str]
) -> None:
    agent = _agent()
    asked = agent.respond(text)
    assert _edits(asked) == [] and "Which of the" in asked.text, asked.text
    assert asked.text.count("?") == 1, asked.text  # 'my son' / 'we' ask no second question
    turn = agent.respond(answer)
    assert _edits(turn) == [(*edit, "fix")], turn.text


def test_a_group_beside_a_named_school_is_no_question() -> None:
    turn = _agent().respond("One of the high schools has a bus problem, so could Galileo go later?")
    assert ("Galileo HS", "8:40 AM", "fix") in _edits(turn) and "Which of the" not in turn.text, turn.text


# 3. A stated start against a rule the speaker set earlier in the talk is asked about, even after 'actually'; a
#    change of mind said outright ('forget the rule') replaces it.

MUIR = "Muir (John) PK"


@pytest.mark.parametrize(
    ("rule", "now", "school"),
    [
        ("None of the pre-K schools after 8:40, please.", "Actually, Muir at 9:30.", MUIR),
        ("Pre-K schools must not begin later than 8:40.", "Muir should remain at 9:30 actually.", MUIR),
        ("Every middle school after 8.", "Actually Everett at 7:50.", EVERETT),
        ("No middle school before 8:40.", "Hmm, actually Everett should stay at 7:50.", EVERETT),
        ("Lick not at 9:30 please.", "Actually, put Lick at 9:30.", LICK),
    ],
)
def test_a_start_against_the_speakers_own_rule_is_asked_about(rule: str, now: str, school: str) -> None:
    agent = _agent()
    ruled = agent.respond(rule).schedule[school]
    turn = agent.respond(now)
    assert _edits(turn) == [] and "Should the new request replace the earlier one?" in turn.text, turn.text
    assert (dict(turn.schedule) or {school: ruled})[school] == ruled


@pytest.mark.parametrize("now", ["Forget the rule, Muir at 9:30.", "Scratch that, Muir should stay at 9:30."])
def test_a_change_of_mind_said_outright_replaces_the_rule(now: str) -> None:
    agent = _agent()
    agent.respond("None of the pre-K schools after 8:40, please.")
    turn = agent.respond(now)
    assert _edits(turn) == [(MUIR, "9:30 AM", "fix")] and "replaces your earlier request" in turn.text, turn.text


@pytest.mark.parametrize("answer", ["no, keep the rule", "No thanks, the first request stands.", "nope, leave my rule"])
def test_no_to_replacing_keeps_the_rule(answer: str) -> None:
    agent = _agent()
    agent.respond("Lick not at 9:30 please.")
    agent.respond("Actually, put Lick at 9:30.")
    turn = agent.respond(answer)
    assert _edits(turn) == [] and "earlier request stands" in turn.text, turn.text
    assert [c["name"] for c in turn.tool_calls] == [], turn.text
