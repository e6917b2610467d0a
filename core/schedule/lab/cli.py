"""`python -m core.cli schedule lab utilities|run|report` (hooked into core/schedule/cli.py)."""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import Feedback, Style
from core.schedule.lab.llm_decision import AUTO, PROVIDERS, DecisionAgentSpec, Template
from core.schedule.lab.report import lab_report
from core.schedule.lab.utilities import UTILITIES_PATH, generate, load_utilities
from solvers.schedule.utility import GeneratorSpec


def utilities_command(args: argparse.Namespace) -> dict[str, Any]:
    if args.generate:
        document = generate(GeneratorSpec(seed=args.seed, samples=args.samples))
        if args.out:
            Path(args.out).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        utilities = document["utilities"]
        source = args.out or "(not written; pass --out)"
    else:
        utilities = [u.to_json() for u in load_utilities()]
        source = str(UTILITIES_PATH)
    return {
        "source": source,
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
    utilities: Any = args.utilities if args.utilities == "all" else int(args.utilities)
    paradigms = args.paradigm or [Paradigm.CONVERSATION.value]
    decision = decision_spec(args)
    return {
        "name": args.name or f"schedule_lab_{'_'.join(paradigms)}_{time.strftime('%Y%m%d_%H%M%S')}",
        "description": f"Decision agents: {decision.label}. Optimization agent: the offline T-P-P (not an LLM).",
        "workbench": "school_scheduling",
        "seeds": [args.seed],
        "metric": "score",
        "goal": "max",
        "env": {
            "utilities": utilities,
            "styles": args.style or [s.value for s in Style],
            "feedbacks": args.feedback or [f.value for f in Feedback],
            "max_turns": args.max_turns,
            "decision": decision.as_config(),
        },
        "agents": [
            {"name": f"tpp_{p}", "kind": "offline", "design": "T-P-P", "paradigm": p} for p in paradigms
        ],
    }


def run_command(args: argparse.Namespace) -> dict[str, Any]:
    from core.experiments.driver import run_experiment
    from core.experiments.engines import LocalEngine
    from core.experiments.spec import from_dict
    from core.store import Store

    if args.utilities != "all" and not str(args.utilities).isdigit():
        raise SpecError("--utilities", 'use "all" or a count')
    spec = from_dict(spec_dict(args))
    if args.engine == "ray":
        from core.experiments.engines import RayEngine

        engine: Any = RayEngine(workers=args.workers)
    else:
        engine = LocalEngine(workers=args.workers)
    store = Store(args.db)
    summary = run_experiment(spec, store, engine=engine, progress=not args.quiet)
    report = lab_report(store, spec.experiment_id)
    return {"summary": summary.as_dict(), "report": report}


def report_command(args: argparse.Namespace) -> dict[str, Any]:
    from core.store import Store

    return lab_report(Store(args.db), args.experiment_id)


def register_lab(commands: argparse._SubParsersAction) -> None:
    """Add `schedule lab` with utilities, run and report."""
    lab = commands.add_parser(
        "lab", help="evaluation lab: decision agents with hidden utilities (seed 003 §4-5)"
    )
    sub = lab.add_subparsers(title="lab commands", dest="lab_command", metavar="COMMAND", required=True)

    utilities = sub.add_parser("utilities", help="the shipped utility set (or --generate a fresh one)")
    utilities.add_argument("--generate", action="store_true", help="run the Appendix 10.2 generator")
    utilities.add_argument("--seed", type=int, default=3, help="generator seed (default 3, the shipped set)")
    utilities.add_argument("--samples", type=int, default=10_000, help="simplex samples per (L, R) cell")
    utilities.add_argument("--out", help="write the generated set here (JSON)")
    utilities.add_argument("--all", action="store_true", help="list every utility (default: the first 5)")
    utilities.set_defaults(func=utilities_command)

    run = sub.add_parser(
        "run", help="run the offline T-P-P against the offline (or --decision-provider LLM) decision agents"
    )
    run.add_argument("--paradigm", action="append", choices=[p.value for p in Paradigm], help="repeatable")
    run.add_argument("--utilities", default="all", help='"all" (default) or the first N utilities')
    run.add_argument("--style", action="append", choices=[s.value for s in Style])
    run.add_argument("--feedback", action="append", choices=[f.value for f in Feedback])
    run.add_argument("--max-turns", type=int, default=20)
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--name", help="experiment name (default: derived from the paradigms and time)")
    run.add_argument(
        "--decision-provider", choices=list(PROVIDERS), help="LLM decision agents (key from the environment)"
    )
    run.add_argument("--decision-model", help="model of the LLM decision agents (default: the provider's)")
    run.add_argument(
        "--decision-template",
        choices=[AUTO, *(t.value for t in Template)],
        default=AUTO,
        help="prompt template",
    )
    run.add_argument("--engine", choices=["local", "ray"], default="local")
    run.add_argument("--workers", type=int, default=2)
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(func=run_command)

    report = sub.add_parser("report", help="Tables 2-4 of a lab experiment with one-sided paired tests")
    report.add_argument("experiment_id")
    report.set_defaults(func=report_command)
