"""Settings from the environment, validation and key hygiene."""

import pytest

from core.config import DEFAULT_MODELS, Settings
from core.errors import SpecError


def test_provider_is_picked_from_keys():
    assert Settings.from_env({}).provider == "offline"
    s = Settings.from_env({"ANTHROPIC_API_KEY": "sk-ant"})
    assert (s.provider, s.api_key) == ("anthropic", "sk-ant")
    s = Settings.from_env({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"})
    assert (s.provider, s.base_url) == ("openai", "http://127.0.0.1:11434/v1")
    assert Settings.from_env({"ANTHROPIC_API_KEY": "x", "ORCA_PROVIDER": "offline"}).provider == "offline"


def test_key_never_in_repr_or_public_dict():
    s = Settings(provider="openai", model="m", api_key="sk-secret-123")
    assert "sk-secret-123" not in repr(s)
    assert "sk-secret-123" not in str(s.public_dict())
    assert "api_key" not in s.public_dict()


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"provider": "cohere"}, "provider"),
        ({"seed": -1}, "seed"),
        ({"model": " "}, "model"),
        ({"base_url": "localhost:1234"}, "base_url"),
    ],
)
def test_invalid_settings_name_the_field(changes, field):
    with pytest.raises(SpecError) as err:
        Settings().with_changes(**changes)
    assert err.value.field == field


def test_bad_seed_env():
    with pytest.raises(SpecError, match="ORCA_SEED"):
        Settings.from_env({"ORCA_SEED": "abc"})


@pytest.mark.parametrize(
    "env, name",
    [
        ({"ORCA_PROVIDER": "ollama"}, "ORCA_PROVIDER"),
        ({"ORCA_SEED": "-1"}, "ORCA_SEED"),
        ({"ORCA_SEED": "1.5"}, "ORCA_SEED"),
        ({"OPENAI_BASE_URL": "localhost:11434/v1"}, "OPENAI_BASE_URL"),
        ({"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "api.example.com"}, "ANTHROPIC_BASE_URL"),
        ({"ORCA_MODEL": "  "}, "ORCA_MODEL"),
    ],
)
def test_bad_environment_names_the_variable(env, name):
    with pytest.raises(SpecError) as err:
        Settings.from_env(env)
    assert err.value.field == name and str(err.value).startswith(f"{name}: ")


def test_a_chosen_provider_takes_its_own_key_url_and_default_model():
    env = {
        "ANTHROPIC_API_KEY": "sk-ant",
        "ANTHROPIC_BASE_URL": "https://anthropic.example",
        "OPENAI_API_KEY": "sk-oai",
        "ORCA_MODEL": "claude-haiku-4-5",
    }
    assert Settings.from_env(env).model == "claude-haiku-4-5"
    s = Settings.from_env(env, provider="openai")
    assert (s.provider, s.api_key, s.base_url, s.model) == ("openai", "sk-oai", None, "gpt-4o-mini")
    s = Settings.from_env(env, provider="offline")
    assert (s.api_key, s.base_url) == (None, None)


def test_public_dict_hides_credentials_in_the_base_url():
    s = Settings(provider="openai", model="m", base_url="http://alice:hunter2@10.0.0.5:8000/v1")
    assert s.public_dict()["base_url"] == "http://***@10.0.0.5:8000/v1"


def test_cli_settings_keep_the_environment_model_to_its_own_provider(monkeypatch):
    monkeypatch.setenv("ORCA_PROVIDER", "openai")
    monkeypatch.setenv("ORCA_MODEL", "gpt-4.1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    switched = Settings.from_cli(provider="anthropic")
    assert switched.provider == "anthropic" and switched.model == DEFAULT_MODELS["anthropic"]
    assert switched.api_key == "sk-ant-test"
    same = Settings.from_cli(provider="openai", seed=7)
    assert same.model == "gpt-4.1" and same.seed == 7
    assert Settings.from_cli(provider="anthropic", model="claude-x").model == "claude-x"


def test_frontier_budget_reads_its_variable_and_names_it_when_bad():
    from core.config import DEFAULT_FRONTIER_BUDGET_S, frontier_budget

    assert frontier_budget({}) == DEFAULT_FRONTIER_BUDGET_S
    assert frontier_budget({"ORCA_FRONTIER_BUDGET": "30"}) == 30.0
    for bad in ("soon", "0", "-5", "9999"):
        with pytest.raises(SpecError) as err:
            frontier_budget({"ORCA_FRONTIER_BUDGET": bad})
        assert err.value.field == "ORCA_FRONTIER_BUDGET"


def test_a_schedule_session_takes_its_frontier_budget_from_the_environment(monkeypatch):
    from core.schedule.session import ScheduleSession

    monkeypatch.setenv("ORCA_FRONTIER_BUDGET", "42")
    assert ScheduleSession().frontier_budget == 42.0
    assert ScheduleSession(frontier_budget=3.0).frontier_budget == 3.0
