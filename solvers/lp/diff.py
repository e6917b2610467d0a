"""The difference between two named LPs (what a repair changed, or how a model departs from its specification)."""

from __future__ import annotations

from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from solvers.lp.model import LPModel


@dataclass(frozen=True)
class ModelDiff:
    """Name-keyed changes from `base` to `other` (bounds as (lower, upper); coefficients as (row, col))."""

    added_rows: tuple[str, ...]
    removed_rows: tuple[str, ...]
    row_bounds: tuple[tuple[str, tuple[float, float], tuple[float, float]], ...]
    coefs: tuple[tuple[str, str, float, float], ...]  # row, col, base value, other value
    costs: tuple[tuple[str, float, float], ...]
    col_bounds: tuple[tuple[str, tuple[float, float], tuple[float, float]], ...]

    @property
    def empty(self) -> bool:
        return not (
            self.added_rows
            or self.removed_rows
            or self.row_bounds
            or self.coefs
            or self.costs
            or self.col_bounds
        )

    def to_dict(self) -> dict:
        def num(v: float) -> float | None:
            return None if not np.isfinite(v) else float(v)

        return {
            "added_rows": list(self.added_rows),
            "removed_rows": list(self.removed_rows),
            "row_bounds": [
                {"row": r, "before": [num(a), num(b)], "after": [num(c), num(d)]}
                for r, (a, b), (c, d) in self.row_bounds
            ],
            "coefficients": [{"row": r, "col": c, "before": a, "after": b} for r, c, a, b in self.coefs],
            "costs": [{"col": c, "before": a, "after": b} for c, a, b in self.costs],
            "col_bounds": [
                {"col": c, "before": [num(a), num(b)], "after": [num(x), num(y)]}
                for c, (a, b), (x, y) in self.col_bounds
            ],
        }


def _rows(model: LPModel) -> tuple[dict[str, tuple[float, float]], dict[str, dict[str, float]]]:
    lp = model.h.getLp()
    a = lp.a_matrix_
    shape = (lp.num_row_, lp.num_col_)
    data = (np.asarray(a.value_), np.asarray(a.index_), np.asarray(a.start_))
    if a.format_ == highspy.MatrixFormat.kColwise:
        csr = sp.csc_matrix(data, shape=shape).tocsr()
    else:
        csr = sp.csr_matrix(data, shape=shape)
    bounds = {
        n: (float(lo), float(hi))
        for n, lo, hi in zip(model.row_names, lp.row_lower_, lp.row_upper_, strict=True)
    }
    coefs = {}
    for i, name in enumerate(model.row_names):
        lo, hi = csr.indptr[i], csr.indptr[i + 1]
        coefs[name] = {
            model.col_names[j]: float(v)
            for j, v in zip(csr.indices[lo:hi], csr.data[lo:hi], strict=True)
            if v != 0
        }
    return bounds, coefs


def diff_models(base: LPModel, other: LPModel, tol: float = 1e-9) -> ModelDiff:
    """What changed from `base` to `other`, matching rows and columns by name."""
    b_bounds, b_coefs = _rows(base)
    o_bounds, o_coefs = _rows(other)
    added = tuple(n for n in other.row_names if n not in b_bounds)
    removed = tuple(n for n in base.row_names if n not in o_bounds)
    bounds, coefs = [], []
    for name in base.row_names:
        if name not in o_bounds:
            continue
        if any(x != y and not abs(x - y) <= tol for x, y in zip(b_bounds[name], o_bounds[name], strict=True)):
            bounds.append((name, b_bounds[name], o_bounds[name]))
        bc, oc = b_coefs[name], o_coefs[name]
        for col in sorted(set(bc) | set(oc)):
            x, y = bc.get(col, 0.0), oc.get(col, 0.0)
            if abs(x - y) > tol:
                coefs.append((name, col, x, y))
    b_lp, o_lp = base.h.getLp(), other.h.getLp()
    o_col = {n: j for j, n in enumerate(other.col_names)}
    costs, col_bounds = [], []
    for j, name in enumerate(base.col_names):
        k = o_col.get(name)
        if k is None:
            continue
        if abs(b_lp.col_cost_[j] - o_lp.col_cost_[k]) > tol:
            costs.append((name, float(b_lp.col_cost_[j]), float(o_lp.col_cost_[k])))
        before = (float(b_lp.col_lower_[j]), float(b_lp.col_upper_[j]))
        after = (float(o_lp.col_lower_[k]), float(o_lp.col_upper_[k]))
        if before != after:
            col_bounds.append((name, before, after))
    return ModelDiff(added, removed, tuple(bounds), tuple(coefs), tuple(costs), tuple(col_bounds))
