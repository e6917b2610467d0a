"""RetailBench records in the run store: one DuckDB table per record type, keyed by run id (migrations 4, 5).

`eval_quality` and `eval_reference_price` are evaluation ground truth (hidden supplier quality, the reference
price): written with a run for the stage-3 diagnostics, never read by an agent.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from core.errors import SpecError, StoreError
from core.store.codec import fetch_frame
from core.store.rollouts import insert_record_tables
from core.store.runs import Store

TABLES = ("sales", "lifecycle", "returns", "reviews", "supplier_orders", "supplier_prices", "news", "daily",
          "eval_quality", "eval_reference_price")  # fmt: skip
ORDER = {"lifecycle": "lot", "daily": "day"}


def retail_tables(frames: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """`frames` (record name -> DataFrame) as store table names, for `RunRecord.tables`."""
    unknown = [name for name in frames if name not in TABLES]
    if unknown:
        raise SpecError("table", f"unknown RetailBench record tables {unknown}")
    return {f"retail_{name}": frame for name, frame in frames.items()}


def save_retail_records(store: Store, run_id: str, frames: dict[str, pd.DataFrame]) -> dict[str, int]:
    """Replace the run's records with `frames` (record name -> DataFrame) in one transaction; row counts."""
    tables = retail_tables(frames)

    def work(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
        if not con.execute("SELECT count(*) FROM runs WHERE id = ?", [run_id]).fetchone()[0]:
            raise StoreError(f"No run with id {run_id!r} in the store.")
        for table in tables:
            con.execute(f"DELETE FROM {table} WHERE run_id = ?", [run_id])
        counts = insert_record_tables(con, run_id, tables)
        return {name.removeprefix("retail_"): n for name, n in counts.items()}

    return store._tx(work)


def retail_records(store: Store, run_id: str, table: str, *, sku: str | None = None) -> pd.DataFrame:
    """One record table of a run (one product's rows with `sku`), in date (or lot/day) order."""
    if table not in TABLES:
        raise SpecError("table", f"choose one of {', '.join(TABLES)}")
    if sku is not None and table == "daily":
        raise SpecError("sku", "the daily series is not per product")
    order = ORDER.get(table, "date")
    where = "run_id = ?" + (" AND sku_id = ?" if sku is not None else "")
    params = [run_id] + ([sku] if sku is not None else [])
    sql = f"SELECT * EXCLUDE (run_id) FROM retail_{table} WHERE {where} ORDER BY {order}"
    return store._tx(lambda con: fetch_frame(con, sql, params))


def retail_skus(store: Store, run_id: str) -> list[str]:
    """The products a run sold or ordered, sorted."""
    sql = ("SELECT sku_id FROM retail_sales WHERE run_id = ? UNION "
           "SELECT sku_id FROM retail_supplier_orders WHERE run_id = ? ORDER BY 1")  # fmt: skip
    return [r[0] for r in store._tx(lambda con: con.execute(sql, [run_id, run_id]).fetchall())]


def day_transitions(
    store: Store,
    run_id: str,
    start: int,
    stop: int | None,
    *,
    observed: tuple[str, ...] = ("end_today", "view_today_news"),
) -> pd.DataFrame:
    """A run's transitions `start <= t < stop` for the replay's day view: the observation is kept for the
    `observed` tools and for failed calls and is NULL otherwise (view results can be megabytes a day)."""
    sql = (
        "SELECT t, action, reward, CASE WHEN list_contains(?::VARCHAR[], action->>'name') "
        "OR coalesce(TRY_CAST(info->>'error' AS BOOLEAN), false) THEN observation END AS observation, obs_hash, "
        "info, terminated, truncated, input_tokens, output_tokens, latency_ms, note FROM transitions "
        "WHERE run_id = ? AND t >= ? AND (?::INTEGER IS NULL OR t < ?) ORDER BY t"
    )
    return store._tx(lambda con: fetch_frame(con, sql, [list(observed), run_id, start, stop, stop]))
