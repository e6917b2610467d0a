"""The workbenches ORCA ships: what each does, which paper it comes from, and its page file."""

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


WORKBENCHES: tuple[Workbench, ...] = (
    Workbench(
        "inventory_copilot",
        "Inventory Copilot",
        "pages/inventory_copilot.py",
        ":material/forum:",
        "Describe your stock problem in plain words; the copilot fills a parameter table, asks what is "
        "missing, flags conflicts, runs the solvers and explains the policy.",
        "Ask, Clarify, Optimize (seed 000)",
    ),
    Workbench(
        "policy_simulator",
        "Policy Simulator",
        "pages/policy_simulator.py",
        ":material/monitoring:",
        "Simulate and compare inventory policies: (s,S), base-stock, DQN and the exact DP optimum, "
        "with trajectories, cost distributions and the (s,S) heatmap.",
        "Ask, Clarify, Optimize (seed 000)",
    ),
    Workbench(
        "school_scheduling",
        "School Scheduling",
        "pages/school_scheduling.py",
        ":material/school:",
        "Negotiate school start times with an optimization agent over a MILP: fix, forbid, re-weight, "
        "bound, and explore the Pareto frontier.",
        "Let's Have a Conversation (seed 003)",
    ),
)


def available(pages_present: set[str]) -> list[Workbench]:
    """The workbenches whose page file exists (later issues add their own)."""
    return [w for w in WORKBENCHES if w.page in pages_present]
