"""The result of a Policy Simulator run: the comparison table (and its CSV), the candidates' costs, the best
(s,S) and the `deployment_artifacts/` zip.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from solvers.inventory.artifacts import write_artifacts
from solvers.inventory.dqn import DQNPolicy
from solvers.inventory.montecarlo import Policy, PolicyEvaluation, Trajectory
from solvers.inventory.policies import SSPolicy
from solvers.inventory.search import SearchResult
from solvers.inventory.spec import InventoryProblem


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
    dqn_warning: str | None = None
    """Why the trained DQN must not be trusted (undertrained, cancelled, worse than a trivial rule), or None."""
    not_recommended: tuple[str, ...] = ()
    """Policies shown in the table but never recommended (a flagged DQN)."""

    def recommended(self, risk_tolerance: float | None = None) -> PolicyEvaluation:
        """The evaluated policy minimising L(π) for λ (default: the problem's risk tolerance)."""
        lam = self.problem.risk_tolerance if risk_tolerance is None else risk_tolerance
        allowed = [e for e in self.evaluations if e.policy not in self.not_recommended] or list(
            self.evaluations
        )
        return min(allowed, key=lambda e: e.objective(lam))

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
    allowed = [kv for kv in keyed if kv[1].policy not in result.not_recommended] or keyed
    recommended = min(allowed, key=lambda kv: kv[1].objective(lam))[0]
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
