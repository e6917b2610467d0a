"""The pattern-scan counter that replaces wall-clock bounds (`tests/support/scans.py`): it sees module patterns
and `re` calls, tells a re-scan per word from one pass, and leaves every pattern as it was."""

from __future__ import annotations

import re

from core.text import questions
from tests.support.scans import counting_scans


def test_module_patterns_and_re_calls_are_counted_with_their_lengths() -> None:
    text = "what is the peak now"
    with counting_scans() as scans:
        questions.is_question(text)
        re.findall(r"\w+", text, flags=re.IGNORECASE)
        re.sub(r"\s+", " ", text)
    assert scans.calls == 2 + 1 + 1  # is_question stops at the unmarked question: two of its patterns
    assert scans.chars == 4 * len(text) and scans.longest == len(text)


def test_a_rescan_per_word_is_told_from_one_pass() -> None:
    text = "word " * 2_000
    with counting_scans() as once:
        re.findall(r"\w+", text)
    with counting_scans() as per_word:
        for match in re.finditer(r"\w+", text):
            re.search(r"\d", text[match.end() :])  # the rest of the message, again for each word
    assert once.chars == len(text)
    assert per_word.chars > 900 * len(text)


def test_patterns_are_restored_after_the_block() -> None:
    pattern, search = questions._QUESTION_RE, re.search
    with counting_scans():
        assert questions._QUESTION_RE is not pattern and re.search is not search
    assert questions._QUESTION_RE is pattern and re.search is search
