"""The Copilot's critic, assumptions and order tool on the on-hand capacity basis (Appendix A.1): a policy
that orders past the inventory-position cap (legal on the on-hand basis) passes the capacity check there."""

from __future__ import annotations

import dataclasses

from core.inventory.copilot.assumptions import assumptions
from core.inventory.copilot.critic import critique, supply_limits
from solvers.inventory.agent import optimize
from solvers.inventory.spec import CapacityBasis, problem_from_table

TABLE = {
    "time_horizon": "10", "demand_type": "random", "demand_distribution": "poisson(4)",
    "perishability": "false", "state_transition_model": "lost_sale", "holding_cost": "0.5",
    "penalty_cost": "4", "setup_cost": "8", "lead_time": "2", "max_inventory": "12",
    "max_order": "8", "risk_tolerance": "10",
}  # fmt: skip


def test_critic_and_assumptions_follow_the_capacity_basis() -> None:
    position = problem_from_table(TABLE)
    on_hand = dataclasses.replace(position, capacity_basis=CapacityBasis.ON_HAND)
    result = optimize(on_hand, paths=100, seed=0, use_dqn=False, use_dp=True)
    assert result.dp is not None and result.problem.capacity_basis is CapacityBasis.ON_HAND
    report = critique(result, TABLE, paths=200, seed=0)
    check = report.check("within_capacity")
    assert check.ok and "Stock on hand when ordering" in check.message, check.message
    # the same DP policy judged by the position rule would break the capacity: the basis matters here
    from solvers.inventory.montecarlo import demand_matrix, simulate_policy

    tr = simulate_policy(on_hand, result.dp.policy, demand_matrix(on_hand, 200, 7), record=200).trajectory
    assert int((tr.position + tr.orders).max()) > position.max_inventory
    assert "orders still on the way do not count" in " ".join(assumptions(on_hand))
    assert "on hand plus on order above the storage" in " ".join(assumptions(position))
    tight = dataclasses.replace(position, max_inventory=8)
    assert any("also counts what is on order" in x for x in supply_limits(tight))
    assert supply_limits(dataclasses.replace(tight, capacity_basis=CapacityBasis.ON_HAND)) == []
