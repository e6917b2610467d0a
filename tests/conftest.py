"""Shared fixtures: a fake LLM server, a temporary run store, and an environment without real API keys.

`make test` runs the suite on two pytest-xdist workers (`-n 2 --dist loadfile`, see `pytest_xdist_make_scheduler`
below); a plain `pytest` run is one process as before.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import ENV_VARS
from tests.support.fake_llm import FakeLLMServer

# One OpenMP/BLAS thread per test process (and the CLI, Streamlit and Ray processes it starts), set before torch
# or numpy load their thread pools: two xdist workers already fill the CI machine's two cores, and a second
# thread spinning for a busy core made the DQN tests 2x slower alone and ~10x slower under xdist.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
PROVIDER_ENV = ENV_VARS
BROWSER_TESTS = "tests/e2e/"


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: no error when it is not installed
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """`--dist loadfile`, except that all browser tests are one unit of work: each test module runs whole in one
    worker (so module-scoped fixtures are built once, as in a single process), and every test under tests/e2e/
    runs in one worker, in collection order, against that worker's one Streamlit server and one chromium. The
    browser unit (by far the longest: about a quarter of the suite's time) goes out first so that it never ends
    the run alone.

    (xdist's own `--dist loadgroup` cannot express this here: with pytest 9.2 it silently ignores `xdist_group`
    marks, pytest-dev/pytest-xdist#1386.) Other `--dist` modes are left to xdist."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return BROWSER_TESTS if path.startswith(BROWSER_TESTS) else path

        def _assign_work_unit(self, node: object) -> None:
            if BROWSER_TESTS in self.workqueue:
                self.workqueue.move_to_end(BROWSER_TESTS, last=False)
            super()._assign_work_unit(node)

    return FileScheduling(config, log)


@pytest.fixture(scope="session")
def _fit_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One classifier fit cache kept from run to run in pytest's cache folder (`.pytest_cache/d/fit-cache`;
    `--cache-clear` empties it), never the repository's `data/cache/`. A fit's key digests its bank's examples,
    its options, the feature code and the scikit-learn version, so a changed bank is fitted afresh and an
    unchanged one is loaded in milliseconds. The folder is shared with the CLI subprocesses the tests start and
    with the other xdist workers: writes are atomic and a per-key lock lets one process fit while the others
    wait for its fit. Without pytest's cache (`-p no:cacheprovider`), one fresh folder per run."""
    cache = getattr(request.config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("fit-cache"))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "fit-cache"  # the run's folder, above each worker's
        shared.mkdir(exist_ok=True)
        return shared
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
