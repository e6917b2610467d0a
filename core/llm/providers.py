"""Adapters from the `ChatModel` interface to the Anthropic Messages and OpenAI Chat Completions APIs.

Both SDKs retry 408/409/429/5xx and connection errors with exponential backoff (`max_retries`); what is
left after the retries is turned into a `ProviderError` whose message says what to do. So is an answer that is
not the API's JSON (a web page, another service, a broken body): that usually means a wrong base URL. Both
adapters ask for at most `MAX_OUTPUT_TOKENS` and cut a longer text at `MAX_REPLY_CHARS` (a server may ignore the
limit); an empty answer (no text, no tool call) is a `ProviderError`, never shown as an empty reply.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import anthropic
import openai

from core.config import redact_url
from core.errors import ProviderError
from core.llm.types import Message, Reply, ToolCall, ToolSpec, Usage

MAX_OUTPUT_TOKENS = 2048
MAX_REPLY_CHARS = 20_000  # ~ 4x what MAX_OUTPUT_TOKENS allows; guards against servers that ignore it
EMPTY_TEXT = "(no text)"  # sent to Anthropic for an empty message: it refuses empty text blocks
_API_NAMES = {
    "Anthropic": "the Anthropic Messages API",
    "OpenAI-compatible server": "an OpenAI Chat Completions API",
}
_SHAPE_ERRORS = (AttributeError, TypeError, KeyError, IndexError, ValueError)


def _where(base_url: str | None) -> str:
    return redact_url(base_url) if base_url else "the default endpoint"


def _not_an_api(provider: str, base_url: str | None, response: object = None) -> ProviderError:
    """The server answered, but not in the API's format: most often the base URL points elsewhere."""
    sample = f" It sent: {response.strip()[:80]!r}." if isinstance(response, str) and response.strip() else ""
    return ProviderError(
        f"{provider} at {_where(base_url)} did not answer like {_API_NAMES[provider]}; check the base URL."
        + sample
    )


def _explain(provider: str, model: str, base_url: str | None, err: Exception) -> ProviderError:
    """Turn an SDK exception into a message a user can act on."""
    status = getattr(err, "status_code", None)
    where = _where(base_url)
    if isinstance(err, (anthropic.APIResponseValidationError, openai.APIResponseValidationError)):
        return _not_an_api(provider, base_url)
    if status in (401, 403):
        what = "rejected the API key" if status == 401 else "refused access with this key"
        return ProviderError(f"{provider} {what} ({status}). Check the key in Settings or the environment.")
    if status == 404:
        return ProviderError(
            f"{provider} answered 404 (not found) for the model '{model}' at {where}: unknown model or wrong "
            "base URL. Check the model name and the base URL."
        )
    if status == 429:
        return ProviderError(
            f"{provider} is rate-limiting requests (429) and retries did not help; wait and try again."
        )
    if status is not None and status >= 500:
        return ProviderError(f"{provider} had a server error ({status}) at {where}; try again later.")
    if status is not None:
        return ProviderError(f"{provider} refused the request ({status}): {getattr(err, 'message', err)}")
    if isinstance(err, (anthropic.APITimeoutError, openai.APITimeoutError)):
        return ProviderError(
            f"{provider} did not answer in time at {where} (timeout); try again or check the URL."
        )
    return ProviderError(f"cannot reach {provider} at {where}: {err}")


def _request(
    call: Callable[[], Any],
    parse: Callable[[Any, float], Reply],
    provider: str,
    model: str,
    base_url: str | None,
) -> Reply:
    """Send one request and parse its answer; every failure becomes a `ProviderError` that says what to do."""
    start = time.perf_counter()
    try:
        response = call()
    except (anthropic.APIError, openai.APIError) as err:
        raise _explain(provider, model, base_url, err) from err
    except (ValueError, RecursionError) as err:  # the SDK could not decode the body (broken JSON)
        raise _not_an_api(provider, base_url) from err
    latency = time.perf_counter() - start
    try:
        reply = parse(response, latency)
    except _SHAPE_ERRORS as err:
        raise _not_an_api(provider, base_url, response) from err
    return _checked(reply, provider)


def _checked(reply: Reply, provider: str) -> Reply:
    """Refuse an empty answer; cut an over-long text at `MAX_REPLY_CHARS`, saying so."""
    if not reply.text.strip() and not reply.tool_calls:
        why = (
            " (it stopped at the output-token limit)" if reply.stop_reason in ("length", "max_tokens") else ""
        )
        raise ProviderError(f"{provider} returned an empty answer{why}; try again or rephrase.")
    if len(reply.text) > MAX_REPLY_CHARS:
        cut = reply.text[:MAX_REPLY_CHARS] + f"\n\n[answer cut at {MAX_REPLY_CHARS:,} characters]"
        return replace(reply, text=cut)
    return reply


def _parse_arguments(raw: str | None) -> tuple[dict[str, Any], str | None]:
    """Decode a tool call's JSON arguments; broken JSON becomes an error the tool loop reports back."""
    if not raw:
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as err:
        return {}, f"the arguments are not valid JSON ({err.msg} at position {err.pos}): {raw[:200]}"
    if not isinstance(value, dict):
        return {}, f"the arguments must be a JSON object, got: {raw[:200]}"
    return value, None


class _SDKChatModel:
    """What both adapters share: the model name, the base URL, and one SDK client built with the retry settings."""

    def __init__(
        self,
        model: str,
        api_key: str | None,
        base_url: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 3,
    ) -> None:
        self.name = model
        self.base_url = base_url
        self.temperature: float | None = None  # sent when set (the factory copies Settings.temperature)
        self.sample_seed: int | None = None  # sent to OpenAI-compatible servers when set
        self._client = self._client_for(
            api_key=api_key or "missing-key", base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )

    @staticmethod
    def _client_for(**options: Any) -> Any:
        """The SDK client (each adapter names its SDK)."""
        raise NotImplementedError


class AnthropicChatModel(_SDKChatModel):
    """Anthropic Messages API (`anthropic` SDK); `base_url` may point at any compatible server."""

    @staticmethod
    def _client_for(**options: Any) -> anthropic.Anthropic:
        return anthropic.Anthropic(**options)

    @staticmethod
    def _messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for m in messages:
            if m.role == "tool":
                block = {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content}
                if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                    out[-1]["content"].append(block)
                else:
                    out.append({"role": "user", "content": [block]})
            elif m.role == "assistant" and m.tool_calls:
                blocks: list[dict[str, Any]] = (
                    [{"type": "text", "text": m.content}] if m.content.strip() else []
                )
                blocks += [
                    {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
                    for c in m.tool_calls
                ]
                out.append({"role": "assistant", "content": blocks})
            else:
                out.append({"role": m.role, "content": m.content if m.content.strip() else EMPTY_TEXT})
        return out

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        kwargs: dict[str, Any] = {
            "model": self.name,
            "max_tokens": MAX_OUTPUT_TOKENS,
            "messages": self._messages(messages),
        }
        if system:
            kwargs["system"] = system
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if tools:
            kwargs["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
            ]
        return _request(
            lambda: self._client.messages.create(**kwargs), self._reply, "Anthropic", self.name, self.base_url
        )

    @staticmethod
    def _reply(response: Any, latency: float) -> Reply:
        if not isinstance(response.content, list):
            raise TypeError("no content list")
        texts, calls = [], []
        for block in response.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                args = block.input if isinstance(block.input, dict) else {}
                error = (
                    None
                    if isinstance(block.input, dict)
                    else f"the arguments must be a JSON object: {block.input!r}"
                )
                calls.append(ToolCall(id=block.id, name=block.name, arguments=args, error=error))
        usage = Usage(
            getattr(response.usage, "input_tokens", 0) or 0, getattr(response.usage, "output_tokens", 0) or 0
        )
        return Reply("".join(texts), tuple(calls), usage, latency, response.stop_reason)


class OpenAIChatModel(_SDKChatModel):
    """OpenAI Chat Completions (`openai` SDK); `base_url` serves Ollama, vLLM or any compatible server."""

    @staticmethod
    def _client_for(**options: Any) -> openai.OpenAI:
        return openai.OpenAI(**options)

    @staticmethod
    def _messages(system: str, messages: Sequence[Message]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        for m in messages:
            if m.role == "tool":
                out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
            elif m.role == "assistant" and m.tool_calls:
                out.append(
                    {
                        "role": "assistant",
                        "content": m.content or None,
                        "tool_calls": [
                            {
                                "id": c.id,
                                "type": "function",
                                "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                            }
                            for c in m.tool_calls
                        ],
                    }
                )
            else:
                out.append({"role": m.role, "content": m.content})
        return out

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        kwargs: dict[str, Any] = {
            "model": self.name,
            "max_tokens": MAX_OUTPUT_TOKENS,
            "messages": self._messages(system, messages),
        }
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.sample_seed is not None:
            kwargs["seed"] = self.sample_seed
        if tools:
            kwargs["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in tools
            ]
        return _request(
            lambda: self._client.chat.completions.create(**kwargs),
            self._reply,
            "OpenAI-compatible server",
            self.name,
            self.base_url,
        )

    @staticmethod
    def _reply(response: Any, latency: float) -> Reply:
        if not isinstance(response.choices, list):
            raise TypeError("no choices list")
        if not response.choices:
            raise ProviderError("the OpenAI-compatible server returned no choices")
        choice = response.choices[0]
        calls = []
        for call in choice.message.tool_calls or []:
            args, error = _parse_arguments(call.function.arguments)
            calls.append(ToolCall(id=call.id, name=call.function.name, arguments=args, error=error))
        usage = Usage(
            getattr(response.usage, "prompt_tokens", 0) or 0,
            getattr(response.usage, "completion_tokens", 0) or 0,
        )
        return Reply(choice.message.content or "", tuple(calls), usage, latency, choice.finish_reason)
