"""Elastic LP: the smallest weighted relaxation of chosen rows and bounds that makes an infeasible LP feasible.

For every relaxable row with a finite upper side we add a column e+ >= 0 with coefficient -1, for a finite
lower side a column e- >= 0 with +1 (equalities get both), and minimise sum w_i (e+_i + e-_i) with the
original costs switched off. A relaxable column bound becomes a row `x_j` with the bound's sides (the column
itself is freed) and gets elastics the same way. Items with positive elastics are the ones to repair; the
amounts say by how much. HiGHS' own `feasibilityRelaxation` is not used: it reports success with a stale
solution when the elastic LP is itself infeasible.

`fewest=True` asks for the fewest changed rows and bounds instead (L0): each elastic gets a binary switch
`e <= M z`, the objective is the weighted count of switches (a tiny weight on the amounts breaks ties), and
HiGHS' MIP solver runs under a time limit; the plan found is marked proven only when it changes one item
(HiGHS' own optimality claim is not trusted: big-M numerics, see `_fewest`). The chosen rows are then re-solved as an L1 elastic LP, so the amounts are the smallest for that
set.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import highspy
import numpy as np

from solvers.lp.model import LPModel, LPStatus

BIG_M_FLOOR = 1e6  # the switch's big M is max(this, 100 x the largest L1 amount)


@dataclass(frozen=True)
class Violation:
    row: str  # the row's name, or the column's name when kind == "bound"
    side: str  # "<=" (upper side must rise by amount) or ">=" (lower side must fall by amount)
    amount: float
    kind: str = "row"  # "row" or "bound"


@dataclass(frozen=True)
class ElasticResult:
    feasible: bool  # False: even relaxing every allowed row cannot restore feasibility
    total: float
    violations: tuple[Violation, ...]
    proven: bool = True  # False: the L0 search hit its time limit (best found)


def _build(
    model: LPModel,
    relaxable: Callable[[str], bool],
    weight: Callable[[str], float] | None,
    bounds: Callable[[str], bool] | None,
) -> tuple[LPModel, list[tuple[str, str, str]], list[float]]:
    """A copy of `model` with zero costs and elastic columns; returns it, (kind, name, side) per elastic, weights."""
    work = model.copy()
    h = work.h
    n = work.num_cols
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.zeros(n))
    lp = h.getLp()
    items: list[tuple[str, int, str, float, float]] = []  # kind, row index in work, name, lower, upper
    for i, name in enumerate(work.row_names):
        if relaxable(name):
            items.append(("row", i, name, float(lp.row_lower_[i]), float(lp.row_upper_[i])))
    if bounds is not None:
        picked = [
            j
            for j, name in enumerate(work.col_names)
            if bounds(name) and (math.isfinite(lp.col_lower_[j]) or math.isfinite(lp.col_upper_[j]))
        ]
        if picked:
            lo = np.array([lp.col_lower_[j] for j in picked], dtype=float)
            hi = np.array([lp.col_upper_[j] for j in picked], dtype=float)
            first = work.num_rows
            k = len(picked)
            h.addRows(
                k,
                lo,
                hi,
                k,
                np.arange(k, dtype=np.int32),
                np.array(picked, dtype=np.int32),
                np.ones(k),
            )
            for j in picked:
                h.changeColBounds(j, -highspy.kHighsInf, highspy.kHighsInf)
            for k_, j in enumerate(picked):
                items.append(("bound", first + k_, work.col_names[j], float(lo[k_]), float(hi[k_])))
    cols: list[tuple[str, str, str]] = []
    costs, starts, index, values = [], [], [], []
    for kind, i, name, lower, upper in items:
        w = 1.0 if weight is None else float(weight(name))
        for side, finite, coef in (("<=", upper, -1.0), (">=", lower, 1.0)):
            if math.isfinite(finite):
                cols.append((kind, name, side))
                costs.append(w)
                starts.append(len(index))
                index.append(i)
                values.append(coef)
    if cols:
        k = len(cols)
        h.addCols(
            k,
            np.array(costs),
            np.zeros(k),
            np.full(k, highspy.kHighsInf),
            len(index),
            np.array(starts, dtype=np.int32),
            np.array(index, dtype=np.int32),
            np.array(values),
        )
    return work, cols, costs


def elastic_repair(
    model: LPModel,
    relaxable: Callable[[str], bool],
    weight: Callable[[str], float] | None = None,
    tol: float = 1e-7,
    *,
    bounds: Callable[[str], bool] | None = None,
    fewest: bool = False,
    time_limit: float = 2.0,
) -> ElasticResult:
    """Minimum weighted violation over the rows `relaxable(name)` and the column bounds `bounds(name)` allow
    (the model is left unchanged); `fewest` minimises the weighted number of changes instead (see above)."""
    work, cols, costs = _build(model, relaxable, weight, bounds)
    h = work.h
    n = model.num_cols
    if not cols:
        feasible = work.solve().status in (LPStatus.OPTIMAL, LPStatus.UNBOUNDED)
        return ElasticResult(feasible, 0.0, ())
    h.setOptionValue("time_limit", float(time_limit) if model.is_mip() else math.inf)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return ElasticResult(False, math.inf, ())
    x = np.asarray(h.getSolution().col_value)[n:]
    if not fewest:
        return _result(cols, costs, x, tol)
    return _fewest(model, work, cols, costs, x, tol, time_limit, relaxable, weight, bounds)


def _result(cols, costs, x, tol: float, proven: bool = True) -> ElasticResult:
    found = tuple(
        Violation(name, side, float(v), kind)
        for (kind, name, side), v in zip(cols, x, strict=True)
        if v > tol
    )
    total = float(sum(c * v for c, v in zip(costs, x, strict=True) if v > tol))
    return ElasticResult(True, total, found, proven)


def _fewest(model, work, cols, costs, x_l1, tol, time_limit, relaxable, weight, bounds) -> ElasticResult:
    h = work.h
    n_all = h.getNumCol()
    k = len(cols)
    big = max(BIG_M_FLOOR, 100.0 * float(np.max(x_l1)) if x_l1.size else 0.0)
    first_e = n_all - k
    # switches z_k in {0, 1}: e_k - M z_k <= 0; objective w_k z_k + 1e-9 w_k e_k
    h.changeColsCost(k, np.arange(first_e, n_all, dtype=np.int32), np.array(costs) * 1e-9)
    h.addCols(
        k,
        np.array(costs),
        np.zeros(k),
        np.ones(k),
        0,
        np.zeros(k, dtype=np.int32),
        np.array([], np.int32),
        np.array([]),
    )
    h.changeColsIntegrality(
        k, np.arange(n_all, n_all + k, dtype=np.int32), np.array([highspy.HighsVarType.kInteger] * k)
    )
    starts = np.arange(0, 2 * k, 2, dtype=np.int32)
    index = np.empty(2 * k, dtype=np.int32)
    index[0::2] = np.arange(first_e, n_all)
    index[1::2] = np.arange(n_all, n_all + k)
    values = np.empty(2 * k)
    values[0::2], values[1::2] = 1.0, -big
    h.addRows(k, np.full(k, -highspy.kHighsInf), np.zeros(k), 2 * k, starts, index, values)
    start = highspy.HighsSolution()
    start.col_value = list(np.asarray(h.getSolution().col_value)[:n_all]) + [float(v > tol) for v in x_l1]
    h.setSolution(start)
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("mip_rel_gap", 0.0)
    h.run()
    status = h.getModelStatus()
    proven = status == highspy.HighsModelStatus.kOptimal
    if not proven and h.getInfo().primal_solution_status != 2:
        return _result(cols, costs, x_l1, tol, proven=False)
    x = np.asarray(h.getSolution().col_value)[first_e:n_all]
    chosen = {(kind, name) for (kind, name, _s), v in zip(cols, x, strict=True) if v > tol}
    rows = {name for kind, name in chosen if kind == "row"}
    cols_b = {name for kind, name in chosen if kind == "bound"}
    again = elastic_repair(
        model,
        lambda name: name in rows,
        weight,
        tol,
        bounds=(lambda name: name in cols_b) if bounds is not None else None,
    )
    if not again.feasible:
        return _result(cols, costs, x_l1, tol, proven=False)
    # HiGHS' "optimal" is not trusted as a proof beyond one change: with bound elastics on refinery it reported
    # 3 changes optimal while one row (R121) alone repairs (big-M numerics); one change is the least possible
    return ElasticResult(True, again.total, again.violations, proven and len(again.violations) == 1)
