"""Tightening (G.1 step 2) and the ten injections of Table 7, each with its ground-truth fix.

Every injection and every fix is a list of structured `Edit`s (replayable on a freshly built model); the
fix is also given as agent actions (`gt_actions`), in the paper's grammar where it can be expressed
(ME-1/3/4/5/6/9) and with the extended UPDATE_COEF action otherwise (ME-2/7/8/10).

Magnitudes: the paper's where it gives them (ME-1 offset 3–6 d̄, ME-4 capacity 0.02–0.1 d̄, ME-5 factor
1.5–3.0, ME-7 coefficient 0.05–0.2, ME-10 offset 2–4 d̄); ours where it does not (all in `SABOTAGE`):
* target echelon: uniform over the echelons the injection can apply to (demand propagation needs n >= 2;
  ME-2/ME-7 need an echelon whose lead time is shorter than the horizon; ME-6/ME-9 act on the factory);
* ME-3 (Table 7: "force net inventory I - B below the achievable minimum"; IIS: an inv_balance row with an
  impossible target): the target (RHS) of `inv_balance_e{n}_t{t}` is lowered at a random echelon n and a
  period t <= L_n (before the first arrival, so no order can make up for it) until the net inventory it forces
  is (backorder cap + U[1, 2] d̄) below zero; no row is added. The fix restores the stated target;
  `SabotageConfig.me3_new_row` keeps the earlier injection (a new `net_inventory` row) for comparison;
* ME-6: rows `bullwhip_force_e{N}_t{t}`: x_{N,t} - x_{N-1,t-1} >= U[1.1, 1.5] × factory supply cap;
* ME-9: rows `min_order_t{t}`: x_{N,t} >= U[1.1, 1.5] × factory supply cap;
* ME-10: period shift s ∈ {1, 2} (d_{n,t} = x_{n-1,t-s} + offset).
* ME-4 on an uncapacitated chain adds `capacity_e1_t*` rows (the fix drops them).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from core.errors import SpecError
from solvers.lp.actions import Action, ActionName
from solvers.lp.edits import Edit, EditOp, bounds_edit
from solvers.lp.errortypes import IN_AGENT_GRAMMAR, ErrorType
from solvers.lp.instance import SupplyChain
from solvers.lp.model import LPModel, build_supply_chain, solution_arrays, x_name

INF = math.inf


@dataclass(frozen=True)
class TighteningConfig:
    """G.1 step 2, calibrated to the optimum (B*, x*) of the untightened LP:

    backorder_cap_e{n}_t{t}:  B_{n,t} <= B*_{n,t} + backorder_slack · d̄
    supply_cap_t{t}:          x_{N,t} <= supply_factor · max_t x*_{N,t} + supply_slack · d̄
    Caps are rounded up to cents so the optimum stays feasible.
    """

    backorder_slack: float = 0.05
    supply_factor: float = 1.05
    supply_slack: float = 0.05
    enabled: bool = True


TIGHTENING = TighteningConfig()


@dataclass(frozen=True)
class SabotageConfig:
    """Injection magnitudes (multiples of mean demand d̄ or of the factory supply cap)."""

    demand_offset: tuple[float, float] = (3.0, 6.0)  # ME-1, × d̄
    net_target_extra: tuple[float, float] = (1.0, 2.0)  # ME-3, × d̄ below minus the backorder cap
    capacity_fraction: tuple[float, float] = (0.02, 0.1)  # ME-4, × d̄
    cost_factor: tuple[float, float] = (1.5, 3.0)  # ME-5, × downstream holding cost
    bullwhip_offset: tuple[float, float] = (1.1, 1.5)  # ME-6, × supply cap
    arrival_coef: tuple[float, float] = (0.05, 0.2)  # ME-7
    min_order: tuple[float, float] = (1.1, 1.5)  # ME-9, × supply cap
    shift_offset: tuple[float, float] = (2.0, 4.0)  # ME-10, × d̄
    shift_periods: tuple[int, ...] = (1, 2)  # ME-10
    me3_new_row: bool = False  # ME-3 as before issue 28: a new net_inventory row instead of a balance target


SABOTAGE = SabotageConfig()


@dataclass(frozen=True)
class Tightening:
    backorder_caps: tuple[tuple[float, ...], ...]  # [n][t]
    supply_cap: float | None

    def to_dict(self) -> dict:
        return {"backorder_caps": [list(r) for r in self.backorder_caps], "supply_cap": self.supply_cap}

    @classmethod
    def from_dict(cls, data: dict | None) -> Tightening:
        if not data:
            return cls((), None)
        return cls(tuple(tuple(float(v) for v in r) for r in data["backorder_caps"]), data.get("supply_cap"))


def _ceil2(v: float) -> float:
    return math.ceil(round(v * 100.0, 6)) / 100.0


def calibrate(sc: SupplyChain, base: LPModel, cfg: TighteningConfig = TIGHTENING) -> Tightening:
    """Caps from the optimal plan of the untightened model (which must be OPTIMAL)."""
    arrays = solution_arrays(base, sc.n_echelons, sc.n_periods)
    if not arrays:
        raise SpecError("supply_chain", "the untightened model is not OPTIMAL; cannot calibrate the caps")
    if not cfg.enabled:
        return Tightening((), None)
    d_bar = sc.mean_demand
    caps = tuple(tuple(_ceil2(b + cfg.backorder_slack * d_bar) for b in row) for row in arrays["B"])
    supply = _ceil2(cfg.supply_factor * float(np.max(arrays["x"][-1])) + cfg.supply_slack * d_bar)
    return Tightening(caps, supply)


def build_tightened(sc: SupplyChain, tightening: Tightening) -> LPModel:
    """The Appendix A LP plus the tightening rows (`backorder_cap_e{n}_t{t}`, `supply_cap_t{t}`)."""
    model = build_supply_chain(sc)
    rows = []
    for n, caps in enumerate(tightening.backorder_caps, start=1):
        for t, cap in enumerate(caps, start=1):
            rows.append((f"backorder_cap_e{n}_t{t}", -INF, cap, {f"B_e{n}_t{t}": 1.0}))
    if tightening.supply_cap is not None:
        big_n = sc.n_echelons
        for t in range(1, sc.n_periods + 1):
            rows.append((f"supply_cap_t{t}", -INF, tightening.supply_cap, {x_name(big_n, t): 1.0}))
    model.add_rows(rows)
    return model


@dataclass(frozen=True)
class Sabotage:
    error_type: ErrorType
    edits: tuple[Edit, ...]
    gt_edits: tuple[Edit, ...]
    gt_actions: tuple[Action, ...]
    details: dict = field(default_factory=dict)

    @property
    def gt_in_agent_grammar(self) -> bool:
        return self.error_type in IN_AGENT_GRAMMAR


def _r2(value: float) -> float:
    return round(float(value), 2)


def balance_rhs(sc: SupplyChain, n: int, t: int) -> float:
    """The stated right-hand side of `inv_balance_e{n}_t{t}` (as `build_supply_chain` writes it)."""
    rhs = sc.initial_inventory[n - 1] if t == 1 else 0.0
    return rhs - sc.demand[t - 1] if n == 1 else rhs


def _u(rng: np.random.Generator, lo_hi: tuple[float, float]) -> float:
    return float(rng.uniform(*lo_hi))


def _pick(rng: np.random.Generator, options: list[int]) -> int:
    if not options:
        raise SpecError("error_type", "this injection does not apply to the configuration")
    return int(options[int(rng.integers(len(options)))])


def _periods(sc: SupplyChain) -> range:
    return range(1, sc.n_periods + 1)


def _upstream(sc: SupplyChain) -> list[int]:
    """The echelons with a demand-propagation row (n >= 2)."""
    return list(range(2, sc.n_echelons + 1))


def _me1(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
         cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-1: an offset on every demand-propagation row of one upstream echelon."""
    n = _pick(rng, _upstream(sc))
    off = round(_u(rng, cfg.demand_offset) * sc.mean_demand, 2)
    rows = [f"demand_prop_e{n}_t{t}" for t in _periods(sc)]
    return Sabotage(
        e,
        tuple(bounds_edit(r, off, off) for r in rows),
        tuple(bounds_edit(r, 0.0, 0.0) for r in rows),
        (Action(ActionName.UPDATE_RHS, f"demand_prop_e{n}", 0.0),),
        {"echelon": n, "offset": off},
    )


def _me2_me7(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
             cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-2 (arrivals dropped) and ME-7 (arrivals scaled down) on one echelon's inventory balance."""
    big_t = sc.n_periods
    n = _pick(rng, [k for k in range(1, sc.n_echelons + 1) if sc.lead_time[k - 1] < big_t])
    lead = sc.lead_time[n - 1]
    coef = 0.0 if e is ErrorType.ME2 else round(-_u(rng, cfg.arrival_coef), 3)
    pairs = [(f"inv_balance_e{n}_t{t}", x_name(n, t - lead)) for t in _periods(sc) if t - lead >= 1]
    return Sabotage(
        e,
        tuple(Edit(EditOp.SET_COEF, row=r, col=c, value=coef) for r, c in pairs),
        tuple(Edit(EditOp.SET_COEF, row=r, col=c, value=-1.0) for r, c in pairs),
        (Action(ActionName.UPDATE_COEF, f"inv_balance_e{n}", -1.0, var=f"x_e{n}", lag=lead),),
        {"echelon": n, "lead_time": lead, "coefficient": -coef},
    )


def _me3_target(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
                cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-3: an impossible target on one inventory balance before the echelon's first arrival."""
    if not tightening.backorder_caps:
        raise SpecError("tightening", "ME-3 needs the backorder caps")
    big_t = sc.n_periods
    n = int(rng.integers(1, sc.n_echelons + 1))
    t = int(rng.integers(1, min(sc.lead_time[n - 1], big_t) + 1))
    # before the first arrival, net inventory is at most the initial stock minus the demand served so far
    reachable = sc.initial_inventory[n - 1] - (sum(sc.demand[:t]) if n == 1 else 0.0)
    cap = tightening.backorder_caps[n - 1][t - 1]
    drop = reachable + cap + _u(rng, cfg.net_target_extra) * sc.mean_demand
    row = f"inv_balance_e{n}_t{t}"
    rhs = balance_rhs(sc, n, t)
    target = _r2(rhs - drop)
    return Sabotage(
        e,
        (bounds_edit(row, target, target),),
        (bounds_edit(row, rhs, rhs),),
        (Action(ActionName.UPDATE_RHS, row, rhs),),
        {"echelon": n, "period": t, "target": target, "stated": rhs},
    )


def _me3_new_row(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
                 cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-3 as first injected (`SabotageConfig.me3_new_row`): a new `net_inventory` row below the caps."""
    if not tightening.backorder_caps:
        raise SpecError("tightening", "ME-3 needs the backorder caps")
    n = int(rng.integers(1, sc.n_echelons + 1))
    t = int(rng.integers(1, sc.n_periods + 1))
    target = round(
        -(tightening.backorder_caps[n - 1][t - 1] + _u(rng, cfg.net_target_extra) * sc.mean_demand), 2
    )
    row = f"net_inventory_e{n}_t{t}"
    return Sabotage(
        e,
        (
            Edit(
                EditOp.ADD_ROW,
                row=row,
                upper=target,
                coefs=((f"I_e{n}_t{t}", 1.0), (f"B_e{n}_t{t}", -1.0)),
            ),
        ),
        (Edit(EditOp.DROP_ROW, row=row),),
        (Action(ActionName.DROP_CONSTRAINT, row),),
        {"echelon": n, "period": t, "target": target},
    )


def _me4(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
         cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-4: a tiny retailer capacity (its capacity rows lowered, or added on an uncapacitated chain)."""
    cap = round(_u(rng, cfg.capacity_fraction) * sc.mean_demand, 2)
    rows = [f"capacity_e1_t{t}" for t in _periods(sc)]
    if sc.capacity is not None:
        return Sabotage(
            e,
            tuple(bounds_edit(r, -INF, cap) for r in rows),
            tuple(bounds_edit(r, -INF, sc.capacity[0]) for r in rows),
            (Action(ActionName.UPDATE_RHS, "capacity_e1", sc.capacity[0]),),
            {"echelon": 1, "capacity": cap, "configured": sc.capacity[0]},
        )
    return Sabotage(
        e,
        tuple(
            Edit(EditOp.ADD_ROW, row=r, upper=cap, coefs=((x_name(1, t), 1.0),))
            for t, r in enumerate(rows, 1)
        ),
        tuple(Edit(EditOp.DROP_ROW, row=r) for r in rows),
        (Action(ActionName.DROP_CONSTRAINT, "capacity_e1"),),
        {"echelon": 1, "capacity": cap, "configured": None},
    )


def _me5(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
         cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-5: one upstream echelon's holding cost scaled from its downstream neighbour's."""
    n = _pick(rng, _upstream(sc))
    h = round(_u(rng, cfg.cost_factor) * sc.holding[n - 2], 2)
    cols = [f"I_e{n}_t{t}" for t in _periods(sc)]
    return Sabotage(
        e,
        tuple(Edit(EditOp.SET_COST, col=c, value=h) for c in cols),
        tuple(Edit(EditOp.SET_COST, col=c, value=sc.holding[n - 1]) for c in cols),
        (Action(ActionName.UPDATE_OBJ, f"I_e{n}", sc.holding[n - 1]),),
        {"echelon": n, "holding": h, "configured": sc.holding[n - 1]},
    )


def _me6(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
         cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-6: `bullwhip_force` rows forcing the factory's orders above its supply cap."""
    supply, big_n = tightening.supply_cap, sc.n_echelons
    if supply is None or big_n < 2:
        raise SpecError("tightening", "ME-6 needs the factory supply cap and two echelons")
    off = round(_u(rng, cfg.bullwhip_offset) * supply, 2)
    rows = [
        Edit(
            EditOp.ADD_ROW,
            row=f"bullwhip_force_e{big_n}_t{t}",
            lower=off,
            coefs=((x_name(big_n, t), 1.0), (x_name(big_n - 1, t - 1), -1.0)),
        )
        for t in range(2, sc.n_periods + 1)
    ]
    return Sabotage(
        e,
        tuple(rows),
        tuple(Edit(EditOp.DROP_ROW, row=r.row) for r in rows),
        (Action(ActionName.DROP_CONSTRAINT, f"bullwhip_force_e{big_n}"),),
        {"echelon": big_n, "offset": off},
    )


def _me8(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
         cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-8: the sign of one upstream echelon's demand propagation flipped."""
    n = _pick(rng, _upstream(sc))
    pairs = [(f"demand_prop_e{n}_t{t}", x_name(n - 1, t)) for t in _periods(sc)]
    return Sabotage(
        e,
        tuple(Edit(EditOp.SET_COEF, row=r, col=c, value=1.0) for r, c in pairs),
        tuple(Edit(EditOp.SET_COEF, row=r, col=c, value=-1.0) for r, c in pairs),
        (Action(ActionName.UPDATE_COEF, f"demand_prop_e{n}", -1.0, var=f"x_e{n - 1}", lag=0),),
        {"echelon": n},
    )


def _me9(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
         cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-9: `min_order` rows forcing the factory's orders above its supply cap."""
    supply, big_n = tightening.supply_cap, sc.n_echelons
    if supply is None:
        raise SpecError("tightening", "ME-9 needs the factory supply cap")
    m = round(_u(rng, cfg.min_order) * supply, 2)
    rows = [
        Edit(EditOp.ADD_ROW, row=f"min_order_t{t}", lower=m, coefs=((x_name(big_n, t), 1.0),))
        for t in _periods(sc)
    ]
    return Sabotage(
        e,
        tuple(rows),
        tuple(Edit(EditOp.DROP_ROW, row=r.row) for r in rows),
        (Action(ActionName.DROP_CONSTRAINT, "min_order"),),
        {"echelon": big_n, "minimum": m},
    )


def _me10(e: ErrorType, sc: SupplyChain, tightening: Tightening, rng: np.random.Generator,
          cfg: SabotageConfig) -> Sabotage:  # fmt: skip
    """ME-10: one upstream echelon's demand propagated from a shifted period, plus an offset."""
    n = _pick(rng, _upstream(sc))
    shift = int(cfg.shift_periods[int(rng.integers(len(cfg.shift_periods)))])
    off = round(_u(rng, cfg.shift_offset) * sc.mean_demand, 2)
    inject_edits: list[Edit] = []
    fix: list[Edit] = []
    for t in _periods(sc):
        row = f"demand_prop_e{n}_t{t}"
        inject_edits.append(Edit(EditOp.SET_COEF, row=row, col=x_name(n - 1, t), value=0.0))
        if t - shift >= 1:
            inject_edits.append(Edit(EditOp.SET_COEF, row=row, col=x_name(n - 1, t - shift), value=-1.0))
            fix.append(Edit(EditOp.SET_COEF, row=row, col=x_name(n - 1, t - shift), value=0.0))
        inject_edits.append(bounds_edit(row, off, off))
        fix.append(Edit(EditOp.SET_COEF, row=row, col=x_name(n - 1, t), value=-1.0))
        fix.append(bounds_edit(row, 0.0, 0.0))
    return Sabotage(
        e,
        tuple(inject_edits),
        tuple(fix),
        # restore the same-period link first: removing the shifted term first can leave d = offset, a feasible
        # decoupled model at which Phase I would end before the fix is complete (2 of 30 test problems, seed 7)
        (
            Action(ActionName.UPDATE_COEF, f"demand_prop_e{n}", -1.0, var=f"x_e{n - 1}", lag=0),
            Action(ActionName.UPDATE_COEF, f"demand_prop_e{n}", 0.0, var=f"x_e{n - 1}", lag=shift),
            Action(ActionName.UPDATE_RHS, f"demand_prop_e{n}", 0.0),
        ),
        {"echelon": n, "shift": shift, "offset": off},
    )


Injector = Callable[[ErrorType, SupplyChain, Tightening, np.random.Generator, SabotageConfig], Sabotage]
_INJECTORS: dict[ErrorType, Injector] = {
    ErrorType.ME1: _me1,
    ErrorType.ME2: _me2_me7,
    ErrorType.ME3: _me3_target,
    ErrorType.ME4: _me4,
    ErrorType.ME5: _me5,
    ErrorType.ME6: _me6,
    ErrorType.ME7: _me2_me7,
    ErrorType.ME8: _me8,
    ErrorType.ME9: _me9,
    ErrorType.ME10: _me10,
}


def inject(
    error_type: ErrorType,
    sc: SupplyChain,
    tightening: Tightening,
    rng: np.random.Generator,
    cfg: SabotageConfig = SABOTAGE,
) -> Sabotage:
    """Draw one injection of `error_type` (SpecError if it cannot apply to this configuration)."""
    injector = _me3_new_row if error_type is ErrorType.ME3 and cfg.me3_new_row else _INJECTORS[error_type]
    return injector(error_type, sc, tightening, rng, cfg)
