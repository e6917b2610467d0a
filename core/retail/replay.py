"""What the RetailBench replay page reads, a day at a time: runs, the daily series, one day's tool calls and what
they did, a product's history, Table 1 of several runs, the four-stage diagnostics, downloads.

A run's day boundaries (the step of each `end_today`) are stored as the artifact `day_index.json` when the run
is written, so a day's calls are one ranged read of the transitions, never the whole run.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pandas as pd

from core.retail.diagnostics import (
    four_stage,
    ordered_lot_quality,
    price_closeness,
    strategy_instability,
    trace_from_transitions,
)
from core.retail.run import day_index
from core.store import Store
from core.store.retail import day_transitions, retail_records, retail_skus

WORKBENCH = "retailbench"
TABLE1 = ("run_days", "final_networth", "total_sales", "avg_daily_sold_skus", "return_ratio", "expired_ratio",
          "stockout_days", "avg_direct_tool_calls_per_day", "avg_all_tool_calls_per_day", "avg_tokens_per_day")  # fmt: skip
HEADLINE = {"s1_avg_acted_skus_per_day": "Acted/day", "high_demand_coverage": "HighDemandCov",
            "s2_query_depth": "QDepth", "evidence_completeness": "Completeness",
            "s3_supplier_quality_first_rate": "QualityFirst", "s3_supplier_price_first_rate": "PriceFirst",
            "supplier_quality_score": "SupplierQual", "price_closeness": "PriceClose",
            "s3_modify_price_distance_pct_mean": "PriceDist %",
            "s4_followup_action_rate_7d": "FollowUp", "resolved_event_rate": "Resolved",
            "s3_invalid_or_blocked_action_rate": "Invalid/blocked"}  # fmt: skip
SERIES = (
    "funds",
    "net_worth",
    "sales_units",
    "inventory_value",
    "stockout_skus",
    "expired_units",
    "returned_units",
)


MONEY_SERIES = frozenset({"funds", "net_worth", "inventory_value", "revenue", "refunds", "money_earned", "cogs"})
SERIES_UNITS = {"sales_units": "units", "stockout_skus": "SKUs", "expired_units": "units", "returned_units": "units"}


def value_axis(series: list[str]) -> tuple[str, str]:
    """The y-axis title and Vega-Lite number format for daily `series` plotted together: dollars when all are
    money, else the units they share, else a title that names each series' unit."""
    if series and all(s in MONEY_SERIES for s in series):
        return "Amount (US dollars)", "$,.0f"
    units = {SERIES_UNITS.get(s, "US dollars" if s in MONEY_SERIES else "value") for s in series}
    if len(units) == 1:
        return f"Quantity ({units.pop()})", ",.0f"
    return "Value (" + "; ".join(f"{s.replace('_', ' ')} in {SERIES_UNITS.get(s, 'US dollars')}" for s in series) + ")", ",.0f"


def _as_dict(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value:
        try:
            out = json.loads(value)
            return out if isinstance(out, dict) else {}
        except json.JSONDecodeError:
            return {}
    return {}


def describe(config: dict) -> dict[str, Any]:
    """Agent, kind, model and preset of a run's config — a run of ours, an imported one, or an experiment cell
    (whose config holds the spec's agent table and instance)."""
    agent = config.get("agent")
    if isinstance(agent, dict):
        from core.retail.experiment import agent_name
        from core.retail.run import agent_kind

        name = agent_name(agent)
        env = config.get("env") or {}
        kind = agent_kind(str(name), agent.get("harness"))
        return {"agent": name, "kind": kind, "model": agent.get("model"), "preset": env.get("preset"),
                "experiment": config.get("experiment")}  # fmt: skip
    return {"agent": agent, "kind": config.get("agent_kind", ""), "model": config.get("model"),
            "preset": config.get("preset"), "experiment": None}  # fmt: skip


def retail_runs(store: Store) -> pd.DataFrame:
    """The stored RetailBench runs with their agent, kind (LLM / offline / imported) and headline numbers."""
    runs = store.list_runs(WORKBENCH, limit=1000)
    rows = []
    for r in runs.to_dict("records"):  # the list holds config and metrics: one query for every run
        cfg, m = _as_dict(r.get("config")), _as_dict(r.get("metrics"))
        d = describe(cfg)
        rows.append({"id": r["id"], "title": r.get("title") or "", "status": r.get("status"), "agent": d["agent"],
                     "kind": d["kind"], "model": d["model"], "preset": d["preset"],
                     "days": m.get("run_days"), "final_networth": m.get("final_networth"),
                     "created_at": r.get("created_at")})  # fmt: skip
    return pd.DataFrame(rows, columns=["id", "title", "status", "agent", "kind", "model", "preset", "days",
                                       "final_networth", "created_at"])  # fmt: skip


def daily(store: Store, run_id: str) -> pd.DataFrame:
    """The run's daily series (one row per closed day)."""
    return retail_records(store, run_id, "daily")


def day_bounds(store: Store, run_id: str) -> list[int]:
    """Step index of each closed day's end_today (from the stored artifact; computed once if absent)."""
    try:
        return [int(t) for t in json.loads(store.get_artifact(run_id, "day_index.json"))]
    except Exception:
        rows = store.transitions(run_id)
        bounds = day_index(rows.to_dict("records"))
        store.add_artifact(run_id, "day_index.json", data=json.dumps(bounds).encode())
        return bounds


def day_steps(store: Store, run_id: str, day: int, bounds: list[int] | None = None) -> list[dict]:
    """The transitions of day `day` (1-based): the calls after the previous end_today up to this day's (with
    the observations the day view reads: end_today, news, failed calls)."""
    bounds = bounds if bounds is not None else day_bounds(store, run_id)
    if not 1 <= day <= len(bounds) + 1:
        return []
    start = bounds[day - 2] + 1 if day >= 2 else 0
    stop = bounds[day - 1] + 1 if day <= len(bounds) else None
    frame = day_transitions(store, run_id, start, stop)
    return [{k: (decoded(v) if k in ("action", "observation", "info") else v) for k, v in row.items()}
            for row in frame.to_dict("records")]  # fmt: skip


def decoded(value: Any) -> Any:
    """A stored JSON text as its value (other values, and text that is not JSON, as they are)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def day_view(steps: list[dict]) -> dict[str, Any]:
    """One day's calls split into what a reader wants: all calls, orders, prices, news seen, shelf, the close."""
    calls, orders, prices, news, shelf, close = [], [], [], [], None, None
    for s in steps:
        action = s.get("action") or {}
        name, args = action.get("name"), action.get("arguments") or {}
        result = (
            (s.get("observation") or {}).get("result") if isinstance(s.get("observation"), dict) else None
        )
        ok = not (isinstance(result, dict) and result.get("error"))
        calls.append({"t": s.get("t"), "tool": name, "arguments": json.dumps(args)[:300], "ok": ok,
                      "error": result.get("error") if isinstance(result, dict) else None,
                      "note": s.get("note"), "tokens": (s.get("input_tokens") or 0) + (s.get("output_tokens") or 0)})  # fmt: skip
        if name == "place_order" and ok:
            for item in args.get("items") or []:
                orders.append({"sku_id": item.get("sku_id"), "quantity": item.get("quantity"),
                               "supplier_id": args.get("supplier_id")})  # fmt: skip
        elif name == "modify_sku_price" and ok:
            prices.append({"sku_id": args.get("sku_id"), "new_price": args.get("new_price")})
        elif name == "view_today_news" and isinstance(result, list):
            news += [{"id": n.get("id"), "title": n.get("title")} for n in result if isinstance(n, dict)]
        elif name == "set_shelf_skus" and ok:
            shelf = list(args.get("sku_ids") or [])
        elif name == "end_today" and ok:
            close = result
    return {"calls": pd.DataFrame(calls), "orders": pd.DataFrame(orders), "prices": pd.DataFrame(prices),
            "news": pd.DataFrame(news), "shelf": shelf, "close": close}  # fmt: skip


def products(store: Store, run_id: str) -> list[str]:
    """The products of a run with per-product records (sold or ordered); empty for imported runs."""
    return retail_skus(store, run_id)


def product_view(store: Store, run_id: str, sku: str) -> dict[str, pd.DataFrame]:
    """A product's daily sales and price (with the reference price, for our runs), and each order's supplier
    against that day's cheapest quote and — from the stored ground truth — the hidden-quality-best one."""
    sales = retail_records(store, run_id, "sales", sku=sku)[["date", "move", "price"]]
    orders = retail_records(store, run_id, "supplier_orders", sku=sku)
    quotes = retail_records(store, run_id, "supplier_prices", sku=sku)
    refs = retail_records(store, run_id, "eval_reference_price", sku=sku)
    if not refs.empty:
        sales = sales.merge(refs[["date", "reference_price"]], on="date", how="left")
    if not orders.empty and not quotes.empty:
        cheapest = quotes.sort_values(["date", "price", "supplier_id"]).groupby("date").first().reset_index()
        orders = orders.merge(cheapest[["date", "supplier_id", "price"]].rename(
            columns={"supplier_id": "cheapest_supplier", "price": "cheapest_price"}), on="date", how="left")  # fmt: skip
        quality = retail_records(store, run_id, "eval_quality", sku=sku)
        if not quality.empty:
            ranked = quotes.merge(quality, on=["date", "sku_id", "supplier_id"])
            best = ranked.sort_values(
                ["date", "quality", "price", "supplier_id"], ascending=[True, False, True, True]
            )
            best = best.groupby("date").first().reset_index()[["date", "supplier_id", "quality"]]
            orders = orders.merge(best.rename(columns={"supplier_id": "quality_best_supplier",
                                                       "quality": "quality_best_quality"}), on="date", how="left")  # fmt: skip
    return {"sales": sales.reset_index(drop=True), "orders": orders.reset_index(drop=True)}


def table1(store: Store, run_ids: list[str]) -> pd.DataFrame:
    """Table 1 of the chosen runs, each labelled with its agent and kind (LLM, offline, imported)."""
    rows = []
    for rid in run_ids:
        run = store.get_run(rid)
        d, m = describe(_as_dict(run.get("config"))), _as_dict(run.get("metrics"))
        rows.append({"run": rid, "agent": d["agent"], "kind": d["kind"], "model": d["model"],
                     **{k: m.get(k) for k in TABLE1}})  # fmt: skip
    return pd.DataFrame(rows)


TABLE1_FORMAT = {"run_days": ("Days", "count"), "final_networth": ("Net worth", "money"),
                 "total_sales": ("Units sold", "count"), "avg_daily_sold_skus": ("SKUs sold/day", "decimal"),
                 "return_ratio": ("Returns", "percent"), "expired_ratio": ("Expired", "percent"),
                 "stockout_days": ("Stockout days", "count"),
                 "avg_direct_tool_calls_per_day": ("Calls/day", "decimal"),
                 "avg_all_tool_calls_per_day": ("All calls/day", "decimal"),
                 "avg_tokens_per_day": ("Tokens/day", "count")}  # fmt: skip
"""Table 1's columns as shown: (short label, kind); short labels keep all columns in view at 1440 px."""


def format_value(value: Any, kind: str) -> str:
    """A Table 1 number as text: money `$213,505.97`, percent `3.2 %`, count `1,234`, decimal `12.5`; blank
    when missing."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if not isinstance(value, int | float):
        return str(value)
    if kind == "money":
        return f"-${-value:,.2f}" if value < 0 else f"${value:,.2f}"
    if kind == "percent":
        return f"{100 * value:.1f} %"
    if kind == "count":
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def table1_view(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 1 (`table1`) for reading: numbers formatted, short column labels, columns empty for every run
    (a model for offline runs, tokens when no run used any) left out."""
    out = pd.DataFrame(index=frame.index)
    for column in frame.columns:
        values = frame[column]
        empty = (None, "", 0) if column == "avg_tokens_per_day" else (None, "")
        if values.isna().all() or values.map(lambda v, empty=empty: v in empty).all():
            continue
        label, kind = TABLE1_FORMAT.get(column, (column, "text"))
        out[label] = values.map(lambda v, kind=kind: format_value(v, kind)) if column in TABLE1_FORMAT else values
    return out


def table1_side_by_side(view: pd.DataFrame) -> pd.DataFrame:
    """`table1_view` turned sideways: one row per measure, one column per run headed "agent · run" — the 2 to 4
    runs of the comparison always fit the page's width, however long their kind labels are."""
    if view.empty:
        return view
    heads = [f"{a} · {r}" for a, r in zip(view.get("agent", view.index), view.get("run", view.index), strict=True)]
    body = view.drop(columns=[c for c in ("run", "agent") if c in view.columns])
    out = body.T.astype(str)
    out.columns = heads
    return out.rename_axis("measure").reset_index()


def ground_truth(store: Store, run_id: str) -> tuple[Callable, Callable] | None:
    """Stage-3 references of one of our runs from its stored evaluation tables: `quotes(day, sku)` (each
    supplier's quote and hidden quality that day) and `reference_price(day, sku)`; None for a run without them
    (imported originals, runs stored before migration 5). Day 1 is the run's first simulated date."""
    quality = retail_records(store, run_id, "eval_quality")
    if quality.empty:
        return None
    prices = retail_records(store, run_id, "supplier_prices")
    refs = retail_records(store, run_id, "eval_reference_price")
    start = pd.Timestamp(quality["date"].min())
    merged = prices.merge(quality, on=["date", "sku_id", "supplier_id"], how="inner")
    quotes: dict[tuple[str, str], list[dict]] = {}
    for date, sku, supplier, price, q in merged[
        ["date", "sku_id", "supplier_id", "price", "quality"]
    ].itertuples(index=False, name=None):
        quotes.setdefault((str(date)[:10], sku), []).append(
            {"supplier_id": supplier, "price": price, "quality": q}
        )
    reference = {(str(d)[:10], sku): float(p) for d, sku, p in refs[["date", "sku_id", "reference_price"]].itertuples(
        index=False, name=None)}  # fmt: skip

    def date_of(day: int) -> str:
        return (start + pd.Timedelta(days=day - 1)).strftime("%Y-%m-%d")

    return (lambda day, sku: quotes.get((date_of(day), sku), []),
            lambda day, sku: reference.get((date_of(day), sku)))  # fmt: skip


STAGE3_ABSENT = (
    "stage 3 (supplier quality, price closeness) not computed: this run has no stored hidden supplier "
    "quality (an imported original run, or stored before evaluation data was kept)"
)


STAGE3_LOTS = (
    "stage 3 from the hidden quality_score of the ordered lots (the original's place_order results): "
    "mean ordered-lot quality only; QualityFirst, PriceFirst, SupplierQual and price distance need every "
    "quote's hidden quality and a reference price, which an imported run does not carry"
)


def diagnostics(store: Store, run_id: str) -> dict[str, Any]:
    """The four-stage metrics of a run from its recorded tool calls; for our runs stage 3 too (QualityFirst,
    PriceFirst, SupplierQual, price distance) from the evaluation ground truth stored with the run. PriceClose
    compares runs: `price_closeness` over the runs shown together."""
    rows = store.transitions(run_id).to_dict("records")
    truth = ground_truth(store, run_id)
    if truth is None:
        out: dict[str, Any] = four_stage(trace_from_transitions(rows))
        lots = ordered_lot_quality(rows)
        out.update(lots)
        out["stage3_note"] = STAGE3_LOTS if lots["s3_ordered_lot_quality_eval_count"] else STAGE3_ABSENT
        return out
    quotes, reference = truth
    return four_stage(trace_from_transitions(rows), quotes=quotes, reference_price=reference)


def diagnostics_of(store: Store, run_ids: list[str]) -> dict[str, dict[str, Any]]:
    """`diagnostics` of several runs with PriceClose (`price_closeness` across them) added to each."""
    out = {r: diagnostics(store, r) for r in run_ids}
    close = price_closeness({r: d.get("s3_modify_price_distance_pct_mean") for r, d in out.items()})
    for r, d in out.items():
        d["price_closeness"] = close[r]
    return out


Judge = Callable[[list[str], list[str]], float | None]


def instability(store: Store, run_id: str, *, judge: Judge | None = None) -> dict[str, Any] | None:
    """Strategy instability of an Evolving-Strategy run (None for other runs); the macro level only with an
    LLM `judge` (`core.retail.judge.MacroJudge`), else its note says it needs an LLM key."""
    try:
        log = json.loads(store.get_artifact(run_id, "strategy_log.json"))
    except Exception:
        return None
    return strategy_instability(log, macro_judge=judge)


def series_csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def series_parquet(frame: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    return buf.getvalue()


def run_json(store: Store, run_id: str) -> bytes:
    """The run (config, metrics, daily series, transitions) as one JSON document."""
    run = store.get_run(run_id)
    doc = {"run": {k: (str(v) if not isinstance(v, dict | list | int | float | type(None)) else v) for k, v in run.items()},
           "daily": json.loads(daily(store, run_id).to_json(orient="records", date_format="iso")),
           "transitions": json.loads(store.transitions(run_id).to_json(orient="records"))}  # fmt: skip
    return json.dumps(doc, default=str).encode()
