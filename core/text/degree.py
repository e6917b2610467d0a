"""How strongly a statement is put: 'very careful' is strong, 'a bit careful' mild, 'careful' plain.

Intensifiers and downtoners are a small word list, not a meaning: which attitude a sentence states is learned
(`core.text.intents`); this only grades it. A negated intensifier ('not very', 'not too') softens.
"""

from __future__ import annotations

import re
from enum import Enum


class Degree(Enum):
    """How strongly something is said."""

    MILD = "mild"
    PLAIN = "plain"
    STRONG = "strong"


STRONG_WORDS = frozenset(
    ["very", "extremely", "really", "super", "highly", "hugely", "incredibly", "totally", "seriously",
     "massively", "deeply", "ultra", "quite a", "truly"]
)  # fmt: skip
MILD_WORDS = frozenset(
    ["a bit", "a little", "a little bit", "slightly", "somewhat", "mildly", "a tad", "kind of", "kinda",
     "sort of", "sorta", "moderately", "a touch", "marginally", "a smidge", "ish"]
)  # fmt: skip
_WORD_RE = re.compile(r"[a-z']+")


def intensity(text: str) -> Degree:
    """STRONG for an intensifier ('very', 'extremely', 'really'), MILD for a downtoner ('a bit', 'slightly',
    'kind of') or a negated intensifier ('not very', 'not too'), else PLAIN. Downtoners win over
    intensifiers ('really a bit careful' is mild)."""
    words = _WORD_RE.findall(text.lower().replace("\u2019", "'"))
    grams = [(i, " ".join(words[i : i + n])) for n in (1, 2, 3) for i in range(len(words) - n + 1)]
    if any(g in MILD_WORDS for _, g in grams):
        return Degree.MILD
    for i, gram in grams:
        if gram in STRONG_WORDS or gram == "too":
            if i > 0 and words[i - 1] in ("not", "never"):
                return Degree.MILD
            if gram != "too":
                return Degree.STRONG
    return Degree.PLAIN
