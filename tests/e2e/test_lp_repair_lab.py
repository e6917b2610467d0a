"""LP Repair Lab in a real browser: run the offline agent on a problem and open the trace at step 0; a failed
repair is a red error box, never a green one."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e


def test_run_a_repair_and_open_the_trace(page, artifacts_dir: Path):
    open_page(page, "/lp_repair_lab", "LP Repair Lab")
    page.get_by_role("button", name="New episode").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("INFEASIBLE", timeout=60_000)
    repair_tab = page.get_by_role("tabpanel").first
    charts = repair_tab.locator('[data-testid="stPlotlyChart"]')
    expect(charts).to_have_count(1, timeout=60_000)  # the IIS grid of the start (Plotly loads lazily)
    page.get_by_role("button", name="Run to the end").click()
    wait_idle(page)
    expect(page.get_by_text("Episode complete: rationally recovered")).to_be_visible(timeout=60_000)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("OPTIMAL")
    # a feasible step shows the IIS of the step its repair started from (issue 28 item 5)
    expect(charts).to_have_count(1, timeout=30_000)
    expect(charts.first).to_contain_text("repaired", timeout=30_000)
    step = page.get_by_role("combobox", name="Show step")
    step.click()
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    wait_idle(page)
    expect(charts).to_have_count(1, timeout=30_000)
    expect(charts.first).to_contain_text("IIS at step 0")
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "lp_repair_lab_trace.png"), full_page=True)


def test_a_failed_repair_is_an_error_box_not_a_green_one(page, artifacts_dir: Path):
    """Issue 28 item 5: an episode that does not recover shows a red error, and no green success box."""
    open_page(page, "/lp_repair_lab", "LP Repair Lab")
    agent = page.get_by_role("combobox", name="Agent")
    agent.click()
    page.get_by_role("option", name="Do nothing (offline reference)").click()
    wait_idle(page)
    page.get_by_role("button", name="New episode").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("INFEASIBLE", timeout=60_000)
    page.get_by_role("button", name="Run to the end").click()
    wait_idle(page)
    error = page.locator('[data-testid="stAlertContentError"]').filter(has_text="Episode complete")
    expect(error).to_be_visible(timeout=60_000)
    expect(error).to_contain_text("not recovered")
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_have_count(0)
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "lp_repair_lab_failed.png"), full_page=True)


def _choose(page, label: str, typed: str) -> None:
    """Pick the option of the select box `label` that typing `typed` filters to first."""
    box = page.get_by_role("combobox", name=label)
    expect(box).to_be_visible(timeout=30_000)
    box.click()
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    wait_idle(page)


def test_a_student_repairs_an_lp_and_a_reload_keeps_the_episode(page, artifacts_dir: Path):
    """Issue 31 item 3: a student plays the agents' actions from the page; the run survives a reload."""
    open_page(page, "/lp_repair_lab", "LP Repair Lab")
    _choose(page, "Error type", "ME-4")
    _choose(page, "Problem", "sc-test-me-4-00003")  # the built-in sample's ME-4 (capacity_e1 set too low)
    _choose(page, "Agent", "Student: you choose")
    page.get_by_role("button", name="New episode").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("INFEASIBLE", timeout=60_000)
    expect(page.get_by_role("button", name="Play")).to_be_visible(timeout=30_000)
    _choose(page, "Action", "GET_IIS")
    page.get_by_role("button", name="Play").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').nth(1)).to_contain_text("1 / 20", timeout=30_000)
    assert "run=" in page.url
    page.reload()  # a new browser session: the episode comes back from the store
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').nth(1)).to_contain_text("1 / 20", timeout=60_000)
    _choose(page, "Action", "UPDATE_RHS")
    page.get_by_label("Target (row, family prefix or variable)").fill("capacity_e1")
    page.get_by_label("Value", exact=True).fill("443.81")
    page.get_by_role("button", name="Play").click()
    wait_idle(page)
    expect(page.get_by_text("Episode complete: rationally recovered")).to_be_visible(timeout=60_000)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text("OPTIMAL")
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "lp_repair_lab_student.png"), full_page=True)
