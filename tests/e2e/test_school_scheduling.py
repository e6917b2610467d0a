"""School Scheduling in a real browser: ask for a change, see the schedule and the frontier update."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, send_chat, wait_idle

pytestmark = pytest.mark.e2e


def test_principal_moves_a_school_and_sees_the_new_schedule(page, artifacts_dir: Path):
    open_page(page, "/school_scheduling", "School Scheduling")
    # the opening proposal and the frontier are computed in the background (issue 31): allow a loaded machine
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("2,565", timeout=60_000)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(1, timeout=60_000)
    send_chat(page, "Could Everett start at 9:30 AM?")
    messages = page.locator('[data-testid="stChatMessage"]')
    expect(messages.last).to_contain_text("Everett", timeout=60_000)
    expect(page.get_by_text("fix_start_time[Everett MS=9:30 AM]").first).to_be_visible()
    expect(messages.last).to_contain_text("Everett MS must start at 9:30 AM")
    expect(page.get_by_text("Settings").first).to_be_visible()  # opened inside the app shell
    assert_healthy(page)
    send_chat(page, "undo that")
    expect(page.get_by_text("None: this is the base model.")).to_be_visible(timeout=60_000)
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "school_scheduling_chat.png"), full_page=True)


def test_clicking_a_frontier_point_and_adopting_it(page, artifacts_dir: Path):
    open_page(page, "/school_scheduling", "School Scheduling")
    chart = page.locator('[data-testid="stPlotlyChart"]')
    points = chart.locator(".scatterlayer .trace").first.locator("path.point")
    expect(points).to_have_count(4, timeout=60_000)  # the SFUSD frontier has 4 efficient points
    alternative = page.get_by_role("combobox", name="Alternative on the frontier (or click a point)")
    expect(alternative).to_have_value(re.compile("19.87"))
    # points follow the frontier order: (19.87, 16.5), (23.22, 14.5), (24.53, 11.5), (25.65, 8.5)
    points.nth(2).click(force=True)
    wait_idle(page)
    expect(alternative).to_have_value(re.compile("24.53"), timeout=30_000)
    page.get_by_role("button", name="Adopt this alternative").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("2,453", timeout=60_000)
    expect(page.locator('[data-testid="stMetric"]').nth(1)).to_contain_text("11.5 minutes")
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "school_scheduling_frontier_click.png"), full_page=True)


def test_the_right_panel_fits_a_1024_pixel_window(page):
    page.set_viewport_size({"width": 1024, "height": 768})
    open_page(page, "/school_scheduling", "School Scheduling")
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("2,565")
    for testid in ("stMetric", "stDataFrame", "stDownloadButton"):
        box = page.locator(f'[data-testid="{testid}"]').first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1024, (testid, box)
    metric_value = page.locator('[data-testid="stMetricValue"]').first
    assert metric_value.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the peak value is clipped"
    assert_healthy(page)
