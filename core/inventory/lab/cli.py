"""`python -m core.cli inventory lab generate|run|report`: the evaluation lab from the shell.

generate writes `scenarios.jsonl` plus one folder per scenario (`extracted_params.csv`, the ground truth,
and `context.txt`); run runs the protocol through the experiment engine, one cell per scenario and treatment saved as it
finishes (the same command again resumes it, running only the missing cells), writes the report (report.md,
results.csv, charts.html, lab.json) and records the lab run in the run store; report re-renders a
saved `lab.json`. Each prints one JSON object.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import cli_args

if TYPE_CHECKING:
    from core.inventory.lab.config import LabConfig

MAX_SCENARIOS = 100_000  # the generator's own limit
MAX_LAB_WORKERS = 16  # LabConfig's limit
MIN_PATHS = 10  # the Copilot and the assessment need at least 10 simulation paths
MAX_NOISE = 5.0  # the imitator's noise level (ImitatorNoise.scaled)
scenario_count = cli_args.whole(1, MAX_SCENARIOS, "a whole number of scenarios")
lab_paths = cli_args.whole(MIN_PATHS, cli_args.MAX_PATHS, "a whole number of paths")


def cmd_generate(args: argparse.Namespace) -> dict[str, Any]:
    from core.inventory.lab.generator import generate, llm_context, to_jsonl

    scenarios = generate(args.n, args.seed, protocol=args.protocol, risk_neutral=args.risk_neutral)
    if args.llm_context:
        settings = cli_args.provider_settings(args)
        scenarios = [llm_context(settings, s) for s in scenarios]
    out = cli_args.prepare_output_dir(args.out)
    (out / "scenarios.jsonl").write_text(to_jsonl(scenarios), encoding="utf-8")
    for s in scenarios:
        folder = out / s.key
        folder.mkdir(exist_ok=True)
        (folder / "extracted_params.csv").write_text(s.params_csv(), encoding="utf-8")
        (folder / "context.txt").write_text(s.context + "\n", encoding="utf-8")
    splits: dict[str, int] = {}
    for s in scenarios:
        splits[s.split] = splits.get(s.split, 0) + 1
    return {"scenarios": len(scenarios), "splits": splits, "out": str(out)}


def lab_config(args: argparse.Namespace) -> LabConfig:
    """The lab's settings from `lab run`'s options, each named as its `LabConfig` field (`--paths` is
    `copilot_paths`), read as a spec's `[env.lab]` table is; an option left unset keeps its default."""
    from core.inventory.lab.config import LabConfig

    names = LabConfig.__dataclass_fields__
    return LabConfig.from_dict({k: v for k, v in vars(args).items() if k in names and v is not None})


def cmd_run(args: argparse.Namespace) -> dict[str, Any]:
    from core.inventory.lab.generator import load_scenarios
    from core.inventory.lab.lab import run_lab
    from core.inventory.lab.report import record, summary, write_report
    from core.store import Store

    settings = cli_args.provider_settings(args)
    config = lab_config(args)
    scenarios = None
    if args.scenarios:
        scenarios = load_scenarios(Path(args.scenarios), args.scenarios)
    cli_args.prepare_output_dir(args.out)  # before the (long) run: a folder it cannot write is refused now
    store = None if args.no_store else Store(args.db)
    from core.experiments.engines import make_engine

    engine = make_engine(args.engine, workers=config.workers, address=args.address)
    roles = dict(args.role or [])
    result = run_lab(config, settings, scenarios=scenarios, store=store, engine=engine, roles=roles)
    costs = None
    if store is not None and result.experiment_id:  # the experiment report's $ (each role at its own model)
        from core.experiments.report import experiment_costs

        costs = experiment_costs(store, result.experiment_id)[0]
    paths = write_report(result, args.out, costs)
    out = summary(result)
    if store is not None:
        out["experiment_id"] = result.experiment_id
    if costs is not None:
        out["costs"] = [
            {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}
            for row in costs.to_dict("records")
        ]
    out["files"] = {k: str(v) for k, v in paths.items()}
    if store is not None:
        out["run_id"] = record(store, result)
    return out


def cmd_report(args: argparse.Namespace) -> dict[str, Any]:
    from core.inventory.lab.report import load_result, summary, write_report

    result = load_result(args.results)
    paths = write_report(
        result, args.out or (Path(args.results) if Path(args.results).is_dir() else Path(args.results).parent)
    )
    return summary(result) | {"files": {k: str(v) for k, v in paths.items()}}


def _llm_flags(p: argparse.ArgumentParser) -> None:
    cli_args.add_provider_flags(p)
    p.add_argument("--seed", type=cli_args.seed, help="random seed (default 0 for the lab)")


def _scenario_flags(p: argparse.ArgumentParser) -> None:
    """`--protocol/--n/--risk-neutral`: which scenarios `lab generate` writes and `lab run` generates."""
    p.add_argument("--protocol", choices=("paper70", "mixed"), default="paper70")
    p.add_argument("--n", type=scenario_count, help="number of scenarios (paper70: 70 unless given)")
    p.add_argument("--risk-neutral", action="store_true", help="every scenario with risk tolerance 10")


def add_lab_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add `lab` (generate | run | report) to the `inventory` command group."""
    lab = subparsers.add_parser(
        "lab", help="the evaluation lab of seed 000 §3–4 (generator, imitator, treatments)"
    )
    sub = lab.add_subparsers(dest="lab_command", required=True)

    g = sub.add_parser("generate", help="seeded scenarios with their ground-truth extracted_params.csv")
    _scenario_flags(g)
    g.add_argument(
        "--llm-context", action="store_true", help="let the configured LLM write the business contexts"
    )
    g.add_argument("--out", required=True, type=cli_args.output_dir, help="output folder")
    _llm_flags(g)
    g.set_defaults(func=cmd_generate, seed=0)

    r = sub.add_parser("run", help="run the protocol and write the report")
    r.add_argument(
        "--scenarios",
        type=cli_args.input_file,
        help="scenarios.jsonl from `lab generate` (default: generate from the flags)",
    )
    _scenario_flags(r)
    r.add_argument(
        "--treatments",
        default="A,B,C",
        type=cli_args.free_text(20, "a comma-separated subset of A,B,C"),
        help="comma-separated subset of A,B,C",
    )
    r.add_argument("--imitator", choices=("offline", "llm"), default="offline")
    r.add_argument(
        "--noise",
        type=cli_args.number(0.0, MAX_NOISE, what="a noise level"),
        default=1.0,
        help="offline imitator noise level (0 quiet, 1 default, at most 5)",
    )
    r.add_argument(
        "--paths", dest="copilot_paths", type=lab_paths, default=200, help="Copilot optimizer paths"
    )
    r.add_argument(
        "--assessment-paths", type=lab_paths, default=2000, help="common demand paths of the assessment"
    )
    r.add_argument("--families", choices=("full", "paper"), default="full", help="optimizer menu")
    r.add_argument(
        "--capacity-basis",
        choices=("inventory_position", "on_hand"),
        default="inventory_position",
        help="what the storage capacity counts: on-hand + on-order (default) or on-hand only (Appendix A.1)",
    )
    r.add_argument(
        "--day-numbering",
        choices=("from_one", "fig4"),
        default="from_one",
        help="the Copilot's reading of 'day d': step d-1 (default) or step d as in Fig. 4",
    )
    r.add_argument(
        "--workers",
        type=cli_args.whole(1, MAX_LAB_WORKERS, "a whole number of worker processes"),
        default=1,
        help="local worker processes of the experiment engine (at most 16)",
    )
    r.add_argument(
        "--engine", choices=cli_args.ENGINES, default="local", help="local process pool (default) or ray"
    )
    r.add_argument(
        "--address",
        type=cli_args.free_text(200, "a Ray address"),
        help="Ray cluster address HOST:PORT (ray engine; default: start a local instance)",
    )
    r.add_argument("--no-store", action="store_true", help="do not record runs in the store")
    cli_args.add_role_flags(r)  # --role copilot|judge|imitator=provider:model
    r.add_argument("--out", required=True, type=cli_args.output_dir, help="report folder")
    _llm_flags(r)
    r.set_defaults(func=cmd_run)

    p = sub.add_parser("report", help="re-render the report of a saved lab.json")
    p.add_argument(
        "--results", required=True, type=cli_args.input_path, help="a lab.json or the folder holding it"
    )
    p.add_argument("--out", type=cli_args.output_dir, help="report folder (default: next to lab.json)")
    p.set_defaults(func=cmd_report)
