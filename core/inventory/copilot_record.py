"""How the Copilot session writes itself to the run store: messages, steps, artifacts and run metrics.

`RunRecorder` is the Copilot's base: every write is skipped without a store or run, and while a stored
conversation is being replayed (`_recording` is False), so resuming never records anything twice.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import Any

from core.llm import Message
from core.runlog import record_messages
from core.store import Store


class RunRecorder:
    """The store writes of a session; subclasses set `store`, `run_id` and `_recording`."""

    store: Store | None
    run_id: str | None
    _recording: bool

    def _guarded(self, on_step: Callable | None) -> Callable | None:
        if on_step is None:
            return None
        return lambda step: on_step(step) if self._recording else None

    def _message(self, role: str, text: str, tool_calls: list | None = None) -> None:
        if self.store and self.run_id and self._recording:
            self.store.add_message(self.run_id, role, text, tool_calls)

    def _record_loop(self, messages: tuple[Message, ...], skip_user: bool = False) -> None:
        if self.store and self.run_id and self._recording:
            record_messages(
                self.store, self.run_id, [m for m in messages if not (skip_user and m.role == "user")]
            )

    def _step(self, kind: str, payload: dict[str, Any]) -> None:
        if self.store and self.run_id and self._recording:
            self.store.add_step(self.run_id, kind, payload)

    def _artifact(self, name: str, data: bytes) -> None:
        if self.store and self.run_id and self._recording:
            self.store.add_artifact(self.run_id, name, data=data)

    def _update(self, **fields: Any) -> None:
        if self.store and self.run_id and self._recording:
            self.store.update_run(self.run_id, **fields)


def run_metrics(policy: dict[str, Any] | None, messages: int) -> dict[str, Any]:
    """The run's metrics: the recommendation, its costs and the critic's verdict."""
    policy = policy or {}
    return {
        "recommended": policy.get("recommended"),
        "recommended_policy": policy.get("recommended_policy"),
        "recommended_mean": policy.get("recommended_mean"),
        "ss_mean": policy.get("ss_mean"),
        "dqn_mean": policy.get("dqn_mean"),
        "critic_ok": (policy.get("critic") or {}).get("ok"),
        "messages": messages,
    }


def deployment_zip(artifacts: dict[str, bytes]) -> bytes:
    """The `deployment_artifacts/` files among `artifacts` as one zip archive."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in artifacts.items():
            if name.startswith("deployment_artifacts/"):
                archive.writestr(name, data)
    return buf.getvalue()
