"""`python -m core.cli retail ...`: run an agent (offline, or an LLM framework with a provider), show a run's
metrics, list tools and presets.

Runs are stored under the workbench key "retailbench" with their transitions, record tables and daily series.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from core import cli_args
from core.errors import SpecError
from core.retail.overrides import MAX_DAYS, MAX_SET_CHARS
from core.retail.paper import HARNESSES

AGENT_CHOICES = (
    "oracle",
    "full_info",
    "hybrid",
    "store_manager",
    "cheapest",
    "review_aware",
    "news_aware",
    "do_nothing",
)
FRAMEWORK_CHOICES = ("react", "reflection", "plan_and_act", "evolving_strategy")
MAX_PRESET_CHARS = 50
MAX_CATALOG_CHARS = 50
days = cli_args.whole(1, MAX_DAYS, "a whole number of days")
preset_name = cli_args.free_text(MAX_PRESET_CHARS, "a preset name")
catalog_name = cli_args.free_text(MAX_CATALOG_CHARS, "a catalog name")
setting = cli_args.free_text(MAX_SET_CHARS, "KEY=VALUE")
harness = cli_args.word(HARNESSES, "a harness")


def cmd_run(args: argparse.Namespace) -> dict:
    from core.retail.overrides import configured, parse_overrides
    from core.retail.run import run_agent
    from core.store import Store

    overrides = parse_overrides(args.set or [])
    configured(args.preset, overrides)  # the whole configuration is checked before any agent or store
    from solvers.retail.catalogs import variant

    variant(args.catalog)  # an unknown catalog name is refused before anything runs
    model = None
    if args.agent in FRAMEWORK_CHOICES:
        from core.llm.factory import make_chat_model

        settings = cli_args.provider_settings(args)
        if settings.provider == "offline":
            raise SpecError("--provider", f"{args.agent} is an LLM framework: choose --provider anthropic or openai "
                                          "(with its API key); no offline stand-in is substituted")  # fmt: skip
        model = make_chat_model(settings)
    store = None if args.no_store else Store(args.db)
    if args.harness is not None and args.agent not in FRAMEWORK_CHOICES:
        raise SpecError(
            "--harness", f"{args.agent} is an offline agent; --harness applies to the LLM frameworks"
        )
    return run_agent(args.agent, preset=args.preset, days=args.days, seed=args.seed, catalog=args.catalog,
                     store=store, overrides=overrides or None, model=model, harness=args.harness)  # fmt: skip


def play_lines(game: Any, stdin: TextIO, stdout: TextIO) -> int:
    """Play `game` (a `core.retail.human.HumanGame`): one `{"name": TOOL, "arguments": {...}}` per stdin line, answering each with one JSON line
    (`{"run_id", "day", "t", "result", "formatted"}` or `{"error", "field"}`); stops when the game ends."""
    from core.errors import OrcaError

    answered = 0
    for line in cli_args.chat_lines(stdin):
        try:
            if isinstance(line, OrcaError):
                raise line
            data = cli_args.chat_request(line)
            row = game.play(data.get("name"), data.get("arguments"))
            out = {"day": game.day, "t": row.t, **row.observation}
        except OrcaError as err:
            out = cli_args.chat_error(err)
        out["run_id"] = game.run_id
        stdout.write(cli_args.chat_line_out(out))
        stdout.flush()
        answered += 1
        if game.done:
            break
    return answered


def cmd_play(args: argparse.Namespace) -> dict:
    """A human game over stdin JSON lines (the page's play mode without the page); the run is stored."""
    import sys

    from core.retail.human import HumanGame
    from core.retail.overrides import configured
    from core.store import Store

    configured(args.preset, {})
    store = None if args.no_store else Store(args.db)
    game = HumanGame.resume(store, args.resume) if args.resume and store else HumanGame.new(
        store, preset=args.preset, days=args.days, seed=args.seed)  # fmt: skip
    answered = play_lines(game, sys.stdin, sys.stdout)
    if not game.done and args.finish:
        game.finish()
    return {"run_id": game.run_id, "lines": answered, "day": game.day, "done": game.done,
            "metrics": game.result.metrics if game.result else game.metrics()}  # fmt: skip


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


def cmd_export(args: argparse.Namespace) -> dict:
    from core.retail.export import export_original
    from core.store import Store

    store = Store(args.db)
    store.get_run(args.run_id)  # an unknown id is refused before the folder is made
    return export_original(store, args.run_id, cli_args.prepare_output_dir(args.out_dir, "DIR"))


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
    from core.retail.report import (
        ci_markdown,
        ci_table,
        done_cells,
        four_stage,
        four_stage_markdown,
        gap_markdown,  # fmt: skip
        gap_table,
        strategy_notes,
        table1,
        to_markdown,
    )
    from core.retail.run import WORKBENCH
    from core.store import Store

    store = Store(args.db)
    experiment = store.get_experiment(args.experiment_id)
    if experiment.get("workbench") != WORKBENCH:
        raise SpecError(
            "EXPERIMENT",
            f"experiment {args.experiment_id!r} is a {experiment.get('workbench')} experiment, not a RetailBench "
            "one: it has no Table 1 (use: experiment report)",
        )
    settings = Settings.from_env()
    judge = None
    if settings.provider != "offline" and not args.no_judge:
        from core.llm.factory import make_chat_model
        from core.retail.judge import MacroJudge

        judge = MacroJudge(make_chat_model(settings))
    out = {"experiment_id": args.experiment_id, "table1": to_markdown(table1(store, args.experiment_id)),
           "four_stage": four_stage_markdown(four_stage(store, args.experiment_id)),
           "mean_ci": ci_markdown(ci_table(done_cells(store, args.experiment_id))),
           "mean_ci_by_instance": ci_markdown(ci_table(done_cells(store, args.experiment_id), by_instance=True)),
           "ratio_to_full_info": gap_markdown(gap_table(done_cells(store, args.experiment_id))),
           "strategy_instability": strategy_notes(store, args.experiment_id, judge=judge)}  # fmt: skip
    if judge is None:
        out["macro_judge"] = MACRO_NEEDS_KEY
    else:
        out["macro_judge"] = {"model": settings.model, "calls": judge.calls, "unscored": judge.failures,
                              "input_tokens": judge.usage.input_tokens, "output_tokens": judge.usage.output_tokens}  # fmt: skip
    return out


def cmd_tools(args: argparse.Namespace) -> list[dict]:
    from core.retail.overrides import configured
    from solvers.retail.sim import RetailSim
    from solvers.retail.tools import RetailTools

    tools = RetailTools(RetailSim(configured(args.preset, {}), seed=0))
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
    sub = cli_args.command_group(subparsers, "retail", "RetailBench supermarket simulator (seeds 004/001)")

    run = sub.add_parser(
        "run",
        help="run an agent (offline: oracle, hybrid, store_manager, a baseline; LLM: a framework) and store it",
    )
    run.add_argument("--agent", choices=(*AGENT_CHOICES, *FRAMEWORK_CHOICES), default="oracle",
                     help="offline agents need nothing; the LLM frameworks need --provider and its key")  # fmt: skip
    run.add_argument(
        "--preset",
        type=preset_name,
        default="hard_v2",
        help="easy, middle, hard, hard_v2 (default), v1_easy, ...",
    )
    run.add_argument("--days", type=days, default=180, help="days to simulate (default 180; 1 to 1,500)")
    run.add_argument("--seed", type=cli_args.seed, default=0)
    run.add_argument("--catalog", type=catalog_name, default="default",
                     help="catalog variant: default (agents are tuned on it), holdout1, holdout2, holdout3, "
                          "lowtraffic, weaksignal, or seed:N (see docs/retailbench.md)")  # fmt: skip
    run.add_argument("--no-store", action="store_true", help="do not write the run to the store")
    run.add_argument("--harness", type=harness, default=None,
                     help="LLM frameworks: orca (ORCA's tool loop, default) or paper (the original runners' loop: "
                          "text <tool_call> blocks, 50 turns a day, ...; docs/retailbench.md)")  # fmt: skip
    run.add_argument(
        "--set",
        action="append",
        type=setting,
        metavar="KEY=VALUE",
        help="override a preset value, e.g. --set everyday_rent=300 --set quality_first_mode=gate "
        "(typed and range-checked; see docs/limits.md)",
    )
    cli_args.add_provider_flags(run)
    run.set_defaults(func=cmd_run)

    play = sub.add_parser(
        "play", help="play the store yourself: one JSON tool call per stdin line, each answered with one JSON line",
        description='Reads {"name": "place_order", "arguments": {...}} per line (the 21 tools; see retail tools). '
        "The game is stored as a run of agent human (kind human (student)) and ends with its last day.",
    )
    play.add_argument("--preset", type=preset_name, default="hard_v2")
    play.add_argument("--days", type=days, default=30, help="days to play (default 30)")
    play.add_argument("--seed", type=cli_args.seed, default=0)
    play.add_argument("--resume", type=cli_args.identifier, default=None, help="continue an open game by its run id")
    play.add_argument("--finish", action="store_true", help="end the game when stdin ends (else it stays open)")
    play.add_argument("--no-store", action="store_true", help="do not write the game to the store")
    play.set_defaults(func=cmd_play)

    metrics = cli_args.id_command(
        sub, "metrics", "Table 1 metrics of a stored RetailBench run", cmd_metrics, metavar="RUN"
    )
    metrics.add_argument("--series", action="store_true", help="include the daily series")

    imp = sub.add_parser(
        "import", help="import an original RetailBench run directory (tool_calls.jsonl, logs, tokens)"
    )
    imp.add_argument("run_dir", metavar="DIR", type=cli_args.input_dir)
    imp.set_defaults(func=cmd_import)

    export = sub.add_parser(
        "export",
        help="write a stored RetailBench run as an original run directory (tool_calls.jsonl, run log, tokens)",
    )
    export.add_argument("run_id", metavar="RUN_ID", type=cli_args.identifier)
    export.add_argument("out_dir", metavar="DIR", type=cli_args.output_dir,
                        help="folder to write (made if missing; refused if it already holds a tool_calls.jsonl)")  # fmt: skip
    export.add_argument("--format", choices=("original",), default="original",
                        help="original: the layout of the paper's RetailBench code (notes §8), readable by retail import")  # fmt: skip
    export.set_defaults(func=cmd_export)

    cli_args.id_command(
        sub, "diagnostics", "four-stage diagnostics of a stored RetailBench run", cmd_diagnostics, metavar="RUN"
    )

    report = sub.add_parser(
        "report", help="Table 1 and four-stage diagnostics of a RetailBench experiment (markdown in JSON)"
    )
    report.add_argument("experiment_id", metavar="EXPERIMENT", type=cli_args.identifier)
    report.add_argument("--no-judge", action="store_true",
                        help="skip the LLM judge of macro strategies even when a key is set")  # fmt: skip
    report.set_defaults(func=cmd_report)

    tools = sub.add_parser("tools", help="the tool catalog (names, arguments; * = required)")
    tools.add_argument("--preset", type=preset_name, default="hard_v2")
    tools.set_defaults(func=cmd_tools)

    presets = sub.add_parser("presets", help="the configuration presets")
    presets.set_defaults(func=cmd_presets)
