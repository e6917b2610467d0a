"""ORCA's run store (DuckDB): the only place that writes SQL. See `docs/store.md` for the design."""

from core.store.runs import Store, default_store_path, json_safe, scrub_secrets

__all__ = ["Store", "default_store_path", "json_safe", "scrub_secrets"]
