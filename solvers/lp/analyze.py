"""Analysing a user's own LP: status, IIS grouped by name prefix in plain words, minimal repair candidates.

Candidates come from elastic LPs (`solvers.lp.elastic`): one over every row (the smallest total
relaxation overall) and one per constraint family in the IIS (the smallest relaxation using that family
alone). Applying a candidate moves the violated row sides by the elastic amounts and re-solves.
MIPs are refused with a clear message (HiGHS computes an IIS only for LPs); `relax_integrality` offers the
LP relaxation instead.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from core.errors import SpecError
from solvers.lp.elastic import Violation, elastic_repair
from solvers.lp.files import MAX_BYTES, MAX_LINES, check_lp, check_mps
from solvers.lp.instance import SupplyChain
from solvers.lp.model import LPModel, LPStatus, family_of
from solvers.lp.oracle import evaluate
from solvers.upload import iter_lines


@dataclass(frozen=True)
class Candidate:
    """A repair: move the listed row sides by the listed amounts (total = sum of amounts)."""

    label: str
    families: tuple[str, ...]
    total: float
    violations: tuple[Violation, ...]

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "families": list(self.families),
            "total_relaxation": round(self.total, 6),
            "rows": [{"row": v.row, "side": v.side, "amount": round(v.amount, 6)} for v in self.violations],
        }


@dataclass(frozen=True)
class Analysis:
    status: LPStatus
    objective: float | None
    rows: int
    cols: int
    iis_groups: tuple[tuple[str, int, tuple[str, ...]], ...]  # family, count, examples
    iis_bounds: tuple[str, ...]
    summary: str
    candidates: tuple[Candidate, ...]
    oracle: dict | None = None  # deployable oracle report when the model follows the supply-chain naming

    def to_dict(self) -> dict:
        return {
            "status": self.status.value,
            "objective": self.objective,
            "rows": self.rows,
            "cols": self.cols,
            "iis": [{"family": f, "count": n, "examples": list(ex)} for f, n, ex in self.iis_groups],
            "iis_bounds": list(self.iis_bounds),
            "summary": self.summary,
            "candidates": [c.to_dict() for c in self.candidates],
            "oracle": self.oracle,
        }


def read_model(path: str | Path, name: str | None = None) -> LPModel:
    """Read an .mps/.lp file after the strict checks of `solvers.lp.files` (SpecError naming the file).

    `name` is the user's file name for messages (an upload is written to a temporary path first). The file is
    streamed through the checks with the size, line, row and column caps applied as it is read; HiGHS reads
    it only once it passes, and what HiGHS read must be what the file defines (same rows and columns).
    """
    path = Path(path)
    shown = name or path.name
    suffix = path.suffix.lower()
    if suffix not in (".mps", ".lp") or Path(shown).suffix.lower() != suffix:
        raise SpecError("file", f"{shown}: upload an .mps or .lp model file")
    if not path.exists():
        raise SpecError("file", f"{shown} does not exist")
    lines = iter_lines(path, field="file", name=shown, max_bytes=MAX_BYTES, max_lines=MAX_LINES)
    expected = check_mps(lines, shown) if suffix == ".mps" else check_lp(lines, shown)
    model = LPModel.read(path, name=shown)
    if model.num_rows != expected.rows or set(model.col_names) != expected.col_names or not (
        expected.row_names <= set(model.row_names)
    ):
        raise SpecError(
            "file",
            f"{shown}: HiGHS read {model.num_rows} rows and {model.num_cols} columns, but the file defines "
            f"{expected.rows} rows and {len(expected.col_names)} columns; it uses a construct this tool "
            "does not support",
        )
    return model


def _plain(family: str, count: int) -> str:
    return f"{count} {family} constraint{'s' if count != 1 else ''}"


def analyze(model: LPModel, *, candidates: int = 5) -> Analysis:
    """Status, the IIS by family and up to `candidates` minimal repairs (the model is not changed)."""
    if model.is_mip():
        n_int = sum(int(v) != 0 for v in model.h.getLp().integrality_)
        raise SpecError(
            "file",
            f"this is a MIP ({n_int} integer columns). HiGHS computes an IIS only for LPs; analyse its LP "
            "relaxation instead (the 'relax integrality' option).",
        )
    result = model.solve()
    if result.status is LPStatus.UNBOUNDED:
        return Analysis(
            result.status,
            None,
            model.num_rows,
            model.num_cols,
            (),
            (),
            "The model is unbounded: the objective can improve without limit. Add bounds on the "
            "variables that can grow for ever, or check the objective sense.",
            (),
        )
    if result.status is not LPStatus.INFEASIBLE:
        text = (
            f"The model solves to optimality (objective {result.objective:.6g})."
            if result.status is LPStatus.OPTIMAL
            else f"HiGHS ended with status {result.status.value}."
        )
        oracle = None
        if result.status is LPStatus.OPTIMAL:
            sc = supply_chain_from_model(model)
            if sc is not None:
                report = evaluate(model, sc, error_type=None)
                oracle = report.to_dict() if report is not None else None
                if report is not None:
                    text += (
                        " It follows the supply-chain naming, so the rationality oracle ran with every check: "
                        + ("all pass." if report.passed else "\n" + report.feedback())
                    )
        return Analysis(
            result.status, result.objective, model.num_rows, model.num_cols, (), (), text, (), oracle
        )
    iis = model.iis()
    groups: dict[str, list[str]] = defaultdict(list)
    for m in iis.rows:
        groups[family_of(m.name)].append(m.name)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    iis_groups = tuple((f, len(names), tuple(names[:3])) for f, names in ordered)
    parts = [_plain(f, n) for f, n, _ in iis_groups]
    bounds = tuple(m.label() for m in iis.bounds)
    summary = (
        "The model is infeasible. The smallest conflicting set HiGHS found involves "
        + ", ".join(parts)
        + (f" and {len(bounds)} variable bound{'s' if len(bounds) != 1 else ''}" if bounds else "")
        + ". Relaxing or correcting any one of them breaks this conflict (others may remain)."
    )
    found: list[Candidate] = []
    overall = elastic_repair(model, lambda name: True)
    if overall.feasible and overall.violations:
        fams = tuple(sorted(Counter(family_of(v.row) for v in overall.violations)))
        found.append(
            Candidate(
                "smallest total relaxation over all constraints", fams, overall.total, overall.violations
            )
        )
    for fam, _n, _ex in iis_groups:
        res = elastic_repair(model, lambda name, fam=fam: family_of(name) == fam)
        if res.feasible and res.violations:
            found.append(Candidate(f"relax only {fam}", (fam,), res.total, res.violations))
    found.sort(key=lambda c: (c.total, len(c.violations)))
    return Analysis(
        result.status,
        None,
        model.num_rows,
        model.num_cols,
        iis_groups,
        bounds,
        summary,
        tuple(found[:candidates]),
    )


def supply_chain_from_model(model: LPModel) -> SupplyChain | None:
    """Read the configuration back from a model that uses this lab's names (None if it does not).

    Costs come from the objective, lead times from the position of each balance row's arrival term, capacities
    from `capacity_e{n}_t1`, customer demand from the retailer's balance right-hand sides. Period 1's right-hand
    side mixes initial stock and demand, so period 1's demand is taken equal to period 2's (a documented guess).
    """
    rows = set(model.row_names)
    n = 0
    while f"inv_balance_e{n + 1}_t1" in rows:
        n += 1
    t_len = 0
    while f"inv_balance_e1_t{t_len + 1}" in rows:
        t_len += 1
    if (
        n < 1
        or t_len < 2
        or not all(model.has_col(f"{v}_e{k}_t1") for v in ("I", "B", "x") for k in range(1, n + 1))
    ):
        return None
    try:
        holding = tuple(model.cost(f"I_e{k}_t1") for k in range(1, n + 1))
        backorder = tuple(model.cost(f"B_e{k}_t1") for k in range(1, n + 1))
        lead = []
        for k in range(1, n + 1):
            found = t_len
            for t in range(1, t_len + 1):
                coefs = model.row_coefs(f"inv_balance_e{k}_t{t}")
                lags = [
                    t - int(c.rsplit("_t", 1)[1])
                    for c, v in coefs.items()
                    if c.startswith(f"x_e{k}_t") and v < 0
                ]
                if lags:
                    found = min(lags)
                    break
            lead.append(found)
        rhs = [model.row_bounds(f"inv_balance_e1_t{t}")[0] for t in range(1, t_len + 1)]
        demand = [max(0.0, -r) for r in rhs[1:]]
        demand = [demand[0], *demand]
        initial = [rhs[0] + demand[0]] + [
            model.row_bounds(f"inv_balance_e{k}_t1")[0] for k in range(2, n + 1)
        ]
        capacity = None
        if all(f"capacity_e{k}_t1" in rows for k in range(1, n + 1)):
            capacity = tuple(model.row_bounds(f"capacity_e{k}_t1")[1] for k in range(1, n + 1))
        return SupplyChain(
            holding=holding,
            backorder=backorder,
            capacity=capacity,
            lead_time=tuple(lead),
            initial_inventory=tuple(max(0.0, v) for v in initial),
            demand=tuple(demand),
        )
    except (SpecError, ValueError, IndexError):
        return None


def apply_candidate(model: LPModel, candidate: Candidate) -> LPStatus:
    """Move each violated row side by its amount (in place) and re-solve."""
    for v in candidate.violations:
        lo, hi = model.row_bounds(v.row)
        if v.side == "<=":
            hi = hi + v.amount
        else:
            lo = lo - v.amount
        if lo > hi:
            lo, hi = hi, lo
        model.set_row_bounds(v.row, lo if math.isfinite(lo) else -math.inf, hi)
    return model.solve().status
