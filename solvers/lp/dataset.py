"""A deterministic OptiRepair-SC-like data set: 976 verified problems, train 692 / test 284 (Table 12).

Pipeline (Appendix G.1, HiGHS instead of Gurobi):
1. source instance: `sample_supply_chain(default_rng([seed, i]))`, solved OPTIMAL; discarded as trivial when
   the optimal cost is below `MIN_OBJECTIVE`, as degenerate with fewer than `MIN_ACTIVE` rows with a non-zero
   dual at the optimum;
2. tightening calibrated to the optimum (`saboteur.TIGHTENING`), then one injection per chosen type;
3. verification: the sabotaged model is INFEASIBLE with a non-empty IIS (ME-5: OPTIMAL and failing the
   oracle);
4. labelling: the ground-truth edits restore OPTIMAL and pass every applicable check (Table 8).
Problems failing 3 or 4 are discarded and counted per type (`GenerationStats`).

Split: each source instance goes wholly to train or test (the split whose quota is proportionally
less filled). `Mix.SINGLE` (default, the paper's "the saboteur selects an error type"): each source instance
is offered exactly one error type (the next still needed in a rotation over the ten) and yields at most one
problem; `Mix.MULTI` (the data set before issue 28): at most `TYPES_PER_SOURCE` problems of different types.

The stored initial IIS (`Problem.iis0`, with `details["iis0_method"]`) is HiGHS's own irreducible IIS
(`getIis`, strategy from-LP + irreducible), so its size compares with Table 12's; the environment computes its
live IIS with the faster ray + deletion routine (`LPModel.iis()`), which may return another valid IIS.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import numpy as np

from core.errors import SolverError, SpecError
from solvers.lp.actions import Action, apply_action
from solvers.lp.edits import Edit, apply_edits
from solvers.lp.errortypes import SPLIT_COUNTS, TITLES, ErrorType
from solvers.lp.instance import SupplyChain, sample_supply_chain
from solvers.lp.model import IIS, LPModel, LPStatus, build_supply_chain
from solvers.lp.oracle import APPLICABILITY, Limits, evaluate
from solvers.lp.saboteur import Tightening, build_tightened, calibrate, inject
from solvers.upload import load_json, parse_record, read_text


class Mix(StrEnum):
    """How many error types one source instance may carry: one (the paper's) or up to three (before issue 28)."""

    SINGLE = "single"
    MULTI = "multi"


MIN_OBJECTIVE = 1.0
MIN_ACTIVE = 10
TYPES_PER_SOURCE = 3
DEFAULT_SEED = 2
MAX_SOURCES = 20_000
MAX_DATASET_BYTES = 100_000_000  # the 976-problem set of seed 2 is about 6.5 MB
PROBLEM_ID = re.compile(r"sc-(train|test)-me-([1-9]|10)-(\d{5})")


@dataclass(frozen=True)
class Problem:
    """One repair problem: the source configuration, the tightening, the injection and the ground truth."""

    id: str
    split: str
    error_type: ErrorType
    source: int
    supply_chain: SupplyChain
    tightening: Tightening
    edits: tuple[Edit, ...]
    gt_edits: tuple[Edit, ...]
    gt_actions: tuple[Action, ...]
    gt_in_agent_grammar: bool
    description: str
    iis0: tuple[str, ...] = ()
    details: dict = field(default_factory=dict)

    @property
    def size(self) -> str:
        return f"{self.supply_chain.n_echelons}x{self.supply_chain.n_periods}"

    @property
    def limits(self) -> Limits:
        """The stated backorder caps and factory supply cap (what the strict judge's plan replay enforces)."""
        return Limits(self.tightening.backorder_caps, self.tightening.supply_cap)

    def build(self) -> LPModel:
        """The sabotaged model as the agent receives it."""
        model = build_tightened(self.supply_chain, self.tightening)
        apply_edits(model, self.edits)
        return model

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "split": self.split,
            "error_type": self.error_type.value,
            "source": self.source,
            "supply_chain": self.supply_chain.to_dict(),
            "tightening": self.tightening.to_dict(),
            "edits": [e.to_dict() for e in self.edits],
            "gt_edits": [e.to_dict() for e in self.gt_edits],
            "gt_actions": [a.to_dict() for a in self.gt_actions],
            "gt_in_agent_grammar": self.gt_in_agent_grammar,
            "description": self.description,
            "iis0": list(self.iis0),
            "details": self.details,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Problem:
        try:
            return cls(
                id=str(data["id"]),
                split=str(data["split"]),
                error_type=ErrorType(data["error_type"]),
                source=int(data["source"]),
                supply_chain=SupplyChain.from_dict(data["supply_chain"]),
                tightening=Tightening.from_dict(data.get("tightening")),
                edits=tuple(Edit.from_dict(e) for e in data["edits"]),
                gt_edits=tuple(Edit.from_dict(e) for e in data["gt_edits"]),
                gt_actions=tuple(Action.from_dict(a) for a in data["gt_actions"]),
                gt_in_agent_grammar=bool(data["gt_in_agent_grammar"]),
                description=str(data["description"]),
                iis0=tuple(data.get("iis0", ())),
                details=dict(data.get("details", {})),
            )
        except KeyError as err:
            raise SpecError(str(err.args[0]), "missing from the problem record") from err


def _nums(values) -> str:
    return ", ".join(f"{v:g}" for v in values)


def describe(sc: SupplyChain, tightening: Tightening) -> str:
    """The natural-language problem statement: every parameter, no hint of what went wrong."""
    n, t = sc.n_echelons, sc.n_periods
    lines = [
        f"A serial supply chain with {n} echelons (echelon 1 is the retailer, echelon {n} the factory) is planned "
        f"over {t} periods. Each echelon orders from the next one upstream; the factory produces. The LP minimises "
        "holding plus backorder cost; inventory balance links stock, backorders, arrivals (orders placed one lead "
        "time earlier) and the demand each echelon sees (customer demand at the retailer, the downstream order "
        "upstream).",
        f"- Holding cost per unit and period, echelons 1..{n}: {_nums(sc.holding)}",
        f"- Backorder cost per unit and period: {_nums(sc.backorder)}",
        (
            f"- Order capacity per period: {_nums(sc.capacity)}"
            if sc.capacity is not None
            else "- Order capacity: none (uncapacitated chain)"
        ),
        f"- Lead times (periods): {', '.join(str(v) for v in sc.lead_time)}",
        f"- Initial on-hand inventory: {_nums(sc.initial_inventory)}",
        f"- Customer demand at the retailer, periods 1..{t} ({sc.pattern.value}): {_nums(sc.demand)}",
        f"- Mean demand: {sc.mean_demand:.2f} units per period",
    ]
    if tightening.backorder_caps:
        lines.append("- Operational limits: backorders per echelon and period may not exceed")
        for k, caps in enumerate(tightening.backorder_caps, start=1):
            lines.append(f"    echelon {k}: {_nums(caps)}")
    if tightening.supply_cap is not None:
        lines.append(f"- Factory supply per period at most {tightening.supply_cap:g}")
    return "\n".join(lines)


@dataclass
class GenerationStats:
    attempts: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)
    discarded: dict[str, dict[str, int]] = field(default_factory=dict)
    sources: int = 0
    sources_rejected: int = 0
    seconds: float = 0.0

    def discard(self, e: ErrorType, reason: str) -> None:
        self.discarded.setdefault(e.value, {}).setdefault(reason, 0)
        self.discarded[e.value][reason] += 1

    def discard_rates(self) -> dict[str, float]:
        return {
            k: round(1.0 - self.kept.get(k, 0) / v, 4) if v else 0.0 for k, v in sorted(self.attempts.items())
        }

    def to_dict(self) -> dict:
        return {
            "sources": self.sources,
            "sources_rejected": self.sources_rejected,
            "attempts": self.attempts,
            "kept": self.kept,
            "discarded": self.discarded,
            "discard_rate": self.discard_rates(),
            "seconds": round(self.seconds, 2),
        }


def stored_iis(model: LPModel) -> IIS:
    """HiGHS's own irreducible IIS (`getIis`); the ray + deletion routine's when HiGHS cannot compute one."""
    try:
        return model.iis(method="highs")
    except SolverError:
        return model.iis()


def verify(
    tightened: LPModel,
    sc: SupplyChain,
    edits,
    gt_edits,
    error_type: ErrorType,
    gt_actions: tuple[Action, ...] = (),
) -> tuple[str | None, IIS | None]:
    """Appendix G steps 3–4 on a copy of the tightened model; returns (discard reason or None, initial IIS).

    A ground truth of several actions is also replayed action by action: no prefix of it may be OPTIMAL.
    """
    model = tightened.copy()
    apply_edits(model, edits)
    status = model.solve().status
    iis = None
    if error_type is ErrorType.ME5:
        if status is not LPStatus.OPTIMAL:
            return "not optimal", None
        report = evaluate(model, sc, error_type=error_type)
        if report is None or report.passed:
            return "not irrational", None
    elif status is not LPStatus.INFEASIBLE:
        return "still feasible", None
    fixed = model.copy()
    apply_edits(fixed, gt_edits)
    if fixed.solve().status is not LPStatus.OPTIMAL:
        return "fix not optimal", None
    report = evaluate(fixed, sc, error_type=error_type)
    if report is None or not report.passed:
        return "fix fails oracle", None
    if error_type is not ErrorType.ME5 and len(gt_actions) > 1:
        # the environment ends Phase I at the first OPTIMAL model: the replayed fix must not get there early
        partial = model.copy()
        for action in gt_actions[:-1]:
            apply_action(partial, action, protected=True, extended=True)
            if partial.solve().status is LPStatus.OPTIMAL:
                return "fix feasible before its last action", None
    if error_type is not ErrorType.ME5:
        iis = stored_iis(model)
        if iis.empty:
            return "empty IIS", None
    return None, iis


def _screen(sc: SupplyChain, base: LPModel) -> dict[ErrorType, bool]:
    """Which error types' applicable checks the (untightened) optimal plan passes: a cheap pre-screen.

    The ground-truth fix restores the tightened model, whose optimum is this plan, so a type whose checks
    fail here would be discarded at step 4 anyway; kept problems are still verified in full.
    """
    report = evaluate(base, sc, error_type=None)
    ok = {r.check for r in report.results if r.passed} if report else set()
    return {e: APPLICABILITY[e] <= ok for e in ErrorType}


def generate(
    seed: int = DEFAULT_SEED,
    counts: dict[ErrorType, tuple[int, int]] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    max_sources: int = MAX_SOURCES,
    mix: Mix = Mix.SINGLE,
) -> tuple[list[Problem], GenerationStats]:
    """Generate the data set deterministically; `counts` maps type -> (train, test) (Table 12 by default).

    `mix` says how many error types a source instance may carry (module docstring).
    """
    counts = dict(SPLIT_COUNTS if counts is None else counts)
    need = {"train": {e: c[0] for e, c in counts.items()}, "test": {e: c[1] for e, c in counts.items()}}
    totals = {s: sum(v.values()) for s, v in need.items()}
    goal = sum(totals.values())
    stats = GenerationStats()
    problems: list[Problem] = []
    order = list(ErrorType)
    start = time.perf_counter()
    i = -1
    while any(v > 0 for s in need.values() for v in s.values()):
        i += 1
        if i >= max_sources:
            raise SpecError("seed", f"could not fill the data set from {max_sources} source instances")
        rng = np.random.default_rng([seed, i])
        sc = sample_supply_chain(rng)
        stats.sources += 1
        base = build_supply_chain(sc)
        result = base.solve()
        if (
            result.status is not LPStatus.OPTIMAL
            or (result.objective or 0.0) < MIN_OBJECTIVE
            or len(base.active_rows()) < MIN_ACTIVE
        ):
            stats.sources_rejected += 1
            continue
        left = {s: sum(need[s].values()) / totals[s] if totals[s] else 0.0 for s in need}
        split = "test" if left["test"] > left["train"] else "train"
        tightening = calibrate(sc, base)
        screen = _screen(sc, base)
        rotated = order[i % len(order) :] + order[: i % len(order)]
        per_source = 1 if mix is Mix.SINGLE else TYPES_PER_SOURCE
        wanted = [e for e in rotated if need[split].get(e, 0) > 0][:per_source]
        tightened = None
        for e in wanted:
            stats.attempts[e.value] = stats.attempts.get(e.value, 0) + 1
            if not screen[e] and e is not ErrorType.ME5:
                stats.discard(e, "fix fails oracle (base plan)")
                continue
            try:
                sab = inject(e, sc, tightening, rng)
            except SpecError:
                stats.discard(e, "does not apply")
                continue
            if tightened is None:
                tightened = build_tightened(sc, tightening)
            reason, iis = verify(tightened, sc, sab.edits, sab.gt_edits, e, sab.gt_actions)
            if reason is not None:
                stats.discard(e, reason)
                continue
            need[split][e] -= 1
            stats.kept[e.value] = stats.kept.get(e.value, 0) + 1
            problems.append(
                Problem(
                    id=f"sc-{split}-{e.value.lower()}-{i:05d}",
                    split=split,
                    error_type=e,
                    source=i,
                    supply_chain=sc,
                    tightening=tightening,
                    edits=sab.edits,
                    gt_edits=sab.gt_edits,
                    gt_actions=sab.gt_actions,
                    gt_in_agent_grammar=sab.gt_in_agent_grammar,
                    description=describe(sc, tightening),
                    iis0=tuple(m.label() for m in (iis.rows + iis.bounds)) if iis else (),
                    details={**sab.details, "iis0_method": "highs getIis" if iis else None, "mix": mix.value},
                )
            )
            if progress is not None:
                progress(len(problems), goal)
    stats.seconds = time.perf_counter() - start
    problems.sort(key=lambda p: (p.split, list(ErrorType).index(p.error_type), p.source))
    return problems, stats


def save(problems: list[Problem], path: str | Path, stats: GenerationStats | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"problems": [p.to_dict() for p in problems], "stats": stats.to_dict() if stats else None}
    path.write_text(json.dumps(payload))
    return path


def load(path: str | Path) -> list[Problem]:
    """Read a data set written by `save`; SpecError("dataset", ...) naming the file and the problem at fault.

    The file is read with a size cap before parsing; NaN, infinities, binary data, a top level that is not
    `{"problems": [...]}`, a malformed problem record and a repeated problem id are refused.
    """
    path = Path(path)
    if not path.exists():
        raise SpecError(
            "dataset", f"no data set at {path}; run `python -m core.cli repair generate` first"
        )
    text = read_text(path, field="dataset", name=str(path), max_bytes=MAX_DATASET_BYTES)
    data = load_json(text, field="dataset", where=f"{path} is not a data set file")
    if not isinstance(data, dict) or not isinstance(data.get("problems"), list):
        raise SpecError("dataset", f'{path} is not a data set file: expected {{"problems": [...]}}')
    if not data["problems"]:
        raise SpecError("dataset", f"{path} holds no problems")
    problems: list[Problem] = []
    seen: set[str] = set()
    for number, record in enumerate(data["problems"], start=1):
        where = f"{path} problem {number}"
        problem = parse_record(
            record,
            Problem.from_dict,
            field="dataset",
            where=where,
            not_object="a problem must be a JSON object",
            what="problem record",
        )
        if problem.id in seen:
            raise SpecError("dataset", f"{where}: problem id {problem.id!r} appears twice")
        seen.add(problem.id)
        problems.append(problem)
    return problems


def title(e: ErrorType) -> str:
    return TITLES[e]


def _floats(line: str) -> tuple[float, ...]:
    tail = line.split(":", 1)[1]
    return tuple(float(v) for v in tail.replace(",", " ").split())


def parse_description(text: str) -> tuple[SupplyChain, Tightening]:
    """The inverse of `describe`: the parameters an agent can read off the problem statement."""
    fields: dict[str, object] = {}
    caps: list[tuple[float, ...]] = []
    supply = None
    pattern = "stationary"
    try:
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("- Holding cost"):
                fields["holding"] = _floats(line)
            elif line.startswith("- Backorder cost"):
                fields["backorder"] = _floats(line)
            elif line.startswith("- Order capacity per period"):
                fields["capacity"] = _floats(line)
            elif line.startswith("- Order capacity: none"):
                fields["capacity"] = None
            elif line.startswith("- Lead times"):
                fields["lead_time"] = tuple(int(v) for v in _floats(line))
            elif line.startswith("- Initial on-hand"):
                fields["initial_inventory"] = _floats(line)
            elif line.startswith("- Customer demand"):
                fields["demand"] = _floats(line)
                if "(" in line:
                    pattern = line.split("(", 1)[1].split(")", 1)[0]
            elif line.startswith("echelon ") and ":" in line:
                caps.append(_floats(line))
            elif line.startswith("- Factory supply per period at most"):
                supply = float(line.rsplit(" ", 1)[1])
        sc = SupplyChain.from_dict({**fields, "pattern": pattern})
    except (ValueError, IndexError) as err:
        raise SpecError("description", f"could not read the problem parameters: {err}") from err
    return sc, Tightening(tuple(caps), supply)
