"""Independent verification of an IIS: the members alone are infeasible, and dropping any one makes them feasible."""

from __future__ import annotations

import highspy
import numpy as np

from solvers.lp.model import IIS, LPModel


def members_infeasible(model: LPModel, iis: IIS, skip: int | None = None) -> bool:
    """Solve the LP made of the IIS members only (every other row and bound free), leaving out member `skip`
    (rows first, then bounds)."""
    lp = model.h.getLp()
    sub = highspy.HighsLp()
    sub.num_col_, sub.num_row_ = lp.num_col_, lp.num_row_
    sub.a_matrix_ = lp.a_matrix_
    sub.col_cost_ = np.zeros(lp.num_col_)
    lower, upper = np.full(lp.num_col_, -np.inf), np.full(lp.num_col_, np.inf)
    rlo, rhi = np.full(lp.num_row_, -np.inf), np.full(lp.num_row_, np.inf)
    members = list(iis.rows) + list(iis.bounds)
    for k, m in enumerate(members):
        if k == skip:
            continue
        if m.kind == "row":
            i = model.row_index(m.name)
            if m.side in (">=", "==", "range"):
                rlo[i] = lp.row_lower_[i]
            if m.side in ("<=", "==", "range"):
                rhi[i] = lp.row_upper_[i]
        else:
            j = model.col_index(m.name)
            if m.side == ">=":
                lower[j] = m.value
            else:
                upper[j] = m.value
    sub.col_lower_, sub.col_upper_, sub.row_lower_, sub.row_upper_ = lower, upper, rlo, rhi
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")
    h.passModel(sub)
    h.run()
    return h.getModelStatus() == highspy.HighsModelStatus.kInfeasible


def is_irreducible_iis(model: LPModel, iis: IIS) -> bool:
    """True when the members are infeasible together and every single deletion restores feasibility."""
    if iis.empty or not members_infeasible(model, iis):
        return False
    n = len(iis.rows) + len(iis.bounds)
    return all(not members_infeasible(model, iis, skip=k) for k in range(n))
