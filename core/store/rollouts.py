"""Rollout data in the store: per-step transitions, whole run records written at once, and run leases.

A `RunRecord` is what one run produced, held in memory: experiment workers build one (they never open the
store) and the driver writes it with `Store.write_record` in a single transaction, so a killed worker can
never leave a half-written run. Interactive runs write through the recorder as they go instead. A record may
carry a workbench's own record tables (`tables`: table name -> DataFrame, e.g. RetailBench's `retail_daily`);
they are written in the same transaction as the run.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

import duckdb
import pandas as pd

from core.errors import StoreError
from core.store.codec import RUN_COLUMNS, dumps, fetch_frame, now_utc

T = TypeVar("T")

CORE_TABLES = frozenset({"runs", "messages", "steps", "transitions", "artifacts", "cells", "experiments",
                         "schema_version"})  # fmt: skip
TRANSITION_COLUMNS = (
    "t, action, reward, observation, obs_hash, info, terminated, truncated, "
    "input_tokens, output_tokens, latency_ms, note"
)


@dataclass(frozen=True)
class TransitionRow:
    """One environment step as stored: the action taken, what it earned and what the agent saw next."""

    t: int
    action: Any
    reward: float
    observation: Any
    obs_hash: str
    info: dict[str, Any]
    terminated: bool = False
    truncated: bool = False
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float | None = None
    note: str | None = None

    def values(self) -> list[Any]:
        return [
            self.t,
            dumps(self.action),
            self.reward,
            dumps(self.observation),
            self.obs_hash,
            dumps(self.info),
            self.terminated,
            self.truncated,
            self.input_tokens,
            self.output_tokens,
            self.latency_ms,
            self.note,
        ]


@dataclass
class RunRecord:
    """Everything one run produced, in memory and picklable: written later by `Store.write_record`."""

    workbench: str
    config: dict[str, Any]
    seed: int | None = None
    title: str = ""
    status: str = "running"
    metrics: dict[str, Any] | None = None
    messages: list[tuple[str, str, list | None]] = field(default_factory=list)
    steps: list[tuple[str, dict, int, int, float | None]] = field(default_factory=list)
    transitions: list[TransitionRow] = field(default_factory=list)
    artifacts: dict[str, bytes] = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def record_table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """The columns of a workbench record table (without `run_id`); StoreError if `table` is not one."""
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
        [table],
    ).fetchall()
    names = [r[0] for r in rows]
    if table in CORE_TABLES or "run_id" not in names:
        raise StoreError(f"{table!r} is not a workbench record table of the run store")
    return [n for n in names if n != "run_id"]


def insert_record_tables(
    con: duckdb.DuckDBPyConnection, run_id: str, tables: dict[str, pd.DataFrame]
) -> dict[str, int]:
    """Append each frame to its record table under `run_id` (every column of the table must be in the frame).

    An empty frame adds nothing and is not checked: a run that ended before its first day (a provider error,
    a stop) has tables without rows, and often without columns."""
    counts = {}
    for table, frame in tables.items():
        cols = record_table_columns(con, table)
        counts[table] = len(frame)
        if not len(frame):
            continue
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise StoreError(f"the rows for {table} lack the columns {missing}")
        con.register("orca_table_in", frame[cols])
        try:
            con.execute(
                f'INSERT INTO "{table}" (run_id, {", ".join(cols)}) SELECT ?, {", ".join(cols)} FROM orca_table_in',
                [run_id],
            )
        finally:
            con.unregister("orca_table_in")
    return counts


def _insert_transitions(con: duckdb.DuckDBPyConnection, run_id: str, rows: Sequence[TransitionRow]) -> None:
    """Insert transitions as one DataFrame (row-by-row `executemany` costs seconds for a long run)."""
    if not rows:
        return
    names = [c.strip() for c in TRANSITION_COLUMNS.split(",")]
    frame = pd.DataFrame([row.values() for row in rows], columns=names)
    frame.insert(0, "run_id", run_id)
    con.register("orca_transitions_in", frame)
    try:
        con.execute(
            f"INSERT INTO transitions (run_id, {TRANSITION_COLUMNS}) "
            f"SELECT run_id, {', '.join(names)} FROM orca_transitions_in"
        )
    finally:
        con.unregister("orca_transitions_in")


class RolloutTables:
    """Store methods for transitions, run records and leases (mixed into `Store`)."""

    _tx: Callable[[Callable[[duckdb.DuckDBPyConnection], T]], T]
    _read: Callable[[Callable[[duckdb.DuckDBPyConnection], T]], T]

    def add_transitions(self, run_id: str, rows: Sequence[TransitionRow]) -> None:
        """Append transitions to a run in one transaction (their `t` must be new for the run)."""
        if not rows:
            return

        def work(con: duckdb.DuckDBPyConnection) -> None:
            if not con.execute("SELECT 1 FROM runs WHERE id = ?", [run_id]).fetchall():
                raise StoreError(f"no run with id {run_id!r}")
            _insert_transitions(con, run_id, rows)

        self._tx(work)

    def transitions(self, run_id: str, start: int = 0, stop: int | None = None) -> pd.DataFrame:
        """A run's transitions with `start <= t < stop` (all by default), in step order."""
        sql = (
            f"SELECT {TRANSITION_COLUMNS} FROM transitions WHERE run_id = ? AND t >= ? "
            "AND (?::INTEGER IS NULL OR t < ?) ORDER BY t"
        )
        return self._read(lambda con: fetch_frame(con, sql, [run_id, start, stop, stop]))

    def transition_rewards(self, run_id: str) -> pd.DataFrame:
        """A run's step numbers and rewards only (columns `t`, `reward`), in step order: the whole run's reward
        curve without reading its actions and observations."""
        sql = "SELECT t, reward FROM transitions WHERE run_id = ? ORDER BY t"
        return self._read(lambda con: fetch_frame(con, sql, [run_id]))

    def write_record(self, record: RunRecord) -> str:
        """Write a whole run (run row, messages, steps, transitions, artifacts, record tables) in one transaction."""
        run_id = uuid.uuid4().hex[:12]
        now = now_utc()

        def work(con: duckdb.DuckDBPyConnection) -> str:
            con.execute(
                f"INSERT INTO runs ({RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    run_id,
                    record.workbench,
                    record.title,
                    now,
                    now,
                    record.status,
                    record.seed,
                    dumps(record.config),
                    dumps(record.metrics),
                ],
            )
            if record.messages:
                con.executemany(
                    "INSERT INTO messages (run_id, turn, role, content, tool_calls, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        [run_id, i + 1, role, content, dumps(calls), now]
                        for i, (role, content, calls) in enumerate(record.messages)
                    ],
                )
            if record.steps:
                con.executemany(
                    "INSERT INTO steps (run_id, step, kind, payload, input_tokens, output_tokens, latency_ms, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        [run_id, i + 1, kind, dumps(payload), tin, tout, ms, now]
                        for i, (kind, payload, tin, tout, ms) in enumerate(record.steps)
                    ],
                )
            _insert_transitions(con, run_id, record.transitions)
            for name, data in record.artifacts.items():
                con.execute(
                    "INSERT INTO artifacts (run_id, name, path, blob, size, created_at) VALUES (?, ?, NULL, ?, ?, ?)",
                    [run_id, name, data, len(data), now],
                )
            insert_record_tables(con, run_id, record.tables)
            return run_id

        return self._tx(work)

    def take_lease(self, run_id: str, owner: str, seconds: float) -> bool:
        """Hold run `run_id` for `owner` until `seconds` from now; False if another owner's lease is live."""
        now = now_utc()
        until = now + timedelta(seconds=seconds)

        def work(con: duckdb.DuckDBPyConnection) -> bool:
            row = con.execute("SELECT lease_owner, lease_until FROM runs WHERE id = ?", [run_id]).fetchone()
            if row is None:
                raise StoreError(f"no run with id {run_id!r}")
            holder, held_until = row
            if holder not in (None, owner) and held_until is not None and held_until > now:
                return False
            con.execute(
                "UPDATE runs SET lease_owner = ?, lease_until = ? WHERE id = ?", [owner, until, run_id]
            )
            return True

        return self._tx(work)

    def release_lease(self, run_id: str, owner: str) -> None:
        """Give up `owner`'s lease on a run (a lease of another owner stays)."""
        self._tx(
            lambda con: con.execute(
                "UPDATE runs SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?",
                [run_id, owner],
            )
        )

    def lease(self, run_id: str) -> tuple[str | None, datetime | None]:
        """The current lease holder of a run and until when (None, None when free)."""
        row = self._tx(
            lambda con: con.execute(
                "SELECT lease_owner, lease_until FROM runs WHERE id = ?", [run_id]
            ).fetchone()
        )
        if row is None:
            raise StoreError(f"no run with id {run_id!r}")
        return row[0], row[1]

    def run_tokens(self, run_ids: list[str]) -> pd.DataFrame:
        """Input and output tokens of each listed run (`run_id`, `input_tokens`, `output_tokens`): per column the
        larger of its transitions' and its steps' sums, since an agent may record the same requests in both."""
        sql = (
            "WITH t AS (SELECT run_id, sum(input_tokens) AS i, sum(output_tokens) AS o FROM transitions "
            "WHERE list_contains(?::VARCHAR[], run_id) GROUP BY run_id), "
            "s AS (SELECT run_id, sum(input_tokens) AS i, sum(output_tokens) AS o FROM steps "
            "WHERE list_contains(?::VARCHAR[], run_id) GROUP BY run_id) "
            "SELECT r.id AS run_id, greatest(coalesce(t.i, 0), coalesce(s.i, 0))::BIGINT AS input_tokens, "
            "greatest(coalesce(t.o, 0), coalesce(s.o, 0))::BIGINT AS output_tokens FROM runs r "
            "LEFT JOIN t ON t.run_id = r.id LEFT JOIN s ON s.run_id = r.id WHERE list_contains(?::VARCHAR[], r.id)"
        )
        ids = [str(r) for r in run_ids]
        return self._read(lambda con: fetch_frame(con, sql, [ids, ids, ids]))
