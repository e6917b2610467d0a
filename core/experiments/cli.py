"""The `experiment` CLI group: run (or resume) a spec, show an experiment's status, report it, list them."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from typing import Any

import pandas as pd

from core import cli_args
from core.errors import OrcaError, SpecError, StoreError
from core.experiments.driver import estimate, run_experiment
from core.experiments.engines import make_engine
from core.experiments.report import FORMATS, build_report, to_markdown, write_report
from core.experiments.spec import ExperimentSpec, from_dict, load_spec, with_roles
from core.store import Store


def _spec(target: str, db: str) -> ExperimentSpec:
    """The spec in file `target`, or the stored spec of the experiment whose id is `target` (to resume it)."""
    if Path(target).is_file():
        return load_spec(target)
    try:
        return from_dict(Store(db).get_experiment(target)["spec"])
    except StoreError:
        raise SpecError(
            "SPEC", f"{target!r} is neither a spec file nor the id of a stored experiment (`experiment list`)"
        ) from None


def _run(args: argparse.Namespace) -> dict[str, Any]:
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C (and the Experiments page's Stop, a SIGINT) must stop the run even when the parent ignored SIGINT
        # (nohup, a test runner): an ignored SIGINT is inherited, and Python then installs no KeyboardInterrupt.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    spec = with_roles(_spec(args.spec, args.db), dict(args.role or []))
    if args.dry_run:
        return {"dry_run": True, "name": spec.name, **estimate(spec, Store(args.db))}
    engine = make_engine(args.engine, workers=args.workers, address=args.address)
    try:
        summary = run_experiment(
            spec,
            Store(args.db),
            engine=engine,
            progress=not args.quiet,
            cache=args.cache,
            budget_usd=args.budget,
        )
    except KeyboardInterrupt:
        raise OrcaError(
            f"experiment {spec.experiment_id} interrupted; the cells finished so far are stored — run the same "
            "spec again to finish it"
        ) from None
    out = {
        **summary.as_dict(),
        "name": spec.name,
        "engine": args.engine,
        "workers": args.workers,
        "cache": args.cache,
    }
    if args.report:  # the report of what is stored so far (the paper's tables included), in the same command
        out["markdown"] = to_markdown(build_report(Store(args.db), spec.experiment_id))
    return out


def _status(args: argparse.Namespace) -> dict[str, Any]:
    store = Store(args.db)
    experiment = store.get_experiment(args.experiment_id)
    cells = store.cells(args.experiment_id)
    failed = cells[cells["status"] == "failed"]
    return {
        **{k: v for k, v in experiment.items() if k != "spec"},
        "pending": int((cells["status"] == "pending").sum()),
        "failed_cells": failed[["cell_key", "attempts", "error"]].to_dict("records"),
    }


def _report(args: argparse.Namespace) -> dict[str, Any]:
    report = build_report(Store(args.db), args.experiment_id)
    if args.format == "md" and not args.out:
        return {"experiment_id": args.experiment_id, "format": "md", "markdown": to_markdown(report)}
    files = write_report(report, args.format, args.out)
    return {"experiment_id": args.experiment_id, "format": args.format, "files": [str(f) for f in files]}


def _list(args: argparse.Namespace) -> pd.DataFrame:
    return Store(args.db).list_experiments(limit=args.limit)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `experiment` group."""
    commands = cli_args.command_group(
        subparsers, "experiment", "batch experiments: run specs, status, reports"
    )

    run = commands.add_parser("run", help="run a TOML spec (rerunning it resumes: done cells are skipped)")
    run.add_argument(
        "spec",
        metavar="SPEC",
        type=cli_args.free_text(cli_args.MAX_PATH_CHARS, "a spec file or an experiment id"),
        help="path of the experiment spec (TOML), or a stored experiment's id",
    )
    cli_args.add_engine_flags(run)
    cli_args.add_cache_flags(run)
    cli_args.add_cost_flags(run)
    cli_args.add_role_flags(run)
    run.add_argument(
        "--address",
        type=cli_args.free_text(200, "a Ray address"),
        help="Ray cluster address HOST:PORT (ray engine; must answer within 5 s; default: start a local instance)",
    )
    run.add_argument(
        "--report",
        action="store_true",
        help="after the run, add the markdown report (the paper's tables first) to the output, as `experiment "
        "report ID` prints it",
    )
    run.set_defaults(func=_run)

    cli_args.id_command(
        commands,
        "status",
        "cell counts and failed cells of an experiment",
        _status,
        dest="experiment_id",
        metavar="ID",
    )

    report = cli_args.id_command(
        commands,
        "report",
        "statistics tables as markdown, CSV or Parquet",
        _report,
        dest="experiment_id",
        metavar="ID",
    )
    report.add_argument("--format", choices=FORMATS, default="md")
    report.add_argument(
        "--out",
        type=cli_args.path_text,
        help="md: a file (default: print); csv/parquet: a folder (one file per table)",
    )

    listing = commands.add_parser("list", help="every experiment, newest first")
    listing.add_argument("--limit", type=cli_args.list_limit, default=200)
    listing.set_defaults(func=_list)
