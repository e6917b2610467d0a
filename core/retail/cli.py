"""`python -m core.cli retail ...`: run an offline agent, show a run's metrics, list tools and presets.

Runs are stored under the workbench key "retailbench" with their transitions, record tables and daily series.
"""

from __future__ import annotations

import argparse
import json

from core import cli_args
from core.errors import SpecError

AGENT_CHOICES = ("oracle", "hybrid", "store_manager", "cheapest", "review_aware", "news_aware", "do_nothing")


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


def cmd_import(args: argparse.Namespace) -> dict:
    from core.retail.importer import import_run_dir
    from core.store import Store

    store = Store(args.db)
    run_id = import_run_dir(store, args.run_dir)
    return {"run_id": run_id, "metrics": store.get_run(run_id).get("metrics")}


def cmd_diagnostics(args: argparse.Namespace) -> dict:
    from core.retail.replay import diagnostics
    from core.store import Store

    store = Store(args.db)
    if store.get_run(args.run_id)["workbench"] != "retailbench":
        raise SpecError("RUN_ID", f"run {args.run_id} is not a RetailBench run")
    return {"run_id": args.run_id, "four_stage": diagnostics(store, args.run_id)}


def cmd_report(args: argparse.Namespace) -> dict:
    from core.config import Settings
    from core.retail.diagnostics import MACRO_NEEDS_KEY
    from core.retail.report import four_stage, four_stage_markdown, strategy_notes, table1, to_markdown
    from core.store import Store

    store = Store(args.db)
    store.get_experiment(args.experiment_id)
    settings = Settings.from_env()
    judge = None
    if settings.provider != "offline" and not args.no_judge:
        from core.llm.factory import make_chat_model
        from core.retail.judge import MacroJudge

        judge = MacroJudge(make_chat_model(settings))
    out = {"experiment_id": args.experiment_id, "table1": to_markdown(table1(store, args.experiment_id)),
           "four_stage": four_stage_markdown(four_stage(store, args.experiment_id)),
           "strategy_instability": strategy_notes(store, args.experiment_id, judge=judge)}  # fmt: skip
    if judge is None:
        out["macro_judge"] = MACRO_NEEDS_KEY
    else:
        out["macro_judge"] = {"model": settings.model, "calls": judge.calls, "unscored": judge.failures,
                              "input_tokens": judge.usage.input_tokens, "output_tokens": judge.usage.output_tokens}  # fmt: skip
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

    run = sub.add_parser(
        "run", help="run an offline agent (oracle, hybrid, store_manager or a baseline) and store it"
    )
    run.add_argument("--agent", choices=AGENT_CHOICES, default="oracle")
    run.add_argument(
        "--preset", default="hard_v2", help="easy, middle, hard, hard_v2 (default), v1_easy, ..."
    )
    run.add_argument("--days", type=_days, default=180)
    run.add_argument("--seed", type=cli_args.seed, default=0)
    run.add_argument("--no-store", action="store_true", help="do not write the run to the store")
    run.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override a preset value (JSON), e.g. --set everyday_rent=300 --set quality_first_mode=gate",
    )
    run.set_defaults(func=cmd_run)

    metrics = sub.add_parser("metrics", help="Table 1 metrics of a stored RetailBench run")
    metrics.add_argument("run_id", metavar="RUN")
    metrics.add_argument("--series", action="store_true", help="include the daily series")
    metrics.set_defaults(func=cmd_metrics)

    imp = sub.add_parser(
        "import", help="import an original RetailBench run directory (tool_calls.jsonl, logs, tokens)"
    )
    imp.add_argument("run_dir", metavar="DIR")
    imp.set_defaults(func=cmd_import)

    diag = sub.add_parser("diagnostics", help="four-stage diagnostics of a stored RetailBench run")
    diag.add_argument("run_id", metavar="RUN")
    diag.set_defaults(func=cmd_diagnostics)

    report = sub.add_parser(
        "report", help="Table 1 and four-stage diagnostics of a RetailBench experiment (markdown in JSON)"
    )
    report.add_argument("experiment_id", metavar="EXPERIMENT")
    report.add_argument("--no-judge", action="store_true",
                        help="skip the LLM judge of macro strategies even when a key is set")  # fmt: skip
    report.set_defaults(func=cmd_report)

    tools = sub.add_parser("tools", help="the tool catalog (names, arguments; * = required)")
    tools.add_argument("--preset", default="hard_v2")
    tools.set_defaults(func=cmd_tools)

    presets = sub.add_parser("presets", help="the configuration presets")
    presets.set_defaults(func=cmd_presets)
