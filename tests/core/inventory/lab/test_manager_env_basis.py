"""`ManagerEnv` scores an exact-DP recommendation under the trial's capacity basis (issue 30): a run with
`capacity_basis = "on_hand"` scores the policy the protocol scores, not a DP re-solved on the default basis."""

from __future__ import annotations

import dataclasses

import pytest

from core.errors import SpecError
from core.inventory.lab.env import ManagerEnv, policy_from_spec, spec_of
from core.inventory.lab.generator import generate
from solvers.inventory.dp import solve_dp
from solvers.inventory.spec import CapacityBasis, InventoryProblem, parse_demand


def _problem() -> InventoryProblem:
    """A small business where the on-hand basis (Appendix A.1) has a cheaper DP optimum than the default
    (the by-hand problem of tests/solvers/inventory/test_inventory_capacity_basis.py)."""
    return InventoryProblem(
        time_horizon=10,
        demand=parse_demand("poisson(4)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=4.0,
        setup_cost=8.0,
        lead_time=2,
        max_inventory=12,
        max_order=8,
    )


def test_dp_recommendation_is_scored_on_the_trials_capacity_basis() -> None:
    base = generate(1, seed=0, protocol="mixed")[0]
    scenario = dataclasses.replace(base, problem=_problem(), knowledge_base={}).to_dict()
    env = ManagerEnv(scenario, capacity_basis="on_hand", assessment_paths=300, optimizer_paths=20)
    env.reset(seed=0)
    table = env.scenario.table
    _, reward, terminated, _, _ = env.step({"final": "the exact DP", "policy": {"family": "dp", "table": table}})
    metrics = env.episode_metrics()
    # the reference is the exact DP of the truth on the on-hand basis, and the agent recommended that same DP
    assert terminated and metrics["dp_reference"] == 1.0
    assert metrics["gap"] == 0.0 and reward == 0.0 and metrics["cost"] == metrics["reference_cost"]


def test_a_dp_spec_carries_its_capacity_basis() -> None:
    on_hand = dataclasses.replace(_problem(), capacity_basis=CapacityBasis.ON_HAND)
    table = generate(1, seed=0, protocol="mixed")[0].table
    policy = solve_dp(on_hand).policy
    assert spec_of(policy, table, CapacityBasis.ON_HAND) == {
        "family": "dp",
        "table": table,
        "capacity_basis": "on_hand",
    }
    assert spec_of(policy, table) == {"family": "dp", "table": table}  # the default basis: as before
    with pytest.raises(SpecError, match="capacity_basis"):
        policy_from_spec({"family": "dp", "table": table, "capacity_basis": "shelf"})
