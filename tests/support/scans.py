"""Counting the text that regular expressions scan: an operation count that bounds the work of reading a message
without a clock, so a loaded machine cannot fail it (the reading's speed is timed in `bench/offline_turn.py`).

Inside `counting_scans()`, every compiled pattern held by a module-level name of `core` and `solvers` and every
call of the `re` module's functions counts one scan and the characters it covers. Patterns kept elsewhere (in a
tuple, a closure, a cached function's result) are not seen, so the counts are lower bounds of the work: good for
an upper limit that a quadratic re-scan of the message would break at once, not for exact totals.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

_PREFIXES = ("core.", "solvers.")
_RE_FUNCTIONS = ("search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split")


@dataclass
class Scans:
    """Scans made so far: how many, the characters they covered, and the longest text one of them saw."""

    calls: int = 0
    chars: int = 0
    longest: int = 0

    def add(self, text: object, pos: int = 0, endpos: int | None = None) -> None:
        if not isinstance(text, str | bytes):
            return
        size = max(0, min(len(text), len(text) if endpos is None else endpos) - pos)
        self.calls += 1
        self.chars += size
        self.longest = max(self.longest, size)


class _CountingPattern:
    """A compiled pattern that counts each scan; everything else is the pattern's own."""

    def __init__(self, pattern: re.Pattern, scans: Scans) -> None:
        self.pattern_object, self._scans = pattern, scans

    def __getattr__(self, name: str) -> object:
        return getattr(self.pattern_object, name)

    def _ranged(self, name: str) -> Callable[..., object]:
        def scan(string: str, pos: int = 0, endpos: int = sys.maxsize) -> object:
            self._scans.add(string, pos, endpos)
            return getattr(self.pattern_object, name)(string, pos, endpos)

        return scan

    @property
    def search(self) -> Callable[..., object]:
        return self._ranged("search")

    @property
    def match(self) -> Callable[..., object]:
        return self._ranged("match")

    @property
    def fullmatch(self) -> Callable[..., object]:
        return self._ranged("fullmatch")

    @property
    def findall(self) -> Callable[..., object]:
        return self._ranged("findall")

    @property
    def finditer(self) -> Callable[..., object]:
        return self._ranged("finditer")

    def sub(self, repl: object, string: str, count: int = 0) -> str:
        self._scans.add(string)
        return self.pattern_object.sub(repl, string, count)

    def subn(self, repl: object, string: str, count: int = 0) -> tuple[str, int]:
        self._scans.add(string)
        return self.pattern_object.subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str]:
        self._scans.add(string)
        return self.pattern_object.split(string, maxsplit)


def _counting_function(original: Callable[..., object], scans: Scans) -> Callable[..., object]:
    """`re.<name>(pattern, ...)` counting one scan of its text argument (the argument after the replacement for
    `sub`/`subn`, else the one after the pattern)."""
    text_at = 2 if original.__name__ in ("sub", "subn") else 1

    def scan(pattern: object, *args: object, **kwargs: object) -> object:
        if isinstance(pattern, _CountingPattern):
            pattern = pattern.pattern_object
        text = args[text_at - 1] if len(args) >= text_at else kwargs.get("string")
        scans.add(text)
        return original(pattern, *args, **kwargs)

    return scan


@contextmanager
def counting_scans() -> Iterator[Scans]:
    """Count the scans made inside the block (see the module docstring); everything is restored after it."""
    scans = Scans()
    restore: list[tuple[object, str, object]] = []
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(_PREFIXES):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                restore.append((module, attr, value))
                setattr(module, attr, _CountingPattern(value, scans))
    for name in _RE_FUNCTIONS:
        original = getattr(re, name)
        restore.append((re, name, original))
        setattr(re, name, _counting_function(original, scans))
    try:
        yield scans
    finally:
        for owner, attr, value in reversed(restore):
            setattr(owner, attr, value)
