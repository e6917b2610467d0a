"""Home page and Settings sidebar through Streamlit's AppTest (no browser).

AppTest 1.67 re-runs only the selected page after the first run of an `st.navigation` app, so the app shell is
checked on its first run and the Settings panel is driven as a script of its own.
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def settings_script() -> None:
    from core.ui import settings_sidebar

    settings_sidebar()


def run_settings() -> AppTest:
    return AppTest.from_function(settings_script, default_timeout=60).run()


def test_app_shell_renders_home_and_settings():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert at.title[0].value == "ORCA · Operations Research Copilot Arena"
    assert at.sidebar.selectbox(key="orca_provider").value == "offline"
    assert at.session_state["orca_settings"].provider == "offline"


def test_home_page_links_each_present_workbench():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    from core.catalog import available

    present = {str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")}
    titles = [h.value for h in at.subheader]  # cards fill three columns, so the tree lists them column by column
    assert sorted(titles) == sorted(w.title for w in available(present))


def test_settings_switch_provider_and_validate(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    at = run_settings()
    assert at.selectbox(key="orca_provider").value == "openai"
    assert at.text_input(key="orca_api_key_openai").value == "sk-from-env"
    at.text_input(key="orca_base_url_openai").set_value("localhost:1234").run()
    assert any("base_url" in e.value for e in at.error)
    at.text_input(key="orca_base_url_openai").set_value("http://127.0.0.1:9/v1").run()
    assert at.session_state["orca_settings"].base_url == "http://127.0.0.1:9/v1"
    at.number_input(key="orca_seed").set_value(7).run()
    assert at.session_state["orca_settings"].seed == 7


def test_llm_timeout_and_retries_are_settings(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    monkeypatch.setenv("ORCA_LLM_TIMEOUT", "20")
    at = run_settings()
    assert at.number_input(key="orca_llm_timeout").value == 20.0
    at.number_input(key="orca_llm_timeout").set_value(300.0).run()
    at.number_input(key="orca_llm_retries").set_value(1).run()
    settings = at.session_state["orca_settings"]
    assert (settings.timeout_s, settings.max_retries) == (300.0, 1)
    at.number_input(key="orca_llm_retries").set_value(5).run()  # 300 s x 6 attempts is over the bound
    assert any("600 s" in e.value for e in at.error)
    assert at.session_state["orca_settings"].max_retries == 1


def test_connection_failure_is_a_message_not_a_crash():
    at = run_settings()
    at.selectbox(key="orca_provider").set_value("anthropic").run()
    at.button(key="orca_test_connection").click().run()
    assert not at.exception
    assert any("Connection failed" in e.value and "ANTHROPIC_API_KEY" in e.value for e in at.error)


def test_connection_through_fake_server(fake_llm):
    fake_llm.script([{"text": "pong"}])
    at = run_settings()
    at.selectbox(key="orca_provider").set_value("openai").run()
    at.text_input(key="orca_base_url_openai").set_value(fake_llm.openai_url).run()
    at.text_input(key="orca_api_key_openai").set_value("sk-test").run()
    at.button(key="orca_test_connection").click().run()
    assert any("Connected to openai" in s.value for s in at.success)
    assert fake_llm.requests[-1]["headers"]["authorization"] == "Bearer sk-test"


def test_switching_provider_prefills_that_providers_environment(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://anthropic.example")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-env")
    at = run_settings()
    assert at.selectbox(key="orca_provider").value == "anthropic"
    at.selectbox(key="orca_provider").set_value("openai").run()
    assert at.text_input(key="orca_api_key_openai").value == "sk-openai-env"
    assert at.text_input(key="orca_base_url_openai").value == ""
    assert at.text_input(key="orca_model_openai").value == "gpt-4o-mini"
    settings = at.session_state["orca_settings"]
    assert (settings.provider, settings.api_key, settings.base_url) == ("openai", "sk-openai-env", None)
    monkeypatch.delenv("OPENAI_API_KEY")
    at.selectbox(key="orca_provider").set_value("offline").run()
    at.selectbox(key="orca_provider").set_value("openai").run()
    assert at.text_input(key="orca_api_key_openai").value == ""
    assert at.session_state["orca_settings"].api_key is None
    at.selectbox(key="orca_provider").set_value("anthropic").run()
    assert at.text_input(key="orca_base_url_anthropic").value == "https://anthropic.example"
    assert at.session_state["orca_settings"].api_key == "sk-ant-env"


@pytest.mark.parametrize(
    "name, value",
    [
        ("ORCA_PROVIDER", "ollama"),
        ("ORCA_SEED", "-1"),
        ("ORCA_SEED", "1.5"),
        ("OPENAI_BASE_URL", "localhost:1"),
    ],
)
def test_a_bad_environment_variable_is_reported_not_fatal(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    at = run_settings()
    assert not at.exception
    assert at.session_state["orca_settings"].provider == "offline"
    assert any(name in w.value and "offline defaults" in w.value for w in at.warning)


def test_every_page_survives_a_bad_environment(monkeypatch):
    monkeypatch.setenv("ORCA_PROVIDER", "ollama")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert at.title[0].value == "ORCA · Operations Research Copilot Arena"
    assert any("ORCA_PROVIDER" in w.value for w in at.warning)
    history = AppTest.from_file(str(ROOT / "pages" / "run_history.py"), default_timeout=60).run()
    assert not history.exception


def test_an_invalid_edit_is_not_tested_with_the_old_settings(fake_llm):
    fake_llm.script([{"text": "pong"}])
    at = run_settings()
    at.selectbox(key="orca_provider").set_value("openai").run()
    at.text_input(key="orca_base_url_openai").set_value("127.0.0.1:1/v1").run()
    at.button(key="orca_test_connection").click().run()
    assert any("Not tested" in e.value and "base_url" in e.value for e in at.error)
    assert not at.success and fake_llm.requests == []


def test_choosing_a_provider_without_a_key_warns_at_once_in_the_sidebar(monkeypatch):
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ORCA_PROVIDER"):
        monkeypatch.delenv(name, raising=False)
    at = run_settings()
    assert not at.warning
    at.selectbox(key="orca_provider").set_value("anthropic").run()
    assert not at.exception
    assert any("needs an API key" in w.value and "Offline" in w.value for w in at.warning)
    at.text_input(key="orca_api_key_anthropic").set_value("sk-ant-typed").run()
    assert not any("needs an API key" in w.value for w in at.warning)
    at.selectbox(key="orca_provider").set_value("openai").run()
    assert any("OPENAI_API_KEY" in w.value for w in at.warning)
