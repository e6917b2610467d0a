"""Decision-agent utilities of seed 003 §4.3 and their solution-centric generator (Appendix 10.2).

    U_d(s) = w1 f1(s) + w2 f2(s) + w3 f3(s),   w on the simplex
    f1: the agent's school starts at its preferred slot (1), the middle slot (0.5) or the other end (0)
    f2: peak load l(s) <= L   (hundreds of students, as `student_load_balancing`)
    f3: mean |start - current| <= R   (minutes, as `schedule_deviation`)

With three start times and ten schools |S| = 3^10 = 59,049, so every quantity here is exact: the
whole decision space is enumerated once as numpy arrays (`Space`) and U* is a vectorised max.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

import numpy as np

from core.errors import SpecError
from solvers.records import read_fields
from solvers.schedule.data import District, sfusd_district

ROLES = ("principal", "parent", "administrator", "transportation coordinator")
TOL = 1e-9


class Direction(StrEnum):
    """Which end of the day the agent wants its school to start at."""

    EARLIER = "earlier"
    LATER = "later"


@dataclass(frozen=True)
class Space:
    """Every schedule of a district: slot index per school, peak load (hundreds) and mean deviation (min)."""

    district: District
    assignments: np.ndarray  # (n_schedules, n_schools) int8
    load: np.ndarray  # (n_schedules,) float
    deviation: np.ndarray  # (n_schedules,) float

    def index_of(self, assignment: tuple[int, ...]) -> int:
        """Row of a schedule (base-k number, school 0 most significant)."""
        k = len(self.district.start_times)
        if len(assignment) != self.assignments.shape[1] or any(not 0 <= a < k for a in assignment):
            raise SpecError("assignment", f"need {self.assignments.shape[1]} slot indices in 0..{k - 1}")
        index = 0
        for a in assignment:
            index = index * k + int(a)
        return index


def enumerate_space(district: District, limit: int = 2_000_000) -> Space:
    """All k^n schedules of the district as arrays (refuses spaces above `limit` schedules)."""
    n, k = len(district.schools), len(district.start_times)
    if k**n > limit:
        raise SpecError("district", f"{k}^{n} schedules is too many to enumerate (limit {limit})")
    grids = np.indices((k,) * n, dtype=np.int8).reshape(n, -1).T
    enrollment = np.array([s.enrollment for s in district.schools], dtype=float)
    current = np.array([s.current_start for s in district.schools], dtype=float)
    starts = np.array(district.start_times, dtype=float)
    loads = np.stack([(grids == t) @ enrollment for t in range(k)], axis=1)
    load = loads.max(axis=1) / 100.0
    deviation = np.abs(starts[grids] - current).mean(axis=1)
    return Space(district, np.ascontiguousarray(grids), load, deviation)


@lru_cache(maxsize=2)
def sfusd_space() -> Space:
    """The enumerated SFUSD space (cached: 59,049 schedules)."""
    return enumerate_space(sfusd_district())


def slot_values(direction: Direction, slots: int) -> tuple[float, ...]:
    """f1 per slot: 1 at the preferred end, falling linearly to 0 (0, 0.5, 1 for three slots)."""
    ramp = [1.0 - i / (slots - 1) for i in range(slots)] if slots > 1 else [1.0]
    return tuple(ramp if direction is Direction.EARLIER else ramp[::-1])


@dataclass(frozen=True)
class Utility:
    """One decision agent's hidden utility plus its generator provenance (target schedule, U*)."""

    key: str
    school: str
    direction: Direction
    w1: float
    w2: float
    w3: float
    max_load: float  # L, hundreds of students
    max_deviation: float  # R, minutes
    role: str = "parent"
    target: tuple[int, ...] = ()
    u_star: float = 0.0

    def __post_init__(self) -> None:
        for name in ("w1", "w2", "w3"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise SpecError(name, f"weight must be a finite number >= 0, got {value}")
        if abs(self.w1 + self.w2 + self.w3 - 1.0) > 1e-6:
            raise SpecError("w1", "weights w1 + w2 + w3 must sum to 1")
        for name in ("max_load", "max_deviation"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise SpecError(name, f"threshold must be a finite number >= 0, got {value}")
        if self.role not in ROLES:
            raise SpecError("role", f"unknown role {self.role!r}; use one of {', '.join(ROLES)}")
        if not isinstance(self.direction, Direction):
            object.__setattr__(self, "direction", Direction(self.direction))

    @property
    def weights(self) -> tuple[float, float, float]:
        return (self.w1, self.w2, self.w3)

    def features(self, space: Space, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """(f1, f2, f3) for the chosen rows of the space, shape (n, 3)."""
        q = space.district.school_index(self.school)
        values = np.array(slot_values(self.direction, len(space.district.start_times)))
        f1 = values[space.assignments[rows, q]]
        f2 = (space.load[rows] <= self.max_load + TOL).astype(float)
        f3 = (space.deviation[rows] <= self.max_deviation + TOL).astype(float)
        return np.stack([f1, f2, f3], axis=1)

    def values(self, space: Space) -> np.ndarray:
        """U_d of every schedule in the space."""
        return self.features(space) @ np.array(self.weights)

    def value(self, district: District, assignment: tuple[int, ...]) -> float:
        """U_d of one schedule (slot index per school)."""
        return float(sum(w * f for w, f in zip(self.weights, self.items(district, assignment), strict=True)))

    def items(self, district: District, assignment: tuple[int, ...]) -> tuple[float, float, float]:
        """(f1, f2, f3) of one schedule."""
        from solvers.schedule.model import evaluate

        load, deviation = evaluate(district, assignment)
        q = district.school_index(self.school)
        f1 = slot_values(self.direction, len(district.start_times))[assignment[q]]
        return (f1, float(load <= self.max_load + TOL), float(deviation <= self.max_deviation + TOL))

    def optimum(self, space: Space) -> tuple[float, int]:
        """(U*, number of schedules attaining it) by exhaustive enumeration."""
        values = self.values(space)
        best = float(values.max())
        return best, int((values >= best - TOL).sum())

    def to_json(self) -> dict:
        return {
            "key": self.key,
            "school": self.school,
            "direction": self.direction.value,
            "w1": self.w1,
            "w2": self.w2,
            "w3": self.w3,
            "max_load": self.max_load,
            "max_deviation": self.max_deviation,
            "role": self.role,
            "target": list(self.target),
            "u_star": self.u_star,
        }

    @classmethod
    def from_json(cls, data: dict) -> Utility:
        """The record `to_json` wrote; a missing or unreadable field is a `SpecError` naming it."""
        return read_fields(cls, data, "utility record")


def pareto_rows(space: Space, mask: np.ndarray) -> np.ndarray:
    """Rows of the (load, deviation) Pareto frontier among the masked schedules, one per distinct point."""
    rows = np.flatnonzero(mask)
    order = np.lexsort((space.deviation[rows], space.load[rows]))
    keep, best = [], math.inf
    for r in rows[order]:
        if space.deviation[r] < best - TOL:
            keep.append(r)
            best = space.deviation[r]
    return np.array(keep, dtype=int)


def conditional_frontiers(space: Space, school: int) -> np.ndarray:
    """Distinct schedules on the frontiers with `school` fixed to each start (Appendix 10.2 candidates)."""
    rows = [
        pareto_rows(space, space.assignments[:, school] == t) for t in range(len(space.district.start_times))
    ]
    return np.unique(np.concatenate(rows))


@dataclass(frozen=True)
class GeneratorSpec:
    """Knobs of the generator: seed, simplex samples per (L, R) cell, grid steps and sizes, and the tie rule:
    by default the target must be the only maximiser among its school's candidates (other schedules of S
    with the target's outcome tie with it); `unique=True` is the paper's strict reading (App. 10.2:
    "uniquely utility-maximizing"): no other schedule of S may reach U*."""

    seed: int = 3
    samples: int = 10_000
    load_step: float = 0.1  # hundreds of students (10 students)
    deviation_step: float = 0.5  # minutes
    load_cells: int = 8
    deviation_cells: int = 8
    unique: bool = False  # the paper's strict rule: the target is the only maximiser over all of S

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise SpecError("samples", "need at least one simplex sample per cell")
        for name in ("load_step", "deviation_step"):
            if not getattr(self, name) > 0:
                raise SpecError(name, "grid step must be positive")
        for name in ("load_cells", "deviation_cells"):
            if getattr(self, name) < 1:
                raise SpecError(name, "need at least one grid cell")


def _grid(start: float, step: float, cells: int) -> list[float]:
    """Round thresholds from the first grid value at or above `start` upwards (conservative first)."""
    first = math.ceil(start / step - 1e-9) * step
    return [round(first + i * step, 6) for i in range(cells)]


def generate_utilities(space: Space, spec: GeneratorSpec = GeneratorSpec()) -> list[Utility]:
    """The solution-centric generator: for each school and each candidate on its conditional frontiers,
    draw a direction, grid-search (L, R) from conservative values and sample the simplex until the
    candidate is the unique maximiser among the school's candidates and attains U* over all of S.
    Candidates with no such parameters are dropped. Deterministic under `spec.seed`. Keys are u001, … (p001, …
    under the strict rule `spec.unique`, so the two sets never share a key).
    """
    rng = np.random.default_rng(spec.seed)
    district = space.district
    utilities: list[Utility] = []
    for q, school in enumerate(district.schools):
        candidates = conditional_frontiers(space, q)
        for row in candidates:
            direction = Direction.EARLIER if rng.random() < 0.5 else Direction.LATER
            role = ROLES[int(rng.integers(len(ROLES)))]
            found = _search(space, q, direction, int(row), candidates, spec, rng)
            if found is None:
                continue
            (w1, w2, w3), load_cap, dev_cap = found
            target = tuple(int(a) for a in space.assignments[row])
            probe = Utility("probe", school.name, direction, w1, w2, w3, load_cap, dev_cap, role, target)
            utilities.append(_with_optimum(probe, f"{'p' if spec.unique else 'u'}{len(utilities) + 1:03d}", space))
    return utilities


def _with_optimum(probe: Utility, key: str, space: Space) -> Utility:
    """The probe under its key, with its optimum U* over the space (rounded to 6 decimals) recorded."""
    u_star, _ = probe.optimum(space)
    return replace(probe, key=key, u_star=round(u_star, 6))


def _search(
    space: Space,
    q: int,
    direction: Direction,
    row: int,
    candidates: np.ndarray,
    spec: GeneratorSpec,
    rng: np.random.Generator,
) -> tuple[tuple[float, float, float], float, float] | None:
    """First (w, L, R) on the grid (diagonal order) making `row` the unique maximiser, or None."""
    k = len(space.district.start_times)
    values = np.array(slot_values(direction, k))
    slot = space.assignments[:, q].astype(int)
    loads = _grid(float(space.load[row]), spec.load_step, spec.load_cells)
    devs = _grid(float(space.deviation[row]), spec.deviation_step, spec.deviation_cells)
    cells = sorted(
        ((i, j) for i in range(len(loads)) for j in range(len(devs))), key=lambda c: (c[0] + c[1], c[0])
    )
    for i, j in cells:
        load_cap, dev_cap = loads[i], devs[j]
        f2 = space.load <= load_cap + TOL
        f3 = space.deviation <= dev_cap + TOL
        codes = slot * 4 + f2 * 2 + f3  # outcome (f1 slot, f2, f3) as one small integer
        if (codes[candidates] == codes[row]).sum() > 1:
            continue  # another candidate has the same outcome: the target cannot be the unique maximiser
        if spec.unique and (codes == codes[row]).sum() > 1:
            continue  # strict rule: another schedule of S has the target's outcome, hence ties at U*
        present = np.flatnonzero(np.bincount(codes, minlength=4 * k))
        outcomes = np.stack([values[present // 4], (present // 2) % 2, present % 2], axis=1).astype(float)
        target = np.array([values[slot[row]], float(f2[row]), float(f3[row])])
        others = outcomes[present != codes[row]]
        diff = target - others  # the target must beat every other reachable outcome strictly
        if np.any(np.all(diff <= TOL, axis=1)):
            continue  # some outcome weakly dominates the target: no weights can help
        weights = rng.dirichlet(np.ones(3), size=spec.samples)
        ok = np.flatnonzero(np.all(weights @ diff.T > 1e-6, axis=1))
        if ok.size:
            w = np.round(weights[ok[0]], 3)
            w[2] = round(1.0 - w[0] - w[1], 3)
            if np.all(w >= 0) and np.all(w @ diff.T > 1e-9):
                return (float(w[0]), float(w[1]), float(w[2])), load_cap, dev_cap
    return None


def unique_maximiser(space: Space, utility: Utility, *, strict: bool = False) -> bool:
    """The generator's check: the utility's target attains U* (over all of S) and no other candidate of its
    school's conditional frontiers does. Other schedules of S may then tie at U* (the shipped set's rule; the
    paper asks for more: "uniquely utility-maximizing"); `strict=True` checks the paper's rule, that no other
    schedule of S reaches U*."""
    if not utility.target:
        return False
    q = space.district.school_index(utility.school)
    values = utility.values(space)
    best = float(values.max())
    row = space.index_of(utility.target)
    if values[row] < best - TOL:
        return False
    if strict:
        return int((values >= best - TOL).sum()) == 1
    others = [int(r) for r in conditional_frontiers(space, q) if int(r) != row]
    return bool(np.all(values[others] < best - TOL)) if others else True


def generate_utility(
    space: Space,
    *,
    school: str,
    seed: int,
    target: tuple[int, ...] | None = None,
    direction: Direction | None = None,
    spec: GeneratorSpec = GeneratorSpec(),
) -> Utility:
    """One new utility for `school` by the Appendix 10.2 procedure, deterministic under `seed`.

    The target is `target` (it must lie on the school's conditional frontiers; the drawn direction is tried,
    then the other) or the first candidate, in a seeded random order, for which the grid search finds
    parameters. The result passes `unique_maximiser`.
    """
    q = space.district.school_index(school)
    name = space.district.schools[q].name
    candidates = conditional_frontiers(space, q)
    rng = np.random.default_rng(seed)
    if target is not None:
        row = space.index_of(tuple(target))
        if row not in set(int(r) for r in candidates):
            raise SpecError("target", f"this schedule is not on {name}'s conditional Pareto frontiers")
        order = [row]
    else:
        order = [int(r) for r in rng.permutation(candidates)]
    attempts = []
    for row in order:
        drawn = direction or (Direction.EARLIER if rng.random() < 0.5 else Direction.LATER)
        role = ROLES[int(rng.integers(len(ROLES)))]
        attempts.append((row, drawn, role))
        if target is not None and direction is None:  # a chosen target: the other direction too
            other = Direction.LATER if drawn is Direction.EARLIER else Direction.EARLIER
            attempts.append((row, other, role))
    for row, chosen, role in attempts:
        found = _search(space, q, chosen, row, candidates, spec, rng)
        if found is None:
            continue
        (w1, w2, w3), load_cap, dev_cap = found
        assignment = tuple(int(a) for a in space.assignments[row])
        probe = Utility("g", name, chosen, w1, w2, w3, load_cap, dev_cap, role, assignment)
        utility = _with_optimum(probe, f"g{q + 1:02d}s{seed}", space)
        if unique_maximiser(space, utility):
            return utility
    what = "this target" if target is not None else f"any of {name}'s {len(candidates)} candidates"
    raise SpecError(
        "target" if target is not None else "seed", f"no parameters make {what} the unique maximiser"
    )
