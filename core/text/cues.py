"""Word cues read from the one parse's tokens (issue 27 item 5): a reader asks whether a clause holds a word
("varies", "penalty", "non-perishable") and where, on `core.text.mentions.parse(text).toks`, instead of
re-scanning the raw text with a regular expression of its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.text.mentions import Token, parse


@dataclass(frozen=True)
class WordCue:
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
                if i + len(p) <= len(toks) and _run(toks, i, p):
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


def _run(toks: Sequence[Token], i: int, phrase: tuple[str, ...]) -> bool:
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
