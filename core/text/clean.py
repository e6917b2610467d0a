"""Message hygiene before any reading: terminal escape sequences and control characters removed, unusual
dashes and quotes made plain, and an upper bound on the length that is read."""

from __future__ import annotations

import re

MAX_CHARS = 20_000
"""Longer messages are read up to this many characters (a chat turn, not a document); the rest is ignored
and `clean` says so."""

_ANSI_RE = re.compile(r"\x1b(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\ufeff]")
_PLAIN = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": " - ", "\u2018": "'", "\u2019": "'",
                        "\u201c": '"', "\u201d": '"', "\u00a0": " "})  # fmt: skip


def clean(text: str, limit: int = MAX_CHARS) -> tuple[str, bool]:
    """(text without escape sequences and control characters, whether it was cut at `limit` characters)."""
    cut = len(text) > limit
    text = text[:limit] if cut else text
    text = _CONTROL_RE.sub(" ", _ANSI_RE.sub(" ", text)).translate(_PLAIN)
    return text.encode("utf-8", "replace").decode("utf-8"), cut
