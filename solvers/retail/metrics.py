"""Table 1 metrics of a run (notes §9.1) and the survival-first selection rule."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

TABLE1 = (
    "run_days", "final_networth", "total_sales", "avg_daily_sold_skus", "return_ratio", "stockout_days",
    "stockout_ratio", "expired_ratio", "avg_direct_tool_calls_per_day", "avg_all_tool_calls_per_day",
    "avg_code_tool_calls_per_day", "avg_memory_tool_calls_per_day", "avg_tokens_per_day",
)  # fmt: skip
HIGHER_BETTER = {"run_days", "final_networth", "total_sales", "avg_daily_sold_skus",
                 "avg_direct_tool_calls_per_day", "avg_all_tool_calls_per_day"}  # fmt: skip


def run_metrics(
    daily: Sequence[dict],
    *,
    direct_calls: int = 0,
    code_calls: int = 0,
    memory_calls: int = 0,
    total_tokens: int = 0,
    token_days: int | None = None,
    initial_funds: float | None = None,
) -> dict[str, float]:
    """Metrics from the daily series (one row per end_today) and the run's tool-call and token counts.

    return_ratio = returned / sold units; expired_ratio = expired / (sold + expired) (the paper's definition,
    not the oracle's self-reported expired / ordered); stockout day = a day with any demand above stock.
    """
    days = len(daily)
    sold = sum(r["sales_units"] for r in daily)
    returned = sum(r["returned_units"] for r in daily)
    expired = sum(r["expired_units"] for r in daily)
    stockout_days = sum(1 for r in daily if r["stockout_skus"] > 0)
    per_day = max(days, 1)
    out = {
        "run_days": days,
        "final_networth": daily[-1]["net_worth"] if daily else (initial_funds or 0.0),
        "final_funds": daily[-1]["funds"] if daily else (initial_funds or 0.0),
        "total_sales": sold,
        "avg_daily_sold_skus": sum(r["sold_skus"] for r in daily) / per_day,
        "return_ratio": returned / sold if sold else 0.0,
        "expired_ratio": expired / (sold + expired) if sold + expired else 0.0,
        "stockout_days": stockout_days,
        "stockout_ratio": stockout_days / per_day,
        "total_returns": returned,
        "total_expired": expired,
        "direct_tool_calls": direct_calls,
        "code_tool_calls": code_calls,
        "all_tool_calls": direct_calls + code_calls,
        "memory_tool_calls": memory_calls,
        "avg_direct_tool_calls_per_day": direct_calls / per_day,
        "avg_all_tool_calls_per_day": (direct_calls + code_calls) / per_day,
        "avg_code_tool_calls_per_day": code_calls / per_day,
        "avg_memory_tool_calls_per_day": memory_calls / per_day,
        "total_tokens": total_tokens,
        "avg_tokens_per_day": total_tokens / token_days if token_days else 0.0,
    }
    if initial_funds is not None:
        out["initial_funds"] = initial_funds
    return out


def selection_key(metrics: dict) -> tuple[float, float, float]:
    """Survival first, then final net worth, then total sales (missing values rank lowest)."""
    ninf = float("-inf")
    return tuple(float(metrics.get(k, ninf)) for k in ("run_days", "final_networth", "total_sales"))  # type: ignore[return-value]


def select_run(runs: Iterable[dict]) -> dict:
    """The selected run of one (model) group: max run_days, tie-break by final_networth then total_sales."""
    runs = list(runs)
    if not runs:
        raise ValueError("no runs to select from")
    return max(runs, key=selection_key)
