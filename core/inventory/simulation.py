"""The Policy Simulator's facade over `solvers.inventory`: build a problem, compare policies, save the run.

The page calls only this module (and `charts.py`): it turns form values, an uploaded `extracted_params.csv`,
a daily demand history or a stored Inventory Copilot run into an `InventoryProblem`; `run_simulation`
evaluates the chosen policies on common random numbers (optionally with the (s,S) grid, the exact DP and a
DQN), records the run in the store and packs the downloads. Results are frozen dataclasses and DataFrames.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import re
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from core.errors import SolverError, SpecError
from core.store import Store
from solvers.inventory.artifacts import write_artifacts
from solvers.inventory.demand import demand_from_history
from solvers.inventory.dp import solve_dp
from solvers.inventory.dqn import DQNConfig, DQNPolicy, train_dqn
from solvers.inventory.montecarlo import (
    Policy,
    PolicyEvaluation,
    Trajectory,
    demand_matrix,
    evaluate_policies,
)
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.search import SearchResult, search_policies
from solvers.inventory.spec import (
    OPTIONAL_KEYS,
    PARAMETER_KEYS,
    InventoryProblem,
    params_csv_text,
    parse_demand,
    problem_from_table,
    read_params_csv,
    table_from_problem,
)

WORKBENCH = "policy_simulator"
COPILOT_WORKBENCH = "inventory_copilot"
PARAMS_ARTIFACT = "extracted_params.csv"
RESULTS_ARTIFACT = "policy_comparison.csv"
ZIP_ARTIFACT = "deployment_artifacts.zip"
FORM_KEYS: tuple[str, ...] = (
    *(k for k in PARAMETER_KEYS if k != "demand_type"),  # the demand type follows from the distribution
    *OPTIONAL_KEYS,
)
PAPER_INSTANCE: dict[str, object] = {
    "time_horizon": 30,
    "demand_distribution": "poisson(8)",
    "perishability": False,
    "state_transition_model": "lost_sale",
    "holding_cost": 0.5,
    "penalty_cost": 2.83,
    "setup_cost": 3.0,
    "lead_time": 1,
    "max_inventory": 40,
    "max_order": 20,
    "risk_tolerance": 0.0,
    "initial_inventory": 0,
}
POLICY_KINDS: dict[str, tuple[str, ...]] = {
    "sS": ("s", "S"),
    "base_stock": ("S", "cap"),
    "constant": ("q",),
    "rQ": ("R", "Q"),
}
POLICY_LABELS: dict[str, str] = {
    "sS": "(s,S)",
    "base_stock": "Capped base-stock",
    "constant": "Constant order",
    "rQ": "(R,Q)",
}
MODEL_CONVENTIONS = """\
- **Periods** t = 1..T; the state is the on-hand stock I and the pipeline x1..xL (x1 arrives this period).
- **Order of events** each period: observe → receive x1 → place the order q (it arrives L periods later;
  with L = 0 it arrives before this period's demand) → demand D → cost
  `K·1{q>0} + h·(I + x1 − D)⁺ + b·(D − I − x1)⁺`.
- **Truncation**: q ≤ max order, and the inventory position after ordering (on-hand + pipeline + q) never
  exceeds the max inventory; larger requests are cut down, never refused.
- **(s,S)** orders S − IP when the inventory position IP is *strictly below* s; (R,Q) orders Q when IP < R;
  capped base-stock orders min(S − IP, cap); the end-of-horizon cutoff places no order that cannot arrive by T.
- **Unmet demand** is lost (lost sales) or carried as negative stock (backlog); with **perishable** items the
  stock left at the end of a period is discarded.
- **Start** with an empty pipeline and the initial inventory (0 by default). **No terminal cost.**
- Policies are compared on the same demand paths (common random numbers); the recommendation minimises
  `L(π) = E[Cost] + exp(−λ)·Std[Cost]` with λ the risk tolerance.
"""

Progress = Callable[[float, str], None]


def problem_from_form(values: Mapping[str, object]) -> InventoryProblem:
    """A problem from the form's values (keys `FORM_KEYS`); the demand type follows from the distribution."""
    table = {k: values.get(k) for k in FORM_KEYS if k != "initial_inventory"}
    dist = parse_demand(str(values.get("demand_distribution", "")))
    table["demand_type"] = "deterministic" if dist.kind == "deterministic" else "random"
    table["demand_distribution"] = dist.canonical()
    initial = values.get("initial_inventory")
    if initial not in (None, "", 0):
        table["initial_inventory"] = initial
    return problem_from_table(table)


def form_values(problem: InventoryProblem) -> dict[str, object]:
    """The form's typed values for a problem (the inverse of `problem_from_form`)."""
    return {
        "time_horizon": problem.time_horizon,
        "demand_distribution": problem.demand.canonical(),
        "perishability": problem.perishable,
        "state_transition_model": "lost_sale" if problem.lost_sales else "backlog",
        "holding_cost": problem.holding_cost,
        "penalty_cost": problem.penalty_cost,
        "setup_cost": problem.setup_cost,
        "lead_time": problem.lead_time,
        "max_inventory": problem.max_inventory,
        "max_order": problem.max_order,
        "risk_tolerance": problem.risk_tolerance,
        "initial_inventory": problem.initial_inventory,
    }


def default_problem() -> InventoryProblem:
    """The paper's instance: Poisson(8), h 0.5, b 2.83, K 3, lost sales, L 1, max inventory 40, max order 20, T 30."""
    return problem_from_form(PAPER_INSTANCE)


@dataclass(frozen=True)
class LoadedProblem:
    """A problem read from a file or a run, with a sentence saying where it came from."""

    problem: InventoryProblem
    source: str


def _decode(data: bytes | str) -> str:
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SpecError("upload", "the file is not UTF-8 text; upload a CSV file") from None
    return data.lstrip("\ufeff")


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def read_demand_history(data: bytes | str) -> list[float]:
    """Daily demands from a CSV with one column (optionally headed), or a column named like demand/sales."""
    rows = [r for r in csv.reader(io.StringIO(_decode(data))) if any(c.strip() for c in r)]
    if not rows:
        raise SpecError("demand_history", "the file is empty; upload one column of daily demand")
    column = 0
    header = not all(_is_number(c.strip()) for c in rows[0] if c.strip())
    if len(rows[0]) > 1:
        names = [c.strip().lower() for c in rows[0]] if header else []
        found = [i for i, n in enumerate(names) if re.search(r"demand|sales|sold|quantity|units", n)]
        if not found:
            raise SpecError(
                "demand_history",
                "the file has several columns; upload one column of daily demand or name it 'demand'",
            )
        column = found[0]
    values: list[float] = []
    for row_no, row in enumerate(rows[1:] if header else rows, start=2 if header else 1):
        cell = row[column].strip() if column < len(row) else ""
        if not _is_number(cell):
            raise SpecError("demand_history", f"row {row_no}: {cell!r} is not a number")
        values.append(float(cell))
    if not values:
        raise SpecError("demand_history", "the file has a header but no daily demands")
    return values


def problem_from_upload(data: bytes | str, current: InventoryProblem) -> LoadedProblem:
    """An `extracted_params.csv` (columns parameter,value,…) or a daily demand history applied to `current`."""
    text = _decode(data)
    first = text.splitlines()[0].lower() if text.strip() else ""
    if "parameter" in first and "value" in first:
        return LoadedProblem(read_params_csv(text), "the uploaded parameter table")
    history = read_demand_history(text)
    demand = demand_from_history(history)
    problem = dataclasses.replace(current, demand=demand)
    return LoadedProblem(
        problem, f"empirical demand from {len(history)} days of history (mean {demand.mean:.2f} per day)"
    )


def copilot_runs(store: Store) -> list[tuple[str, str]]:
    """`(run_id, label)` of the Inventory Copilot runs that saved an `extracted_params.csv`, newest first."""
    runs = store.list_runs(COPILOT_WORKBENCH)
    out = []
    for row in runs.itertuples():
        names = set(store.artifacts(row.id)["name"])
        if PARAMS_ARTIFACT in names:
            out.append(
                (
                    row.id,
                    f"{row.title or 'Inventory Copilot run'} · {row.created_at:%Y-%m-%d %H:%M} · {row.id}",
                )
            )
    return out


def problem_from_copilot_run(store: Store, run_id: str) -> LoadedProblem:
    """The problem saved by an Inventory Copilot run."""
    data = store.get_artifact(run_id, PARAMS_ARTIFACT)
    return LoadedProblem(read_params_csv(data), f"Inventory Copilot run {run_id}")


def suggested_parameters(problem: InventoryProblem) -> dict[str, dict[str, int | None]]:
    """Starting parameters per policy kind: S covers lead-time demand plus one standard deviation, s sits
    half an economic order quantity below S, the constant order is the mean demand."""
    mean = max(problem.demand.mean, 1e-9)
    cover = mean * (problem.lead_time + 1)
    top = problem.max_inventory
    S = min(top, round(cover + math.sqrt(cover)))
    eoq = (
        math.sqrt(2 * problem.setup_cost * mean / problem.holding_cost) if problem.holding_cost > 0 else mean
    )
    s = max(0, min(S, S - round(eoq / 2)))
    Q = max(1, min(problem.max_order, round(eoq) or 1))
    return {
        "sS": {"s": s, "S": S},
        "base_stock": {"S": S, "cap": None},
        "constant": {"q": min(problem.max_order, round(mean))},
        "rQ": {"R": s, "Q": Q},
    }


@dataclass(frozen=True)
class PolicyChoice:
    """One heuristic policy the user picked: a kind of `POLICY_KINDS` with its parameters."""

    kind: str
    params: Mapping[str, int | None]
    cutoff: bool = False

    def build(self) -> Policy:
        """The engine's policy object (SpecError naming the parameter when invalid)."""
        if self.kind not in POLICY_KINDS:
            raise SpecError("policy", f"unknown policy {self.kind!r}; use one of {', '.join(POLICY_KINDS)}")
        p = {k: (None if v is None else _whole(k, v)) for k, v in self.params.items()}
        missing = [k for k in POLICY_KINDS[self.kind] if k != "cap" and p.get(k) is None]
        if missing:
            raise SpecError(missing[0], f"is required for the {POLICY_LABELS[self.kind]} policy")
        if self.kind == "sS":
            return SSPolicy(p["s"], p["S"], self.cutoff)
        if self.kind == "base_stock":
            return BaseStockPolicy(p["S"], p.get("cap"), self.cutoff)
        if self.kind == "constant":
            return ConstantPolicy(p["q"], self.cutoff)
        return RQPolicy(p["R"], p["Q"], self.cutoff)


def _whole(name: str, value: object) -> int:
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise SpecError(name, f"must be a whole number, got {value!r}") from None
    if not math.isfinite(x) or not x.is_integer():
        raise SpecError(name, f"must be a whole number, got {value!r}")
    return int(x)


def default_choices(problem: InventoryProblem) -> list[PolicyChoice]:
    """(s,S) and capped base-stock at their suggested parameters."""
    params = suggested_parameters(problem)
    return [PolicyChoice("sS", params["sS"]), PolicyChoice("base_stock", params["base_stock"])]


@dataclass(frozen=True)
class SimulationOptions:
    """What to run besides the chosen policies, and how many paths."""

    paths: int = 1000
    trajectories: int = 3
    grid: bool = True
    grid_paths: int = 500
    grid_cutoff: bool = False
    dp: bool = True
    dqn: bool = False
    dqn_config: DQNConfig = field(default_factory=DQNConfig)

    def __post_init__(self) -> None:
        for name in ("paths", "grid_paths"):
            if int(getattr(self, name)) < 2:
                raise SpecError(name, "needs at least 2 simulation paths")
        if not 0 <= int(self.trajectories) <= int(self.paths):
            raise SpecError("trajectories", f"must lie between 0 and the number of paths ({self.paths})")


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Every policy evaluated on the same `paths` demand paths, plus what the grid, DP and DQN found."""

    problem: InventoryProblem
    policies: tuple[Policy, ...] = field(repr=False)
    evaluations: tuple[PolicyEvaluation, ...]
    sources: tuple[str, ...]
    grid: SearchResult | None
    dp_cost: float | None
    dp_refusal: str | None
    dqn_curve: tuple[dict[str, float], ...]
    seed: int
    paths: int
    seconds: float
    run_id: str | None = None
    artifacts_zip: bytes | None = field(default=None, repr=False)

    def recommended(self, risk_tolerance: float | None = None) -> PolicyEvaluation:
        """The evaluated policy minimising L(π) for λ (default: the problem's risk tolerance)."""
        lam = self.problem.risk_tolerance if risk_tolerance is None else risk_tolerance
        return min(self.evaluations, key=lambda e: e.objective(lam))

    def table(self, risk_tolerance: float | None = None) -> pd.DataFrame:
        """The comparison table, one row per policy, best L(π) first."""
        lam = self.problem.risk_tolerance if risk_tolerance is None else risk_tolerance
        best = self.recommended(lam).policy
        rows = []
        for ev, source in zip(self.evaluations, self.sources, strict=True):
            gap = None if self.dp_cost is None else 100 * (ev.mean - self.dp_cost) / self.dp_cost
            rows.append(
                {
                    "policy": ev.policy,
                    "source": source,
                    "mean": ev.mean,
                    "std": ev.std,
                    "ci95_low": ev.ci95[0],
                    "ci95_high": ev.ci95[1],
                    "objective": ev.objective(lam),
                    "fill_rate": ev.fill_rate,
                    "gap_to_dp_pct": gap,
                    "stockout_periods": ev.stockout_periods,
                    "avg_on_hand": ev.avg_on_hand,
                    "orders_placed": ev.orders_placed,
                    "setup_cost": ev.setup_cost,
                    "holding_cost": ev.holding_cost,
                    "penalty_cost": ev.penalty_cost,
                    "recommended": ev.policy == best,
                }
            )
        return pd.DataFrame(rows).sort_values("objective", kind="stable").reset_index(drop=True)

    def results_csv(self, risk_tolerance: float | None = None) -> str:
        """The comparison table as CSV text."""
        return self.table(risk_tolerance).to_csv(index=False, float_format="%.6g")

    def candidates(self) -> pd.DataFrame:
        """Mean and std of every candidate: the (s,S) grid pairs (in-sample) and the compared policies."""
        frames = []
        if self.grid is not None:
            s, S = np.nonzero(~np.isnan(self.grid.mean))
            frames.append(
                pd.DataFrame(
                    {
                        "policy": [f"sS({a},{b})" for a, b in zip(s, S, strict=True)],
                        "mean": self.grid.mean[s, S],
                        "std": self.grid.std[s, S],
                        "group": "(s,S) grid",
                    }
                )
            )
        frames.append(
            pd.DataFrame(
                {
                    "policy": [e.policy for e in self.evaluations],
                    "mean": [e.mean for e in self.evaluations],
                    "std": [e.std for e in self.evaluations],
                    "group": "compared",
                }
            )
        )
        return pd.concat(frames, ignore_index=True)

    @property
    def costs(self) -> dict[str, np.ndarray]:
        """Total horizon cost per path, per policy."""
        return {e.policy: e.costs for e in self.evaluations}

    @property
    def trajectories(self) -> dict[str, Trajectory]:
        """Recorded sample paths per policy (all on the same demand)."""
        return {e.policy: e.trajectory for e in self.evaluations if e.trajectory is not None}

    def best_ss_index(self) -> int | None:
        """Index of the best (s,S): the grid's winner, else the chosen (s,S) with the least L(π)."""
        if self.grid is not None:
            return next(i for i, p in enumerate(self.policies) if p.name == self.grid.best_policy.name)
        lam = self.problem.risk_tolerance
        found = [i for i, p in enumerate(self.policies) if isinstance(p, SSPolicy)]
        return min(found, key=lambda i: self.evaluations[i].objective(lam)) if found else None

    @property
    def best_ss(self) -> tuple[int, int] | None:
        """`(s, S)` of the best (s,S) policy, if any was evaluated."""
        i = self.best_ss_index()
        return None if i is None else (self.policies[i].s, self.policies[i].S)


class _Stages:
    """Maps each stage's own 0..1 progress onto its share of the whole run."""

    WEIGHTS = {"grid": 2.0, "dp": 0.5, "dqn": 8.0, "evaluate": 1.0}

    def __init__(self, names: Sequence[str], progress: Progress | None) -> None:
        total = sum(self.WEIGHTS[n] for n in names)
        self.span, acc = {}, 0.0
        for n in names:
            self.span[n] = (acc / total, (acc + self.WEIGHTS[n]) / total)
            acc += self.WEIGHTS[n]
        self.progress = progress

    def report(self, name: str) -> Progress | None:
        if self.progress is None:
            return None
        lo, hi = self.span[name]
        forward = self.progress

        def report(f: float, msg: str) -> None:
            forward(min(1.0, lo + (hi - lo) * max(0.0, min(1.0, f))), msg)

        return report


def _run_config(
    problem: InventoryProblem, choices: Sequence[PolicyChoice], options: SimulationOptions
) -> dict:
    return {
        "parameters": table_from_problem(problem),
        "policies": [{"kind": c.kind, "params": dict(c.params), "cutoff": c.cutoff} for c in choices],
        "options": {
            "paths": options.paths,
            "trajectories": options.trajectories,
            "grid": options.grid,
            "grid_paths": options.grid_paths,
            "grid_cutoff": options.grid_cutoff,
            "dp": options.dp,
            "dqn": options.dqn,
            "dqn_config": dataclasses.asdict(options.dqn_config) if options.dqn else None,
        },
    }


def run_simulation(
    problem: InventoryProblem,
    choices: Sequence[PolicyChoice],
    options: SimulationOptions | None = None,
    seed: int = 0,
    *,
    progress: Progress | None = None,
    store: Store | None = None,
    title: str = "",
) -> SimulationResult:
    """Evaluate the chosen policies (plus grid best, DP optimum and DQN when asked) on common paths.

    With a `store` the run is recorded (config, one step per stage, metrics, the results CSV, the parameter
    table and the artifacts zip); a failure marks the run `failed` and is raised again."""
    options = options or SimulationOptions()
    policies = [c.build() for c in choices]
    if not policies and not (options.grid or options.dp or options.dqn):
        raise SpecError("policies", "choose at least one policy, the (s,S) grid, the DP optimum or DQN")
    run_id = None
    if store is not None:
        label = title or f"{problem.demand.canonical()}, L={problem.lead_time}, T={problem.time_horizon}"
        run_id = store.create_run(WORKBENCH, _run_config(problem, choices, options), seed, label)
    try:
        result = _simulate(problem, choices, policies, options, seed, progress, store, run_id)
    except Exception as err:
        if store is not None and run_id is not None:
            store.update_run(run_id, status="failed", metrics={"error": str(err)})
        raise
    return result


def _step(store: Store | None, run_id: str | None, kind: str, payload: dict, started: float) -> None:
    if store is not None and run_id is not None:
        store.add_step(run_id, kind, payload, latency_ms=1000 * (time.perf_counter() - started))


def _simulate(
    problem: InventoryProblem,
    choices: Sequence[PolicyChoice],
    policies: list[Policy],
    options: SimulationOptions,
    seed: int,
    progress: Progress | None,
    store: Store | None,
    run_id: str | None,
) -> SimulationResult:
    start = time.perf_counter()
    stages = _Stages(
        [n for n, on in (("grid", options.grid), ("dp", options.dp), ("dqn", options.dqn)) if on]
        + ["evaluate"],
        progress,
    )
    sources = ["chosen"] * len(policies)
    grid: SearchResult | None = None
    dp_cost: float | None = None
    dp_refusal: str | None = None
    curve: tuple[dict[str, float], ...] = ()
    dqn_policy: DQNPolicy | None = None
    dqn_hidden: int | None = None
    if options.grid:
        t0 = time.perf_counter()
        grid = search_policies(
            problem,
            "sS",
            options.grid_paths,
            seed + 1,
            cutoff=options.grid_cutoff,
            reeval_paths=max(options.grid_paths, 2),
            progress=stages.report("grid"),
        )
        policies.append(grid.best_policy)
        sources.append("(s,S) grid best")
        _step(store, run_id, "grid", grid.summary(), t0)
    if options.dp:
        t0 = time.perf_counter()
        report = stages.report("dp")
        if report:
            report(0.0, "solving the exact dynamic program")
        try:
            dp = solve_dp(problem)
        except SolverError as err:
            dp_refusal = str(err)
            _step(store, run_id, "dp", {"refused": dp_refusal}, t0)
        else:
            dp_cost = dp.optimal_cost
            policies.append(dp.policy)
            sources.append("DP optimal")
            _step(store, run_id, "dp", dp.summary(), t0)
        if report:
            report(1.0, "dynamic program done" if dp_refusal is None else "DP too large; skipped")
    if options.dqn:
        t0 = time.perf_counter()
        trained = train_dqn(problem, options.dqn_config, seed, progress=stages.report("dqn"))
        curve = trained.curve
        dqn_policy, dqn_hidden = trained.policy, trained.hidden
        policies.append(trained.policy)
        sources.append("DQN")
        _step(
            store,
            run_id,
            "dqn",
            {
                "curve": list(curve),
                "best_validation": trained.best_validation,
                "env_steps": trained.env_steps,
            },
            t0,
        )
    t0 = time.perf_counter()
    policies, sources = _unique(policies, sources)
    demand = demand_matrix(problem, options.paths, seed)
    evaluations = evaluate_policies(
        problem, policies, demand=demand, record=options.trajectories, progress=stages.report("evaluate")
    )
    _step(store, run_id, "evaluate", {"policies": [e.summary() for e in evaluations]}, t0)
    result = SimulationResult(
        problem=problem,
        policies=tuple(policies),
        evaluations=tuple(evaluations),
        sources=tuple(sources),
        grid=grid,
        dp_cost=dp_cost,
        dp_refusal=dp_refusal,
        dqn_curve=curve,
        seed=seed,
        paths=options.paths,
        seconds=time.perf_counter() - start,
        run_id=run_id,
    )
    zipped = artifacts_zip(result, dqn_policy, dqn_hidden)
    result = dataclasses.replace(result, artifacts_zip=zipped, seconds=time.perf_counter() - start)
    if store is not None and run_id is not None:
        _save(store, run_id, result)
    return result


def _unique(policies: Sequence[Policy], sources: Sequence[str]) -> tuple[list[Policy], list[str]]:
    """One entry per policy name (a chosen (s,S) may equal the grid's best); sources are merged."""
    kept: dict[str, int] = {}
    out_p: list[Policy] = []
    out_s: list[str] = []
    for p, src in zip(policies, sources, strict=True):
        if p.name in kept:
            out_s[kept[p.name]] += f", {src}"
            continue
        kept[p.name] = len(out_p)
        out_p.append(p)
        out_s.append(src)
    return out_p, out_s


def _save(store: Store, run_id: str, result: SimulationResult) -> None:
    best = result.recommended()
    metrics = {
        "recommended": best.policy,
        "recommended_mean": best.mean,
        "recommended_std": best.std,
        "objective": best.objective(result.problem.risk_tolerance),
        "dp_optimal_cost": result.dp_cost,
        "dp_refusal": result.dp_refusal,
        "best_ss": list(result.best_ss) if result.best_ss else None,
        "policies": {
            e.policy: {"mean": e.mean, "std": e.std, "fill_rate": e.fill_rate} for e in result.evaluations
        },
        "paths": result.paths,
        "seconds": result.seconds,
    }
    store.add_artifact(run_id, RESULTS_ARTIFACT, data=result.results_csv().encode())
    store.add_artifact(run_id, PARAMS_ARTIFACT, data=params_csv_text(result.problem).encode())
    if result.artifacts_zip is not None:
        store.add_artifact(run_id, ZIP_ARTIFACT, data=result.artifacts_zip)
    store.update_run(run_id, status="done", metrics=metrics)


def artifacts_zip(
    result: SimulationResult, dqn_policy: DQNPolicy | None = None, dqn_hidden: int | None = None
) -> bytes | None:
    """`deployment_artifacts/` (config.json, policy_evaluation_results.csv, dqn_weights.pth when trained) as a
    zip; None when no (s,S) policy was evaluated (the artifacts record the optimal s and S)."""
    ss_index = result.best_ss_index()
    if ss_index is None:
        return None
    lam = result.problem.risk_tolerance
    keyed: list[tuple[str, PolicyEvaluation]] = []
    for i, (ev, source) in enumerate(zip(result.evaluations, result.sources, strict=True)):
        key = {"DP optimal": "dp", "DQN": "dqn"}.get(source, ev.policy)
        keyed.append(("sS" if i == ss_index else key, ev))
    recommended = min(keyed, key=lambda kv: kv[1].objective(lam))[0]
    extra = {
        "recommended_policy": result.recommended().policy,
        "dp_optimal_cost": result.dp_cost,
        "paths": result.paths,
        "seed": result.seed,
    }
    buf = io.BytesIO()
    with tempfile.TemporaryDirectory() as tmp:
        out = write_artifacts(
            Path(tmp) / "deployment_artifacts",
            result.problem,
            keyed,
            result.best_ss,
            recommended,
            dqn_policy,
            dqn_hidden,
            extra,
        )
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(out.iterdir()):
                zf.write(path, f"deployment_artifacts/{path.name}")
    return buf.getvalue()
