"""The Inventory Copilot in a real browser: type a dialogue, watch the table fill, get and query a policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.streamlit_page import assert_healthy, open_page, send_chat

pytestmark = pytest.mark.e2e

DIALOGUE = (
    "We sell phone cases. Daily demand is random, Poisson with λ = 3 units a day. If we're out, customers go "
    "elsewhere. Holding a case costs $0.50 per unit per day, and each lost sale costs us $4. There's a flat $3 "
    "fee per shipment, and deliveries arrive 1 day after we order. We can store up to 15 units, and the "
    "supplier caps a single order at 10 units. Nothing perishes."
)


def test_dialogue_fills_the_table_and_gets_a_policy(page, artifacts_dir: Path):
    """The final turn's speed is timed in `bench/copilot_final_turn.py` (`phone_cases_T90_dp`), not here."""
    open_page(page, "/inventory_copilot", "Inventory Copilot")
    assert_healthy(page)
    expect(page.get_by_text("I'm the Inventory Copilot")).to_be_visible()
    expect(page.get_by_text("0 of 12 defined")).to_be_visible()

    send_chat(page, DIALOGUE)
    expect(page.get_by_text("Over how many days should I plan")).to_be_visible()
    expect(page.get_by_text("10 of 12 defined")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()  # the grid itself is a canvas

    send_chat(page, "Plan for 20 days.")
    expect(page.get_by_text("11 of 12 defined")).to_be_visible()
    expect(page.get_by_text("Last question, about risk preference").last).to_be_visible()

    send_chat(page, "2")
    assert_healthy(page)
    expect(page.get_by_role("heading", name="Recommended policy")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("12 of 12 defined")).to_be_visible()
    expect(page.get_by_text("passed", exact=True)).to_be_visible()
    expect(page.get_by_text("Do you have any other questions?").last).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(1)
    expect(page.get_by_role("button", name="Open in Policy Simulator")).to_be_visible()

    send_chat(page, "current inventory 4, day 4, no incoming orders")
    expect(page.get_by_text("units now").last).to_be_visible()
    send_chat(page, "no thanks, that's all")
    expect(page.get_by_text("archived this conversation as interpret.txt")).to_be_visible()
    expect(page.get_by_role("button", name="interpret.txt")).to_be_enabled()
    send_chat(page, "thanks again")  # a message after the farewell gets a visible reply
    expect(page.get_by_text("thanks again")).to_be_visible()
    expect(page.get_by_text("This conversation is finished")).to_be_visible()
    assert_healthy(page)
    page.screenshot(path=str(artifacts_dir / "inventory_copilot_dialogue.png"), full_page=True)

    page.get_by_role("button", name="Open in Policy Simulator").click()
    expect(page.get_by_role("heading", name="Policy Simulator").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Loaded the problem from the Inventory Copilot")).to_be_visible()
    expect(page.get_by_label("Time horizon T (periods)")).to_have_value("20")  # the copilot's 20-day plan
    assert_healthy(page)
