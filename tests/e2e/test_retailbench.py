"""RetailBench in a real browser: run the hybrid agent for a few days, watch the day counter, open the replay."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e


def test_run_then_replay(page, artifacts_dir: Path):
    open_page(page, "/retailbench", "RetailBench")
    assert_healthy(page)
    page.get_by_label("Agent", exact=True).click()
    page.get_by_role("option", name="hybrid", exact=False).first.click()
    days = page.get_by_label("Days")
    days.fill("4")
    days.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Start run").click()
    expect(page.get_by_text("Stored as run", exact=False)).to_be_visible(timeout=180_000)
    expect(page.get_by_text("day 4 of 4", exact=False)).to_be_visible()
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "retailbench_run.png"), full_page=True)
    page.get_by_role("button", name="Open in the replay").click()
    expect(page.get_by_role("heading", name="RetailBench replay").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert_healthy(page)
    expect(page.get_by_text("hybrid", exact=False).first).to_be_visible()
    page.get_by_role("tab", name="Day").click()
    expect(page.get_by_text("Tool calls and reasoning")).to_be_visible()
    page.get_by_role("tab", name="Compare · Table 1").click()
    panel = page.get_by_role("tabpanel", name="Compare · Table 1")
    expect(panel.locator('[data-testid="stDataFrame"]')).to_be_visible()
    page.set_viewport_size({"width": 1440, "height": 950})  # Table 1's columns all in view: no sideways scroll
    wait_idle(page)
    widths = panel.locator('[data-testid="stDataFrame"] .dvn-scroller').first.evaluate(
        "el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1] + 2, widths
    page.screenshot(path=str(artifacts_dir / "retailbench_replay.png"), full_page=True)
    page.get_by_role("tab", name="Diagnostics").click()
    page.get_by_role("button", name="Compute diagnostics").click()
    diag = page.get_by_role("tabpanel", name="Diagnostics")
    expect(diag.locator('[data-testid="stDataFrame"]')).to_be_visible(timeout=60_000)
    expect(diag.locator(".js-plotly-plot").first).to_be_visible()  # the diagnostics' shares: a Plotly bar chart
    assert_healthy(page)
    page.get_by_role("tab", name="Timeline").click()
    expect(page.get_by_role("tabpanel", name="Timeline").locator('[data-testid="stVegaLiteChart"]')).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "retailbench_diagnostics.png"), full_page=True)


def test_a_student_plays_one_day_and_the_game_survives_a_reload(page, artifacts_dir: Path):
    """Play it yourself: order, set a price and the shelf, End day; a browser reload keeps the game (?game=ID)."""
    open_page(page, "/retailbench", "RetailBench")
    page.get_by_text("Play it yourself").click()
    expect(page.get_by_role("button", name="Start game")).to_be_visible()  # the agent form (its Days) is gone
    wait_idle(page)
    days = page.get_by_label("Days")
    days.fill("2")
    days.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("day 0 of 2", exact=False)).to_be_visible(timeout=60_000)
    qty = page.get_by_role("spinbutton", name="Quantity")
    qty.fill("30")
    page.get_by_role("button", name="Place order").click()
    expect(page.get_by_text("place_order: Order", exact=False)).to_be_visible(timeout=30_000)
    page.get_by_role("tab", name="Price").click()
    price = page.get_by_label("New price ($)")
    price.fill("4.50")
    page.get_by_role("button", name="Set price").click()
    expect(page.get_by_text("modify_sku_price:", exact=False)).to_be_visible(timeout=30_000)
    assert_healthy(page)
    page.get_by_role("button", name="End day").click()
    expect(page.get_by_text("day 1 of 2", exact=False)).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Day closed", exact=False)).to_be_visible()
    assert "game=" in page.url
    page.screenshot(path=str(artifacts_dir / "retailbench_play.png"), full_page=True)
    page.reload()
    wait_idle(page)
    expect(page.get_by_text("day 1 of 2", exact=False)).to_be_visible(timeout=60_000)
    assert_healthy(page)
