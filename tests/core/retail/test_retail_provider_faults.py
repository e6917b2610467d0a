"""Issue 25: an LLM provider failing during a RetailBench run (HTTP 500, a body that is not the API's JSON) ends
the run as failed with the provider's message ("provider: ..."), stored, on every path (CLI, `run_agent`, the
page's `LiveRun`); it is never hidden behind a store error about empty record tables. A run stopped before its
first day is stored too."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.config import Settings
from core.llm.factory import make_chat_model
from core.retail.live import LiveRun
from core.retail.run import run_agent
from core.store import Store
from core.store.retail import retail_records

FAULTS = {
    "http-500": ({"status": 500}, "server error (500)"),
    "broken-json": ({"raw": '{"choices": [', "content_type": "application/json"}, "did not answer like an OpenAI"),
}
DAY_ONE = [
    {"tool_calls": [{"name": "view_funds_and_date", "arguments": {}}]},
    {"tool_calls": [{"name": "end_today", "arguments": {}}]},
]


def _model(fake_llm) -> object:
    settings = Settings(provider="openai", model="m", base_url=fake_llm.openai_url, api_key="k", max_retries=0)
    return make_chat_model(settings)


def _assert_provider_failure(out: dict, store: Store, expected: str) -> None:
    assert out["status"] == "failed", out
    assert out["error"].startswith("provider: ") and expected in out["error"], out["error"]
    assert "lack the columns" not in out["error"]
    run = store.get_run(out["run_id"])
    assert run["status"] == "failed" and run["metrics"]["error"] == out["error"]


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_provider_fault_on_the_first_request_ends_the_cli_run_as_a_provider_error(
    fault: str, fake_llm, tmp_path, capsys, monkeypatch
) -> None:
    entry, expected = FAULTS[fault]
    fake_llm.script([entry])
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    db = tmp_path / "r.duckdb"
    args = ["--db", str(db), "retail", "run", "--agent", "react", "--preset", "easy", "--days", "2",
            "--provider", "openai", "--model", "m", "--base-url", fake_llm.openai_url, "--llm-retries", "0"]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert "Traceback" not in captured.err
    _assert_provider_failure(out, Store(db), expected)
    assert out["steps"] == 0 and len(retail_records(Store(db), out["run_id"], "daily")) == 0


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_provider_fault_after_a_day_keeps_that_day(fault: str, fake_llm, tmp_path) -> None:
    entry, expected = FAULTS[fault]
    fake_llm.script([*DAY_ONE, entry])
    store = Store(tmp_path / "r.duckdb")
    out = run_agent("react", preset="easy", days=3, seed=0, store=store, model=_model(fake_llm))
    _assert_provider_failure(out, store, expected)
    assert out["metrics"]["run_days"] == 1
    assert list(retail_records(store, out["run_id"], "daily")["day"]) == [1]


def test_the_live_run_of_the_page_reports_the_provider_error(fake_llm, tmp_path) -> None:
    entry, expected = FAULTS["http-500"]
    fake_llm.script([entry])
    store = Store(tmp_path / "r.duckdb")
    live = LiveRun("react", preset="easy", days=2, model=_model(fake_llm), store=store).start()
    live.thread.join(timeout=120)  # a hang guard only
    state = live.state()
    assert state["status"] == "failed" and state["error"].startswith("provider: ") and expected in state["error"]
    assert store.get_run(state["run_id"])["status"] == "failed"


def test_a_run_stopped_before_its_first_day_is_stored(tmp_path) -> None:
    store = Store(tmp_path / "r.duckdb")
    out = run_agent("hybrid", preset="easy", days=3, seed=0, store=store, should_stop=lambda: True)
    assert out["status"] == "stopped" and out["steps"] == 0 and out["error"] is None
    assert store.get_run(out["run_id"])["status"] == "stopped"
    assert len(retail_records(store, out["run_id"], "daily")) == 0
