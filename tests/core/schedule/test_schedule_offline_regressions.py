"""Offline agent regressions from review: negation, several schools, undo stack, infeasibility, yes/no,
typos, bare hours, grade groups, options and small wording cases. Same harness as the dialogue scripts."""

from __future__ import annotations

import pytest

from core.schedule.agent import ScheduleAgent
from core.schedule.session import ScheduleSession
from solvers.schedule.data import load_district

FIX = "fix_start_time"
BOUND = "add_objective_upper_bound"
REMOVE = "remove_constraint"
SOLVE = "call_solver"
ALT = "show_alternatives"
LOAD = "student_load_balancing"
DEV = "schedule_deviation"
EVERETT_FIX = "fix_start_time[Everett MS={}]".format
GALILEO_FIX = "fix_start_time[Galileo HS={}]".format

SCRIPTS = [
    # 0. "no school before 9" is a district-wide forbid of the earlier starts
    (
        "no-school-before",
        [
            (
                "no school should start before 9",
                {
                    "tools": [FIX] * 20 + [SOLVE],
                    "constraints": [
                        f"forbid_start_time[{name}={t}]"
                        for name in (
                            "Muir (John) PK",
                            "Ortega (Jose) PK",
                            "McCoppin (Frank) PK",
                            "Transition Training Center (Access)",
                            "Balboa HS",
                            "Galileo HS",
                            "Everett MS",
                            "Lick (James) MS",
                            "Cobb (Dr William L) ES",
                            "Lawton K-8 (K-5)",
                        )
                        for t in ("7:50 AM", "8:40 AM")
                    ],
                },
            )
        ],
    ),
    # 1. negation binds to the time or direction it governs
    (
        "not-second-time",
        [
            (
                "I want Everett to start at 8:40 AM, not 7:50 AM",
                {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("8:40 AM")]},
            )
        ],
    ),
    (
        "not-after-comma",
        [("Everett at 9:30, not 8:40", {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("9:30 AM")]})],
    ),
    (
        "instead-of",
        [
            (
                "Instead of 7:50, put Everett at 8:40",
                {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("8:40 AM")]},
            )
        ],
    ),
    (
        "later-not-earlier",
        [("Galileo later, not earlier", {"tools": [FIX, SOLVE], "schedule": {"Galileo HS": "8:40 AM"}})],
    ),
    (
        "only-negated-time",
        [
            (
                "Everett should not start at 7:50",
                {"tools": [FIX, SOLVE], "constraints": ["forbid_start_time[Everett MS=7:50 AM]"]},
            )
        ],
    ),
    # 2. every named school gets the request
    (
        "two-schools-both",
        [
            (
                "Can Lick and Cobb both start at 7:50?",
                {
                    "tools": [FIX, FIX, SOLVE],
                    "schedule": {"Lick (James) MS": "7:50 AM", "Cobb (Dr William L) ES": "7:50 AM"},
                },
            )
        ],
    ),
    (
        "and-everett-too",
        [
            (
                "Lawton should start at 9:30 and Everett too",
                {
                    "tools": [FIX, FIX, SOLVE],
                    "constraints": ["fix_start_time[Lawton K-8 (K-5)=9:30 AM]", EVERETT_FIX("9:30 AM")],
                },
            )
        ],
    ),
    (
        "later-and-galileo-too",
        [
            (
                "Everett should start later and Galileo too",
                {"tools": [FIX, FIX, SOLVE], "schedule": {"Everett MS": "8:40 AM", "Galileo HS": "8:40 AM"}},
            )
        ],
    ),
    ("two-schools-unclear", [("Everett and Galileo?", {"tools": [], "says": ["Everett MS", "Galileo HS"]})]),
    # 3. undo walks back a stack of model states
    (
        "undo-stack",
        [
            ("Everett should start later", {"tools": [FIX, SOLVE]}),
            (
                "Galileo should start later",
                {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("8:40 AM"), GALILEO_FIX("8:40 AM")]},
            ),
            ("undo that", {"tools": [REMOVE, SOLVE], "constraints": [EVERETT_FIX("8:40 AM")]}),
            ("undo that", {"tools": [REMOVE, SOLVE], "constraints": [], "load": 25.65, "deviation": 8.5}),
            ("undo that", {"tools": [], "says": ["no earlier change to undo"]}),
        ],
    ),
    # 8. infeasible requests roll back; later requests build on the last feasible model
    (
        "rollback-then-continue",
        [
            ("Move Everett to 9:30 AM", {"tools": [FIX, SOLVE]}),
            (
                "keep the average change under 12 minutes",
                {
                    "tools": [BOUND, SOLVE],
                    "status": "infeasible",
                    "constraints": [EVERETT_FIX("9:30 AM")],
                    "says": ["Shall I go with option 1"],
                },
            ),
            (
                "Galileo should start later",
                {
                    "tools": [FIX, SOLVE],
                    "status": "optimal",
                    "constraints": [EVERETT_FIX("9:30 AM"), GALILEO_FIX("8:40 AM")],
                },
            ),
        ],
    ),
    (
        "infeasible-yes-applies-option-1",
        [
            ("Move Everett to 9:30 AM", {"tools": [FIX, SOLVE]}),
            ("keep the average change under 12 minutes", {"tools": [BOUND, SOLVE], "status": "infeasible"}),
            (
                "yes",
                {
                    "tools": [FIX, BOUND, SOLVE],
                    "status": "optimal",
                    "constraints": [EVERETT_FIX("7:50 AM"), "upper_bound[schedule_deviation]"],
                },
            ),
        ],
    ),
    (
        "infeasible-pick-option",
        [
            ("Move Everett to 9:30 AM", {"tools": [FIX, SOLVE]}),
            ("keep the average change under 12 minutes", {"tools": [BOUND, SOLVE]}),
            (
                "option 4",
                {
                    "tools": [BOUND, SOLVE],
                    "deviation": 16.5,
                    "constraints": [EVERETT_FIX("9:30 AM"), "upper_bound[schedule_deviation]"],
                },
            ),
        ],
    ),
    # 9. the agent's own yes/no questions
    (
        "closest-option-yes",
        [
            ("Everett at 9:00", {"tools": [], "says": ["Should I put Everett MS at 8:40 AM"]}),
            ("yes please", {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("8:40 AM")]}),
        ],
    ),
    (
        "closest-option-no",
        [
            ("Everett at 9:00", {"tools": []}),
            ("no thanks", {"tools": [], "says": ["leave the schedule as it is"], "constraints": []}),
            ("yes", {"tools": [], "says": ["make sure I change the right thing"]}),
        ],
    ),
    # 10. typos, bare hours, grade groups
    (
        "typo",
        [
            (
                "Everet should start later",
                {
                    "tools": [FIX, SOLVE],
                    "schedule": {"Everett MS": "8:40 AM"},
                    "says": ['"everet" to mean Everett MS'],
                },
            )
        ],
    ),
    (
        "bare-hour-at",
        [("Everett at 10", {"tools": [], "says": ["10:00 AM is not one", "Everett MS at 9:30 AM"]})],
    ),
    ("bare-hour-galileo", [("Galileo at 9", {"tools": [], "says": ["Galileo HS at 8:40 AM"]})]),
    (
        "bare-hour-after",
        [
            (
                "Everett after 9",
                {
                    "tools": [FIX, FIX, SOLVE],
                    "schedule": {"Everett MS": "9:30 AM"},
                    "constraints": [
                        "forbid_start_time[Everett MS=7:50 AM]",
                        "forbid_start_time[Everett MS=8:40 AM]",
                    ],
                },
            )
        ],
    ),
    (
        "high-schools",
        [
            (
                "the high schools should start later",
                {
                    "tools": [FIX, FIX, FIX, SOLVE],
                    "says": ["Balboa HS", "Galileo HS", "Transition Training Center"],
                    "schedule": {"Galileo HS": "8:40 AM", "Balboa HS": "9:30 AM"},
                },
            )
        ],
    ),
    # 11. options are filled with next-best schedules when the frontier is thin
    (
        "options-when-fixed",
        [
            (
                "Fix Muir, Ortega, McCoppin, Balboa, Galileo, Everett and Lick where they are",
                {"tools": [FIX] * 7 + [SOLVE]},
            ),
            ("show me options", {"tools": [ALT], "says": ["Option 1", "Option 2", "Option 3"]}),
        ],
    ),
    # 13. small wording cases
    ("peak-now", [("what's the peak now?", {"tools": [], "says": ["2,565 students"]})]),
    (
        "negative-limit",
        [("average change under -5 minutes", {"tools": [], "says": ["-5", "positive number"]})],
    ),
    ("midnight", [("Everett at 12:00 am", {"tools": [], "says": ["12:00 AM is not one"]})]),
    # from the principal's CLI session in the issue-5 audit
    (
        "from-origin-to-destination",
        [
            (
                "move Everett from 7:50 to 9:30",
                {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("9:30 AM")]},
            )
        ],
    ),
    (
        "two-starts-for-one-school",
        [
            (
                "Everett at 7:50 and at 9:30",
                {"tools": [], "says": ["Everett MS at 7:50 AM and at 9:30 AM; which one"], "constraints": []},
            )
        ],
    ),
    (
        "every-option-ruled-out",
        [
            (
                "Galileo not before 8:30 and not after 8:30",
                {
                    "tools": [],
                    "says": ["rules out every start-time option for Galileo HS"],
                    "constraints": [],
                },
            )
        ],
    ),
    (
        "school-and-limit-after-a-comma",
        [
            (
                "Everett later, keep the average change under 12 minutes",
                {
                    "tools": [FIX, BOUND, SOLVE],
                    "constraints": [EVERETT_FIX("8:40 AM"), "upper_bound[schedule_deviation]"],
                    "deviation": 11.5,
                    "says": ["I limited the average change to 12 minutes"],
                },
            )
        ],
    ),
    (
        "comma-without-a-limit-is-just-colour",
        [
            (
                "Everett later, the kids are exhausted",
                {"tools": [FIX, SOLVE], "constraints": [EVERETT_FIX("8:40 AM")]},
            )
        ],
    ),
    (
        "spelled-out-limit",
        [
            (
                "can we get it under two thousand students",
                {"tools": [BOUND, SOLVE], "load": 19.87, "says": ["I limited the peak to 2,000 students"]},
            )
        ],
    ),
    (
        "all-schools",
        [
            (
                "put all schools at 9:30",
                {
                    "tools": [FIX] * 10 + [SOLVE],
                    "load": 58.57,
                    "says": ['I read "all schools" as Muir (John) PK'],
                },
            )
        ],
    ),
    (
        "swap-two-schools",
        [
            (
                "swap Everett and Lick",
                {
                    "tools": [FIX, FIX, SOLVE],
                    "constraints": [EVERETT_FIX("8:40 AM"), "fix_start_time[Lick (James) MS=7:50 AM]"],
                },
            ),
            ("swap Galileo and Everett", {"tools": [FIX, FIX, SOLVE], "schedule": {"Galileo HS": "8:40 AM"}}),
        ],
    ),
    (
        "way-out-that-changes-nothing",
        [
            ("keep the peak under 1,500", {"tools": [BOUND, SOLVE], "status": "infeasible"}),
            ("option 2", {"tools": [], "says": ["leaves the model as it is now, so proposal 1 stays"]}),
            ("yes", {"tools": [], "says": ["make sure I change the right thing"]}),
        ],
    ),
    (
        "options-after-infeasible-mean-the-alternatives",
        [
            ("keep the peak under 1,500", {"tools": [BOUND, SOLVE], "status": "infeasible"}),
            ("show me five alternatives", {"tools": [ALT], "says": ["Option 1"]}),
            ("go with the second one", {"tools": [BOUND, BOUND, SOLVE], "status": "optimal"}),
        ],
    ),
    (
        "swap-same-start",
        [("switch Galileo and Everett", {"tools": [], "says": ["both start at 7:50 AM already"]})],
    ),
    (
        "adopt-before-options",
        [
            ("go with option 2", {"tools": [], "says": ["haven't shown any options yet"]}),
            ("yes", {"tools": [ALT], "says": ["Option 1"]}),
        ],
    ),
]


def play(agent: ScheduleAgent, turns: list[tuple[str, dict]]) -> None:
    """Send each user line and check the turn: tools called, constraints, status, objectives, schedule, wording."""
    agent.opening()
    for user, expect in turns:
        turn = agent.respond(user)
        called = [c["name"] for c in turn.tool_calls]
        assert called == expect["tools"], (user, called, turn.text)
        assert all("error" not in c["result"] for c in turn.tool_calls), turn.tool_calls
        if "constraints" in expect:
            assert turn.constraints == expect["constraints"], (user, turn.constraints)
        if "status" in expect:
            assert turn.status == expect["status"]
        if "load" in expect:
            assert turn.objectives[LOAD] == pytest.approx(expect["load"])
        if "deviation" in expect:
            assert turn.objectives[DEV] == pytest.approx(expect["deviation"])
        for school, time in expect.get("schedule", {}).items():
            assert turn.schedule[school] == time, (user, turn.schedule)
        for phrase in expect.get("says", []):
            assert phrase in turn.text, (phrase, turn.text)


@pytest.mark.parametrize("turns", [s[1] for s in SCRIPTS], ids=[s[0] for s in SCRIPTS])
def test_offline_regression(turns):
    play(ScheduleAgent(), turns)


TWINS = load_district(
    "name,grade,enrollment,current_start\nJefferson ES,ES,400,8:00 AM\nJeffers MS,MS,300,8:30 AM\n"
    "Lincoln HS,HS,500,7:45 AM\nGarfield ES,ES,350,9:00 AM\n",
    ["7:50 AM", "8:40 AM", "9:30 AM"],
    "twin names district",
)
JEFFERSON_FIX = "fix_start_time[Jefferson ES={}]".format
JEFFERS_FIX = "fix_start_time[Jeffers MS={}]".format
ASKED = 'Did you mean Jeffers MS or Jefferson ES by "jefers"?'


@pytest.mark.parametrize(
    "turns",
    [
        [
            ("Can jefers start at 9:30?", {"tools": [], "says": [ASKED]}),
            ("Jefferson ES", {"tools": [FIX, SOLVE], "constraints": [JEFFERSON_FIX("9:30 AM")]}),
        ],
        [
            ("jefers at 8:40 please", {"tools": [], "says": [ASKED]}),
            ("the first one", {"tools": [FIX, SOLVE], "constraints": [JEFFERS_FIX("8:40 AM")]}),
        ],
        [
            ("jefers later", {"tools": [], "says": [ASKED]}),
            (
                "actually, Lincoln at 9:30",
                {"tools": [FIX, SOLVE], "constraints": ["fix_start_time[Lincoln HS=9:30 AM]"]},
            ),
            ("Jefferson ES", {"tools": [], "says": ["What would you like for Jefferson ES"]}),
        ],
    ],
    ids=["answer-by-name", "answer-by-ordinal", "moved-on"],
)
def test_a_typo_that_fits_several_schools_is_asked_about(turns):
    """One clarifying question naming the candidates; the answer applies the held-back request."""
    play(ScheduleAgent(session=ScheduleSession(TWINS)), turns)


@pytest.mark.parametrize(
    ("ask", "count"),
    [("show me a couple of options", 2), ("5 alternatives please", 5), ("what else is there", 3)],
)
def test_the_number_of_options_asked_for(ask, count):
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond(ask)
    assert [(c["name"], c["arguments"]) for c in turn.tool_calls] == [(ALT, {"count": count})]
    assert len(turn.tool_calls[0]["result"]["alternatives"]) == count


def test_second_conflict_is_mentioned():
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond("keep the peak under 1,900 students and the average change under 5 minutes")
    assert turn.status == "infeasible" and turn.constraints == []
    assert "There is also a separate conflict" in turn.text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("is the peak under 2,500?", "the peak is 25.65"),
        ("does Lick start at 9:30?", "Lick (James) MS starts at 8:40 AM"),
        ("isn't Everett at 8:40?", "Everett MS starts at 7:50 AM"),
        ("is Galileo at 7:50 and the average change below 20 minutes?", "the average change from today's"),
    ],
)
def test_a_yes_no_question_about_the_schedule_is_answered_and_changes_nothing(question: str, said: str) -> None:
    """Asking whether something holds is no request to make it hold: no bound, no pin, the figures instead."""
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond(question)
    assert turn.tool_calls == []
    assert turn.constraints == []
    assert said in turn.text and "changed nothing" in turn.text


def test_a_request_put_as_a_question_still_acts() -> None:
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond("can we keep the peak under 2,500?")
    assert [c["name"] for c in turn.tool_calls] == [BOUND, SOLVE]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("keep Everett off the early 7:50 start", ("fix_start_time", "Everett MS", "7:50 AM", "forbid")),
        ("take Lick out of the late 9:30 bell", ("fix_start_time", "Lick (James) MS", "9:30 AM", "forbid")),
        ("i dont want schools moving more than 20 minutes on average", (BOUND, DEV, "20")),
    ],
)
def test_refusals_with_a_named_slot_or_a_bare_contraction(text: str, call: tuple[str, ...]) -> None:
    from tests.support.slots import planned

    calls, _ = planned(ScheduleAgent(), text)
    assert calls == [call]


@pytest.mark.parametrize(
    ("question", "verdict"),
    [("is the peak under 2,500?", "No: in proposal 1"), ("is the average change below 20 minutes?", "Yes: in proposal 1")],
)
def test_whether_a_measure_is_below_a_number_is_answered_yes_or_no(question: str, verdict: str) -> None:
    agent = ScheduleAgent()
    agent.opening()
    turn = agent.respond(question)
    assert turn.text.startswith(verdict), turn.text
    assert turn.tool_calls == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("our buses top out at 2600 students at any given time", "26"), ("the peak can't go past 2,500", "25")],
)
def test_a_ceiling_said_as_topping_out_is_a_load_bound(text: str, value: str) -> None:
    """Was a vague request that lowered the peak one step and ignored the number."""
    from tests.support.slots import planned

    calls, _ = planned(ScheduleAgent(), text)
    assert calls == [(BOUND, LOAD, value)]


def test_neither_should_repeats_the_refusal_for_the_next_school() -> None:
    from tests.support.slots import planned

    calls, _ = planned(ScheduleAgent(), "Lick must not start at 8:40, and neither should Everett.")
    assert calls == [(FIX, "Everett MS", "8:40 AM", "forbid"), (FIX, "Lick (James) MS", "8:40 AM", "forbid")]


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("The late bell, 9:30, is off the table for Lick.", (FIX, "Lick (James) MS", "9:30 AM", "forbid")),
        ("Lick can't start at 7.50, parents will riot", (FIX, "Lick (James) MS", "7:50 AM", "forbid")),
    ],
)
def test_a_refused_time_set_off_by_commas_or_a_dot_is_forbidden(text: str, call: tuple[str, ...]) -> None:
    """'The late bell, 9:30, is off the table' pinned the school at 9:30 (the opposite, silently)."""
    from tests.support.slots import planned

    calls, _ = planned(ScheduleAgent(), text)
    assert calls == [call]
