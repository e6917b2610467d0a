"""Build the `ChatModel` that Settings ask for, and check a provider connection."""

from __future__ import annotations

from core.config import Settings
from core.errors import ProviderError
from core.llm.offline import OfflineModel, OfflinePolicy, OfflineTurn
from core.llm.types import ChatModel, Message

CHECK_TIMEOUT_S = 10.0


def make_chat_model(settings: Settings, offline_policy: OfflinePolicy | None = None) -> ChatModel:
    """The offline policy when the provider is offline, else the configured LLM adapter."""
    if settings.provider == "offline":
        if offline_policy is None:
            raise ProviderError("this agent has no offline policy; choose an LLM provider in Settings")
        return OfflineModel(offline_policy, name=settings.model)
    from core.llm.providers import AnthropicChatModel, OpenAIChatModel  # the SDKs load only when used

    if settings.provider == "anthropic":
        if not settings.api_key:
            raise ProviderError("Anthropic needs an API key: enter it in Settings or set ANTHROPIC_API_KEY, or choose Offline built-in "
                "agents in Settings.")
        return AnthropicChatModel(
            settings.model, settings.api_key, settings.base_url, settings.timeout_s, settings.max_retries
        )
    if not settings.api_key and not settings.base_url:
        raise ProviderError("OpenAI-compatible needs an API key (Settings or OPENAI_API_KEY) or the base URL of a local server "
            "(Settings or OPENAI_BASE_URL), or choose Offline built-in agents in Settings.")
    return OpenAIChatModel(
        settings.model, settings.api_key, settings.base_url, settings.timeout_s, settings.max_retries
    )


def _pong(system: str, messages: object, tools: object) -> OfflineTurn:
    return OfflineTurn("pong")


def check_connection(settings: Settings) -> str:
    """Send one tiny request; return a success sentence or raise `ProviderError` with the reason.

    A check should answer quickly, so it waits at most `CHECK_TIMEOUT_S` per attempt and retries once.
    """
    quick = settings.with_changes(
        timeout_s=min(settings.timeout_s, CHECK_TIMEOUT_S), max_retries=min(settings.max_retries, 1)
    )
    model = make_chat_model(quick, offline_policy=_pong)
    reply = model.complete("Reply with the single word: pong", [Message("user", "ping")])
    if settings.provider == "offline":
        return "Offline built-in agents are ready (no network needed)."
    return (
        f"Connected to {settings.provider} model '{settings.model}' in {reply.latency_s * 1000:.0f} ms "
        f"(it answered: {reply.text.strip()[:60]!r})."
    )
