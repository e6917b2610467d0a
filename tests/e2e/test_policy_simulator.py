"""The Policy Simulator in a real browser: run the default comparison and see the table and the charts."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, wait_idle

pytestmark = pytest.mark.e2e
CHART = '[data-testid="stPlotlyChart"]'


def test_run_a_comparison_and_see_the_charts(page, artifacts_dir: Path):
    open_page(page, "/policy_simulator", "Policy Simulator")
    assert_healthy(page)
    expect(page.get_by_text("press Run simulation", exact=False)).to_be_visible()
    expect(page.locator(CHART)).to_have_count(0)
    page.get_by_role("button", name="Run simulation").click()
    expect(page.get_by_text("Recommended for λ", exact=False)).to_be_visible(timeout=120_000)
    wait_idle(page)
    assert_healthy(page)
    table = page.locator('[data-testid="stDataFrame"]').first
    expect(table).to_contain_text("when below 15, top up to 20")  # plain rule names; engine names on hover
    expect(table).to_contain_text("exact optimal plan")
    expect(page.locator(f"{CHART} .js-plotly-plot").first).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "policy_simulator.png"), full_page=True)
    for tab, text, name in (
        ("Trajectories", "On-hand", "trajectories"),
        ("Cost distributions", "Distribution of the total horizon cost", "costs"),
        ("Risk vs cost", "choice for λ", "risk"),
        ("(s,S) heatmap", "grid optimum", "heatmap"),
    ):
        page.get_by_role("tab", name=tab).click()
        chart = page.locator(CHART).filter(has_text=text)
        expect(chart).to_be_visible()
        chart.screenshot(path=str(artifacts_dir / f"policy_simulator_{name}.png"))
    expect(page.get_by_role("button", name="deployment_artifacts.zip")).to_be_visible()
    assert_healthy(page)


def _upload(page, name: str, data: bytes) -> None:
    """Replace the uploaded file and press Load file once the page has seen the new file (a click that races
    the upload's own rerun can be lost on a loaded machine)."""
    button = page.get_by_role("button", name="Load file")
    remove = page.locator('[data-testid="stFileUploaderDeleteBtn"]')
    if remove.count():
        remove.first.click()
        expect(button).to_be_disabled(timeout=30_000)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": data}]
    )
    expect(button).to_be_enabled(timeout=30_000)
    wait_idle(page)
    button.click()
    wait_idle(page)


def _shown_after_load(page, text: str) -> None:
    """Wait for `text`; if the Load file click was lost to a concurrent rerun (seen once in 40 runs on a loaded
    machine: the file in the uploader, no message at all), press Load file again — loading is idempotent."""
    message = page.get_by_text(text, exact=False)
    for _ in range(2):
        try:
            expect(message).to_be_visible(timeout=20_000)
            return
        except AssertionError:
            wait_idle(page)
            page.get_by_role("button", name="Load file").click()
            wait_idle(page)
    expect(message).to_be_visible(timeout=30_000)


def test_upload_a_garbage_history_then_a_real_one(page, artifacts_dir: Path):
    open_page(page, "/policy_simulator", "Policy Simulator")
    page.get_by_text("Load a problem").click()
    _upload(page, "sales.csv", b"date,demand\n2024-01-01,5\n2024-01-02,lots\n")
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="demand_history")
    expect(alert).to_contain_text("row 3: 'lots' is not a number")
    assert_healthy(page)
    _upload(page, "sales.csv", b"date,demand\n2024-01-01,5\n2024-01-02,9\n2024-01-03,7\n")
    _shown_after_load(page, "Loaded empirical demand from 3 days of history")
    expect(page.get_by_label("Demand distribution", exact=True)).to_have_value("empirical(5,9,7)")
    page.screenshot(path=str(artifacts_dir / "policy_simulator_upload.png"), full_page=True)
    assert_healthy(page)
