"""Presentation mode (`?present=1` and the sidebar button) through Streamlit's AppTest (no browser)."""

from streamlit.testing.v1 import AppTest


def present_script() -> None:
    from core.ui import presentation_mode

    presentation_mode()


def test_url_parameter_turns_presentation_mode_on_and_exit_clears_it():
    at = AppTest.from_function(present_script, default_timeout=60)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception
    assert at.session_state["orca_present"] is True
    assert at.button(key="orca_present_exit")
    at.button(key="orca_present_exit").click().run()
    assert at.session_state["orca_present"] is False
    assert "present" not in at.query_params
    assert at.sidebar.button(key="orca_present_enter")


def test_sidebar_button_turns_presentation_mode_on_and_puts_it_in_the_url():
    at = AppTest.from_function(present_script, default_timeout=60).run()
    assert at.session_state["orca_present"] is False
    at.sidebar.button(key="orca_present_enter").click().run()
    assert not at.exception
    assert at.session_state["orca_present"] is True
    assert at.query_params["present"] in ("1", ["1"])


def test_run_link_opens_the_run_in_its_page():
    from core.ui import run_link

    assert run_link("pages/inventory_copilot.py", "abc123") == "/inventory_copilot?run=abc123"
