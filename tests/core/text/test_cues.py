"""Word cues over the one parse's words (`core.text.cues`)."""

from __future__ import annotations

from core.text.cues import WordCue, words_at
from core.text.mentions import parse

CUE = WordCue(inside=("expens",), exact=frozenset(["dqn"]), phrases=(("deep", "q"), ("how", "much", "will")))


def test_a_cue_is_found_by_stem_word_and_phrase() -> None:
    assert CUE.found(parse("is it expensive?").words())
    assert CUE.found(parse("train a deep-Q network").words())
    assert not CUE.found(parse("the dqnx and deep water").words())


def test_where_gives_the_word_index_of_each_cue_and_length_at_its_words() -> None:
    words = parse("no DQN, but how much will a deep Q cost").words()
    assert CUE.where(words) == (1, 3, 7)
    assert [CUE.length_at(words, i) for i in (1, 3, 7, 0)] == [1, 3, 2, 0]
    assert words_at(words, 3, ("how", "much")) and not words_at(words, 2, ("how",))


def test_runs_are_whole_words_and_phrases_may_end_a_longer_word() -> None:
    week = WordCue(runs=(("a", "week"),))
    assert week.found(parse("for a week").words()) and not week.found(parse("an extra week").words())
    assert WordCue(phrases=(("a", "week"),)).found(parse("an extra week").words())
