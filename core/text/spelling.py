"""Misspelt key words ('earliar', 'latr', 'ealier'): a word of the message close to one of a reader's key words is
read as that word, found with rapidfuzz as `entities.EntityIndex.fuzzy` finds misspelt names; no list of
misspellings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from core.text.entities import misspelt_key
from core.text.mentions import parse


def respelt(
    text: str, keys: Iterable[str], keep: Iterable[str] = (), kept_after: Mapping[str, frozenset[str]] | None = None
) -> str:
    """The text with every word that misspells one of `keys` replaced by it ('go earliar' -> 'go earlier'). Words
    in `keep` are words of their own near a key ('latter', 'late'): they stay, and a word closer to one of them
    than to a key stays too. A kept word named in `kept_after` is its own word only right after one of the words
    given for it ('the latter'); elsewhere it is read as the key it is close to ('a latter bell' -> 'a later
    bell'). The words are the one parse's (`core.text.mentions.parse`)."""
    keys, keep, after = tuple(keys), frozenset(keep), kept_after or {}
    message = parse(text)
    out, start, words = [], 0, message.words()
    for i, (word, (a, b)) in enumerate(zip(words, message.word_spans(), strict=True)):
        key = misspelt_key(word, keys, keep)
        if word in after and not (i and words[i - 1] in after[word]):
            key = misspelt_key(word, keys)
        if key is not None:
            out += [text[start:a], key]
            start = b
    return "".join(out) + text[start:] if out else text
