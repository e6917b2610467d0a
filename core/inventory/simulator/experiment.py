"""The inventory workbench's experiment adapter (`policy_simulator` in `core/catalog.py`).

The experiment layer (`core/experiments`) calls four functions:

- `instances(env_config) -> [(key, config)]`: the spec's `[env]` table expanded into instances. Each config
  is `{"table": {...}}`, the canonical 12-row parameter table (strings) of one instance, checked here so a bad
  row fails the spec with the field named (`env.instances.NAME.lead_time`). Keys of `env_config`:
  - `instances`: a table of named instances, each a table of parameter rows laid over `base` (the
    seed-000 anchor unless the instance names a `preset`); an empty table is the anchor itself. A list of
    tables with a `key` each is accepted too.
  - `table` (+ optional `key`, default "inline"): one inline instance.
  - `presets`: preset names (see `PRESETS`; "all" for every one), e.g. the anchor at L = 1, 2, 3.
  - `random`: `{count, seed}` plus optional fixed rows: `count` random valid instances from a seeded
    generator (`random_table`), keys `random-SEED-000`, ...
  - `common`: rows laid over every instance (e.g. `time_horizon = 60`).
  Without any of them the one instance is the anchor.
- `make_env(config) -> InventoryControlEnv`.
- `make_agent(agent_spec, config, settings) -> PolicyAgent`: `policy` is one of `sS` (`s`, `S`), `base_stock`
  (`S`, optional `cap`), `constant` (`q`), `rQ` (`R`, `Q`), each with optional `cutoff`; `optimal` (or `dp`:
  the exact DP optimum); `dqn` (a DQN trained for `steps` vector steps, seeded by `train_seed`).
  With `optimize = true` a heuristic family's parameters are chosen for the instance by the grid search
  (`search_policies` over `paths` paths drawn with `search_seed`, default 1,000,003, so the search never sees
  the rollout seeds' demand). Searches, DP solutions and trained networks are cached per worker process.
  Inventory has no LLM agent: an agent of kind "llm" is refused with an error, never replaced.
- `metrics(result, env) -> dict[str, float]`: total cost and its parts, fill rate, stockout periods, average
  on-hand, orders placed (the environment's episode accumulators; the same definitions as
  `montecarlo.PolicyEvaluation`), plus steps.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.errors import OrcaError, SpecError
from core.inventory.simulator.agents import PolicyAgent, policy_title
from core.rollout import RolloutResult
from solvers.inventory.dp import solve_dp
from solvers.inventory.env import DEFAULT_TABLE, InventoryControlEnv
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.search import search_policies
from solvers.inventory.spec import PARAMETER_KEYS, problem_from_table, table_from_problem

ENV_ID = "orca/InventoryControl-v0"
ANCHOR = dict(DEFAULT_TABLE)
PRESETS: dict[str, dict[str, str]] = {
    "anchor": ANCHOR,
    "anchor-L0": ANCHOR | {"lead_time": "0"},
    "anchor-L1": ANCHOR,
    "anchor-L2": ANCHOR | {"lead_time": "2"},
    "anchor-L3": ANCHOR | {"lead_time": "3"},
    "anchor-backlog": ANCHOR | {"state_transition_model": "backlog"},
    "anchor-perishable": ANCHOR | {"perishability": "true"},
    "anchor-perishable-backlog": ANCHOR | {"perishability": "true", "state_transition_model": "backlog"},
    "bakery": ANCHOR
    | {
        "demand_distribution": "poisson(20)",
        "perishability": "true",
        "holding_cost": "0.5",
        "penalty_cost": "3",
        "setup_cost": "10",
        "max_inventory": "60",
        "max_order": "60",
    },
}
"""Named instances: the seed-000 anchor (Appendix A: Poisson(8), h 0.5, b 2.83, K 3, cap 40, max order 20,
T 30) at lead times 0..3 and under the other three transition models, and a perishable bakery."""

ENV_KEYS = ("instances", "table", "key", "presets", "random", "common")
FAMILIES = ("sS", "base_stock", "constant", "rQ")
PARAMS = {"sS": ("s", "S"), "base_stock": ("S",), "constant": ("q",), "rQ": ("R", "Q")}
AGENT_KEYS = {"name", "kind", "provider", "model", "framework", "params", "policy", "cutoff", "optimize",
              "paths", "search_seed", "steps", "train_seed", "s", "S", "cap", "q", "R", "Q"}  # fmt: skip
SEARCH_SEED = 1_000_003
MAX_INSTANCES = 1000


# ---------------------------------------------------------------- instances


def _rows(where: str, rows: Any) -> dict[str, str]:
    """Parameter rows as strings (TOML numbers and booleans accepted), unknown rows refused."""
    if not isinstance(rows, Mapping):
        raise SpecError(where, "must be a table of parameter rows")
    out = {}
    for key, value in rows.items():
        if key not in PARAMETER_KEYS and key != "initial_inventory":
            raise SpecError(
                f"{where}.{key}", f"unknown parameter; expected one of {', '.join(PARAMETER_KEYS)}"
            )
        out[key] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return out


def _canonical(where: str, table: Mapping[str, str]) -> dict[str, str]:
    """The canonical table of a valid instance; a `SpecError` naming `where.FIELD` otherwise."""
    try:
        return table_from_problem(problem_from_table(table))
    except SpecError as err:
        raise SpecError(f"{where}.{err.field}", str(err).split(": ", 1)[-1]) from err


def _preset(where: str, name: Any) -> dict[str, str]:
    if name not in PRESETS:
        raise SpecError(where, f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    return dict(PRESETS[name])


def random_table(rng: np.random.Generator, fixed: Mapping[str, str] | None = None) -> dict[str, str]:
    """One random valid instance: any transition model, lead time 0..3, Poisson or uniform demand, costs
    around the anchor's, a capacity of about 2-4 lead-time demands (the DP stays small at L <= 1)."""
    mean = int(rng.integers(3, 13))
    lead = int(rng.integers(0, 4))
    demand = f"poisson({mean})" if rng.random() < 0.7 else f"uniform({max(0, mean - 4)},{mean + 4})"
    cap = int(np.clip(rng.uniform(2, 4) * mean * (lead + 1), 2 * mean, 60))
    table = {
        "time_horizon": str(int(rng.integers(10, 41))),
        "demand_type": "random",
        "demand_distribution": demand,
        "perishability": "true" if rng.random() < 0.3 else "false",
        "state_transition_model": "lost_sale" if rng.random() < 0.5 else "backlog",
        "holding_cost": f"{rng.uniform(0.1, 2):.2f}",
        "penalty_cost": f"{rng.uniform(1, 10):.2f}",
        "setup_cost": f"{rng.uniform(0, 10):.2f}",
        "lead_time": str(lead),
        "max_inventory": str(cap),
        "max_order": str(int(rng.integers(mean, cap + 1))),
        "risk_tolerance": "0",
    }
    table |= dict(fixed or {})
    if "max_order" not in (fixed or {}) and table["max_inventory"].isdigit():  # a fixed, smaller capacity
        table["max_order"] = str(min(int(table["max_order"]), int(table["max_inventory"])))
    return table


def instances(env_config: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The instances an `[env]` table names, as `(key, {"table": canonical rows})` (module docstring)."""
    cfg = dict(env_config or {})
    unknown = sorted(set(cfg) - set(ENV_KEYS))
    if unknown:
        raise SpecError(f"env.{unknown[0]}", f"unknown environment setting; use {', '.join(ENV_KEYS)}")
    common = _rows("env.common", cfg.get("common", {}))
    raw: list[tuple[str, str, dict[str, str]]] = []  # (key, where, table)
    named = cfg.get("instances", {})
    if isinstance(named, list):
        items = []
        for i, item in enumerate(named):
            if not isinstance(item, Mapping) or not isinstance(item.get("key"), str):
                raise SpecError(f"env.instances[{i}]", "each listed instance needs a key")
            items.append((item["key"], {k: v for k, v in item.items() if k != "key"}))
    elif isinstance(named, Mapping):
        items = list(named.items())
    else:
        raise SpecError("env.instances", "must be a table of named instances")
    for key, rows in items:
        where = f"env.instances.{key}"
        if not isinstance(rows, Mapping):
            raise SpecError(where, "must be a table of parameter rows (empty for the anchor)")
        rows = dict(rows)
        base = _preset(f"{where}.preset", rows.pop("preset")) if "preset" in rows else ANCHOR
        raw.append((str(key), where, base | _rows(where, rows)))
    if "table" in cfg:
        raw.append((str(cfg.get("key", "inline")), "env.table", _rows("env.table", cfg["table"])))
    presets = cfg.get("presets", [])
    presets = list(PRESETS) if presets == "all" else [presets] if isinstance(presets, str) else presets
    if not isinstance(presets, list):
        raise SpecError("env.presets", "must be a list of preset names")
    for name in presets:
        raw.append((str(name), "env.presets", _preset("env.presets", name)))
    if "random" in cfg:
        spec = cfg["random"]
        if not isinstance(spec, Mapping):
            raise SpecError("env.random", "must be a table such as {count = 5, seed = 0}")
        count, seed = spec.get("count", 1), spec.get("seed", 0)
        for field, value in (("count", count), ("seed", seed)):
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or value < (1 if field == "count" else 0)
            ):
                raise SpecError(
                    f"env.random.{field}", f"must be a whole number >= {1 if field == 'count' else 0}"
                )
        if count > MAX_INSTANCES:
            raise SpecError("env.random.count", f"at most {MAX_INSTANCES} random instances")
        fixed = _rows("env.random", {k: v for k, v in spec.items() if k not in ("count", "seed")})
        rng = np.random.default_rng(seed)
        for i in range(count):
            raw.append((f"random-{seed}-{i:03d}", "env.random", random_table(rng, fixed)))
    if not raw:
        raw.append(("anchor", "env", dict(ANCHOR)))
    out, seen = [], set()
    for key, where, table in raw:
        if key in seen:
            raise SpecError(where, f"instance {key!r} is named twice")
        seen.add(key)
        out.append((key, {"table": _canonical(where, table | common)}))
    return out


# ---------------------------------------------------------------- environment and agents


def _problem(config: Mapping[str, Any]):
    table = config.get("table") if isinstance(config, Mapping) else None
    if not isinstance(table, Mapping):
        raise SpecError("env.table", "the instance config carries no parameter table")
    return problem_from_table({k: str(v) for k, v in table.items()})


def make_env(config: Mapping[str, Any]) -> InventoryControlEnv:
    """A fresh environment for one instance config (`{"table": ...}`)."""
    return InventoryControlEnv(_problem(config))


def _table_key(config: Mapping[str, Any]) -> str:
    return json.dumps({k: str(v) for k, v in config["table"].items()}, sort_keys=True)


@functools.lru_cache(maxsize=64)
def _searched(table: str, family: str, cutoff: bool, paths: int, seed: int):
    problem = problem_from_table(json.loads(table))
    return search_policies(problem, family, paths, seed, cutoff=cutoff).best_policy


@functools.lru_cache(maxsize=16)
def _dp_policy(table: str):
    return solve_dp(problem_from_table(json.loads(table))).policy


@functools.lru_cache(maxsize=8)
def _dqn_policy(table: str, steps: int, seed: int):
    from solvers.inventory.dqn import DQNConfig, train_dqn

    config = DQNConfig(steps=steps, seconds=3600.0, eval_every=max(1, steps // 4))
    return train_dqn(problem_from_table(json.loads(table)), config, seed).policy


def _whole(where: str, spec: Mapping[str, Any], key: str, default: int | None = None, low: int = 0) -> int:
    value = spec.get(key, default)
    if value is None:
        raise SpecError(f"{where}.{key}", "is missing")
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise SpecError(f"{where}.{key}", f"must be a whole number, got {value!r}")
    try:
        number = float(value)
    except ValueError as err:
        raise SpecError(f"{where}.{key}", f"must be a whole number, got {value!r}") from err
    if not number.is_integer() or number < low:
        raise SpecError(f"{where}.{key}", f"must be a whole number >= {low}, got {value!r}")
    return int(number)


def make_agent(agent_spec: Mapping[str, Any], config: Mapping[str, Any], settings: Any = None) -> PolicyAgent:
    """The offline agent an `[[agents]]` entry describes, for this instance (module docstring).

    `settings` (the experiment's per-agent LLM settings) is unused: every inventory agent is offline."""
    spec = dict(agent_spec)
    spec.update(spec.get("params") or {})
    label = spec.get("name")
    where = f"agents.{label}" if label else "agents"
    if spec.get("kind", "offline") != "offline" or spec.get("provider") not in (None, "offline"):
        raise SpecError(
            f"{where}.kind",
            "the inventory environment has no LLM agent yet; use an offline policy (sS, base_stock, "
            "constant, rQ, optimal, dqn)",
        )
    unknown = sorted(set(spec) - AGENT_KEYS)
    if unknown:
        raise SpecError(f"{where}.{unknown[0]}", "unknown agent setting")
    problem = _problem(config)
    table = _table_key(config)
    policy_name = spec.get("policy")
    cutoff = spec.get("cutoff", False)
    if not isinstance(cutoff, bool):
        raise SpecError(f"{where}.cutoff", "must be true or false")
    note = ""
    try:
        if policy_name in ("optimal", "dp"):
            policy = _dp_policy(table)
            title = "DP optimum"
        elif policy_name == "dqn":
            steps = _whole(where, spec, "steps", 600, low=1)
            seed = _whole(where, spec, "train_seed", 0)
            policy = _dqn_policy(table, steps, seed)
            title = f"DQN ({steps} training steps, seed {seed})"
        elif policy_name in FAMILIES:
            optimize = spec.get("optimize", False)
            if not isinstance(optimize, bool):
                raise SpecError(f"{where}.optimize", "must be true or false")
            if optimize:
                paths = _whole(where, spec, "paths", 1000, low=2)
                seed = _whole(where, spec, "search_seed", SEARCH_SEED)
                policy = _searched(table, policy_name, cutoff, paths, seed)
                title = policy_title(policy)
                note = f"{title}, chosen by grid search on {paths} paths (seed {seed})"
            else:
                values = [_whole(where, spec, k) for k in PARAMS[policy_name]]
                if policy_name == "sS":
                    policy = SSPolicy(*values, cutoff=cutoff)
                elif policy_name == "base_stock":
                    cap = spec.get("cap")
                    policy = BaseStockPolicy(*values, None if cap is None else _whole(where, spec, "cap", low=1),
                                             cutoff=cutoff)  # fmt: skip
                elif policy_name == "constant":
                    policy = ConstantPolicy(*values, cutoff=cutoff)
                else:
                    policy = RQPolicy(*values, cutoff=cutoff)
                title = policy_title(policy)
        else:
            raise SpecError(
                f"{where}.policy",
                f"must be one of {', '.join(FAMILIES)}, optimal or dqn, got {policy_name!r}",
            )
    except SpecError as err:
        if err.field.startswith("agents"):
            raise
        raise SpecError(f"{where}.{err.field}", str(err).split(": ", 1)[-1]) from err
    except OrcaError as err:  # the DP refuses instances that are too large, naming the state count
        raise SpecError(f"{where}.policy", str(err)) from err
    return PolicyAgent(policy, problem, name=label or title, title=title, origin=note)


# ---------------------------------------------------------------- metrics


def metrics(result: RolloutResult, env: InventoryControlEnv) -> dict[str, float]:
    """The episode's inventory metrics (total cost, its parts, service) plus the number of steps."""
    out = {k: float(v) for k, v in env.episode_metrics().items()}
    out["steps"] = float(result.steps)
    return out
