"""The run store: runs, their messages, steps and artifacts in one DuckDB file.

Every method opens a short-lived connection (see `core.store.connection`), so the Streamlit app and a CLI
process can share the file. JSON columns (`config`, `metrics`, `tool_calls`, `payload`) come back decoded.
Times are naive UTC. Turn and step numbers start at 1 and are assigned inside the inserting statement.
Secrets never reach the file: configs, metrics, step payloads and tool calls pass through `scrub_secrets`, and
JSON is strict (NaN and infinities are stored as null).
"""

from __future__ import annotations

import json
import math
import os
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import numpy as np
import pandas as pd

from core.config import default_store_path, redact_url
from core.errors import SpecError, StoreError
from core.store import connection
from core.store.migrations import migrate

T = TypeVar("T")

_JSON_COLUMNS = ("config", "metrics", "tool_calls", "payload")
_SECRET_KEY = re.compile(
    r"^(authorization|api[_-]?key|password|secret)$|[_-](key|secret|password|token)$", re.I
)
_RUN_COLUMNS = "id, workbench, title, created_at, updated_at, status, seed, config, metrics"
_ARTIFACT_COLUMNS = "run_id, name, path, size, created_at"


def scrub_secrets(value: Any) -> Any:
    """`value` without dict entries whose key names a secret (`api_key`, `*_key`, `authorization`, …) and with
    the `user:password@` part of URLs in strings replaced by `***@`."""
    if isinstance(value, dict):
        return {_text(str(k)): scrub_secrets(v) for k, v in value.items() if not _SECRET_KEY.search(str(k))}
    if isinstance(value, list | tuple):
        return [scrub_secrets(v) for v in value]
    if isinstance(value, str):
        return redact_url(_text(value))
    return value


def json_safe(value: Any) -> Any:
    """`value` ready for strict JSON: NaN and infinities become None, numpy scalars Python ones, tuples lists."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def _text(value: str) -> str:
    """`value` as valid Unicode: unpaired surrogates (which DuckDB cannot store) become U+FFFD."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _dumps(value: Any) -> str | None:
    """Strict JSON of `value` with secrets scrubbed (None stays SQL NULL)."""
    return (
        None if value is None else json.dumps(json_safe(scrub_secrets(value)), default=str, allow_nan=False)
    )


def _loads(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else None


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [
        {n: (_loads(v) if n in _JSON_COLUMNS else v) for n, v in zip(names, row, strict=True)}
        for row in cur.fetchall()
    ]


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> pd.DataFrame:
    df = con.execute(sql, params).df()
    for col in _JSON_COLUMNS:
        if col in df.columns:
            df[col] = pd.Series([_loads(v) for v in df[col]], index=df.index, dtype=object)
    return df


def _iso(record: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in record.items()}


class Store:
    """The run store at `path` (default: `default_store_path()`), migrated to the current schema on open."""

    def __init__(
        self, path: str | Path | None = None, timeout_s: float = connection.DEFAULT_TIMEOUT_S
    ) -> None:
        self.path = Path(path).expanduser().resolve() if path is not None else default_store_path().resolve()
        self.timeout_s = timeout_s
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(
                f"Could not create the folder of the run store {self.path}: {err.strerror}"
            ) from err
        connection.check_file(self.path)
        try:
            with connection.connection(self.path, timeout_s) as con:
                self.schema_version = migrate(con)
        except duckdb.Error as err:
            raise connection.damaged(self.path, err) or StoreError(
                f"Could not open the run store {self.path}: {err}"
            ) from err

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    def _tx(self, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        return connection.run_in_transaction(self.path, work, self.timeout_s)

    @contextmanager
    def batch(self) -> Iterator[Store]:
        """Run every call made in the block on one connection and in one transaction (faster for bursts)."""
        with connection.batch(self.path, self.timeout_s):
            yield self

    @staticmethod
    def _require_run(con: duckdb.DuckDBPyConnection, run_id: str) -> None:
        if con.execute("SELECT 1 FROM runs WHERE id = ?", [run_id]).fetchone() is None:
            raise StoreError(f"no run with id {run_id!r}")

    # --- writing ---

    def create_run(
        self, workbench: str, config: dict, seed: int | None = None, title: str = "", status: str = "running"
    ) -> str:
        """Record a new run and return its id (12 hex digits). Secrets in `config` are dropped (`_dumps`)."""
        run_id = uuid.uuid4().hex[:12]
        now = _now()
        params = [run_id, _text(workbench), _text(title), now, now, status, seed, _dumps(config)]
        self._tx(
            lambda con: con.execute(
                f"INSERT INTO runs ({_RUN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)", params
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
        fields: dict[str, Any] = {"updated_at": _now()}
        if status is not None:
            fields["status"] = status
        if metrics is not None:
            fields["metrics"] = _dumps(metrics)
        if config is not None:
            fields["config"] = _dumps(config)
        if title is not None:
            fields["title"] = _text(title)
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
        params = [role, _text(content), _dumps(tool_calls), _now(), run_id]
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
        params = [kind, _dumps(payload), input_tokens, output_tokens, latency_ms, _now(), run_id]
        return self._insert_numbered(sql, params, run_id)

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
                [run_id, name, path, data, size, _now()],
            )

        self._tx(work)

    def delete_run(self, run_id: str) -> None:
        """Delete a run with its messages, steps and artifacts."""

        def work(con: duckdb.DuckDBPyConnection) -> None:
            self._require_run(con, run_id)
            for table in ("messages", "steps", "artifacts"):
                con.execute(f"DELETE FROM {table} WHERE run_id = ?", [run_id])
            con.execute("DELETE FROM runs WHERE id = ?", [run_id])

        self._tx(work)

    # --- reading ---

    def get_run(self, run_id: str) -> dict[str, Any]:
        """One run as a dict (config and metrics decoded)."""
        rows = self._tx(lambda con: _rows(con, f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", [run_id]))
        if not rows:
            raise StoreError(f"no run with id {run_id!r}")
        return rows[0]

    def list_runs(self, workbench: str | None = None, limit: int = 200) -> pd.DataFrame:
        """The newest runs first, with `n_messages` and `n_steps` counts; optionally of one workbench."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise SpecError("limit", f"must be a whole number of at least 1, got {limit!r}")
        sql = (
            f"SELECT {', '.join('r.' + c.strip() for c in _RUN_COLUMNS.split(','))}, "
            "(SELECT count(*) FROM messages m WHERE m.run_id = r.id) AS n_messages, "
            "(SELECT count(*) FROM steps s WHERE s.run_id = r.id) AS n_steps "
            "FROM runs r WHERE ?::VARCHAR IS NULL OR r.workbench = ? "
            "ORDER BY r.created_at DESC, r.id LIMIT ?"
        )
        return self._tx(lambda con: _frame(con, sql, [workbench, workbench, limit]))

    def messages(self, run_id: str) -> pd.DataFrame:
        """A run's messages in turn order."""
        sql = (
            "SELECT run_id, turn, role, content, tool_calls, created_at FROM messages "
            "WHERE run_id = ? ORDER BY turn"
        )
        return self._tx(lambda con: _frame(con, sql, [run_id]))

    def steps(self, run_id: str) -> pd.DataFrame:
        """A run's steps in order."""
        sql = (
            "SELECT run_id, step, kind, payload, input_tokens, output_tokens, latency_ms, created_at "
            "FROM steps WHERE run_id = ? ORDER BY step"
        )
        return self._tx(lambda con: _frame(con, sql, [run_id]))

    def artifacts(self, run_id: str) -> pd.DataFrame:
        """A run's artifacts without their bytes."""
        sql = f"SELECT {_ARTIFACT_COLUMNS} FROM artifacts WHERE run_id = ? ORDER BY name"
        return self._tx(lambda con: _frame(con, sql, [run_id]))

    def get_artifact(self, run_id: str, name: str) -> bytes:
        """An artifact's bytes: the stored blob, or the referenced file's content."""
        sql = "SELECT blob, path FROM artifacts WHERE run_id = ? AND name = ?"
        row = self._tx(lambda con: con.execute(sql, [run_id, name]).fetchone())
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
        """Everything about one run as JSON-ready data: run, messages, steps and the artifact list."""

        def work(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
            runs = _rows(con, f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", [run_id])
            if not runs:
                raise StoreError(f"no run with id {run_id!r}")
            tables = {
                "messages": "SELECT turn, role, content, tool_calls, created_at FROM messages "
                "WHERE run_id = ? ORDER BY turn",
                "steps": "SELECT step, kind, payload, input_tokens, output_tokens, latency_ms, created_at "
                "FROM steps WHERE run_id = ? ORDER BY step",
                "artifacts": "SELECT name, path, size, created_at FROM artifacts WHERE run_id = ? ORDER BY name",
            }
            out: dict[str, Any] = {"run": _iso(runs[0])}
            for key, sql in tables.items():
                out[key] = [_iso(r) for r in _rows(con, sql, [run_id])]
            return out

        return self._tx(work)

    def export_parquet(self, out_dir: Path, run_ids: list[str] | None = None) -> list[Path]:
        """Write the runs, messages, steps and artifact lists of `run_ids` (default: all) as Parquet into `out_dir`.

        Unknown run ids are refused before anything is written (no empty folder is left behind).
        """
        out_dir = Path(out_dir)
        queries = {
            "runs": f"SELECT {_RUN_COLUMNS} FROM runs WHERE {{}} ORDER BY created_at, id",
            "messages": "SELECT * FROM messages WHERE {} ORDER BY run_id, turn",
            "steps": "SELECT * FROM steps WHERE {} ORDER BY run_id, step",
            "artifacts": f"SELECT {_ARTIFACT_COLUMNS} FROM artifacts WHERE {{}} ORDER BY run_id, name",
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
