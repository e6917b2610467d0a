"""Entity mentions: exact aliases found by token n-gram lookup (linear in the text), and misspelt names
matched with rapidfuzz."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process
from rapidfuzz.distance import JaroWinkler

_TOKEN_RE = re.compile(r"[a-z0-9][a-z0-9'.\-]*")


@dataclass(frozen=True)
class Mention:
    """An entity named in a text: where, by which words, and which entity."""

    start: int
    end: int
    alias: str
    entity: str


@dataclass
class EntityIndex:
    """Aliases (lower-case, one or more words) of named entities. `mentions` finds them in one left-to-right
    pass, longest alias first at each position; `fuzzy` proposes entities for a misspelt word."""

    aliases: dict[str, str]
    _by_words: dict[tuple[str, ...], str] = field(init=False, repr=False)
    _longest: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._by_words = {tuple(_bare(t) for t in _TOKEN_RE.findall(a.lower())): a for a in self.aliases}
        self._by_words.pop((), None)
        self._longest = max((len(k) for k in self._by_words), default=0)

    def mentions(self, text: str) -> list[Mention]:
        """Every alias occurrence, not overlapping, in order of appearance."""
        tokens = [(_bare(m.group(0)), m.start(), m.end()) for m in _TOKEN_RE.finditer(text.lower())]
        out, i = [], 0
        while i < len(tokens):
            for size in range(min(self._longest, len(tokens) - i), 0, -1):
                alias = self._by_words.get(tuple(t for t, _, _ in tokens[i : i + size]))
                if alias is not None:
                    out.append(Mention(tokens[i][1], tokens[i + size - 1][2], alias, self.aliases[alias]))
                    i += size
                    break
            else:
                i += 1
        return out

    def fuzzy(self, word: str, *, cutoff: float = 80.0, limit: int = 3, shortest: int = 5) -> tuple[str, ...]:
        """Entities whose one-word alias (of at least `shortest` letters) is close to `word` (same first letter,
        similarity >= cutoff), unless the word is the alias cut short: 'transit' is another word, not a misspelt
        'transition'."""
        word = word.lower()
        singles = [
            a
            for a in self.aliases
            if " " not in a and len(a) >= shortest and a[0] == word[:1] and not _cut_short(word, a)
        ]
        found = process.extract(word, singles, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit)
        swapped = [a for a in singles if abs(len(a) - len(word)) <= 1 and JaroWinkler.similarity(word, a) >= _SWAPPED]
        return tuple(dict.fromkeys(self.aliases[alias] for alias in [a for a, _, _ in found] + swapped))[:limit]


_SWAPPED = 0.93
"""Jaro-Winkler similarity at which a word of about the alias's length is its misspelling with letters swapped
('galelio' for 'galileo': ratio 71, Jaro-Winkler 0.97; 'transportation' / 'transition' is 0.89 and differs in
length)."""


def misspelt_key(word: str, keys: tuple[str, ...], keep: frozenset[str] = frozenset(), *, cutoff: float = 85.0) -> str | None:
    """The key word `word` misspells: the closest of `keys` and `keep` (same first letter, at most one letter
    longer or shorter, rapidfuzz ratio >= cutoff), when it is one of `keys`; None for a word of under four letters
    and for a word that is itself a key or kept word. The default cutoff takes one letter wrong in 'earlier' (85.7)
    or missing in 'later' (88.9); a swap in a five-letter word ('laetr', 80) is too far to be sure."""
    if len(word) < 4 or word in keys or word in keep or not word.isalpha():
        return None
    pool = [k for k in (*keys, *keep) if k[0] == word[0] and abs(len(k) - len(word)) <= 1]
    found = process.extractOne(word, pool, scorer=fuzz.ratio, score_cutoff=cutoff)
    return found[0] if found is not None and found[0] in keys else None


def _cut_short(word: str, alias: str) -> bool:
    return alias.startswith(word) and len(alias) - len(word) > 2


def _bare(token: str) -> str:
    """A word without trailing punctuation or a possessive ("everett's" -> "everett")."""
    token = token.rstrip(".'-")
    return token[:-2] if token.endswith("'s") else token
