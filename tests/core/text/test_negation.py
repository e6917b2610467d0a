"""core.text.negation: what a sentence denies or excludes, what only looks negative, and the scope of each."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.text.corrections import settle
from core.text.negation import (
    DENIAL,
    negated,
    negated_at,
    negation_scopes,
    scope_end,
    strip_denied,
)


@pytest.mark.parametrize(
    ("text", "scoped"),
    [
        ("I don't like taking chances, but ok", " like taking chances"),
        ("I dont want any risk", " want any risk"),
        ("we cant store more than 40", " store more than 40"),
        ("it wont arrive before Friday", " arrive before Friday"),
        ("shipping isnt free", " free"),
        ("shipping isn\u2019t free", " free"),
        ("we never run out", " run out"),
        ("there is no backorder", " backorder"),
        ("without a backlog", " a backlog"),
        ("customers don't wait, they leave", " wait"),
        ("Lick can't start earlier", " start earlier"),
        ("Lick no earlier than 8:30", " earlier than 8:30"),
        ("no schools before 8:30", " schools before 8:30"),
        ("Holding cost is not $2, it is $1", " $2"),
        ("Lead time is not 3 days, it's 5", " 3 days"),
        ("we don't sell much so keep it small", " sell much "),
        ("don't start Lick so early", " start Lick so early"),
        ("not so many kids at once", " so many kids at once"),
        ("it's not bad because the bus is cheap", " bad "),
        ("we never sell out if we order on monday", " sell out "),
        ("No no, not 5 days! 5pm is the cutoff time", " 5 days"),
        ("no way Lick starts at 7", " way Lick starts at 7"),
        ("neither option", " option"),
    ],
)
def test_a_negator_negates_the_rest_of_its_clause(text: str, scoped: str) -> None:
    scopes = negation_scopes(text)
    assert negated(text)
    assert [text[s.begin : s.end] for s in scopes] == [scoped]
    assert not scopes[0].exclusion


@pytest.mark.parametrize(
    "text",
    [
        "why not move Lick earlier",
        "Why don't we start the high schools later?",
        "why can't Lick start at 9?",
        "don't you think 5 is too many?",
        "isn't it better to keep the current times?",
        "shouldn't we spread the students out more?",
        "can't we stay closer to the current start times?",
        "wouldn't it be cheaper to order twice a week",
        "They open at 8, don't they?",
        "not sure",
        "I'm not really sure",
        "not 100% sure, maybe 20",
        "I don't know, maybe 5",
        "I dont know",
        "no idea",
        "no clue what the holding cost is",
        "no, 5",
        "no 5",
        "no",
        "No I meant 7",
        "no thanks",
        "no problem, move Lick later",
        "no wait, 40",
        "nope",
        "I like taking chances",
        "move Lick later",
        "keep the peak under 1500",
    ],
)
def test_proposals_hedges_and_reply_particles_are_not_negation(text: str) -> None:
    assert not negated(text)
    assert not negated(text, exclusions=True)


@pytest.mark.parametrize(
    ("text", "cue", "scoped"),
    [
        ("nothing before 9", "nothing", " before 9"),
        ("none before 9", "none", " before 9"),
        ("none of the schools before 8", "none of", " the schools before 8"),
        ("put Lick at 9:30 instead of 7:50", "instead of", " 7:50"),
        ("anything but 7:50 for Everett", "anything but", " 7:50 for Everett"),
        ("all schools except Lick", "except", " Lick"),
        ("all schools except for Lick and Everett", "except for", " Lick "),
        ("avoid 7:50", "avoid", " 7:50"),
        ("the later slot rather than 7:50", "rather than", " 7:50"),
        ("any time other than 8:30", "other than", " 8:30"),
    ],
)
def test_exclusions_count_only_when_asked_for(text: str, cue: str, scoped: str) -> None:
    assert not negated(text)
    (scope,) = negation_scopes(text, exclusions=True)
    assert (scope.cue, text[scope.begin : scope.end], scope.exclusion) == (cue, scoped, True)


def test_a_negator_and_an_exclusion_at_one_place_count_once() -> None:
    scopes = negation_scopes("no schools before 9 and nothing after 3", exclusions=True)
    assert [(s.cue, s.exclusion) for s in scopes] == [("no", False), ("nothing", True)]


@pytest.mark.parametrize(
    ("text", "word", "covered"),
    [
        ("Lick not earlier than 8", "earlier", True),
        ("not Lick, Everett earlier", "earlier", False),
        ("not Lick, Everett earlier", "Lick", True),
        ("don't move Lick earlier or later", "later", True),
        ("don't move Lick earlier but later", "later", False),
        ("why not move Lick earlier", "earlier", False),
        ("put Lick at 9:30 instead of 7:50", "9:30", False),
    ],
)
def test_negated_at_tells_which_words_a_negation_reaches(text: str, word: str, covered: bool) -> None:
    assert negated_at(text, text.index(word), exclusions=True) is covered


@pytest.mark.parametrize(
    ("window", "negates"),
    [
        ("lick no ", True),  # 'Lick no earlier than 8:30', cut before the direction
        ("lick not ", True),
        ("none ", True),
        ("instead of ", True),
        ("everett, anything but ", True),
        ("can't we put lick at ", False),
        ("why not move lick ", False),
        ("no, move lick ", False),
        ("not sure, move lick ", False),
        ("move lick ", False),
        ("lick can't start any ", True),
    ],
)
def test_a_window_before_a_time_or_direction(window: str, negates: bool) -> None:
    assert negated_at(window, len(window), exclusions=True) is negates


def test_scope_end_keeps_clock_times_amounts_and_intensifiers_whole() -> None:
    text = "not at 7:50 or $2.50 or 1,200, so early"
    assert scope_end(text, 0) == text.index(", so")
    assert scope_end("don't start so early. ok", 0) == len("don't start so early")
    assert scope_end("no stock so we wait", 0) == len("no stock ")


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("not A, B please", "B please"),
        ("not option A, B", "B"),
        ("anything but (b), so c", ", so c"),
        ("rather than the old one, the new", "one, the new"),
        ("not $5, the $7 one", "the $7 one"),
        ("instead of 10 I want 12", "I want 12"),
        ("I'd say B, not C", "I'd say B,"),
        ("why not A?", "why not A?"),
        ("not a, b", "b"),
        ("no longer the old value", "value"),
        ("it isn't A, it's B", "it it's B"),
    ],
)
def test_strip_denied_removes_denied_options(text: str, left: str) -> None:
    assert " ".join(strip_denied(text).split()) == left


def test_corrections_deny_values_with_the_same_negators() -> None:
    assert DENIAL in ("(?:not|never|(?:is|are|was|were)n'?t)",)
    for text, kept in [
        ("Holding cost is not $2, it is $1", "$1"),
        ("Lead time is not 3 days, it's 5", "5 days"),
        ("it weren't 4 days, 6", "6 days"),
        ("never 10 units, 12", "12 units"),
    ]:
        settled = settle(text)
        assert settled.corrected and kept in settled.text, (text, settled)


@given(st.text(alphabet=st.sampled_from(list("notdn' ,.wykah?"))) | st.text(max_size=200))
def test_scopes_lie_inside_the_text_and_in_order(text: str) -> None:
    scopes = negation_scopes(text, exclusions=True)
    assert all(0 <= s.start < s.begin <= s.end <= len(text) for s in scopes)
    assert [s.start for s in scopes] == sorted({s.start for s in scopes})


@pytest.mark.parametrize(
    "text",
    ["not sure", "I'm not really sure", "not 100% sure", "I dont know", "we never know", "I cant say", "no idea"],
)
def test_a_hedge_is_an_unsure_answer_and_no_negation(text: str) -> None:
    from core.text.answers import Polarity, polarity

    assert polarity(text) is Polarity.UNSURE
    assert not negated(text)


def test_idioms_that_look_negative_deny_nothing() -> None:
    from core.text.negation import negated

    assert not negated("the milk spoils in no time")
    assert not negated("not only bread but rolls")
    assert negated("we have no time to count")
    assert negated("it does not spoil")
