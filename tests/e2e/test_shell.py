"""The app shell in a real browser: every page in the navigation renders without an exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from core.catalog import available
from tests.support.browser import ROOT
from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e
PRESENT = {str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")}


def test_home_lists_workbenches_and_settings(page, artifacts_dir: Path):
    open_page(page, "/", "ORCA · Operations Research Copilot Arena")
    assert_healthy(page)
    for bench in available(PRESENT):
        expect(page.get_by_role("heading", name=bench.title, exact=True)).to_be_visible()
    page.get_by_text("Settings").first.click()
    expect(page.get_by_text("LLM provider")).to_be_visible()
    page.get_by_role("button", name="Test connection").click()
    expect(page.get_by_text("Offline built-in agents are ready")).to_be_visible(timeout=30_000)
    page.screenshot(path=str(artifacts_dir / "home.png"), full_page=True)


@pytest.mark.parametrize("bench", available(PRESENT), ids=lambda b: b.key)
def test_every_workbench_page_renders(page, bench, artifacts_dir: Path):
    open_page(page, "/", "ORCA · Operations Research Copilot Arena")
    page.locator('[data-testid="stSidebarNavLink"]').get_by_text(bench.title, exact=True).click()
    expect(page.get_by_role("heading", name=bench.title).first).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / f"{bench.key}.png"), full_page=True)


def test_sidebar_navigation_covers_every_page(page):
    open_page(page, "/", "ORCA · Operations Research Copilot Arena")
    links = page.locator('[data-testid="stSidebarNavLink"]')
    expect(links).to_have_count(3 + len(available(PRESENT)))  # Home, the workbenches, Experiments, Run history


def test_run_history_page_renders(page, artifacts_dir: Path):
    open_page(page, "/run_history", "Run history")
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "run_history.png"), full_page=True)


def test_run_history_builds_the_json_download_on_click(page, e2e_store: Path):
    """The run's JSON download, built when the button is clicked, holds the chosen run."""
    import json

    from core.retail.run import run_agent
    from core.store import Store

    run_id = run_agent("hybrid", days=2, seed=0, store=Store(e2e_store))["run_id"]
    open_page(page, "/run_history", "Run history")
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="Download this run as JSON").click()
    data = json.loads(Path(download.value.path()).read_text())
    assert data["run"]["id"] == run_id and data["transitions"]


def test_the_server_never_sees_the_developers_provider_keys(app_starter, tmp_path: Path, monkeypatch):
    leaks = {
        "ANTHROPIC_API_KEY": "sk-ant-leak",
        "OPENAI_API_KEY": "sk-leak",
        "OPENAI_BASE_URL": "http://x/v1",
    }
    for name, value in {**leaks, "ORCA_PROVIDER": "anthropic", "ORCA_MODEL": "m"}.items():
        monkeypatch.setenv(name, value)
    server = app_starter(tmp_path, tmp_path / "orca.duckdb")
    try:
        raw = Path(f"/proc/{server.proc.pid}/environ").read_bytes().decode()
    finally:
        server.stop()
    environ = dict(item.split("=", 1) for item in raw.split("\0") if "=" in item)
    assert not (set(leaks) | {"ORCA_MODEL"}) & environ.keys()
    assert environ["ORCA_PROVIDER"] == "offline" and environ["ORCA_DB"] == str(tmp_path / "orca.duckdb")
