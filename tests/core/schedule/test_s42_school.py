"""Issue 27, session 42 (the class the fresh batch s50 found, measured once before reading; our own phrasings): a
sentence that only offers another time ('We want 8:40. Or 9:30?') belongs to the request before it, and a speaker
who says they have not decided gets asked which time, never 'either is fine'."""

from __future__ import annotations

from core.schedule import language as lang
from tests.support.schedule_dialogues import fix_edits
from tests.support.schedule_dialogues import opened_agent as _agent


def test_a_sentence_offering_another_time_stays_with_the_request() -> None:
    assert lang.split_clauses("We want 8:40. Or 9:30? No idea.") == ["we want 8:40 or 9:30", "no idea"]


def test_two_times_from_an_undecided_speaker_are_asked() -> None:
    text = "Muir starts too late for working parents. We want 7:50. Or 8:40? We can't decide at home."
    turn = _agent().respond(text)
    assert "which one should it be" in turn.text and not fix_edits(turn), turn.text


def test_the_answer_to_which_time_is_applied() -> None:
    agent = _agent()
    agent.respond("For Cobb we want 8:40 or 9:30, not sure which honestly.")
    turn = agent.respond("Let's do 9:30 for Cobb.")
    assert ("Cobb (Dr William L) ES", "9:30 AM", "fix") in fix_edits(turn), turn.text


def test_either_time_without_doubt_still_rules_out_the_rest() -> None:
    turn = _agent().respond("Cobb at 8:40 or 9:30 works for us, just not 7:50")
    assert fix_edits(turn) == [("Cobb (Dr William L) ES", "7:50 AM", "forbid")], turn.text


def test_undecided_words() -> None:
    assert lang.undecided("honestly i'm not sure") and lang.undecided("I can't make up my mind")
    assert not lang.undecided("sure, 8:40 is fine")
