"""The Policy Simulator's commands: `python -m core.cli inventory optimize|evaluate|dp|order` (the seed-000
engine from the shell).

Each command is added by one `_add_<command>` function; `COMMANDS` lists them and `core/inventory/cli.py`
adds them to the `inventory` group. Handlers return JSON-able objects that `core/cli.py` prints; `OrcaError`s
become exit code 2 with the message.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from core import cli_args
from core.errors import SpecError
from core.inventory.table import problem_from_csv
from solvers.inventory.distribution import MAX_UNITS

# The engine (numpy, torch) is imported inside the handlers so that `python -m core.cli` starts fast.


def _params(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--params",
        required=True,
        type=cli_args.input_file,
        help="extracted_params.csv (columns parameter,value,unit,status)",
    )


MAX_DQN_STEPS = 10_000_000
dqn_steps = cli_args.whole(1, MAX_DQN_STEPS, "a whole number of steps")
units = cli_args.whole(0, MAX_UNITS, "a whole number of units")
signed_units = cli_args.whole(-MAX_UNITS, MAX_UNITS, "a whole number of units")
MAX_PIPELINE_CHARS = 10_000  # --pipeline: the lead time's outstanding orders, comma-separated
pipeline = cli_args.free_text(MAX_PIPELINE_CHARS, "a comma-separated list of orders")


def cmd_optimize(args: argparse.Namespace) -> dict:
    from solvers.inventory.agent import optimize
    from solvers.inventory.dqn import DQNConfig

    problem = problem_from_csv(Path(args.params))
    config = DQNConfig(steps=args.dqn_steps, seconds=args.dqn_seconds)
    out = cli_args.prepare_output_dir(args.out)
    result = optimize(problem, args.paths, args.seed, not args.no_dqn, out_dir=out, dqn_config=config)
    return result.summary()


def _add_optimize(sub) -> None:
    p = sub.add_parser("optimize", help="run the Optimization Agent and write deployment_artifacts/")
    _params(p)
    p.add_argument(
        "--out",
        required=True,
        type=cli_args.output_dir,
        help="directory for config.json, dqn_weights.pth, policy_evaluation_results.csv",
    )
    p.add_argument("--seed", type=cli_args.seed, default=0)
    p.add_argument(
        "--paths", type=cli_args.paths, default=1000, help="Monte Carlo paths of the policy search"
    )
    p.add_argument("--no-dqn", action="store_true", help="skip DQN training")
    p.add_argument("--dqn-steps", type=dqn_steps, default=3000, help="DQN training budget in vector steps")
    p.add_argument(
        "--dqn-seconds", type=cli_args.seconds, default=60.0, help="DQN training budget in seconds"
    )
    p.set_defaults(func=cmd_optimize)


def _policy(args: argparse.Namespace):
    from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy

    def need(name: str) -> int:
        value = getattr(args, name)
        if value is None:
            raise SpecError(name, f"--{name} is required for --policy {args.policy}")
        return value

    if args.policy == "sS":
        return SSPolicy(need("s"), need("S"), args.cutoff)
    if args.policy == "base-stock":
        return BaseStockPolicy(need("S"), args.cap, args.cutoff)
    if args.policy == "constant":
        return ConstantPolicy(need("q"), args.cutoff)
    return RQPolicy(need("R"), need("Q"), args.cutoff)


def _within_limits(args: argparse.Namespace, problem) -> None:
    """Refuse levels the simulator would silently truncate: stock above the max inventory, orders above the
    max order (every order is clipped to both, so such a rule would not be the one simulated)."""
    caps = {"S": ("max inventory", problem.max_inventory), "s": ("max inventory", problem.max_inventory)}
    caps |= {"R": ("max inventory", problem.max_inventory)}
    caps |= {k: ("max order", problem.max_order) for k in ("q", "Q", "cap")}
    for name, (what, limit) in caps.items():
        value = getattr(args, name)
        if value is not None and value > limit:
            raise SpecError(
                name,
                f"{value:,} is above the {what} ({limit:,}); the simulator caps every order there, so the rule "
                f"would be truncated. Use at most {limit:,}",
            )


def cmd_evaluate(args: argparse.Namespace) -> dict:
    from solvers.inventory.montecarlo import evaluate_policy

    problem = problem_from_csv(Path(args.params))
    _within_limits(args, problem)
    return evaluate_policy(problem, _policy(args), args.paths, args.seed).summary()


def _add_evaluate(sub) -> None:
    p = sub.add_parser("evaluate", help="Monte Carlo cost of one policy")
    _params(p)
    p.add_argument("--policy", required=True, choices=("sS", "base-stock", "constant", "rq"))
    for name in ("s", "S", "q", "R", "Q", "cap"):
        p.add_argument(f"--{name}", type=units, default=None)
    p.add_argument(
        "--cutoff", action="store_true", help="no orders that cannot arrive before the horizon ends"
    )
    p.add_argument("--paths", type=cli_args.paths, default=10_000)
    p.add_argument("--seed", type=cli_args.seed, default=0)
    p.set_defaults(func=cmd_evaluate)


def cmd_dp(args: argparse.Namespace) -> dict:
    from solvers.inventory.dp import solve_dp

    return solve_dp(problem_from_csv(Path(args.params))).summary()


def _add_dp(sub) -> None:
    p = sub.add_parser("dp", help="exact optimal expected cost by dynamic programming (small instances)")
    _params(p)
    p.set_defaults(func=cmd_dp)


def cmd_order(args: argparse.Namespace) -> dict:
    from solvers.inventory.artifacts import calculate_dqn_order, config_lead_time, read_config

    lead_time = config_lead_time(read_config(args.artifacts))
    if lead_time > 0 and not (args.pipeline or "").strip():
        raise SpecError(
            "pipeline",
            f"--pipeline is required: the lead time is {lead_time}, so list the {lead_time} outstanding "
            "order(s), next arrival first, 0 for none (e.g. --pipeline " + ",".join(["0"] * lead_time) + ")",
        )
    return calculate_dqn_order(args.inventory, args.step, args.pipeline, args.artifacts)


def _add_order(sub) -> None:
    p = sub.add_parser("order", help="recommended order from saved DQN artifacts (calculate_dqn_order)")
    p.add_argument(
        "--artifacts", required=True, type=cli_args.input_dir, help="deployment_artifacts directory"
    )
    p.add_argument("--inventory", type=signed_units, required=True, help="current on-hand inventory")
    p.add_argument(
        "--step",
        type=units,
        required=True,
        help="current period, counted from 0 = the first period of the horizon (the last is T - 1)",
    )
    p.add_argument(
        "--pipeline",
        default=None,
        type=pipeline,
        help="the L outstanding orders, next arrival first, 0 for none, e.g. 0,0,0,0 "
        "(required when the lead time L > 0; omit it when L = 0)",
    )
    p.set_defaults(func=cmd_order)


COMMANDS = [_add_optimize, _add_evaluate, _add_dp, _add_order]
