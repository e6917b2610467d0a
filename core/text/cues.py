"""Word cues read from the one parse's words (`core.text.mentions.Message.words`), never from the raw text.

A `WordCue` names one thing by its words: stems found inside a word, whole words, word beginnings and runs of
words. Readers of chat messages use it where a regex over the message once looked for a keyword; with
`Message.word_spans` a match also has its place in the text (for negation scopes and mention spans).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WordCue:
    """Words that name one thing: `inside` are stems found anywhere in a word ('arriv' in 'arrivals', 'famil'
    in 'families'), `exact` whole words, `starts` word beginnings ('cut' in 'cutting'), `phrases` runs of
    words ('at a time', as in a stretch of text: `_run`), `runs` runs of whole words ('a week', not in 'an extra
    week')."""

    inside: tuple[str, ...] = ()
    exact: frozenset[str] = frozenset()
    phrases: tuple[tuple[str, ...], ...] = ()
    starts: tuple[str, ...] = ()
    runs: tuple[tuple[str, ...], ...] = ()

    def found(self, words: tuple[str, ...]) -> bool:
        """Whether the words hold one of the cues."""
        if any(w in self.exact or w.startswith(self.starts or ("\0",)) for w in words):
            return True
        if any(stem in w for w in words for stem in self.inside):
            return True
        if any(words_at(words, i, r) for r in self.runs for i in range(len(words) - len(r) + 1)):
            return True
        return any(_run(words, i, p) for p in self.phrases for i in range(len(words) - len(p) + 1))

    def length_at(self, words: tuple[str, ...], i: int) -> int:
        """How many words from `words[i]` one cue takes (the longest), 0 when none starts there."""
        w = words[i]
        one = w in self.exact or w.startswith(self.starts or ("\0",)) or any(stem in w for stem in self.inside)
        runs = [len(p) for p in self.phrases if i + len(p) <= len(words) and _run(words, i, p)]
        runs += [len(r) for r in self.runs if words_at(words, i, r)]
        return max([1 if one else 0, *runs])

    def where(self, words: tuple[str, ...]) -> tuple[int, ...]:
        """The indices of the words where a cue begins."""
        return tuple(i for i in range(len(words)) if self.length_at(words, i))


def _run(words: tuple[str, ...], i: int, phrase: tuple[str, ...]) -> bool:
    """Whether the words from `i` say the phrase as a stretch of text would: the first word may end a longer word
    and the last begin one ('happy with' in 'unhappy with', 'sleep in' in 'asleep in')."""
    last = len(phrase) - 1
    return (
        words[i].endswith(phrase[0])
        and words[i + last].startswith(phrase[last])
        and words[i + 1 : i + last] == phrase[1:last]
        if last
        else phrase[0] in words[i]
    )


def words_at(words: tuple[str, ...], i: int, phrase: tuple[str, ...]) -> bool:
    """Whether the words from `i` are exactly the phrase's words."""
    return words[i : i + len(phrase)] == phrase
