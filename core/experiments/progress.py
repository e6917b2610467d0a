"""A terminal progress bar with ETA for experiment runs (stderr; plain lines when stderr is not a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR_WIDTH = 28
PLAIN_EVERY_S = 5.0


def eta_text(seconds: float | None) -> str:
    """`1:05:09`, `4:07` or `12s`; `?` when unknown."""
    if seconds is None or seconds != seconds or seconds < 0:
        return "?"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else (f"{m}:{sec:02d}" if m else f"{sec}s")


class Progress:
    """Counts finished cells of `total` (of which `already` were done before this run) and shows an ETA."""

    def __init__(
        self, total: int, already: int = 0, *, stream: TextIO | None = None, label: str = ""
    ) -> None:
        self.total, self.already = total, already
        self.done = self.failed = 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self.started = time.monotonic()
        self._last_plain = 0.0

    @property
    def finished(self) -> int:
        return self.already + self.done + self.failed

    def eta_s(self) -> float | None:
        ran = self.done + self.failed
        if ran == 0:
            return None
        return (time.monotonic() - self.started) / ran * (self.total - self.finished)

    def line(self) -> str:
        share = self.finished / self.total if self.total else 1.0
        filled = int(round(share * BAR_WIDTH))
        bar = "█" * filled + "·" * (BAR_WIDTH - filled)
        failed = f" · {self.failed} failed" if self.failed else ""
        return (
            f"{self.label}[{bar}] {self.finished}/{self.total} cells ({share:.0%}){failed} · "
            f"elapsed {eta_text(time.monotonic() - self.started)} · ETA {eta_text(self.eta_s())}"
        )

    def update(self, *, ok: bool) -> None:
        if ok:
            self.done += 1
        else:
            self.failed += 1
        self.show()

    def show(self, final: bool = False) -> None:
        """Redraw the bar (a terminal) or print a line at most every few seconds and at the end (a log)."""
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.line() + ("\n" if final else ""))
        elif final or now - self._last_plain >= PLAIN_EVERY_S:
            self.stream.write(self.line() + "\n")
            self._last_plain = now
        self.stream.flush()

    def close(self) -> None:
        self.show(final=True)
