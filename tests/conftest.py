"""Shared fixtures: a fake LLM server, a temporary run store, and an environment without real API keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import ENV_VARS
from tests.support.fake_llm import FakeLLMServer

PROVIDER_ENV = ENV_VARS


@pytest.fixture(scope="session")
def _fit_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One classifier fit cache for the whole run (shared with the CLI subprocesses the tests start), never
    the repository's `data/cache/`."""
    return tmp_path_factory.mktemp("fit-cache")


@pytest.fixture(autouse=True)
def _offline_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory, _fit_cache: Path
) -> None:
    """No test may reach a real provider or the developer's store: clear keys and point ORCA_DB at a temp file
    (and the classifier fit cache at the run's own folder)."""
    for name in PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ORCA_DB", str(tmp_path_factory.mktemp("store") / "orca.duckdb"))
    monkeypatch.setenv("ORCA_CACHE_DIR", str(_fit_cache))


@pytest.fixture(scope="session")
def _fake_llm_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer()
    yield server
    server.close()


@pytest.fixture
def fake_llm(_fake_llm_server: FakeLLMServer) -> FakeLLMServer:
    """The fake OpenAI/Anthropic server with an empty script; call `.script([...])` in the test."""
    _fake_llm_server.script([])
    return _fake_llm_server


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """A fresh DuckDB file path for one test."""
    return tmp_path / "orca.duckdb"
