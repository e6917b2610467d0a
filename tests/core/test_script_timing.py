"""The opt-in server-side timing of script runs (`core/ui.py: script_timing`, `$ORCA_SCRIPT_TIMING`)."""

from __future__ import annotations

import json
import pstats
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.store import Store
from core.ui import SCRIPT_PROFILE_VAR, SCRIPT_TIMING_VAR, script_timing

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


def test_profiling_writes_one_profile_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(tmp_path / "timing.jsonl"))
    monkeypatch.setenv(SCRIPT_PROFILE_VAR, str(tmp_path))
    with script_timing() as timer:
        timer.page = "policy_simulator"
        sorted(range(1000), key=str)
    (profile,) = tmp_path.glob("*.prof")
    assert profile.name.startswith("policy_simulator-")
    assert any("sorted" in str(key) for key in pstats.Stats(str(profile)).stats)  # type: ignore[attr-defined]


def test_the_app_logs_its_script_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "timing.jsonl"
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(out))
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and lines[-1]["page"] == "" and lines[-1]["outcome"] == "finished"  # Home's url path is ""


def _store_lines(out: Path) -> list[dict]:
    return [r for r in map(json.loads, out.read_text().splitlines()) if r["kind"] == "store"]


def test_store_calls_log_their_lock_wait_and_call_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "timing.jsonl"
    store = Store(tmp_path / "s.duckdb")  # opened before timing is on: not logged
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(out))
    run_id = store.create_run("inventory_copilot", {})
    with store.batch():  # one connection: one line for the batch, none for the calls inside it
        store.add_message(run_id, "user", "a")
        store.add_message(run_id, "user", "b")
    lines = _store_lines(out)
    assert [r["site"] for r in lines] == [
        "create_run < tests/core/test_script_timing.py:test_store_calls_log_their_lock_wait_and_call_site",
        "batch < tests/core/test_script_timing.py:test_store_calls_log_their_lock_wait_and_call_site",
    ]
    for r in lines:
        assert r["wait_s"] >= 0 and r["open_s"] > 0 and r["hold_s"] >= r["open_s"] and r["session"]


def test_a_script_run_adds_up_its_store_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    out = tmp_path / "timing.jsonl"
    store = Store(tmp_path / "s.duckdb")
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(out))
    with script_timing() as timer:
        timer.page = "inventory_copilot"
        store.list_runs()
        store.list_runs()
    store.list_runs()  # outside a timed run: logged, not added to the run
    *calls, run, outside = map(json.loads, out.read_text().splitlines())
    assert [c["session"] for c in calls] == ["bare", "bare"] and outside["kind"] == "store"
    assert run["kind"] == "script" and run["store_calls"] == 2
    assert run["store_hold_s"] == pytest.approx(sum(c["hold_s"] for c in calls), abs=1e-3)
    assert run["store_wait_s"] == pytest.approx(sum(c["wait_s"] for c in calls), abs=1e-3)


def test_store_calls_log_nothing_when_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(SCRIPT_TIMING_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    store = Store(tmp_path / "s.duckdb")
    store.create_run("inventory_copilot", {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.duckdb", "s.duckdb.lock"]


def test_a_store_call_that_gives_up_waiting_is_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import threading

    from core.errors import StoreError

    out = tmp_path / "timing.jsonl"
    store = Store(tmp_path / "s.duckdb")
    impatient = Store(store.path, timeout_s=0.2)
    monkeypatch.setenv(SCRIPT_TIMING_VAR, str(out))
    failed: list[str] = []

    def other() -> None:
        try:
            impatient.list_runs()
        except StoreError as err:
            failed.append(str(err))

    with store.batch():
        thread = threading.Thread(target=other)
        thread.start()
        thread.join(timeout=10)
    busy = [r for r in _store_lines(out) if r.get("error")]
    assert failed and len(busy) == 1 and busy[0]["error"] == "busy" and busy[0]["wait_s"] >= 0.2
    assert busy[0]["site"].startswith("list_runs < ")
