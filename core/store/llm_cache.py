"""The model-reply cache table of the run store (`llm_cache`), read and written by `core.llm.cache`.

The table is created on first use (`CREATE TABLE IF NOT EXISTS`) rather than by a numbered migration: it holds
no run data, a store without it is simply an empty cache, and older ORCA versions ignore it. Each operation is
one short transaction on the shared connection layer, so worker processes of an experiment can share it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

from core.store import connection
from core.store.codec import now_utc

TABLE_SQL = """
CREATE TABLE IF NOT EXISTS llm_cache (
    key VARCHAR PRIMARY KEY,
    provider VARCHAR NOT NULL,
    model VARCHAR NOT NULL,
    request JSON NOT NULL,
    reply JSON NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL
)
"""


class StoredReplies:
    """The `llm_cache` table of the store at `path`: `get(key)` and `put(...)` of JSON replies."""

    def __init__(self, path: str | Path, timeout_s: float = connection.DEFAULT_TIMEOUT_S) -> None:
        self.path = Path(path).expanduser().resolve()
        self.timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"StoredReplies({str(self.path)!r})"

    def _tx(self, work: Any) -> Any:
        def with_table(con: duckdb.DuckDBPyConnection) -> Any:
            con.execute(TABLE_SQL)
            return work(con)

        return connection.run_in_transaction(self.path, with_table, self.timeout_s)

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored reply (a JSON object) for `key`, or None."""
        row = self._tx(lambda con: con.execute("SELECT reply FROM llm_cache WHERE key = ?", [key]).fetchone())
        return json.loads(row[0]) if row else None

    def put(self, key: str, provider: str, model: str, request: dict[str, Any], reply: dict[str, Any]) -> None:
        """Store `reply` for `key` (the first stored reply wins: a key always answers the same)."""
        usage = reply.get("usage") or {}
        values = [
            key,
            provider,
            model,
            json.dumps(request, sort_keys=True),
            json.dumps(reply, sort_keys=True),
            int(usage.get("input_tokens", 0)),
            int(usage.get("output_tokens", 0)),
            now_utc(),
        ]
        self._tx(lambda con: con.execute("INSERT OR IGNORE INTO llm_cache VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values))

    def count(self) -> int:
        """How many replies are stored."""
        return int(self._tx(lambda con: con.execute("SELECT count(*) FROM llm_cache").fetchone()[0]))
