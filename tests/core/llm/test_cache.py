"""The reply cache: keys cover the full request, a repeated request reaches no server, and a rerun of an LLM
experiment with the cache sends zero requests and reproduces the run (actions, tokens, metrics)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.experiments.driver import ExperimentStatus, run_experiment
from core.experiments.engines import LocalEngine
from core.llm import Message, ToolSpec, make_chat_model
from core.llm.cache import CachedChatModel, request_json, request_key
from core.llm.types import ToolCall
from core.store import Store
from core.store.llm_cache import StoredReplies
from tests.core.experiments.conftest import toy_spec

TOOL = ToolSpec("add", "Add two numbers.", {"type": "object", "properties": {"a": {"type": "integer"}}})
BASE = {
    "provider": "openai",
    "model": "m",
    "system": "sys",
    "messages": [Message("user", "hi")],
    "tools": [TOOL],
    "temperature": 0.0,
    "seed": 1,
}


def _key(**changes: object) -> str:
    fields = {**BASE, **changes}
    return request_key(
        request_json(
            str(fields["provider"]),
            str(fields["model"]),
            str(fields["system"]),
            fields["messages"],  # type: ignore[arg-type]
            fields["tools"],  # type: ignore[arg-type]
            temperature=fields["temperature"],  # type: ignore[arg-type]
            seed=fields["seed"],  # type: ignore[arg-type]
        )
    )


@pytest.mark.parametrize(
    "change",
    [
        {"provider": "anthropic"},
        {"model": "m2"},
        {"system": "sys!"},
        {"messages": [Message("user", "hi ")]},
        {"messages": [Message("user", "hi"), Message("assistant", "", (ToolCall("c1", "add", {"a": 1}),))]},
        {"tools": []},
        {"tools": [ToolSpec("add", "Add two numbers!", TOOL.parameters)]},
        {"temperature": 0.7},
        {"temperature": None},
        {"seed": 2},
    ],
)
def test_every_part_of_the_request_is_in_the_key(change: dict[str, object]) -> None:
    assert _key() == _key() and len(_key()) == 64
    assert _key(**change) != _key()


def _settings(fake_llm, store_path: Path, *, cache: bool) -> Settings:
    return Settings(
        provider="openai", model="fake", base_url=fake_llm.openai_url, api_key="k", store_path=store_path
    ).with_changes(llm_cache=cache)


def test_a_repeated_request_is_answered_from_the_store(fake_llm, store_path: Path) -> None:
    fake_llm.script([{"tool_calls": [{"name": "add", "arguments": {"a": 2}}], "usage": (40, 9)}, {"text": "two"}])
    model = make_chat_model(_settings(fake_llm, store_path, cache=True))
    assert isinstance(model, CachedChatModel)
    first = model.complete("sys", [Message("user", "1+1?")], [TOOL])
    assert len(fake_llm.requests) == 1 and not first.cached
    # a new model (a new process, a rerun) on the same store: no request, the same reply
    again = make_chat_model(_settings(fake_llm, store_path, cache=True)).complete(
        "sys", [Message("user", "1+1?")], [TOOL]
    )
    assert len(fake_llm.requests) == 1 and again.cached
    assert (again.text, again.tool_calls, again.usage, again.stop_reason) == (
        first.text,
        first.tool_calls,
        first.usage,
        first.stop_reason,
    )
    other = model.complete("sys", [Message("user", "1+2?")], [TOOL])
    assert len(fake_llm.requests) == 2 and other.text == "two" and (model.hits, model.misses) == (0, 2)
    assert StoredReplies(store_path).count() == 2


def test_without_the_cache_every_request_is_sent(fake_llm, store_path: Path) -> None:
    fake_llm.script([{"text": "a"}, {"text": "b"}])
    model = make_chat_model(_settings(fake_llm, store_path, cache=False))
    assert not isinstance(model, CachedChatModel)
    assert [model.complete("s", [Message("user", "q")]).text for _ in range(2)] == ["a", "b"]
    assert len(fake_llm.requests) == 2


def test_an_error_is_not_cached(fake_llm, store_path: Path) -> None:
    fake_llm.script([{"status": 400}, {"text": "ok"}])
    model = make_chat_model(_settings(fake_llm, store_path, cache=True))
    with pytest.raises(Exception, match="400"):
        model.complete("s", [Message("user", "q")])
    assert model.complete("s", [Message("user", "q")]).text == "ok"
    assert len(fake_llm.requests) == 2


def _llm_spec(name: str):  # noqa: ANN202
    return toy_spec(
        name=name,
        env={"horizons": [4]},
        seeds=[0, 1],
        agents=[{"name": "gpt", "kind": "llm", "provider": "openai", "model": "fake-model"}, {"name": "low", "S": 10}],
        baseline="low",
    )


def _cells(store: Store, spec) -> dict[str, tuple]:  # noqa: ANN001
    cells = store.cells(spec.experiment_id)
    out = {}
    for row in cells[cells["agent"] == "gpt"].itertuples():
        steps = store.transitions(row.run_id)
        key = row.cell_key.split("|", 1)[1]
        out[key] = (
            steps["action"].tolist(),
            steps["input_tokens"].tolist(),
            steps["output_tokens"].tolist(),
            row.metrics["total_cost"],
        )
    return out


def test_a_cached_experiment_reruns_with_zero_requests_and_the_same_results(
    fake_llm, monkeypatch, store_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"text": str(3 + 4 * i), "usage": (50 + i, 3)} for i in range(20)])
    store = Store(store_path)
    first = _llm_spec("cached first")
    assert run_experiment(first, store, engine=LocalEngine(1), progress=False, cache=True).status is ExperimentStatus.DONE
    sent = len(fake_llm.requests)
    assert sent > 0
    fake_llm.script([])  # any request now would fail its cell ("script exhausted")
    second = _llm_spec("cached rerun")
    summary = run_experiment(second, store, engine=LocalEngine(1), progress=False, cache=True)
    assert summary.status is ExperimentStatus.DONE and summary.failed == 0
    assert len(fake_llm.requests) == 0, "a rerun with the cache sends no request"
    assert _cells(store, second) == _cells(store, first)
    assert StoredReplies(store_path).count() == sent
