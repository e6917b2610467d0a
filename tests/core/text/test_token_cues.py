"""Token cues read on the one parse's tokens (`core.text.cues.TokenCue`)."""

from __future__ import annotations

import pytest

from core.text.cues import TokenCue, token_after
from core.text.mentions import parse

CUE = TokenCue(
    inside=("expir",),
    exact=frozenset(["$", "nothing"]),
    starts=("bill",),
    ends=("free",),
    phrases=(("lost", "sale"), ("set", "-", "up")),
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("it expires soon", True),  # a stem inside a word
        ("it costs $5", True),  # a symbol token
        ("nothing keeps", True),
        ("nothingness", False),  # exact words are whole tokens
        ("they billed me", True),  # a word beginning
        ("delivery is carefree", True),  # a word ending
        ("two lost sales a day", True),  # the phrase's last word may begin a longer one
        ("the set-up fee", True),  # a hyphen is a token of the phrase
        ("set up the shelf", False),
        ("lost a sale", False),
        ("the bill-free shop", True),
        ("no cue here", False),
    ],
)
def test_word_cues_match_tokens_as_a_pattern_matched_text(text: str, found: bool) -> None:
    assert CUE.in_text(text) is found


def test_spans_are_character_spans_in_text_order() -> None:
    text = "lost sale, then it expires"
    assert [text[a:b] for a, b in CUE.spans(parse(text).toks)] == ["lost sale", "expires"]


def test_token_after_a_position() -> None:
    toks = parse("25 doses per order").toks
    assert toks[token_after(toks, 2)].low == "doses"
    assert token_after(toks, 100) == len(toks)


def test_runs_are_whole_tokens() -> None:
    cue = TokenCue(runs=(("same", "every"),))
    assert cue.in_text("the same every day")
    assert not cue.in_text("the same everyday")
    assert not cue.in_text("the sameness every day")


@pytest.mark.parametrize(
    ("text", "leads"),
    [
        ("if they run out", True),
        ("... as soon as it comes", True),  # symbols before the first word are skipped
        ("we wait if they run out", False),  # the cue is there, but not first
        ("5 if they run out", False),  # a number is a first token
        ("as soon", False),
    ],
)
def test_a_cue_leads_when_it_starts_at_the_first_word(text: str, leads: bool) -> None:
    cue = TokenCue(exact=frozenset(["if"]), runs=(("as", "soon", "as"),))
    assert cue.leads(parse(text).toks) is leads
