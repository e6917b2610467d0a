"""IIS checks and fallbacks: verification (the members alone are infeasible, and dropping any one makes them
feasible), the deletion filter, the presolved-ray IIS and the Farkas certificate in plain words."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

import highspy
import numpy as np

from solvers.lp.model import IIS, IISMember, LPModel, _csr


def members_infeasible(model: LPModel, iis: IIS, skip: int | None = None) -> bool:
    """Solve the LP made of the IIS members only (every other row and bound free), leaving out member `skip`
    (rows first, then bounds)."""
    members = [m for k, m in enumerate(list(iis.rows) + list(iis.bounds)) if k != skip]
    h = _solve_quietly(_members_lp(model, members, integers=False))
    return h.getModelStatus() == highspy.HighsModelStatus.kInfeasible


def _members_lp(model: LPModel, members: Iterable[IISMember], *, integers: bool) -> highspy.HighsLp:
    """The model's LP with zero costs in which only `members` bind (their row sides and column bounds); every
    other row and bound is free. With `integers`, a MIP keeps its integrality."""
    lp = model.h.getLp()
    sub = _relaxed_lp(model, integers=integers)
    lower, upper = np.asarray(sub.col_lower_).copy(), np.asarray(sub.col_upper_).copy()
    rlo, rhi = np.asarray(sub.row_lower_).copy(), np.asarray(sub.row_upper_).copy()
    for m in members:
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
    return sub


def _solve_quietly(sub: highspy.HighsLp) -> highspy.Highs:
    """`sub` solved by HiGHS without output or presolve (so an infeasible LP keeps its dual ray)."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")
    h.passModel(sub)
    h.run()
    return h


def is_irreducible_iis(model: LPModel, iis: IIS) -> bool:
    """True when the members are infeasible together and every single deletion restores feasibility."""
    if iis.empty or not members_infeasible(model, iis):
        return False
    n = len(iis.rows) + len(iis.bounds)
    return all(not members_infeasible(model, iis, skip=k) for k in range(n))


# --- finding an IIS when the ray route fails, and explaining one ---

_Member = tuple[str, int, int]  # ("row" | "col", index, 0 = lower side / 1 = upper side)


def _relaxed_lp(model: LPModel, *, integers: bool = True) -> highspy.HighsLp:
    """The model's LP with zero costs and every row and column bound freed (members are switched back on); a
    MIP keeps its integrality unless `integers` is False."""
    lp = model.h.getLp()
    sub = highspy.HighsLp()
    sub.num_col_, sub.num_row_ = lp.num_col_, lp.num_row_
    sub.a_matrix_ = lp.a_matrix_
    sub.col_cost_ = np.zeros(lp.num_col_)
    sub.col_lower_, sub.col_upper_ = np.full(lp.num_col_, -np.inf), np.full(lp.num_col_, np.inf)
    sub.row_lower_, sub.row_upper_ = np.full(lp.num_row_, -np.inf), np.full(lp.num_row_, np.inf)
    if integers and model.is_mip():
        sub.integrality_ = lp.integrality_
    return sub


def deletion_filter(
    model: LPModel, rows: Iterable[int], cols: Iterable[int], *, time_limit: float = 5.0
) -> IIS | None:
    """The classic deletion filter over the finite sides of `rows` and the finite bounds of `cols`.

    Starts from those members only (everything else free), checks they are infeasible, then drops each member
    whose removal keeps them infeasible. Integrality is kept, so it also works for small MIPs. None when the
    starting set is not infeasible or the time limit (seconds, over all solves) runs out.
    """
    lp = model.h.getLp()
    lo_r, hi_r = np.asarray(lp.row_lower_), np.asarray(lp.row_upper_)
    lo_c, hi_c = np.asarray(lp.col_lower_), np.asarray(lp.col_upper_)
    side = {"row": (lo_r, hi_r), "col": (lo_c, hi_c)}
    members: list[_Member] = [
        ("row", int(i), k) for i in sorted(set(rows)) for k in (0, 1) if math.isfinite(side["row"][k][i])
    ]
    members += [
        ("col", int(j), k) for j in sorted(set(cols)) for k in (0, 1) if math.isfinite(side["col"][k][j])
    ]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")  # the same judgement as `members_infeasible`
    h.passModel(_relaxed_lp(model))
    current = {
        "row": [np.full(len(lo_r), -np.inf), np.full(len(lo_r), np.inf)],
        "col": [np.full(len(lo_c), -np.inf), np.full(len(lo_c), np.inf)],
    }

    def push(kind: str, i: int) -> None:
        lo, hi = float(current[kind][0][i]), float(current[kind][1][i])
        (h.changeRowBounds if kind == "row" else h.changeColBounds)(i, lo, hi)

    for kind, i, k in members:
        current[kind][k][i] = side[kind][k][i]
        push(kind, i)
    started = time.perf_counter()

    def infeasible() -> bool | None:
        left = time_limit - (time.perf_counter() - started)
        if left <= 0:
            return None
        h.setOptionValue("time_limit", left)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kTimeLimit:
            return None
        return status == highspy.HighsModelStatus.kInfeasible

    if not infeasible():
        return None
    kept: list[_Member] = []
    for kind, i, k in members:
        current[kind][k][i] = -np.inf if k == 0 else np.inf
        push(kind, i)
        still = infeasible()
        if still is None:
            return None
        if not still:
            current[kind][k][i] = side[kind][k][i]
            push(kind, i)
            kept.append((kind, i, k))
    return members_to_iis(model, kept)


def members_to_iis(model: LPModel, members: Iterable[_Member]) -> IIS:
    """Row sides and column bounds, by index, as an `IIS` (a row with both sides kept is `==` or `range`)."""
    lp = model.h.getLp()
    row_sides: dict[int, set[int]] = {}
    bounds = []
    for kind, i, k in members:
        if kind == "row":
            row_sides.setdefault(i, set()).add(k)
        else:
            value = float(lp.col_lower_[i] if k == 0 else lp.col_upper_[i])
            bounds.append(IISMember("bound", model.col_names[i], ">=" if k == 0 else "<=", value))
    out = []
    for i in sorted(row_sides):
        lo, hi = float(lp.row_lower_[i]), float(lp.row_upper_[i])
        sides = row_sides[i]
        if sides == {0, 1}:
            out.append(IISMember("row", model.row_names[i], "==" if lo == hi else "range", hi))
        elif sides == {0}:
            out.append(IISMember("row", model.row_names[i], ">=", lo))
        else:
            out.append(IISMember("row", model.row_names[i], "<=", hi))
    return IIS(tuple(out), tuple(bounds))


def presolved_ray_iis(model: LPModel, *, time_limit: float = 5.0) -> IIS | None:
    """An IIS from the Farkas ray HiGHS returns with presolve on (for models where the ray without presolve
    is missing or unusable, such as Netlib's vol1): the ray's rows and every bound of the columns they touch,
    reduced by `deletion_filter`."""
    work = model.copy()
    work.h.setOptionValue("presolve", "on")
    work.h.run()
    if work.h.getModelStatus() != highspy.HighsModelStatus.kInfeasible:
        return None
    _status, has_ray, y = work.h.getDualRay()
    if not has_ray:
        return None
    y = np.asarray(y, dtype=float)
    scale = max(1.0, float(np.max(np.abs(y)))) if y.size else 1.0
    rows = np.nonzero(np.abs(y) > 1e-9 * scale)[0]
    if rows.size == 0:
        return None
    matrix = _csr(model.h.getLp())
    cols = np.unique(matrix[rows].indices)
    return deletion_filter(model, rows.tolist(), cols.tolist(), time_limit=time_limit)


@dataclass(frozen=True)
class FarkasTerm:
    """One IIS row in the certificate: multiply its `side` (">=" or "<=", value `rhs`) by `weight` > 0."""

    row: str
    side: str
    rhs: float
    weight: float

    def words(self) -> str:
        return f"take {self.row} ({self.side} {self.rhs:.6g}) {self.weight:.6g} times"


@dataclass(frozen=True)
class Farkas:
    """Why the IIS rows conflict: weighted and added, the rows force `sum r_j x_j >= need`, while the IIS bounds
    let that sum reach at most `most` (0 when every variable cancels); `need > most` is the contradiction."""

    terms: tuple[FarkasTerm, ...]
    leftover: tuple[tuple[str, float], ...]  # (column, r_j) that do not cancel
    need: float
    most: float

    def sentences(self) -> list[str]:
        """The certificate in plain words, one sentence per row and a closing one."""
        out = [
            f"{t.row}: {'at least' if t.side == '>=' else 'at most'} {t.rhs:.6g}; "
            f"{'add' if t.side == '>=' else 'subtract'} it with weight {t.weight:.6g}."
            for t in self.terms
        ]
        if self.leftover:
            shown = ", ".join(f"{r:+.4g}·{c}" for c, r in self.leftover[:6])
            more = f" and {len(self.leftover) - 6} more" if len(self.leftover) > 6 else ""
            out.append(
                f"Added up, these rows say {shown}{more} must be at least {self.need:.6g}, but the variables' "
                f"bounds in the conflict allow at most {self.most:.6g}: they cannot all hold."
            )
        else:
            out.append(
                f"Added up, every variable cancels and the rows say 0 must be at least {self.need:.6g}: "
                "they cannot all hold."
            )
        return out

    def to_dict(self) -> dict:
        return {
            "rows": [{"row": t.row, "side": t.side, "rhs": t.rhs, "weight": t.weight} for t in self.terms],
            "leftover": [{"column": c, "coefficient": r} for c, r in self.leftover],
            "need": self.need,
            "most": self.most,
            "words": self.sentences(),
        }


def farkas(model: LPModel, iis: IIS) -> Farkas | None:
    """The Farkas certificate of an IIS: the row multipliers that combine its rows into a contradiction.

    Solves the LP of the members alone and reads HiGHS' dual ray; the sign is fixed so that the combination
    reads `sum r_j x_j >= need` with `need` above the most the IIS bounds allow. None when there is no ray
    (a MIP, or HiGHS returns none) or the ray does not certify the members (numerical trouble).
    """
    if iis.empty or model.is_mip():
        return None
    lp = model.h.getLp()
    sub = _members_lp(model, list(iis.rows) + list(iis.bounds), integers=True)
    lower, upper = np.asarray(sub.col_lower_), np.asarray(sub.col_upper_)
    rlo, rhi = np.asarray(sub.row_lower_), np.asarray(sub.row_upper_)
    h = _solve_quietly(sub)
    if h.getModelStatus() != highspy.HighsModelStatus.kInfeasible:
        return None
    _status, has_ray, y = h.getDualRay()
    if not has_ray:
        return None
    y = np.asarray(y, dtype=float)
    matrix = _csr(lp)
    best = None
    for sign in (1.0, -1.0):
        cert = _certificate(sign * y, matrix, rlo, rhi, lower, upper)
        if cert is not None and (best is None or cert[2] - cert[3] > best[2] - best[3]):
            best = cert
    if best is None or not best[2] > best[3]:
        return None
    terms, leftover, need, most = best
    return Farkas(
        tuple(FarkasTerm(model.row_names[i], s, v, w) for i, s, v, w in terms),
        tuple((model.col_names[j], r) for j, r in leftover),
        need,
        most,
    )


def _certificate(y, matrix, rlo, rhi, lower, upper):
    """(terms, leftover, need, most) of `y` (y_i > 0 uses row i's lower side, y_i < 0 its upper side), or
    None when `y` uses a side that is not there."""
    scale = max(1.0, float(np.max(np.abs(y)))) if y.size else 1.0
    y = np.where(np.abs(y) > 1e-9 * scale, y, 0.0) / scale
    terms, need = [], 0.0
    for i in np.nonzero(y)[0]:
        value = rlo[i] if y[i] > 0 else rhi[i]
        if not math.isfinite(value):
            return None
        need += y[i] * value
        terms.append((int(i), ">=" if y[i] > 0 else "<=", float(value), float(abs(y[i]))))
    r = matrix.T @ y
    r = np.where(np.abs(r) > 1e-9, r, 0.0)
    most, leftover = 0.0, []
    for j in np.nonzero(r)[0]:
        bound = upper[j] if r[j] > 0 else lower[j]
        if not math.isfinite(bound):
            return None
        most += r[j] * bound
        leftover.append((int(j), float(r[j])))
    return terms, leftover, float(need), float(most)
