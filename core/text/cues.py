"""Word cues read from the one parse (`core.text.mentions.parse`), never from the raw text (issue 27 item 5).

A cue names one thing by its words: stems found inside a word, whole words, word beginnings and endings, runs of
words. Two readers of the same idea, on the parse's two views of a message: `WordCue` on its words
(`Message.words`; with `Message.word_spans` a match also has its place in the text), used by the Copilot's answer
readers and School Scheduling; `TokenCue` on its tokens (`Message.toks`: words and the symbols = + ± λ μ σ $,
each with its character span), used by the inventory row readers, which read written forms such as '20 ± 5'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.text.mentions import Token, parse


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
        return any(_word_run(words, i, p) for p in self.phrases for i in range(len(words) - len(p) + 1))

    def length_at(self, words: tuple[str, ...], i: int) -> int:
        """How many words from `words[i]` one cue takes (the longest), 0 when none starts there."""
        w = words[i]
        one = w in self.exact or w.startswith(self.starts or ("\0",)) or any(stem in w for stem in self.inside)
        runs = [len(p) for p in self.phrases if i + len(p) <= len(words) and _word_run(words, i, p)]
        runs += [len(r) for r in self.runs if words_at(words, i, r)]
        return max([1 if one else 0, *runs])

    def where(self, words: tuple[str, ...]) -> tuple[int, ...]:
        """The indices of the words where a cue begins."""
        return tuple(i for i in range(len(words)) if self.length_at(words, i))


def _word_run(words: tuple[str, ...], i: int, phrase: tuple[str, ...]) -> bool:
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


@dataclass(frozen=True)
class TokenCue:
    """Words that name one thing, matched on tokens as a pattern would match the text: `inside` stems found
    anywhere in a word ('expir' in 'expires'), `exact` whole tokens (symbols too: '$'), `starts` and `ends`
    word beginnings and endings ('bill' in 'billed', 'free' in 'carefree'), `phrases` runs of tokens whose first
    token may end a longer word and whose last may begin one ('lost sale' in 'lost sales', 'set - up'), `runs`
    runs of whole tokens ('like clockwork')."""

    inside: tuple[str, ...] = ()
    exact: frozenset[str] = frozenset()
    starts: tuple[str, ...] = ()
    ends: tuple[str, ...] = ()
    phrases: tuple[tuple[str, ...], ...] = ()
    runs: tuple[tuple[str, ...], ...] = ()

    def spans(self, toks: Sequence[Token]) -> list[tuple[int, int]]:
        """The character spans of the cue's occurrences, in text order (one pass over the tokens)."""
        out = []
        for i, t in enumerate(toks):
            w = t.low
            if w in self.exact or (
                t.kind == "word"
                and (
                    w.startswith(self.starts or ("\0",))
                    or w.endswith(self.ends or ("\0",))
                    or any(stem in w for stem in self.inside)
                )
            ):
                out.append((t.start, t.end))
                continue
            for p in self.phrases:
                if i + len(p) <= len(toks) and _token_run(toks, i, p):
                    out.append((t.start, toks[i + len(p) - 1].end))
                    break
            else:
                for p in self.runs:
                    if w == p[0] and tuple(x.low for x in toks[i : i + len(p)]) == p:
                        out.append((t.start, toks[i + len(p) - 1].end))
                        break
        return out

    def found(self, toks: Sequence[Token]) -> bool:
        """Whether the tokens hold the cue."""
        return bool(self.spans(toks))

    def in_text(self, text: str) -> bool:
        """Whether a message or clause holds the cue, read from its one parse."""
        return self.found(parse(text).toks)

    def leads(self, toks: Sequence[Token]) -> bool:
        """Whether the tokens open with the cue: it starts at the first word or number, symbols before it skipped
        ('... if they run out', '(so) that's the most')."""
        first = next((t for t in toks if t.kind != "sym"), None)
        return first is not None and any(start == first.start for start, _ in self.spans(toks))


def _token_run(toks: Sequence[Token], i: int, phrase: tuple[str, ...]) -> bool:
    last = len(phrase) - 1
    return (
        toks[i].low.endswith(phrase[0])
        and toks[i + last].low.startswith(phrase[last])
        and all(toks[i + k].low == phrase[k] for k in range(1, last))
    )


def token_after(toks: Sequence[Token], pos: int) -> int:
    """The index of the first token starting at or after `pos` (len(toks) when there is none)."""
    lo, hi = 0, len(toks)
    while lo < hi:
        mid = (lo + hi) // 2
        if toks[mid].start < pos:
            lo = mid + 1
        else:
            hi = mid
    return lo
