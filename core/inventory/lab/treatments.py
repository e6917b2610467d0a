"""The three treatments of seed 000 §4.1.2, each ending in a `TrialOutcome`.

- A: the Inventory Copilot (offline or LLM, as the settings say) in conversation with the imitator; its
  policy is the optimizer's own object, and its extracted table is compared row by row with the truth.
- B: an LLM consultant alone in conversation with the imitator (Table 12, in our words), stopped by the
  LLM judge (Table 14) as soon as a message holds a well-defined numerical policy.
- C: an LLM consultant alone, given the ground-truth parameter file (Table 13, in our words).
B and C need an LLM: with offline settings they raise `ProviderError` (the lab reports them as not run).
The recommendation text of B and C goes through `policy_parser.parse_policy`, which never guesses.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from core.config import Settings
from core.errors import OrcaError, ProviderError, SpecError
from core.inventory.copilot.config import CopilotConfig
from core.inventory.copilot.order_query import day_of_step
from core.inventory.copilot.policy_explanation import rule_sentence
from core.inventory.copilot.session import Copilot
from core.inventory.lab.generator import Scenario
from core.inventory.lab.imitator import ImitatorReply
from core.inventory.lab.judge import LLMJudge
from core.inventory.lab.policy_parser import ParsedPolicy, parse_policy
from core.llm import Message, Usage, make_chat_model
from core.store import Store
from solvers.inventory.agent import OptimizationResult, optimize
from solvers.inventory.period import counted_stock, truncate_orders
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


class Imitator(Protocol):
    name: str

    def opening(self) -> str: ...

    def reply(self, assistant_text: str) -> ImitatorReply: ...


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


def run_treatment_a(
    scenario: Scenario,
    imitator: Imitator,
    settings: Settings,
    *,
    config: CopilotConfig,
    optimizer: Callable[..., OptimizationResult],
    store: Store | None = None,
    max_turns: int = MAX_TURNS,
) -> TrialOutcome:
    """The Copilot talks with the imitator until it computes a policy (or the turn limit)."""
    start = time.perf_counter()
    copilot = Copilot(settings, store, config, optimizer=optimizer, title=f"Lab {scenario.key} · treatment A")
    transcript: list[tuple[str, str]] = [("consultant", copilot.greeting())]
    message = imitator.opening()
    turns = 0
    try:
        while True:
            transcript.append(("manager", message))
            turns += 1
            turn = copilot.respond(message)
            transcript.append(("consultant", turn.assistant))
            if copilot.phase != "extract":
                break
            if turns >= max_turns:
                return TrialOutcome(
                    "A",
                    scenario.key,
                    "turn_limit",
                    tuple(transcript),
                    table=copilot.table.values(),
                    turns=turns,
                    seconds=time.perf_counter() - start,
                    usage=copilot.usage,
                    run_id=copilot.run_id,
                    role_tokens=role_tokens(copilot=copilot.usage, imitator=_used(imitator)),
                )
            message = imitator.reply(turn.assistant).text
    except Exception as err:  # the system under test failing is an outcome of the trial, not a lab crash
        message = str(err) if isinstance(err, OrcaError) else f"Copilot crashed: {type(err).__name__}: {err}"
        return TrialOutcome(
            "A",
            scenario.key,
            "error" if isinstance(err, OrcaError) else "crash",
            tuple(transcript),
            table=copilot.table.values(),
            turns=turns,
            seconds=time.perf_counter() - start,
            usage=copilot.usage,
            error=message,
            run_id=copilot.run_id,
            role_tokens=role_tokens(copilot=copilot.usage, imitator=_used(imitator)),
        )
    result = copilot.result
    assert result is not None and copilot.brief is not None
    order_query = _fig4_follow_up(copilot, scenario, config.day_numbering, transcript)
    policy = result_policy(result)
    text = f"{rule_sentence(copilot.brief)} (optimizer finalist '{result.recommended}': {result.recommended_policy})"
    parsed = ParsedPolicy.from_object(policy, text)
    return TrialOutcome(
        "A",
        scenario.key,
        "policy",
        tuple(transcript),
        text,
        parsed,
        policy,
        copilot.table.values(),
        turns,
        time.perf_counter() - start,
        copilot.usage,
        run_id=copilot.run_id,
        order_query=order_query,
        role_tokens=role_tokens(copilot=copilot.usage, imitator=_used(imitator)),
    )


def role_tokens(**usages: Usage) -> dict[str, Usage]:
    """The roles' tokens of a trial, leaving out the roles that made no model request."""
    return {r: u for r, u in usages.items() if u.input_tokens or u.output_tokens}


def _used(imitator: Any) -> Usage:
    """The tokens of the manager imitator (the LLM persona's; the offline imitator has none)."""
    usage = getattr(imitator, "usage", None)
    return usage if isinstance(usage, Usage) else Usage()


def _fig4_follow_up(
    copilot: Copilot, scenario: Scenario, day_numbering: str, transcript: list[tuple[str, str]]
) -> dict[str, Any]:
    """After the policy: the manager asks Fig. 4's order question, then says goodbye. A failure here is
    recorded in the check (the policy itself stands)."""
    question, step, on_hand = fig4_question(scenario, day_numbering)
    try:
        transcript.append(("manager", question))
        transcript.append(("consultant", copilot.respond(question).assistant))
        assert copilot.interpreter is not None and copilot.result is not None
        check = check_order_query(
            copilot.result, copilot.interpreter.last_tool_calls, question, step, on_hand
        )
        farewell = "Thanks, that's all I needed."
        transcript.append(("manager", farewell))
        transcript.append(("consultant", copilot.respond(farewell).assistant))
    except Exception as err:  # the system under test failing is a finding, recorded with the check
        return {
            "question": question,
            "step_expected": step,
            "step_ok": False,
            "order_ok": False,
            "error": repr(err),
        }
    return check


FIG4_STEP = 4
"""Figure 4's follow-up asks about time step 4 ("current inventory 4, day 4, no incoming orders")."""


def fig4_question(scenario: Scenario, day_numbering: str = "from_one") -> tuple[str, int, int]:
    """The manager's Figure 4 order question after the policy: (text, time step meant, on-hand). The step is
    Fig. 4's 4 (or the last period of a shorter plan), named as a day per the lab's day numbering: "day 4"
    under Fig. 4's numbering, "day 5" when day 1 is the first day. On-hand is the daily mean demand (within
    the capacity); nothing is on order."""
    p = scenario.problem
    step = min(FIG4_STEP, p.time_horizon - 1)
    on_hand = int(min(p.max_inventory, max(0, round(p.demand.mean))))
    day = day_of_step(step, day_numbering)
    return f"current inventory {on_hand}, day {day}, no incoming orders", step, on_hand


def check_order_query(
    result: OptimizationResult, calls: tuple[dict[str, Any], ...], question: str, step: int, on_hand: int
) -> dict[str, Any]:
    """What the Copilot's order tool computed for the Fig. 4 question against what its own recommended
    policy orders at that step and state (its own problem; the capacity truncation of `period`)."""
    p = result.problem
    policy = result_policy(result)
    pipe = np.zeros((1, p.lead_time), dtype=np.int64)
    wanted = np.asarray(policy.orders(p, step, np.array([on_hand]), pipe), dtype=np.int64)
    expected = int(truncate_orders(p, wanted, counted_stock(p, np.array([on_hand]), pipe))[0])
    call = next((c for c in calls if str(c.get("name", "")).startswith("calculate_")), None)
    args = call.get("arguments", {}) if call else {}
    out = call.get("result") if call else None
    order = out.get("recommended_order") if isinstance(out, dict) else None
    passed = args.get("current_time_step") if isinstance(args, dict) else None
    return {
        "question": question,
        "tool": call.get("name") if call else None,
        "step_expected": step,
        "step_passed": passed,
        "order": order,
        "policy_order": expected,
        "step_ok": passed == step,
        "order_ok": order == expected and passed == step,
    }


def _consultant_turn(model, system: str, history: list[tuple[str, str]]) -> tuple[str, Usage]:
    messages = [Message("user" if r == "manager" else "assistant", t) for r, t in history]
    reply = model.complete(system, messages)
    return reply.text.strip(), reply.usage


def run_treatment_b(
    scenario: Scenario,
    imitator: Imitator,
    settings: Settings,
    *,
    judge: LLMJudge | None = None,
    max_turns: int = MAX_TURNS,
) -> TrialOutcome:
    """An LLM consultant alone with the imitator, stopped by the judge (Table 14)."""
    if settings.provider == "offline":
        raise ProviderError("treatment B needs an LLM provider (an API key); it is not run offline")
    start = time.perf_counter()
    model = make_chat_model(settings)
    judge = judge or LLMJudge(settings)
    history: list[tuple[str, str]] = [("manager", imitator.opening())]
    consultant, judged, calls = Usage(), Usage(), 0

    def tokens() -> dict[str, Usage]:
        return role_tokens(copilot=consultant, judge=judged, imitator=_used(imitator))

    try:
        for turn in range(1, max_turns + 1):
            text, used = _consultant_turn(model, INTERACTIVE_PROMPT, history)
            consultant += used
            history.append(("consultant", text))
            verdict = judge.verdict(text)
            judged, calls = judged + verdict.usage, calls + 1
            if verdict.is_policy:
                parsed = parse_policy(text)
                status = "policy" if parsed.evaluable else "not_evaluable"
                return TrialOutcome(
                    "B",
                    scenario.key,
                    status,
                    tuple(history),
                    text,
                    parsed,
                    parsed.policy,
                    None,
                    turn,
                    time.perf_counter() - start,
                    consultant + judged,
                    calls,
                    role_tokens=tokens(),
                )
            history.append(("manager", imitator.reply(text).text))
    except OrcaError as err:
        return TrialOutcome(
            "B",
            scenario.key,
            "error",
            tuple(history),
            turns=len(history) // 2,
            seconds=time.perf_counter() - start,
            usage=consultant + judged,
            judge_calls=calls,
            error=str(err),
            role_tokens=tokens(),
        )
    return TrialOutcome(
        "B",
        scenario.key,
        "turn_limit",
        tuple(history),
        turns=max_turns,
        seconds=time.perf_counter() - start,
        usage=consultant + judged,
        judge_calls=calls,
        role_tokens=tokens(),
    )


def run_treatment_c(scenario: Scenario, settings: Settings, *, judge: LLMJudge | None = None) -> TrialOutcome:
    """An LLM consultant given the ground-truth `extracted_params.csv` (Table 13)."""
    if settings.provider == "offline":
        raise ProviderError("treatment C needs an LLM provider (an API key); it is not run offline")
    start = time.perf_counter()
    model = make_chat_model(settings)
    judge = judge or LLMJudge(settings)
    prompt = f"Business parameters (extracted_params.csv):\n{scenario.params_csv()}"
    history = [("manager", prompt)]
    consultant = Usage()
    try:
        text, consultant = _consultant_turn(model, PARAMETER_PROMPT, history)
        history.append(("consultant", text))
        verdict = judge.verdict(text)
    except OrcaError as err:
        return TrialOutcome(
            "C",
            scenario.key,
            "error",
            tuple(history),
            seconds=time.perf_counter() - start,
            usage=consultant,
            error=str(err),
            role_tokens=role_tokens(copilot=consultant),
        )
    usage = consultant + verdict.usage
    tokens = role_tokens(copilot=consultant, judge=verdict.usage)
    if not verdict.is_policy:
        return TrialOutcome(
            "C",
            scenario.key,
            "no_policy",
            tuple(history),
            text,
            turns=1,
            seconds=time.perf_counter() - start,
            usage=usage,
            judge_calls=1,
            role_tokens=tokens,
        )
    parsed = parse_policy(text)
    return TrialOutcome(
        "C",
        scenario.key,
        "policy" if parsed.evaluable else "not_evaluable",
        tuple(history),
        text,
        parsed,
        parsed.policy,
        None,
        1,
        time.perf_counter() - start,
        usage,
        1,
        role_tokens=tokens,
    )
