"""A practice set of 42 officials' messages about what matters most (issue 13, after a blind round read "keep
every school close to today's times" as ten pins and "families come first: ..." as a menu), with the tool calls
they should produce. Priorities are weights 3:1 (`change_objective_weight`); a message that names a school or a
time pins that school; "every school / all schools / everyone ... close to / near today's times" is the
deviation priority, not ten pins. Written by the developer who fixes the readers, before fixing them: practice
material, not a held-out set. Compared like `bench/nlu_accuracy.py` (sorted call tuples, call_solver ignored)."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent
from core.schedule.offline import Memory, interpret
from tests.support.slots import call_slots, planned

ACCESS, BALBOA, GALILEO = "Transition Training Center (Access)", "Balboa HS", "Galileo HS"
EVERETT, LICK, COBB = "Everett MS", "Lick (James) MS", "Cobb (Dr William L) ES"
T750, T930 = "7:50 AM", "9:30 AM"
LOAD, DEV = "student_load_balancing", "schedule_deviation"
HERE = "where it is now"
"""Placeholder for the school's start in the current proposal, filled in from the agent's session."""
EVERY = "every school"
OTHERS_THAN_GALILEO = (
    "Muir (John) PK",
    "Ortega (Jose) PK",
    "McCoppin (Frank) PK",
    ACCESS,
    BALBOA,
    EVERETT,
    LICK,
    COBB,
    "Lawton K-8 (K-5)",
)


def weight(objective: str) -> tuple[str, ...]:
    return ("change_objective_weight", objective, "3")


def fix(school: str, time: str = HERE) -> tuple[str, ...]:
    return ("fix_start_time", school, time, "fix")


def forbid(school: str, time: str) -> tuple[str, ...]:
    return ("fix_start_time", school, time, "forbid")


def bound(objective: str, value: float) -> tuple[str, ...]:
    return ("add_objective_upper_bound", objective, f"{value:g}")


CASES: list[tuple[str, list[tuple[str, ...]]]] = [
    # the whole district staying close to today's times: the deviation priority, never ten pins
    (
        "Most important of all: every school should stay as near to its current bell as we can manage",
        [weight(DEV)],
    ),
    ("please keep all of the schools as close as you can to their present start times", [weight(DEV)]),
    ("everyone should start as near as possible to when they start now", [weight(DEV)]),
    ("keep every school as close to todays bells as posible", [weight(DEV)]),
    ("No school should end up far from the time it starts at today - that's our main concern", [weight(DEV)]),
    ("I'd like all the schools to stay roughly where they are now, more than anything", [weight(DEV)]),
    ("Don't let any school drift far from its current start time", [weight(DEV)]),
    ("our schools should all look about like they do today, that's what matters", [weight(DEV)]),
    ("every school close to its current time please, above everything", [weight(DEV)]),
    # 'X comes first', 'above all', 'what I care about most', 'priority number one': change first
    ("Parents come first here - start times shouldn't wander far from what they are today", [weight(DEV)]),
    ("families come first, so stay near the current bells", [weight(DEV)]),
    ("Stability above everything else.", [weight(DEV)]),
    ("what i care about most is that parents don't have to rearrange their mornings", [weight(DEV)]),
    ("Priority number one is the families' routines", [weight(DEV)]),
    ("Priority #1: keep the start times close to what people are used to", [weight(DEV)]),
    ("Familes first — keep the bells near where they are now", [weight(DEV)]),
    ("Above all else, minimal disruption for households", [weight(DEV)]),
    ("The thing I care most about is that bell times barely move", [weight(DEV)]),
    ("continuity for families is the overriding concern", [weight(DEV)]),
    ("honestly the most important thing is not upsetting parents with new times", [weight(DEV)]),
    # the same for buses: load first
    ("Buses come first this year, families will adjust", [weight(LOAD)]),
    ("For the board, the transport budget matters most of all", [weight(LOAD)]),
    ("Transportation costs above all.", [weight(LOAD)]),
    ("What I care about most is how many buses we have to run", [weight(LOAD)]),
    ("priority number one is cutting the peak", [weight(LOAD)]),
    ("Priority no. 1: fewer buses on the road", [weight(LOAD)]),
    ("Above everything else we need to save on busing", [weight(LOAD)]),
    ("budjet comes first for us, sorry families", [weight(LOAD)]),
    ("our overriding goal is running as few buses as we can", [weight(LOAD)]),
    ("spreading out the arrivals is the number one thing for me", [weight(LOAD)]),
    ("Fewer buses above all, even if every school has to move", [weight(LOAD)]),
    ("The peak load is what I care about above all", [weight(LOAD)]),
    # a named school (or a subset of schools) is pinned; a priority beside it is read too
    ("Keep Galileo at the time it has now", [fix(GALILEO)]),
    ("leave lick where it is please", [fix(LICK)]),
    ("Everett should stay as close to its current start as possible", [fix(EVERETT)]),
    ("keep the middle schools where they are", [fix(EVERETT), fix(LICK)]),
    ("Families come first, but Balboa has to start at 9:30", [weight(DEV), fix(BALBOA, T930)]),
    (
        "Keep Cobb where it is and otherwise keep every school close to today's times",
        [fix(COBB), weight(DEV)],
    ),
    ("Lock every school at its current start time", [fix(EVERY)]),
    (
        "keep all schools close to today's times but keep the peak under 2,400 students",
        [weight(DEV), bound(LOAD, 24)],
    ),
    (
        "Buses come first, and the high schools can't start at 7:50",
        [weight(LOAD), forbid(ACCESS, T750), forbid(BALBOA, T750), forbid(GALILEO, T750)],
    ),
    ("Everyone close to today's times, and Cobb stays where it is", [weight(DEV), fix(COBB)]),
]

XFAIL = {
    "our schools should all look about like they do today, that's what matters",  # 'our schools ... all' is no
    # whole-district group, and the learned intent stays below acting confidence (0.32 priority, 0.15 less change)
    "budjet comes first for us, sorry families",  # the misspelt 'budjet' is no word the bank knows, so 'families'
    # decides: read as the change priority (0.64)
}
"""Messages the readers still get wrong (24 of 42 failed when the set was written, before any fix; these two
after the fixes); strict, so a fix that makes one pass must take it out of this set."""


@pytest.fixture(scope="module")
def agent() -> ScheduleAgent:
    agent = ScheduleAgent()
    agent.opening()
    return agent


def _expected(agent: ScheduleAgent, expect: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The expected calls with HERE filled in (the school's start in the current proposal) and EVERY expanded."""
    session = agent.session
    district, assignment = session.district, session.current.result.assignment  # type: ignore[union-attr]
    out = []
    for call in expect:
        schools = [s.name for s in district.schools] if call[1] == EVERY else [call[1]]
        for school in schools:
            if call[0] == "fix_start_time" and call[2] == HERE:
                here = district.time_labels[assignment[district.school_index(school)]]
                out.append((call[0], school, here, call[3]))
            else:
                out.append((call[0], school, *call[2:]) if call[0] == "fix_start_time" else call)
    return sorted(out)


def test_the_practice_set_has_forty_two_distinct_messages() -> None:
    assert len(CASES) == 42 and len({text for text, _ in CASES}) == 42


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        pytest.param(t, e, marks=pytest.mark.xfail(strict=True, reason="practice: still misread"))
        if t in XFAIL
        else (t, e)
        for t, e in CASES
    ],
)
def test_priority_message_gives_the_expected_calls(agent: ScheduleAgent, text: str, expect: list) -> None:
    got, reply = planned(agent, text)
    assert got == _expected(agent, expect), reply


@pytest.mark.parametrize(
    "text",
    [
        "keep all schools where they are",
        "Leave everybody exactly where they are for now",
        "Lick at 8:40 and keep the other schools where they are",
    ],
)
def test_keeping_every_school_exactly_where_it_is_asks_first(agent: ScheduleAgent, text: str) -> None:
    """Keep all schools where they are could mean "pin all ten" (which freezes the schedule: the solver has
    nothing left to choose, so proposal N comes back unchanged) or "stay close to today's times" (the deviation
    priority, which still lets the solver balance buses). The two differ a lot and neither is a small step, so
    the agent asks rather than silently pinning ten schools; the pins are its offer, so a "yes" applies them.
    The same holds for "the other schools" beside a named one (nine pins leave the solver almost nothing)."""
    got, reply = planned(agent, text)
    assert got == [], reply
    assert "?" in reply and "top priority" in reply


def test_yes_to_the_question_pins_every_school_and_the_suggested_words_set_the_priority() -> None:
    """The question's two ways forward both work: 'yes' applies the offered pins (all ten schools at their current
    starts), and the words it suggests give the change priority instead."""
    agent = ScheduleAgent()
    agent.opening()
    memory = Memory()
    assert interpret("keep all the schools where they are", agent.session, memory).reply
    pins = [
        call_slots(n, a)
        for n, a in interpret("yes please", agent.session, memory).calls
        if n != "call_solver"
    ]
    assert sorted(pins) == _expected(agent, [fix(EVERY)])
    got, reply = planned(agent, "every school close to today's times")
    assert got == [weight(DEV)], reply


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        # 'the other schools' / 'everyone else' beside a named school: that school pinned, the rest kept close
        (
            "Keep Lick where it is, and all the other schools roughly where they are now",
            [fix(LICK), weight(DEV)],
        ),
        ("Galileo at 9:30, everyone else as close to today as possible", [fix(GALILEO, T930), weight(DEV)]),
        ("Every school's schedule should change as little as possible", [weight(DEV)]),
        # a comparative asks for a step of less change, not the priority
        ("everybody closer to their old times please", [bound(DEV, 7.23)]),
        # a question about it changes nothing
        ("is every school close to its current time?", []),
        # a school's 'start' is no 'start over'
        ("Above all, every school near its present start", [weight(DEV)]),
        # 'freeze' pins (it is no 'free'); 'at its current time' keeps
        ("freeze all schools at their current times", [fix(EVERY)]),
        ("Galileo at its current time please", [fix(GALILEO)]),
        # 'everyone else' / 'the other schools' leave out the schools the message names
        (
            "Keep Galileo at 8:40, everyone else at 9:30",
            [fix(GALILEO, "8:40 AM")] + [fix(s, T930) for s in OTHERS_THAN_GALILEO],
        ),
        (
            "Galileo at 8:40 and all the other schools at 9:30",
            [fix(GALILEO, "8:40 AM")] + [fix(s, T930) for s in OTHERS_THAN_GALILEO],
        ),
    ],
)
def test_reader_cases_beyond_the_practice_set(agent: ScheduleAgent, text: str, expect: list) -> None:
    """Phrasings met while fixing the practice set, each guarding one reader rule against a regression."""
    got, reply = planned(agent, text)
    assert got == _expected(agent, expect), reply
