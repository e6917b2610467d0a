"""`ManagerEnv`: one lab trial as a gymnasium text environment (for rollouts and experiments).

Spec sheet.
- Start state: a generated scenario (the latent reality) and its manager (the offline imitator with the
  configured noise, seeded by `reset(seed)`). The first observation is the manager's opening message.
- Actions (JSON dicts): `{"say": text}` — a consultant message; the manager answers it (the next observation).
  `{"final": text, "policy": spec | None, "table": {...} | None}` — the recommendation: `policy` is a rule
  spec (`{"family": "sS", "s", "S", "cutoff"}`, `"base_stock"` (S, cap, cutoff), `"constant"` (q, cutoff),
  `"rQ"` (R, Q), or `{"family": "dp", "table": extracted values, "capacity_basis"?}` for the exact DP policy
  of a table, solved on the spec's capacity basis, else the trial's);
  without it the text goes through the policy parser. `"no_policy": true` (a judge found no policy in the
  text) or `"error": message` (the consultant failed; with `"crash": true` the system under test raised) make it
  not evaluable without parsing the text. A final action may carry `"say"`, the consultant's message as the
  manager reads it (the recommendation's text is then `final`). The episode then terminates, unless the final
  action holds a policy and asks `"follow_up": true` (Treatment A): the manager then asks Fig. 4's order question
  (`fig4_question`, the next observation), the agent answers `{"say": text, "order_query": check}`, the manager
  says goodbye, the agent answers once more (`order_query` may replace the check, e.g. with the failure of the
  farewell), and the episode terminates; an answer without text or a check with an `error` ends it at once.
  Follow-up steps are not turns.
  Anything else is an error observation and costs a turn. Any action may carry `"tokens": {role: [input,
  output]}`, the agent's cumulative model tokens per role (`copilot`, `judge`); the latest become the metrics
  `<role>_input_tokens`/`<role>_output_tokens` (as reported by the agent; the run records their sum).
- Reward: 0 per turn; at the end −gap, the relative cost gap of the policy to the ground-truth reference
  on common random numbers (−1 when the policy is not evaluable).
- Episode end: terminated at the final action (or after its follow-up); truncated after `max_turns` consultant
  turns without asking the manager again, scored then as no evaluable policy (reward −1; the metrics with the
  `table` of the last action, if it carries one).
- Record: `transcript` (manager and consultant messages), `outcome` (a `TrialOutcome` named `assessment_name`:
  status `policy`, `not_evaluable`, `no_policy`, `turn_limit`, `error` or `crash`, the policy, its text and
  reading, the table, turns, Fig. 4's check and the tokens per role) and `assessment` (the `ScenarioAssessment`):
  the protocol adapter (`core.inventory.lab.protocol`) writes its `trial.json` from them.
- Hidden state: the truth never appears in observations; privileged agents (Treatment C, rules of thumb)
  read it from their own config, by design.
"""

from __future__ import annotations

import string
import time
from dataclasses import replace
from enum import StrEnum
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from core.config import Settings
from core.errors import SpecError
from core.inventory.copilot.order_query import day_of_step
from core.inventory.lab.assessment import AssessmentConfig, ScenarioAssessment, assess
from core.inventory.lab.generator import Scenario, generate
from core.inventory.lab.imitator import ImitatorNoise, LLMImitator, OfflineImitator
from core.inventory.lab.policy_parser import ParsedPolicy, parse_policy
from core.inventory.lab.treatments import CachedOptimizer, TrialOutcome, role_tokens
from core.llm import Usage
from core.llm.roles import role_from_text, settings_for
from solvers.inventory.dp import solve_dp
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.spec import PARAMETER_KEYS, CapacityBasis, problem_from_table

TEXT = spaces.Text(max_length=100_000, charset=string.printable + "’—–·×≤≥λ")
FIG4_STEP = 4
"""Figure 4's follow-up asks about time step 4 ("current inventory 4, day 4, no incoming orders")."""
FAREWELL = "Thanks, that's all I needed."
TURN_LIMIT = "(the turn limit is reached: the manager ends the conversation)"


class Phase(StrEnum):
    """Where a trial stands: the conversation, Fig. 4's follow-up question, the farewell, or over."""

    TALK = "talk"
    QUESTION = "question"
    FAREWELL = "farewell"
    OVER = "over"


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


def policy_from_spec(
    spec: dict[str, Any], capacity_basis: str | CapacityBasis = CapacityBasis.INVENTORY_POSITION
) -> Any:
    """A simulator policy from its JSON spec (see the module docstring); `SpecError` naming `policy`. A DP spec
    is solved on its own `capacity_basis`, else on `capacity_basis` (the trial's): the table has no basis row."""
    if not isinstance(spec, dict) or "family" not in spec:
        raise SpecError("policy", "a policy spec is a dict with a 'family'")
    f = spec["family"]
    try:
        if f == "sS":
            return SSPolicy(int(spec["s"]), int(spec["S"]), bool(spec.get("cutoff", False)))
        if f == "base_stock":
            cap = spec.get("cap")
            return BaseStockPolicy(
                int(spec["S"]), None if cap is None else int(cap), bool(spec.get("cutoff", False))
            )
        if f == "constant":
            return ConstantPolicy(int(spec["q"]), bool(spec.get("cutoff", False)))
        if f == "rQ":
            return RQPolicy(int(spec["R"]), int(spec["Q"]), bool(spec.get("cutoff", False)))
        if f == "dp":
            basis = _basis(spec.get("capacity_basis", capacity_basis))
            return solve_dp(replace(problem_from_table(dict(spec["table"])), capacity_basis=basis)).policy
    except KeyError as err:
        raise SpecError("policy", f"the {f} spec lacks {err.args[0]!r}") from None
    raise SpecError("policy", f"unknown policy family {f!r}")


def _basis(value: Any) -> CapacityBasis:
    try:
        return CapacityBasis(value)
    except ValueError:
        raise SpecError(
            "policy.capacity_basis", f"must be one of {', '.join(b.value for b in CapacityBasis)}, got {value!r}"
        ) from None


def spec_of(
    policy: Any, table: dict[str, str] | None = None, capacity_basis: str | CapacityBasis | None = None
) -> dict[str, Any]:
    """The JSON spec of a simulator policy (a DP table policy is given by the table it was solved for and,
    when not the default, the capacity basis it was solved on)."""
    if isinstance(policy, SSPolicy):
        return {"family": "sS", "s": policy.s, "S": policy.S, "cutoff": policy.cutoff}
    if isinstance(policy, BaseStockPolicy):
        return {"family": "base_stock", "S": policy.S, "cap": policy.cap, "cutoff": policy.cutoff}
    if isinstance(policy, ConstantPolicy):
        return {"family": "constant", "q": policy.q, "cutoff": policy.cutoff}
    if isinstance(policy, RQPolicy):
        return {"family": "rQ", "R": policy.R, "Q": policy.Q, "cutoff": policy.cutoff}
    if getattr(policy, "name", "") == "dp" and table:
        basis = _basis(capacity_basis or CapacityBasis.INVENTORY_POSITION)
        spec: dict[str, Any] = {"family": "dp", "table": dict(table)}
        return spec if basis is CapacityBasis.INVENTORY_POSITION else spec | {"capacity_basis": basis.value}
    raise SpecError("policy", f"policy {getattr(policy, 'name', policy)!r} has no JSON spec")


class ManagerEnv(gym.Env):
    """One lab trial (`orca/InventoryManager-v0`): a consultant (the agent) talks with the manager of a latent
    business. Observation: the manager's text (the opening is the business context only). Action: `{"say":
    text}` (the manager answers what is asked) or `{"final": text, "policy": spec | None, "table": dict | None}`
    (the recommendation: assessed on the ground truth with common random numbers, reward −gap, terminated, after
    Fig. 4's follow-up when the action asks for it). Truncated after `max_turns`. The truth never appears in
    observations. Without `scenario`, the instance is scenario 0 of the `protocol`'s generator with
    `scenario_seed`. The protocol's set-up: `imitator_seed` (the offline manager's; else `reset`'s seed),
    `assessment_seed` and `assessment_name`, `day_numbering` (how Fig. 4's question names the day). See the
    module docstring for the rest.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        scenario: dict[str, Any] | None = None,
        noise: float = 1.0,
        assessment_paths: int = 2000,
        optimizer_paths: int = 200,
        families: str = "full",
        max_turns: int = 40,
        capacity_basis: str = "inventory_position",
        protocol: str = "mixed",
        scenario_seed: int = 0,
        imitator: str | None = None,
        imitator_settings: Settings | None = None,
        imitator_seed: int | None = None,
        assessment_seed: int = 0,
        assessment_name: str = "agent",
        day_numbering: str = "from_one",
        **_: Any,
    ) -> None:
        if scenario is None:
            self.scenario = generate(1, scenario_seed, protocol=protocol)[0]
        else:
            self.scenario = Scenario.from_dict(scenario)
        self.noise = ImitatorNoise.scaled(noise)
        self.config = AssessmentConfig(
            paths=assessment_paths,
            seed=int(assessment_seed),
            optimizer_paths=optimizer_paths,
            capacity_basis=capacity_basis,
        )
        # the offline imitator's seed: fixed (the protocol's `lab seed × 100,003 + scenario index`), else reset's
        self.imitator_seed = None if imitator_seed is None else int(imitator_seed)
        self.optimizer = CachedOptimizer(families, capacity_basis)
        self.capacity_basis = self.optimizer.capacity_basis
        self.max_turns = max_turns
        self.assessment_name = str(assessment_name)
        self.day_numbering = str(day_numbering)
        # the manager: the offline imitator, or the LLM persona imitator named "provider:model" (a spec's
        # `[env] imitator`; its key is checked when the model is built — never replaced by the offline one)
        self.imitator_model = role_from_text(imitator, "env.imitator") if imitator else None
        # a spec's role `imitator` (core.llm.roles): its settings, which win over `imitator` (offline: the stand-in)
        self.imitator_settings = imitator_settings
        self.observation_space = TEXT
        self.action_space = spaces.Dict({"say": TEXT})
        self._metrics: dict[str, float] = {}
        self.transcript: list[tuple[str, str]] = []
        self.assessment: ScenarioAssessment | None = None
        self._trial: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[str, dict]:
        super().reset(seed=seed)
        model = self.imitator_model
        if self.imitator_settings is not None:
            role = self.imitator_settings
            self.imitator = (
                OfflineImitator(self.scenario, self.noise, seed=self._imitator_seed(seed))
                if role.provider == "offline"
                else LLMImitator(self.scenario, role)
            )
        elif model is None or model.offline:
            self.imitator = OfflineImitator(self.scenario, self.noise, seed=self._imitator_seed(seed))
        else:
            self.imitator = LLMImitator(self.scenario, settings_for(model, "env.imitator"))
        self.turns = 0
        self.phase = Phase.TALK
        self._metrics = {}
        self.role_tokens: dict[str, tuple[int, int]] = {}
        self.assessment, self._trial, self._started = None, {}, time.perf_counter()
        opening = self.imitator.opening()
        self.transcript = [("manager", opening)]
        return opening, {"scenario": self.scenario.key, "context": self.scenario.context}

    def _imitator_seed(self, seed: int | None) -> int:
        return self.imitator_seed if self.imitator_seed is not None else (seed or 0)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if isinstance(action, dict) and isinstance(action.get("tokens"), dict):
            self.role_tokens |= _tokens(action["tokens"])
        if self.phase is not Phase.TALK:
            return self._follow_up(action)
        self.turns += 1
        truncated = self.turns >= self.max_turns
        if isinstance(action, dict) and isinstance(action.get("final"), str):
            return self._finish(action)
        said = action.get("say") if isinstance(action, dict) else None
        said = said if isinstance(said, str) and said.strip() else None
        if said is not None:
            self.transcript.append(("consultant", said))
        if truncated:  # the turn limit: scored as no evaluable policy, with the consultant's table so far
            table = action.get("table") if isinstance(action, dict) else None
            self._conclude("turn_limit", None, None, table)
            observation = TURN_LIMIT if said is not None else _ERROR
            return observation, -1.0, False, True, {"turn_limit": True}
        if said is not None:
            reply = self.imitator.reply(said)
            self.transcript.append(("manager", reply.text))
            return reply.text, 0.0, False, False, {"revealed": list(reply.revealed)}
        return _ERROR, 0.0, False, False, {"error": True}

    def _finish(self, action: dict) -> tuple[str, float, bool, bool, dict]:
        text = action["final"]
        message = action.get("say") if isinstance(action.get("say"), str) and action["say"] else text
        if message:
            self.transcript.append(("consultant", message))
        spec = action.get("policy")
        given_up = _given_up(action)
        try:
            if given_up:
                raise SpecError("policy", given_up)
            policy = policy_from_spec(spec, self.capacity_basis) if spec else None
            parsed = ParsedPolicy.from_object(policy, text) if policy is not None else parse_policy(text)
        except SpecError as err:
            policy, parsed = None, ParsedPolicy(text, None, note=str(err))
        policy = policy if policy is not None else parsed.policy
        if action.get("error"):
            status = "crash" if action.get("crash") is True else "error"
        elif action.get("no_policy") is True:
            status = "no_policy"
        else:
            status = "policy" if policy is not None else "not_evaluable"
        read = parsed if status in ("policy", "not_evaluable") else None  # a given-up action has no reading
        self._conclude(status, policy, read, action.get("table"), error=action.get("error"), text=text)
        reading = parsed.describe() if policy is not None else f"not evaluable: {parsed.note}"
        if action.get("follow_up") is True and status == "policy":
            question, step, on_hand = fig4_question(self.scenario, self.day_numbering)
            self._trial["order_query"] = {"question": question, "step_expected": step, "on_hand": on_hand}
            self.phase = Phase.QUESTION
            self.transcript.append(("manager", question))
            return question, 0.0, False, False, {"reading": reading}
        self.phase = Phase.OVER
        return reading, self._reward(), True, False, {"reading": reading}

    def _follow_up(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Fig. 4's question answered, or the farewell: the conversation after the recommendation."""
        if self.phase is Phase.OVER:
            raise SpecError("action", "the trial is over; reset the environment")
        said = action.get("say") if isinstance(action, dict) else None
        check = action.get("order_query") if isinstance(action, dict) else None
        if isinstance(said, str) and said:
            self.transcript.append(("consultant", said))
        if isinstance(check, dict):
            self._trial["order_query"] = dict(check)
        failed = not (isinstance(said, str) and said) or "error" in self._trial["order_query"]
        if self.phase is Phase.QUESTION and not failed:
            self.phase = Phase.FAREWELL
            self.transcript.append(("manager", FAREWELL))
            return FAREWELL, 0.0, False, False, {}
        self.phase = Phase.OVER
        return "(the manager has left)", self._reward(), True, False, {}

    def _reward(self) -> float:
        gap = self._metrics.get("gap")
        return -(gap if gap is not None else 1.0)

    def _conclude(
        self, status: str, policy: Any, parsed: ParsedPolicy | None, table: Any, error: Any = None, text: str = ""
    ) -> None:
        """Assess the trial's policy (None: no evaluable policy) and keep its record and metrics."""
        table = {str(k): str(v) for k, v in table.items()} if isinstance(table, dict) else None
        name = self.assessment_name
        outcome = TrialOutcome(name, self.scenario.key, "policy" if policy is not None else status, policy=policy)
        self.assessment = assess(self.scenario, {name: outcome}, self.optimizer, self.config)
        gap = self.assessment.gaps.get(name)
        metrics: dict[str, float] = {
            "evaluable": float(policy is not None),
            "turns": float(self.turns),
            "reference_cost": self.assessment.costs["reference"],
            "dp_reference": float(self.assessment.dp_optimal_cost is not None),
        }
        if gap is not None:
            metrics |= {"gap": gap, "cost": self.assessment.costs[name]}
        if table is not None:
            truth = self.scenario.table
            matches = [str(table.get(k)) == truth[k] for k in PARAMETER_KEYS]
            metrics["table_exact"] = float(all(matches))
            metrics["rows_right"] = float(sum(matches))
        self._metrics = metrics
        self._trial = {
            "status": status,
            "text": text if status in ("policy", "not_evaluable", "no_policy") else "",
            "policy": policy,
            "parsed": parsed,
            "table": table,
            "error": str(error) if error else None,
            "turns": self.turns,
        }

    @property
    def outcome(self) -> TrialOutcome | None:
        """The trial as the protocol records it (None before the trial is scored)."""
        if not self._trial:
            return None
        t = self._trial
        used = {r: Usage(*n) for r, n in self.role_tokens.items()}
        usage = used.get("copilot", Usage()) + used.get("judge", Usage())
        imitator = getattr(self.imitator, "usage", None)
        return TrialOutcome(
            self.assessment_name,
            self.scenario.key,
            t["status"],
            tuple(self.transcript),
            t["text"],
            t["parsed"],
            t["policy"],
            t["table"],
            t["turns"],
            time.perf_counter() - self._started,
            usage,
            error=t["error"],
            order_query=_order_query(t.get("order_query")),
            role_tokens=role_tokens(**used, imitator=imitator if isinstance(imitator, Usage) else Usage()),
        )

    def episode_metrics(self) -> dict[str, float]:
        """The trial's metrics, with the LLM imitator's tokens (its requests are the environment's, not the
        agent's, so the agent's token count does not include them)."""
        usage = getattr(self.imitator, "usage", None)
        agent = {
            f"{role}_{kind}_tokens": float(n)
            for role, used in self.role_tokens.items()
            for kind, n in zip(("input", "output"), used, strict=True)
        }
        if usage is None:
            return {**self._metrics, **agent}
        return {
            **self._metrics,
            **agent,
            "imitator_input_tokens": float(usage.input_tokens),
            "imitator_output_tokens": float(usage.output_tokens),
        }


_ERROR = 'error: expected {"say": text} or {"final": text, "policy": spec|null, "table": dict|null}'


def _order_query(check: dict[str, Any] | None) -> dict[str, Any] | None:
    """Fig. 4's check as recorded: the agent's, or — when it never answered — the question unanswered."""
    if check is None or "step_ok" in check:
        return check
    return {
        "question": check["question"],
        "step_expected": check["step_expected"],
        "step_ok": False,
        "order_ok": False,
        "error": "the consultant did not answer",
    }


AGENT_ROLES = ("copilot", "judge")


def _tokens(raw: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The agent-side roles' token counts of an action's `tokens` (other roles and malformed counts ignored)."""
    out = {}
    for role, used in raw.items():
        counts = list(used) if isinstance(used, list | tuple) else []
        if role in AGENT_ROLES and len(counts) == 2 and all(_count(n) for n in counts):
            out[role] = (int(counts[0]), int(counts[1]))
    return out


def _given_up(action: dict[str, Any]) -> str:
    """Why a final action holds no policy by its own account (empty: it may hold one)."""
    if action.get("error"):
        return f"the consultant failed: {action['error']}"
    if action.get("no_policy") is True:
        return "no policy: the judge found no well-defined numerical policy in the text"
    return ""


def _count(n: Any) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


_QUESTIONS = (
    "How many days does your plan cover?",
    "How many units do you sell per day, and how much does that vary?",
    "Do your items spoil or expire?",
    "When you run out, do customers wait for the next delivery or buy elsewhere?",
    "What does it cost you to keep one unit in stock for a day?",
    "What does a missed sale cost you per unit?",
    "Is there a fixed fee for each order you place?",
    "How many days does a delivery take after you order?",
    "How many units can you store at most?",
    "What is the largest order your supplier accepts?",
    "How much risk are you willing to take, from -10 (very cautious) to 10?",
    "Thanks. Anything else I should know?",
    "",
)


def sample_actions(env: ManagerEnv, rng: np.random.Generator, n: int) -> list[dict[str, Any]]:
    """A plausible consultant for contract and replay tests: questions in a random order (and an empty message,
    an error observation), then a final (s,S) recommendation within the capacity as the n-th action."""
    actions: list[dict[str, Any]] = [
        {"say": _QUESTIONS[int(rng.integers(len(_QUESTIONS)))]} for _ in range(max(n - 1, 0))
    ]
    cap = env.scenario.problem.max_inventory
    s = int(rng.integers(0, cap + 1))
    S = int(rng.integers(s, cap + 1))
    final = {
        "final": f"When stock falls below {s}, order up to {S}.",
        "policy": {"family": "sS", "s": s, "S": S},
    }
    return [*actions, final][:n]
