"""Analysing a user's own LP or MIP: status, cheap pre-checks, the full IIS with its Farkas certificate in plain
words, and verified repair candidates.

* **Pre-checks** (instant): contradictory bounds (a column or row whose lower bound is above its upper bound)
  and single-row activity bounds (a row whose variables' bounds cannot reach its right-hand side).
* **IIS**, by a fallback chain that never ends with nothing, each step labelled: the dual ray without
  presolve (the fast route), the dual ray with presolve on, HiGHS' `getIis`, an elastic filter followed by
  the deletion filter, and finally an elastic-only analysis (no IIS, repairs still offered). Each IIS is
  checked irreducible (`solvers.lp.iischeck.is_irreducible_iis`) and explained by its Farkas certificate.
* **Repairs** from elastic LPs (`solvers.lp.elastic`) over every row and bound the user did not mark hard,
  weighted by the user's weights: the smallest total relaxation, the fewest changed rows and bounds (an L0
  MIP under a time limit, "best found" when the limit is hit) and one per IIS family. Every amount is rounded
  outward with a margin (`round_out`), the rounded change is applied to a copy and re-solved, and only
  candidates that then solve (OPTIMAL, or UNBOUNDED: feasible) are listed, with that status and objective.
* **MIPs**: the LP relaxation is solved first; when it is feasible and the MIP is not, integrality causes
  the conflict and small MIPs get a deletion-filter IIS (integrality kept).
* Names group by stem (`stem_of`): `BBB1` -> `BBB`, `c54` -> `c`, `inv_balance_e2_t3` -> `inv_balance_e2`.
"""

from __future__ import annotations

import math
import re
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from core.errors import SolverError, SpecError
from solvers.lp.actions import PROTECTED_PREFIXES, is_protected
from solvers.lp.elastic import ElasticResult, Violation, elastic_repair
from solvers.lp.files import MAX_BYTES, MAX_LINES, check_lp, check_mps
from solvers.lp.iischeck import (
    Farkas,
    deletion_filter,
    farkas,
    is_irreducible_iis,
    presolved_ray_iis,
)
from solvers.lp.model import IIS, IISMember, LPModel, LPStatus, _csr, family_of
from solvers.upload import gunzip_bounded, iter_lines

# The oracle and SupplyChain are imported lazily, only for a model that follows the lab's naming: the generic
# path (any LP; the diagnostician's plan_generic) never loads the generator's modules.
if TYPE_CHECKING:
    from solvers.lp.instance import SupplyChain

MAX_NAMES = 10_000  # hard names and weights a user may give
MAX_NAME_CHARS = 255
MAX_WEIGHT = 1e6
SMALL_MIP = (200, 400)  # rows, columns: MIPs up to this size get a deletion-filter IIS
SINGLE_TRIES = 40  # IIS members tried alone as one-change repairs (within SINGLE_SECONDS)
SINGLE_SECONDS = 1.0
VERIFY_MEMBERS = 2_000  # IISs up to this many members are checked irreducible
FEASIBLE = (LPStatus.OPTIMAL, LPStatus.UNBOUNDED)
_DIGITS = re.compile(r"^(.*?)[_.\-]?\d+$")


def stem_of(name: str) -> str:
    """The name's family: without a trailing `_t{period}` (`inv_balance_e2_t3` -> `inv_balance_e2`), else
    without trailing digits and their separator (`BBB1` -> `BBB`, `c54` -> `c`, `R_12` -> `R`); a name that
    would become empty or lose every letter stays whole."""
    family = family_of(name)
    if family != name:
        return family
    match = _DIGITS.match(name)
    if match and any(ch.isalpha() for ch in match.group(1)):
        return match.group(1)
    return name


def round_out(amount: float, base: float = 0.0) -> float:
    """`amount` plus a margin (1e-6 relative to the amount and the side it moves), rounded up to 6 significant
    digits: the printed number, applied, still repairs (the elastic LP's amounts sit exactly on the boundary)."""
    x = float(amount) + 1e-6 * max(1.0, abs(float(amount)), abs(float(base)) if math.isfinite(base) else 1.0)
    d = Decimal(repr(x))
    q = Decimal(1).scaleb(d.adjusted() - 5)
    return float((d / q).to_integral_value(rounding=ROUND_CEILING) * q)


def _clean_name(text: str, what: str) -> str:
    name = str(text).strip()
    if not name or len(name) > MAX_NAME_CHARS or any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in name):
        raise SpecError(
            what,
            f"{name[:40]!r} is not a row, column or family name (1 to {MAX_NAME_CHARS} printable characters)",
        )
    return name


MODEL_SUFFIXES = (".mps", ".lp", ".mps.gz", ".lp.gz")


def model_suffix(name: str) -> str | None:
    """The model-file suffix of a file name (`.mps`, `.lp`, `.mps.gz` or `.lp.gz`, lower case), else None."""
    lower = name.lower()
    return next((s for s in sorted(MODEL_SUFFIXES, key=len, reverse=True) if lower.endswith(s)), None)


def read_model(path: str | Path, name: str | None = None) -> LPModel:
    """Read an .mps/.lp file (or a gzipped .mps.gz/.lp.gz) after the strict checks of `solvers.lp.files`
    (SpecError naming the file).

    `name` is the user's file name for messages (an upload is written to a temporary path first). The file is
    streamed through the checks with the size, line, row and column caps applied as it is read; HiGHS reads
    it only once it passes, and what HiGHS read must be what the file defines (same rows and columns). A
    gzipped file is first decompressed to a temporary file with the same size cap on its decompressed size (a
    gzip bomb stops there), and a file that is not gzip, is cut short or is corrupt is refused.
    """
    path = Path(path)
    shown = name or path.name
    suffix = model_suffix(path.name)
    if suffix is None or model_suffix(shown) != suffix:
        raise SpecError("file", f"{shown}: upload an .mps or .lp model file (or .mps.gz / .lp.gz)")
    if not path.exists():
        raise SpecError("file", f"{shown} does not exist")
    if not suffix.endswith(".gz"):
        return _read_checked(path, shown, suffix)
    with tempfile.TemporaryDirectory() as folder:
        plain = Path(folder) / f"model{suffix.removesuffix('.gz')}"
        gunzip_bounded(path, plain, field="file", name=shown, max_bytes=MAX_BYTES)
        return _read_checked(plain, shown, plain.suffix)


def _read_checked(path: Path, shown: str, suffix: str) -> LPModel:
    lines = iter_lines(path, field="file", name=shown, max_bytes=MAX_BYTES, max_lines=MAX_LINES)
    expected = check_mps(lines, shown) if suffix == ".mps" else check_lp(lines, shown)
    model = LPModel.read(path, name=shown)
    if (
        model.num_rows != expected.rows
        or set(model.col_names) != expected.col_names
        or not (expected.row_names <= set(model.row_names))
    ):
        raise SpecError(
            "file",
            f"{shown}: HiGHS read {model.num_rows} rows and {model.num_cols} columns, but the file defines "
            f"{expected.rows} rows and {len(expected.col_names)} columns; it uses a construct this tool "
            "does not support",
        )
    return model


@dataclass(frozen=True)
class RepairOptions:
    """What a repair may touch: `hard` rows, columns or families are never relaxed; `weights` price the rest
    (name or family -> weight, default 1); `bounds` lets column bounds move as well as rows; `fewest_seconds`
    caps the L0 search; `candidates` caps the list; `protected` keeps the lab's protected rows (balance,
    backorder and supply caps: relaxing them is phantom stock) fixed on models with the lab's names."""

    hard: tuple[str, ...] = ()
    weights: tuple[tuple[str, float], ...] = ()
    bounds: bool = True
    fewest_seconds: float = 2.0
    candidates: int = 5
    protected: bool = True  # on a model with the lab's supply-chain names, never relax its protected rows

    def check(self, model: LPModel) -> None:
        """SpecError for a name that matches no row, column or family of the model, or a bad weight."""
        if len(self.hard) + len(self.weights) > MAX_NAMES:
            raise SpecError("hard", f"at most {MAX_NAMES:,} hard names and weights")
        known = set(model.row_names) | set(model.col_names)
        known |= {stem_of(n) for n in model.row_names} | {stem_of(n) for n in model.col_names}
        for name in self.hard:
            if _clean_name(name, "hard") not in known:
                raise SpecError("hard", f"{name!r} matches no row, column or family of the model")
        for name, w in self.weights:
            if _clean_name(name, "weight") not in known:
                raise SpecError("weight", f"{name!r} matches no row, column or family of the model")
            if not (isinstance(w, int | float) and math.isfinite(w) and 0 < w <= MAX_WEIGHT):
                raise SpecError(
                    "weight", f"the weight of {name} must be a number in (0, {MAX_WEIGHT:g}], got {w!r}"
                )
        if not (0 < self.fewest_seconds <= 600):
            raise SpecError("fewest_seconds", "the fewest-changes time limit must lie in (0, 600] seconds")
        if not (1 <= self.candidates <= 50):
            raise SpecError("candidates", "between 1 and 50 candidates")

    def __post_init__(self) -> None:  # lookups asked once per row per elastic LP: build them once
        object.__setattr__(self, "_hard", frozenset(self.hard))
        object.__setattr__(self, "_weights", dict(self.weights))

    def is_hard(self, name: str) -> bool:
        return name in self._hard or stem_of(name) in self._hard

    def weight_of(self, name: str) -> float:
        return float(self._weights.get(name, self._weights.get(stem_of(name), 1.0)))


def parse_names(text: str) -> tuple[str, ...]:
    """Hard names typed by a user: separated by commas, spaces or new lines."""
    names = tuple(n for n in re.split(r"[,\s]+", text or "") if n)
    if len(names) > MAX_NAMES:
        raise SpecError("hard", f"at most {MAX_NAMES:,} names")
    return tuple(_clean_name(n, "hard") for n in names)


def parse_weights(text: str) -> tuple[tuple[str, float], ...]:
    """Weights typed by a user: `name=weight` pairs separated by commas, spaces or new lines."""
    out = []
    for item in (i for i in re.split(r"[,\s]+", text or "") if i):
        name, sep, value = item.rpartition("=")
        if not sep:
            raise SpecError("weight", f"{item[:40]!r}: write name=weight")
        try:
            w = float(value)
        except ValueError:
            raise SpecError("weight", f"{item[:40]!r}: the weight is not a number") from None
        if not (math.isfinite(w) and 0 < w <= MAX_WEIGHT):
            raise SpecError("weight", f"{item[:40]!r}: the weight must lie in (0, {MAX_WEIGHT:g}]")
        out.append((_clean_name(name, "weight"), w))
    if len(out) > MAX_NAMES:
        raise SpecError("weight", f"at most {MAX_NAMES:,} weights")
    return tuple(out)


# --- pre-checks ---


@dataclass(frozen=True)
class Finding:
    """A trivial conflict found before any IIS: `kind` is "bounds" (a column) or "row"."""

    kind: str
    name: str
    words: str


def prechecks(model: LPModel, limit: int = 50) -> tuple[Finding, ...]:
    """Contradictory bounds and rows that their variables' bounds cannot satisfy (at most `limit`)."""
    lp = model.h.getLp()
    lo_c, hi_c = np.asarray(lp.col_lower_, dtype=float), np.asarray(lp.col_upper_, dtype=float)
    lo_r, hi_r = np.asarray(lp.row_lower_, dtype=float), np.asarray(lp.row_upper_, dtype=float)
    found: list[Finding] = []
    for j in np.nonzero(lo_c > hi_c)[0][:limit]:
        found.append(
            Finding(
                "bounds",
                model.col_names[j],
                f"column {model.col_names[j]} must be at least {lo_c[j]:.6g} and at most {hi_c[j]:.6g}",
            )
        )
    for i in np.nonzero(lo_r > hi_r)[0][: limit - len(found)]:
        found.append(
            Finding(
                "row",
                model.row_names[i],
                f"row {model.row_names[i]} must be at least {lo_r[i]:.6g} and at most {hi_r[i]:.6g}",
            )
        )
    if model.num_rows and model.num_cols:
        a = _csr(lp)
        pos, neg = a.maximum(0).tocsr(), a.minimum(0).tocsr()
        with np.errstate(invalid="ignore"):
            low = _spdot(pos, lo_c) + _spdot(neg, hi_c)
            high = _spdot(pos, hi_c) + _spdot(neg, lo_c)
        tol = 1e-6 * np.maximum(
            1.0, np.abs(np.where(np.isfinite(lo_r), lo_r, 0)) + np.abs(np.where(np.isfinite(hi_r), hi_r, 0))
        )
        for i in np.nonzero((low > hi_r + tol) | (high < lo_r - tol))[0]:
            if len(found) >= limit:
                break
            name = model.row_names[i]
            if low[i] > hi_r[i] + tol[i]:
                text = (
                    f"row {name} must be at most {hi_r[i]:.6g}, but its variables' bounds make it at "
                    f"least {low[i]:.6g}"
                )
            else:
                text = (
                    f"row {name} must be at least {lo_r[i]:.6g}, but its variables' bounds let it reach "
                    f"at most {high[i]:.6g}"
                )
            found.append(Finding("row", name, text))
    return tuple(found)


def _spdot(matrix, x: np.ndarray) -> np.ndarray:
    """matrix @ x where an infinite x_j counts only through non-zero coefficients (0 * inf = 0)."""
    m = matrix.tocoo()
    terms = m.data * x[m.col]
    out = np.zeros(matrix.shape[0])
    np.add.at(out, m.row, terms)
    return out


# --- IIS ---


@dataclass(frozen=True)
class IISReport:
    """The IIS found by the fallback chain: `method` labels the step that found it, `attempts` what each step
    before it said; `verified` is True when checked irreducible (None: too large to check, or a MIP)."""

    method: str
    rows: tuple[IISMember, ...]
    bounds: tuple[IISMember, ...]
    verified: bool | None
    attempts: tuple[str, ...]
    certificate: Farkas | None = None

    @property
    def empty(self) -> bool:
        return not self.rows and not self.bounds

    def groups(self) -> list[tuple[str, list[str]]]:
        """(stem, every row name) by stem, largest first."""
        by: dict[str, list[str]] = defaultdict(list)
        for m in self.rows:
            by[stem_of(m.name)].append(m.name)
        return sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0]))

    def to_dict(self) -> dict:
        return {
            "method": self.method,
            "verified_irreducible": self.verified,
            "attempts": list(self.attempts),
            "rows": [
                {"name": m.name, "side": m.side, "value": m.value, "family": stem_of(m.name)}
                for m in self.rows
            ],
            "bounds": [{"column": m.name, "side": m.side, "value": m.value} for m in self.bounds],
            "groups": [{"family": f, "count": len(n), "rows": n} for f, n in self.groups()],
            "farkas": self.certificate.to_dict() if self.certificate else None,
        }


def find_iis(model: LPModel, *, time_limit: float = 5.0) -> IISReport:
    """The fallback chain for an infeasible LP (see the module docstring); never raises on a solver failure."""
    attempts: list[str] = []

    def done(method: str, iis: IIS) -> IISReport:
        n = len(iis.rows) + len(iis.bounds)
        verified = is_irreducible_iis(model, iis) if n <= VERIFY_MEMBERS else None
        return IISReport(method, iis.rows, iis.bounds, verified, tuple(attempts), farkas(model, iis))

    steps = (
        ("dual ray (presolve off) + deletion filter", lambda: model._ray_iis()),
        ("dual ray (presolve on) + deletion filter", lambda: presolved_ray_iis(model, time_limit=time_limit)),
        ("HiGHS getIis", lambda: _highs_iis_fresh(model)),
        ("elastic filter + deletion filter", lambda: _elastic_filter_iis(model, time_limit)),
    )
    for label, step in steps:
        try:
            found = step()
        except SolverError as err:
            attempts.append(f"{label}: {err}")
            continue
        if found is None or found.empty:
            attempts.append(f"{label}: nothing usable")
            continue
        report = done(label, found)
        if report.verified is False:
            attempts.append(f"{label}: its set failed the irreducibility check")
            continue
        return report
    attempts.append("no IIS: elastic-only analysis (the repairs below are still verified)")
    return IISReport("none (elastic-only analysis)", (), (), None, tuple(attempts))


def _highs_iis_fresh(model: LPModel) -> IIS:
    """HiGHS' `getIis` on a copy solved with default options: after the ray route's presolve-off solve
    (status UNKNOWN on vol1) `getIis` fails on the same solver, while from a default solve it succeeds."""
    work = model.copy()
    work.solve()
    return work._highs_iis()


def _elastic_filter_iis(model: LPModel, time_limit: float) -> IIS | None:
    """Chinneck's elastic filter (rows whose elastics are used become hard until the elastic LP is infeasible)
    then the deletion filter over those rows and their columns' bounds."""
    hard: set[str] = set()
    for _ in range(200):
        res = elastic_repair(model, lambda name, hard=hard: name not in hard)
        if not res.feasible:
            break
        new = {v.row for v in res.violations} - hard
        if not new:
            return None
        hard |= new
    else:
        return None
    rows = [model.row_index(n) for n in hard]
    cols = np.unique(_csr(model.h.getLp())[rows].indices).tolist()
    return deletion_filter(model, rows, cols, time_limit=time_limit)


def iis_lp_text(model: LPModel, report: IISReport) -> str:
    """The IIS alone as CPLEX-LP text: its rows (only their IIS sides), their columns (free unless an IIS
    bound), zero objective; a modeller can load it in any solver and see it is infeasible."""
    lp = model.h.getLp()
    members = {m.name: m for m in report.rows}
    rows, cols = [], {}
    for name, m in members.items():
        coefs = model.row_coefs(name)
        lo, hi = model.row_bounds(name)
        lo = lo if m.side in (">=", "==", "range") else -math.inf
        hi = hi if m.side in ("<=", "==", "range") else math.inf
        rows.append((name, lo, hi, coefs))
        for c in coefs:
            cols.setdefault(c, [-math.inf, math.inf])
    for b in report.bounds:
        cols.setdefault(b.name, [-math.inf, math.inf])[0 if b.side == ">=" else 1] = b.value
    del lp
    sub = LPModel.from_rows(columns=[(c, lo, hi, 0.0) for c, (lo, hi) in cols.items()], rows=rows)
    return sub.to_text("lp")


# --- repairs ---


@dataclass(frozen=True)
class Change:
    """One side moved: a row's (kind "row") or a column bound (kind "bound"), from `old` to `new`."""

    kind: str
    name: str
    side: str  # "<=": the upper side rises by amount; ">=": the lower side falls by amount
    amount: float  # rounded outward (`round_out`)
    old: float
    new: float

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "name": self.name,
            "side": self.side,
            "amount": self.amount,
            "old": self.old,
            "new": self.new,
        }


@dataclass(frozen=True)
class Candidate:
    """A verified repair: apply `changes` and HiGHS reports `status` (OPTIMAL or UNBOUNDED) with `objective`."""

    label: str
    goal: str  # "fewest" (fewest changes), "single" (one IIS member), "total" (smallest total) or "family"
    families: tuple[str, ...]
    total: float
    changes: tuple[Change, ...]
    status: LPStatus
    objective: float | None
    proven: bool = True  # False for a "fewest" search that hit its time limit (best found)

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "goal": self.goal,
            "families": list(self.families),
            "total_relaxation": self.total,
            "changed": len(self.changes),
            "proven": self.proven,
            "verified_status": self.status.value,
            "objective": self.objective,
            "changes": [c.to_dict() for c in self.changes],
        }


def _changes(model: LPModel, violations: tuple[Violation, ...]) -> tuple[Change, ...]:
    out = []
    for v in violations:
        lo, hi = model.row_bounds(v.row) if v.kind == "row" else model.col_bounds(v.row)
        old = hi if v.side == "<=" else lo
        amount = round_out(v.amount, old)
        exact = Decimal(repr(old)) + (Decimal(repr(amount)) if v.side == "<=" else -Decimal(repr(amount)))
        new = float(exact)  # 30 - 28.0001 prints 1.9999, not 1.9999000000000002
        out.append(Change(v.kind, v.row, v.side, amount, old, new))
    return tuple(out)


def apply_changes(model: LPModel, changes: tuple[Change, ...]) -> None:
    """Move each side to its new value (in place)."""
    for c in changes:
        lo, hi = model.row_bounds(c.name) if c.kind == "row" else model.col_bounds(c.name)
        lo, hi = (lo, c.new) if c.side == "<=" else (c.new, hi)
        if lo > hi:
            lo, hi = hi, lo
        (model.set_row_bounds if c.kind == "row" else model.set_col_bounds)(c.name, lo, hi)


def apply_candidate(model: LPModel, candidate: Candidate, time_limit: float = 10.0) -> LPStatus:
    """Apply the candidate's (rounded) changes in place and re-solve."""
    apply_changes(model, candidate.changes)
    model.h.setOptionValue("time_limit", float(time_limit))
    return model.solve().status


def _verify(model: LPModel, changes: tuple[Change, ...], time_limit: float) -> tuple[LPStatus, float | None]:
    work = model.copy()
    apply_changes(work, changes)
    work.h.setOptionValue("time_limit", float(time_limit))
    result = work.solve()
    return result.status, result.objective


def repair_candidates(
    model: LPModel, report: IISReport | None, options: RepairOptions, time_limit: float = 10.0
) -> tuple[tuple[Candidate, ...], tuple[str, ...]]:
    """Verified candidates (fewest changes, smallest total, one per IIS family) and why others were dropped."""
    options.check(model)

    lab = options.protected and supply_chain_from_model(model) is not None

    def relaxable(name: str) -> bool:
        return not options.is_hard(name) and not (lab and is_protected(name))

    bounds = relaxable if options.bounds else None
    tries: list[tuple[str, str, tuple[str, ...] | None, ElasticResult]] = []
    singles = []  # one IIS member alone: a feasible one is a proven fewest-changes repair (one change)
    members = (
        [("row", m.name) for m in report.rows] + [("bound", m.name) for m in report.bounds] if report else []
    )
    started = time.perf_counter()
    for kind, name in members[:SINGLE_TRIES]:
        if time.perf_counter() - started > SINGLE_SECONDS:
            break
        if (
            (kind == "row" and not relaxable(name))
            or options.is_hard(name)
            or (kind == "bound" and not options.bounds)
        ):
            continue
        res = elastic_repair(
            model,
            (lambda n, name=name: n == name) if kind == "row" else (lambda n: False),
            options.weight_of,
            bounds=(lambda n, name=name: n == name) if kind == "bound" else None,
            time_limit=time_limit,
        )
        if res.feasible and res.violations:
            singles.append((f"change only {kind} {name}", res))
    total = elastic_repair(model, relaxable, options.weight_of, bounds=bounds, time_limit=time_limit)
    families = []
    for fam, _names in (report.groups() if report else [])[: options.candidates]:
        size = sum(stem_of(n) == fam for n in model.row_names)
        if options.is_hard(fam) or (lab and is_protected(fam + "_")) or size > max(10, model.num_rows // 2):
            continue  # a "family" that is most of the model (cplex1's c1 ... c3005) is no useful repair
        res = elastic_repair(
            model,
            lambda n, fam=fam: stem_of(n) == fam and relaxable(n),
            options.weight_of,
            time_limit=time_limit,
        )
        families.append((f"relax only {fam}", "family", (fam,), res))
    one = [(label, res) for label, res in singles]
    one += [(label, res) for label, _g, _f, res in families if res.feasible and len(res.violations) == 1]
    if total.feasible and len(total.violations) == 1:
        one.append(("smallest total relaxation", total))
    one.sort(key=lambda item: item[1].total)
    if one:  # the model is infeasible, so one change is the fewest there can be: proven without the MIP
        label, res = one[0]
        v = res.violations[0]
        tries.append((f"fewest changes (one: {v.kind} {v.row})", "fewest", None, res))
    else:
        fewest = elastic_repair(
            model,
            relaxable,
            options.weight_of,
            bounds=bounds,
            fewest=True,
            time_limit=options.fewest_seconds,
        )
        tries.append(("fewest changed rows and bounds", "fewest", None, fewest))
    tries += [(label, "single", None, res) for label, res in singles]
    tries.append(("smallest total relaxation", "total", None, total))
    tries += families
    found: list[Candidate] = []
    dropped: list[str] = []
    if lab:
        dropped.append(
            "the model uses the lab's supply-chain names, so its protected rows ("
            + ", ".join(p.rstrip("_") for p in PROTECTED_PREFIXES)
            + ") are never relaxed (relaxing them invents stock; --unprotected allows it)"
        )
    seen: set[tuple] = set()
    for label, goal, fams, res in tries:
        if not res.feasible or not res.violations:
            dropped.append(f"{label}: no relaxation of the allowed rows and bounds restores feasibility")
            continue
        key = tuple(sorted((v.kind, v.row, v.side) for v in res.violations))
        if key in seen:
            continue
        seen.add(key)
        changes = _changes(model, res.violations)
        status, objective = _verify(model, changes, time_limit)
        if goal == "fewest" and not res.proven:
            label += " (best found, not proven fewest)"
        if status not in FEASIBLE:
            dropped.append(f"{label}: applied, HiGHS reports {status.value}, so it is not listed")
            continue
        families = fams or tuple(sorted({stem_of(v.row) for v in res.violations}))
        found.append(Candidate(label, goal, families, res.total, changes, status, objective, res.proven))
    return tuple(found[: options.candidates]), tuple(dropped)


# --- the analysis ---


@dataclass(frozen=True)
class Analysis:
    status: LPStatus
    objective: float | None
    rows: int
    cols: int
    summary: str
    iis: IISReport | None = None
    candidates: tuple[Candidate, ...] = ()
    dropped: tuple[str, ...] = ()
    prechecks: tuple[Finding, ...] = ()
    mip: dict | None = None  # integer columns, LP-relaxation status, MIP status
    oracle: dict | None = None  # deployable oracle report when the model follows the supply-chain naming
    seconds: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "status": self.status.value,
            "objective": self.objective,
            "rows": self.rows,
            "cols": self.cols,
            "summary": self.summary,
            "prechecks": [{"kind": f.kind, "name": f.name, "words": f.words} for f in self.prechecks],
            "mip": self.mip,
            "iis": self.iis.to_dict() if self.iis else None,
            "candidates": [c.to_dict() for c in self.candidates],
            "not_listed": list(self.dropped),
            "oracle": self.oracle,
            "seconds": self.seconds,
        }

    def best(self) -> Candidate | None:
        """The verified candidate to write out: fewest changes first, then the smallest total."""
        return min(self.candidates, key=lambda c: (len(c.changes), c.total), default=None)


def _plain(family: str, count: int) -> str:
    return f"{count} {family} row{'s' if count != 1 else ''}"


def analyze(model: LPModel, options: RepairOptions | None = None, *, time_limit: float = 10.0) -> Analysis:
    """Status, pre-checks, the IIS and verified repairs of `model` (left unchanged)."""
    options = options or RepairOptions()
    options.check(model)
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    checks = prechecks(model)
    seconds["prechecks"] = round(time.perf_counter() - clock, 3)
    if model.is_mip():
        return _analyze_mip(model, options, checks, time_limit, seconds)
    model.h.setOptionValue("time_limit", float(time_limit))
    result = model.solve()
    if result.status is not LPStatus.INFEASIBLE:
        return _solved(model, result.status, result.objective, checks, None, seconds)
    clock = time.perf_counter()
    report = find_iis(model)
    seconds["iis"] = round(time.perf_counter() - clock, 3)
    return _infeasible(model, report, options, checks, time_limit, seconds)


def _infeasible(
    model: LPModel,
    report: IISReport,
    options: RepairOptions,
    checks: tuple[Finding, ...],
    time_limit: float,
    seconds: dict[str, float],
    *,
    mip: dict | None = None,
    note: str | None = None,
) -> Analysis:
    """The analysis of an infeasible model from its IIS report: the verified repairs (timed) and the summary."""
    clock = time.perf_counter()
    found, dropped = repair_candidates(model, report, options, time_limit)
    seconds["repairs"] = round(time.perf_counter() - clock, 3)
    return Analysis(
        LPStatus.INFEASIBLE,
        None,
        model.num_rows,
        model.num_cols,
        _summary(report, checks, found, note),
        report,
        found,
        dropped,
        checks,
        mip,
        None,
        seconds,
    )


def _summary(
    report: IISReport | None, checks: tuple[Finding, ...], found: tuple[Candidate, ...], mip_note: str | None
) -> str:
    parts = ["The model is infeasible."]
    if mip_note:
        parts.append(mip_note)
    if checks:
        parts.append(
            f"Pre-checks found {len(checks)} trivial conflict{'s' if len(checks) != 1 else ''} "
            f"(first: {checks[0].words})."
        )
    if report is not None and not report.empty:
        groups = report.groups()
        shown = ", ".join(_plain(f, len(n)) for f, n in groups[:8])
        more = f" and {len(groups) - 8} more families" if len(groups) > 8 else ""
        b = len(report.bounds)
        parts.append(
            f"An irreducible infeasible subset ({report.method}) has {len(report.rows)} rows: {shown}{more}"
            + (f", and {b} variable bound{'s' if b != 1 else ''}" if b else "")
            + ". Removing or relaxing any one of them breaks this conflict (others may remain)."
        )
    elif report is not None:
        parts.append("No IIS could be computed (" + "; ".join(report.attempts) + ").")
    if found:
        parts.append(
            f"{len(found)} verified repair{'s' if len(found) != 1 else ''} below, each re-solved after "
            "applying the printed amounts."
        )
    else:
        parts.append(
            "No repair within the allowed rows and bounds restores feasibility: un-mark some hard rows."
        )
    return " ".join(parts)


def _solved(
    model: LPModel, status: LPStatus, objective: float | None, checks, mip: dict | None, seconds: dict
) -> Analysis:
    if status is LPStatus.UNBOUNDED:
        text = (
            "The model is unbounded: the objective can improve without limit. Add bounds on the "
            "variables that can grow for ever, or check the objective sense."
        )
        return Analysis(
            status, None, model.num_rows, model.num_cols, text, prechecks=checks, mip=mip, seconds=seconds
        )
    text = (
        f"The model solves to optimality (objective {objective:.6g})."
        if status is LPStatus.OPTIMAL
        else f"HiGHS ended with status {status.value} (for example its time limit)."
    )
    oracle = None
    if status is LPStatus.OPTIMAL and mip is None:
        sc = supply_chain_from_model(model)
        if sc is not None:
            from solvers.lp.oracle import evaluate

            report = evaluate(model, sc, error_type=None)
            oracle = report.to_dict() if report is not None else None
            if report is not None:
                text += (
                    " It follows the supply-chain naming, so the rationality oracle ran with every check: "
                    + ("all pass." if report.passed else "\n" + report.feedback())
                )
    return Analysis(
        status,
        objective,
        model.num_rows,
        model.num_cols,
        text,
        prechecks=checks,
        mip=mip,
        oracle=oracle,
        seconds=seconds,
    )


def _analyze_mip(
    model: LPModel, options: RepairOptions, checks, time_limit: float, seconds: dict
) -> Analysis:
    """A MIP: solve its LP relaxation, then the MIP; explain which of the two is infeasible."""
    n_int = int(sum(int(v) != 0 for v in model.h.getLp().integrality_))
    relaxed = model.copy()
    relaxed.relax_integrality()
    relaxed.h.setOptionValue("time_limit", float(time_limit))
    rel = relaxed.solve()
    model.h.setOptionValue("time_limit", float(time_limit))
    result = model.solve()
    mip = {"integer_columns": n_int, "relaxation_status": rel.status.value, "mip_status": result.status.value}
    if result.status is not LPStatus.INFEASIBLE:
        return _solved(model, result.status, result.objective, checks, mip, seconds)
    clock = time.perf_counter()
    if rel.status is LPStatus.INFEASIBLE:
        note = "Its LP relaxation is already infeasible, so the conflict is in the rows and bounds, not integrality; the IIS is the relaxation's."
        report = find_iis(relaxed)
    else:
        note = (
            f"Its LP relaxation is feasible ({rel.status.value}), so integrality causes the conflict: the "
            "rows can be met by fractional values only."
        )
        rows, cols = model.num_rows, model.num_cols
        found = None
        if rows <= SMALL_MIP[0] and cols <= SMALL_MIP[1]:
            found = deletion_filter(model, range(rows), range(cols), time_limit=time_limit)
        if found is not None:
            report = IISReport(
                "deletion filter on the MIP (integrality kept)",
                found.rows,
                found.bounds,
                True,
                ("irreducible by construction: every member was tried out",),
            )
        else:
            why = "the MIP is too large" if rows > SMALL_MIP[0] or cols > SMALL_MIP[1] else "time limit"
            report = IISReport("none (elastic-only analysis)", (), (), None, (f"deletion filter: {why}",))
    seconds["iis"] = round(time.perf_counter() - clock, 3)
    return _infeasible(model, report, options, checks, time_limit, seconds, mip=mip, note=note)


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
    from solvers.lp.instance import SupplyChain

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
