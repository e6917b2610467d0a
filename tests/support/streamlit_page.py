"""Playwright helpers for Streamlit pages: open a page, wait for a rerun to finish, assert no exception."""

from __future__ import annotations

from playwright.sync_api import Page, expect

EXCEPTION = '[data-testid="stException"]'
CHAT_BOX = '[data-testid="stChatInput"] textarea'
CHAT_MESSAGE = '[data-testid="stChatMessage"]'


def wait_idle(page: Page) -> None:
    """Wait until the app is connected and no script run is in progress."""
    app = page.locator('[data-testid="stApp"]')
    expect(app).to_have_attribute("data-test-connection-state", "CONNECTED")
    expect(app).to_have_attribute("data-test-script-state", "notRunning", timeout=120_000)


def open_page(page: Page, path: str, heading: str) -> None:
    """Go to `path` and wait for its heading (Streamlit renders after the load event)."""
    page.goto(path, wait_until="domcontentloaded")
    expect(page.get_by_role("heading", name=heading).first).to_be_visible(timeout=60_000)
    wait_idle(page)


def assert_healthy(page: Page) -> None:
    """No Streamlit exception box and no uncaught JavaScript error."""
    expect(page.locator(EXCEPTION)).to_have_count(0)
    assert not getattr(page, "js_errors", []), page.js_errors


def send_chat(page: Page, text: str) -> None:
    """Type a chat message, submit it and wait for the rerun it starts: first until the chat shows more messages
    than before (every chat page shows the user's message and its answer), then until no run is in progress.
    Waiting for idle alone could pass before the rerun had even started."""
    shown = page.locator(CHAT_MESSAGE).count()
    box = page.locator(CHAT_BOX)
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(
        "([selector, shown]) => document.querySelectorAll(selector).length > shown",
        arg=[CHAT_MESSAGE, shown],
        timeout=120_000,
    )
    wait_idle(page)
