"""Every workbench at a laptop (1024 px) and a projector (1440 px) width: the key table columns, metric cards,
button labels and chart axes are on screen and unclipped (issue 11, item 9).

Glide data grids are canvases: a grid whose columns do not fit scrolls sideways, so "unclipped" is checked as
"no horizontal scroll and inside the viewport"; text elements are checked with scrollWidth <= clientWidth.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_inventory_copilot import DIALOGUE
from tests.support.streamlit_page import assert_healthy, open_page, send_chat, wait_idle

pytestmark = pytest.mark.e2e

WIDTHS = [1024, 1440]

CLIPPED_JS = """
(selector) => {
  const out = [];
  for (const root of document.querySelectorAll(selector)) {
    if (root.offsetParent === null) continue;
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        out.push((root.innerText || root.getAttribute('data-testid') || '').slice(0, 60));
        break;
      }
    }
    const box = root.getBoundingClientRect();
    if (box.right > window.innerWidth + 1) out.push('off-screen: ' + (root.innerText || '').slice(0, 60));
  }
  return out;
}
"""

GRIDS_JS = """
() => [...document.querySelectorAll('[data-testid="stDataFrame"]')].filter(g => g.offsetParent !== null).map(g => {
  const s = g.querySelector('.dvn-scroller');
  const box = g.getBoundingClientRect();
  return {scrolls: s ? s.scrollWidth > s.clientWidth + 1 : false, right: box.right, width: box.width};
})
"""

AXES_JS = r"""
() => [...document.querySelectorAll('.js-plotly-plot')].filter(p => p.offsetParent !== null).map(p => {
  const box = p.getBoundingClientRect();
  const titles = [...p.querySelectorAll('text')].filter(t => /^[xy]\d*title$/.test(t.getAttribute('class') || ''));
  const inside = titles.every(t => { const b = t.getBoundingClientRect();
    return b.left >= box.left - 2 && b.right <= box.right + 2 && b.top >= box.top - 2 && b.bottom <= box.bottom + 2; });
  return {titles: titles.length, inside, right: box.right};
})
"""


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def sized(request, browser, streamlit_server: str, artifacts_dir: Path):
    context = browser.new_context(viewport={"width": request.param, "height": 900}, base_url=streamlit_server)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    pg.set_default_navigation_timeout(45_000)
    pg.js_errors = []
    pg.on("pageerror", lambda err: pg.js_errors.append(str(err)))
    pg.width = request.param
    try:
        yield pg
    finally:
        context.close()


def assert_fits(page: Page, artifacts_dir: Path, name: str) -> None:
    page.screenshot(path=str(artifacts_dir / f"layout_{name}_{page.width}.png"), full_page=True)
    for selector in (
        '[data-testid="stMetric"]',
        '[data-testid="stButton"] button',
        '[data-testid="stDownloadButton"] button',
        '[data-testid="stMain"] [data-testid="stCheckbox"] [data-testid="stMarkdownContainer"]',
    ):
        assert page.evaluate(CLIPPED_JS, selector) == [], (name, selector)
    for grid in page.evaluate(GRIDS_JS):
        assert not grid["scrolls"] and grid["right"] <= page.width + 1, (name, grid)
    for plot in page.evaluate(AXES_JS):
        assert plot["titles"] >= 2 and plot["inside"] and plot["right"] <= page.width + 1, (name, plot)


def test_inventory_copilot_fits(sized: Page, artifacts_dir: Path):
    open_page(sized, "/inventory_copilot", "Inventory Copilot")
    for line in (DIALOGUE, "Plan for 20 days.", "2"):
        send_chat(sized, line)
    expect(sized.get_by_role("heading", name="Recommended policy")).to_be_visible(timeout=60_000)
    wait_idle(sized)
    assert_healthy(sized)
    sized.get_by_role("heading", name="Recommended policy").scroll_into_view_if_needed()
    assert_fits(sized, artifacts_dir, "copilot")


def test_school_scheduling_fits_and_stays_navigable(sized: Page, artifacts_dir: Path):
    open_page(sized, "/school_scheduling", "School Scheduling")
    expect(sized.get_by_text("Peak students at one start")).to_be_visible()
    for line in ("Could Everett start at 9:30?", "keep the peak under 2,500 students"):
        send_chat(sized, line)
    assert_healthy(sized)
    assert_fits(sized, artifacts_dir, "scheduling")


def test_policy_simulator_fits(sized: Page, artifacts_dir: Path):
    open_page(sized, "/policy_simulator", "Policy Simulator")
    sized.get_by_label("Simulation paths").fill("200")
    sized.get_by_label("Grid search paths").fill("100")
    sized.get_by_role("button", name="Run simulation").click()
    expect(sized.get_by_text("Recommended for λ", exact=False)).to_be_visible(timeout=120_000)
    wait_idle(sized)
    assert_healthy(sized)
    assert_fits(sized, artifacts_dir, "simulator")
