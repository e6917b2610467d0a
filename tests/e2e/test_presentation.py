"""Presentation mode at a 1024 x 768 projector: no sidebar, and the page's header and first controls are
above the fold."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.streamlit_page import assert_healthy, open_page

pytestmark = pytest.mark.e2e


@pytest.fixture
def projector(browser, streamlit_server: str, artifacts_dir: Path):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=streamlit_server)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    pg.js_errors = []
    pg.on("pageerror", lambda err: pg.js_errors.append(str(err)))
    try:
        yield pg
    finally:
        pg.screenshot(path=str(artifacts_dir / "presentation_1024x768.png"))
        context.close()


def test_present_parameter_hides_sidebar_and_keeps_main_view_above_the_fold(projector: Page):
    open_page(projector, "/policy_simulator?present=1", "Policy Simulator")
    assert_healthy(projector)
    expect(projector.locator('[data-testid="stSidebar"]')).to_be_hidden()
    exit_button = projector.get_by_role("button", name="Exit presentation mode")
    expect(exit_button).to_be_visible()
    heading = projector.get_by_role("heading", name="Policy Simulator").first.bounding_box()
    assert heading is not None and heading["y"] + heading["height"] < 768 / 3
    main = projector.locator('[data-testid="stMain"] [data-testid="stButton"]').first.bounding_box()
    assert main is not None and main["y"] < 768


def test_present_mode_enlarges_charts_and_keeps_the_opening_proposal_in_view(projector: Page):
    open_page(projector, "/school_scheduling?present=1", "School Scheduling")
    proposal = projector.locator('[data-testid="stChatMessage"]').first
    expect(proposal).to_contain_text("Proposed schedule", timeout=60_000)  # solved in the background
    box = proposal.bounding_box()
    assert box is not None and box["y"] < 768, box  # the workbench's main view starts above the fold
    chart = projector.locator(".js-plotly-plot").first
    expect(chart).to_be_attached(timeout=60_000)
    from core.ui import PRESENT_FONT_PX

    assert chart.evaluate("e => e.layout.font.size") == PRESENT_FONT_PX
    assert_healthy(projector)


WORKBENCHES = (
    ("/inventory_copilot", "Inventory Copilot"),
    ("/inventory_lab", "Inventory evaluation lab"),
    ("/school_scheduling_lab", "School Scheduling Lab"),
    ("/lp_repair_lab", "LP Repair Lab"),
    ("/retailbench", "RetailBench"),
    ("/retailbench_replay", "RetailBench replay"),
    ("/experiments", "Experiments"),
)
FIRST_CONTROL = ", ".join(
    f'[data-testid="stMain"] [data-testid="{t}"]'
    for t in ("stButton", "stChatInput", "stSelectbox", "stFormSubmitButton", "stRadio", "stExpander")
)


@pytest.mark.parametrize(("path", "title"), WORKBENCHES)
def test_each_workbench_starts_above_the_fold_in_present_mode(projector: Page, path: str, title: str):
    open_page(projector, f"{path}?present=1", title)
    assert_healthy(projector)
    expect(projector.locator('[data-testid="stSidebar"]')).to_be_hidden()
    heading = projector.get_by_role("heading", name=title).first.bounding_box()
    assert heading is not None and heading["y"] + heading["height"] < 768 / 3, heading
    first = projector.locator(FIRST_CONTROL).first.bounding_box()
    assert first is not None and first["y"] < 768, (path, first)


def test_copilot_heading_last_turns_chat_box_and_table_head_fit_above_the_fold(projector: Page):
    from tests.support.streamlit_page import CHAT_BOX, CHAT_MESSAGE, send_chat

    open_page(projector, "/inventory_copilot?present=1", "Inventory Copilot")
    send_chat(projector, "I sell phone cases online. Daily demand is Poisson with 3 units a day.")
    assert_healthy(projector)

    def box(locator) -> dict:
        found = locator.bounding_box()
        assert found is not None, locator
        return found

    heading = box(projector.get_by_role("heading", name="Inventory Copilot").first)
    assert heading["y"] >= 0 and heading["y"] + heading["height"] < 768 / 3, heading  # not scrolled away
    projector.wait_for_function(  # the history scrolls itself to its end just after the rerun has painted
        """([message, input]) => {
          const last = [...document.querySelectorAll(message)].at(-1), box = document.querySelector(input);
          return last && box && last.getBoundingClientRect().bottom <= box.getBoundingClientRect().top;
        }""",
        arg=[CHAT_MESSAGE, CHAT_BOX],
        timeout=10_000,
    )
    last = box(projector.locator(CHAT_MESSAGE).last)
    chat_box = box(projector.locator(CHAT_BOX))
    assert chat_box["y"] + chat_box["height"] <= 768, chat_box
    end = last["y"] + last["height"]  # the history scrolls to its end: the last turn's end is in view
    assert heading["y"] + heading["height"] < end <= chat_box["y"], (heading, last, chat_box)
    table = box(projector.get_by_role("heading", name="Parameter table").first)
    editor = box(projector.locator('[data-testid="stDataFrame"]').first)
    assert table["x"] > last["x"] and table["y"] < heading["y"] + 400, (table, last)  # beside the chat
    assert editor["y"] + 60 < 768, editor  # the table's head (header row and first rows)
