"""Number formats of table columns, read from their names (no streamlit here: `core.ui.number_columns` turns them
into Streamlit column configs), so a page's table shows `$213,505.97`, `16.8%` or `81.803`, never
`213505.9679`."""

from __future__ import annotations

import re

import pandas as pd

IDENTIFIER = re.compile(r"(^|_|\b)(id|seed|year|index|#)($|_|\b)", re.IGNORECASE)
"""Identifiers (a seed, a run id): shown as they are, without thousands separators."""
PERCENT_POINTS = re.compile(r"%|\bpct\b|_pct$|percent", re.IGNORECASE)
"""Columns already in percent points (`gap %`: 1.7 means 1.7 %)."""
SHARE = re.compile(r"(^|_|\b)(rate|share|ratio|accuracy)($|_|\b)|^(RR|RRR)\b|rational|exact repair", re.IGNORECASE)
"""Columns of shares between 0 and 1, shown as percentages."""
P_VALUE = re.compile(r"(^|_|\s)p$|_p$|p[-_ ]?value|wilcoxon|ttest", re.IGNORECASE)
USD = re.compile(r"usd|\$", re.IGNORECASE)
"""Amounts in US dollars that can be fractions of a cent (an LLM call's cost)."""
MONEY = re.compile(r"cost|price|revenue|funds|worth|dollar|profit|refund|cogs", re.IGNORECASE)
"""Money, to the cent with thousands separators ($1,234.57)."""


def column_format(name: str) -> str | None:
    """The Streamlit `NumberColumn` format for a column named `name` (None: leave it as it is)."""
    if IDENTIFIER.search(name):
        return None
    if PERCENT_POINTS.search(name):
        return "%.1f%%"
    if P_VALUE.search(name):
        return "%.3f"
    if SHARE.search(name):
        return "percent"
    if USD.search(name):
        return "$%.4f"
    if MONEY.search(name):
        return "dollar"
    return "localized"


def column_formats(frame: pd.DataFrame | list[dict], **overrides: str) -> dict[str, str]:
    """A format for every number column of `frame` (a frame or its rows; booleans and identifiers left out),
    `overrides` by name first."""
    if not isinstance(frame, pd.DataFrame):
        frame = pd.DataFrame(list(frame))
    out = {}
    for name in frame.columns:
        column = frame[name]
        if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            continue
        chosen = overrides.get(str(name)) or column_format(str(name))
        if chosen:
            out[str(name)] = chosen
    return out
