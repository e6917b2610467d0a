"""The critic (seed 000 §2.4, beyond the paper: its "future work" critic).

`critique(result, table)`: before anything is presented, check the recommended policy against the stated
constraints (capacity, max order) and the parameter table on simulated paths, and list the modelling
assumptions behind every number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.errors import SpecError
from core.inventory.copilot.assumptions import assumptions
from solvers.inventory.agent import OptimizationResult
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.period import counted_stock
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, SSPolicy, cut_off, truncate_orders
from solvers.inventory.spec import CapacityBasis, InventoryProblem, table_from_problem

FAMILY_NAMES = {
    "sS": "(s,S) rule",
    "sS_cutoff": "(s,S) rule with an end-of-plan stop",
    "base_stock": "order-up-to (base-stock) rule",
    "base_stock_cutoff": "order-up-to rule with an end-of-plan stop",
    "constant": "fixed daily order",
    "dp": "exact optimal plan (dynamic programming)",
    "dqn": "Deep Q-Network (DQN)",
}


@dataclass(frozen=True)
class Check:
    """One critic check; `severity` is how bad a failure is ("error": do not present the policy as is,
    "warning": tell the user), or "info" for a note always worth telling."""

    name: str
    ok: bool
    severity: str
    message: str

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "ok": self.ok, "severity": self.severity, "message": self.message}


@dataclass(frozen=True)
class CriticReport:
    """The critic's checks of the recommended policy and the assumptions behind the numbers."""

    checks: tuple[Check, ...]
    assumptions: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """No failed error-level check."""
        return all(c.ok for c in self.checks if c.severity == "error")

    @property
    def findings(self) -> tuple[Check, ...]:
        """The checks worth telling the user about: failures and informational notes."""
        return tuple(c for c in self.checks if not c.ok or c.severity == "info")

    def check(self, name: str) -> Check:
        return next(c for c in self.checks if c.name == name)

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "checks": [c.to_dict() for c in self.checks],
            "assumptions": list(self.assumptions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CriticReport:
        """The report back from `to_dict()` (as stored with a run)."""
        checks = tuple(Check(c["name"], bool(c["ok"]), c["severity"], c["message"]) for c in data["checks"])
        return cls(checks, tuple(data["assumptions"]))

    def text(self) -> str:
        """Bulleted findings for prompts and transcripts."""
        lines = [f"- [{'ok' if c.ok else c.severity.upper()}] {c.message}" for c in self.checks]
        return "\n".join(lines)


def policy_object(result: OptimizationResult, key: str) -> Any:
    """The policy object behind one finalist key of an optimization result."""
    if key == "dp" and result.dp is not None:
        return result.dp.policy
    if key == "dqn" and result.dqn is not None:
        return result.dqn.policy
    if key in result.searches:
        return result.searches[key].best_policy
    raise SpecError("policy", f"the result has no policy {key!r}")


def critique(
    result: OptimizationResult,
    table: Mapping[str, str] | None = None,
    paths: int = 200,
    seed: int = 0,
) -> CriticReport:
    """Check the recommended policy against the constraints and the table; `table` holds the agent's values."""
    p = result.problem
    key = result.recommended
    policy = policy_object(result, key)
    checks: list[Check] = [] if table is None else [_table_check(p, table)]
    checks += _rule_checks(p, key, policy, result)
    checks += _simulated_checks(p, policy, paths, seed)
    checks.append(_objective_check(result, key))
    checks += _sanity_checks(p, result.evaluations[key])
    if key != "sS" and "sS" in result.evaluations:
        checks.append(_difference_check(result, key))
    checks += _exact_dp_check(result, key)
    return CriticReport(tuple(checks), assumptions(p))


def _table_check(p: InventoryProblem, table: Mapping[str, str]) -> Check:
    """The optimizer solved the problem of the agent's parameter table."""
    solved = table_from_problem(p)
    differ = [k for k, v in solved.items() if k in table and str(table[k]) != v]
    return Check(
        "table_matches_problem",
        not differ,
        "error",
        "The optimizer solved exactly the problem in the parameter table."
        if not differ
        else "The optimizer's problem differs from the table in: " + ", ".join(differ) + ".",
    )


def _simulated_checks(p: InventoryProblem, policy: Any, paths: int, seed: int) -> list[Check]:
    """The constraints on `paths` simulated paths: max order, capacity, no negative stock under lost sales,
    capped orders and no order too late to arrive."""
    demand = demand_matrix(p, paths, seed + 7_919)
    ev = simulate_policy(p, policy, demand, record=paths)
    tr = ev.trajectory
    assert tr is not None
    after = counted_stock(p, tr.on_hand, tr.pipeline) + tr.orders
    counts, over = "Stock on hand plus on order", "Stock plus orders"
    if p.capacity_basis is CapacityBasis.ON_HAND:  # deliveries may lift on-hand above it; orders may not
        after = np.where(tr.orders > 0, after, 0)
        counts, over = "Stock on hand when ordering, plus the order,", "Stock on hand plus orders"
    checks = [
        Check(
            "orders_within_max_order",
            int(tr.orders.max()) <= p.max_order,
            "error",
            f"On {paths} simulated paths no order exceeds the max order of {p.max_order} units "
            f"(largest: {int(tr.orders.max())})."
            if int(tr.orders.max()) <= p.max_order
            else f"A simulated order of {int(tr.orders.max())} units exceeds the max order of {p.max_order}.",
        ),
        Check(
            "within_capacity",
            int(after.max()) <= p.max_inventory,
            "error",
            f"{counts} never exceeds the capacity of {p.max_inventory} units (highest: {int(after.max())})."
            if int(after.max()) <= p.max_inventory
            else f"{over} reach {int(after.max())} units, above the capacity of {p.max_inventory}.",
        ),
    ]
    if p.lost_sales:
        low = int(tr.on_hand.min())
        checks.append(
            Check(
                "no_negative_stock",
                low >= 0,
                "error",
                "Stock on hand never goes negative (lost sales)."
                if low >= 0
                else f"Stock on hand reached {low} although sales are lost.",
            )
        )
    checks.append(_capped_check(p, policy, tr))
    checks.append(_late_orders_check(p, tr.orders))
    return checks


def _late_orders_check(p: InventoryProblem, orders: np.ndarray) -> Check:
    """No order placed in the last days, whose delivery would arrive after the plan ends (a warning)."""
    late = [t for t in range(p.time_horizon) if cut_off(p, t)]
    late_orders = float((orders[:, late] > 0).sum(axis=1).mean()) if late else 0.0
    return Check(
        "no_orders_too_late",
        late_orders == 0,
        "warning",
        "No order is placed too late to arrive before the plan ends."
        if late_orders == 0
        else f"On average {late_orders:.1f} order(s) per plan are placed in the last {len(late)} day(s) and "
        f"arrive after the plan ends (they cost {p.setup_cost:g} each in fees and are never sold within the "
        "plan); in practice, stop ordering then.",
    )


def _objective_check(result: OptimizationResult, key: str) -> Check:
    """The recommended finalist has the lowest objective at the problem's risk tolerance."""
    lam = result.problem.risk_tolerance
    best = min(result.evaluations, key=lambda k: result.evaluations[k].objective(lam))
    return Check(
        "recommended_minimises_objective",
        best == key,
        "error",
        f"The recommended policy has the lowest objective among the {len(result.evaluations)} finalists."
        if best == key
        else f"{best} has a lower objective than the recommended {key}.",
    )


def _exact_dp_check(result: OptimizationResult, key: str) -> list[Check]:
    """A note on the exact optimum: why it was not computed, or how far the recommended policy is from it."""
    if result.dp_refusal:
        return [Check("exact_dp", True, "info", f"The exact optimum was not computed: {result.dp_refusal}")]
    if result.dp is None:
        return []
    gap = (result.evaluations[key].mean - result.dp.optimal_cost) / max(abs(result.dp.optimal_cost), 1e-9)
    return [
        Check(
            "exact_dp",
            True,
            "info",
            f"The exact optimal expected cost is {dollars(result.dp.optimal_cost)}; the recommended policy's "
            f"simulated mean is {100 * gap:+.1f}% from it.",
        )
    ]


def _rule_checks(p: InventoryProblem, key: str, policy: Any, result: OptimizationResult) -> list[Check]:
    rules: list[tuple[str, int, int]] = []
    if isinstance(policy, SSPolicy | BaseStockPolicy):
        rules.append((key, policy.S, getattr(policy, "s", policy.S)))
    if key != "sS" and "sS" in result.searches:
        best = result.searches["sS"].best_policy
        rules.append(("sS", best.S, best.s))
    checks = []
    for name, S, s in rules:
        ok = s <= S <= p.max_inventory
        checks.append(
            Check(
                f"{name}_levels",
                ok,
                "error",
                f"{_title(name)}: order-up-to level {S} is within the capacity of "
                f"{p.max_inventory} units" + (f" and the reorder point {s} is below it." if s != S else ".")
                if ok
                else f"{_title(name)}: levels s={s}, S={S} break the capacity "
                f"of {p.max_inventory} units or s ≤ S.",
            )
        )
    if isinstance(policy, ConstantPolicy):
        ok = policy.q <= p.max_order
        checks.append(
            Check(
                "constant_order_size",
                ok,
                "error",
                f"The fixed order of {policy.q} units respects the max order of {p.max_order}."
                if ok
                else f"The fixed order of {policy.q} units exceeds the max order of {p.max_order}.",
            )
        )
    return checks


def supply_limits(p: InventoryProblem) -> list[str]:
    """Stated limits that keep any policy from keeping up with average demand (empty when none does)."""
    mean = p.demand.mean
    limits = []
    if p.max_order < mean:
        limits.append(
            f"the largest order ({p.max_order} units) is below the average daily demand ({mean:g} units)"
        )
    cover = mean * (p.lead_time + 1)
    shelf_only = p.capacity_basis is CapacityBasis.ON_HAND and p.lead_time >= 2
    if shelf_only:  # orders in transit do not count: the capacity need only hold a day's demand
        cover = mean
    if p.max_inventory < cover:
        if p.lead_time == 0 or shelf_only:
            limits.append(
                f"the storage capacity ({p.max_inventory} units) is below the average daily demand ({mean:g} units)"
            )
        else:
            limits.append(
                f"the storage capacity ({p.max_inventory} units) also counts what is on order, and it is below the "
                f"demand from ordering to delivery ({cover:g} units over {p.lead_time + 1} days), so at most about "
                f"{p.max_inventory / (p.lead_time + 1):.1f} units a day can come in"
            )
    if p.lead_time >= p.time_horizon:
        limits.append(
            f"an order takes {p.lead_time} day(s) to arrive, longer than the {p.time_horizon}-day plan"
        )
    return limits


def _sanity_checks(p: InventoryProblem, ev: Any) -> list[Check]:
    """Is the result plausible at all: does it serve demand, and is its cost of the size the inputs suggest?"""
    fill = float(ev.fill_rate)
    limits = supply_limits(p)
    reason = (
        "; ".join(limits) + ", so no policy can keep up"
        if limits
        else "at these costs the optimizer found running short cheaper than stocking"
    )
    checks = [
        Check(
            "serves_demand",
            fill >= 0.5,
            "error" if fill < 0.05 else "warning",
            f"The recommended policy serves {100 * fill:.1f}% of demand."
            if fill >= 0.5
            else f"The recommended policy serves only {100 * fill:.1f}% of demand: {reason}. Check the max order, "
            "the capacity, the costs and that demand is per day before relying on this plan.",
        )
    ]
    checks.append(
        Check(
            "supply_keeps_up",
            not limits,
            "warning",
            "The max order and the storage capacity let stock keep up with average demand."
            if not limits
            else f"Stock cannot keep up with demand whatever the rule: {'; and '.join(limits)}. The shortages "
            f"come from this limit, not from the costs; you serve {100 * fill:.1f}% of demand.",
        )
    )
    lost_all = p.demand.mean * p.time_horizon * p.penalty_cost
    ratio = float(ev.mean) / lost_all if lost_all > 0 else 0.0
    checks.append(
        Check(
            "cost_plausible",
            ratio <= 10,
            "warning",
            f"The expected cost is {ratio:.1f}× what leaving all demand unserved once would cost."
            if ratio <= 10
            else f"The expected cost ({dollars(float(ev.mean))}) is {ratio:.0f}× the penalty for leaving all "
            f"demand unserved once ({dollars(lost_all)}): unmet demand waits as a backorder and is charged every "
            "day it waits. A result this large usually means a limit or a unit in the table is off.",
        )
    )
    return checks


def _capped_check(p: InventoryProblem, policy: Any, tr: Any) -> Check:
    """Does the rule, as stated, ever ask for more than the max order or the free capacity?"""
    asked = np.zeros_like(tr.orders)
    for t in range(p.time_horizon):
        asked[:, t] = np.asarray(policy.orders(p, t, tr.on_hand[:, t], tr.pipeline[:, t]), dtype=np.int64)
    capped = asked > truncate_orders(p, asked.ravel(), tr.position.ravel()).reshape(asked.shape)
    if not capped.any():
        return Check("orders_need_no_cap", True, "warning", "The rule never asks for more than fits.")
    share = 100 * float(capped.mean())
    return Check(
        "orders_need_no_cap",
        False,
        "warning",
        f"The rule sometimes asks for more than fits (up to {int(asked.max())} units, in {share:.1f}% of days); "
        f"such orders are cut to at most {p.max_order} units and to the free capacity, and the costs "
        "already include that.",
    )


def _difference_check(result: OptimizationResult, key: str) -> Check:
    a, b = result.evaluations[key], result.evaluations["sS"]
    if len(a.costs) != len(b.costs):
        return Check(
            "difference_significant", True, "info", "The finalists were not evaluated on common paths."
        )
    diff = b.costs - a.costs
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else 0.0
    mean = float(diff.mean())
    significant = se == 0 or abs(mean) > 1.96 * se
    return Check(
        "difference_significant",
        significant,
        "info" if significant else "warning",
        f"The best plain (s,S) rule costs {dollars(mean)} more on average (± {dollars(1.96 * se)} at 95%), a "
        "real difference on common paths."
        if significant
        else f"The difference to the best plain (s,S) rule ({dollars(mean)} ± {dollars(1.96 * se)}) is within "
        "simulation noise; the simpler rule is as good in practice.",
    )


def _title(key: str) -> str:
    name = FAMILY_NAMES.get(key, key)
    return name[:1].upper() + name[1:]


def dollars(x: float) -> str:
    """An amount as dollars and cents, such as "$1,234.50" or "-$3.00"."""
    return f"-${-x:,.2f}" if x < 0 else f"${x:,.2f}"
