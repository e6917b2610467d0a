"""Table number formats read from column names (`core/formats.py`)."""

import pandas as pd

from core.formats import column_format, column_formats


def test_each_kind_of_column_gets_its_format():
    assert column_format("holding_cost") == "dollar" and column_format("Net worth") == "dollar"
    assert column_format("cost_usd") == "$%.4f"  # an LLM call costs fractions of a cent
    assert column_format("gap %") == "%.1f%%" and column_format("gap_to_dp_pct") == "%.1f%%"
    assert column_format("success_rate") == "percent" and column_format("exact repair") == "percent"
    assert column_format("wilcoxon_p") == "%.3f" and column_format("paired t p") == "%.3f"
    assert column_format("mean") == "localized" and column_format("objective") == "localized"
    assert column_format("seed") is None and column_format("run_id") is None


def test_only_number_columns_are_formatted_and_overrides_win():
    frame = pd.DataFrame({"agent": ["a"], "ok": [True], "mean": [81.8033], "latency_ms": [14.9], "seed": [7]})
    assert column_formats(frame, latency_ms="%.0f ms") == {"mean": "localized", "latency_ms": "%.0f ms"}
    assert column_formats([{"value": 0.98, "check": "x"}]) == {"value": "localized"}  # rows work too
