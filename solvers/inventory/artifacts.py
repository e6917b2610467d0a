"""`deployment_artifacts/` of seed 000 §2.3 and the `calculate_dqn_order` tool that reads them.

- `config.json`: instance parameters (the 12-row table, lead time, max inventory, horizon, ...), the DQN's
  state and action dimensions, network size and reward scale.
- `dqn_weights.pth`: the Q-network's `state_dict` (absent when DQN was not trained).
- `policy_evaluation_results.csv`: mean and std of the DQN and (s,S) policies (and any other finalist)
  on common evaluation paths, with the optimal s and S (on the `sS` row; every other (s,S) row, such as
  `sS_cutoff`, carries its own s and S), and every family's own parameters: `rule` (the engine's policy
  name), `base_stock_level` and `cap`, constant `q`, `R` and `Q`, and `cutoff`.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from core.errors import SpecError
from solvers.inventory.montecarlo import PolicyEvaluation
from solvers.inventory.spec import CapacityBasis, InventoryProblem, problem_from_table, table_from_problem
from solvers.upload import JSON_HOOKS

if TYPE_CHECKING:
    from solvers.inventory.dqn import DQNPolicy

CONFIG, WEIGHTS, RESULTS = "config.json", "dqn_weights.pth", "policy_evaluation_results.csv"
_SS_NAME = re.compile(r"sS\((\d+),(\d+)\)")  # `SSPolicy.name`, e.g. sS(16,20)+cutoff
RESULT_COLUMNS = (
    "policy",
    "mean_cost",
    "std_cost",
    "ci95_low",
    "ci95_high",
    "objective",
    "fill_rate",
    "s",
    "S",
    "recommended",
    "rule",
    "base_stock_level",
    "cap",
    "q",
    "R",
    "Q",
    "cutoff",
)
_PARAMS = {
    "base_stock": (re.compile(r"base_stock\((\d+)(?:,cap=(\d+))?\)"), ("base_stock_level", "cap")),
    "constant": (re.compile(r"constant\((\d+)\)"), ("q",)),
    "rQ": (re.compile(r"rQ\((\d+),(\d+)\)"), ("R", "Q")),
}


def _family_parameters(policy: str, max_order: int) -> list[str]:
    """The base-stock level and cap, constant q, R and Q and the cutoff flag of a policy name ("" when n/a)."""
    out = dict.fromkeys(("base_stock_level", "cap", "q", "R", "Q"), "")
    for pattern, names in _PARAMS.values():
        if m := pattern.match(policy):
            out.update({n: v for n, v in zip(names, m.groups(), strict=True) if v is not None})
    if out["base_stock_level"] and not out["cap"]:
        out["cap"] = str(max_order)
    return [*out.values(), str(policy.endswith("+cutoff")).lower()]


def write_artifacts(
    out_dir: str | Path,
    problem: InventoryProblem,
    evaluations: Sequence[tuple[str, PolicyEvaluation]],
    best_ss: tuple[int, int],
    recommended: str,
    dqn: DQNPolicy | None = None,
    dqn_hidden: int | None = None,
    extra: dict | None = None,
) -> Path:
    """Write the three artifact files; `evaluations` are `(key, evaluation)` pairs such as `("sS", ev)`."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    config = {
        "parameters": table_from_problem(problem),
        "time_horizon": problem.time_horizon,
        "lead_time": problem.lead_time,
        "max_inventory": problem.max_inventory,
        "max_order": problem.max_order,
        "capacity_basis": problem.capacity_basis.value,
        "lost_sales": problem.lost_sales,
        "perishable": problem.perishable,
        "risk_tolerance": problem.risk_tolerance,
        "state_dim": problem.state_dim,
        "state_layout": ["on_hand", "time_step"] + [f"pipeline_{i + 1}" for i in range(problem.lead_time)],
        "action_dim": problem.action_dim,
        "dqn": dqn is not None,
        "dqn_input_dim": problem.lead_time + 3,
        "dqn_hidden": dqn_hidden,
        "reward_scale": dqn.scale if dqn else None,
        "best_s": best_ss[0],
        "best_S": best_ss[1],
        "recommended": recommended,
        **(extra or {}),
    }
    (out / CONFIG).write_text(json.dumps(config, indent=2) + "\n")
    weights = out / WEIGHTS
    if dqn is not None:
        import torch  # only a trained DQN needs it: the Copilot's first paint does not pay its import

        torch.save(dqn.net.state_dict(), weights)
    elif weights.exists():
        weights.unlink()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for key, ev in evaluations:
        ss = _SS_NAME.match(ev.policy)  # any (s,S) row, e.g. sS_cutoff: its own s and S
        s, S = best_ss if key == "sS" else (ss.group(1), ss.group(2)) if ss else ("", "")
        writer.writerow(
            [
                key,
                f"{ev.mean:.4f}",
                f"{ev.std:.4f}",
                f"{ev.ci95[0]:.4f}",
                f"{ev.ci95[1]:.4f}",
                f"{ev.objective(problem.risk_tolerance):.4f}",
                f"{ev.fill_rate:.4f}",
                s,
                S,
                str(key == recommended).lower(),
                ev.policy,
                *_family_parameters(ev.policy, problem.max_order),
            ]
        )
    (out / RESULTS).write_text(buf.getvalue())
    return out


MAX_CONFIG_BYTES = 1_000_000


def read_config(artifacts_dir: str | Path) -> dict:
    """`config.json` of an artifacts directory; a damaged file is a `SpecError` naming it."""
    path = Path(artifacts_dir) / CONFIG
    if not path.is_file():
        raise SpecError("artifacts", f"no {CONFIG} in {artifacts_dir}; run the optimizer first")
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ValueError(f"larger than {MAX_CONFIG_BYTES:,} bytes")
        config = json.loads(path.read_text(encoding="utf-8"), **JSON_HOOKS)  # no NaN, no overflowing numbers
    except (OSError, ValueError, RecursionError) as err:
        raise SpecError(
            "artifacts", f"{path} is not a readable {CONFIG} ({err}); run the optimizer again"
        ) from None
    if not isinstance(config, dict):
        raise SpecError("artifacts", f"{path} must hold a JSON object; run the optimizer again")
    return config


def config_lead_time(config: dict) -> int:
    """The lead time recorded in `config.json`, checked: a JSON whole number that its parameter table also
    states (the table is what the network was trained on)."""
    value = config.get("lead_time")
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError("lead_time", f"{CONFIG} must hold a whole-number lead_time, not {value!r:.40}")
    table = config.get("parameters")
    stated = table.get("lead_time") if isinstance(table, dict) else None
    if str(stated).strip() != str(value):
        raise SpecError(
            "lead_time",
            f"{CONFIG} says lead_time {value} but its parameter table says {stated!r:.40}; run the optimizer again",
        )
    if value < 0:
        raise SpecError("lead_time", f"{CONFIG} has a negative lead_time ({value}); run the optimizer again")
    return value


COPIED_FIELDS = ("time_horizon", "lead_time", "max_inventory", "max_order", "lost_sales", "perishable",
                 "risk_tolerance", "state_dim", "action_dim")  # fmt: skip
"""Fields `config.json` repeats from its parameter table: each must agree with the table, so a hand-edited
file cannot describe one problem while the network answers another."""


def _check_copies(config: dict, problem: InventoryProblem) -> None:
    for key in COPIED_FIELDS:
        if key not in config:
            continue
        value, expected = config[key], getattr(problem, key)
        same_kind = isinstance(value, bool) == isinstance(expected, bool) and isinstance(value, int | float)
        if not same_kind or value != expected:
            raise SpecError(
                key,
                f"{CONFIG} says {key} = {value!r:.40} but its parameter table gives {expected!r}; "
                "run the optimizer again",
            )


def read_results(artifacts_dir: str | Path) -> list[dict[str, str]]:
    """Rows of `policy_evaluation_results.csv`."""
    path = Path(artifacts_dir) / RESULTS
    if not path.is_file():
        raise SpecError("artifacts", f"no {RESULTS} in {artifacts_dir}; run the optimizer first")
    return list(csv.DictReader(io.StringIO(path.read_text())))


@lru_cache(maxsize=8)
def _load(weights: str, mtime: float, config_json: str) -> tuple[InventoryProblem, DQNPolicy]:
    config = json.loads(config_json)
    parameters = config.get("parameters")
    if not isinstance(parameters, dict):
        raise SpecError("artifacts", f"{CONFIG} has no parameter table; run the optimizer again")
    problem = problem_from_table(parameters)
    # artifacts written before the capacity switch existed hold the default basis
    basis = config.get("capacity_basis", CapacityBasis.INVENTORY_POSITION.value)
    problem = dataclasses.replace(problem, capacity_basis=basis)
    _check_copies(config, problem)
    dims = {k: _whole(k, config.get(k)) for k in ("dqn_input_dim", "action_dim", "dqn_hidden")}
    if dims["dqn_input_dim"] != problem.lead_time + 3 or dims["action_dim"] != problem.action_dim:
        raise SpecError("artifacts", f"{CONFIG} does not match its parameter table; run the optimizer again")
    if not 1 <= dims["dqn_hidden"] <= 4096:
        raise SpecError("dqn_hidden", f"{CONFIG} has an implausible network size {dims['dqn_hidden']}")
    try:
        scale = float(config.get("reward_scale"))
    except (TypeError, ValueError):
        scale = math.nan
    if not (math.isfinite(scale) and scale > 0):
        raise SpecError("reward_scale", f"{CONFIG} needs a positive reward_scale; run the optimizer again")
    import torch

    from solvers.inventory.dqn import DQNPolicy, q_network

    net = q_network(dims["dqn_input_dim"], dims["action_dim"], dims["dqn_hidden"])
    try:  # weights_only: a crafted pickle cannot run code; anything but a matching state_dict is refused
        net.load_state_dict(torch.load(weights, map_location="cpu", weights_only=True))
    except Exception as err:  # torch raises UnpicklingError, RuntimeError, EOFError, KeyError, ...
        raise SpecError(
            "artifacts",
            f"{weights} is not a weights file of this network ({type(err).__name__}); run the optimizer again",
        ) from None
    net.eval()
    return problem, DQNPolicy(net, scale)


def load_dqn(artifacts_dir: str | Path) -> tuple[InventoryProblem, DQNPolicy]:
    """The problem and the trained DQN policy saved in an artifacts directory."""
    config = read_config(artifacts_dir)
    weights = Path(artifacts_dir) / WEIGHTS
    if not config.get("dqn") or not weights.is_file():
        raise SpecError(
            "artifacts", "these artifacts hold no DQN (it was skipped); use the (s,S) policy instead"
        )
    return _load(str(weights), weights.stat().st_mtime, json.dumps(config, sort_keys=True))


def _whole(field: str, value: object) -> int:
    if isinstance(value, bool):
        raise SpecError(field, f"must be a whole number, got {value!r}")
    try:
        x = float(str(value).strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        raise SpecError(field, f"must be a whole number, got {value!r}") from None
    if not math.isfinite(x) or not x.is_integer():
        raise SpecError(field, f"must be a whole number, got {value!r}")
    return int(x)


def parse_pipeline(pipeline_orders: object, lead_time: int) -> list[int]:
    """Pipeline orders from a list or a comma-separated string; empty / "none" means nothing incoming."""
    if pipeline_orders is None or (
        isinstance(pipeline_orders, str) and pipeline_orders.strip().lower() in ("", "none", "[]")
    ):
        return [0] * lead_time
    if isinstance(pipeline_orders, str):
        items = [x for x in pipeline_orders.strip().strip("[]").split(",") if x.strip()]
    elif isinstance(pipeline_orders, int | float):
        items = [pipeline_orders]
    else:
        items = list(pipeline_orders)
    values = [_whole("pipeline_orders", x) for x in items]
    if len(values) != lead_time:
        raise SpecError(
            "pipeline_orders",
            f"the lead time is {lead_time} period(s), so list exactly {lead_time} pipeline order(s), "
            f"next arrival first, 0 for none; got {len(values)}",
        )
    if any(v < 0 for v in values):
        raise SpecError("pipeline_orders", "pipeline orders cannot be negative")
    return values


def _top_words(problem: InventoryProblem) -> str:
    if problem.max_on_hand == problem.max_inventory:
        return f"the max inventory {problem.max_inventory}"
    return f"{problem.max_on_hand} (capacity counted on on-hand only, with orders in transit)"


def calculate_dqn_order(
    current_inventory: int,
    current_time_step: int,
    pipeline_orders: Sequence[int] | str | None,
    artifacts_dir: str | Path = "deployment_artifacts",
) -> dict[str, object]:
    """Recommended order from the saved DQN: `{"recommended_order": int, "q_value": float}`.

    `current_time_step` counts periods from 0 (the first day); `pipeline_orders` lists the L outstanding
    orders, the one arriving next first. `q_value` is the network's value of that order in cost units
    (minus the expected cost from now to the end of the horizon)."""
    problem, policy = load_dqn(artifacts_dir)
    inv = _whole("current_inventory", current_inventory)
    step = _whole("current_time_step", current_time_step)
    pipe = parse_pipeline(pipeline_orders, problem.lead_time)
    low = 0 if problem.lost_sales else -10 * problem.max_inventory
    top = problem.max_on_hand  # the capacity, or above it on the on-hand basis with deliveries in transit
    if not low <= inv <= top:
        raise SpecError("current_inventory", f"must lie between {low} and {_top_words(problem)}, got {inv}")
    if not 0 <= step < problem.time_horizon:
        raise SpecError("current_time_step", f"must lie between 0 and {problem.time_horizon - 1}, got {step}")
    if any(v > problem.max_order for v in pipe):
        raise SpecError(
            "pipeline_orders", f"each pipeline order is at most the max order {problem.max_order}"
        )
    if inv + sum(pipe) > top:
        raise SpecError(
            "pipeline_orders", f"on-hand plus pipeline ({inv + sum(pipe)}) exceeds {_top_words(problem)}"
        )
    q = policy.q_values(problem, step, np.array([inv]), np.array([pipe]))[0]
    order = int(np.argmax(q))
    return {"recommended_order": order, "q_value": round(float(q[order]), 4)}
