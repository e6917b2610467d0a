"""Elastic LP: the smallest weighted relaxation of chosen rows that makes an infeasible LP feasible.

For every relaxable row with a finite upper side we add a column e+ >= 0 with coefficient -1, for a finite
lower side a column e- >= 0 with +1 (equalities get both), and minimise sum w_i (e+_i + e-_i) with the
original costs switched off. Rows with positive elastics are the ones to repair; the amounts say by how much.
HiGHS' own `feasibilityRelaxation` is not used: it reports success with a stale solution when the elastic LP
is itself infeasible (shared/notes/solvers.md §9).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import highspy
import numpy as np

from solvers.lp.model import LPModel, LPStatus


@dataclass(frozen=True)
class Violation:
    row: str
    side: str  # "<=" (upper side must rise by amount) or ">=" (lower side must fall by amount)
    amount: float


@dataclass(frozen=True)
class ElasticResult:
    feasible: bool  # False: even relaxing every allowed row cannot restore feasibility
    total: float
    violations: tuple[Violation, ...]


def elastic_repair(
    model: LPModel,
    relaxable: Callable[[str], bool],
    weight: Callable[[str], float] | None = None,
    tol: float = 1e-7,
) -> ElasticResult:
    """Minimum weighted violation over the rows `relaxable(name)` allows (the model is left unchanged)."""
    work = model.copy()
    h = work.h
    lp = h.getLp()
    n = work.num_cols
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.zeros(n))
    cols: list[tuple[str, str]] = []
    costs, starts, index, values = [], [], [], []
    for i, name in enumerate(work.row_names):
        if not relaxable(name):
            continue
        w = 1.0 if weight is None else float(weight(name))
        for side, finite, coef in (("<=", lp.row_upper_[i], -1.0), (">=", lp.row_lower_[i], 1.0)):
            if math.isfinite(finite):
                cols.append((name, side))
                costs.append(w)
                starts.append(len(index))
                index.append(i)
                values.append(coef)
    if not cols:
        feasible = work.solve().status is LPStatus.OPTIMAL
        return ElasticResult(feasible, 0.0, ())
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
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return ElasticResult(False, math.inf, ())
    x = np.asarray(h.getSolution().col_value)[n:]
    found = tuple(Violation(r, s, float(v)) for (r, s), v in zip(cols, x, strict=True) if v > tol)
    return ElasticResult(True, float(sum(c * v for c, v in zip(costs, x, strict=True))), found)
