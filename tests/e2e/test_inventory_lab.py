"""The Inventory evaluation lab in a real browser: the paper-exact switches with their values, a one-scenario
offline run, its notices, tables, charts and the Fig. 4 order-query metric."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e
CHART = '[data-testid="stPlotlyChart"]'


def _set(page, label: str, value: str) -> None:
    box = page.get_by_label(label, exact=True)
    box.fill(value)
    box.press("Enter")
    wait_idle(page)


def test_run_one_scenario_offline(page, artifacts_dir: Path):
    open_page(page, "/inventory_lab", "Inventory evaluation lab")
    assert_healthy(page)
    expect(page.get_by_text("Offline mode", exact=False)).to_be_visible()
    expect(page.locator(CHART)).to_have_count(0)
    for switch in ("capacity_basis = inventory_position", "families = full", "day_numbering = from_one"):
        expect(page.get_by_text(switch, exact=False).first).to_be_visible()
    _set(page, "Scenarios", "1")
    _set(page, "Copilot paths", "30")
    _set(page, "Assessment paths", "200")
    page.get_by_role("button", name="Run the lab").click()  # offline: only treatment A is pre-selected
    expect(page.get_by_text("Cost reduction (Table 5)")).to_be_visible(timeout=240_000)
    wait_idle(page)
    assert_healthy(page)
    expect(page.get_by_text("nothing is substituted", exact=False).first).to_be_visible()
    expect(page.locator(f"{CHART} .js-plotly-plot").first).to_be_visible()
    expect(page.get_by_text("Cost reduction (Table 5)")).to_be_visible()
    expect(page.get_by_text("A: Fig. 4 order query right")).to_be_visible()
    expect(page.locator('[data-testid="stChatMessage"]').first).to_be_visible()
    expect(page.get_by_role("button", name="report.md")).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "inventory_lab.png"), full_page=True)
    assert_healthy(page)
