"""`python -m core.cli repair ...`: generate, solve, run and bench (the LP Repair Lab from the shell).

* `generate` — build (or rebuild) the 976-problem data set and print its statistics.
* `solve`    — status, IIS by family and minimal repair candidates of a data-set problem or an .mps/.lp file.
* `run`      — one episode of an agent on one problem (recorded in the run store unless --no-record).
* `bench`    — an agent over a split: RR, RRR, P2Pass, RR@k, diagnosis P/R, overall and per error type.
Every report names the agent (offline stand-ins say so) and the protected-rows / extended-actions switches.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core import cli_args
from core.errors import SpecError

WORKBENCH = "lp_repair"
AGENTS = ("offline", "diagnostician", "greedy", "ground-truth", "do-nothing", "llm")
MAX_SMALL = 100  # --small N: N train and N test problems per type (the full set has at most 89 per type)
MAX_TYPE_CHARS = 20  # an error type such as ME-10
JUDGES = ("paper", "strict", "both")
JUDGE_KEYS = {"paper": "rational", "strict": "rational_strict"}  # judge -> episode metric


def _data_args(p: argparse.ArgumentParser, dataset: Callable[[str], Path] = cli_args.path_text) -> None:
    p.add_argument("--seed", type=cli_args.seed, default=2, help="data-set seed (default 2)")
    p.add_argument(
        "--dataset",
        type=dataset,
        help="data-set JSON (default artifacts/lp_repair/optirepair_sc_seed<seed>.json)",
    )


def _switch_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--agent",
        choices=AGENTS,
        default="offline",
        help="offline = the statement-diff reference (upper bound of what the statement alone reveals); "
        "diagnostician = the offline agent that works from the IIS, the Farkas ray, names and the stated numbers",
    )
    p.add_argument("--format", choices=("think", "json"), default="think", help="LLM reply format")
    p.add_argument("--extended", action="store_true", help="extended action set (UPDATE_COEF); off = paper")
    p.add_argument("--unprotected", action="store_true", help="let agents drop/relax balance and cap rows")


def _problems(args: argparse.Namespace):
    from core.repair.data import load_or_generate

    def notify(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    return load_or_generate(args.seed, args.dataset, problem=getattr(args, "problem", None), notify=notify)


def _agent(args: argparse.Namespace, problem):
    from core.repair.evaluate import make_offline_agent

    if args.agent == "llm":
        from core.config import Settings
        from core.repair.llm_agent import make_llm_agent

        return make_llm_agent(Settings.from_env(), fmt=args.format, extended=args.extended)
    return make_offline_agent(args.agent, problem, protected=not args.unprotected, extended=args.extended)


def _switches(args: argparse.Namespace) -> dict[str, Any]:
    return {"protected_rows": not args.unprotected, "extended_actions": args.extended}


def cmd_generate(args: argparse.Namespace) -> dict:
    from core.repair.data import dataset_path
    from solvers.lp.dataset import generate, save
    from solvers.lp.errortypes import ErrorType

    started = time.perf_counter()
    counts = {e: (args.small, args.small) for e in ErrorType} if args.small else None
    problems, stats = generate(seed=args.seed, counts=counts)
    path = save(problems, args.dataset or dataset_path(args.seed), stats)
    counts: dict[str, dict[str, int]] = {}
    for p in problems:
        counts.setdefault(p.error_type.value, {"train": 0, "test": 0})[p.split] += 1
    return {
        "path": str(path),
        "problems": len(problems),
        "train": sum(p.split == "train" for p in problems),
        "test": sum(p.split == "test" for p in problems),
        "per_type": counts,
        "stats": stats.to_dict(),
        "seconds": round(time.perf_counter() - started, 2),
    }


def cmd_solve(args: argparse.Namespace) -> dict:
    from solvers.lp.analyze import analyze, read_model

    if bool(args.file) == bool(args.problem):
        raise SpecError("--problem", "give a data-set problem id (--problem) or a model file (--file)")
    if args.file:
        model = read_model(args.file)
        if args.relax_integrality and model.is_mip():
            model.relax_integrality()
        return {"file": str(args.file), **analyze(model).to_dict()}
    from core.repair.data import find

    problem = find(_problems(args), args.problem)
    out = analyze(problem.build()).to_dict()
    return {"problem": problem.id, "size": problem.size, "description": problem.description, **out}


def cmd_run(args: argparse.Namespace) -> dict:
    from core.recorder import Recorder
    from core.repair.data import find
    from core.repair.evaluate import run_problem
    from core.store import Store
    from solvers.lp.env import LPRepairEnv

    problems = _problems(args)
    problem = find(problems, args.problem)
    agent = _agent(args, problem)
    env = LPRepairEnv([problem], protected=not args.unprotected, extended=args.extended)
    recorder = None
    if not args.no_record:
        config = {"problem": problem.id, "agent": agent.name, "dataset_seed": args.seed, **_switches(args)}
        recorder = Recorder(
            Store(args.db), WORKBENCH, config=config, seed=0, title=f"{problem.id} · {agent.name}"
        )
    row = run_problem(env, agent, problem, recorder=recorder)
    judges = JUDGE_KEYS if args.judge == "both" else {args.judge: JUDGE_KEYS[args.judge]}
    verdict = {name: bool(row.get(key)) for name, key in judges.items()}
    verdict["exact"] = bool(row.get("exact_repair"))
    return {"problem": problem.id, "agent": agent.name, "switches": _switches(args), "verdict": verdict, **row}


def cmd_bench(args: argparse.Namespace) -> dict:
    from core.repair.data import select
    from core.repair.evaluate import run_problem
    from core.repair.metrics import summarize
    from solvers.lp.env import LPRepairEnv
    from solvers.lp.oracle import Judge

    chosen = select(_problems(args), split=args.split, types=args.types, limit=args.limit)
    env = LPRepairEnv(chosen, protected=not args.unprotected, extended=args.extended)
    started = time.perf_counter()
    rows = []
    name = ""
    for p in chosen:
        agent = _agent(args, p)
        name = agent.name
        rows.append(run_problem(env, agent, p))
    judges = tuple(Judge) if args.judge == "both" else (Judge(args.judge),)
    summary = summarize(rows, judges)
    return {
        "agent": name,
        "split": args.split,
        "judges": [j.value for j in judges],
        "problems": len(chosen),
        "switches": _switches(args),
        "seconds": round(time.perf_counter() - started, 2),
        **summary,
    }


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `repair` group."""
    sub = cli_args.command_group(
        subparsers, "repair", "LP Repair Lab: infeasible supply-chain LPs (seed 002)"
    )

    gen = sub.add_parser("generate", help="generate the 976-problem data set (deterministic)")
    _data_args(gen, cli_args.output_file)
    gen.add_argument(
        "--small",
        type=cli_args.whole(1, MAX_SMALL, "a whole number of problems"),
        metavar="N",
        help="only N train and N test problems per error type (1 to 100)",
    )
    gen.set_defaults(func=cmd_generate)

    solve = sub.add_parser("solve", help="status, IIS and repair candidates of a problem or an .mps/.lp file")
    _data_args(solve)
    solve.add_argument("--problem", type=cli_args.identifier, help="data-set problem id")
    solve.add_argument("--file", type=cli_args.input_file, help="your own .mps or .lp model")
    solve.add_argument("--relax-integrality", action="store_true", help="analyse a MIP's LP relaxation")
    solve.set_defaults(func=cmd_solve)

    run = sub.add_parser("run", help="one repair episode of an agent on one problem")
    _data_args(run)
    run.add_argument("--problem", required=True, type=cli_args.identifier, help="data-set problem id")
    _switch_args(run)
    run.add_argument("--no-record", action="store_true", help="do not write the run to the store")
    run.add_argument(
        "--judge",
        choices=JUDGES,
        default="both",
        help="verdict under the paper's checks, the strict judge (plus the demand link) or both (default)",
    )
    run.set_defaults(func=cmd_run)

    bench = sub.add_parser("bench", help="an agent over a split: RR, RRR, P2Pass, RR@k per error type")
    _data_args(bench)
    bench.add_argument("--split", choices=("train", "test", "all"), default="test")
    bench.add_argument(
        "--types",
        nargs="*",
        type=cli_args.free_text(MAX_TYPE_CHARS, "an error type"),
        help="only these error types (ME-1 ... ME-10)",
    )
    bench.add_argument(
        "--limit", type=cli_args.whole(1, 1_000_000), help="at most this many problems per error type"
    )
    bench.add_argument(
        "--judge",
        choices=JUDGES,
        default="both",
        help="RRR under the paper's checks, the strict judge (plus the demand link) or both (default)",
    )
    _switch_args(bench)
    bench.set_defaults(func=cmd_bench)
