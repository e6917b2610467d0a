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
MIXES = ("single", "multi")  # solvers.lp.dataset.Mix
TRACKS = ("standard", "model-only", "real")  # solvers.lp.env.Track; real: solvers.lp.real (bench only)
FEEDBACK_JUDGES = ("paper", "strict")  # solvers.lp.oracle.Judge


def _data_args(p: argparse.ArgumentParser, dataset: Callable[[str], Path] = cli_args.path_text) -> None:
    p.add_argument("--seed", type=cli_args.seed, default=2, help="data-set seed (default 2)")
    p.add_argument(
        "--dataset",
        type=dataset,
        help="data-set JSON (default artifacts/lp_repair/optirepair_sc2_seed<seed>[_multi].json)",
    )
    p.add_argument(
        "--mix",
        choices=MIXES,
        default="single",
        help="error types per source instance: one (single, the paper's; default) or up to three (multi, "
        "the data set before issue 28)",
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
    p.add_argument(
        "--track",
        choices=TRACKS,
        default="standard",
        help="standard: the agent sees the problem statement and the model (the paper's); model-only: the LP "
        "text and the tools only; real: Netlib's infeasible models (bench only; no ground truth)",
    )
    p.add_argument(
        "--feedback-judge",
        choices=FEEDBACK_JUDGES,
        default="paper",
        help="the judge Phase II's feedback loops and the reward follow: paper (Table 8's checks, the paper's "
        "protocol; default) or strict (plus the demand link and the plan replay)",
    )


def _problems(args: argparse.Namespace):
    from core.repair.data import load_or_generate
    from solvers.lp.dataset import Mix

    def notify(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    return load_or_generate(
        args.seed, args.dataset, problem=getattr(args, "problem", None), notify=notify, mix=Mix(args.mix)
    )


def _agent(args: argparse.Namespace, problem):
    from core.repair.evaluate import make_offline_agent

    real = args.track == "real"
    if args.agent == "llm":
        from core.config import Settings
        from core.repair.llm_agent import make_llm_agent

        return make_llm_agent(Settings.from_env(), fmt=args.format, extended=args.extended, real=real)
    protected = not args.unprotected and not real
    return make_offline_agent(args.agent, problem, protected=protected, extended=args.extended)


def _switches(args: argparse.Namespace) -> dict[str, Any]:
    if args.track == "real":
        return {"protected_rows": False, "extended_actions": False, "track": "real"}
    return {
        "protected_rows": not args.unprotected,
        "extended_actions": args.extended,
        "track": args.track,
        "feedback_judge": args.feedback_judge,
    }


def _env(args: argparse.Namespace, problems: list):
    from solvers.lp.env import LPRepairEnv, Track
    from solvers.lp.oracle import Judge

    return LPRepairEnv(
        problems,
        protected=not args.unprotected,
        extended=args.extended,
        track=Track(args.track),
        feedback_judge=Judge(args.feedback_judge),
    )


def cmd_generate(args: argparse.Namespace) -> dict:
    from core.repair.data import dataset_path
    from solvers.lp.dataset import Mix, generate, save
    from solvers.lp.errortypes import ErrorType

    started = time.perf_counter()
    counts = {e: (args.small, args.small) for e in ErrorType} if args.small else None
    mix = Mix(args.mix)
    problems, stats = generate(seed=args.seed, counts=counts, mix=mix)
    path = save(problems, args.dataset or dataset_path(args.seed, mix), stats)
    counts: dict[str, dict[str, int]] = {}
    for p in problems:
        counts.setdefault(p.error_type.value, {"train": 0, "test": 0})[p.split] += 1
    iis_rows = [sum(" " not in m for m in p.iis0) for p in problems if p.iis0]
    return {
        "path": str(path),
        "mix": mix.value,
        "sources_used": len({p.source for p in problems}),
        "iis_rows_mean": round(sum(iis_rows) / len(iis_rows), 2) if iis_rows else None,
        "problems": len(problems),
        "train": sum(p.split == "train" for p in problems),
        "test": sum(p.split == "test" for p in problems),
        "per_type": counts,
        "stats": stats.to_dict(),
        "seconds": round(time.perf_counter() - started, 2),
    }


def cmd_solve(args: argparse.Namespace) -> dict:
    from solvers.lp.analyze import RepairOptions, analyze, apply_changes, read_model

    if bool(args.file) == bool(args.problem):
        raise SpecError("--problem", "give a data-set problem id (--problem) or a model file (--file)")
    options = RepairOptions(
        hard=tuple(args.hard or ()),
        weights=tuple(args.weight or ()),
        bounds=not args.rows_only,
        fewest_seconds=args.fewest_seconds,
        protected=not args.unprotected,
    )
    if args.file:
        model = read_model(args.file)
        if args.relax_integrality and model.is_mip():
            model.relax_integrality()
        report = analyze(model, options)
        out = {"file": str(args.file), **report.to_dict()}
    else:
        from core.repair.data import find

        problem = find(_problems(args), args.problem)
        model = problem.build()
        report = analyze(model, options)
        out = {
            "problem": problem.id,
            "size": problem.size,
            "description": problem.description,
            **report.to_dict(),
        }
    if args.repair_out:
        best = report.best()
        if best is None:
            raise SpecError("--repair-out", "no verified repair to write (the JSON says why)")
        if args.repair_out.suffix.lower() not in (".mps", ".lp"):
            raise SpecError("--repair-out", "name the repaired model .mps or .lp")
        apply_changes(model, best.changes)
        model.h.writeModel(str(args.repair_out))
        out["repair_out"] = {"path": str(args.repair_out), "label": best.label, "status": best.status.value}
    return out


def cmd_run(args: argparse.Namespace) -> dict:
    from core.recorder import Recorder
    from core.repair.data import find
    from core.repair.evaluate import run_problem
    from core.store import Store

    if args.track == "real":
        raise SpecError("--track", "the real track runs through `repair bench --track real` (Netlib's models)")
    problems = _problems(args)
    problem = find(problems, args.problem)
    agent = _agent(args, problem)
    env = _env(args, [problem])
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
    out = {"problem": problem.id, "agent": agent.name, "switches": _switches(args), "verdict": verdict, **row}
    if args.out is not None:
        fmt = "lp" if args.out.suffix.lower() == ".lp" else "mps"
        args.out.write_text(env.current_model().to_text(fmt))
        out["model_file"] = str(args.out)
    return out


def cmd_bench(args: argparse.Namespace) -> dict:
    from core.repair.data import select
    from core.repair.evaluate import run_problem
    from core.repair.metrics import summarize
    from solvers.lp.oracle import Judge

    if args.track == "real":
        return _bench_real(args)
    chosen = select(_problems(args), split=args.split, types=args.types, limit=args.limit)
    env = _env(args, chosen)
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


def _bench_real(args: argparse.Namespace) -> dict:
    """The real track: each Netlib infeasible model once (`--limit N`: the first N), no ground truth."""
    from core.repair.evaluate import REAL_AGENTS, run_real
    from core.repair.metrics import summarize_real
    from solvers.lp.real import REAL_MODELS, RealRepairEnv

    if args.agent not in REAL_AGENTS:
        raise SpecError("--agent", f"on the real track use one of {', '.join(REAL_AGENTS)} (no ground truth)")
    names = list(REAL_MODELS[: args.limit] if args.limit else REAL_MODELS)
    env = RealRepairEnv(names)
    started = time.perf_counter()
    rows, name = [], ""
    for model in names:
        agent = _agent(args, None)
        name = agent.name
        rows.append(run_real(env, agent, model))
    return {
        "agent": name,
        "split": "real",
        "problems": len(names),
        "switches": _switches(args),
        "seconds": round(time.perf_counter() - started, 2),
        **summarize_real(rows),
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
    solve.add_argument(
        "--hard",
        nargs="*",
        type=cli_args.free_text(cli_args.MAX_ID_CHARS, "a row, column or family name"),
        help="rows, columns or name families (stems: BBB for BBB1...) never relaxed",
    )
    solve.add_argument(
        "--weight",
        nargs="*",
        type=cli_args.name_weight,
        metavar="NAME=W",
        help="price of relaxing a row, column or family (default 1)",
    )
    solve.add_argument("--rows-only", action="store_true", help="never move column bounds")
    solve.add_argument(
        "--unprotected",
        action="store_true",
        help="on a model with the lab's names, allow relaxing balance, backorder-cap and supply-cap rows",
    )
    solve.add_argument(
        "--fewest-seconds",
        type=cli_args.seconds,
        default=2.0,
        help="time limit of the fewest-changes search (default 2; 'best found' when hit)",
    )
    solve.add_argument(
        "--repair-out", type=cli_args.output_file, help="write the best verified repaired model (.mps or .lp)"
    )
    solve.set_defaults(func=cmd_solve)

    run = sub.add_parser("run", help="one repair episode of an agent on one problem")
    _data_args(run)
    run.add_argument("--problem", required=True, type=cli_args.identifier, help="data-set problem id")
    _switch_args(run)
    run.add_argument("--no-record", action="store_true", help="do not write the run to the store")
    run.add_argument(
        "--out",
        type=cli_args.output_file,
        metavar="PATH",
        help="write the episode's final model to PATH (MPS; CPLEX-LP text when PATH ends in .lp)",
    )
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
        "--limit",
        type=cli_args.whole(1, 1_000_000),
        help="at most this many problems per error type (real track: the first N models)",
    )
    bench.add_argument(
        "--judge",
        choices=JUDGES,
        default="both",
        help="RRR under the paper's checks, the strict judge (plus the demand link) or both (default)",
    )
    _switch_args(bench)
    bench.set_defaults(func=cmd_bench)
