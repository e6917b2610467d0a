"""Offline inventory agents on the shared Agent protocol (`core/agent.py`), for `orca/InventoryControl-v0`.

`PolicyAgent` wraps any ordering policy with the vectorised `orders(problem, t, on_hand, pipeline)` interface
— the four heuristic families of `solvers/inventory/policies.py`, the exact DP optimum's policy table and a
trained DQN's greedy policy — so an agent in the environment orders exactly what the vectorised evaluator
(`montecarlo.simulate_policy`) orders in the same state. Each decision leaves a plain-words `last_note`
(the rule that fired, and any truncation by the capacity or the per-order cap), which the rollout records
with the step. These agents are deterministic offline rules: no LLM is involved.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvers.inventory.dp import solve_dp
from solvers.inventory.montecarlo import Policy
from solvers.inventory.period import cut_off, truncate_orders
from solvers.inventory.policies import (
    BaseStockPolicy,
    ConstantPolicy,
    RQPolicy,
    SSPolicy,
    TablePolicy,
    observation_parts,
)
from solvers.inventory.spec import InventoryProblem


def policy_title(policy: Policy) -> str:
    """A human name for a policy, e.g. "(s,S) = (20, 40)" or "capped base-stock S = 30, cap 10 + cutoff"."""
    cut = " + cutoff" if getattr(policy, "cutoff", False) else ""
    if isinstance(policy, SSPolicy):
        return f"(s,S) = ({policy.s}, {policy.S}){cut}"
    if isinstance(policy, BaseStockPolicy):
        cap = f", cap {policy.cap}" if policy.cap is not None else ""
        return f"{'capped ' if policy.cap is not None else ''}base-stock S = {policy.S}{cap}{cut}"
    if isinstance(policy, ConstantPolicy):
        return f"constant order {policy.q}{cut}"
    if isinstance(policy, RQPolicy):
        return f"(R,Q) = ({policy.R}, {policy.Q}){cut}"
    if isinstance(policy, TablePolicy):
        return "DP optimum" if policy.label == "dp" else policy.label
    return str(policy.name)


def _rule(policy: Policy, position: int, wanted: int) -> str:
    """Which branch of the policy's rule gave the requested order."""
    if isinstance(policy, SSPolicy):
        if position < policy.s:
            return f"position {position} < s = {policy.s}: order up to S = {policy.S}, {wanted} units"
        return f"position {position} >= s = {policy.s}: no order"
    if isinstance(policy, BaseStockPolicy):
        gap = max(policy.S - position, 0)
        text = f"position {position}, base-stock level {policy.S}: gap {gap}"
        return text + (f", capped at {policy.cap}" if policy.cap is not None and gap > policy.cap else "")
    if isinstance(policy, ConstantPolicy):
        return f"constant order of {policy.q}"
    if isinstance(policy, RQPolicy):
        if position < policy.R:
            return f"position {position} < R = {policy.R}: order a batch of Q = {policy.Q}"
        return f"position {position} >= R = {policy.R}: no order"
    if isinstance(policy, TablePolicy):
        return f"optimal order in this state and period: {wanted}"
    return f"{policy.name} asks for {wanted}"


class PolicyAgent:
    """Follows one ordering policy in `InventoryControlEnv`; `name` is the policy's human name.

    The action is the order after truncation (`period.truncate_orders`), so it is what the environment will
    place; `last_note` says which rule fired and whether a cap cut the order."""

    def __init__(
        self,
        policy: Policy,
        problem: InventoryProblem,
        *,
        name: str | None = None,
        title: str | None = None,
        origin: str = "",
    ) -> None:
        self.policy = policy
        self.problem = problem
        self.title = title or policy_title(policy)
        self.name = name or self.title
        self.origin = origin  # how the policy was obtained (e.g. a grid search), noted on the first step
        self.last_note = ""
        self._first = True

    def reset(self, seed: int | None) -> None:
        self.last_note = ""
        self._first = True

    def act(self, observation: Any) -> int:
        p = self.problem
        t, on_hand, pipeline = observation_parts(observation)
        position = int(on_hand[0] + pipeline.sum())
        wanted = int(np.asarray(self.policy.orders(p, t, on_hand, pipeline)).reshape(-1)[0])
        order = int(truncate_orders(p, np.array([wanted]), np.array([position]))[0])
        if getattr(self.policy, "cutoff", False) and cut_off(p, t):
            note = f"period {t}: an order now would arrive after the last period (cutoff), no order"
        else:
            note = _rule(self.policy, position, wanted)
            if order < wanted:
                cap = "max order" if order == p.max_order else f"max inventory {p.max_inventory}"
                note += f"; truncated to {order} by the {cap}"
        if self._first and self.origin:
            note = f"{self.origin}. {note}"
        self._first = False
        self.last_note = note
        return order


def optimal_agent(problem: InventoryProblem) -> PolicyAgent:
    """The exact DP optimum as an agent (`SolverError` with the state count when the DP is too large)."""
    return PolicyAgent(solve_dp(problem).policy, problem, title="DP optimum")
