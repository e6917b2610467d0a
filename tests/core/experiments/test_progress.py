"""The terminal progress bar: plain lines for logs, a redrawn bar for terminals, an ETA once cells finish."""

from __future__ import annotations

import io

from core.experiments.progress import Progress, eta_text


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_eta_text() -> None:
    assert [eta_text(s) for s in (None, 12.4, 247, 3909)] == ["?", "12s", "4:07", "1:05:09"]


def test_plain_lines_when_not_a_terminal_and_a_redrawn_bar_on_one() -> None:
    log = io.StringIO()
    bar = Progress(10, already=4, stream=log, label="x ")
    assert "ETA ?" in bar.line() and "4/10 cells (40%)" in bar.line()
    bar.update(ok=True)
    bar.update(ok=False)
    bar.close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and len(lines) == 2  # the first update, then the closing line
    assert (
        lines[-1].startswith("x [")
        and "6/10 cells (60%) · 1 failed" in lines[-1]
        and "ETA ?" not in lines[-1]
    )
    tty = Terminal()
    bar = Progress(3, stream=tty)
    for _ in range(3):
        bar.update(ok=True)
    bar.close()
    assert tty.getvalue().count("\r") == 4 and tty.getvalue().endswith("ETA 0s\n")
