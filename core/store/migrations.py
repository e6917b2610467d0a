"""Numbered schema migrations of the run store.

`MIGRATIONS[i]` moves a file from schema version `i` to `i + 1`; `schema_version` records each one
applied. Append new migrations at the end and never edit a released one.
"""

from __future__ import annotations

from datetime import UTC, datetime

import duckdb

from core.errors import StoreError

MIGRATIONS: list[str] = [
    # 1: runs, their chat messages, their recorded steps, their artifacts.
    """
    CREATE TABLE runs (
        id VARCHAR PRIMARY KEY,
        workbench VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL,
        status VARCHAR NOT NULL,
        seed INTEGER,
        config JSON,
        metrics JSON
    );
    CREATE TABLE messages (
        run_id VARCHAR NOT NULL,
        turn INTEGER NOT NULL,
        role VARCHAR NOT NULL,
        content VARCHAR NOT NULL,
        tool_calls JSON,
        created_at TIMESTAMP NOT NULL,
        PRIMARY KEY (run_id, turn)
    );
    CREATE TABLE steps (
        run_id VARCHAR NOT NULL,
        step INTEGER NOT NULL,
        kind VARCHAR NOT NULL,
        payload JSON,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        latency_ms DOUBLE,
        created_at TIMESTAMP NOT NULL,
        PRIMARY KEY (run_id, step)
    );
    CREATE TABLE artifacts (
        run_id VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        path VARCHAR,
        blob BLOB,
        size BIGINT,
        created_at TIMESTAMP NOT NULL,
        PRIMARY KEY (run_id, name)
    );
    """,
    # 2: a human title and a last-change time for each run.
    """
    ALTER TABLE runs ADD COLUMN title VARCHAR DEFAULT '';
    ALTER TABLE runs ADD COLUMN updated_at TIMESTAMP;
    UPDATE runs SET updated_at = created_at, title = coalesce(title, '');
    """,
    # 3: per-step transitions of rollouts; experiments and their cells; a lease on runs in use; one status
    # vocabulary (the Copilot's old 'interpreting' is 'active').
    """
    CREATE TABLE transitions (
        run_id VARCHAR NOT NULL,
        t INTEGER NOT NULL,
        action JSON,
        reward DOUBLE,
        observation JSON,
        obs_hash VARCHAR,
        info JSON,
        terminated BOOLEAN NOT NULL DEFAULT false,
        truncated BOOLEAN NOT NULL DEFAULT false,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        latency_ms DOUBLE,
        note VARCHAR,
        PRIMARY KEY (run_id, t)
    );
    CREATE TABLE experiments (
        id VARCHAR PRIMARY KEY,
        name VARCHAR NOT NULL,
        workbench VARCHAR NOT NULL,
        spec JSON NOT NULL,
        spec_hash VARCHAR NOT NULL,
        status VARCHAR NOT NULL,
        created_at TIMESTAMP NOT NULL,
        updated_at TIMESTAMP NOT NULL
    );
    CREATE TABLE cells (
        experiment_id VARCHAR NOT NULL,
        cell_key VARCHAR NOT NULL,
        instance VARCHAR NOT NULL,
        agent VARCHAR NOT NULL,
        seed BIGINT,
        repetition INTEGER NOT NULL DEFAULT 0,
        status VARCHAR NOT NULL,
        run_id VARCHAR,
        metrics JSON,
        error VARCHAR,
        attempts INTEGER NOT NULL DEFAULT 0,
        elapsed_s DOUBLE,
        updated_at TIMESTAMP NOT NULL,
        PRIMARY KEY (experiment_id, cell_key)
    );
    ALTER TABLE runs ADD COLUMN lease_owner VARCHAR;
    ALTER TABLE runs ADD COLUMN lease_until TIMESTAMP;
    UPDATE runs SET status = 'active' WHERE status = 'interpreting';
    """,
    # 4: RetailBench per-run records (sales, lot lifecycle, returns, reviews, supplier orders and prices, news,
    # daily series), written by core.store.retail.
    """
    CREATE TABLE retail_sales (run_id VARCHAR NOT NULL, date DATE NOT NULL, sku_id VARCHAR NOT NULL,
        move INTEGER NOT NULL, price DOUBLE, customer_count INTEGER);
    CREATE TABLE retail_lifecycle (run_id VARCHAR NOT NULL, lot INTEGER NOT NULL, order_id VARCHAR,
        sku_id VARCHAR NOT NULL, supplier_id VARCHAR, quality_score DOUBLE, buy_price DOUBLE, arrival_date DATE,
        expiry_date DATE, quantity INTEGER, sold INTEGER, expired INTEGER, in_stock INTEGER, status VARCHAR);
    CREATE TABLE retail_returns (run_id VARCHAR NOT NULL, date DATE NOT NULL, sku_id VARCHAR NOT NULL,
        supplier_id VARCHAR, returns INTEGER, sold INTEGER);
    CREATE TABLE retail_reviews (run_id VARCHAR NOT NULL, date DATE NOT NULL, sku_id VARCHAR NOT NULL,
        category VARCHAR, supplier_id VARCHAR, rating INTEGER, dimension VARCHAR, comment VARCHAR, lot INTEGER);
    CREATE TABLE retail_supplier_orders (run_id VARCHAR NOT NULL, order_id VARCHAR, date DATE NOT NULL,
        supplier_id VARCHAR, sku_id VARCHAR, quantity INTEGER, unit_price DOUBLE, arrival_date DATE,
        quality_score DOUBLE);
    CREATE TABLE retail_supplier_prices (run_id VARCHAR NOT NULL, date DATE NOT NULL, sku_id VARCHAR NOT NULL,
        supplier_id VARCHAR NOT NULL, price DOUBLE);
    CREATE TABLE retail_news (run_id VARCHAR NOT NULL, date DATE NOT NULL, record_id VARCHAR, news_id VARCHAR,
        title VARCHAR, content VARCHAR);
    CREATE TABLE retail_daily (run_id VARCHAR NOT NULL, day INTEGER NOT NULL, date DATE NOT NULL, funds DOUBLE,
        net_worth DOUBLE, sales_units INTEGER, revenue DOUBLE, refunds DOUBLE, money_earned DOUBLE, cogs DOUBLE,
        inventory_value DOUBLE, on_hand_units INTEGER, waiting_units INTEGER, stockout_skus INTEGER,
        expired_units INTEGER, returned_units INTEGER, sold_skus INTEGER, customers INTEGER);
    """,
    # 5: RetailBench evaluation ground truth of a run (never shown to a non-privileged agent): each day's hidden
    # supplier quality per quote, and the reference price per product (the privileged oracle's price rule).
    """
    CREATE TABLE retail_eval_quality (run_id VARCHAR NOT NULL, date DATE NOT NULL, sku_id VARCHAR NOT NULL,
        supplier_id VARCHAR NOT NULL, quality DOUBLE);
    CREATE TABLE retail_eval_reference_price (run_id VARCHAR NOT NULL, date DATE NOT NULL, sku_id VARCHAR NOT NULL,
        supplier_id VARCHAR, unit_cost DOUBLE, reference_price DOUBLE);
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(con: duckdb.DuckDBPyConnection) -> int:
    """The schema version of the open file (0 for an empty file)."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP)"
    )
    row = con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(con: duckdb.DuckDBPyConnection, target: int = SCHEMA_VERSION) -> int:
    """Apply the pending migrations up to `target`, each in its own transaction; return the final version."""
    version = current_version(con)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"The run store has schema version {version}, newer than this ORCA understands "
            f"({SCHEMA_VERSION}). Update ORCA or point ORCA_DB at another file."
        )
    for number in range(version + 1, target + 1):
        con.begin()
        try:
            con.execute(MIGRATIONS[number - 1])
            con.execute(
                "INSERT INTO schema_version VALUES (?, ?)", [number, datetime.now(UTC).replace(tzinfo=None)]
            )
            con.commit()
        except BaseException:
            con.rollback()
            raise
    return max(version, target)
