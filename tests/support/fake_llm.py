"""A local fake LLM server speaking the OpenAI Chat Completions and Anthropic Messages wire formats.

Tests point the real SDK clients at it through `base_url` and script what it answers, one entry per request:

    {"text": "hi"}                                                  a plain answer
    {"tool_calls": [{"name": "add", "arguments": {"a": 1}}]}       a tool call (arguments may be a raw string,
                                                                     e.g. '{"a": 1' to send broken JSON)
    {"status": 429}                                                 an HTTP error (401, 403, 404, 429, 500, ...)
    {"raw": "<html>…</html>", "content_type": "text/html"}         this body as is, with status 200 (or "status")
    {"hang": 5, "text": "late"}                                     wait 5 s (or until `close()`) before answering

Like the real Anthropic API, `/v1/messages` refuses (400, without using a scripted entry) a conversation with
empty text or a `tool_use` that the next message does not answer with a `tool_result`.
Every request body is kept in `requests` so tests can check what the SDK actually sent.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class FakeLLMServer:
    """Serve scripted replies on a free 127.0.0.1 port until `close()`."""

    def __init__(self) -> None:
        self.queue: deque[dict[str, Any]] = deque()
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                path = self.path.split("?")[0]
                with server._lock:
                    server.requests.append(
                        {
                            "path": path,
                            "body": body,
                            "headers": {k.lower(): v for k, v in self.headers.items()},
                        }
                    )
                    problem = invalid_anthropic_request(body) if path.endswith("/messages") else None
                    if problem:
                        entry = {"status": 400, "message": problem}
                    elif server.queue:
                        entry = server.queue.popleft()
                    else:
                        entry = {"status": 400, "message": "script exhausted"}
                if entry.get("hang"):
                    server._closing.wait(float(entry["hang"]))
                status, data, content_type = server._respond(path, body, entry)
                try:
                    self.send_response(status)
                    self.send_header("content-type", content_type)
                    self.send_header("content-length", str(len(data)))
                    if status >= 400:
                        self.send_header("retry-after-ms", "5")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting (a "hang" entry)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    @property
    def openai_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def script(self, entries: list[dict[str, Any]]) -> None:
        """Replace what the server will answer, one entry per incoming request."""
        with self._lock:
            self.queue = deque(entries)
            self.requests.clear()

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _respond(self, path: str, body: dict[str, Any], entry: dict[str, Any]) -> tuple[int, bytes, str]:
        """Status, body bytes and content type for one scripted entry."""
        if "raw" in entry:
            return (
                int(entry.get("status", 200)),
                str(entry["raw"]).encode(),
                entry.get("content_type", "text/html"),
            )
        status, payload = self._render(path, body, entry)
        return status, json.dumps(payload).encode(), "application/json"

    def _render(self, path: str, body: dict[str, Any], entry: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        anthropic = path.endswith("/messages")
        if "status" in entry:
            status = int(entry["status"])
            message = entry.get("message", f"scripted error {status}")
            if anthropic:
                return status, {
                    "type": "error",
                    "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message},
                }
            return status, {
                "error": {"message": message, "type": ERROR_TYPES.get(status, "api_error"), "code": status}
            }
        n = len(self.requests)
        calls = entry.get("tool_calls", [])
        text = entry.get("text", "")
        usage_in, usage_out = entry.get("usage", (11, 7))
        if anthropic:
            content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            for i, call in enumerate(calls):
                args = call.get("arguments", {})
                content.append(
                    {"type": "tool_use", "id": f"toolu_{n}_{i}", "name": call["name"], "input": args}
                )
            return 200, {
                "id": f"msg_{n}",
                "type": "message",
                "role": "assistant",
                "model": body.get("model"),
                "content": content,
                "stop_reason": "tool_use" if calls else "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": usage_in, "output_tokens": usage_out},
            }
        tool_calls = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {
                    "name": c["name"],
                    "arguments": c["arguments"]
                    if isinstance(c.get("arguments"), str)
                    else json.dumps(c.get("arguments", {})),
                },
            }
            for i, c in enumerate(calls)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if tool_calls:
            message["tool_calls"] = tool_calls
        return 200, {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {
                "prompt_tokens": usage_in,
                "completion_tokens": usage_out,
                "total_tokens": usage_in + usage_out,
            },
        }


def invalid_anthropic_request(body: dict[str, Any]) -> str | None:
    """Why the real Messages API would answer 400 to `body`'s messages (the checks ORCA can get wrong), or None."""
    messages = body.get("messages") or []
    if not messages:
        return "messages: at least one message is required"
    for i, message in enumerate(messages):
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        if not blocks:
            return f"messages.{i}: all messages must have non-empty content"
        for j, block in enumerate(blocks):
            if block.get("type") == "text" and not str(block.get("text", "")).strip():
                return f"messages.{i}.content.{j}.text: text content blocks must contain non-whitespace text"
        uses = [b["id"] for b in blocks if b.get("type") == "tool_use"]
        if message.get("role") == "assistant" and uses:
            following = messages[i + 1] if i + 1 < len(messages) else {}
            answered = {
                b.get("tool_use_id")
                for b in following.get("content") or []
                if isinstance(b, dict) and b.get("type") == "tool_result"
            }
            missing = [u for u in uses if u not in answered]
            if following.get("role") != "user" or missing:
                return (
                    f"messages.{i + 1}: `tool_use` ids were found without `tool_result` blocks immediately "
                    f"after: {', '.join(missing or uses)}. Each `tool_use` block must have a corresponding "
                    "`tool_result` block in the next message."
                )
        previous = messages[i - 1].get("content") if i > 0 else None
        uses_before = {
            b.get("id") for b in previous or [] if isinstance(b, dict) and b.get("type") == "tool_use"
        }
        for j, block in enumerate(blocks):
            if block.get("type") == "tool_result" and block.get("tool_use_id") not in uses_before:
                return (
                    f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: "
                    f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding "
                    "`tool_use` block in the previous message."
                )
    return None
