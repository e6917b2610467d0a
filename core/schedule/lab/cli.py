"""`python -m core.cli schedule lab utilities|run|report` (hooked into core/schedule/cli.py)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from core import cli_args
from core.errors import SpecError, StoreError
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import Feedback, Style
from core.schedule.lab.llm_decision import AUTO, PROVIDERS, DecisionAgentSpec, Template
from core.schedule.lab.report import lab_report
from core.schedule.lab.utilities import UNIQUE_UTILITIES_PATH, UTILITIES_PATH, generate, utility_set
from solvers.schedule.utility import GeneratorSpec

MAX_SAMPLES = 100_000  # simplex samples per (L, R) cell: about 10 s of generation (1,000,000: over a minute)
MAX_LAB_TURNS = 200  # turns of one lab conversation (the paper's limit is 20)
MAX_UTILITIES = 10_000  # "the first N utilities" (the shipped set has about 100)
WORKBENCH = "school_scheduling"
TIE_RULES = {
    False: "default: the target is the only maximiser among its school's candidates; other schedules may tie "
    "at U* (not the paper's rule)",
    True: "unique: the target is the only maximiser over all 59,049 schedules (the paper's App. 10.2 rule)",
}


UNIQUE_HELP = (
    "the paper's strict tie rule: utilities whose target is the only maximiser over all schedules (92 at seed "
    "3; default: 102, other schedules may tie)"
)


def utilities_command(args: argparse.Namespace) -> dict[str, Any]:
    if args.generate:
        document = generate(GeneratorSpec(seed=args.seed, samples=args.samples, unique=args.unique))
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        utilities = document["utilities"]
        source = str(args.out) if args.out else "(not written; pass --out)"
    else:
        utilities = [u.to_json() for u in utility_set(unique=args.unique)]
        source = str(UNIQUE_UTILITIES_PATH if args.unique else UTILITIES_PATH)
    return {
        "source": source,
        "tie_rule": TIE_RULES[bool(args.unique)],
        "count": len(utilities),
        "decision_agents": 4 * len(utilities),
        "by_school": dict(Counter(u["school"] for u in utilities)),
        "by_role": dict(Counter(u["role"] for u in utilities)),
        "utilities": utilities if args.all else utilities[:5],
    }


def decision_spec(args: argparse.Namespace) -> DecisionAgentSpec:
    """Offline decision agents, or LLM ones with --decision-provider (model: --decision-model or the default)."""
    if not args.decision_provider:
        return DecisionAgentSpec(field="--decision-provider")
    from core.config import DEFAULT_MODELS

    return DecisionAgentSpec(
        kind="llm",
        provider=args.decision_provider,
        model=args.decision_model or DEFAULT_MODELS[args.decision_provider],
        template=args.decision_template,
        field="--decision",
    )


def spec_dict(args: argparse.Namespace) -> dict[str, Any]:
    """The spec of `schedule lab run` (`experiment.lab_spec`, which the page builds too)."""
    from core.schedule.lab.experiment import lab_spec

    return lab_spec(
        args.paradigm or [Paradigm.CONVERSATION.value],
        utilities=args.utilities,
        styles=args.style,
        feedbacks=args.feedback,
        max_turns=args.max_turns,
        seed=args.seed,
        name=args.name,
        decision=decision_spec(args),
        roles=dict(getattr(args, "role", None) or []),  # --role decision=provider:model (and optimizer)
        unique=bool(getattr(args, "unique", False)),
    )


def run_command(args: argparse.Namespace) -> dict[str, Any]:
    from core.experiments.driver import run_experiment
    from core.experiments.engines import make_engine
    from core.experiments.spec import from_dict
    from core.store import Store

    spec = from_dict(spec_dict(args))
    store = Store(args.db)
    engine = make_engine(args.engine, workers=args.workers)
    summary = run_experiment(spec, store, engine=engine, progress=not args.quiet)
    report = lab_report(store, spec.experiment_id)
    return {"summary": summary.as_dict(), "report": report}


def report_command(args: argparse.Namespace) -> dict[str, Any]:
    """Tables 2-4 of a stored lab experiment; an unknown id (or a store that does not exist) is refused."""
    from core.store import Store

    if not cli_args.check_store_path(args.db, explicit=getattr(args, "db_explicit", False), create=False):
        raise SpecError(
            "EXPERIMENT", f"no experiment {args.experiment_id!r}: there is no run store at {args.db}"
        )
    store = Store(args.db)
    try:
        experiment = store.get_experiment(args.experiment_id)
    except StoreError:
        raise SpecError(
            "EXPERIMENT", f"no experiment {args.experiment_id!r} in {args.db} (list them: experiment list)"
        ) from None
    if experiment.get("workbench") != WORKBENCH:
        raise SpecError(
            "EXPERIMENT",
            f"experiment {args.experiment_id!r} is a {experiment.get('workbench')} experiment, not a school "
            "scheduling lab experiment (use: experiment report)",
        )
    return lab_report(store, args.experiment_id)


def register_lab(commands: argparse._SubParsersAction) -> None:
    """Add `schedule lab` with utilities, run and report."""
    lab = commands.add_parser(
        "lab", help="evaluation lab: decision agents with hidden utilities (seed 003 §4-5)"
    )
    sub = lab.add_subparsers(title="lab commands", dest="lab_command", metavar="COMMAND", required=True)

    utilities = sub.add_parser("utilities", help="the shipped utility set (or --generate a fresh one)")
    utilities.add_argument("--generate", action="store_true", help="run the Appendix 10.2 generator")
    utilities.add_argument(
        "--seed", type=cli_args.seed, default=3, help="generator seed (default 3, the shipped set)"
    )
    utilities.add_argument(
        "--samples",
        type=cli_args.whole(1, MAX_SAMPLES, "a whole number of samples"),
        default=10_000,
        help="simplex samples per (L, R) cell (default 10,000; at most 100,000)",
    )
    utilities.add_argument("--out", type=cli_args.output_file, help="write the generated set here (JSON)")
    utilities.add_argument("--all", action="store_true", help="list every utility (default: the first 5)")
    utilities.add_argument("--unique", action="store_true", help=UNIQUE_HELP)
    utilities.set_defaults(func=utilities_command)

    run = sub.add_parser(
        "run", help="run the offline T-P-P against the offline (or --decision-provider LLM) decision agents"
    )
    run.add_argument("--paradigm", action="append", choices=[p.value for p in Paradigm], help="repeatable")
    run.add_argument(
        "--utilities",
        type=cli_args.whole_or(("all",), 1, MAX_UTILITIES, "a whole number of utilities"),
        default="all",
        help='"all" (default) or the first N utilities',
    )
    run.add_argument("--style", action="append", choices=[s.value for s in Style])
    run.add_argument("--feedback", action="append", choices=[f.value for f in Feedback])
    run.add_argument(
        "--max-turns",
        type=cli_args.whole(1, MAX_LAB_TURNS, "a whole number of turns"),
        default=20,
        help="turns of one conversation (default 20; 1 to 200)",
    )
    run.add_argument("--seed", type=cli_args.seed, default=0)
    run.add_argument("--unique", action="store_true", help=UNIQUE_HELP)
    run.add_argument(
        "--name", type=cli_args.label, help="experiment name (default: derived from the paradigms and time)"
    )
    run.add_argument(
        "--decision-provider", choices=list(PROVIDERS), help="LLM decision agents (key from the environment)"
    )
    run.add_argument(
        "--decision-model",
        type=cli_args.model_name,
        help="model of the LLM decision agents (default: the provider's)",
    )
    run.add_argument(
        "--decision-template",
        choices=[AUTO, *(t.value for t in Template)],
        default=AUTO,
        help="prompt template",
    )
    cli_args.add_engine_flags(run)
    cli_args.add_role_flags(run)  # --role decision=provider:model: the decision agents' model (with its key)
    run.set_defaults(func=run_command)

    report = sub.add_parser("report", help="Tables 2-4 of a lab experiment with one-sided paired tests")
    report.add_argument("experiment_id", metavar="EXPERIMENT", type=cli_args.identifier)
    report.set_defaults(func=report_command)
