"""The one recorder: everything a run of any workbench writes — messages, LLM/tool steps, per-step transitions,
artifacts, status and metrics.

With a store it writes through as the run goes (the run row is created on the first write, so an idle page
visit leaves no empty run) and holds a lease on the run while it writes; without a store it only buffers a
picklable `RunRecord` that an experiment driver writes later in one transaction. Either way `record` holds
what was recorded, so callers never keep a second copy.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.errors import StoreError
from core.llm import Message, Step
from core.store import RunRecord, Store, TransitionRow

FLUSH_ROWS = 200
FLUSH_SECONDS = 1.0
LEASE_SECONDS = 600.0
"""How long a run stays held by the process writing it after its last write (a killed writer's lease lapses)."""


class RunStatus(StrEnum):
    """The status vocabulary of every run: running (one-shot work in progress), active (a conversation open for
    more turns), done, stopped (its caller stopped it early; what it did is kept), failed, interrupted (its
    writer went away before finishing)."""

    RUNNING = "running"
    ACTIVE = "active"
    DONE = "done"
    STOPPED = "stopped"
    FAILED = "failed"
    INTERRUPTED = "interrupted"


def lease_owner() -> str:
    """A lease owner id unique to this process and recorder."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Lease:
    """How a stored run is reopened for writing: `owner` takes its lease; given `is_live`, a lease another owner
    holds makes the recorder read-only unless `is_live(holder)` says that holder is gone (see `Recorder.attach`)."""

    owner: str | None = None
    is_live: Callable[[str], bool] | None = None


TRUSTING = Lease()
"""Take the run's lease whoever holds it, with a fresh owner id (CLI resumes, replays)."""


class Recorder:
    """Records one run. `paused` skips writes (used while a stored conversation is replayed on resume)."""

    def __init__(
        self,
        store: Store | None,
        workbench: str,
        *,
        config: dict[str, Any] | None = None,
        seed: int | None = None,
        title: str = "",
        status: RunStatus = RunStatus.RUNNING,
        owner: str | None = None,
    ) -> None:
        self.store = store
        self.record = RunRecord(workbench, dict(config or {}), seed, title, str(status))
        self.run_id: str | None = None
        self.paused = False
        self.owner = owner or lease_owner()
        self.read_only = False
        """True when another live writer holds the run (e.g. the same conversation open in a second browser
        tab): every write then raises instead of interleaving two transcripts into one run."""
        self._t = 0
        self._unwritten: list[TransitionRow] = []
        self._flushed_at = time.monotonic()
        self._held: list[tuple[str, Any]] | None = None  # a `batch`'s writes, in order, until it ends

    @classmethod
    def attach(
        cls,
        store: Store,
        run_id: str,
        lease: Lease = TRUSTING,
    ) -> Recorder:
        """A recorder that appends to the stored run `run_id` (its turns, steps and transitions continue).

        It takes the run's lease as `lease.owner`. Given `lease.is_live`, a lease another owner holds makes the
        recorder `read_only`, unless `is_live(holder)` says that holder is gone (a reloaded tab's old session),
        whose lease is then taken over. Without `is_live` it appends regardless (CLI resumes, replays)."""
        run = store.get_run(run_id)
        rec = cls(
            store,
            run["workbench"],
            config=run.get("config") or {},
            seed=run.get("seed"),
            title=run["title"],
            owner=lease.owner,
        )
        rec.run_id = run_id
        rec.record.status = str(run["status"])
        rec._t = len(store.transitions(run_id))
        took = store.take_lease(run_id, rec.owner, LEASE_SECONDS)
        is_live = lease.is_live
        if not took and is_live is not None:
            holder, _ = store.lease(run_id)
            if holder is not None and not is_live(holder):
                store.release_lease(run_id, holder)
                took = store.take_lease(run_id, rec.owner, LEASE_SECONDS)
        rec.read_only = not took and is_live is not None  # without a liveness check: the old, trusting attach
        return rec

    @property
    def writing(self) -> bool:
        return self.store is not None and not self.paused

    def _ensure_writable(self) -> None:
        """Refuse a write of a read-only recorder at once (also inside a `batch`, whose writes come later)."""
        if self.read_only:
            self._ensure_run()

    def _ensure_run(self) -> str:
        assert self.store is not None
        if self.read_only:
            raise StoreError(
                f"run {self.run_id} is open in another tab or process; this one is read-only so the two "
                "transcripts do not mix (start a new conversation here, or close the other tab and reload)"
            )
        if self.run_id is None:
            r = self.record
            self.run_id = self.store.create_run(r.workbench, r.config, r.seed, r.title, r.status)
            self.store.take_lease(self.run_id, self.owner, LEASE_SECONDS)
        return self.run_id

    def start(self) -> str | None:
        """Create the stored run now (normally it is created on the first write); its id, or None without store."""
        return self._ensure_run() if self.writing else None

    @contextmanager
    def batch(self) -> Iterator[Recorder]:
        """Hold the block's writes (messages, steps, artifacts, updates) in memory and write them when it ends in
        one short store transaction: consecutive messages and consecutive steps each in one statement. The store's
        lock is taken only then, for milliseconds, not while the caller computes; an exception in the block writes
        nothing (as a rolled-back `Store.batch`). Nested blocks join the outer one."""
        if self.store is None or self._held is not None:
            yield self
            return
        self._held = []
        try:
            yield self
            held = self._held
        finally:
            self._held = None
        if held:
            self._write_held(held)

    def _write_held(self, held: list[tuple[str, Any]]) -> None:
        assert self.store is not None
        with self.store.batch():
            self.flush()  # the environment steps recorded so far come first
            i = 0
            while i < len(held):
                kind = held[i][0]
                j = i
                while j < len(held) and held[j][0] == kind:
                    j += 1
                group = [item for _, item in held[i:j]]
                if kind == "message":
                    self.store.add_messages(self._ensure_run(), group)
                elif kind == "step":
                    self.store.add_steps(self._ensure_run(), group)
                else:
                    for write in group:
                        write()
                i = j

    def _later(self, write: Callable[[], None]) -> bool:
        """Hold `write` until the batch ends (True), or False outside a batch."""
        if self._held is None:
            return False
        self._held.append(("call", write))
        return True

    # --- what a run records ---

    def message(self, role: str, content: str, tool_calls: list | None = None) -> None:
        if self.paused:
            return
        self.record.messages.append((role, content, tool_calls))
        if self.store is not None:
            if self._held is not None:
                self._ensure_writable()
                self._held.append(("message", (role, content, tool_calls)))
                return
            self.store.add_message(self._ensure_run(), role, content, tool_calls)

    def messages(self, messages: Iterable[Message]) -> None:
        """Append conversation messages (with their tool calls), in one transaction when writing through."""
        items = list(messages)
        if not items or self.paused:
            return
        with self.batch():
            for m in items:
                self.message(m.role, m.content, [c.to_dict() for c in m.tool_calls] or None)

    def step(self, step: Step) -> None:
        """Record one LLM request or tool execution; usable as `run_tools(on_step=recorder.step)`."""
        self.event(step.kind, step.payload, step.input_tokens, step.output_tokens, step.latency_s * 1000.0)

    def event(
        self,
        kind: str,
        payload: dict[str, Any],
        input_tokens: int = 0,
        output_tokens: int = 0,
        latency_ms: float | None = None,
    ) -> None:
        """Record a step of any kind (a solver stage, a critic verdict, …) with its tokens and latency."""
        if self.paused:
            return
        self.record.steps.append((kind, payload, input_tokens, output_tokens, latency_ms))
        if self.store is not None:
            if self._held is not None:
                self._ensure_writable()
                self._held.append(("step", (kind, payload, input_tokens, output_tokens, latency_ms)))
                return
            self.flush()
            self.store.add_step(self._ensure_run(), kind, payload, input_tokens, output_tokens, latency_ms)

    def transition(self, row: TransitionRow) -> None:
        """Record one environment step. With a store, steps are written in batches (every
        `FLUSH_ROWS` steps or `FLUSH_SECONDS`, and before any other write), not one transaction each."""
        if self.paused:
            return
        self.record.transitions.append(row)
        self._t = row.t + 1
        if self.store is not None:
            self._unwritten.append(row)
            now = time.monotonic()
            if len(self._unwritten) >= FLUSH_ROWS or now - self._flushed_at >= FLUSH_SECONDS:
                self.flush()

    def flush(self) -> None:
        """Write the buffered steps now."""
        if self.store is not None and self._unwritten:
            rows, self._unwritten = self._unwritten, []
            self.store.add_transitions(self._ensure_run(), rows)
        self._flushed_at = time.monotonic()

    @property
    def next_t(self) -> int:
        """The index the next transition of this run gets (continues after a resume)."""
        return self._t

    def artifact(self, name: str, data: bytes) -> None:
        if self.paused:
            return
        self.record.artifacts[name] = data
        if self.store is not None:
            self._ensure_writable()
            if not self._later(lambda: self._write_artifact(name, data)):
                self._write_artifact(name, data)

    def _write_artifact(self, name: str, data: bytes) -> None:
        assert self.store is not None
        self.store.add_artifact(self._ensure_run(), name, data=data)

    def update(
        self,
        status: RunStatus | str | None = None,
        metrics: dict[str, Any] | None = None,
        title: str | None = None,
        config: dict[str, Any] | None = None,
    ) -> None:
        """Change the run's status, metrics, title or config (others unchanged)."""
        if self.paused:
            return
        r = self.record
        if status is not None:
            r.status = str(status)
        if metrics is not None:
            r.metrics = metrics
        if title is not None:
            r.title = title
        if config is not None:
            r.config = config
        if self.store is not None:
            self._ensure_writable()
            if not self._later(lambda: self._write_update(status, metrics, title, config)):
                self._write_update(status, metrics, title, config)

    def _write_update(
        self,
        status: RunStatus | str | None,
        metrics: dict[str, Any] | None,
        title: str | None,
        config: dict[str, Any] | None,
    ) -> None:
        if self.store is not None:
            self.flush()
            run_id = self._ensure_run()
            self.store.update_run(
                run_id,
                status=None if status is None else str(status),
                metrics=metrics,
                title=title,
                config=config,
            )
            self.store.take_lease(run_id, self.owner, LEASE_SECONDS)

    def finish(self, status: RunStatus | str = RunStatus.DONE, metrics: dict[str, Any] | None = None) -> None:
        """Set the final status (and metrics) and release the run, in one short transaction."""
        with self.batch():
            self.update(status=status, metrics=metrics)
            if self.store is not None:
                self._later(self._release)

    def _release(self) -> None:
        if self.store is not None and self.run_id is not None:
            self.store.release_lease(self.run_id, self.owner)
