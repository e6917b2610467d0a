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


def test_a_time_far_from_any_start_in_a_reason_is_no_bound() -> None:
    turn = _agent().respond("Lick should start earlier, my son has practice after school and isn't home till 7pm.")
    assert ("Lick (James) MS", "7:50 AM", "fix") in fix_edits(turn) and "PM" not in turn.text, turn.text


def test_same_deal_repeats_the_move_not_the_reason() -> None:
    agent = _agent()
    agent.respond("Lick should start earlier, my son has practice after school and isn't home till 7pm.")
    turn = agent.respond("and Cobb too, same deal")
    assert ("Cobb (Dr William L) ES", "7:50 AM", "fix") in fix_edits(turn), turn.text


def test_an_unknown_school_that_should_go_later_is_flagged() -> None:
    turn = _agent().respond("And Roosevelt should go later too, my nephew is always late.")
    assert "not a school in this district" in turn.text and not fix_edits(turn), turn.text


def test_dropping_children_off_is_an_errand_not_a_release() -> None:
    text = "My kids go to Lick and I have to drop them off at 8:05, so could Cobb start at 9:30 instead?"
    turn = _agent().respond(text)
    assert fix_edits(turn) == [("Cobb (Dr William L) ES", "9:30 AM", "fix")], turn.text


def test_earlier_than_the_time_it_starts_now_is_a_bound() -> None:
    turn = _agent().respond("I only want Muir earlier than the 9:30 it starts at now.")
    assert fix_edits(turn) == [("Muir (John) PK", "9:30 AM", "forbid")], turn.text


def test_those_of_a_group_are_the_members_just_named() -> None:
    text = "My bus covers Muir and Ortega. Could both of those pre-K schools start at 8:40?"
    schools = {s for s, _, k in fix_edits(_agent().respond(text)) if k == "fix"}
    assert schools == {"Muir (John) PK", "Ortega (Jose) PK"}, schools


def test_a_time_better_than_another_is_the_one_wanted() -> None:
    turn = _agent().respond("On reflection 9:30 would be better than 8:40 for Cobb.")
    assert ("Cobb (Dr William L) ES", "9:30 AM", "fix") in fix_edits(turn) and "which one" not in turn.text, turn.text


def test_the_speakers_own_round_time_is_no_start() -> None:
    text = "I drive for Lick and Cobb. I finish the Lick drop at 8:05 and can't reach Cobb by 8:40. Can Cobb go later?"
    turn = _agent().respond(text)
    edits = fix_edits(turn)
    assert ("Cobb (Dr William L) ES", "9:30 AM", "fix") in edits and all(e[0] != "Lick (James) MS" for e in edits), edits


def test_a_misspelt_name_is_noted_once() -> None:
    turn = _agent().respond("Gallileo kids are tired. Gallileo should start later, Gallileo parents agree.")
    assert turn.text.count('I took "gallileo"') == 1, turn.text


def test_both_of_a_group_after_one_member_is_the_whole_group() -> None:
    turn = _agent().respond("I teach at Lick. I really think both middle schools should start later.")
    schools = {s for s, _, k in fix_edits(turn) if k == "fix"}
    assert schools == {"Everett MS", "Lick (James) MS"}, turn.text
