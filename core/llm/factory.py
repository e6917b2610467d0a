"""Build the `ChatModel` that Settings ask for, and check a provider connection."""

from __future__ import annotations

from core.config import Settings
from core.errors import ProviderError
from core.llm.offline import OfflineModel, OfflinePolicy, OfflineTurn
from core.llm.types import ChatModel, Message


def make_chat_model(settings: Settings, offline_policy: OfflinePolicy | None = None) -> ChatModel:
    """The offline policy when the provider is offline, else the configured LLM adapter."""
    if settings.provider == "offline":
        if offline_policy is None:
            raise ProviderError("this agent has no offline policy; choose an LLM provider in Settings")
        return OfflineModel(offline_policy, name=settings.model)
    from core.llm.providers import AnthropicChatModel, OpenAIChatModel  # the SDKs load only when used

    if settings.provider == "anthropic":
        if not settings.api_key:
            raise ProviderError("Anthropic needs an API key: set ANTHROPIC_API_KEY or enter it in Settings.")
        return AnthropicChatModel(
            settings.model, settings.api_key, settings.base_url, settings.timeout_s, settings.max_retries
        )
    if not settings.api_key and not settings.base_url:
        raise ProviderError("OpenAI needs an API key (OPENAI_API_KEY) or a base URL of a local server.")
    return OpenAIChatModel(
        settings.model, settings.api_key, settings.base_url, settings.timeout_s, settings.max_retries
    )


def _pong(system: str, messages: object, tools: object) -> OfflineTurn:
    return OfflineTurn("pong")


def check_connection(settings: Settings) -> str:
    """Send one tiny request; return a success sentence or raise `ProviderError` with the reason."""
    model = make_chat_model(settings, offline_policy=_pong)
    reply = model.complete("Reply with the single word: pong", [Message("user", "ping")])
    if settings.provider == "offline":
        return "Offline built-in agents are ready (no network needed)."
    return (
        f"Connected to {settings.provider} model '{settings.model}' in {reply.latency_s * 1000:.0f} ms "
        f"(it answered: {reply.text.strip()[:60]!r})."
    )
