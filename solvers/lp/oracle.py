"""The rationality oracle of OptiRepair Appendix C: five checks, their thresholds and Table 8's applicability map.

Checks on an OPTIMAL plan (I, x per echelon and period) and the configuration:
1. base stock        CV_n = std_t(I_n) / mean_t(I_n);            violation if CV_n > 2.0 for some n
2. bullwhip          BWR_n = Var_t(x_n) / Var_t(d_t), n >= 2;    violation if BWR_n > 3.0
3. inventory alloc.  violation if mean(I_1) > 0.25 * d̄ and sum_{n>=2} mean(I_n) ≈ 0
4. cost consistency  configured h non-increasing upstream (1 % tolerance) and every I/B objective
                     coefficient in the model equals the configured h_n / b_n
5. order smoothing   max_t |x_{n,t} - x_{n,t-1}| / mean_t(x_n) < 5.0 for every n

Guards the paper leaves open (ours): std and var are population moments (ddof 0); CV and the smoothing
ratio are skipped (pass) for an echelon whose mean is below 1e-6; "≈ 0" means below 1e-6 · d̄; the
bullwhip ratio is undefined (skipped, pass) when Var(d) < 1e-9 (stationary demand); a coefficient
matches when it differs by at most 1e-6 · max(1, |configured|).

`error_type=None` is the deployable mode (beyond the paper): every check applies, since a user's own
model carries no error label.

Judges (ours): `Judge.PAPER` is the verdict above. `Judge.STRICT` additionally requires the demand link of the
stated serial structure, read from the solution only: for every echelon n >= 2 and period t the demand it
serves, d_{n,t}, equals the order x_{n-1,t} placed by echelon n-1 (within LINK_TOL · max(1, d̄)). It refuses
the plans that "repair" a coefficient error by decoupling an echelon (dropping a `demand_prop` family).
It also requires the **plan replay** (`plan_replay`): the plan's orders are simulated through the *stated*
chain (lead times, customer demand, initial stock, capacities, backorder caps, supply cap: the configuration
and the tightening, never the LP's coefficients), and the LP's inventories, backorders and objective must
match the simulation within REPLAY_TOL · max(1, d̄) per quantity and REPLAY_TOL relative on the cost. This
refuses phantom stock (a shifted balance target), decoupled echelons and coefficient or cost "fixes" alike,
with no ground truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from solvers.lp.errortypes import ErrorType
from solvers.lp.instance import SupplyChain
from solvers.lp.model import LPModel, LPStatus, solution_arrays


class Check(StrEnum):
    BASE_STOCK = "base_stock"
    BULLWHIP = "bullwhip"
    INVENTORY_ALLOCATION = "inventory_allocation"
    COST_CONSISTENCY = "cost_consistency"
    ORDER_SMOOTHING = "order_smoothing"


LABELS: dict[Check, str] = {
    Check.BASE_STOCK: "Base-stock structure",
    Check.BULLWHIP: "Bullwhip ratio",
    Check.INVENTORY_ALLOCATION: "Inventory allocation",
    Check.COST_CONSISTENCY: "Cost consistency",
    Check.ORDER_SMOOTHING: "Order smoothing",
}

THRESHOLDS: dict[Check, float] = {
    Check.BASE_STOCK: 2.0,
    Check.BULLWHIP: 3.0,
    Check.INVENTORY_ALLOCATION: 0.25,
    Check.COST_CONSISTENCY: 0.01,
    Check.ORDER_SMOOTHING: 5.0,
}


class Judge(StrEnum):
    """Which verdict makes a recovered plan rational: Table 8's checks, or those plus the demand link."""

    PAPER = "paper"
    STRICT = "strict"


MEAN_GUARD = 1e-6
LINK_TOL = 1e-6
REPLAY_TOL = 1e-6
VAR_GUARD = 1e-9
COEF_TOL = 1e-6

_STRUCTURAL = frozenset({Check.BASE_STOCK, Check.INVENTORY_ALLOCATION, Check.COST_CONSISTENCY})

# Table 8, cell by cell (bullwhip is applied to no error type).
APPLICABILITY: dict[ErrorType, frozenset[Check]] = {
    ErrorType.ME1: _STRUCTURAL,
    ErrorType.ME2: _STRUCTURAL,
    ErrorType.ME3: _STRUCTURAL,
    ErrorType.ME4: _STRUCTURAL,
    ErrorType.ME5: frozenset({Check.COST_CONSISTENCY}),
    ErrorType.ME6: frozenset({Check.ORDER_SMOOTHING}),
    ErrorType.ME7: frozenset({Check.COST_CONSISTENCY}),
    ErrorType.ME8: frozenset({Check.COST_CONSISTENCY}),
    ErrorType.ME9: _STRUCTURAL,
    ErrorType.ME10: _STRUCTURAL,
}


def applicable_checks(error_type: ErrorType | None) -> frozenset[Check]:
    return frozenset(Check) if error_type is None else APPLICABILITY[error_type]


@dataclass(frozen=True)
class CheckResult:
    """One check: measured value (worst echelon), threshold, pass/fail, and a message naming both."""

    check: Check
    applicable: bool
    passed: bool
    value: float | None
    threshold: float
    message: str

    def to_dict(self) -> dict:
        return {
            "check": self.check.value,
            "label": LABELS[self.check],
            "applicable": self.applicable,
            "passed": self.passed,
            "value": self.value,
            "threshold": self.threshold,
            "message": self.message,
        }


@dataclass(frozen=True)
class OracleReport:
    results: tuple[CheckResult, ...]
    error_type: ErrorType | None

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results if r.applicable)

    def failures(self) -> list[CheckResult]:
        return [r for r in self.results if r.applicable and not r.passed]

    def feedback(self) -> str:
        """Natural-language feedback: one line per violated applicable check."""
        failed = self.failures()
        if not failed:
            return "All applicable rationality checks pass."
        return "\n".join(f"- {LABELS[r.check]} violated: {r.message}" for r in failed)

    def to_dict(self) -> dict:
        return {
            "passed": self.passed,
            "mode": "deployable (all checks)"
            if self.error_type is None
            else f"typed ({self.error_type.value})",
            "checks": [r.to_dict() for r in self.results],
        }


def check_base_stock(inventory: np.ndarray) -> tuple[bool, float | None, str]:
    worst, worst_n = None, None
    for n, row in enumerate(inventory, start=1):
        mean = float(np.mean(row))
        if mean < MEAN_GUARD:
            continue
        cv = float(np.std(row)) / mean
        if worst is None or cv > worst:
            worst, worst_n = cv, n
    tau = THRESHOLDS[Check.BASE_STOCK]
    if worst is None:
        return True, None, "no echelon holds stock on average (CV undefined, check skipped)"
    ok = worst <= tau
    return ok, worst, f"inventory CV at echelon {worst_n} is {worst:.3g} (threshold: at most {tau:g})"


def check_bullwhip(orders: np.ndarray, demand: np.ndarray) -> tuple[bool, float | None, str]:
    tau = THRESHOLDS[Check.BULLWHIP]
    var_d = float(np.var(demand))
    if var_d < VAR_GUARD or orders.shape[0] < 2:
        return True, None, "customer demand has no variance (bullwhip ratio undefined, check skipped)"
    ratios = [float(np.var(orders[n])) / var_d for n in range(1, orders.shape[0])]
    worst = max(ratios)
    n = ratios.index(worst) + 2
    return (
        worst <= tau,
        worst,
        f"order variance ratio at echelon {n} is {worst:.3g} (threshold: at most {tau:g})",
    )


def check_allocation(inventory: np.ndarray, mean_demand: float) -> tuple[bool, float | None, str]:
    tau = THRESHOLDS[Check.INVENTORY_ALLOCATION]
    retailer = float(np.mean(inventory[0]))
    upstream = float(sum(np.mean(inventory[n]) for n in range(1, inventory.shape[0])))
    ratio = retailer / mean_demand if mean_demand > 0 else 0.0
    hoards = ratio > tau and upstream < MEAN_GUARD * mean_demand
    msg = (
        f"retailer holds {retailer:.3g} units on average ({ratio:.3g} x mean demand; threshold {tau:g}) "
        f"while upstream echelons hold {upstream:.3g} in total"
    )
    return not hoards, ratio, msg


def check_cost(sc: SupplyChain, costs: dict[str, float] | None) -> tuple[bool, float | None, str]:
    tol = THRESHOLDS[Check.COST_CONSISTENCY]
    h = sc.holding
    worst_ratio = 0.0
    for n in range(1, len(h)):
        if h[n - 1] > 0:
            worst_ratio = max(worst_ratio, h[n] / h[n - 1] - 1.0)
        if h[n] > h[n - 1] * (1 + tol) + 1e-9:
            return (
                False,
                h[n] / h[n - 1] - 1.0,
                f"configured holding cost rises upstream: h_{n + 1} = {h[n]:g} > h_{n} = {h[n - 1]:g} "
                f"(tolerance {tol:.0%})",
            )
    if costs is not None:
        for n in range(1, sc.n_echelons + 1):
            for key, want in (("I", h[n - 1]), ("B", sc.backorder[n - 1])):
                for t in range(1, sc.n_periods + 1):
                    have = costs.get(f"{key}_e{n}_t{t}")
                    if have is None:
                        continue
                    if abs(have - want) > COEF_TOL * max(1.0, abs(want)):
                        kind = "holding" if key == "I" else "backorder"
                        return (
                            False,
                            have,
                            f"objective coefficient of {key}_e{n}_t{t} is {have:g} but the specified {kind} cost "
                            f"at echelon {n} is {want:g}",
                        )
    return (
        True,
        worst_ratio,
        "holding costs do not rise upstream and every cost coefficient matches the specification",
    )


def check_smoothing(orders: np.ndarray) -> tuple[bool, float | None, str]:
    tau = THRESHOLDS[Check.ORDER_SMOOTHING]
    worst, worst_n = None, None
    for n, row in enumerate(orders, start=1):
        mean = float(np.mean(row))
        if mean < MEAN_GUARD or len(row) < 2:
            continue
        ratio = float(np.max(np.abs(np.diff(row)))) / mean
        if worst is None or ratio > worst:
            worst, worst_n = ratio, n
    if worst is None:
        return True, None, "no echelon orders anything (ratio undefined, check skipped)"
    return (
        worst < tau,
        worst,
        f"largest period-to-period order change at echelon {worst_n} is {worst:.3g} x its mean order "
        f"(threshold: below {tau:g})",
    )


def evaluate_plan(
    sc: SupplyChain,
    *,
    inventory: np.ndarray,
    orders: np.ndarray,
    costs: dict[str, float] | None,
    error_type: ErrorType | None,
) -> OracleReport:
    """Run every check on a plan; `applicable` follows Table 8 (or all checks when error_type is None)."""
    active = applicable_checks(error_type)
    demand = np.asarray(sc.demand, dtype=float)
    raw = {
        Check.BASE_STOCK: check_base_stock(inventory),
        Check.BULLWHIP: check_bullwhip(orders, demand),
        Check.INVENTORY_ALLOCATION: check_allocation(inventory, sc.mean_demand),
        Check.COST_CONSISTENCY: check_cost(sc, costs),
        Check.ORDER_SMOOTHING: check_smoothing(orders),
    }
    results = tuple(
        CheckResult(check, check in active, ok, value, THRESHOLDS[check], msg)
        for check, (ok, value, msg) in raw.items()
    )
    return OracleReport(results, error_type)


def evaluate(model: LPModel, sc: SupplyChain, *, error_type: ErrorType | None) -> OracleReport | None:
    """Solve (warm) and judge the plan; None when the model is not OPTIMAL."""
    if model.solve().status is not LPStatus.OPTIMAL:
        return None
    arrays = solution_arrays(model, sc.n_echelons, sc.n_periods)
    return evaluate_plan(
        sc, inventory=arrays["I"], orders=arrays["x"], costs=model.costs(), error_type=error_type
    )


def check_demand_link(
    demand_seen: np.ndarray, orders: np.ndarray, mean_demand: float
) -> tuple[bool, float | None, str]:
    """d_{n,t} = x_{n-1,t} for every n >= 2 and t; (N, T) arrays, row 0 of `demand_seen` unused."""
    if orders.shape[0] < 2:
        return True, None, "a single echelon has no upstream demand link (check skipped)"
    gaps = np.abs(demand_seen[1:] - orders[:-1])
    worst = float(np.max(gaps))
    n, t = (int(i) for i in np.unravel_index(int(np.argmax(gaps)), gaps.shape))
    tol = LINK_TOL * max(1.0, mean_demand)
    msg = (
        f"demand served by echelon {n + 2} in period {t + 1} is {demand_seen[n + 1, t]:.6g} but echelon "
        f"{n + 1} orders {orders[n, t]:.6g} (largest gap {worst:.3g}; tolerance {tol:.3g})"
    )
    return worst <= tol, worst, msg


def demand_link(model: LPModel, sc: SupplyChain) -> tuple[bool, float | None, str] | None:
    """The demand-link check on the model's solved values (a missing column counts as 0); None if not OPTIMAL."""
    values = model.values()
    if not values:
        return None
    big_n, big_t = sc.n_echelons, sc.n_periods
    seen = np.zeros((big_n, big_t))
    orders = np.zeros((big_n, big_t))
    for n in range(1, big_n + 1):
        for t in range(1, big_t + 1):
            seen[n - 1, t - 1] = values.get(f"d_e{n}_t{t}", 0.0)
            orders[n - 1, t - 1] = values.get(f"x_e{n}_t{t}", 0.0)
    return check_demand_link(seen, orders, sc.mean_demand)


@dataclass(frozen=True)
class Limits:
    """The stated operational limits beyond the configuration: backorder caps [n][t] and the factory supply cap."""

    backorder_caps: tuple[tuple[float, ...], ...] = ()
    supply_cap: float | None = None


@dataclass(frozen=True)
class Replay:
    """The plan replay's verdict: passed, the worst gap (in units, or relative for the cost) and one sentence."""

    passed: bool
    gap: float
    message: str


def simulate(sc: SupplyChain, orders: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """On-hand stock and backorders, (N, T) each, of `orders` (N, T) run through the stated serial chain.

    Echelon n receives its own order of period t - L_n in period t and serves the customer demand (n = 1) or
    the order of echelon n - 1 placed in the same period; net stock starts at the initial inventory.
    """
    big_n, big_t = orders.shape
    net = np.zeros((big_n, big_t))
    for n in range(big_n):
        lead = sc.lead_time[n]
        level = sc.initial_inventory[n]
        for t in range(big_t):
            arrival = orders[n, t - lead] if t - lead >= 0 else 0.0
            served = sc.demand[t] if n == 0 else orders[n - 1, t]
            level = level + arrival - served
            net[n, t] = level
    return np.maximum(net, 0.0), np.maximum(-net, 0.0)


def replay_plan(
    sc: SupplyChain,
    limits: Limits,
    *,
    orders: np.ndarray,
    inventory: np.ndarray,
    backorders: np.ndarray,
    objective: float,
) -> Replay:
    """Check an LP plan against the simulation of its orders through the stated chain (see the docstring)."""
    tol = REPLAY_TOL * max(1.0, sc.mean_demand)
    big_n, big_t = orders.shape
    worst = float(max(0.0, -float(np.min(orders))))
    if worst > tol:
        n, t = np.unravel_index(int(np.argmin(orders)), orders.shape)
        return Replay(False, worst, f"echelon {n + 1} orders {orders[n, t]:.6g} in period {t + 1} (negative)")
    limits_by_row: list[tuple[str, np.ndarray, np.ndarray]] = []
    if sc.capacity is not None:
        caps = np.repeat(np.asarray(sc.capacity, dtype=float)[:, None], big_t, axis=1)
        limits_by_row.append(("order capacity", orders, caps))
    if limits.supply_cap is not None:
        limits_by_row.append(("factory supply cap", orders[-1:], np.full((1, big_t), limits.supply_cap)))
    sim_i, sim_b = simulate(sc, orders)
    if limits.backorder_caps:
        limits_by_row.append(("backorder limit", sim_b, np.asarray(limits.backorder_caps, dtype=float)))
    for label, have, cap in limits_by_row:
        over = have - cap
        if float(np.max(over)) > tol:
            n, t = np.unravel_index(int(np.argmax(over)), over.shape)
            who = big_n if label == "factory supply cap" else n + 1
            what = "backorders" if label == "backorder limit" else "orders"
            return Replay(
                False,
                float(np.max(over)),
                f"replayed through the stated chain, echelon {who} {what} {have[n, t]:.6g} in period {t + 1}, "
                f"above the stated {label} {cap[n, t]:.6g}",
            )
    for label, have, want in (("on-hand stock", inventory, sim_i), ("backorders", backorders, sim_b)):
        gaps = np.abs(have - want)
        gap = float(np.max(gaps))
        if gap > tol:
            n, t = np.unravel_index(int(np.argmax(gaps)), gaps.shape)
            return Replay(
                False,
                gap,
                f"the LP's {label} of echelon {n + 1} in period {t + 1} is {have[n, t]:.6g} but its orders, "
                f"replayed through the stated chain, give {want[n, t]:.6g} (tolerance {tol:.3g})",
            )
    h = np.asarray(sc.holding, dtype=float)[:, None]
    b = np.asarray(sc.backorder, dtype=float)[:, None]
    cost = float(np.sum(h * sim_i + b * sim_b))
    rel = abs(objective - cost) / max(1.0, abs(cost))
    if rel > REPLAY_TOL:
        return Replay(
            False,
            rel,
            f"the LP's objective is {objective:.6g} but the replayed plan costs {cost:.6g} at the stated "
            "holding and backorder costs",
        )
    return Replay(True, max(worst, rel), f"the plan replays exactly through the stated chain (cost {cost:.6g})")


def plan_replay(model: LPModel, sc: SupplyChain, limits: Limits) -> Replay | None:
    """`replay_plan` on the model's solved values (a missing column counts as 0); None if not OPTIMAL."""
    result = model.solve()
    if result.status is not LPStatus.OPTIMAL or result.objective is None:
        return None
    arrays = solution_arrays(model, sc.n_echelons, sc.n_periods)
    return replay_plan(
        sc,
        limits,
        orders=arrays["x"],
        inventory=arrays["I"],
        backorders=arrays["B"],
        objective=float(result.objective),
    )


def strict_refusal(model: LPModel, sc: SupplyChain, limits: Limits) -> str | None:
    """Why the strict judge's own checks (demand link, plan replay) refuse the solved plan; None if they pass."""
    link = demand_link(model, sc)
    if link is None:
        return "the model is not OPTIMAL"
    if not link[0]:
        return f"the echelons are not linked: {link[2]}"
    replay = plan_replay(model, sc, limits)
    if replay is None:
        return "the model is not OPTIMAL"
    return None if replay.passed else replay.message


def judge(
    model: LPModel,
    sc: SupplyChain,
    *,
    error_type: ErrorType | None,
    kind: Judge,
    limits: Limits | None = None,
) -> bool:
    """True when the model is OPTIMAL and its plan is rational under judge `kind` (no ground truth used).

    `limits` are the stated backorder caps and supply cap the strict judge's replay enforces (none if omitted).
    """
    report = evaluate(model, sc, error_type=error_type)
    if report is None or not report.passed:
        return False
    if kind is Judge.PAPER:
        return True
    return strict_refusal(model, sc, limits or Limits()) is None
