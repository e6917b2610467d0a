"""An opt-in, content-addressed cache of model replies behind the `ChatModel` interface.

`CachedChatModel(inner, replies, provider=..., temperature=..., seed=...)` answers a request from `replies` when
the very same request was answered before, and otherwise asks `inner` and stores its reply. The key is the
sha256 of the canonical JSON (sorted keys, no whitespace) of the full request: cache version, provider, model,
system prompt, every message (role, text, tool calls, tool-call ids), every tool offered (name, description,
schema), temperature and seed. Any change in any of them is a different key, so a cached reply is only ever
reused for a byte-identical request. A hit returns the stored reply as it was — text, tool calls, token usage,
latency, stop reason — with `cached=True`, so a rerun records the same trace and the same tokens, and cost
accounting can tell that nothing was spent. Errors are never cached.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any, Protocol

from core.llm.types import ChatModel, Message, Reply, ToolCall, ToolSpec, Usage

CACHE_VERSION = 1
_SERVED: dict[tuple[str, str], Usage] = {}
_SERVED_LOCK = threading.Lock()


def served_usage() -> dict[tuple[str, str], Usage]:
    """Tokens of the replies this process has served from the cache so far, per (provider, model): what a
    cached reply would have cost, which was not spent (an experiment worker takes the difference per cell, so
    the `--budget` counts cached replies at $0)."""
    with _SERVED_LOCK:
        return dict(_SERVED)


def served_since(before: dict[tuple[str, str], Usage]) -> dict[tuple[str, str], Usage]:
    """The cached tokens served since the snapshot `before` (from `served_usage`), per (provider, model)."""
    now = served_usage()
    out = {}
    for key, usage in now.items():
        old = before.get(key, Usage())
        diff = Usage(usage.input_tokens - old.input_tokens, usage.output_tokens - old.output_tokens)
        if diff.input_tokens or diff.output_tokens:
            out[key] = diff
    return out


class ReplyStore(Protocol):
    """Where cached replies live (`core.store.llm_cache.StoredReplies` in the run store; a dict in tests)."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, provider: str, model: str, request: dict[str, Any], reply: dict[str, Any]) -> None: ...


def request_json(
    provider: str,
    model: str,
    system: str,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec] = (),
    *,
    temperature: float | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """The full request as plain JSON data: what the cache key is computed from (and what is stored with it)."""
    return {
        "cache_version": CACHE_VERSION,
        "provider": provider,
        "model": model,
        "system": system,
        "messages": [m.to_dict() for m in messages],
        "tools": [asdict(t) for t in tools],
        "temperature": temperature,
        "seed": seed,
    }


def canonical(data: Any) -> str:
    """Canonical JSON: sorted keys, no whitespace, non-ASCII kept, NaN refused."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def request_key(request: dict[str, Any]) -> str:
    """The sha256 hex digest of the canonical JSON of `request` (see `request_json`)."""
    return hashlib.sha256(canonical(request).encode()).hexdigest()


def reply_to_json(reply: Reply) -> dict[str, Any]:
    """A reply as JSON data (the `cached` flag is not stored)."""
    return {
        "text": reply.text,
        "tool_calls": [c.to_dict() for c in reply.tool_calls],
        "usage": {"input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens},
        "latency_s": reply.latency_s,
        "stop_reason": reply.stop_reason,
    }


def reply_from_json(data: dict[str, Any]) -> Reply:
    """The reply stored by `reply_to_json`."""
    usage = data.get("usage") or {}
    calls = tuple(
        ToolCall(c["id"], c["name"], dict(c.get("arguments") or {}), c.get("error")) for c in data.get("tool_calls", [])
    )
    return Reply(
        text=str(data.get("text", "")),
        tool_calls=calls,
        usage=Usage(int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))),
        latency_s=float(data.get("latency_s", 0.0)),
        stop_reason=data.get("stop_reason"),
    )


class CachedChatModel:
    """A `ChatModel` that answers repeated requests from a `ReplyStore`; `hits` and `misses` count requests."""

    def __init__(
        self,
        inner: ChatModel,
        replies: ReplyStore,
        *,
        provider: str,
        temperature: float | None = None,
        seed: int | None = None,
    ) -> None:
        self.inner = inner
        self.replies = replies
        self.provider = provider
        self.temperature = temperature
        self.seed = seed
        self.name = inner.name
        self.hits = 0
        self.misses = 0

    def __repr__(self) -> str:
        return f"CachedChatModel({self.inner!r}, {self.replies!r})"

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        """The stored reply to this exact request, else the inner model's (then stored)."""
        request = request_json(
            self.provider, self.name, system, messages, tools, temperature=self.temperature, seed=self.seed
        )
        key = request_key(request)
        stored = self.replies.get(key)
        if stored is not None:
            self.hits += 1
            reply = replace(reply_from_json(stored), cached=True)
            with _SERVED_LOCK:
                key_ = (self.provider, self.name)
                _SERVED[key_] = _SERVED.get(key_, Usage()) + reply.usage
            return reply
        reply = self.inner.complete(system, messages, tools)
        self.misses += 1
        self.replies.put(key, self.provider, self.name, request, reply_to_json(reply))
        return reply
