"""RetailBench records in the run store: one DuckDB table per record type, keyed by run id (migration 4)."""

from __future__ import annotations

import duckdb
import pandas as pd

from core.errors import SpecError, StoreError
from core.store.codec import fetch_frame
from core.store.runs import Store

TABLES = ("sales", "lifecycle", "returns", "reviews", "supplier_orders", "supplier_prices", "news", "daily")


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
        [f"retail_{table}"],
    ).fetchall()
    return [r[0] for r in rows if r[0] != "run_id"]


def save_retail_records(store: Store, run_id: str, frames: dict[str, pd.DataFrame]) -> dict[str, int]:
    """Replace the run's records with `frames` (table name -> DataFrame) in one transaction; row counts."""
    unknown = [name for name in frames if name not in TABLES]
    if unknown:
        raise SpecError("table", f"unknown RetailBench record tables {unknown}")

    def work(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
        if not con.execute("SELECT count(*) FROM runs WHERE id = ?", [run_id]).fetchone()[0]:
            raise StoreError(f"No run with id {run_id!r} in the store.")
        counts = {}
        for name, frame in frames.items():
            cols = _columns(con, name)
            missing = [c for c in cols if c not in frame.columns]
            if missing:
                raise SpecError(name, f"missing columns {missing}")
            con.execute(f"DELETE FROM retail_{name} WHERE run_id = ?", [run_id])
            if len(frame):
                con.register("frame_in", frame[cols])
                con.execute(
                    f"INSERT INTO retail_{name} (run_id, {', '.join(cols)}) "
                    f"SELECT ?, {', '.join(cols)} FROM frame_in",
                    [run_id],
                )
                con.unregister("frame_in")
            counts[name] = len(frame)
        return counts

    return store._tx(work)


def retail_records(store: Store, run_id: str, table: str) -> pd.DataFrame:
    """One record table of a run, in date (or lot/day) order."""
    if table not in TABLES:
        raise SpecError("table", f"choose one of {', '.join(TABLES)}")
    order = {"lifecycle": "lot", "daily": "day"}.get(table, "date")
    sql = f"SELECT * EXCLUDE (run_id) FROM retail_{table} WHERE run_id = ? ORDER BY {order}"
    return store._tx(lambda con: fetch_frame(con, sql, [run_id]))
