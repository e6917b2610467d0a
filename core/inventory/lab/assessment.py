"""Ground-truth assessment (seed 000 §4.1.1, step 3): every policy simulated on the true problem with common
random numbers, against the ground-truth optimum.

The reference is the exact DP optimum where the DP runs (its exact expected cost is kept too), whatever the
`families` switch; otherwise the best policy of an independent search on the true parameters (more paths and
another seed than the Copilot's, so the Copilot never grades itself) — labelled "no exact reference … not
proven optimal", never "optimal".
Gaps are `(cost − reference) / reference` on the same demand paths. Rules of thumb computed from the true
parameters (newsvendor base-stock, textbook (s,S) with an EOQ, ordering the mean) are included as textbook
baselines — not LLM baselines. Paper-exact switch: the capacity is counted on the inventory position (default)
or on on-hand only (Appendix A.1); the true problem is simulated, and the reference solved, on that basis.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any

from core.errors import SpecError
from core.inventory.lab.generator import Scenario
from core.inventory.lab.treatments import TrialOutcome
from solvers.inventory.agent import OptimizationResult
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, SSPolicy, TablePolicy
from solvers.inventory.spec import CapacityBasis, InventoryProblem

CAPACITY_BASES = tuple(b.value for b in CapacityBasis)
RULES_OF_THUMB = {
    "rule:newsvendor_base_stock": "rule of thumb · base-stock at the newsvendor fractile of lead-time demand",
    "rule:textbook_sS": "rule of thumb · (s,S) with s = lead-time demand + safety stock, S = s + EOQ",
    "rule:order_the_mean": "rule of thumb · order the mean daily demand every day",
}


@dataclass(frozen=True)
class AssessmentConfig:
    """Monte Carlo budget and the paper-exact switches of the assessment."""

    paths: int = 2000
    seed: int = 0
    optimizer_paths: int = 200
    capacity_basis: str = "inventory_position"

    def __post_init__(self) -> None:
        if self.paths < 10:
            raise SpecError("paths", f"the assessment needs at least 10 paths, got {self.paths}")
        if self.optimizer_paths < 10:
            raise SpecError("optimizer_paths", f"need at least 10 paths, got {self.optimizer_paths}")
        if self.capacity_basis not in CAPACITY_BASES:
            raise SpecError("capacity_basis", f"must be one of {', '.join(CAPACITY_BASES)}")

    def truth(self, scenario: Scenario) -> InventoryProblem:
        """The ground-truth problem on this assessment's capacity basis."""
        return replace(scenario.problem, capacity_basis=CapacityBasis(self.capacity_basis))


@dataclass(frozen=True, eq=False)
class ScenarioAssessment:
    """One scenario's costs (mean total horizon cost on common paths) and gaps to the reference."""

    scenario: str
    split: str
    reference: str
    reference_kind: str
    dp_optimal_cost: float | None
    costs: dict[str, float]
    ses: dict[str, float]
    policies: dict[str, str]
    gaps: dict[str, float] = field(default_factory=dict)
    excluded: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "split": self.split,
            "reference": self.reference,
            "reference_kind": self.reference_kind,
            "dp_optimal_cost": self.dp_optimal_cost,
            "costs": self.costs,
            "ses": self.ses,
            "policies": self.policies,
            "gaps": self.gaps,
            "excluded": self.excluded,
        }


def _z(problem: InventoryProblem) -> float:
    ratio = problem.penalty_cost / (problem.penalty_cost + problem.holding_cost)
    return NormalDist().inv_cdf(min(max(ratio, 1e-6), 1 - 1e-6))


def _daily_sd(problem: InventoryProblem) -> float:
    d = problem.demand
    if d.kind == "normal":
        return d.params[1]
    if d.kind == "poisson":
        return math.sqrt(d.params[0])
    if d.kind == "uniform":
        return (d.params[1] - d.params[0] + 1) / math.sqrt(12)
    return 0.0


def result_policy(result: OptimizationResult, key: str | None = None) -> Any:
    """The policy object behind one finalist of an optimization result (the recommended one by default)."""
    key = key or result.recommended
    if key in result.searches:
        return result.searches[key].best_policy
    if key == "dp" and result.dp is not None:
        return result.dp.policy
    if key == "dqn" and result.dqn is not None:
        return result.dqn.policy
    raise SpecError("policy", f"the optimization result has no policy {key!r}")


def rules_of_thumb(problem: InventoryProblem) -> dict[str, Any]:
    """Textbook rules from the true parameters (clipped to the storage capacity)."""
    p = problem
    mean, sd, cover = p.demand.mean, _daily_sd(p), p.lead_time + 1
    cap = p.max_inventory
    base = min(cap, max(0, math.ceil(mean * cover + _z(p) * sd * math.sqrt(cover))))
    eoq = math.sqrt(2 * p.setup_cost * mean / p.holding_cost) if p.holding_cost > 0 else mean
    s = min(cap, base)
    return {
        "rule:newsvendor_base_stock": BaseStockPolicy(base),
        "rule:textbook_sS": SSPolicy(s, min(cap, s + max(1, round(eoq)))),
        "rule:order_the_mean": ConstantPolicy(max(0, round(mean))),
    }


def mismatch(policy: Any, problem: InventoryProblem) -> str | None:
    """Why a policy cannot act on the true system (a DP table solved for another lead time), else None."""
    if isinstance(policy, TablePolicy) and policy.table.ndim != 2 + problem.lead_time:
        solved = policy.table.ndim - 2
        return (
            f"not evaluable: a DP table policy solved for a lead time of {solved} days cannot act on the true "
            f"system (lead time {problem.lead_time} days, a different state)"
        )
    return None


REFERENCE_PATHS_FACTOR = 2  # the reference search simulates twice the Copilot's paths ...
REFERENCE_SEED_OFFSET = 1_000_003  # ... on demand paths of another seed than the Copilot's
EXACT_REFERENCE = "exact DP optimum"
SEARCH_REFERENCE = (
    "no exact reference (the DP does not run): best policy of an independent search on the true parameters "
    "({paths} paths, seed {seed}; the Copilot searched {copilot_paths} paths, seed {copilot_seed}); "
    "not proven optimal"
)


def reference_result(
    scenario: Scenario, optimizer: Callable[..., OptimizationResult], config: AssessmentConfig
) -> OptimizationResult:
    """The ground-truth reference, independent of the Copilot: the full menu (the exact DP where it runs,
    whatever the `families` switch) searched with `REFERENCE_PATHS_FACTOR` times the Copilot's paths on
    another seed, so a Copilot that extracts the truth exactly does not grade itself (issue 30)."""
    return optimizer(
        config.truth(scenario),
        config.optimizer_paths * REFERENCE_PATHS_FACTOR,
        config.seed + REFERENCE_SEED_OFFSET,
        False,
        None,
        use_dp=True,
        menu="full",
    )


def assess(
    scenario: Scenario,
    outcomes: dict[str, TrialOutcome],
    optimizer: Callable[..., OptimizationResult],
    config: AssessmentConfig,
) -> ScenarioAssessment:
    """Simulate the reference, every treatment's evaluable policy and the rules of thumb on the truth."""
    truth = config.truth(scenario)
    ref = reference_result(scenario, optimizer, config)
    if ref.dp is not None:
        ref_key, kind = "dp", EXACT_REFERENCE
    else:
        ref_key = min(ref.evaluations, key=lambda k: ref.evaluations[k].mean)
        kind = SEARCH_REFERENCE.format(
            paths=config.optimizer_paths * REFERENCE_PATHS_FACTOR,
            seed=config.seed + REFERENCE_SEED_OFFSET,
            copilot_paths=config.optimizer_paths,
            copilot_seed=config.seed,
        )
    candidates: dict[str, Any] = {"reference": result_policy(ref, ref_key)}
    for name, out in outcomes.items():
        if out.policy is not None:
            candidates[name] = out.policy
    candidates.update(rules_of_thumb(truth))
    excluded: dict[str, str] = {}
    for name, policy in list(candidates.items()):
        why = mismatch(policy, truth)
        if why:
            excluded[name] = why
            del candidates[name]
    demand = demand_matrix(truth, config.paths, config.seed + 17)
    evals = [simulate_policy(truth, policy, demand) for policy in candidates.values()]
    costs = {k: e.mean for k, e in zip(candidates, evals, strict=True)}
    ses = {k: e.se for k, e in zip(candidates, evals, strict=True)}
    ref_cost = costs["reference"]
    gaps = {
        k: (v - ref_cost) / ref_cost if ref_cost > 0 else 0.0 for k, v in costs.items() if k != "reference"
    }
    return ScenarioAssessment(
        scenario=scenario.key,
        split=scenario.split,
        reference=f"{ref_key}: {ref.evaluations[ref_key].policy}",
        reference_kind=kind,
        dp_optimal_cost=ref.dp.optimal_cost if ref.dp is not None else None,
        costs=costs,
        ses=ses,
        policies={k: getattr(v, "name", str(v)) for k, v in candidates.items()},
        gaps=gaps,
        excluded=excluded,
    )
