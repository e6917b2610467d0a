"""The one table of LLM providers: for each, its label, default model, environment variables, what it needs
before it can answer, and the adapter class that talks to it.

`core.config` reads the table (provider names, labels, default models, the variables `Settings.from_env`
reads) and `core.llm.factory` builds the adapter from it, so adding a provider means adding one entry here
and its adapter class in `core.llm.providers`. This module imports nothing from ORCA, so `core.config` can
use it without a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ProviderEntry:
    """One provider. `adapter` names a class in `core.llm.providers` (None: the offline built-in policies);
    `url_suffices` means a base URL alone, without a key, is enough (a local OpenAI-compatible server)."""

    name: str
    label: str
    default_model: str
    adapter: str | None = None
    key_var: str | None = None
    url_var: str | None = None
    url_suffices: bool = False
    missing_credentials: str = ""

    @property
    def env_vars(self) -> tuple[str, ...]:
        """The key and base-URL variables this provider reads from the environment, in that order."""
        return tuple(v for v in (self.key_var, self.url_var) if v)

    def ready(self, *, api_key: str | None, base_url: str | None) -> bool:
        """True when the provider has what it needs to answer: nothing (offline), a key, or (local server) a URL."""
        return self.adapter is None or bool(api_key) or (self.url_suffices and bool(base_url))

    def chosen_by(self, env: Mapping[str, str]) -> bool:
        """The environment picks this LLM provider when its key (or, for a local server, its URL) is set."""
        if self.adapter is None:
            return False
        return self.ready(api_key=env.get(self.key_var or ""), base_url=env.get(self.url_var or ""))


PROVIDER_ENTRIES: tuple[ProviderEntry, ...] = (
    ProviderEntry("offline", "Offline built-in agents", "orca-offline"),
    ProviderEntry(
        "anthropic",
        "Anthropic",
        "claude-sonnet-4-5",
        adapter="AnthropicChatModel",
        key_var="ANTHROPIC_API_KEY",
        url_var="ANTHROPIC_BASE_URL",
        missing_credentials="Anthropic needs an API key: enter it in Settings or set ANTHROPIC_API_KEY, or choose "
        "Offline built-in agents in Settings.",
    ),
    ProviderEntry(
        "openai",
        "OpenAI-compatible",
        "gpt-4o-mini",
        adapter="OpenAIChatModel",
        key_var="OPENAI_API_KEY",
        url_var="OPENAI_BASE_URL",
        url_suffices=True,
        missing_credentials="OpenAI-compatible needs an API key (Settings or OPENAI_API_KEY) or the base URL of a "
        "local server (Settings or OPENAI_BASE_URL), or choose Offline built-in agents in Settings.",
    ),
)
PROVIDER_REGISTRY: dict[str, ProviderEntry] = {entry.name: entry for entry in PROVIDER_ENTRIES}
LLM_PROVIDERS: tuple[str, ...] = tuple(e.name for e in PROVIDER_ENTRIES if e.adapter is not None)
"""The providers that call an LLM (every entry but offline): what an LLM agent spec may name."""
