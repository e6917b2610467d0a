"""Build the `ChatModel` that Settings ask for, and check a provider connection."""

from __future__ import annotations

from core.config import Settings
from core.errors import ProviderError
from core.llm.offline import OfflineModel, OfflinePolicy, OfflineTurn
from core.llm.registry import PROVIDER_REGISTRY
from core.llm.types import ChatModel, Message

CHECK_TIMEOUT_S = 10.0


def make_chat_model(settings: Settings, offline_policy: OfflinePolicy | None = None) -> ChatModel:
    """The offline policy when the provider is offline, else the configured LLM adapter (see the registry);
    with `settings.llm_cache` the adapter sits behind the reply cache in `settings.store_path`."""
    entry = PROVIDER_REGISTRY[settings.provider]
    if entry.adapter is None:
        if offline_policy is None:
            raise ProviderError("this agent has no offline policy; choose an LLM provider in Settings")
        return OfflineModel(offline_policy, name=settings.model)
    if not entry.ready(api_key=settings.api_key, base_url=settings.base_url):
        raise ProviderError(entry.missing_credentials)
    from core.llm import providers  # the SDKs load only when used

    adapter = getattr(providers, entry.adapter)
    model = adapter(
        settings.model, settings.api_key, settings.base_url, settings.timeout_s, settings.max_retries
    )
    model.temperature = settings.temperature
    model.sample_seed = settings.llm_seed
    if not settings.llm_cache:
        return model
    from core.llm.cache import CachedChatModel
    from core.store.llm_cache import StoredReplies

    return CachedChatModel(
        model,
        StoredReplies(settings.store_path),
        provider=settings.provider,
        temperature=settings.temperature,
        seed=settings.llm_seed,
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
