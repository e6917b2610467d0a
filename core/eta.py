"""Time left of a long task from its pace so far, in words for a progress bar (no streamlit here)."""

from __future__ import annotations

import time
from collections.abc import Callable

MIN_FRACTION = 0.02
"""Below this share done the pace says too little to estimate the time left."""
MIN_ELAPSED_S = 1.0
"""Nor before this many seconds: short tasks show no estimate at all."""


def eta_text(seconds: float | None, prefix: str = "about") -> str:
    """A progress bar's time left: "about 40 s left", "about 3 min left", "about 1 h 5 min left" (`prefix` "at
    most" for a time budget's bound); blank without an estimate."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{prefix} {max(round(seconds), 1)} s left"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{prefix} {minutes} min left"
    return f"{prefix} {minutes // 60} h {minutes % 60} min left"


class Pace:
    """Started when a task starts; `left_s(fraction)` is the time left at the pace so far (None while too early
    to say, or when done)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()

    def left_s(self, fraction: float) -> float | None:
        elapsed = self.clock() - self.started
        if fraction < MIN_FRACTION or fraction >= 1.0 or elapsed < MIN_ELAPSED_S:
            return None
        return elapsed * (1.0 - fraction) / fraction

    def text(self, message: str, fraction: float) -> str:
        """`message`, followed by the time left once there is an estimate: "Simulating… · about 40 s left"."""
        left = eta_text(self.left_s(fraction))
        return f"{message} · {left}" if left else message
