"""The one registry of ORCA's workbenches: navigation, CLI groups, run labels and experiment adapters.

Each `Workbench` names its page file, its CLI group and module (`python -m core.cli GROUP ...`, a module with
`register(subparsers)`), and optionally the module of its experiment adapter (see `core/experiments`). Runs are
stored under the workbench `key`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Workbench:
    """One workbench as the Home page and the navigation show it."""

    key: str
    title: str
    page: str
    icon: str
    summary: str
    seed: str
    cli_group: str
    cli_module: str
    experiment_adapter: str | None = None


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
