"""The Policy Simulator's run: compare policies on common random numbers and record the run in the store.

`run_simulation` evaluates the chosen policies (optionally with the (s,S) grid, the exact DP and a DQN),
reports progress per stage, records the run in the store and packs the downloads. The page builds its inputs
with `simulation_inputs.py` and reads the `SimulationResult` of `simulation_result.py`.
"""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from core.errors import SolverError, SpecError
from core.inventory.simulator.inputs import PARAMS_ARTIFACT, PolicyChoice
from core.inventory.simulator.result import SimulationResult, artifacts_zip
from core.recorder import Recorder, RunStatus
from core.store import Store
from solvers.inventory.dp import DPResult, solve_dp
from solvers.inventory.dqn import DQNConfig, DQNResult, check_dqn_size, train_dqn
from solvers.inventory.montecarlo import (
    Policy,
    PolicyEvaluation,
    check_simulation_size,
    demand_matrix,
    evaluate_policies,
)
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy
from solvers.inventory.search import SearchResult, check_search_size, search_policies
from solvers.inventory.spec import InventoryProblem, params_csv_text, table_from_problem

WORKBENCH = "policy_simulator"
RESULTS_ARTIFACT = "policy_comparison.csv"
ZIP_ARTIFACT = "deployment_artifacts.zip"
MODEL_CONVENTIONS = """\
- **Periods** t = 0..T−1, counted from 0 = the first period (the time step of `order --step` and
  `calculate_dqn_order` counts the same way); the state is the on-hand stock I and the pipeline
  x1..xL (x1 arrives this period).
- **Order of events** each period: observe → receive x1 → place the order q (it arrives L periods later;
  with L = 0 it arrives before this period's demand) → demand D → cost
  `K·1{q>0} + h·(I + x1 − D)⁺ + b·(D − I − x1)⁺`.
- **Truncation**: q ≤ max order, and the inventory position after ordering (on-hand + pipeline + q) never
  exceeds the max inventory; larger requests are cut down, never refused.
- **(s,S)** orders S − IP when the inventory position IP is *strictly below* s; (R,Q) orders Q when IP < R;
  capped base-stock orders min(S − IP, cap); the end-of-horizon cutoff places no order that cannot arrive by
  the last period T − 1 (the DQN never orders then either).
- **Unmet demand** is lost (lost sales) or carried as negative stock (backlog); with **perishable** items the
  stock left at the end of a period is discarded.
- **Start** with an empty pipeline and the initial inventory (0 by default). **No terminal cost.**
- Policies are compared on the same demand paths (common random numbers); the recommendation minimises
  `L(π) = E[Cost] + exp(−λ)·Std[Cost]` with λ the risk tolerance.
"""

Progress = Callable[[float, str], None]


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
    should_stop: Callable[[], bool] | None = None,
    on_start: Callable[[str | None], None] | None = None,
) -> SimulationResult:
    """Evaluate the chosen policies (plus grid best, DP optimum and DQN when asked) on common paths.

    With a `store` the run is recorded (config, one step per stage, metrics, the results CSV, the parameter
    table and the artifacts zip); a failure marks the run `failed` and is raised again. `should_stop` cancels
    DQN training early (the result flags the DQN); `on_start` gets the stored run's id as soon as it exists, so
    a caller whose run is cut short can mark it with `mark_interrupted`."""
    options = options or SimulationOptions()
    policies = [c.build() for c in choices]
    if not policies and not (options.grid or options.dp or options.dqn):
        raise SpecError("policies", "choose at least one policy, the (s,S) grid, the DP optimum or DQN")
    check_simulation_size(problem, options.paths)
    if options.grid:
        check_search_size(problem, "sS", options.grid_paths)
    if options.dqn:
        check_dqn_size(problem, options.dqn_config)
    label = title or f"{problem.demand.canonical()}, L={problem.lead_time}, T={problem.time_horizon}"
    recorder = Recorder(
        store, WORKBENCH, config=_run_config(problem, choices, options), seed=seed, title=label
    )
    recorder.start()
    if on_start is not None:
        on_start(recorder.run_id)
    try:
        result = _simulate(problem, choices, policies, options, seed, progress, recorder, should_stop)
    except Exception as err:
        recorder.finish(RunStatus.FAILED, {"error": str(err)})
        raise
    return result


def _step(recorder: Recorder, kind: str, payload: dict, started: float) -> None:
    recorder.event(kind, payload, latency_ms=1000 * (time.perf_counter() - started))


def _simulate(
    problem: InventoryProblem,
    choices: Sequence[PolicyChoice],
    policies: list[Policy],
    options: SimulationOptions,
    seed: int,
    progress: Progress | None,
    recorder: Recorder,
    should_stop: Callable[[], bool] | None = None,
) -> SimulationResult:
    """Run the asked stages (grid, DP, DQN) and the evaluation, one recorded step each; save the result."""
    start = time.perf_counter()
    stages = _Stages(
        [n for n, on in (("grid", options.grid), ("dp", options.dp), ("dqn", options.dqn)) if on]
        + ["evaluate"],
        progress,
    )
    sources = ["chosen"] * len(policies)
    grid: SearchResult | None = None
    dp: DPResult | None = None
    dp_refusal: str | None = None
    trained: DQNResult | None = None
    if options.grid:
        grid = _grid_stage(problem, options, seed, stages, recorder)
        policies.append(grid.best_policy)
        sources.append("(s,S) grid best")
    if options.dp:
        dp, dp_refusal = _dp_stage(problem, stages, recorder)
        if dp is not None:
            policies.append(dp.policy)
            sources.append("DP optimal")
    if options.dqn:
        trained = _dqn_stage(problem, options, seed, stages, recorder, should_stop)
        policies.append(trained.policy)
        sources.append("DQN")
    t0 = time.perf_counter()
    policies, sources = _unique(policies, sources)
    demand = demand_matrix(problem, options.paths, seed)
    evaluations = evaluate_policies(
        problem, policies, demand=demand, record=options.trajectories, progress=stages.report("evaluate")
    )
    _step(recorder, "evaluate", {"policies": [e.summary() for e in evaluations]}, t0)
    dqn_warning = None
    if trained is not None:
        dqn_ev = next(e for e, src in zip(evaluations, sources, strict=True) if "DQN" in src)
        dqn_warning = dqn_verdict(problem, trained, dqn_ev, demand)
    result = SimulationResult(
        problem=problem,
        policies=tuple(policies),
        evaluations=tuple(evaluations),
        sources=tuple(sources),
        grid=grid,
        dp_cost=None if dp is None else dp.optimal_cost,
        dp_refusal=dp_refusal,
        dqn_curve=() if trained is None else trained.curve,
        seed=seed,
        paths=options.paths,
        seconds=time.perf_counter() - start,
        run_id=recorder.run_id,
        dqn_warning=dqn_warning,
        not_recommended=(evaluations[sources.index(next(s for s in sources if "DQN" in s))].policy,)
        if dqn_warning
        else (),
    )
    dqn_policy, dqn_hidden = (None, None) if trained is None else (trained.policy, trained.hidden)
    zipped = artifacts_zip(result, dqn_policy, dqn_hidden)
    result = dataclasses.replace(result, artifacts_zip=zipped, seconds=time.perf_counter() - start)
    _save(recorder, result)
    return result


def _grid_stage(
    problem: InventoryProblem, options: SimulationOptions, seed: int, stages: _Stages, recorder: Recorder
) -> SearchResult:
    """The (s,S) grid search on its own paths (seed + 1), recorded as the `grid` step."""
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
    _step(recorder, "grid", grid.summary(), t0)
    return grid


def _dp_stage(
    problem: InventoryProblem, stages: _Stages, recorder: Recorder
) -> tuple[DPResult | None, str | None]:
    """The exact DP, recorded as the `dp` step: (its result, None), or (None, why it was refused)."""
    t0 = time.perf_counter()
    report = stages.report("dp")
    if report:
        report(0.0, "solving the exact dynamic program")
    dp: DPResult | None = None
    refusal: str | None = None
    try:
        dp = solve_dp(problem)
    except SolverError as err:
        refusal = str(err)
        _step(recorder, "dp", {"refused": refusal}, t0)
    else:
        _step(recorder, "dp", dp.summary(), t0)
    if report:
        report(1.0, "dynamic program done" if refusal is None else "DP too large; skipped")
    return dp, refusal


def _dqn_stage(
    problem: InventoryProblem,
    options: SimulationOptions,
    seed: int,
    stages: _Stages,
    recorder: Recorder,
    should_stop: Callable[[], bool] | None,
) -> DQNResult:
    """DQN training (cancelled by `should_stop`), recorded as the `dqn` step with its learning curve."""
    t0 = time.perf_counter()
    trained = train_dqn(
        problem, options.dqn_config, seed, progress=stages.report("dqn"), should_stop=should_stop
    )
    _step(
        recorder,
        "dqn",
        {
            "curve": list(trained.curve),
            "best_validation": trained.best_validation,
            "env_steps": trained.env_steps,
            "steps": trained.steps,
            "steps_budget": trained.steps_budget,
            "stopped_by": trained.stopped_by,
        },
        t0,
    )
    return trained


UNDERTRAINED_FRACTION = 0.5
"""A DQN stopped by its time budget before this fraction of its steps is flagged as undertrained."""


def trivial_rules(problem: InventoryProblem) -> list[Policy]:
    """Rules anyone could follow without a model: order the mean demand every day, or top up to the demand
    over the lead time plus one day."""
    mean = max(1, round(problem.demand.mean))
    return [ConstantPolicy(min(mean, problem.max_order)), BaseStockPolicy(mean * (problem.lead_time + 1))]


def dqn_verdict(problem: InventoryProblem, trained: DQNResult, dqn: PolicyEvaluation, demand) -> str | None:
    """Why a trained DQN must not be recommended, in plain words, or None when it may be."""
    problems = []
    if trained.stopped_by == "cancelled":
        problems.append(
            f"its training was cancelled after {trained.steps:,} of {trained.steps_budget:,} steps"
        )
    elif trained.stopped_by == "time" and trained.steps < UNDERTRAINED_FRACTION * trained.steps_budget:
        problems.append(
            f"it stopped on its time budget after only {trained.steps:,} of its {trained.steps_budget:,} steps "
            f"({trained.steps / max(trained.steps_budget, 1):.0%}), so it is undertrained"
        )
    lam = problem.risk_tolerance
    refs = evaluate_policies(problem, trivial_rules(problem), demand=demand)
    best = min(refs, key=lambda e: e.objective(lam))
    if dqn.fill_rate <= 0.0:
        problems.append("it served none of the demand (fill rate 0%)")
    if dqn.objective(lam) > best.objective(lam):
        problems.append(
            f"it does worse than the trivial rule {best.policy} (L(π) {dqn.objective(lam):.2f} against "
            f"{best.objective(lam):.2f} on the same paths)"
        )
    if not problems:
        return None
    return (
        "Do not use this DQN: " + "; ".join(problems) + ". It is shown for reference and never recommended."
    )


def mark_interrupted(store: Store | None, run_id: str | None) -> None:
    """Mark a simulation run that was cut short (its page rerun stopped it) as interrupted."""
    if store is None or run_id is None:
        return
    run = store.get_run(run_id)
    if run["status"] == RunStatus.RUNNING:
        store.update_run(run_id, status=str(RunStatus.INTERRUPTED))


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


def _save(recorder: Recorder, result: SimulationResult) -> None:
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
    with recorder.batch():  # the files, status and lease in one short transaction at the end
        recorder.artifact(RESULTS_ARTIFACT, result.results_csv().encode())
        recorder.artifact(PARAMS_ARTIFACT, params_csv_text(result.problem).encode())
        if result.artifacts_zip is not None:
            recorder.artifact(ZIP_ARTIFACT, result.artifacts_zip)
        recorder.finish(RunStatus.DONE, metrics)


def stored_comparison(store: Store, run_id: str) -> pd.DataFrame | None:
    """The comparison table a stored simulator run saved (None for runs without one)."""
    names = set(store.artifacts(run_id)["name"])
    if RESULTS_ARTIFACT not in names:
        return None
    return pd.read_csv(io.BytesIO(store.get_artifact(run_id, RESULTS_ARTIFACT)))
