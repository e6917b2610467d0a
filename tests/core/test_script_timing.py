"""The opt-in server-side timing of script runs (`core/ui.py: script_timing`, `$ORCA_SCRIPT_TIMING`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.ui import SCRIPT_TIMING_VAR, script_timing

ROOT = Path(__file__).resolve().parents[2]


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(SCRIPT_TIMING_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    with script_timing() as timer:
        timer.page = "x"
    assert list(tmp_path.iterdir()) == []


def test_each_run_appends_one_line_with_its_outcome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "timing.jsonl"
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(out))
    with script_timing() as timer:
        timer.page = "inventory_copilot"
    with pytest.raises(KeyError), script_timing():
        raise KeyError("boom")  # the run's own exception goes on; the line names it
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    assert first["page"] == "inventory_copilot" and first["outcome"] == "finished"
    assert first["session"] == "bare" and first["seconds"] >= 0 and first["cpu_s"] >= 0
    assert second["outcome"] == "KeyError"


def test_the_app_logs_its_script_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "timing.jsonl"
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(out))
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and lines[-1]["page"] == "" and lines[-1]["outcome"] == "finished"  # Home's url path is ""
