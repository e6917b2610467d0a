"""Experiments and their cells in the store (tables from migration 3).

An experiment row holds its spec; a cell row one instance × agent × seed × repetition with its status, the id
of the run it produced, its metrics or error, the attempts made and the time it took. The driver writes a
cell's run and then the cell row in one transaction (`finish_cell`), so a cell is never "done" without its run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

import duckdb
import pandas as pd

from core.errors import StoreError
from core.store.codec import dumps, fetch_frame, fetch_rows, now_utc
from core.store.rollouts import RunRecord

T = TypeVar("T")

STALE_AFTER_S = 60.0
"""A running experiment whose driver has not written for this long is reported "stalled" (its driver was killed).
The driver touches its experiment at least every `core.experiments.driver.HEARTBEAT_S` seconds."""

CELL_COLUMNS = "cell_key, instance, agent, seed, repetition, status, run_id, metrics, error, attempts, elapsed_s, updated_at"


class ExperimentTables:
    """Store methods for experiments and cells (mixed into `Store`)."""

    _tx: Callable[[Callable[[duckdb.DuckDBPyConnection], T]], T]
    write_record: Callable[[RunRecord], str]

    def create_experiment(
        self,
        experiment_id: str,
        *,
        name: str,
        workbench: str,
        spec: dict[str, Any],
        spec_hash: str,
        status: str,
    ) -> bool:
        """Record an experiment unless it exists (same id = same spec); True if it was created."""
        now = now_utc()

        def work(con: duckdb.DuckDBPyConnection) -> bool:
            if con.execute("SELECT 1 FROM experiments WHERE id = ?", [experiment_id]).fetchone():
                return False
            con.execute(
                "INSERT INTO experiments (id, name, workbench, spec, spec_hash, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [experiment_id, name, workbench, dumps(spec), spec_hash, status, now, now],
            )
            return True

        return self._tx(work)

    def set_experiment_status(self, experiment_id: str, status: str) -> None:
        def work(con: duckdb.DuckDBPyConnection) -> None:
            sql = "UPDATE experiments SET status = ?, updated_at = ? WHERE id = ? RETURNING id"
            if not con.execute(sql, [status, now_utc(), experiment_id]).fetchall():
                raise StoreError(f"no experiment with id {experiment_id!r}")

        self._tx(work)

    def touch_experiment(self, experiment_id: str) -> None:
        """The driver's heartbeat: mark the experiment as written to now."""
        self._tx(
            lambda con: con.execute(
                "UPDATE experiments SET updated_at = ? WHERE id = ?", [now_utc(), experiment_id]
            )
        )

    def get_experiment(self, experiment_id: str, *, stale_after_s: float | None = None) -> dict[str, Any]:
        """One experiment with its spec and cell counts by status; a `StoreError` for an unknown id.

        A "running" experiment whose driver stopped touching it `stale_after_s` (default `STALE_AFTER_S`) ago reads
        as "stalled"."""
        rows = self._tx(
            lambda con: fetch_rows(
                con,
                f"SELECT e.id, e.name, e.workbench, e.spec, e.spec_hash, {_STATUS}, e.created_at, e.updated_at, "
                "count(c.cell_key) AS cells, count(c.cell_key) FILTER (WHERE c.status = 'done') AS done, "
                "count(c.cell_key) FILTER (WHERE c.status = 'failed') AS failed, "
                "coalesce(sum(c.elapsed_s), 0) AS compute_s "
                "FROM experiments e LEFT JOIN cells c ON c.experiment_id = e.id WHERE e.id = ? GROUP BY ALL",
                [_stale_before(stale_after_s), experiment_id],
            )
        )
        if not rows:
            raise StoreError(f"no experiment with id {experiment_id!r}; `experiment list` shows them")
        return rows[0]

    def list_experiments(self, limit: int = 200, *, stale_after_s: float | None = None) -> pd.DataFrame:
        """Experiments, newest first, with their cell counts by status ("stalled" as in `get_experiment`)."""
        return self._tx(
            lambda con: fetch_frame(
                con,
                f"SELECT e.id, e.name, e.workbench, {_STATUS}, e.created_at, e.updated_at, "
                "count(c.cell_key) AS cells, count(c.cell_key) FILTER (WHERE c.status = 'done') AS done, "
                "count(c.cell_key) FILTER (WHERE c.status = 'failed') AS failed "
                "FROM experiments e LEFT JOIN cells c ON c.experiment_id = e.id "
                "GROUP BY ALL ORDER BY e.created_at DESC LIMIT ?",
                [_stale_before(stale_after_s), limit],
            )
        )

    def ensure_cells(self, experiment_id: str, cells: Sequence[tuple[str, str, str, int, int]]) -> int:
        """Add the cells `(key, instance, agent, seed, repetition)` not yet stored, as pending; how many."""
        now = now_utc()

        def work(con: duckdb.DuckDBPyConnection) -> int:
            have = {r[0] for r in con.execute("SELECT cell_key FROM cells WHERE experiment_id = ?", [experiment_id])
                    .fetchall()}  # fmt: skip
            new = [c for c in cells if c[0] not in have]
            if new:
                con.executemany(
                    "INSERT INTO cells (experiment_id, cell_key, instance, agent, seed, repetition, status, "
                    "attempts, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?)",
                    [[experiment_id, *c, now] for c in new],
                )
            return len(new)

        return self._tx(work)

    def cells(self, experiment_id: str, status: str | None = None) -> pd.DataFrame:
        """An experiment's cells (optionally of one status) in key order; `metrics` decoded."""
        sql = (
            f"SELECT {CELL_COLUMNS} FROM cells WHERE experiment_id = ? AND (?::VARCHAR IS NULL OR status = ?) "
            "ORDER BY cell_key"
        )
        return self._tx(lambda con: fetch_frame(con, sql, [experiment_id, status, status]))

    def finish_cell(
        self,
        experiment_id: str,
        cell_key: str,
        *,
        status: str,
        record: RunRecord | None = None,
        metrics: dict[str, Any] | None = None,
        error: str | None = None,
        elapsed_s: float | None = None,
    ) -> str | None:
        """Write the cell's run (if any) and then its row, in one transaction; the run id.

        A cell already done is left alone (a duplicate result never overwrites or duplicates it)."""

        def work(con: duckdb.DuckDBPyConnection) -> str | None:
            row = con.execute(
                "SELECT status, run_id FROM cells WHERE experiment_id = ? AND cell_key = ?",
                [experiment_id, cell_key],
            ).fetchone()
            if row is None:
                raise StoreError(f"no cell {cell_key!r} in experiment {experiment_id!r}")
            if row[0] == "done":
                return row[1]
            run_id = self.write_record(record) if record is not None else None
            con.execute(
                "UPDATE cells SET status = ?, run_id = ?, metrics = ?, error = ?, attempts = attempts + 1, "
                "elapsed_s = ?, updated_at = ? WHERE experiment_id = ? AND cell_key = ?",
                [status, run_id, dumps(metrics), error, elapsed_s, now_utc(), experiment_id, cell_key],
            )
            return run_id

        return self._tx(work)

    def delete_experiment(self, experiment_id: str) -> None:
        """Forget an experiment and its cells (their runs stay in Run history)."""

        def work(con: duckdb.DuckDBPyConnection) -> None:
            con.execute("DELETE FROM cells WHERE experiment_id = ?", [experiment_id])
            if not con.execute(
                "DELETE FROM experiments WHERE id = ? RETURNING id", [experiment_id]
            ).fetchall():
                raise StoreError(f"no experiment with id {experiment_id!r}")

        self._tx(work)


_STATUS = "CASE WHEN e.status = 'running' AND e.updated_at < ? THEN 'stalled' ELSE e.status END AS status"


def _stale_before(stale_after_s: float | None) -> datetime:
    return now_utc() - timedelta(seconds=STALE_AFTER_S if stale_after_s is None else stale_after_s)
