"""The provider table drives Settings, the environment's choice, the factory and the sidebar's warning."""

from typing import get_args

import pytest

from core.config import ENV_VARS, PROVIDERS, Provider, Settings
from core.errors import ProviderError
from core.llm import make_chat_model
from core.llm.providers import AnthropicChatModel, OpenAIChatModel
from core.llm.registry import LLM_PROVIDERS, PROVIDER_ENTRIES, PROVIDER_REGISTRY


def test_the_registry_lists_each_provider_once_and_matches_the_settings_type():
    assert [e.name for e in PROVIDER_ENTRIES] == ["offline", "anthropic", "openai"] == list(PROVIDERS)
    assert get_args(Provider) == PROVIDERS
    assert {v for e in PROVIDER_ENTRIES for v in e.env_vars} <= set(ENV_VARS)
    assert PROVIDER_REGISTRY["offline"].env_vars == () and LLM_PROVIDERS == ("anthropic", "openai")


@pytest.mark.parametrize(
    ("env", "provider"),
    [
        ({}, "offline"),
        ({"ANTHROPIC_BASE_URL": "http://x"}, "offline"),
        ({"OPENAI_BASE_URL": "http://localhost:11434/v1"}, "openai"),
        ({"OPENAI_API_KEY": "sk-o", "ANTHROPIC_API_KEY": "sk-a"}, "anthropic"),
        ({"OPENAI_API_KEY": "sk-o", "ORCA_PROVIDER": "Offline"}, "offline"),
    ],
)
def test_the_environment_picks_the_first_provider_it_can_use(env, provider):
    assert Settings.from_env(env).provider == provider


def test_the_factory_builds_each_entry_s_adapter_once_with_the_settings():
    anthropic_model = make_chat_model(Settings(provider="anthropic", model="m1", api_key="sk-a"))
    assert type(anthropic_model) is AnthropicChatModel and anthropic_model.name == "m1"
    local = make_chat_model(
        Settings(provider="openai", model="m2", base_url="http://localhost:1/v1", timeout_s=7, max_retries=0)
    )
    assert type(local) is OpenAIChatModel and local.base_url == "http://localhost:1/v1"
    assert local._client.timeout == 7 and local._client.max_retries == 0
    with pytest.raises(ProviderError, match="OPENAI_BASE_URL"):
        make_chat_model(Settings(provider="openai", model="m2"))


def test_ready_needs_a_key_or_for_a_local_server_a_url():
    anthropic, openai = PROVIDER_REGISTRY["anthropic"], PROVIDER_REGISTRY["openai"]
    assert PROVIDER_REGISTRY["offline"].ready(api_key=None, base_url=None)
    assert not anthropic.ready(api_key=None, base_url="http://x") and anthropic.ready(api_key="k", base_url=None)
    assert openai.ready(api_key=None, base_url="http://x") and not openai.ready(api_key="", base_url=None)
