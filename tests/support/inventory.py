"""The seed-000 anchor instance (Appendix A) that several solver tests start from."""

from __future__ import annotations

from solvers.inventory.spec import InventoryProblem, parse_demand


def anchor(lead_time: int = 1, **kw) -> InventoryProblem:
    """Poisson(8), h 0.5, b 2.83 per unit lost, K 3, lost sales, cap 40, max order 20, T 30, empty start."""
    base = dict(
        time_horizon=30,
        demand=parse_demand("poisson(8)"),
        perishable=False,
        lost_sales=True,
        holding_cost=0.5,
        penalty_cost=2.83,
        setup_cost=3,
        lead_time=lead_time,
        max_inventory=40,
        max_order=20,
    )
    return InventoryProblem(**(base | kw))
