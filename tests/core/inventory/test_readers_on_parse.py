"""The clarification and risk readers read the one parse's tokens (issue 27 item 5), not regexes of their own."""

from __future__ import annotations

import pytest

from core.inventory.nlu import replies
from core.inventory.nlu.extractors import normalize
from core.inventory.nlu.risk import read_risk


@pytest.mark.parametrize(
    ("text", "spread"),
    [
        ("sd of about 3", "3"),
        ("normal, give or take 4 a day", "4"),
        ("± 2.5", "2.5"),
        ("standard deviation 1,200", "1200"),  # the whole number, not its first digits
        ("we're shut on Thursdays, 5 a day", None),  # 'sd' inside a word is no spread word
        ("sd is something like twelve or so, 40", None),  # too far from the word
    ],
)
def test_the_spread_of_a_reply(text: str, spread: str | None) -> None:
    assert replies._spread(text) == spread


def test_an_option_word_is_read_at_a_word_start() -> None:
    toks = replies.parse("we'd rather be waiting").toks
    assert replies._says(toks, "wait")
    assert not replies._says(toks, "ait")
    assert replies._says(replies.parse("two lost sales").toks, "lost sale")


@pytest.mark.parametrize(
    ("text", "value"),
    [("minus 4, I guess", "-4"), ("negative 2.5", "-2.5"), ("3 I'd say", "3"), ("4\n-3", "4"), ("5 loaves", None)],
)
def test_numbers_on_the_risk_scale(text: str, value: str | None) -> None:
    found = read_risk(text)
    assert (found[0] if found and not found[1] else None) == value



@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("a conservative estimate is 20 a day", "about 20 a day"),
        ("my rough guess would be 40 a week", "about 40 a week"),
        ("realistically speaking 12", "about 12"),
        ("err on the cautious side, 15", "about, 15"),
        ("to be safe. We sell 5", "to be safe. We sell 5"),
        ("A Couple Of weeks", "2 weeks"),
        ("a couple cases a week", "2 cases a week"),
        ("a couplet of 3", "a couplet of 3"),
    ],
)
def test_the_last_rewrites_read_the_parse_tokens(said: str, read: str) -> None:
    """'a couple' -> 2 and a hedged estimate -> 'about' (only when a number follows in the sentence), found on
    the parse's tokens since extractors.py lost its last regex."""
    assert normalize(said)[0] == read
