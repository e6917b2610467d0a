"""ORCA's run store (DuckDB): the only place that writes SQL. See `docs/store.md` for the design."""

from core.store.codec import json_safe, scrub_secrets
from core.store.rollouts import RunRecord, TransitionRow
from core.store.runs import Store, default_store_path

__all__ = ["RunRecord", "Store", "TransitionRow", "default_store_path", "json_safe", "scrub_secrets"]
