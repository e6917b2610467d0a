"""The run store: runs, their messages, steps and artifacts in one DuckDB file.

Every method opens a short-lived connection (see `core.store.connection`), so the Streamlit app and a CLI
process can share the file. JSON columns (`config`, `metrics`, `tool_calls`, `payload`) come back decoded.
Times are naive UTC. Turn and step numbers start at 1 and are assigned inside the inserting statement.
Secrets never reach the file: configs, metrics, step payloads and tool calls pass through `scrub_secrets`, and
JSON is strict (NaN and infinities are stored as null).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pandas as pd

from core.config import default_store_path
from core.errors import SpecError, StoreError
from core.store import connection
from core.store.codec import (
    ARTIFACT_COLUMNS,
    RUN_COLUMNS,
    dumps,
    fetch_frame,
    fetch_rows,
    iso_times,
    now_utc,
    text,
)
from core.store.experiments import ExperimentTables
from core.store.migrations import migrate
from core.store.rollouts import TRANSITION_COLUMNS, RolloutTables

T = TypeVar("T")


MAX_LIST_LIMIT = 100_000
# Statuses of `core.recorder.RunStatus` a writer leaves behind while it works (the store cannot import it).
_UNFINISHED = ("running", "active")
INTERRUPTED = "interrupted"


def _process_alive(owner: str | None) -> bool:
    """Whether the process in a lease owner id (`PID-token`, `core.recorder.lease_owner`) still runs here."""
    pid_text = str(owner or "").split("-")[0]
    if not pid_text.isdigit():
        return True  # not ours to judge: only the lease time counts
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _lease_live(holder: str | None, until: Any, now: Any) -> bool:
    return holder is not None and until is not None and until > now and _process_alive(holder)


def _mark_interrupted(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Runs whose writer went away without finishing (lease lapsed, or its process is gone): mark them
    `interrupted` and free them, so lists say so and the chats can `--resume` them. Returns their ids."""
    now = now_utc()
    rows = con.execute(
        "SELECT id, lease_owner, lease_until FROM runs WHERE lease_owner IS NOT NULL AND list_contains(?, status)",
        [list(_UNFINISHED)],
    ).fetchall()
    gone = [run_id for run_id, holder, until in rows if not _lease_live(holder, until, now)]
    if gone:
        with suppress(duckdb.TransactionException):  # another process is marking them at the same moment
            con.execute(
                "UPDATE runs SET status = ?, lease_owner = NULL, lease_until = NULL, updated_at = ? "
                "WHERE list_contains(?, id)",
                [INTERRUPTED, now, gone],
            )
    return gone


class Store(RolloutTables, ExperimentTables):
    """The run store at `path` (default: `default_store_path()`), migrated to the current schema on open."""

    def __init__(
        self,
        path: str | Path | None = None,
        timeout_s: float = connection.DEFAULT_TIMEOUT_S,
        linger_s: float = 0.0,
    ) -> None:
        """`linger_s` > 0 keeps the DuckDB connection open between calls until idle that long (a server with many
        sessions: see `connection.connection`); 0 closes it after every call, releasing the file at once."""
        self.path = Path(path).expanduser().resolve() if path is not None else default_store_path().resolve()
        self.timeout_s = timeout_s
        self.linger_s = linger_s
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(
                f"Could not create the folder of the run store {self.path}: {err.strerror}"
            ) from err
        connection.check_file(self.path)
        try:
            with connection.connection(self.path, timeout_s, linger_s) as con:
                self.schema_version = migrate(con)
                self.interrupted = _mark_interrupted(con)
        except duckdb.Error as err:
            raise connection.damaged(self.path, err) or StoreError(
                f"Could not open the run store {self.path}: {err}"
            ) from err

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    def _tx(self, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        return connection.run_in_transaction(self.path, work, self.timeout_s, self.linger_s)

    def _read(self, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        """A read-only unit of work: on a lingering store it reads the committed state on a cursor of its own and
        does not wait for other threads' writes (`connection.read`); otherwise as `_tx`."""
        return connection.read(self.path, work, self.timeout_s, self.linger_s)

    @contextmanager
    def reads(self) -> Iterator[Store]:
        """Group a burst of reads: one connection and one snapshot for a store that closes after every call; on a
        lingering store nothing (each read takes a cursor without the lock, so the burst never blocks writers)."""
        if self.linger_s > 0:
            yield self
            return
        with self.batch():
            yield self

    @contextmanager
    def batch(self) -> Iterator[Store]:
        """Run every call made in the block on one connection and in one transaction (faster for bursts)."""
        with connection.batch(self.path, self.timeout_s, self.linger_s):
            yield self

    @staticmethod
    def _require_run(con: duckdb.DuckDBPyConnection, run_id: str) -> None:
        if con.execute("SELECT 1 FROM runs WHERE id = ?", [run_id]).fetchone() is None:
            raise StoreError(f"no run with id {run_id!r}")

    # --- writing ---

    def create_run(
        self, workbench: str, config: dict, seed: int | None = None, title: str = "", status: str = "running"
    ) -> str:
        """Record a new run and return its id (12 hex digits). Secrets in `config` are dropped (`dumps`)."""
        run_id = uuid.uuid4().hex[:12]
        now = now_utc()
        params = [run_id, text(workbench), text(title), now, now, status, seed, dumps(config)]
        self._tx(
            lambda con: con.execute(
                f"INSERT INTO runs ({RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)", params
            )
        )
        return run_id

    def update_run(
        self,
        run_id: str,
        status: str | None = None,
        metrics: dict | None = None,
        config: dict | None = None,
        title: str | None = None,
    ) -> None:
        """Replace the given fields of a run (others unchanged) and bump `updated_at`."""
        fields: dict[str, Any] = {"updated_at": now_utc()}
        if status is not None:
            fields["status"] = status
        if metrics is not None:
            fields["metrics"] = dumps(metrics)
        if config is not None:
            fields["config"] = dumps(config)
        if title is not None:
            fields["title"] = text(title)
        assignments = ", ".join(f"{name} = ?" for name in fields)

        def work(con: duckdb.DuckDBPyConnection) -> None:
            sql = f"UPDATE runs SET {assignments} WHERE id = ? RETURNING id"
            if not con.execute(sql, [*fields.values(), run_id]).fetchall():
                raise StoreError(f"no run with id {run_id!r}")

        self._tx(work)

    def add_message(self, run_id: str, role: str, content: str, tool_calls: list | None = None) -> int:
        """Append a chat message to a run; return its turn number (1, 2, …)."""
        sql = (
            "INSERT INTO messages (run_id, turn, role, content, tool_calls, created_at) "
            "SELECT r.id, (SELECT coalesce(max(turn), 0) + 1 FROM messages WHERE run_id = r.id), ?, ?, ?, ? "
            "FROM runs r WHERE r.id = ? RETURNING turn"
        )
        params = [role, text(content), dumps(tool_calls), now_utc(), run_id]
        return self._insert_numbered(sql, params, run_id)

    def add_step(
        self,
        run_id: str,
        kind: str,
        payload: dict,
        input_tokens: int = 0,
        output_tokens: int = 0,
        latency_ms: float | None = None,
    ) -> int:
        """Append a step (request, tool call, result, …) to a run; return its step number (1, 2, …)."""
        sql = (
            "INSERT INTO steps (run_id, step, kind, payload, input_tokens, output_tokens, latency_ms, created_at) "
            "SELECT r.id, (SELECT coalesce(max(step), 0) + 1 FROM steps WHERE run_id = r.id), ?, ?, ?, ?, ?, ? "
            "FROM runs r WHERE r.id = ? RETURNING step"
        )
        params = [kind, dumps(payload), input_tokens, output_tokens, latency_ms, now_utc(), run_id]
        return self._insert_numbered(sql, params, run_id)

    def add_messages(self, run_id: str, messages: Sequence[tuple[str, str, list | None]]) -> list[int]:
        """Append `(role, content, tool_calls)` messages to a run in one statement; their turn numbers. A turn's
        burst of messages costs one numbered insert instead of one each (the lock is held that much shorter)."""
        rows = [[role, text(content), dumps(tool_calls)] for role, content, tool_calls in messages]
        return self._append_numbered("messages", "turn", "role, content, tool_calls", rows, run_id)

    def add_steps(
        self, run_id: str, steps: Sequence[tuple[str, dict, int, int, float | None]]
    ) -> list[int]:
        """Append `(kind, payload, input_tokens, output_tokens, latency_ms)` steps to a run in one statement; their
        step numbers."""
        rows = [[kind, dumps(payload), i, o, lat] for kind, payload, i, o, lat in steps]
        return self._append_numbered(
            "steps", "step", "kind, payload, input_tokens, output_tokens, latency_ms", rows, run_id
        )

    def _append_numbered(
        self, table: str, number: str, columns: str, rows: list[list[Any]], run_id: str
    ) -> list[int]:
        """Insert `rows` into `table` numbered after the run's last `number`, in one statement (which also checks
        that the run exists)."""
        if not rows:
            return []
        width = len(rows[0])
        values = ", ".join(f"({i}, {', '.join('?' * width)})" for i in range(1, len(rows) + 1))
        cols = ", ".join(f"v.col{k}" for k in range(1, width + 1))
        sql = (
            f"INSERT INTO {table} (run_id, {number}, {columns}, created_at) "
            f"SELECT r.id, (SELECT coalesce(max({number}), 0) FROM {table} WHERE run_id = r.id) + v.col0, "
            f"{cols}, ? FROM runs r, (VALUES {values}) v WHERE r.id = ? ORDER BY v.col0 RETURNING {number}"
        )
        params = [now_utc(), *(p for row in rows for p in row), run_id]  # in the order of the ? in `sql`

        def work(con: duckdb.DuckDBPyConnection) -> list[int]:
            got = sorted(int(r[0]) for r in con.execute(sql, params).fetchall())
            if not got:
                raise StoreError(f"no run with id {run_id!r}")
            return got

        return self._tx(work)

    def _insert_numbered(self, sql: str, params: list[Any], run_id: str) -> int:
        def work(con: duckdb.DuckDBPyConnection) -> int:
            rows = con.execute(sql, params).fetchall()
            if not rows:
                raise StoreError(f"no run with id {run_id!r}")
            return int(rows[0][0])

        return self._tx(work)

    def add_artifact(
        self, run_id: str, name: str, data: bytes | None = None, path: str | None = None
    ) -> None:
        """Attach bytes (`data`) or a file reference (`path`) to a run as `name`, replacing an older one."""
        if (data is None) == (path is None):
            raise StoreError(f"artifact {name!r}: give exactly one of data or path")
        if data is not None:
            size: int | None = len(data)
        else:
            size = os.path.getsize(path) if path and os.path.isfile(path) else None

        def work(con: duckdb.DuckDBPyConnection) -> None:
            self._require_run(con, run_id)
            con.execute("DELETE FROM artifacts WHERE run_id = ? AND name = ?", [run_id, name])
            con.execute(
                "INSERT INTO artifacts (run_id, name, path, blob, size, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [run_id, name, path, data, size, now_utc()],
            )

        self._tx(work)

    def in_use(self, run_id: str) -> str | None:
        """Who holds run `run_id` right now (a live lease of a running process), as a sentence; None if free."""
        holder, until = self.lease(run_id)
        if not _lease_live(holder, until, now_utc()):
            return None
        return f"process {str(holder).split('-')[0]}, held until {until:%Y-%m-%d %H:%M:%S} UTC"

    def delete_run(self, run_id: str, *, force: bool = False) -> None:
        """Delete a run with everything keyed by it (messages, steps, transitions, artifacts, workbench records).
        A run held by a live session (an unexpired lease of a running process) is refused unless `force`: that
        session could never go on."""

        def work(con: duckdb.DuckDBPyConnection) -> None:
            self._require_run(con, run_id)
            holder, until = con.execute(
                "SELECT lease_owner, lease_until FROM runs WHERE id = ?", [run_id]
            ).fetchone()
            if not force and _lease_live(holder, until, now_utc()):
                raise StoreError(
                    f"run {run_id} is in use by a live session (process {str(holder).split('-')[0]}, held until "
                    f"{until:%Y-%m-%d %H:%M:%S} UTC); end that session first, or delete with --force"
                )
            tables = con.execute(
                "SELECT DISTINCT table_name FROM information_schema.columns "
                "WHERE column_name = 'run_id' AND table_name <> 'cells' ORDER BY table_name"
            ).fetchall()
            for (table,) in tables:
                con.execute(f'DELETE FROM "{table}" WHERE run_id = ?', [run_id])
            con.execute("DELETE FROM runs WHERE id = ?", [run_id])

        self._tx(work)

    # --- reading ---

    def get_run(self, run_id: str) -> dict[str, Any]:
        """One run as a dict (config and metrics decoded)."""
        rows = self._read(lambda con: fetch_rows(con, f"SELECT {RUN_COLUMNS} FROM runs WHERE id = ?", [run_id]))
        if not rows:
            raise StoreError(f"no run with id {run_id!r}")
        return rows[0]

    def list_runs(self, workbench: str | Sequence[str] | None = None, limit: int = 200) -> pd.DataFrame:
        """The newest runs first, with `n_messages` and `n_steps` counts and `first_user_messages` (the user
        messages among the first 12, for labels); optionally of one workbench (or of any of several)."""
        _check_limit(limit)
        names = [workbench] if isinstance(workbench, str) else None if workbench is None else list(workbench)
        sql = (
            f"SELECT {', '.join('r.' + c.strip() for c in RUN_COLUMNS.split(','))}, "
            "(SELECT count(*) FROM messages m WHERE m.run_id = r.id) AS n_messages, "
            "(SELECT count(*) FROM steps s WHERE s.run_id = r.id) AS n_steps, "
            "(SELECT list(m.content ORDER BY m.turn) FILTER (WHERE m.role = 'user') FROM messages m "
            "WHERE m.run_id = r.id AND m.turn <= 12) AS first_user_messages "
            "FROM runs r WHERE ?::VARCHAR[] IS NULL OR list_contains(?::VARCHAR[], r.workbench) "
            "ORDER BY r.created_at DESC, r.id LIMIT ?"
        )
        return self._read(lambda con: fetch_frame(con, sql, [names, names, limit]))

    def run_labels(self, workbench: str, limit: int = 100) -> pd.DataFrame:
        """What a "Resume a conversation" picker shows of a workbench's newest runs: `id`, `title`, `created_at`,
        `status` and `first_user_messages` (as in `list_runs`), without the counts: about a tenth of
        `list_runs`'s work (4 ms instead of 50 for 100 of 120 runs), which every chat page's rerun pays."""
        _check_limit(limit)
        sql = (
            "WITH r AS (SELECT id, title, created_at, status FROM runs WHERE workbench = ? "
            "ORDER BY created_at DESC, id LIMIT ?) "
            "SELECT r.*, (SELECT list(m.content ORDER BY m.turn) FROM messages m "
            "WHERE m.run_id = r.id AND m.turn <= 12 AND m.role = 'user') AS first_user_messages "
            "FROM r ORDER BY r.created_at DESC, r.id"
        )
        return self._read(lambda con: fetch_frame(con, sql, [workbench, limit]))

    def runs_with_artifact(self, workbench: str, name: str, limit: int = 100) -> pd.DataFrame:
        """`id`, `title`, `created_at` of a workbench's newest runs that saved the artifact `name`, in one query
        (the Policy Simulator's list of Copilot runs read every run's artifacts one query each: 606 store calls
        in a 20-student class)."""
        _check_limit(limit)
        sql = (
            "SELECT r.id, r.title, r.created_at FROM runs r WHERE r.workbench = ? AND EXISTS "
            "(SELECT 1 FROM artifacts a WHERE a.run_id = r.id AND a.name = ?) "
            "ORDER BY r.created_at DESC, r.id LIMIT ?"
        )
        return self._read(lambda con: fetch_frame(con, sql, [workbench, name, limit]))

    def workbenches(self) -> list[str]:
        """The workbench keys that have runs in this store, sorted."""
        rows = self._read(lambda con: con.execute("SELECT DISTINCT workbench FROM runs ORDER BY 1").fetchall())
        return [r[0] for r in rows]

    def messages(self, run_id: str) -> pd.DataFrame:
        """A run's messages in turn order."""
        sql = (
            "SELECT run_id, turn, role, content, tool_calls, created_at FROM messages "
            "WHERE run_id = ? ORDER BY turn"
        )
        return self._read(lambda con: fetch_frame(con, sql, [run_id]))

    def steps(self, run_id: str) -> pd.DataFrame:
        """A run's steps in order."""
        sql = (
            "SELECT run_id, step, kind, payload, input_tokens, output_tokens, latency_ms, created_at "
            "FROM steps WHERE run_id = ? ORDER BY step"
        )
        return self._read(lambda con: fetch_frame(con, sql, [run_id]))

    def artifacts(self, run_id: str) -> pd.DataFrame:
        """A run's artifacts without their bytes."""
        sql = f"SELECT {ARTIFACT_COLUMNS} FROM artifacts WHERE run_id = ? ORDER BY name"
        return self._read(lambda con: fetch_frame(con, sql, [run_id]))

    def get_artifact(self, run_id: str, name: str) -> bytes:
        """An artifact's bytes: the stored blob, or the referenced file's content."""
        sql = "SELECT blob, path FROM artifacts WHERE run_id = ? AND name = ?"
        row = self._read(lambda con: con.execute(sql, [run_id, name]).fetchone())
        if row is None:
            raise StoreError(f"run {run_id!r} has no artifact named {name!r}")
        blob, path = row
        if blob is not None:
            return bytes(blob)
        try:
            return Path(path).read_bytes()
        except OSError as err:
            raise StoreError(
                f"artifact {name!r} of run {run_id!r} points to {path}, which cannot be read"
            ) from err

    def export_run_json(self, run_id: str) -> dict[str, Any]:
        """Everything about one run as JSON-ready data: run, messages, steps, transitions and the artifact list."""

        def work(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
            runs = fetch_rows(con, f"SELECT {RUN_COLUMNS} FROM runs WHERE id = ?", [run_id])
            if not runs:
                raise StoreError(f"no run with id {run_id!r}")
            tables = {
                "messages": "SELECT turn, role, content, tool_calls, created_at FROM messages "
                "WHERE run_id = ? ORDER BY turn",
                "steps": "SELECT step, kind, payload, input_tokens, output_tokens, latency_ms, created_at "
                "FROM steps WHERE run_id = ? ORDER BY step",
                "artifacts": "SELECT name, path, size, created_at FROM artifacts WHERE run_id = ? ORDER BY name",
                "transitions": f"SELECT {TRANSITION_COLUMNS} FROM transitions WHERE run_id = ? ORDER BY t",
            }
            out: dict[str, Any] = {"run": iso_times(runs[0])}
            for key, sql in tables.items():
                out[key] = [iso_times(r) for r in fetch_rows(con, sql, [run_id])]
            return out

        return self._tx(work)

    def export_parquet(self, out_dir: Path, run_ids: list[str] | None = None) -> list[Path]:
        """Write the runs, messages, steps and artifact lists of `run_ids` (default: all) as Parquet into `out_dir`.

        Unknown run ids are refused before anything is written (no empty folder is left behind).
        """
        out_dir = Path(out_dir)
        queries = {
            "runs": f"SELECT {RUN_COLUMNS} FROM runs WHERE {{}} ORDER BY created_at, id",
            "messages": "SELECT * FROM messages WHERE {} ORDER BY run_id, turn",
            "steps": "SELECT * FROM steps WHERE {} ORDER BY run_id, step",
            "artifacts": f"SELECT {ARTIFACT_COLUMNS} FROM artifacts WHERE {{}} ORDER BY run_id, name",
            "transitions": "SELECT * FROM transitions WHERE {} ORDER BY run_id, t",
        }

        def work(con: duckdb.DuckDBPyConnection) -> list[Path]:
            if run_ids is not None:
                found = {
                    r[0]
                    for r in con.execute(
                        "SELECT id FROM runs WHERE list_contains(?::VARCHAR[], id)", [run_ids]
                    ).fetchall()
                }
                missing = [r for r in run_ids if r not in found]
                if missing:
                    raise StoreError(f"no run with id {missing[0]!r}")
            files = []
            target = out_dir
            try:
                out_dir.mkdir(parents=True, exist_ok=True)
                for table, sql in queries.items():
                    key = "id" if table == "runs" else "run_id"
                    where = "true" if run_ids is None else f"list_contains(?::VARCHAR[], {key})"
                    params = [] if run_ids is None else [run_ids]
                    target = out_dir / f"{table}.parquet"
                    con.sql(sql.format(where), params=params).to_parquet(str(target))
                    files.append(target)
            except (OSError, duckdb.IOException) as err:
                reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
                raise StoreError(f"Could not write the export to {target}: {reason}") from err
            return files

        return self._tx(work)


def _check_limit(limit: object) -> None:
    """A list's row limit: a whole number from 1 to `MAX_LIST_LIMIT` (a bool is no number here)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_LIMIT:
        raise SpecError("limit", f"must be a whole number from 1 to {MAX_LIST_LIMIT:,}, got {limit!r}")
