"""Settings from the environment, validation and key hygiene."""

import pytest

from core.config import Settings
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
