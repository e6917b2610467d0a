"""The Optimization Agent of seed 000 (§2.3): search, train, compare by L(π), write `deployment_artifacts/`.

1. (s,S) grid over every feasible pair on common paths, top candidates re-evaluated on fresh paths
   (plus the same search with the end-of-horizon cutoff, capped base-stock and constant order).
2. The exact DP when the state space is small enough (beyond the paper).
3. DQN training (optional).
4. Every finalist is evaluated on one fresh set of common paths; the recommendation minimises
   `L(π) = E[Cost] + exp(-λ)·Std[Cost]` with λ = risk tolerance. The DP policy has the least expected cost,
   so it wins unless the risk preference favours a steadier policy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import SolverError
from solvers.inventory.artifacts import write_artifacts
from solvers.inventory.dp import DPResult, solve_dp
from solvers.inventory.dqn import DQNConfig, DQNResult, check_dqn_size, train_dqn
from solvers.inventory.montecarlo import PolicyEvaluation, Progress, check_simulation_size, evaluate_policies
from solvers.inventory.search import SearchResult, search_policies
from solvers.inventory.spec import InventoryProblem

FAMILIES = (
    ("sS", "sS", False),
    ("sS_cutoff", "sS", True),
    ("base_stock", "base_stock", False),
    ("base_stock_cutoff", "base_stock", True),
    ("constant", "constant", False),
)


@dataclass(frozen=True, eq=False)
class OptimizationResult:
    """Everything the agent found; `evaluations` are the finalists on common final paths."""

    problem: InventoryProblem
    recommended: str
    recommended_policy: str
    objective: float
    s: int
    S: int
    evaluations: dict[str, PolicyEvaluation] = field(repr=False)
    searches: dict[str, SearchResult] = field(repr=False)
    dp: DPResult | None = field(repr=False)
    dp_refusal: str | None
    dqn: DQNResult | None = field(repr=False)
    paths: int
    seed: int
    seconds: float
    artifacts_dir: Path | None

    def summary(self) -> dict[str, object]:
        """The CLI's JSON object."""
        ev = self.evaluations
        dqn = ev.get("dqn")
        return {
            "recommended": self.recommended,
            "recommended_policy": self.recommended_policy,
            "s": self.s,
            "S": self.S,
            "ss_mean": ev["sS"].mean,
            "ss_std": ev["sS"].std,
            "dqn_mean": dqn.mean if dqn else None,
            "dqn_std": dqn.std if dqn else None,
            "dp_mean": self.dp.optimal_cost if self.dp else None,
            "objective": self.objective,
            "risk_tolerance": self.problem.risk_tolerance,
            "policies": {k: v.summary() for k, v in ev.items()},
            "artifacts": str(self.artifacts_dir) if self.artifacts_dir else None,
            "seconds": self.seconds,
        }


SEARCH_CANDIDATES = 400
"""Families with more rules are searched coarse to fine (a strided grid, then around its best): keeps the
Copilot's final turn within seconds on large instances (bench/copilot_final_turn.py)."""
EVAL_SEED_OFFSET = 2_000_003
"""The finalists are compared on `demand_matrix(problem, n_final, seed + EVAL_SEED_OFFSET)`: fresh paths, and
the ones a hand-off to the Policy Simulator reuses to reproduce the numbers."""


def optimize(
    problem: InventoryProblem,
    paths: int = 1000,
    seed: int = 0,
    use_dqn: bool = True,
    progress: Progress | None = None,
    *,
    out_dir: str | Path | None = None,
    dqn_config: DQNConfig | None = None,
    use_dp: bool = True,
    final_paths: int | None = None,
    max_candidates: int | None = SEARCH_CANDIDATES,
) -> OptimizationResult:
    """Run the Optimization Agent; writes `deployment_artifacts/` into `out_dir` when given. A family with
    more than `max_candidates` rules is searched coarse to fine (None: every rule)."""
    start = time.perf_counter()
    n_final = final_paths or max(paths, 2000)
    check_simulation_size(problem, n_final)
    if use_dqn:
        check_dqn_size(problem, dqn_config or DQNConfig())

    def report(lo: float, hi: float):
        return (lambda f, msg: progress(lo + (hi - lo) * f, msg)) if progress else None

    share = 0.5 if use_dqn else 0.9
    searches: dict[str, SearchResult] = {}
    for i, (key, family, cutoff) in enumerate(FAMILIES):
        lo = share * i / len(FAMILIES)
        searches[key] = search_policies(
            problem,
            family,
            paths,
            seed,
            cutoff=cutoff,
            progress=report(lo, lo + share / len(FAMILIES)),
            max_candidates=max_candidates,
            reeval_paths=None if max_candidates is None else paths,
        )
    finalists = {key: res.best_policy for key, res in searches.items()}
    dp, refusal = None, None
    if use_dp:
        try:
            dp = solve_dp(problem)
            finalists["dp"] = dp.policy
        except SolverError as err:
            refusal = str(err)
    dqn = None
    if use_dqn:
        dqn = train_dqn(problem, dqn_config, seed, progress=report(share, 0.95))
        finalists["dqn"] = dqn.policy
    if progress:
        progress(0.96, "comparing the finalists on fresh common paths")
    evals = evaluate_policies(problem, list(finalists.values()), n_final, seed + EVAL_SEED_OFFSET)
    evaluations = dict(zip(finalists, evals, strict=True))
    lam = problem.risk_tolerance
    recommended = min(evaluations, key=lambda k: evaluations[k].objective(lam))
    best_ss = searches["sS"].best_policy
    out = None
    if out_dir is not None:
        out = write_artifacts(
            out_dir,
            problem,
            list(evaluations.items()),
            (best_ss.s, best_ss.S),
            recommended,
            dqn.policy if dqn else None,
            dqn.hidden if dqn else None,
            {
                "recommended_policy": evaluations[recommended].policy,
                "dp_optimal_cost": dp.optimal_cost if dp else None,
            },
        )
    if progress:
        progress(1.0, f"recommended {evaluations[recommended].policy}")
    return OptimizationResult(
        problem=problem,
        recommended=recommended,
        recommended_policy=evaluations[recommended].policy,
        objective=evaluations[recommended].objective(lam),
        s=best_ss.s,
        S=best_ss.S,
        evaluations=evaluations,
        searches=searches,
        dp=dp,
        dp_refusal=refusal,
        dqn=dqn,
        paths=paths,
        seed=seed,
        seconds=time.perf_counter() - start,
        artifacts_dir=out,
    )
