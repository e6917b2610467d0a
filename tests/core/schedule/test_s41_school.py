"""Issue 27, session 41 (classes the fresh batches s44-s46 found, each measured once before reading; our own
phrasings): a time taken back in the same message ('8:40? hmm, no, ... let's say 9:30'), with an age in between;
'both start after 9' describes; the speaker's deadlines ('done by 8', 'make the 8 o'clock bell', 'up at 6:15');
'start past 8:40' is after 8:40; a move of a school the speaker asked to keep is asked about; 'both schools' after
a clause between them reaches both."""

from __future__ import annotations

from tests.support.schedule_dialogues import fix_edits
from tests.support.schedule_dialogues import opened_agent as _agent


def test_a_time_taken_back_is_replaced_by_the_one_after_it() -> None:
    turn = _agent().respond("Could Cobb go to 7:50? hmm, no, that's too early for 5 year olds. Let's say 8:40.")
    edits = fix_edits(turn)
    assert ("Cobb (Dr William L) ES", "8:40 AM", "fix") in edits, turn.text
    assert not [e for e in edits if e[1] == "7:50 AM" and e[2] == "fix"], turn.text


def test_an_age_is_no_span() -> None:
    from core.text.mentions import Kind, parse

    assert not parse("too early for 4 year olds, or a 10-year-old").of(Kind.DURATION)


def test_both_start_after_describes_and_the_request_is_read() -> None:
    turn = _agent().respond("Ortega and Muir both start after 9 and it's rough on parents. Put them both at 8:40.")
    edits = fix_edits(turn)
    assert ("Ortega (Jose) PK", "8:40 AM", "fix") in edits and ("Muir (John) PK", "8:40 AM", "fix") in edits, turn.text


def test_both_at_a_time_is_still_a_request() -> None:
    turn = _agent().respond("Put Ortega at 8:40, and McCoppin and Ortega both at 9:30.")
    assert "which one should it be" in turn.text and not fix_edits(turn), turn.text


def test_a_drivers_deadline_is_no_start() -> None:
    text = "I drive the bus for Lick and Everett. I clock in at 7:05 and can't get both done by 8. Could Lick go later?"
    turn = _agent().respond(text)
    assert "not one of the standardized" not in turn.text, turn.text
    assert any(s == "Lick (James) MS" for s, _, _ in fix_edits(turn)), turn.text


def test_waking_up_and_making_the_bell_are_no_starts() -> None:
    text = "My daughter is at Balboa and she's up at 6:15 to make the 8 o'clock bell. Could Balboa start later?"
    turn = _agent().respond(text)
    assert "not one of the standardized" not in turn.text, turn.text
    assert any(s == "Balboa HS" for s, _, _ in fix_edits(turn)), turn.text


def test_past_a_time_is_after_it() -> None:
    turn = _agent().respond("Please don't let any middle school start past 8:40.")
    edits = fix_edits(turn)
    assert edits and all(t == "9:30 AM" and k == "forbid" for _, t, k in edits), turn.text


def test_moving_a_school_the_speaker_asked_to_keep_is_asked() -> None:
    agent = _agent()
    agent.respond("Please leave Lawton's start time alone, it works for us.")
    turn = agent.respond("Lawton needs to start earlier, the buses are late.")
    assert "Should the new request replace the earlier one?" in turn.text and not fix_edits(turn), turn.text


def test_both_schools_after_a_clause_between_reaches_both() -> None:
    text = "My kids are at Lick and Cobb, we leave the house early. Could both schools start later?"
    schools = {s for s, _, k in fix_edits(_agent().respond(text)) if k == "fix"}
    assert schools == {"Lick (James) MS", "Cobb (Dr William L) ES"}, schools


def test_two_hedged_times_for_one_school_are_asked() -> None:
    turn = _agent().respond("For Cobb, could we do 8:40 or maybe 9:30? I can't make up my mind.")
    assert "which one should it be" in turn.text and not fix_edits(turn), turn.text


def test_either_of_two_times_still_rules_out_the_rest() -> None:
    turn = _agent().respond("Cobb at 8:40 or 9:30 is fine, just not 7:50")
    assert fix_edits(turn) == [("Cobb (Dr William L) ES", "7:50 AM", "forbid")], turn.text


def test_an_acceptance_naming_a_school_is_no_answer_to_which_school() -> None:
    agent = _agent()
    agent.respond("My son is at Lawton. Could it start at 8:40?")
    agent.respond("His sister is at Lincoln High. Can that one start later too?")
    turn = agent.respond("Okay, understood. The Lawton change is all I really need then. We'll take it.")
    assert not fix_edits(turn) and "we'll go with proposal" in turn.text, turn.text


def test_our_start_time_is_completed_by_the_school_named_next() -> None:
    agent = _agent()
    agent.respond("Can you make our start time earlier? The kids wait in the dark.")
    turn = agent.respond("Sorry! I meant Lawton.")
    assert any(s == "Lawton K-8 (K-5)" and k == "fix" for s, _, k in fix_edits(turn)), turn.text
