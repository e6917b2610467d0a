"""Message hygiene before any reading: terminal escape sequences and control characters removed, unusual
dashes and quotes made plain, contractions typed without the apostrophe restored ('dont' -> "don't", 'theyre'
-> "they're"; once per message for every reader: the parse of 'dont' has no negation), and an upper bound on
the length that is read."""

from __future__ import annotations

import re

MAX_CHARS = 20_000
"""Longer messages are read up to this many characters (a chat turn, not a document); the rest is ignored
and `clean` says so."""

_ANSI_RE = re.compile(r"\x1b(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\ufeff]")
_PLAIN = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": " - ", "\u2018": "'", "\u2019": "'",
                        "\u201c": '"', "\u201d": '"', "\u00a0": " "})  # fmt: skip


_BARE_NT_RE = re.compile(
    r"\b(do|does|did|is|are|was|were|has|have|had|should|would|could|must|ca|wo|need)nt\b", re.IGNORECASE
)
"""'dont', 'shouldnt', 'cant', 'wont': the negation every reader looks for as "n't"."""
_BARE_PRONOUN_RE = re.compile(
    r"\b(?:(i)(m|ve)|(they|you)(re)|(they|you|i)(ll)|(that|there|what)(s))\b", re.IGNORECASE
)
"""'im', 'ive', 'theyre', 'youll', 'ill', 'thats', 'whats': the other contractions typed without the
apostrophe (not 'were', 'well', 'its' or 'hell', which are words)."""


def clean(text: str, limit: int = MAX_CHARS) -> tuple[str, bool]:
    """(text without escape sequences and control characters, whether it was cut at `limit` characters)."""
    cut = len(text) > limit
    text = text[:limit] if cut else text
    text = _CONTROL_RE.sub(" ", _ANSI_RE.sub(" ", text)).translate(_PLAIN)
    text = _BARE_NT_RE.sub(lambda m: f"{m.group(1)}n't", text)
    text = _BARE_PRONOUN_RE.sub(lambda m: "'".join(g for g in m.groups() if g), text)
    text = _DECIMAL_COMMA_RE.sub(_decimal_comma, text)
    return text.encode("utf-8", "replace").decode("utf-8"), cut


_DECIMAL_COMMA_RE = re.compile(r"(?<![\d,.])(\d{1,4}),(\d{2})(?![\d,])")
_PRICE_BEFORE = re.compile(r"(?:\b(?:for|at|is|pay|paid|cost|costs|sell|sells)|[€$£])\s*$", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(r"\s?(?:€|euros?\b|eur\b|dollars?\b|pounds?\b|bucks?\b)", re.IGNORECASE)


def _decimal_comma(m: re.Match[str]) -> str:
    """A decimal comma in a price ('I buy for 3,20 and sell for 5,70 euro'): two digits after the comma, beside a
    price word or a currency, are cents (a thousands group has three); elsewhere the text stays."""
    before, after = m.string[max(0, m.start() - 8) : m.start()], m.string[m.end() : m.end() + 8]
    priced = _PRICE_BEFORE.search(before) or _CURRENCY_AFTER.match(after)
    return f"{m.group(1)}.{m.group(2)}" if priced else m.group(0)
