"""The policy brief: what the interpretation agent may say, all numbers taken from the engine.

`brief_from_result(result, report)` gathers the finalists' costs, the critic's report and the recommended
policy's rule in parameters; `brief_state` / `restore_brief` store it with a run and read it back on resume.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import SpecError
from core.inventory.copilot.critic import FAMILY_NAMES, CriticReport, policy_object
from solvers.inventory.agent import OptimizationResult
from solvers.inventory.artifacts import load_dqn
from solvers.inventory.dp import solve_dp
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.policies import (
    BaseStockPolicy,
    ConstantPolicy,
    RQPolicy,
    SSPolicy,
    TablePolicy,
    cut_off,
)
from solvers.inventory.spec import InventoryProblem

SUMMARY_TOLERANCE_PCT = 2.0
"""A plain-words summary of a lookup-table policy is stated only when following it, evaluated on the same
demand paths, costs at most this much more than the policy itself."""


@dataclass(frozen=True)
class PolicyBrief:
    """The engine's numbers for the interpretation agent; `scenario` is "A" (explainable) or "B" (DQN)."""

    scenario: str
    recommended: str
    recommended_policy: str
    problem: InventoryProblem
    costs: dict[str, dict[str, Any]]
    s: int
    S: int
    cost_diff_pct: float
    rule: dict[str, Any]
    critic: CriticReport
    paths: int
    artifacts_dir: Path | None = None
    policy: Any = field(default=None, repr=False, compare=False)
    seed: int = 0

    def policy_dict(self) -> dict[str, object]:
        """The chat protocol's `policy` object."""
        c = self.costs
        return {
            "type": "dqn" if self.scenario == "B" else "sS",
            "recommended": self.recommended,
            "recommended_policy": self.recommended_policy,
            "label": display_name(self),
            "s": self.s,
            "S": self.S,
            "ss_mean": c["sS"]["mean"] if "sS" in c else None,
            "dqn_mean": c["dqn"]["mean"] if "dqn" in c else None,
            "recommended_mean": c[self.recommended]["mean"],
            "objective": c[self.recommended]["objective"],
            "cost_diff_pct": round(self.cost_diff_pct, 2),
            "rule": self.rule,
            "policies": c,
            "critic": self.critic.to_dict(),
        }


def brief_from_result(result: OptimizationResult, report: CriticReport, seed: int = 0) -> PolicyBrief:
    """Gather the numbers and the plain-words rule of the recommended policy."""
    lam = result.problem.risk_tolerance
    costs = {
        k: {
            "policy": ev.policy,
            "mean": round(ev.mean, 4),
            "std": round(ev.std, 4),
            "ci95": [round(ev.ci95[0], 4), round(ev.ci95[1], 4)],
            "objective": round(ev.objective(lam), 4),
            "fill_rate": round(ev.fill_rate, 4),
            "holding": round(ev.holding_cost, 4),
            "penalty": round(ev.penalty_cost, 4),
            "setup": round(ev.setup_cost, 4),
            "orders": round(ev.orders_placed, 2),
        }
        for k, ev in result.evaluations.items()
    }
    key = result.recommended
    policy = policy_object(result, key)
    rec = costs[key]["objective"]
    ss = costs["sS"]["objective"] if "sS" in costs else rec
    diff = 100 * (ss - rec) / abs(rec) if rec else 0.0
    return PolicyBrief(
        scenario="B" if key == "dqn" else "A",
        recommended=key,
        recommended_policy=result.recommended_policy,
        problem=result.problem,
        costs=costs,
        s=result.s,
        S=result.S,
        cost_diff_pct=diff,
        rule=policy_rule(result.problem, key, policy, seed),
        critic=report,
        paths=result.evaluations[key].paths,
        artifacts_dir=result.artifacts_dir,
        policy=policy,
        seed=seed,
    )


def brief_state(brief: PolicyBrief) -> dict[str, Any]:
    """What `restore_brief` needs to rebuild the brief without optimizing again (JSON, stored with the run)."""
    return {
        "scenario": brief.scenario,
        "recommended": brief.recommended,
        "recommended_policy": brief.recommended_policy,
        "costs": brief.costs,
        "s": brief.s,
        "S": brief.S,
        "cost_diff_pct": brief.cost_diff_pct,
        "rule": brief.rule,
        "critic": brief.critic.to_dict(),
        "paths": brief.paths,
        "seed": brief.seed,
    }


def restore_brief(
    state: dict[str, Any], problem: InventoryProblem, artifacts_dir: Path | None
) -> PolicyBrief:
    """The brief of `brief_state`; the recommended policy is rebuilt from its rule, the saved DQN weights
    or (for the exact DP, which has no randomness) the DP solution."""
    fields = {
        k: state[k] for k in ("scenario", "recommended", "recommended_policy", "costs", "s", "S", "rule")
    }
    return PolicyBrief(
        **fields,
        problem=problem,
        cost_diff_pct=float(state["cost_diff_pct"]),
        critic=CriticReport.from_dict(state["critic"]),
        paths=int(state["paths"]),
        artifacts_dir=artifacts_dir,
        policy=_policy_from_rule(problem, state["recommended"], state["rule"], artifacts_dir),
        seed=int(state["seed"]),
    )


def _policy_from_rule(p: InventoryProblem, key: str, rule: dict[str, Any], artifacts_dir: Path | None) -> Any:
    cutoff = bool(rule.get("cutoff", False))
    kind = rule.get("kind")
    if kind == "sS":
        return SSPolicy(int(rule["s"]), int(rule["S"]), cutoff=cutoff)
    if kind == "base_stock":
        return BaseStockPolicy(int(rule["S"]), cap=int(rule["cap"]), cutoff=cutoff)
    if kind == "constant":
        return ConstantPolicy(int(rule["q"]), cutoff=cutoff)
    if kind == "rQ":
        return RQPolicy(int(rule["R"]), int(rule["Q"]), cutoff=cutoff)
    if key == "dqn":
        if artifacts_dir is None:
            raise SpecError("resume", "the stored DQN weights are missing")
        return load_dqn(artifacts_dir)[1]
    if key == "dp":
        return solve_dp(p).policy
    raise SpecError("resume", f"cannot rebuild the stored policy {key!r}")


def policy_rule(p: InventoryProblem, key: str, policy: Any, seed: int) -> dict[str, Any]:
    """The recommended policy's parameters; a table policy is summarised from how it behaves in simulation."""
    cutoff = bool(getattr(policy, "cutoff", False))
    if isinstance(policy, SSPolicy):
        return _with_daily({"kind": "sS", "s": policy.s, "S": policy.S, "cutoff": cutoff}, p, policy, seed)
    if isinstance(policy, BaseStockPolicy):
        rule = {"kind": "base_stock", "S": policy.S, "cap": policy.cap or p.max_order, "cutoff": cutoff}
        return _with_daily(rule, p, policy, seed)
    if isinstance(policy, ConstantPolicy):
        return {"kind": "constant", "q": policy.q, "cutoff": cutoff}
    if isinstance(policy, RQPolicy):
        return _with_daily({"kind": "rQ", "R": policy.R, "Q": policy.Q, "cutoff": cutoff}, p, policy, seed)
    if key == "dqn":
        return {"kind": "dqn"}
    demand = demand_matrix(p, 300, seed + 15_485_863)
    ev = simulate_policy(p, policy, demand, record=300)
    tr = ev.trajectory
    assert tr is not None
    steady = max(1, p.time_horizon - p.lead_time - 1)
    pos, orders = tr.position[:, :steady].ravel(), tr.orders[:, :steady].ravel()
    ordered = orders > 0
    rule: dict[str, Any] = {"kind": "table" if isinstance(policy, TablePolicy) else key}
    if not ordered.any():
        return rule
    rule["ordered"] = True
    rule["last_order_day"] = int(np.nonzero(tr.orders.any(axis=0))[0].max()) + 1
    levels = np.unique(pos)
    rates = {int(v): float(ordered[pos == v].mean()) for v in levels}
    reorder = max((v for v, r in rates.items() if r >= 0.5), default=int(pos[ordered].max()))
    up_to = int(np.median(pos[ordered] + orders[ordered]))
    steady_q = int(np.median(orders[ordered]))
    candidates = {
        "sS": SSPolicy(reorder + 1, max(up_to, reorder + 1), cutoff=True),
        "constant": ConstantPolicy(steady_q, cutoff=True),
    }
    gaps = {
        name: 100 * (simulate_policy(p, summary, demand).mean - ev.mean) / max(abs(ev.mean), 1e-9)
        for name, summary in candidates.items()
    }
    best = min(gaps, key=gaps.__getitem__)
    rule["summary_gap_pct"] = round(gaps[best], 2)
    if gaps[best] <= SUMMARY_TOLERANCE_PCT:
        if best == "sS":
            rule["reorder_at"], rule["order_up_to"] = reorder, max(up_to, reorder + 1)
        else:
            rule["steady_order"] = steady_q
    return rule


def _with_daily(rule: dict[str, Any], p: InventoryProblem, policy: Any, seed: int) -> dict[str, Any]:
    """Add `daily_order` when the rule, simulated, orders the same amount every day it may order (for example
    a capped base-stock rule on perishable stock): that is what the user should be told to do."""
    paths = 200
    tr = simulate_policy(p, policy, demand_matrix(p, paths, seed + 7_919), record=paths).trajectory
    assert tr is not None
    open_days = [t for t in range(p.time_horizon) if not (rule.get("cutoff") and cut_off(p, t))]
    orders = np.unique(tr.orders[:, open_days]) if open_days else np.array([])
    if orders.size == 1 and orders[0] > 0:
        rule["daily_order"] = int(orders[0])
    return rule


def display_name(brief: PolicyBrief) -> str:
    """The recommended policy's family name, with its parameters when they differ from the key."""
    name = FAMILY_NAMES.get(brief.recommended, brief.recommended)
    return name if brief.recommended_policy == brief.recommended else f"{name} {brief.recommended_policy}"
