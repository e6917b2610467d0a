"""Issue 25, the inventory chat: a message with a number that cannot be read exactly (a line of 1,000 or 7,980
digits, 1e308, a 23-digit number) is refused naming the number, before any reader sees it, with nothing
written to the table (a table edit of 23 digits too, naming the row); the session goes on, and scientific
notation within the limits is read as its value."""

from __future__ import annotations

import io
import json
import time

import pytest

from core.cli_args import MAX_LINE_CHARS
from core.config import Settings
from core.inventory.copilot.cli import run_chat
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.session import Copilot, CopilotConfig
from core.store import Store

REFUSED = {
    "1,000 digits": ("1" * 1_000, "a run of 1,000 digits"),
    "7,980 digits": ("1" * 7_980, "a run of 7,980 digits"),
    "1e308": ("Daily demand is Poisson with mean 1e308.", "'1e308': it is too large"),
    "23 digits": ("Holding a unit costs $0.12345678901234567890123 per day.", "23 significant digits"),
}


def test_unreadable_numbers_are_refused_before_reading_and_the_session_goes_on(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    respond = ExtractionAgent.respond

    def counted(self: ExtractionAgent, text: str):  # type: ignore[no-untyped-def]
        reads.append(text)
        return respond(self, text)

    monkeypatch.setattr(ExtractionAgent, "respond", counted)
    texts = [text for text, _ in REFUSED.values()] + ["Daily demand is Poisson with mean 2.5e1."]
    lines = [json.dumps({"user": text}) for text in texts]
    lines.insert(-1, json.dumps({"edit": {"key": "holding_cost", "value": "0.12345678901234567890123"}}))
    assert all(len(line) <= MAX_LINE_CHARS for line in lines)
    copilot = Copilot(Settings(), Store(tmp_path / "orca.duckdb"), CopilotConfig(paths=100))
    out = io.StringIO()
    started = time.monotonic()
    assert run_chat(copilot, io.StringIO("\n".join(lines) + "\n"), out) == len(lines)
    assert time.monotonic() - started < 120  # a hang guard only: before the fix 7,980 digits took minutes
    *refused, edit, answer = (json.loads(line) for line in out.getvalue().splitlines())
    assert edit["field"] == "holding_cost" and "23 significant digits" in edit["error"], edit
    for reply, (_, reason) in zip(refused, REFUSED.values(), strict=True):
        assert reply["field"] == "user" and "I can't read the number" in reply["error"], reply
        assert reason in reply["error"] and "Nothing was changed" in reply["error"]
    assert reads == [texts[-1]], "a refused message reaches no reader"
    table = answer["table"]
    assert table["demand_distribution"]["value"] == "poisson(25)"
    assert table["holding_cost"]["status"] == "undefined"
