"""The three treatments of seed 000 §4.1.2: their prompts, the trial's record `TrialOutcome` and the lab's
memoized optimizer `CachedOptimizer`.

The trials themselves run turn by turn in `ManagerEnv` (`core/inventory/lab/env.py`) with the treatments as its
agents (`core/inventory/lab/experiment.py`):
- A: the Inventory Copilot (`CopilotAgent`, offline or LLM) in conversation with the imitator; its policy is the
  optimizer's own, and its extracted table is compared row by row with the truth; then Fig. 4's follow-up.
- B: an LLM consultant alone in conversation with the imitator (`LLMConsultant`, Table 12 in our words),
  stopped by the LLM judge (Table 14) as soon as a message holds a well-defined numerical policy.
- C: an LLM consultant alone, given the ground-truth parameter file (Table 13, in our words).
B and C need an LLM: with offline settings they raise `ProviderError` (the lab reports them as not run).
The recommendation text of B and C goes through `policy_parser.parse_policy`, which never guesses.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field, replace
from typing import Any

from core.errors import SpecError
from core.inventory.lab.policy_parser import ParsedPolicy
from core.llm import Usage
from solvers.inventory.agent import OptimizationResult, optimize
from solvers.inventory.spec import PARAMETER_KEYS, CapacityBasis

TREATMENTS = ("A", "B", "C")
TREATMENT_LABELS = {
    "A": "A · Copilot (extraction + solver) with the imitator",
    "B": "B · LLM alone, interactive (Table 12)",
    "C": "C · LLM alone, ground-truth parameters (Table 13)",
}
MAX_TURNS = 40
ROLES = ("copilot", "judge", "imitator")
"""The model roles of a trial: `copilot` (A's Copilot: its extraction and interpretation models; B and C's
consultant), `judge` (Table 14, B and C) and `imitator` (the manager, when an LLM plays it)."""
TREATMENT_ROLES = {"A": ("copilot", "imitator"), "B": ("copilot", "judge", "imitator"), "C": ("copilot", "judge")}
"""The roles each treatment's trial has (those whose tokens it records)."""
_POLICY_RULE = (
    "The final recommendation must have clear numbers, cover every situation, and translate directly into a "
    "formula. 'When stock falls below 20 units, order 80 units' is a policy. 'I recommend an (s, S) policy: "
    "when on-hand plus on-order stock drops below 35 units, order up to a total of 150 units' is a policy too. "
    "'Consider optimizing your inventory' or 'You need a better plan' are not policies."
)
INTERACTIVE_PROMPT = (
    "You are an inventory management consultant. Learn the manager's situation by asking questions, one or a "
    "few at a time; never assume values the manager has not given you. Assume no seasonality over the period "
    "and that stock is reviewed and ordered daily. Always ask for daily demand and its daily standard "
    "deviation; if the manager gives weekly or monthly figures, ask for daily ones. When you know enough, "
    "propose one clear, specific ordering policy. " + _POLICY_RULE
)
PARAMETER_PROMPT = (
    "You are an inventory management consultant. Analyse the business parameters below and propose one clear, "
    "specific ordering policy. Assume no seasonality and daily review; demand and standard deviation are "
    "daily. Ignore the risk tolerance row; use every other row. You may reason and calculate as needed. "
    + _POLICY_RULE
    + " Return only your policy recommendation."
)


@dataclass(frozen=True, eq=False)
class TrialOutcome:
    """One treatment on one scenario. `policy` is what gets simulated (None: no evaluable policy);
    `policy_text` is where it came from; `status` is "policy", "not_evaluable", "no_policy", "turn_limit"
    or "error"."""

    treatment: str
    scenario: str
    status: str
    transcript: tuple[tuple[str, str], ...] = ()
    policy_text: str = ""
    parsed: ParsedPolicy | None = None
    policy: Any = field(default=None, repr=False)
    table: dict[str, str] | None = None
    turns: int = 0
    seconds: float = 0.0
    usage: Usage = Usage()
    judge_calls: int = 0
    error: str | None = None
    run_id: str | None = None
    order_query: dict[str, Any] | None = None
    """Treatment A's Fig. 4 follow-up (see `fig4_question`): what was asked, the time step and order the
    Copilot's tool computed, and what its own policy orders in that state (None when not asked)."""
    role_tokens: dict[str, Usage] = field(default_factory=dict)
    """The tokens of each role (`ROLES`) that made model requests in this trial; `usage` is the treatment's
    own part (copilot and judge), without the imitator's (an environment-side role, priced at its own model)."""

    def table_matches(self, truth: dict[str, str]) -> dict[str, bool]:
        """Per row: is the extracted value exactly the ground truth (canonical text)?"""
        got = self.table or {}
        return {k: got.get(k) == truth.get(k) for k in PARAMETER_KEYS}

    @classmethod
    def from_dict(cls, treatment: str, o: dict[str, Any]) -> TrialOutcome:
        """An outcome read back from its `summary()` (plus transcript); the policy as its reading only."""
        parsed = o.get("parsed")
        return cls(
            treatment=treatment,
            scenario=o["scenario"],
            status=o["status"],
            transcript=tuple(tuple(x) for x in o.get("transcript", ())),
            policy_text=o.get("policy_text", ""),
            parsed=ParsedPolicy(
                o.get("policy_text", ""), parsed["family"], parsed["params"], parsed["note"], parsed["basis"]
            )
            if parsed
            else None,
            table=o.get("table"),
            turns=o.get("turns", 0),
            seconds=o.get("seconds", 0.0),
            usage=Usage(int(o.get("input_tokens") or 0), int(o.get("output_tokens") or 0)),
            judge_calls=o.get("judge_calls", 0),
            error=o.get("error"),
            run_id=o.get("run_id"),
            order_query=o.get("order_query"),
            role_tokens={r: Usage(int(t[0]), int(t[1])) for r, t in (o.get("role_tokens") or {}).items()},
        )

    def summary(self) -> dict[str, Any]:
        return {
            "treatment": self.treatment,
            "scenario": self.scenario,
            "status": self.status,
            "policy_text": self.policy_text,
            "parsed": self.parsed.to_dict() if self.parsed else None,
            "policy": getattr(self.policy, "name", None),
            "table": self.table,
            "turns": self.turns,
            "seconds": self.seconds,
            "input_tokens": self.usage.input_tokens,
            "output_tokens": self.usage.output_tokens,
            "judge_calls": self.judge_calls,
            "error": self.error,
            "run_id": self.run_id,
            "order_query": self.order_query,
            "role_tokens": {r: [u.input_tokens, u.output_tokens] for r, u in self.role_tokens.items()},
        }

    def tokens(self, role: str) -> Usage:
        """The tokens of `role` in this trial (zero when it made no model request)."""
        return self.role_tokens.get(role, Usage())


class CachedOptimizer:
    """`solvers.inventory.agent.optimize` memoized on its arguments: when the Copilot extracts exactly the
    ground truth, its optimization and the ground-truth reference are the same computation, done once.
    `families="paper"` keeps the paper's Optimization Agent menu ((s,S) grid, plus DQN when asked) by
    restricting the finalists; `"full"` is today's menu. `capacity_basis` is put on every problem it solves
    (the Copilot's extracted one and the ground truth alike): the capacity counted on the inventory position
    (default) or on on-hand only (Appendix A.1)."""

    def __init__(self, families: str = "full", capacity_basis: str = "inventory_position") -> None:
        if families not in ("full", "paper"):
            raise SpecError("families", f"must be 'full' or 'paper', got {families!r}")
        try:
            self.capacity_basis = CapacityBasis(capacity_basis)
        except ValueError:
            raise SpecError(
                "capacity_basis", f"must be one of {', '.join(b.value for b in CapacityBasis)}"
            ) from None
        self.families = families
        self.cache: dict[tuple, OptimizationResult] = {}
        self.calls = 0
        self._dir = tempfile.mkdtemp(prefix="orca-lab-")

    def __call__(self, problem, paths=1000, seed=0, use_dqn=True, progress=None, **kw) -> OptimizationResult:
        """One optimization; `menu="full"` (the ground-truth reference's call) ignores `families="paper"`, so
        the paper switch changes the Copilot's menu only, never the reference (issue 30)."""
        paper = self.families == "paper" and kw.get("menu") != "full"
        use_dp = kw.get("use_dp", True) and not paper
        problem = replace(problem, capacity_basis=self.capacity_basis)
        key = (problem, paths, seed, use_dqn, use_dp, paper, kw.get("final_paths"))
        if key not in self.cache:
            self.calls += 1
            kw = {k: v for k, v in kw.items() if k not in ("use_dp", "out_dir", "menu")}
            out = f"{self._dir}/{len(self.cache)}"
            result = optimize(problem, paths, seed, use_dqn, progress, use_dp=use_dp, out_dir=out, **kw)
            if paper:
                result = _paper_menu(result)
            self.cache[key] = result
        return self.cache[key]


def _paper_menu(result: OptimizationResult) -> OptimizationResult:
    """The result restricted to the paper's families: (s,S) and DQN."""
    keep = {k: v for k, v in result.evaluations.items() if k in ("sS", "dqn")}
    lam = result.problem.risk_tolerance
    best = min(keep, key=lambda k: keep[k].objective(lam))
    return replace(
        result,
        evaluations=keep,
        searches={k: v for k, v in result.searches.items() if k == "sS"},
        recommended=best,
        recommended_policy=keep[best].policy,
        objective=keep[best].objective(lam),
        dp=None,
    )


def role_tokens(**usages: Usage) -> dict[str, Usage]:
    """The roles' tokens of a trial, leaving out the roles that made no model request."""
    return {r: u for r, u in usages.items() if u.input_tokens or u.output_tokens}
