"""Issue 27 item 5 for School Scheduling (session s28): the word cues the readers take from the one parse's words
(`core.text.mentions.parse`) instead of their own regexes read what the patterns read, in phrasings of this
file's own: stems inside a word, whole words, word beginnings, phrases across a longer first or last word, 'keep'
that goes on with an -ing word, whole-word search, the school-name aliases and typed start times."""

from __future__ import annotations

import pytest

from core.schedule import language as lang
from core.schedule.offline import _replace_word
from core.schedule.offline_schools import (
    EARLIER_WORDS,
    LATER_WORDS,
    _find_cues,
    _keeps,
    _named_slot,
    _word_at,
    has_request,
)
from core.schedule.state import resolve_time, school_aliases
from core.text.mentions import parse
from solvers.schedule.data import load_district


@pytest.mark.parametrize(
    ("text", "load", "change", "reduce"),
    [
        ("could the arrivals be spread out a bit", True, False, True),
        ("our families hate the reshuffling", False, True, False),
        ("cutting the bus bill matters most", True, False, True),
        ("fewer kids piling up at a time", True, False, True),
        ("what's the mean absolute shift now", False, True, False),
        ("Everett later please", False, False, False),
    ],
)
def test_objective_cues_are_read_from_the_parse_words(text, load, change, reduce):
    assert (lang.load_cue(text), lang.change_cue(text), lang.reduce_cue(text)) == (load, change, reduce)


@pytest.mark.parametrize(
    ("words", "phrase", "found"),
    [
        (("i'm", "unhappy", "with", "it"), ("happy", "with"), True),
        (("kids", "fall", "asleep", "in", "class"), ("sleep", "in"), True),
        (("not", "so", "manyfold"), ("not", "so", "many"), True),
        (("happy", "today", "with"), ("happy", "with"), False),
    ],
)
def test_a_phrase_matches_as_a_stretch_of_text_would(words, phrase, found):
    assert lang.WordCue(phrases=(phrase,)).found(words) is found


@pytest.mark.parametrize(
    ("text", "keeps"),
    [
        ("the parents keep asking for it", False),
        ("teachers keep on complaining", False),
        ("keep Lick where it is", True),
        ("Lick keeps its slot", True),
        ("leave Galileo alone", True),
    ],
)
def test_keep_that_goes_on_with_an_ing_word_holds_nothing(text, keeps):
    assert _keeps(parse(text.lower()).words()) is keeps


@pytest.mark.parametrize(
    ("clause", "asks"),
    [("galileo, any time works", True), ("muir can sleep in", True), ("cobb is a lovely school", False)],
)
def test_a_clause_asks_something_of_a_school_by_its_words(clause, asks):
    assert has_request(clause) is asks


@pytest.mark.parametrize(
    ("text", "word", "at"),
    [("please swap lick and cobb", "swap", 7), ("swapping is fine", "swap", -1), ("a trade-off", "trade", 2)],
)
def test_a_word_is_found_whole(text, word, at):
    assert _word_at(text, word) == at


@pytest.mark.parametrize(
    ("text", "out"),
    [
        ("put it at 8:40, it matters", "put lick at 8:40, lick matters"),
        ("with it", "with lick"),
        ("item at 9:30", "item at 9:30"),
    ],
)
def test_a_held_word_is_replaced_whole(text, out):
    assert _replace_word(text, "it", "lick") == out


@pytest.mark.parametrize(
    ("window", "denied"), [("no ", True), ("lawton, no ", True), ("lawton,no ", False), ("piano ", False)]
)
def test_a_bare_no_before_a_time_denies_it(window, denied):
    assert lang._bare_no(window) is denied


def test_school_aliases_and_typed_start_times_need_no_regex():
    district = load_district()
    aliases = school_aliases(district)
    assert aliases["john muir"] == "Muir (John) PK"
    assert aliases["muir pk"] == "Muir (John) PK"
    assert aliases["ttc"] == "Transition Training Center (Access)"
    assert resolve_time(district, "840") == 520 and resolve_time(district, "0930") == 570
    assert lang.split_clauses("priority no. 1: fewer buses. thanks") == ["priority no 1: fewer buses", "thanks"]


@pytest.mark.parametrize(
    ("clause", "earlier", "later"),
    [
        ("not later, earlier please", [(11, 18, "earlier")], [(4, 9, "later")]),
        ("as early as you can, they're too late now", [(0, 11, "as early as"), (29, 37, "too late")], []),
        ("push them back, not the earliest", [(24, 32, "earliest")], [(0, 14, "push them back")]),
        ("too-late complaints", [], []),
    ],
)
def test_direction_words_are_found_with_their_places(clause, earlier, later):
    assert _find_cues(clause, EARLIER_WORDS) == earlier
    assert _find_cues(clause, LATER_WORDS) == later


@pytest.mark.parametrize(
    ("clause", "slot"),
    [
        ("keep lick off the early slot", (18, 28, "early")),
        ("cobb in the last starting time", (12, 30, "last")),
        ("the middle bell for ortega", (4, 15, "middle")),
        ("not-second-time", None),
        ("the first day of school", None),
    ],
)
def test_a_start_option_named_by_its_place_is_found_with_its_span(clause, slot):
    assert _named_slot(clause) == slot


@pytest.mark.parametrize(
    ("text", "least"),
    [
        ("as few changes as we can manage", True),
        ("keep moves minimal", True),
        ("the least disruption", True),
        ("as little as before. as possible", False),
        ("at least two buses", True),
        ("as early as possible", False),
    ],
)
def test_the_smallest_amount_is_read_within_a_sentence(text, least):
    assert lang.least(text) is least


@pytest.mark.parametrize(
    ("text", "schools"),
    [
        ("everet later please", ("Everett MS",)),
        ("everest elementary later please", ()),
        ("everet middle at 9:30", ("Everett MS",)),
    ],
)
def test_a_misspelt_name_is_read_with_the_grade_word_after_it(text, schools):
    found = lang.fuzzy_mentions(text, load_district())
    assert tuple(s for _, _, c in found for s in c) == schools
