"""A named LP on highspy with in-place edits, solves, IIS and slack queries, plus the supply-chain builder.

`LPModel` keeps its own `{name: index}` maps and rebuilds them after every structural change (row
deletions shift later indices; highspy 1.15.1 also returns garbage from `getRowByName` after a delete
followed by an add, see shared/notes/solvers.md §8). Re-solves are warm (`run()` keeps the basis).

Supply-chain formulation (Appendix A, our naming; periods and echelons 1-based):

    min  sum_{n,t} h_n I_{n,t} + b_n B_{n,t}
    inv_balance_e{n}_t{t}:  I_{n,t} - B_{n,t} - I_{n,t-1} + B_{n,t-1} - x_{n,t-L_n} + d_{n,t} = rhs
                            (rhs = -d_t for the retailer, 0 upstream; plus I_init - 0 at t = 1;
                             the arrival term is absent when t - L_n <= 0; d_{1,t} is data, not a column)
    demand_prop_e{n}_t{t}:  d_{n,t} - x_{n-1,t} = 0           (n >= 2)
    capacity_e{n}_t{t}:     x_{n,t} <= C_n                      (capacitated chains only)
    x, I, B, d >= 0

Variables: `x_e{n}_t{t}` (order), `I_e{n}_t{t}` (on hand), `B_e{n}_t{t}` (backorders), `d_e{n}_t{t}`
(demand seen by echelon n >= 2). About 4·N·T columns and 2·N·T rows (+N·T capacity rows).
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import highspy
import numpy as np
import scipy.sparse as sp

from core.errors import SolverError, SpecError

if TYPE_CHECKING:  # a type hint only: model.py must not import the generator (the diagnostician reads it)
    from solvers.lp.instance import SupplyChain

INF = math.inf
_STATUS = highspy.HighsModelStatus
_PERIOD = re.compile(r"^(.*)_t(\d+)$")


class LPStatus(StrEnum):
    OPTIMAL = "OPTIMAL"
    INFEASIBLE = "INFEASIBLE"
    UNBOUNDED = "UNBOUNDED"
    OTHER = "OTHER"


@dataclass(frozen=True)
class SolveResult:
    status: LPStatus
    objective: float | None


@dataclass(frozen=True)
class IISMember:
    """One IIS member: a row (kind "row") or a column bound (kind "bound"); `side` is "<=", ">=" or "==" ."""

    kind: str
    name: str
    side: str
    value: float

    def label(self) -> str:
        return self.name if self.kind == "row" else f"{self.name} {self.side} {self.value:g}"


@dataclass(frozen=True)
class IIS:
    rows: tuple[IISMember, ...]
    bounds: tuple[IISMember, ...]

    @property
    def row_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.rows)

    @property
    def empty(self) -> bool:
        return not self.rows and not self.bounds


@dataclass(frozen=True)
class Slack:
    """A row's sense, bounds, activity and slack (activity and slack are None when the LP is not OPTIMAL)."""

    name: str
    sense: str
    lower: float
    upper: float
    activity: float | None
    slack: float | None
    dual: float | None


def sense_of(lower: float, upper: float) -> str:
    if lower == upper:
        return "=="
    if math.isinf(lower) and not math.isinf(upper):
        return "<="
    if math.isinf(upper) and not math.isinf(lower):
        return ">="
    if math.isinf(lower) and math.isinf(upper):
        return "free"
    return "range"


def family_of(name: str) -> str:
    """The name without its trailing `_t{period}` (`capacity_e1_t3` -> `capacity_e1`)."""
    match = _PERIOD.match(name)
    return match.group(1) if match else name


def period_of(name: str) -> int | None:
    match = _PERIOD.match(name)
    return int(match.group(2)) if match else None


def matching(names: Iterable[str], target: str) -> list[str]:
    """Exact name wins; otherwise every name that starts with `target + "_"` (so `..._t1` never hits `..._t10`)."""
    names = list(names)
    if target in names:
        return [target]
    prefix = target + "_"
    return [n for n in names if n.startswith(prefix)]


def _new_highs() -> highspy.Highs:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


class LPModel:
    """A named LP held by one `highspy.Highs`; every edit addresses rows and columns by name."""

    def __init__(self, highs: highspy.Highs) -> None:
        self.h = highs
        self._reindex()
        self._result: SolveResult | None = None

    # --- construction ---

    @classmethod
    def from_rows(
        cls,
        *,
        columns: list[tuple[str, float, float, float]],
        rows: list[tuple[str, float, float, dict[str, float]]],
    ) -> LPModel:
        """Build from (name, lower, upper, cost) columns and (name, lower, upper, {column: coef}) rows."""
        col_index = {name: j for j, (name, *_rest) in enumerate(columns)}
        lp = highspy.HighsLp()
        lp.num_col_ = len(columns)
        lp.num_row_ = len(rows)
        lp.col_cost_ = np.array([c[3] for c in columns], dtype=float)
        lp.col_lower_ = np.array([c[1] for c in columns], dtype=float)
        lp.col_upper_ = np.array([c[2] for c in columns], dtype=float)
        lp.row_lower_ = np.array([r[1] for r in rows], dtype=float)
        lp.row_upper_ = np.array([r[2] for r in rows], dtype=float)
        start = [0]
        index: list[int] = []
        value: list[float] = []
        for name, _lo, _hi, coefs in rows:
            for col, coef in coefs.items():
                if col not in col_index:
                    raise SpecError(name, f"row uses unknown column {col!r}")
                index.append(col_index[col])
                value.append(coef)
            start.append(len(index))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.num_col_ = len(columns)
        lp.a_matrix_.num_row_ = len(rows)
        lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=float)
        lp.col_names_ = [c[0] for c in columns]
        lp.row_names_ = [r[0] for r in rows]
        h = _new_highs()
        status = h.passModel(lp)
        if status == highspy.HighsStatus.kError:
            raise SolverError("HiGHS rejected the model")
        return cls(h)

    @classmethod
    def read(cls, path: str | Path, *, name: str | None = None) -> LPModel:
        """Read an .mps or .lp file (HiGHS decides by the extension); `name` is the file name shown in errors.

        User files go through `solvers.lp.analyze.read_model`, which checks them first.
        """
        path = Path(path)
        shown = name or path.name
        h = _new_highs()
        status = h.readModel(str(path))
        if status == highspy.HighsStatus.kError:
            raise SpecError("file", f"HiGHS could not read {shown}: not a valid .mps or .lp model")
        return cls(h)

    @classmethod
    def from_text(cls, text: str, fmt: str = "lp") -> LPModel:
        fd, name = tempfile.mkstemp(suffix="." + fmt)
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(text)
            return cls.read(name)
        finally:
            os.unlink(name)

    def to_text(self, fmt: str = "lp") -> str:
        """The model as CPLEX-LP (`lp`) or MPS (`mps`) text."""
        fd, name = tempfile.mkstemp(suffix="." + fmt)
        os.close(fd)
        try:
            self.h.writeModel(name)
            return Path(name).read_text()
        finally:
            os.unlink(name)

    def copy(self) -> LPModel:
        h = _new_highs()
        h.passModel(self.h.getLp())
        return LPModel(h)

    def _reindex(self) -> None:
        lp = self.h.getLp()
        self.row_names: list[str] = list(lp.row_names_)
        self.col_names: list[str] = list(lp.col_names_)
        if len(self.row_names) != lp.num_row_:
            self.row_names = [f"r{i}" for i in range(lp.num_row_)]
        if len(self.col_names) != lp.num_col_:
            self.col_names = [f"c{j}" for j in range(lp.num_col_)]
        self._rows = {n: i for i, n in enumerate(self.row_names)}
        self._cols = {n: j for j, n in enumerate(self.col_names)}

    # --- lookups ---

    @property
    def num_rows(self) -> int:
        return len(self.row_names)

    @property
    def num_cols(self) -> int:
        return len(self.col_names)

    def has_row(self, name: str) -> bool:
        return name in self._rows

    def has_col(self, name: str) -> bool:
        return name in self._cols

    def row_index(self, name: str) -> int:
        try:
            return self._rows[name]
        except KeyError:
            raise SpecError("target", f"no constraint named {name!r}") from None

    def col_index(self, name: str) -> int:
        try:
            return self._cols[name]
        except KeyError:
            raise SpecError("target", f"no variable named {name!r}") from None

    def rows_matching(self, target: str) -> list[str]:
        return matching(self.row_names, target)

    def cols_matching(self, target: str) -> list[str]:
        return matching(self.col_names, target)

    def row_bounds(self, name: str) -> tuple[float, float]:
        i = self.row_index(name)
        lp = self.h.getLp()
        return float(lp.row_lower_[i]), float(lp.row_upper_[i])

    def col_bounds(self, name: str) -> tuple[float, float]:
        j = self.col_index(name)
        lp = self.h.getLp()
        return float(lp.col_lower_[j]), float(lp.col_upper_[j])

    def cost(self, name: str) -> float:
        return float(self.h.getLp().col_cost_[self.col_index(name)])

    def costs(self) -> dict[str, float]:
        return dict(zip(self.col_names, map(float, self.h.getLp().col_cost_), strict=True))

    def row_coefs(self, name: str) -> dict[str, float]:
        i = self.row_index(name)
        _status, _start, index, value = self.h.getRowsEntries(1, np.array([i], dtype=np.int32))
        return {self.col_names[int(j)]: float(v) for j, v in zip(index, value, strict=True)}

    def coef(self, row: str, col: str) -> float:
        return self.row_coefs(row).get(col, 0.0)

    # --- edits (each invalidates the last solve) ---

    def set_row_bounds(self, name: str, lower: float, upper: float) -> None:
        if lower > upper:
            raise SpecError("value", f"{name}: lower side {lower:g} above upper side {upper:g}")
        self.h.changeRowBounds(self.row_index(name), float(lower), float(upper))
        self._result = None

    def set_col_bounds(self, name: str, lower: float, upper: float) -> None:
        if lower > upper:
            raise SpecError("value", f"{name}: lower bound {lower:g} above upper bound {upper:g}")
        self.h.changeColBounds(self.col_index(name), float(lower), float(upper))
        self._result = None

    def set_cost(self, name: str, value: float) -> None:
        self.h.changeColCost(self.col_index(name), float(value))
        self._result = None

    def set_coef(self, row: str, col: str, value: float) -> None:
        """Set one matrix entry; 0 removes it, a new non-zero adds the term."""
        self.h.changeCoeff(self.row_index(row), self.col_index(col), float(value))
        self._result = None

    def drop_rows(self, names: Iterable[str]) -> None:
        idx = sorted({self.row_index(n) for n in names})
        if idx:
            self.h.deleteRows(len(idx), np.array(idx, dtype=np.int32))
            gone = set(idx)
            self.row_names = [n for i, n in enumerate(self.row_names) if i not in gone]
            self._rows = {n: i for i, n in enumerate(self.row_names)}
        self._result = None

    def add_row(self, name: str, lower: float, upper: float, coefs: Mapping[str, float]) -> None:
        self.add_rows([(name, lower, upper, coefs)])

    def add_rows(self, rows: list[tuple[str, float, float, Mapping[str, float]]]) -> None:
        """Append named rows in one call; names must be new and columns must exist."""
        if not rows:
            return
        starts, index, value = [], [], []
        seen = set()
        for name, _lo, _hi, coefs in rows:
            if name in self._rows or name in seen:
                raise SpecError("name", f"a constraint named {name!r} exists already")
            seen.add(name)
            starts.append(len(index))
            for col, coef in coefs.items():
                index.append(self.col_index(col))
                value.append(float(coef))
        first = self.h.getNumRow()
        self.h.addRows(
            len(rows),
            np.array([r[1] for r in rows], dtype=float),
            np.array([r[2] for r in rows], dtype=float),
            len(index),
            np.array(starts, dtype=np.int32),
            np.array(index, dtype=np.int32),
            np.array(value, dtype=float),
        )
        for k, (name, *_rest) in enumerate(rows):
            self.h.passRowName(first + k, name)
            self._rows[name] = first + k
            self.row_names.append(name)
        self._result = None

    # --- solving ---

    def solve(self) -> SolveResult:
        if self._result is not None:
            return self._result
        self.h.run()
        status = self.h.getModelStatus()
        if status == _STATUS.kUnboundedOrInfeasible:
            self.h.setOptionValue("presolve", "off")
            self.h.run()
            self.h.setOptionValue("presolve", "choose")
            status = self.h.getModelStatus()
        if status == _STATUS.kOptimal:
            result = SolveResult(LPStatus.OPTIMAL, float(self.h.getInfo().objective_function_value))
        elif status == _STATUS.kInfeasible:
            result = SolveResult(LPStatus.INFEASIBLE, None)
        elif status == _STATUS.kUnbounded:
            result = SolveResult(LPStatus.UNBOUNDED, None)
        else:
            result = SolveResult(LPStatus.OTHER, None)
        self._result = result
        return result

    def values(self) -> dict[str, float]:
        """Column values of the last OPTIMAL solve (empty otherwise)."""
        if self.solve().status is not LPStatus.OPTIMAL:
            return {}
        return dict(zip(self.col_names, map(float, self.h.getSolution().col_value), strict=True))

    def value_array(self) -> np.ndarray:
        return np.asarray(self.h.getSolution().col_value, dtype=float)

    def slack(self, name: str) -> Slack:
        i = self.row_index(name)
        lo, hi = self.row_bounds(name)
        sense = sense_of(lo, hi)
        if self.solve().status is not LPStatus.OPTIMAL:
            return Slack(name, sense, lo, hi, None, None, None)
        sol = self.h.getSolution()
        activity = float(sol.row_value[i])
        gaps = [g for g in (hi - activity, activity - lo) if math.isfinite(g)]
        slack = min(gaps) if gaps else INF
        return Slack(name, sense, lo, hi, activity, slack, float(sol.row_dual[i]))

    def active_rows(self, tol: float = 1e-7) -> list[str]:
        """Rows whose dual is non-zero at the optimum (binding with a price)."""
        if self.solve().status is not LPStatus.OPTIMAL:
            return []
        duals = self.h.getSolution().row_dual
        return [n for n, y in zip(self.row_names, duals, strict=True) if abs(y) > tol]

    def iis(self, method: str = "ray") -> IIS:
        """An irreducible infeasible subsystem; empty when the model is not infeasible.

        `method="ray"` (default): the support of HiGHS' Farkas dual ray (every row with a non-zero multiplier and
        every finite bound of a column it touches) reduced by a deletion filter on an LP holding only those
        members, re-solved warm. `method="highs"`: HiGHS' own `getIis` (elastic filter + deletion); also the
        fallback when no ray is available. Both are verified irreducible in tests and in bench/lp_repair.py;
        the ray route was 20-50x faster on our supply-chain models.
        """
        if self.solve().status is not LPStatus.INFEASIBLE:
            return IIS((), ())
        if method == "ray":
            found = self._ray_iis()
            if found is not None:
                return found
        return self._highs_iis()

    def _ray_iis(self) -> IIS | None:
        """The ray route of `iis`; None when HiGHS gives no ray or the ray's compact LP is not infeasible."""
        h = self.h
        h.setOptionValue("presolve", "off")
        h.run()
        _status, has_ray, y = h.getDualRay()
        h.setOptionValue("presolve", "choose")
        self._result = None
        if not has_ray:
            return None
        sub = _ray_sub_lp(h.getLp(), np.asarray(y, dtype=float))
        if sub is None:
            return None
        work = _new_highs()
        work.setOptionValue("presolve", "off")
        work.passModel(sub.lp)
        work.run()
        if work.getModelStatus() != _STATUS.kInfeasible:
            return None
        return self._named_iis(sub, _deletion_filter(work, sub))

    def _named_iis(self, sub: _RaySubLP, members: list[_Member]) -> IIS:
        """The filtered members of `sub` as an `IIS` in this model's names (a row's kept sides give its sense)."""
        row_sides: dict[int, set[int]] = {}
        out_bounds = []
        for kind, i, k in members:
            if kind == "row":
                row_sides.setdefault(i, set()).add(k)
            else:
                value = float(sub.col_lo[i] if k == 0 else sub.col_hi[i])
                name = self.col_names[int(sub.cols[i])]
                out_bounds.append(IISMember("bound", name, ">=" if k == 0 else "<=", value))
        out_rows = []
        for i in sorted(row_sides):
            sides = row_sides[i]
            lo, hi = float(sub.row_lo[i]), float(sub.row_hi[i])
            if sides == {0, 1} and lo == hi:
                side, value = "==", lo
            elif sides == {0}:
                side, value = ">=", lo
            elif sides == {1}:
                side, value = "<=", hi
            else:
                side, value = "range", hi
            out_rows.append(IISMember("row", self.row_names[int(sub.rows[i])], side, value))
        return IIS(tuple(out_rows), tuple(out_bounds))

    def _highs_iis(self) -> IIS:
        self.h.setOptionValue(
            "iis_strategy",
            int(highspy.IisStrategy.kIisStrategyFromLp) | int(highspy.IisStrategy.kIisStrategyIrreducible),
        )
        status, iis = self.h.getIis()
        if status == highspy.HighsStatus.kError:
            raise SolverError("HiGHS could not compute an IIS for this model")
        lp = self.h.getLp()
        rows = []
        for i, b in zip(iis.row_index_, iis.row_bound_, strict=True):
            side = _side(int(b), float(lp.row_lower_[i]), float(lp.row_upper_[i]))
            value = float(lp.row_upper_[i] if side == "<=" else lp.row_lower_[i])
            rows.append(IISMember("row", self.row_names[i], side, value))
        bounds = []
        for j, b in zip(iis.col_index_, iis.col_bound_, strict=True):
            b = int(b)
            if b in (2, 3, 4):
                lo, hi = float(lp.col_lower_[j]), float(lp.col_upper_[j])
                if b in (2, 4):
                    bounds.append(IISMember("bound", self.col_names[j], ">=", lo))
                if b in (3, 4):
                    bounds.append(IISMember("bound", self.col_names[j], "<=", hi))
        self._result = None  # getIis may leave the solver in another state; re-solve on the next query
        return IIS(tuple(rows), tuple(bounds))

    def is_mip(self) -> bool:
        integrality = self.h.getLp().integrality_
        return any(int(v) != 0 for v in integrality)

    def relax_integrality(self) -> None:
        n = self.num_cols
        if n:
            self.h.changeColsIntegrality(
                n, np.arange(n, dtype=np.int32), np.array([highspy.HighsVarType.kContinuous] * n)
            )
        self._result = None


def _csr(lp: highspy.HighsLp) -> sp.csr_matrix:
    a = lp.a_matrix_
    data = (np.asarray(a.value_), np.asarray(a.index_), np.asarray(a.start_))
    shape = (lp.num_row_, lp.num_col_)
    if a.format_ == highspy.MatrixFormat.kColwise:
        return sp.csc_matrix(data, shape=shape).tocsr()
    return sp.csr_matrix(data, shape=shape)


def _ray_support(matrix: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows with a non-zero Farkas multiplier and columns with a non-zero reduced multiplier A^T y."""
    scale = max(1.0, float(np.max(np.abs(y)))) if y.size else 1.0
    rows = np.nonzero(np.abs(y) > 1e-9 * scale)[0]
    cols = np.nonzero(np.abs(matrix.T @ y) > 1e-9 * scale)[0]
    return rows, cols


_Member = tuple[str, int, int]
"""One side of the ray's compact LP: ("row" | "col", index in the compact LP, 0 lower / 1 upper)."""


@dataclass(frozen=True, eq=False)
class _RaySubLP:
    """A compact LP over a Farkas ray's rows and the columns they touch (everything else cannot matter).

    `rows` and `cols` index the full LP, `row_lo` … `col_hi` are its sides and bounds there; `lp` keeps column
    bounds only on the columns in the ray's support (the others are free)."""

    rows: np.ndarray
    cols: np.ndarray
    matrix: sp.csc_matrix
    row_lo: np.ndarray
    row_hi: np.ndarray
    col_lo: np.ndarray
    col_hi: np.ndarray
    lp: highspy.HighsLp


def _ray_sub_lp(lp: highspy.HighsLp, y: np.ndarray) -> _RaySubLP | None:
    """The compact LP of the Farkas ray `y` of `lp` (None when no row has a non-zero multiplier)."""
    matrix = _csr(lp)
    rows, ray_cols = _ray_support(matrix, y)
    if rows.size == 0:
        return None
    cols = np.union1d(ray_cols, np.unique(matrix[rows].indices))
    sub_matrix = matrix[rows][:, cols].tocsc()
    row_lo, row_hi = np.asarray(lp.row_lower_)[rows], np.asarray(lp.row_upper_)[rows]
    col_lo, col_hi = np.asarray(lp.col_lower_)[cols], np.asarray(lp.col_upper_)[cols]
    in_ray = set(np.searchsorted(cols, ray_cols).tolist())
    sub = highspy.HighsLp()
    sub.num_row_, sub.num_col_ = len(rows), len(cols)
    sub.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    sub.a_matrix_.num_row_, sub.a_matrix_.num_col_ = len(rows), len(cols)
    sub.a_matrix_.start_ = sub_matrix.indptr.astype(np.int32)
    sub.a_matrix_.index_ = sub_matrix.indices.astype(np.int32)
    sub.a_matrix_.value_ = sub_matrix.data.astype(float)
    sub.col_cost_ = np.zeros(len(cols))
    lo_c = np.where([j in in_ray for j in range(len(cols))], col_lo, -INF)
    hi_c = np.where([j in in_ray for j in range(len(cols))], col_hi, INF)
    sub.col_lower_, sub.col_upper_ = lo_c.astype(float), hi_c.astype(float)
    sub.row_lower_, sub.row_upper_ = row_lo.astype(float), row_hi.astype(float)
    return _RaySubLP(rows, cols, sub_matrix, row_lo, row_hi, col_lo, col_hi, sub)


def _deletion_filter(work: highspy.Highs, sub: _RaySubLP) -> list[_Member]:
    """The compact LP's finite sides reduced to an irreducible infeasible set.

    Each side is relaxed in turn (in `work`, which holds `sub.lp` solved infeasible) and restored only if the LP
    becomes feasible without it; when it stays infeasible, every side outside the new ray's support goes too."""
    bounds = {
        "row": [sub.lp.row_lower_.copy(), sub.lp.row_upper_.copy()],
        "col": [sub.lp.col_lower_.copy(), sub.lp.col_upper_.copy()],
    }
    members = [
        ("row", i, k) for i in range(len(sub.rows)) for k in (0, 1) if math.isfinite(bounds["row"][k][i])
    ]
    members += [
        ("col", j, k) for j in range(len(sub.cols)) for k in (0, 1) if math.isfinite(bounds["col"][k][j])
    ]
    sub_csr = sub.matrix.tocsr()

    def push(kind: str, i: int) -> None:
        lo, hi = float(bounds[kind][0][i]), float(bounds[kind][1][i])
        (work.changeRowBounds if kind == "row" else work.changeColBounds)(i, lo, hi)

    pos = 0
    while pos < len(members):
        kind, i, k = members[pos]
        saved = bounds[kind][k][i]
        bounds[kind][k][i] = -INF if k == 0 else INF
        push(kind, i)
        work.run()
        if work.getModelStatus() == _STATUS.kInfeasible:
            members.pop(pos)
            _s, has, y_sub = work.getDualRay()
            if has:  # everything outside the new certificate's support is not needed either
                r_sup, c_sup = _ray_support(sub_csr, np.asarray(y_sub, dtype=float))
                r_set, c_set = set(r_sup.tolist()), set(c_sup.tolist())
                keep, new_pos = [], 0
                for idx, m in enumerate(members):
                    if m[1] in (r_set if m[0] == "row" else c_set):
                        keep.append(m)
                        new_pos += idx < pos
                    else:
                        bounds[m[0]][m[2]][m[1]] = -INF if m[2] == 0 else INF
                        push(m[0], m[1])
                pos = new_pos
                members = keep
            continue
        bounds[kind][k][i] = saved
        push(kind, i)
        pos += 1
    return members


def _side(bound_status: int, lower: float, upper: float) -> str:
    if lower == upper:
        return "=="
    if bound_status == 2:
        return ">="
    if bound_status == 3:
        return "<="
    return ">=" if math.isinf(upper) else "<="


# --- the supply-chain LP ---


def x_name(n: int, t: int) -> str:
    return f"x_e{n}_t{t}"


def build_supply_chain(sc: SupplyChain) -> LPModel:
    """The Appendix A LP of one configuration, with the names of the module docstring."""
    big_n, big_t = sc.n_echelons, sc.n_periods
    columns: list[tuple[str, float, float, float]] = []
    for n in range(1, big_n + 1):
        for t in range(1, big_t + 1):
            columns.append((x_name(n, t), 0.0, INF, 0.0))
            columns.append((f"I_e{n}_t{t}", 0.0, INF, sc.holding[n - 1]))
            columns.append((f"B_e{n}_t{t}", 0.0, INF, sc.backorder[n - 1]))
    for n in range(2, big_n + 1):
        for t in range(1, big_t + 1):
            columns.append((f"d_e{n}_t{t}", 0.0, INF, 0.0))
    rows: list[tuple[str, float, float, dict[str, float]]] = []
    for n in range(1, big_n + 1):
        lead = sc.lead_time[n - 1]
        for t in range(1, big_t + 1):
            coefs = {f"I_e{n}_t{t}": 1.0, f"B_e{n}_t{t}": -1.0}
            rhs = 0.0
            if t == 1:
                rhs += sc.initial_inventory[n - 1]
            else:
                coefs[f"I_e{n}_t{t - 1}"] = -1.0
                coefs[f"B_e{n}_t{t - 1}"] = 1.0
            if t - lead >= 1:
                coefs[x_name(n, t - lead)] = coefs.get(x_name(n, t - lead), 0.0) - 1.0
            if n == 1:
                rhs -= sc.demand[t - 1]
            else:
                coefs[f"d_e{n}_t{t}"] = 1.0
            rows.append((f"inv_balance_e{n}_t{t}", rhs, rhs, coefs))
    for n in range(2, big_n + 1):
        for t in range(1, big_t + 1):
            rows.append((f"demand_prop_e{n}_t{t}", 0.0, 0.0, {f"d_e{n}_t{t}": 1.0, x_name(n - 1, t): -1.0}))
    if sc.capacity is not None:
        for n in range(1, big_n + 1):
            for t in range(1, big_t + 1):
                rows.append((f"capacity_e{n}_t{t}", -INF, sc.capacity[n - 1], {x_name(n, t): 1.0}))
    return LPModel.from_rows(columns=columns, rows=rows)


def solution_arrays(model: LPModel, n_echelons: int, n_periods: int) -> dict[str, np.ndarray]:
    """Optimal I, B, x as (N, T) arrays (zeros where a column is missing); empty dict if not OPTIMAL."""
    values = model.values()
    if not values:
        return {}
    out = {}
    for key in ("I", "B", "x"):
        arr = np.zeros((n_echelons, n_periods))
        for n in range(1, n_echelons + 1):
            for t in range(1, n_periods + 1):
                arr[n - 1, t - 1] = values.get(f"{key}_e{n}_t{t}", 0.0)
        out[key] = arr
    return out
