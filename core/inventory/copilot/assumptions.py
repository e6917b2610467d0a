"""The modelling conventions behind every number the Copilot reports, in plain words (the critic lists them)."""

from __future__ import annotations

from solvers.inventory.spec import CapacityBasis, InventoryProblem, format_number


def assumptions(problem: InventoryProblem) -> tuple[str, ...]:
    """The modelling conventions every reported number depends on, in plain words."""
    p = problem
    demand = p.demand
    if demand.kind == "normal":
        words = (
            f"Daily demand is drawn from a normal distribution (mean {format_number(demand.params[0])}, "
            f"sd {format_number(demand.params[1])}), rounded to the nearest whole unit and never below 0."
        )
    elif demand.kind == "poisson":
        words = (
            f"Daily demand is a whole number of units, Poisson with mean {format_number(demand.params[0])}."
        )
    elif demand.kind == "uniform":
        a, b = (format_number(x) for x in demand.params)
        words = f"Daily demand is any whole number from {a} to {b}, each equally likely."
    elif demand.kind == "deterministic":
        words = f"Daily demand is exactly {format_number(demand.params[0])} units every day."
    else:
        words = "Daily demand is resampled from your demand history."
    timing = (
        f"You review stock once a day; an order placed on a day arrives {p.lead_time} day(s) later, at the "
        "start of that day, before customers come."
        if p.lead_time
        else "You review stock once a day; an order arrives the same day, before customers come."
    )
    out = [
        f"You start with {p.initial_inventory} units on hand and nothing on order.",
        words,
        timing,
        "Holding cost is charged on the units left at the end of each day, the shortage penalty on each unit "
        + (
            "of demand you cannot serve (the sale is lost)"
            if p.lost_sales
            else "waiting as a backorder, for every day it waits"
        )
        + ", and the order fee once per order of any size.",
        "Orders above the max order, or that would push stock on hand plus on order above the storage "
        "capacity, are cut down to fit."
        if p.capacity_basis is CapacityBasis.INVENTORY_POSITION
        else "Orders above the max order, or that would push the stock on the shelf (after today's delivery) "
        "above the storage capacity, are cut down to fit; orders still on the way do not count, so "
        "deliveries can lift stock above the capacity.",
        f"Leftover stock has no value at the end of the {p.time_horizon}-day plan.",
        f"Policies are compared by expected cost plus exp(-λ)·standard deviation with λ = "
        f"{format_number(p.risk_tolerance)}.",
    ]
    if p.perishable:
        out.insert(3, "Unsold units spoil and are thrown away at the end of each day.")
    return tuple(out)
