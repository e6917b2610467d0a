"""Row <-> Python codecs shared by the store's tables: strict JSON with secrets scrubbed, frames, times."""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from typing import Any, TypeVar

import duckdb
import numpy as np
import pandas as pd

from core.config import redact_url

T = TypeVar("T")

JSON_COLUMNS = ("config", "metrics", "tool_calls", "payload", "action", "observation", "info", "spec")
_SECRET_KEY = re.compile(
    r"^(authorization|api[_-]?key|password|secret)$|[_-](key|secret|password|token)$", re.I
)
RUN_COLUMNS = "id, workbench, title, created_at, updated_at, status, seed, config, metrics"
ARTIFACT_COLUMNS = "run_id, name, path, size, created_at"


def text(value: str) -> str:
    """`value` as valid Unicode: unpaired surrogates (which DuckDB cannot store) become U+FFFD."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def scrub_secrets(value: Any) -> Any:
    """`value` without dict entries whose key names a secret (`api_key`, `*_key`, `authorization`, …) and with
    the `user:password@` part of URLs in strings replaced by `***@`; strings made valid Unicode (`text`)."""
    if isinstance(value, dict):
        return {text(str(k)): scrub_secrets(v) for k, v in value.items() if not _SECRET_KEY.search(str(k))}
    if isinstance(value, list | tuple):
        return [scrub_secrets(v) for v in value]
    if isinstance(value, str):
        return redact_url(text(value))
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


def now_utc() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


# A superset of what `scrub_secrets` removes or rewrites, searched in the JSON text: a key that may name a secret,
# or a URL with a user part. Text without either needs no scrubbing.
_SECRET_HINT = re.compile(r'(?i)(authorization|api[_-]?key|password|secret|[_-]key|[_-]token)(\\n)?"\s*:')
_URL_HINT = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^/@\s]+@")


def _needs_scrub(raw: str) -> bool:
    """Whether JSON text may hold something `scrub_secrets` changes (substring checks before the regexes)."""
    low = raw.lower()
    hints = ("authorization", "password", "secret", 'key"', 'token"', "key\\n", "token\\n")
    if any(h in low for h in hints) and _SECRET_HINT.search(raw):
        return True
    return "://" in raw and "@" in raw and _URL_HINT.search(raw) is not None


def dumps(value: Any) -> str | None:
    """Strict JSON of `value` with secrets scrubbed (None stays SQL NULL).

    Fast path: plain JSON data (no numpy, NaN or lone surrogates) whose text shows no secret-like key and no URL
    with a user part is written as `json.dumps` gives it — the same data the scrubbing path would write, without
    walking it in Python (a 180-day RetailBench run has megabytes of tool results). Anything else takes the
    scrubbing path."""
    if value is None:
        return None
    try:
        raw = json.dumps(value, allow_nan=False, ensure_ascii=False)
        raw.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        raw = None
    if raw is not None and not _needs_scrub(raw):
        return raw
    return json.dumps(json_safe(scrub_secrets(value)), default=str, allow_nan=False)


def loads(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else None


def fetch_rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [
        {n: (loads(v) if n in JSON_COLUMNS else v) for n, v in zip(names, row, strict=True)}
        for row in cur.fetchall()
    ]


def fetch_frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> pd.DataFrame:
    df = con.execute(sql, params).df()
    for col in JSON_COLUMNS:
        if col in df.columns:
            df[col] = pd.Series([loads(v) for v in df[col]], index=df.index, dtype=object)
    return df


def iso_times(record: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in record.items()}
