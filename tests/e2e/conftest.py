"""Browser fixtures: one Streamlit server and one headless chromium per session, a fresh context per test."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.config import ENV_VARS
from tests.support.browser import CHROMIUM_ARGS, ROOT, StreamlitServer, find_chromium, start_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = Path(os.environ.get("E2E_ARTIFACTS", ROOT / "artifacts" / "e2e"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def e2e_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e2e-store") / "orca.duckdb"


def start_app(log_dir: Path, store: Path) -> StreamlitServer:
    """`streamlit run app.py`, offline, on `store`; none of the developer's provider keys or URLs reach it."""
    with pytest.MonkeyPatch.context() as mp:
        for name in ENV_VARS:
            mp.delenv(name, raising=False)
        env = {"ORCA_DB": str(store), "ORCA_PROVIDER": "offline", "ORCA_FRONTIER_BUDGET": "120"}
        return start_server(log_dir, env)  # a whole frontier even while another test worker fills the CPU


@pytest.fixture(scope="session")
def app_starter() -> Callable[[Path, Path], StreamlitServer]:
    """How the session's server is started (for tests that check the start itself)."""
    return start_app


@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory: pytest.TempPathFactory, e2e_store: Path) -> Iterator[str]:
    server = start_app(tmp_path_factory.mktemp("streamlit"), e2e_store)
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    exe = find_chromium()
    if exe is None:
        message = "Debian 'chromium' binary not found (apt-get install chromium, or set CHROMIUM_PATH)"
        if os.environ.get("REQUIRE_E2E") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True, timeout=60_000)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def page(request: pytest.FixtureRequest, browser, streamlit_server: str, artifacts_dir: Path):
    context = browser.new_context(viewport={"width": 1400, "height": 950}, base_url=streamlit_server)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    pg.set_default_navigation_timeout(45_000)
    pg.js_errors = []
    pg.on("pageerror", lambda err: pg.js_errors.append(str(err)))
    try:
        yield pg
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            with contextlib.suppress(Exception):  # a failed screenshot must not hide the test's own failure
                pg.screenshot(path=str(artifacts_dir / f"FAILED-{request.node.name}.png"), full_page=True)
        context.close()
