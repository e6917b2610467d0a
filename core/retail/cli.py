"""`python -m core.cli retail ...`: run an offline agent, show a run's metrics, list tools and presets.

Runs are stored under the workbench key "retailbench" with their transitions, record tables and daily series.
"""

from __future__ import annotations

import argparse
import json

from core import cli_args
from core.errors import SpecError

AGENT_CHOICES = ("oracle", "cheapest", "review_aware", "news_aware", "do_nothing")


def _days(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of days, got {text!r}") from None
    if not 1 <= value <= 1500:
        raise argparse.ArgumentTypeError(f"days must be between 1 and 1500, got {value}")
    return value


def _overrides(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise SpecError("--set", f"expected KEY=VALUE, got {pair!r}")
        try:
            out[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            out[key.strip()] = text
    return out


def cmd_run(args: argparse.Namespace) -> dict:
    from core.retail.run import run_offline
    from core.store import Store

    overrides = _overrides(args.set or [])
    store = None if args.no_store else Store(args.db)
    return run_offline(args.agent, preset=args.preset, days=args.days, seed=args.seed, store=store,
                       overrides=overrides or None)  # fmt: skip


def cmd_metrics(args: argparse.Namespace) -> dict:
    from core.store import Store
    from core.store.retail import retail_records
    from solvers.retail.metrics import run_metrics

    store = Store(args.db)
    run = store.get_run(args.run_id)
    if run["workbench"] != "retailbench":
        raise SpecError("RUN_ID", f"run {args.run_id} is a {run['workbench']} run, not a RetailBench run")
    daily = retail_records(store, args.run_id, "daily")
    stored = run.get("metrics") or {}
    recomputed = run_metrics(daily.to_dict("records")) if len(daily) else {}
    out = {"run_id": args.run_id, "config": run.get("config"), "metrics": stored,
           "from_daily_series": {k: recomputed.get(k) for k in (
               "run_days", "final_networth", "total_sales", "avg_daily_sold_skus", "return_ratio",
               "expired_ratio", "stockout_days")}}  # fmt: skip
    if args.series:
        out["daily"] = daily
    return out


def cmd_tools(args: argparse.Namespace) -> list[dict]:
    from solvers.retail.config import preset
    from solvers.retail.sim import RetailSim
    from solvers.retail.tools import RetailTools

    tools = RetailTools(RetailSim(preset(args.preset), seed=0))
    return [
        {"name": s["name"], "description": s["description"],
         "arguments": ", ".join(f"{k}{'*' if k in s['input_schema']['required'] else ''}"
                                for k in s["input_schema"]["properties"])}
        for s in tools.specs()
    ]  # fmt: skip


def cmd_presets(args: argparse.Namespace) -> list[dict]:
    from solvers.retail.config import PRESETS

    keys = ("initial_funds", "everyday_rent", "inventory_capacity", "review_ratio", "enable_news",
            "news_impact_base_scale", "news_impact_abs_cap", "aggregation", "rho", "shelf_sku_capacity")  # fmt: skip
    return [{"preset": name, "categories": len(c.categories), **{k: getattr(c, k) for k in keys}}
            for name, c in PRESETS.items()]  # fmt: skip


def register(subparsers: argparse._SubParsersAction) -> None:
    """The `retail` group."""
    group = subparsers.add_parser("retail", help="RetailBench supermarket simulator (seeds 004/001)")
    sub = group.add_subparsers(title="commands", dest="command", metavar="COMMAND", required=True)

    run = sub.add_parser("run", help="run an offline agent (oracle or a baseline) and store the run")
    run.add_argument("--agent", choices=AGENT_CHOICES, default="oracle")
    run.add_argument("--preset", default="hard_v2", help="easy, middle, hard, hard_v2 (default), v1_easy, ...")
    run.add_argument("--days", type=_days, default=180)
    run.add_argument("--seed", type=cli_args.seed, default=0)
    run.add_argument("--no-store", action="store_true", help="do not write the run to the store")
    run.add_argument("--set", action="append", metavar="KEY=VALUE",
                     help="override a preset value (JSON), e.g. --set everyday_rent=300 --set quality_first_mode=gate")
    run.set_defaults(func=cmd_run)

    metrics = sub.add_parser("metrics", help="Table 1 metrics of a stored RetailBench run")
    metrics.add_argument("run_id", metavar="RUN")
    metrics.add_argument("--series", action="store_true", help="include the daily series")
    metrics.set_defaults(func=cmd_metrics)

    tools = sub.add_parser("tools", help="the tool catalog (names, arguments; * = required)")
    tools.add_argument("--preset", default="hard_v2")
    tools.set_defaults(func=cmd_tools)

    presets = sub.add_parser("presets", help="the configuration presets")
    presets.set_defaults(func=cmd_presets)
