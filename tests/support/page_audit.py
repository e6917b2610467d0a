"""Generic presentation rules for a rendered page (issue 31 item 5), checked on an AppTest's element tree.

`findings(at, presenting=...)` lists every break of the rules, one plain sentence each:

* tables: a number column has a number format in its `column_config` (or arrives as text, pre-formatted) when it
  holds money or a percentage (by its name: cost, price, dollars, …; %, rate, share, …), values of 10,000 or more
  (thousands separators), or values with more than three decimals (`81.80333333`); an id- or seed-like column is
  exempt;
* charts: every Plotly figure titles both axes of each cartesian subplot, every Vega-Lite spec titles its x and
  y encodings, and an axis of numbers names its unit (`unit_finding`: "Cost ($)", "Lead time (days)", "Fill rate
  (%)", or a unit-free quantity of `UNIT_FREE`); in presentation mode every chart carries the enlarged type (`core.ui.presented`,
  `presented_spec`), so a chart drawn by `st.bar_chart` or a bare `st.plotly_chart` is a finding;
* alerts: no error, warning or info names a temporary file (`tmpab12cd34`) instead of the user's, and a widget a
  message tells the user to tick, press, choose … (“…” or "…" after the verb) is on the page under that label.
"""

from __future__ import annotations

import json
import math
import re

import pandas as pd
from streamlit.testing.v1 import AppTest

from core.ui import PRESENT_FONT_PX

THOUSANDS = 10_000
"""Numbers from this size on need thousands separators (a format) to be read at a glance."""
EXEMPT_COLUMN = re.compile(r"(^|_|\b)(id|seed|year|run|index|day|period|step|turn|#)($|_|\b)", re.IGNORECASE)
"""Columns of identifiers and counters (a seed, a run id, a day number): shown as they are."""
MONEY_OR_PERCENT = re.compile(
    r"cost|price|revenue|funds|worth|usd|dollar|profit|\$|%|rate|share|pct|percent|reduction", re.IGNORECASE
)
"""Column names that say the numbers are money or percentages: formatted whatever their values."""
DECIMALS = 3
RAW_TITLE = re.compile(r"^([a-z0-9]+(_[a-z0-9]+)+|value|index|variable|x|y)$")
"""An axis title that is a column's name as Plotly Express or Vega-Lite took it (`error_type`, `value`)."""
UNIT = re.compile(r"\([^()]*[^()\s][^()]*\)\s*$|%")
"""An axis title that names its unit: a parenthesised last part ("Total cost ($)", "Lead time (days)", "Stock
(units)", "Similarity (0 to 1)") or a percent sign ("Fill rate %")."""
COUNT = re.compile(r"^(number|count) of \w", re.IGNORECASE)
"""A count that names what it counts ("Number of scenarios"): the thing counted is the unit. (A share is not: it
needs "(%)" or "(0 to 1)".)"""
UNIT_FREE = {
    "cumulative reward": "a generic environment's reward: its unit is whatever that environment pays",
    "day of the run": "a position in the run (day 1, 2, …), not a quantity",
    "echelon": "a position in the supply chain (echelon 1, 2, …), not a quantity",
    "pair of adjacent days": "a position: pair n compares day n of the run with day n + 1, not a quantity",
}
"""Numeric axes whose title needs no unit, each with why (a position in a sequence or a count of named things).
Matched against the whole title (lower case), so a title with more words must name its unit."""
TEMP_FILE = re.compile(r"\btmp[a-z0-9_]{8}\b")
"""A name `tempfile` made (`tmpab12cd34`): a message naming it names an internal file, not the user's."""
WIDGET_REFERENCE = re.compile(r"\b(?:tick|untick|press|click|choose|select|pick)\s+(?:the\s+)?[“\"]([^”\"]{3,120})[”\"]",
                              re.IGNORECASE)
"""A message pointing at a widget by its label: "tick “Analyse only the LP relaxation…”"."""
WIDGETS = ("checkbox", "toggle", "button", "download_button", "selectbox", "radio", "multiselect", "number_input",
           "text_input", "text_area", "slider", "select_slider", "date_input", "file_uploader", "tab", "expandable")


def _elements(at: AppTest, kind: str) -> list:
    return list(at.get(kind))


def _formatted(config: dict, column: str) -> bool:
    entry = config.get(column)
    if isinstance(entry, dict):
        return bool((entry.get("type_config") or {}).get("format"))
    return False


def table_findings(at: AppTest) -> list[str]:
    """Number columns shown raw (see the module docstring)."""
    out = []
    for element in _elements(at, "dataframe"):
        frame: pd.DataFrame = element.value
        config = json.loads(element.proto.columns or "{}")
        styled = bool(element.proto.arrow_data.styler.display_values)
        name = element.key or f"table with columns {list(frame.columns)[:4]}"
        shown = list(element.proto.column_order) or list(frame.columns)  # `column_order` hides the others
        for column in [c for c in frame.columns if str(c) in map(str, shown)]:
            values = frame[column]
            if styled or EXEMPT_COLUMN.search(str(column)) or not pd.api.types.is_numeric_dtype(values):
                continue
            if pd.api.types.is_bool_dtype(values) or _formatted(config, str(column)):
                continue
            finite = [float(v) for v in values.dropna() if math.isfinite(float(v))]
            raw = [v for v in finite if abs(v) >= THOUSANDS or round(v, DECIMALS) != v]
            if finite and MONEY_OR_PERCENT.search(str(column)):
                raw = raw or finite
            if raw:
                out.append(f"{name}: column {column!r} is shown raw (e.g. {raw[0]!r}); give it a number format")
    return out


def _plotly_axes(spec: dict) -> list[str]:
    """The layout names of the cartesian axes a figure's traces use (`xaxis`, `yaxis2`, …)."""
    used = set()
    for trace in spec.get("data", []):
        if trace.get("type", "scatter") in ("pie", "table", "indicator", "sankey", "parcoords", "sunburst"):
            continue
        for axis in ("x", "y"):
            ref = trace.get(f"{axis}axis", axis)
            used.add(f"{axis}axis{ref[1:]}")
    return sorted(used)


def _plotly_title(layout: dict, axis: str, seen: tuple[str, ...] = ()) -> str:
    """An axis's title; a facet's axis that `matches` another (Plotly Express titles one per row or column) has
    that axis's title."""
    spec = layout.get(axis) or {}
    title = spec.get("title")
    text = str(title.get("text") or "") if isinstance(title, dict) else str(title or "")
    match = spec.get("matches")
    if not text.strip() and isinstance(match, str) and axis not in seen:
        return _plotly_title(layout, f"{match[0]}axis{match[1:]}", (*seen, axis))
    return text


def unit_finding(title: str) -> str | None:
    """Why a number axis titled `title` does not say what its numbers measure, or None when it does (see `UNIT`,
    `COUNT`, `UNIT_FREE`)."""
    text = re.sub(r"<[^>]+>", " ", title).strip()  # Plotly titles may break lines with <br>
    if UNIT.search(text) or COUNT.match(text) or text.lower() in UNIT_FREE:
        return None
    return f"its title {text!r} names no unit; add one in parentheses, e.g. '($)', '(days)', '(units)', '(%)'"


def _numeric(values: object) -> bool:
    """Whether a trace's data along an axis are numbers (a list of numbers, or a typed array Plotly encodes as
    `{"dtype", "bdata"}`); text, dates and absent data are not."""
    if isinstance(values, dict):
        return str(values.get("dtype", "")).lstrip("<>|=")[:1] in ("f", "i", "u")
    if isinstance(values, list):
        flat = [v for row in values for v in (row if isinstance(row, list) else [row]) if v is not None]
        return bool(flat) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in flat)
    return False


def _plotly_numeric_axes(spec: dict) -> set[str]:
    """The cartesian axes (`xaxis`, `yaxis2`, …) along which some trace plots numbers: its `x` or `y` data are
    numeric, or it is a histogram's count axis. An axis Plotly is told is a category or date axis is not."""
    layout, out = spec.get("layout", {}), set()
    for trace in spec.get("data", []):
        kind = trace.get("type", "scatter")
        if kind in ("pie", "table", "indicator", "sankey", "parcoords", "sunburst"):
            continue
        for axis in ("x", "y"):
            name = f"{axis}axis{trace.get(f'{axis}axis', axis)[1:]}"
            count_axis = kind == "histogram" and axis not in trace and any(a in trace for a in ("x", "y"))
            if (count_axis or _numeric(trace.get(axis))) and (layout.get(name) or {}).get("type") not in (
                "category",
                "multicategory",
                "date",
            ):
                out.add(name)
    return out


def chart_findings(at: AppTest, presenting: bool = False) -> list[str]:
    """Charts without axis titles, and (when `presenting`) charts presentation mode did not enlarge."""
    out = []
    for number, element in enumerate(_elements(at, "plotly_chart"), 1):
        spec = json.loads(element.proto.spec)
        layout = spec.get("layout", {})
        label = _plotly_title(layout, "title") if isinstance(layout.get("title"), dict) else ""
        name = f"plotly chart {number}{f' ({label})' if label else ''}"
        numeric = _plotly_numeric_axes(spec)
        for axis in _plotly_axes(spec):
            title = _plotly_title(layout, axis).strip()
            if not title:
                out.append(f"{name}: {axis} has no title")
            elif RAW_TITLE.match(title):
                out.append(f"{name}: {axis} is titled with a raw column name {title!r}; name it and its unit")
            elif axis in numeric and (why := unit_finding(title)):
                out.append(f"{name}: {axis} shows numbers but {why}")
        if presenting and (layout.get("font") or {}).get("size") != PRESENT_FONT_PX:
            out.append(f"{name}: not enlarged in presentation mode (draw it through core.ui.plotly_chart)")
    for number, element in enumerate(_elements(at, "vega_lite_chart"), 1):
        spec = json.loads(element.proto.spec)
        name = f"vega-lite chart {number}"
        layers = spec.get("layer") or [spec]
        for axis in ("x", "y"):
            titles = [
                str(title)
                for layer in layers
                if (title := ((layer.get("encoding") or spec.get("encoding") or {}).get(axis) or {}).get("title"))
            ]
            titled = titles[0] if titles else ""
            quantitative = any(
                ((layer.get("encoding") or spec.get("encoding") or {}).get(axis) or {}).get("type") == "quantitative"
                for layer in layers
            )
            if not titled:
                out.append(f"{name}: its {axis} axis has no title")
            elif RAW_TITLE.match(titled):
                out.append(f"{name}: its {axis} axis is titled with a raw column name {titled!r}")
            elif quantitative and (why := unit_finding(titled)):
                out.append(f"{name}: its {axis} axis shows numbers but {why}")
        font = ((spec.get("config") or {}).get("axis") or {}).get("titleFontSize")
        if presenting and font != PRESENT_FONT_PX:
            out.append(f"{name}: not enlarged in presentation mode (draw it through core.ui.vega_lite_chart)")
    return out


def alert_findings(at: AppTest) -> list[str]:
    """Messages that name a temporary file instead of the user's."""
    out = []
    for kind in ("error", "warning", "info", "exception"):
        for element in _elements(at, kind):
            text = str(getattr(element, "value", "") or getattr(element, "message", ""))
            if TEMP_FILE.search(text):
                out.append(f"{kind} names a temporary file: {text[:160]!r}")
    return out


def _labels(at: AppTest) -> set[str]:
    """Every widget label and choice on the page (a choice as shown, e.g. a radio's option)."""
    out: set[str] = set()
    for kind in WIDGETS:
        for element in _elements(at, kind):
            out.add(str(getattr(element, "label", "") or "").strip())
            out.update(str(o).strip() for o in (getattr(element, "options", None) or []))
    return out


def label_findings(at: AppTest) -> list[str]:
    """Messages that point at a widget no widget on the page is labelled as."""
    out, labels = [], None
    for kind in ("error", "warning", "info", "success"):
        for element in _elements(at, kind):
            for wanted in WIDGET_REFERENCE.findall(str(getattr(element, "value", "") or "")):
                labels = _labels(at) if labels is None else labels
                if wanted.strip() not in labels:
                    out.append(f"{kind} points at “{wanted}”, but no widget on the page has that label")
    return out


def findings(at: AppTest, presenting: bool = False) -> list[str]:
    """Every break of the presentation rules on the page as `at` shows it now."""
    return [*table_findings(at), *chart_findings(at, presenting), *alert_findings(at), *label_findings(at)]
