"""The diagnostician: an offline repair agent that reasons from the infeasibility evidence, not the generator.

It reads only the observation: the model's LP text (rows, columns, names, coefficients), the solver's evidence
on it (status, the IIS, the Farkas dual ray's multipliers, slacks of a feasible model) and, where a problem
statement is present, the statement's numbers through its own generic reading (`read_statement`: every
`- label: numbers` line). It never imports the data-set generator (`solvers.lp.saboteur`, `errortypes`,
`instance`, `dataset`; a test checks `sys.modules`), so it cannot rebuild the intended model and diff.

How it diagnoses (each finding names its evidence):

* **Names as structure.** `stem_e{n}_t{t}` rows and columns form families per echelon n and period t. A row
  whose terms span two echelons is a *link*; a link equality transfers a quantity, so its convention is
  +1 (own echelon) / -1 (the other), same period, right-hand side 0 — peers at other echelons confirm it.
* **Peer consensus.** A coefficient of an own-echelon variable in a balance row (same stem at every echelon)
  that departs from the value the other echelons agree on (prior: a flow coefficient has magnitude 1) is
  restored; an arrival term missing at the stated lead time is restored (extended action set only).
* **Stated numbers.** Costs of `I_*`/`B_*` against the stated holding/backorder costs, capacities against the
  stated capacities (or rows of a capacity the statement says does not exist).
* **IIS and Farkas ray.** After those restores, an unprotected inequality family in the IIS whose
  right-hand side is not a number of the statement is a constraint the statement does not contain: dropped.
  The ray's multipliers rank the families in every note.
* **Never decouple.** It never drops, relaxes or re-sets a link family away from its convention. When the
  conflict is in coefficients the action set cannot change (the paper's grammar has no UPDATE_COEF), it says
  "no rational repair in this action set" with the reason, and submits.

* **Any LP (no statement, no `_e{n}` names: the real track).** `plan_generic` runs the own-model tool's
  verified analysis (`solvers.lp.analyze`, imported lazily; it loads no generator module either): the IIS, its
  Farkas certificate and the verified fewest-changes / smallest-relaxation candidates, written as RELAX_CONSTRAINT
  (UPDATE_RHS for an equality) and UPDATE_BOUNDS by the verified amounts, checked after an MPS round trip; the
  first note says the IIS, the certificate and the change. Without model text it drops the first IIS row named.

Every plan is simulated on a copy first (same semantics as the environment), ordered so the model turns
OPTIMAL only with its last action (the environment judges the first OPTIMAL model).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from core.errors import SpecError
from solvers.lp.actions import Action, ActionName, apply_action, is_protected
from solvers.lp.elastic import elastic_repair
from solvers.lp.model import LPModel, LPStatus, family_of

MODEL_HEADER = "## Model (LP format)"  # solvers/lp/env.py writes it; a test keeps the two equal
SUBMIT = Action(ActionName.SUBMIT).to_dict()
NO_RATIONAL = "no rational repair in this action set"
_NAME = re.compile(r"^(?P<stem>.*?)(?:_e(?P<e>\d+))?(?:_t(?P<t>\d+))?$")
_NUM = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_IIS_LINE = re.compile(r"- Conflicting Constraints: \[(.*?)\]")
_FEEDBACK_COST = re.compile(
    r"objective coefficient of (\S+) is (\S+) but the specified \w+ cost at echelon \d+ is (-?[\d.]+)"
)
COST_WORDS = {"I": "holding", "B": "backorder cost"}  # column stem -> the statement label that prices it
TOL = 1e-6


@dataclass(frozen=True)
class Name:
    """A row or column name read as `stem[_e{echelon}][_t{period}]`."""

    stem: str
    echelon: int | None
    period: int | None


def read_name(name: str) -> Name:
    m = _NAME.match(name)
    assert m is not None  # the pattern matches every string
    e, t = m.group("e"), m.group("t")
    return Name(m.group("stem"), int(e) if e else None, int(t) if t else None)


@dataclass(frozen=True)
class Statement:
    """The statement's numbers by label (lower-case), and the labels it says are absent ("none")."""

    numbers: dict[str, tuple[float, ...]]
    absent: frozenset[str]

    def find(self, word: str) -> tuple[float, ...] | None:
        """The numbers of the first label containing `word` (None when no label does)."""
        for label, values in self.numbers.items():
            if word in label:
                return values
        return None

    def says_absent(self, word: str) -> bool:
        return any(word in label for label in self.absent)

    def all_numbers(self) -> set[float]:
        return {round(v, 2) for values in self.numbers.values() for v in values}


def read_statement(text: str) -> Statement:
    """Every `- label: numbers` line (and indented `label: numbers` lines under the previous label)."""
    numbers: dict[str, tuple[float, ...]] = {}
    absent: set[str] = set()
    parent = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        nested = raw.startswith((" ", "\t")) and not line.startswith("-")
        body = line.lstrip("- ").strip()
        if ":" in body:
            label, values = body.rsplit(":", 1)
        else:
            m = _NUM.search(body)
            label, values = (body[: m.start()], body[m.start() :]) if m else (body, "")
        label = label.strip().lower()
        if nested and parent:
            label = f"{parent} {label}"
        elif line.startswith("-"):
            parent = label
        if values.strip().lower().startswith("none"):
            absent.add(label)
            continue
        found = tuple(float(v) for v in _NUM.findall(values))
        if found:
            numbers[label] = found
    return Statement(numbers, frozenset(absent))


@dataclass(frozen=True)
class Finding:
    """One planned action, the reason in plain words, and whether the action set allows it."""

    action: Action
    why: str
    allowed: bool = True


def iis_rows(observation: str) -> list[str]:
    m = _IIS_LINE.search(observation)
    if not m:
        return []
    return [p.strip().strip("'\"") for p in m.group(1).split(",") if p.strip()]


def farkas_weights(model: LPModel) -> dict[str, float]:
    """Family -> total |multiplier| of the Farkas dual ray (empty when the model is not infeasible)."""
    if model.solve().status is not LPStatus.INFEASIBLE:
        return {}
    work = model.copy()
    work.h.setOptionValue("presolve", "off")
    work.h.run()
    _status, has_ray, y = work.h.getDualRay()
    if not has_ray:
        return {}
    out: dict[str, float] = defaultdict(float)
    for name, v in zip(work.row_names, np.asarray(y, dtype=float), strict=True):
        if abs(v) > 1e-9:
            out[family_of(name)] += abs(float(v))
    return dict(out)


def _terms(model: LPModel, row: str) -> dict[str, float]:
    return {c: v for c, v in model.row_coefs(row).items() if abs(v) > 1e-12}


def _is_link(model: LPModel, row: str) -> bool:
    """An equality whose terms span two or more echelons."""
    lo, hi = model.row_bounds(row)
    echelons = {read_name(c).echelon for c in _terms(model, row)} - {None}
    return lo == hi and len(echelons) >= 2


def _uniform(values: list[float]) -> float | None:
    return values[0] if values and all(abs(v - values[0]) < 1e-9 for v in values) else None


def _mode(values: list[float]) -> float | None:
    if not values:
        return None
    return Counter(round(v, 9) for v in values).most_common(1)[0][0]


class Diagnostician:
    """Offline agent: IIS + Farkas ray + names + peer consensus + the statement's numbers (see module doc)."""

    def __init__(self, *, extended: bool = False, protected: bool = True) -> None:
        self.extended = extended
        self.protected = protected
        self.name = "diagnostician (offline: IIS, Farkas ray, names, stated numbers)" + (
            " (extended actions)" if extended else ""
        )
        self.reset(None)

    def reset(self, seed: int | None) -> None:
        self.model: LPModel | None = None
        self.statement: Statement | None = None
        self.queue: list[Finding] = []
        self.last_note = ""
        self.replans = 0
        self.verdict = ""

    # --- acting ---

    def act(self, observation: Any) -> dict:
        text = str(observation)
        if self.model is None:
            self._read(text)
        if "## Episode complete" in text:
            self.last_note = self.verdict or "nothing to read: submit"
            return SUBMIT
        if self.model is None:
            return self._iis_only(text)
        if not self.queue:
            self.replans += 1
            if self.replans <= 3:
                self.queue = self.from_feedback(text) or self.plan(self.model)
        if not self.queue:
            self.last_note = self.verdict or "no further repair found: submit"
            return SUBMIT
        finding = self.queue.pop(0)
        self._apply(self.model, finding.action)
        self.last_note = finding.why
        return finding.action.to_dict()

    def _read(self, text: str) -> None:
        if MODEL_HEADER not in text:
            return
        body = text.split(MODEL_HEADER, 1)[1].lstrip("\n")
        if body.startswith("(omitted"):  # too large to show (the real track's cplex1): work from the IIS alone
            return
        try:
            self.model = LPModel.from_text(body, "lp")
        except SpecError:
            self.model = None
            return
        if "## Problem" in text:
            self.statement = read_statement(text.split("## Problem", 1)[1].split("## Current State", 1)[0])

    def _apply(self, model: LPModel, action: Action) -> bool:
        try:
            apply_action(model, action, protected=self.protected, extended=self.extended)
            return True
        except SpecError:
            return False

    def from_feedback(self, text: str) -> list[Finding]:
        """Phase II feedback that names a coefficient and the value it should have: set it (cost terms)."""
        if "## Rationality Feedback" not in text:
            return []
        out: list[Finding] = []
        for col, have, want in _FEEDBACK_COST.findall(text.split("## Rationality Feedback", 1)[1]):
            fam = family_of(col)
            finding = Finding(
                Action(ActionName.UPDATE_OBJ, fam, float(want)),
                f"Phase II feedback: the cost of {fam} is {have}, the specified one {want}",
            )
            if self.model is not None and self._apply(self.model.copy(), finding.action):
                out.append(finding)
        return out

    # --- diagnosis ---

    def diagnose(self, model: LPModel) -> list[Finding]:
        """Departures from the stated numbers and from the structure the names and peers agree on."""
        return [
            *self._costs(model),
            *self._capacities(model),
            *self._links(model),
            *self._balances(model),
            *self._targets(model),
        ]

    def plan(self, model: LPModel) -> list[Finding]:
        """The findings the action set allows, then IIS-driven drops, ordered and simulated; sets `verdict`.

        A model without the echelon names (`_e{n}`) and without a statement goes to `plan_generic`.
        """
        if self.statement is None and not _has_echelons(model):
            return self.plan_generic(model)
        findings = self.diagnose(model)
        blocked = [f for f in findings if not f.allowed]
        scratch = model.copy()
        chosen, refused = [], []
        for f in findings:
            if f.allowed:
                (chosen if self._apply(scratch, f.action) else refused).append(f)
        for _ in range(6):  # one family at a time: the IIS is re-read after each drop
            if scratch.solve().status is not LPStatus.INFEASIBLE:
                break
            drops = self._unstated_iis_rows(scratch)
            if not drops or not self._apply(scratch, drops[0].action):
                break
            chosen.append(drops[0])
        status = scratch.solve().status
        weights = farkas_weights(scratch if status is LPStatus.INFEASIBLE else model)
        top = ", ".join(f for f, _w in sorted(weights.items(), key=lambda kv: -kv[1])[:3])
        if blocked:
            why = "; ".join(f.why for f in blocked[:3])
            self.verdict = (
                f"{NO_RATIONAL}: {why}; only UPDATE_COEF (the extended action set) can restore that, and "
                "dropping or shifting the link rows instead would cut an echelon off from the orders below it"
            )
            return []
        unknown = self._unknown_target(scratch) if status is LPStatus.INFEASIBLE and not self.statement else ""
        if unknown:
            self.verdict = f"{NO_RATIONAL}: {unknown}"
            return []
        if status is not LPStatus.OPTIMAL:
            refusal = "; ".join(
                f"{f.why} (the action set refuses {f.action.signature()})" for f in refused[:2]
            )
            self.verdict = (
                f"{NO_RATIONAL}: {refusal + '; ' if refusal else ''}the Farkas ray still combines "
                f"{top or 'protected rows'}, and every remaining member is protected or a link between echelons "
                "(dropping it would decouple the chain)"
            )
            return []
        evidence = (
            f"IIS families by Farkas weight: {top}" if top else f"binding rows (dual): {_binding(model)}"
        )
        self.verdict = f"repair planned ({len(chosen)} actions; {evidence})"
        return self._order(model, chosen)

    def _order(self, model: LPModel, plan: list[Finding]) -> list[Finding]:
        """An order in which only the last action makes the model OPTIMAL (the env judges the first one)."""

        def early(order: tuple[Finding, ...]) -> bool:
            work = model.copy()
            for f in order[:-1]:
                self._apply(work, f.action)
                if work.solve().status is LPStatus.OPTIMAL:
                    return True
            return False

        if len(plan) <= 1 or not early(tuple(plan)):
            return plan
        for order in itertools.islice(itertools.permutations(plan), 720):
            if not early(order):
                return list(order)
        return plan

    def _costs(self, model: LPModel) -> list[Finding]:
        out: list[Finding] = []
        if self.statement is None or not self.statement.find(COST_WORDS["I"]):
            return self._cost_order(model)
        for stem, word in COST_WORDS.items():
            stated = self.statement.find(word)
            if not stated:
                continue
            by_echelon: dict[int, list[float]] = defaultdict(list)
            for c in model.col_names:
                n = read_name(c)
                if n.stem == stem and n.echelon is not None:
                    by_echelon[n.echelon].append(model.cost(c))
            for e, costs in sorted(by_echelon.items()):
                have = _uniform(costs)
                if e <= len(stated) and have is not None and abs(have - stated[e - 1]) > TOL * max(1, have):
                    out.append(
                        Finding(
                            Action(ActionName.UPDATE_OBJ, f"{stem}_e{e}", stated[e - 1]),
                            f"cost of {stem}_e{e} is {have:g}; the statement's {word} for echelon {e} is "
                            f"{stated[e - 1]:g}",
                        )
                    )
        return out

    def _cost_order(self, model: LPModel) -> list[Finding]:
        """Without stated costs: holding cost may not rise upstream (value is added downstream).

        An echelon priced above the echelon below it is set to that echelon's cost: the smallest change that
        restores the order (only when that keeps it at or above the echelon above it).
        """
        h: dict[int, float] = {}
        for e in range(1, 100):
            costs = [model.cost(c) for c in model.cols_matching(f"I_e{e}")]
            if not costs:
                break
            value = _uniform(costs)
            if value is None:
                return []
            h[e] = value
        out: list[Finding] = []
        for e in sorted(h):
            below, above = h.get(e - 1), h.get(e + 1)
            if below is None or h[e] <= below * 1.01:
                continue
            if above is not None and above > below * 1.01:
                continue
            out.append(
                Finding(
                    Action(ActionName.UPDATE_OBJ, f"I_e{e}", below),
                    f"holding cost of I_e{e} ({h[e]:g}) exceeds the echelon below ({below:g}); no cost is "
                    "stated, so it is lowered to the nearest value that keeps costs non-increasing upstream",
                )
            )
        return out

    def _capacities(self, model: LPModel) -> list[Finding]:
        out: list[Finding] = []
        if self.statement is None:
            return out
        fams: dict[int, list[str]] = defaultdict(list)
        for r in model.row_names:
            n = read_name(r)
            if n.stem == "capacity" and n.echelon is not None:
                fams[n.echelon].append(r)
        stated = self.statement.find("capacity")
        for e, rows in sorted(fams.items()):
            fam = f"capacity_e{e}"
            if self.statement.says_absent("capacity"):
                out.append(
                    Finding(
                        Action(ActionName.DROP_CONSTRAINT, fam),
                        f"{fam}: the statement says the chain has no order capacity",
                    )
                )
                continue
            have = _uniform([model.row_bounds(r)[1] for r in rows])
            if stated and e <= len(stated) and (have is None or abs(have - stated[e - 1]) > TOL):
                out.append(
                    Finding(
                        Action(ActionName.UPDATE_RHS, fam, stated[e - 1]),
                        f"{fam} allows {have if have is not None else 'varying amounts'}; the statement's "
                        f"capacity for echelon {e} is {stated[e - 1]:g}",
                    )
                )
        return out

    def _links(self, model: LPModel) -> list[Finding]:
        """Link equalities against their convention: own +1, other echelon -1 in the same period, rhs 0."""
        fams: dict[str, list[str]] = defaultdict(list)
        for r in model.row_names:
            if _is_link(model, r):
                fams[family_of(r)].append(r)
        out: list[Finding] = []
        for fam, rows in sorted(fams.items()):
            own = read_name(rows[0]).echelon
            sign_flip, shifted, same_missing = set(), Counter(), set()
            for r in rows:
                t = read_name(r).period
                others = {c: v for c, v in _terms(model, r).items() if read_name(c).echelon != own}
                stems = {(read_name(c).stem, read_name(c).echelon) for c in others}
                for c, v in others.items():
                    n = read_name(c)
                    if t is None or n.period is None:
                        continue
                    if n.period == t and v > 0:
                        sign_flip.add((n.stem, n.echelon))
                    if n.period != t:
                        shifted[(n.stem, n.echelon, t - n.period)] += 1
                if t is not None:
                    for stem, e in stems:
                        if f"{stem}_e{e}_t{t}" not in others and model.has_col(f"{stem}_e{e}_t{t}"):
                            same_missing.add((stem, e))
            for stem, e in sorted(sign_flip):
                out.append(self._coef(fam, f"{stem}_e{e}", -1.0, 0, f"{fam}: {stem}_e{e} enters with sign +"))
            for stem, e in sorted(same_missing):
                out.append(
                    self._coef(
                        fam, f"{stem}_e{e}", -1.0, 0, f"{fam}: {stem}_e{e} of the same period is missing"
                    )
                )
            for (stem, e, lag), _k in sorted(shifted.items()):
                out.append(
                    self._coef(
                        fam, f"{stem}_e{e}", 0.0, lag, f"{fam}: {stem}_e{e} is read {lag} period(s) late"
                    )
                )
            rhs = _uniform([model.row_bounds(r)[0] for r in rows])
            if rhs is None or abs(rhs) > TOL:
                out.append(
                    Finding(
                        Action(ActionName.UPDATE_RHS, fam, 0.0),
                        f"{fam}: a link carries a constant {rhs if rhs is not None else '(varying)'}; it should "
                        "transfer the quantity exactly (0)",
                        allowed=not (self.protected and is_protected(rows[0])),
                    )
                )
        return out

    def _balances(self, model: LPModel) -> list[Finding]:
        """Own-echelon coefficients of equality rows of one stem, across echelons (peer consensus)."""
        groups: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
        for r in model.row_names:
            n = read_name(r)
            lo, hi = model.row_bounds(r)
            if n.echelon is not None and lo == hi and not _is_link(model, r):
                groups[n.stem][n.echelon].append(r)
        lead = self.statement.find("lead time") if self.statement is not None else None
        out: list[Finding] = []
        for stem, by_e in sorted(groups.items()):
            # per echelon: (variable stem, lag) -> modal coefficient over the periods
            seen: dict[int, dict[tuple[str, int], float]] = {}
            for e, rows in by_e.items():
                values: dict[tuple[str, int], list[float]] = defaultdict(list)
                for r in rows:
                    t = read_name(r).period
                    for c, v in _terms(model, r).items():
                        n = read_name(c)
                        if n.echelon == e and t is not None and n.period is not None:
                            values[(n.stem, t - n.period)].append(v)
                seen[e] = {k: m for k, vs in values.items() if (m := _mode(vs)) is not None}
            for e, coefs in sorted(seen.items()):
                for (var, lag), v in sorted(coefs.items()):
                    peers = [
                        seen[k][(var, lag if lag == 0 or lead is None else _lag(lead, k, lag, e))]
                        for k in seen
                        if k != e
                        and (var, lag if lag == 0 or lead is None else _lag(lead, k, lag, e)) in seen[k]
                    ]
                    want = _mode(peers) if peers else None
                    if want is None or abs(abs(want) - 1.0) > TOL:
                        want = math.copysign(1.0, v) if abs(abs(v) - 1.0) > TOL else None
                    if want is not None and abs(v - want) > TOL:
                        out.append(
                            self._coef(
                                f"{stem}_e{e}",
                                f"{var}_e{e}",
                                want,
                                lag,
                                f"{stem}_e{e}: {var}_e{e} (lag {lag}) has coefficient {v:g}; the other echelons "
                                f"and the flow convention say {want:g}",
                            )
                        )
                out += self._missing_arrivals(model, stem, e, seen, lead)
        return out

    def _missing_arrivals(
        self,
        model: LPModel,
        stem: str,
        e: int,
        seen: dict[int, dict[tuple[str, int], float]],
        lead: tuple[float, ...] | None,
    ) -> list[Finding]:
        """A variable every other echelon receives at one positive lag (its lead time) but echelon e never does.

        The lag is the stated lead time; without a statement, the longest lag at which the restored model is still
        OPTIMAL (each lag 1..T-1 simulated; extended action set only): the operational limits leave no room for
        a longer delay than the true one, while any shorter one is merely cheaper.
        """

        def single_lag(k: int, var: str) -> int | None:
            lags = {lg for v, lg in seen[k] if v == var}
            return next(iter(lags)) if len(lags) == 1 and next(iter(lags)) > 0 else None

        own = {v for v, _lg in seen[e]}
        peer_vars = {
            var for k in seen if k != e for var in {v for v, _lg in seen[k]} if single_lag(k, var) is not None
        }
        out: list[Finding] = []
        for var in sorted(peer_vars - own):
            if not model.has_col(f"{var}_e{e}_t1"):
                continue
            fam, col = f"{stem}_e{e}", f"{var}_e{e}"
            if lead is not None and e <= len(lead) and int(lead[e - 1]) > 0:
                lag = int(lead[e - 1])
                out.append(
                    self._coef(
                        fam, col, -1.0, lag, f"{fam}: no {col} arrives after the stated lead time {lag}"
                    )
                )
                continue
            lag = self._infer_lag(model, fam, col) if self.extended else None
            if lag is None:
                out.append(
                    Finding(
                        Action(ActionName.UPDATE_COEF, fam, -1.0, var=col, lag=1),
                        f"{fam}: no {col} ever arrives (the other echelons receive theirs one lead time later) "
                        "and no lead time is stated",
                        allowed=False,
                    )
                )
                continue
            out.append(
                self._coef(
                    fam,
                    col,
                    -1.0,
                    lag,
                    f"{fam}: no {col} ever arrives; no lead time is stated, and lag {lag} "
                    "is the longest delay the limits still allow",
                )
            )
        return out

    def _infer_lag(self, model: LPModel, fam: str, col: str) -> int | None:
        periods = [p for r in model.rows_matching(fam) if (p := read_name(r).period) is not None]
        best: tuple[float, int] | None = None
        for lag in range(1, max(periods, default=1)):
            work = model.copy()
            if not self._apply(work, Action(ActionName.UPDATE_COEF, fam, -1.0, var=col, lag=lag)):
                continue
            result = work.solve()
            ok = result.status is LPStatus.OPTIMAL and result.objective is not None
            if ok:
                best = (float(result.objective or 0.0), lag)
        return None if best is None else best[1]

    def _targets(self, model: LPModel) -> list[Finding]:
        """One balance row whose target no stated number explains, among peers that the stated numbers do.

        A balance row's right-hand side is a sum of stated numbers: the initial stock in period 1, and the
        customer demand of period t where demand enters as data. Which of the two kinds an echelon's rows follow
        is read from its other periods; a row no combination explains is re-set to what its peers imply.
        """
        if self.statement is None:
            return self._peer_targets(model)
        init, demand = self.statement.find("initial"), self.statement.find("customer demand")
        if not init or not demand:
            return []
        out: list[Finding] = []
        for (_stem, e), by_t in sorted(_balance_rows(model).items()):
            if e > len(init) or max(by_t) > len(demand):
                continue

            def want(t: int, with_demand: bool, e: int = e) -> float:
                return (init[e - 1] if t == 1 else 0.0) - (demand[t - 1] if with_demand else 0.0)

            rhs = {t: model.row_bounds(r)[0] for t, r in by_t.items()}
            kinds = [
                k for k in (False, True) if sum(abs(rhs[t] - want(t, k)) < 1e-6 for t in rhs) >= len(rhs) - 1
            ]
            if len(kinds) != 1 or len(rhs) < 3:
                continue
            for t, value in sorted(rhs.items()):
                target = want(t, kinds[0])
                if abs(value - target) > 1e-6:
                    out.append(
                        Finding(
                            Action(ActionName.UPDATE_RHS, by_t[t], target),
                            f"{by_t[t]}: target {value:g} is no sum of stated numbers; its peers in periods "
                            f"1..{max(by_t)} imply {target:g}",
                        )
                    )
        return out

    def _peer_targets(self, model: LPModel) -> list[Finding]:
        """Without a statement: one balance target that departs from the value all its later-period peers share.

        A balance row after the first period carries the previous period's state on its left-hand side, so its
        target is that period's external flow alone. Where every other such row of the family (at least 3) has
        one target (an upstream echelon's: 0, nothing enters as data), a single departing row is re-set to it.
        The first period's row also holds the opening stock, and a family whose targets differ period by period
        (the retailer's customer demand) has no consensus: `_unknown_target` explains those.
        """
        out: list[Finding] = []
        for by_t in _balance_rows(model).values():
            later = {t: model.row_bounds(r)[0] for t, r in by_t.items() if t > min(by_t)}
            counts = Counter(round(v, 9) for v in later.values())
            if len(later) < 4 or len(counts) != 2:
                continue
            (value, k_value), (odd, k_odd) = counts.most_common(2)
            if k_odd != 1:
                continue
            t = next(t for t, v in later.items() if round(v, 9) == odd)
            row = by_t[t]
            out.append(
                Finding(
                    Action(ActionName.UPDATE_RHS, row, value),
                    f"{row}: target {odd:g} departs from the target {value:g} that all {k_value} other rows of "
                    f"{family_of(row)} after the first period share (their left-hand sides carry the previous "
                    "period's state, so the target is the period's external flow: none here)",
                )
            )
        return out

    def _unknown_target(self, model: LPModel) -> str:
        """Why a conflicting balance target cannot be re-set without a statement ("" when that is not the case).

        The IIS holds a balance equality whose target alone, moved by the elastic amount, would restore
        feasibility, and no peer row says what it should be: in the first period the target is the opening
        stock, elsewhere it varies period by period (data such as demand); both are numbers only a problem
        statement gives. A value that merely makes the model feasible would be a guess.
        """
        members = set(model.iis().row_names)
        found: list[str] = []
        for (stem, e), by_t in sorted(_balance_rows(model).items()):
            later = {round(model.row_bounds(r)[0], 9) for t, r in by_t.items() if t > min(by_t)}
            for t, row in sorted(by_t.items()):
                if row not in members or len(found) >= 4 or (t > min(by_t) and len(later) == 1):
                    continue  # a later-period row whose peers all agree with it is not the suspect
                fix = elastic_repair(model, lambda r, row=row: r == row)
                if not fix.feasible or not fix.violations:
                    continue
                v, have = fix.violations[0], model.row_bounds(row)[0]
                move = f"at least {have + v.amount:g}" if v.side == "<=" else f"at most {have - v.amount:g}"
                kind = (
                    "the first period's target, which holds the opening stock"
                    if t == min(by_t)
                    else f"a target that differs period by period in {stem}_e{e} (data such as demand)"
                )
                found.append(f"{row} (target {have:g}, feasible from {move}; {kind})")
        if not found:
            return ""
        which = found[0] if len(found) == 1 else "any one of " + ", ".join(found)
        return (
            f"re-setting the target of {which} alone would repair the model, but the LP text does not say "
            f"{'which one is wrong, nor ' if len(found) > 1 else ''}to what: no peer row implies it, and the "
            "value is a number only the problem statement gives; a value that merely restores feasibility is a "
            "guess (stock or demand the stated chain does not have, which the plan replay refuses), and dropping "
            "or relaxing the balance or link rows instead would decouple the chain"
        )

    def _coef(self, row: str, var: str, value: float, lag: int, why: str) -> Finding:
        return Finding(
            Action(ActionName.UPDATE_COEF, row, value, var=var, lag=lag), why, allowed=self.extended
        )

    def _unstated_iis_rows(self, model: LPModel) -> list[Finding]:
        """Unprotected, non-link inequality families in the IIS whose bound is no number of the statement."""
        stated = self.statement.all_numbers() if self.statement is not None else set()
        out: list[Finding] = []
        done: set[str] = set()
        for r in model.iis().row_names:
            fam = family_of(r)
            if fam in done or (self.protected and is_protected(r)) or _is_link(model, r):
                continue
            lo, hi = model.row_bounds(r)
            if lo == hi:
                continue
            bound = hi if math.isfinite(hi) else lo
            if round(bound, 2) in stated:
                continue
            done.add(fam)
            out.append(
                Finding(
                    Action(ActionName.DROP_CONSTRAINT, fam),
                    f"{fam} is in the IIS and its limit {bound:g} is no number of the statement: a constraint "
                    "the statement does not contain",
                )
            )
        # a stem repeated at every echelon is structure; a one-off stem (no peers) goes first, then Farkas weight
        stems = Counter(read_name(f).stem for f in {family_of(r) for r in model.row_names})
        weights = farkas_weights(model)
        out.sort(
            key=lambda f: (
                stems[read_name(str(f.action.target)).stem] > 1,
                -weights.get(str(f.action.target), 0.0),
            )
        )
        return out


    # --- any LP (the real track): the own-model tool's verified analysis ---

    def plan_generic(self, model: LPModel) -> list[Finding]:
        """The IIS, its Farkas certificate and the verified fewest-changes repair, as actions; sets `verdict`.

        Each verified candidate of `solvers.lp.analyze` (fewest changes first, then smallest total relaxation,
        then one per IIS family) is turned into actions of the grammar: a row side moved by the verified amount
        is RELAX_CONSTRAINT (an equality re-set by UPDATE_RHS), a column bound UPDATE_BOUNDS. The first plan
        whose result solves after an MPS round trip is submitted; without one, IIS rows are dropped one at a
        time while each drop is verified to help (the greedy floor, said so in the note).
        """
        from solvers.lp.analyze import analyze  # lazy: only any-LP models need it

        analysis = analyze(model.copy())
        if analysis.status is not LPStatus.INFEASIBLE:
            self.verdict = f"the model is {analysis.status.value}: nothing to repair"
            return []
        iis = analysis.iis
        names = [m.name for m in iis.rows] if iis else []
        bounds = [m.name for m in iis.bounds] if iis else []
        found = f"IIS ({iis.method if iis else 'none'}): {len(names)} rows {_few(names)}" + (
            f" and {len(bounds)} bounds {_few(bounds)}" if bounds else ""
        )
        cert = iis.certificate.sentences()[-1] if iis and iis.certificate else "no Farkas certificate"
        ranked = sorted(
            analysis.candidates, key=lambda c: (c.goal != "fewest", len(c.changes), c.total)
        )
        for cand in ranked:
            plan = self._candidate_actions(model, cand)
            if plan is None:
                continue
            scratch = model.copy()
            if all(self._apply(scratch, f.action) for f in plan) and _verified(scratch):
                proven = "proven fewest" if cand.goal == "fewest" and cand.proven else cand.goal
                self.verdict = (
                    f"{found}. Farkas certificate: {cert} Repair ({cand.label}; {proven}, verified "
                    f"{scratch.solve().status.value} after an MPS round trip): "
                    + "; ".join(f.why for f in plan)
                )
                return self._say(self._order(model, plan))
        return self._say(self._drop_verified(model, names, f"{found}. Farkas certificate: {cert}"))

    def _say(self, plan: list[Finding]) -> list[Finding]:
        """The first action's note carries the whole finding (IIS, certificate, repair)."""
        if plan:
            plan[0] = replace(plan[0], why=f"{self.verdict}. This step: {plan[0].why}")
        return plan

    def _candidate_actions(self, model: LPModel, cand: Any) -> list[Finding] | None:
        """The grammar's actions for a candidate's changes (None when one cannot be expressed)."""
        out: list[Finding] = []
        for ch in cand.changes:
            if ch.kind == "bound":
                if not model.has_col(ch.name):
                    return None
                lo, hi = model.col_bounds(ch.name)
                lo, hi = (lo, ch.new) if ch.side == "<=" else (ch.new, hi)
                act = Action(ActionName.UPDATE_BOUNDS, ch.name, lo, hi)
                why = f"bound of {ch.name} moved from {ch.old:g} to {ch.new:g} (by {ch.amount:g})"
            else:
                if not model.has_row(ch.name):
                    return None
                lo, hi = model.row_bounds(ch.name)
                if lo == hi:
                    act = Action(ActionName.UPDATE_RHS, ch.name, ch.new)
                    why = f"{ch.name}: equality target re-set from {ch.old:g} to {ch.new:g}"
                else:
                    act = Action(ActionName.RELAX_CONSTRAINT, ch.name, ch.amount)
                    why = f"{ch.name} ({ch.side} {ch.old:g}) relaxed by {ch.amount:g} to {ch.new:g}"
            out.append(Finding(act, why))
        return out or None

    def _drop_verified(self, model: LPModel, names: list[str], found: str) -> list[Finding]:
        """Drop single IIS rows that make the model solve; else drop IIS rows one at a time (at most 6)."""
        for r in names[:40]:
            scratch = model.copy()
            if self._apply(scratch, Action(ActionName.DROP_CONSTRAINT, r)) and _verified(scratch):
                self.verdict = f"{found}. No relaxation could be expressed; dropping {r} alone repairs it (verified)"
                return [Finding(Action(ActionName.DROP_CONSTRAINT, r), f"drop {r} (verified to repair alone)")]
        scratch, chosen = model.copy(), []
        for _ in range(6):
            if scratch.solve().status is not LPStatus.INFEASIBLE:
                break
            rows = list(scratch.iis().row_names)
            if not rows or not self._apply(scratch, Action(ActionName.DROP_CONSTRAINT, rows[0])):
                break
            chosen.append(Finding(Action(ActionName.DROP_CONSTRAINT, rows[0]), f"drop IIS row {rows[0]}"))
        ok = _verified(scratch)
        self.verdict = f"{found}. " + (
            f"Repair by {len(chosen)} IIS drops (verified)" if ok else "no verified repair in this action set"
        )
        return self._order(model, chosen) if ok else []

    def _iis_only(self, text: str) -> dict:
        """No model text in the observation (too large to show): drop the first IIS row it names."""
        rows = iis_rows(text)
        if not rows or "Solver Status: OPTIMAL" in text or self.replans >= 6:
            self.last_note = self.verdict or "nothing to read: submit"
            return SUBMIT
        self.replans += 1
        self.last_note = (
            f"the observation carries no model text, only its IIS ({len(rows)} rows {_few(rows)}): "
            f"drop its first row {rows[0]}"
        )
        return Action(ActionName.DROP_CONSTRAINT, rows[0]).to_dict()


def _balance_rows(model: LPModel) -> dict[tuple[str, int], dict[int, str]]:
    """(stem, echelon) -> {period: row} of the equality rows that are not links (the balance rows)."""
    rows: dict[tuple[str, int], dict[int, str]] = defaultdict(dict)
    for r in model.row_names:
        n = read_name(r)
        lo, hi = model.row_bounds(r)
        if n.echelon is not None and n.period is not None and lo == hi and not _is_link(model, r):
            rows[(n.stem, n.echelon)][n.period] = r
    return rows


def _few(names: list[str], k: int = 5) -> str:
    shown = ", ".join(names[:k])
    return f"[{shown}{', ...' if len(names) > k else ''}]"


def _has_echelons(model: LPModel) -> bool:
    """Whether any row or column follows the supply-chain naming `stem_e{n}...`."""
    return any(read_name(n).echelon is not None for n in (*model.row_names, *model.col_names))


def _verified(model: LPModel) -> bool:
    """OPTIMAL or UNBOUNDED after writing the model as MPS and reading it back fresh."""
    try:
        status = LPModel.from_text(model.to_text("mps"), "mps").solve().status
    except SpecError:
        return False
    return status in (LPStatus.OPTIMAL, LPStatus.UNBOUNDED)


def _binding(model: LPModel, k: int = 3) -> str:
    """The families of the k rows with the largest |dual| at the optimum (slack 0, priced), or "-"."""
    if model.solve().status is not LPStatus.OPTIMAL:
        return "-"
    duals = np.abs(np.asarray(model.h.getSolution().row_dual, dtype=float))
    order = [i for i in np.argsort(-duals) if duals[i] > 1e-9][: 4 * k]
    families = list(dict.fromkeys(family_of(model.row_names[i]) for i in order))[:k]
    return ", ".join(families) or "-"


def _lag(lead: tuple[float, ...], k: int, lag: int, e: int) -> int:
    """Echelon k's lag that plays the role of echelon e's `lag` (its own lead time when `lag` is e's)."""
    if e <= len(lead) and k <= len(lead) and lag == int(lead[e - 1]):
        return int(lead[k - 1])
    return lag
