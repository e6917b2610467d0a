"""The one registry of ORCA's workbenches: navigation, CLI groups, run labels, experiment adapters, environments.

Each `Workbench` names its page file, its CLI group and module (`python -m core.cli GROUP ...`, a module with
`register(subparsers)`), optionally the module of its experiment adapter (see `core/experiments`), and its
environments. Runs are stored under the workbench `key`.

Environments: every simulator is a `gymnasium.Env` in `solvers/<domain>/env.py` (pure) with a spec-sheet
docstring; the inventory lab's trial lives in `core/inventory/lab/env.py` because its manager is an agent (the
imitator). An `EnvEntry`'s `kwargs` build a small default instance (the contract test uses it);
`sample_actions` names a function `(env, rng, n) -> list[action]` for text/tool environments whose action space
cannot be sampled meaningfully. Importing this module registers every environment with gymnasium, as a
Gymnasium package does, so `gymnasium.make("orca/...")` works after `import core.catalog`. Entry points, pages,
CLI and adapter modules are strings: this module imports no workbench code.
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


@dataclass(frozen=True)
class Workbench:
    """One workbench: what the Home page and the navigation show, its CLI, its adapter and its environments."""

    key: str
    title: str
    page: str
    icon: str
    summary: str
    seed: str
    cli_group: str
    cli_module: str
    experiment_adapter: str | None = None
    envs: tuple[EnvEntry, ...] = ()
    other_adapters: tuple[str, ...] = ()
    """Further experiment adapters of the workbench a spec may name with `adapter` (e.g. the inventory lab's
    protocol adapter, which `inventory lab run` uses), allowed like `experiment_adapter`."""

    @property
    def env_ids(self) -> tuple[str, ...]:
        """The gymnasium ids of the workbench's environments."""
        return tuple(e.id for e in self.envs)


WORKBENCHES: tuple[Workbench, ...] = (
    Workbench(
        "inventory_copilot",
        "Inventory Copilot",
        "pages/inventory_copilot.py",
        ":material/forum:",
        "Describe your stock problem in plain words; the copilot fills a parameter table, asks what is "
        "missing, flags conflicts, runs the solvers and explains the policy.",
        "Ask, Clarify, Optimize (seed 000)",
        "inventory",
        "core.inventory.cli",
    ),
    Workbench(
        "policy_simulator",
        "Policy Simulator",
        "pages/policy_simulator.py",
        ":material/monitoring:",
        "Simulate and compare inventory policies: (s,S), base-stock, DQN and the exact DP optimum, "
        "with trajectories, cost distributions and the (s,S) heatmap.",
        "Ask, Clarify, Optimize (seed 000)",
        "inventory",
        "core.inventory.cli",
        "core.inventory.simulator.experiment",
        envs=(
            EnvEntry(
                "orca/InventoryControl-v0",
                "solvers.inventory.env:InventoryControlEnv",
                "Single-item periodic-review inventory (seed 000, Appendix A): order each period, pay setup, "
                "holding and shortage costs.",
            ),
        ),
    ),
    Workbench(
        "inventory_lab",
        "Inventory evaluation lab",
        "pages/inventory_lab.py",
        ":material/science:",
        "Generated businesses, a simulated manager and three treatments (Copilot, LLM alone, LLM with the "
        "true parameters) scored on the ground truth: the in-silico laboratory of seed 000 §3–4.",
        "Ask, Clarify, Optimize (seed 000)",
        "inventory",
        "core.inventory.cli",
        "core.inventory.lab.experiment",
        envs=(
            EnvEntry(
                "orca/InventoryManager-v0",
                "core.inventory.lab.env:ManagerEnv",
                "One inventory-lab trial (seed 000 §3–4): a consultant talks with a seeded offline manager (the "
                "Human Imitator) of a latent business, then recommends a policy scored on the ground truth "
                "(reward −gap).",
                kwargs={
                    "protocol": "mixed",
                    "scenario_seed": 0,
                    "assessment_paths": 200,
                    "optimizer_paths": 30,
                },
                sample_actions="core.inventory.lab.env:sample_actions",
            ),
        ),
        other_adapters=("core.inventory.lab.protocol",),
    ),
    Workbench(
        "school_scheduling",
        "School Scheduling",
        "pages/school_scheduling.py",
        ":material/school:",
        "Negotiate school start times with an optimization agent over a MILP: fix, forbid, re-weight, "
        "bound, and explore the Pareto frontier.",
        "Let's Have a Conversation (seed 003)",
        "schedule",
        "core.schedule.cli",
        "core.schedule.lab.experiment",
    ),
    Workbench(
        "school_scheduling_lab",
        "School Scheduling Lab",
        "pages/school_scheduling_lab.py",
        ":material/science:",
        "Evaluate scheduling agents against simulated stakeholders with hidden utilities: one-shot vs "
        "conversation, scores, success rates and turns (offline decision agents).",
        "Let's Have a Conversation (seed 003)",
        "schedule",
        "core.schedule.cli",
        envs=(
            EnvEntry(
                "orca/SchoolSchedulingLab-v0",
                "core.schedule.lab.env:ConversationEnv",
                "One School Scheduling lab conversation (seed 003 §4–5): an optimization agent proposes start-time "
                "schedules to a seeded offline decision agent with a hidden utility; reward U(best)/U*.",
                sample_actions="core.schedule.lab.env:sample_actions",
            ),
        ),
    ),
    Workbench(
        "lp_repair",
        "LP Repair Lab",
        "pages/lp_repair_lab.py",
        ":material/build:",
        "Diagnose and repair infeasible supply-chain LPs: IIS on an echelon x period grid, a rationality "
        "oracle, repair agents, benchmarks and a trace viewer; or upload your own .mps/.lp model.",
        "OptiRepair (seed 002)",
        "repair",
        "core.repair.cli",
        "core.repair.experiment",
        envs=(
            EnvEntry(
                "orca/LPRepair-v0",
                "solvers.lp.env:LPRepairEnv",
                "Diagnose and repair an infeasible supply-chain LP (seed 002, OptiRepair): IIS-guided actions, "
                "Phase II rationality oracle, eq. 5 reward.",
                sample_actions="solvers.lp.env:sample_actions",
            ),
            EnvEntry(
                "orca/LPRepairReal-v0",
                "solvers.lp.real:RealRepairEnv",
                "The LP Repair Lab's real track: repair one of Netlib's infeasible LPs with the fewest changed rows "
                "and bounds (verified by a fresh re-solve; no ground truth).",
                kwargs={"problems": ["galenet", "woodinfe"]},
                sample_actions="solvers.lp.real:sample_actions",
            ),
        ),
    ),
    Workbench(
        "retailbench",
        "RetailBench",
        "pages/retailbench.py",
        ":material/storefront:",
        "Run a supermarket for 180 days: 96 products, five suppliers each, news, reviews and returns; agents "
        "act through 21 tools.",
        "RetailBench (seeds 004, 001)",
        "retail",
        "core.retail.cli",
        "core.retail.experiment",
        envs=(
            EnvEntry(
                "orca/RetailBench-v0",
                "solvers.retail.env:RetailBenchEnv",
                "RetailBench supermarket (seeds 004/001): 96 products, 21 tools, one tool call per step, "
                "end_today advances the day; reward = change in net worth.",
                kwargs={"preset_name": "hard_v2", "max_days": 3, "code_runner": "core.sandbox:run_code"},
                sample_actions="solvers.retail.env:sample_actions",
            ),
        ),
    ),
    Workbench(
        "retailbench_replay",
        "RetailBench replay",
        "pages/retailbench_replay.py",
        ":material/replay:",
        "Replay RetailBench runs day by day: tool calls, orders, prices, news, products, Table 1 and four-stage "
        "diagnostics; import original runs.",
        "RetailBench (seeds 004, 001)",
        "retail",
        "core.retail.cli",
    ),
)


def available(pages_present: set[str]) -> list[Workbench]:
    """The workbenches whose page file exists (later issues add their own)."""
    return [w for w in WORKBENCHES if w.page in pages_present]


def by_key(key: str) -> Workbench | None:
    """The workbench stored under `key` (None for an unknown key)."""
    return next((w for w in WORKBENCHES if w.key == key), None)


def title_of(key: str) -> str:
    """A run label: the workbench's title, or the key itself for runs of unknown workbenches."""
    bench = by_key(key)
    return bench.title if bench else key


def cli_modules() -> list[str]:
    """The CLI modules of every workbench, each once, in catalog order."""
    return list(dict.fromkeys(w.cli_module for w in WORKBENCHES))


def workbench_keys(name: str) -> list[str]:
    """The workbench keys a user may mean by `name`: a key itself or a CLI group (e.g. "inventory")."""
    return [w.key for w in WORKBENCHES if name in (w.key, w.cli_group)]


ENVIRONMENTS: tuple[EnvEntry, ...] = tuple(e for w in WORKBENCHES for e in w.envs)
"""Every registered environment, in catalog order."""


def register_environments() -> None:
    """Register every ORCA environment with gymnasium (idempotent; done when this module is imported)."""
    for e in ENVIRONMENTS:
        if e.id not in gymnasium.registry:
            gymnasium.register(id=e.id, entry_point=e.entry_point, kwargs=dict(e.kwargs))


def env_entry(env_id: str) -> EnvEntry:
    """The registry entry of `env_id`; a `SpecError` naming the known ids otherwise."""
    for e in ENVIRONMENTS:
        if e.id == env_id:
            return e
    raise SpecError("env", f"unknown environment {env_id!r}; known: {', '.join(e.id for e in ENVIRONMENTS)}")


def make(env_id: str, **kwargs: Any) -> gymnasium.Env:
    """A fresh, unwrapped instance of a registered environment."""
    env_entry(env_id)
    register_environments()
    return gymnasium.make(env_id, disable_env_checker=True, **kwargs).unwrapped


def _resolve(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def sample_actions(env_id: str, env: gymnasium.Env, seed: int, n: int) -> list[Any]:
    """`n` actions for `env` drawn reproducibly from `seed` (the entry's sampler, else the action space)."""
    e = env_entry(env_id)
    if e.sample_actions:
        return list(_resolve(e.sample_actions)(env, np.random.default_rng(seed), n))
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(n)]


register_environments()
