"""ORCA's environments: one list of ids and entry points, registered on gymnasium's registry.

Every simulator is a `gymnasium.Env` in `solvers/<domain>/env.py` (pure) with a spec-sheet docstring; the
inventory lab's trial lives in `core/inventory/lab/env.py` because its manager is an agent (the imitator). An entry's
`kwargs` build a small default instance (the contract test uses it); `sample_actions` names a function
`(env, rng, n) -> list[action]` for text/tool environments whose action space cannot be sampled meaningfully.
Entry points are strings, so this module imports no workbench code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np

from core.errors import SpecError


@dataclass(frozen=True)
class EnvEntry:
    """One registered environment."""

    id: str
    entry_point: str
    description: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    sample_actions: str | None = None


ENVIRONMENTS: tuple[EnvEntry, ...] = (
    EnvEntry(
        "orca/InventoryControl-v0",
        "solvers.inventory.env:InventoryControlEnv",
        "Single-item periodic-review inventory (seed 000, Appendix A): order each period, pay setup, holding "
        "and shortage costs.",
    ),
    EnvEntry(
        "orca/InventoryManager-v0",
        "core.inventory.lab.env:ManagerEnv",
        "One inventory-lab trial (seed 000 §3–4): a consultant talks with a seeded offline manager (the Human "
        "Imitator) of a latent business, then recommends a policy scored on the ground truth (reward −gap).",
        kwargs={"protocol": "mixed", "scenario_seed": 0, "assessment_paths": 200, "optimizer_paths": 30},
        sample_actions="core.inventory.lab.env:sample_actions",
    ),
    EnvEntry(
        "orca/LPRepair-v0",
        "solvers.lp.env:LPRepairEnv",
        "Diagnose and repair an infeasible supply-chain LP (seed 002, OptiRepair): IIS-guided actions, "
        "Phase II rationality oracle, eq. 5 reward.",
        sample_actions="solvers.lp.env:sample_actions",
    ),
    EnvEntry(
        "orca/RetailBench-v0",
        "solvers.retail.env:RetailBenchEnv",
        "RetailBench supermarket (seeds 004/001): 96 products, 21 tools, one tool call per step, end_today "
        "advances the day; reward = change in net worth.",
        kwargs={"preset_name": "hard_v2", "max_days": 3, "code_runner": "core.sandbox:run_code"},
        sample_actions="solvers.retail.env:sample_actions",
    ),
)


def register_all() -> None:
    """Register every ORCA environment with gymnasium (idempotent)."""
    for entry in ENVIRONMENTS:
        if entry.id not in gymnasium.registry:
            gymnasium.register(id=entry.id, entry_point=entry.entry_point, kwargs=dict(entry.kwargs))


def entry(env_id: str) -> EnvEntry:
    """The registry entry of `env_id`; a `SpecError` naming the known ids otherwise."""
    for e in ENVIRONMENTS:
        if e.id == env_id:
            return e
    raise SpecError("env", f"unknown environment {env_id!r}; known: {', '.join(e.id for e in ENVIRONMENTS)}")


def make(env_id: str, **kwargs: Any) -> gymnasium.Env:
    """A fresh, unwrapped instance of a registered environment."""
    entry(env_id)
    register_all()
    return gymnasium.make(env_id, disable_env_checker=True, **kwargs).unwrapped


def _resolve(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def sample_actions(env_id: str, env: gymnasium.Env, seed: int, n: int) -> list[Any]:
    """`n` actions for `env` drawn reproducibly from `seed` (the entry's sampler, else the action space)."""
    e = entry(env_id)
    if e.sample_actions:
        return list(_resolve(e.sample_actions)(env, np.random.default_rng(seed), n))
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(n)]
