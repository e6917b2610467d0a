"""The Experiments page in a real browser: start a tiny spec, watch it finish, see its tables and chart."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.pages.test_experiments import TINY
from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e
CHART = '[data-testid="stPlotlyChart"]'


def test_start_a_tiny_spec_and_see_its_results(page, artifacts_dir: Path):
    open_page(page, "/experiments", "Experiments")
    assert_healthy(page)
    expect(page.get_by_text("No experiments yet", exact=False)).to_be_visible()
    box = page.get_by_role("textbox", name="Spec (TOML)")
    box.fill(TINY)
    box.press("Control+Enter")
    wait_idle(page)
    page.get_by_role("button", name="Start experiment").click()
    expect(page.get_by_text("6/6 cells", exact=False)).to_be_visible(timeout=180_000)
    expect(page.get_by_role("heading", name="Per agent", exact=False)).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert_healthy(page)
    tables = page.locator('[data-testid="stDataFrame"]')
    expect(tables.filter(has_text="offline (built-in)").first).to_be_visible()
    expect(page.get_by_role("heading", name="Paired against low")).to_be_visible()
    expect(page.locator(f"{CHART} .js-plotly-plot").first).to_be_visible(timeout=60_000)
    expect(page.get_by_role("button", name="Report (markdown)")).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "experiments.png"), full_page=True)
    assert_healthy(page)
