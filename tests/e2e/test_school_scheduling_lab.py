"""School Scheduling Lab in a real browser: generate a decision agent, watch it converse with the offline T-P-P,
see the utility after each turn; LLM decision and optimization agents without a key are refused; a tiny batch gives tables and a plot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e


def test_generate_a_decision_agent_and_watch_the_conversation(page, artifacts_dir: Path):
    open_page(page, "/school_scheduling_lab", "School Scheduling Lab")
    expect(
        page.get_by_text("offline decision agent (deterministic stand-in, not an LLM)").first
    ).to_be_visible()
    page.get_by_text("Generate a new one").click()
    wait_idle(page)
    expect(page.get_by_role("button", name="Run conversation")).to_be_disabled()
    page.get_by_role("button", name="Generate decision agent").click()
    wait_idle(page)
    expect(page.get_by_text(re.compile(r"Generated g01s0: .* unique maximiser"))).to_be_visible(
        timeout=60_000
    )
    expect(page.get_by_text(re.compile(r"Hidden utility g01s0 \("))).to_be_visible()
    page.get_by_text("rich", exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Run conversation").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetric"]').first).to_contain_text(
        re.compile(r"\d\.\d{3}"), timeout=90_000
    )
    messages = page.locator('[data-testid="stChatMessage"]')
    expect(messages.first).to_contain_text("Proposed schedule")
    expect(page.get_by_text(re.compile(r"best utility so far \d\.\d{3} of U\*")).first).to_be_visible()
    expect(page.get_by_text(re.compile(r"Recorded as run \w+"))).to_be_visible()
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "school_scheduling_lab_watch.png"), full_page=True)


def test_llm_decision_agents_without_a_key_are_refused(page):
    open_page(page, "/school_scheduling_lab", "School Scheduling Lab")
    page.get_by_text("LLM decision agents (Settings provider)").click()
    wait_idle(page)
    expect(page.get_by_text(re.compile("Nothing offline is substituted"))).to_be_visible()
    expect(page.get_by_role("button", name="Run conversation")).to_be_disabled()
    assert_healthy(page)


def test_llm_optimization_agents_without_a_key_are_refused(page):
    open_page(page, "/school_scheduling_lab", "School Scheduling Lab")
    page.get_by_label("Optimization agent").click()
    page.get_by_role("option", name="C-N-R with the Settings LLM", exact=False).first.click()
    wait_idle(page)
    expect(page.get_by_text(re.compile("C-N-R \\(LLM\\) needs an LLM"))).to_be_visible()
    expect(page.get_by_text(re.compile("offline stand-ins cannot do"))).to_be_visible()
    expect(page.get_by_text(re.compile("Paradigms not offered for C-N-R"))).to_be_visible()
    expect(page.get_by_role("button", name="Run conversation")).to_be_disabled()
    assert_healthy(page)


def test_a_tiny_batch_shows_tables_and_the_score_plot(page, artifacts_dir: Path):
    open_page(page, "/school_scheduling_lab", "School Scheduling Lab")
    page.get_by_role("tab", name="Batch").click()
    slider = page.get_by_role("slider")
    slider.focus()
    for _ in range(2):
        slider.press("ArrowLeft")  # 3 -> 1 utility
    wait_idle(page)
    expect(
        page.get_by_text(re.compile(r"^1 utilities × 2 styles × 2 feedbacks × 2 paradigms = 8"))
    ).to_be_visible()
    page.get_by_role("button", name="Run batch").click()
    wait_idle(page)
    batch = page.get_by_role("tabpanel", name="Batch")
    expect(batch.locator('[data-testid="stPlotlyChart"]')).to_have_count(1, timeout=120_000)
    expect(batch.locator('[data-testid="stDataFrame"]')).to_have_count(3)  # Table 2, its tests, Tables 3/4
    expect(page.get_by_role("button", name="Download conversations (CSV)")).to_be_visible()
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "school_scheduling_lab_batch.png"), full_page=True)
