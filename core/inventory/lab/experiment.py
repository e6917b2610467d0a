"""The lab's experiment adapter (`core/experiments`): instances = generated scenarios, agents = treatments.

Spec `[env]` keys: protocol ("paper70" | "mixed"), n, seed, risk_neutral (generation); noise,
assessment_paths, optimizer_paths, families, capacity_basis, max_turns (the `ManagerEnv` trial),
day_numbering (the Copilot's reading of "day d") and imitator (the manager: "offline:rules" or omitted for the
offline imitator, "provider:model" for the LLM persona imitator, whose key is checked before any cell runs).
The protocol's set-up (`inventory lab run`), optional: imitator_seed (scenario i's offline imitator is seeded
`imitator_seed + i`, else with the rollout seed; the protocol's is `seed × 100,003`), assessment_seed (default 0; the protocol's
is the lab seed), copilot_seed (default 0) and critic_paths (default 100) of treatment A's Copilot.
Per-role models (`roles=`, core.llm.roles): `copilot` (the model of A's LLM extraction and of B and C),
`judge` (B's Table 14 judge) and `imitator` (the manager, an environment-side role: `make_env` gets it; its
tokens are the metrics `imitator_input_tokens`/`imitator_output_tokens`, priced at its model). `[env] imitator
= "provider:model"` is an alias of the role `imitator` for every agent (an agent's own role wins). Agents name a `treatment` (the same agents run the protocol's cells, `core.inventory.lab.protocol`):
- `A` — the Inventory Copilot (`kind = "offline"`: the offline agents; `kind = "llm"`: the LLM extraction),
  which answers Fig. 4's follow-up question and the farewell after its policy;
- `B` — an LLM alone in conversation, stopped by the Table 14 judge (`kind = "llm"` only);
- `C` — an LLM given the ground-truth parameter file, privileged by design (`kind = "llm"` only);
- `rule` — a rule of thumb from the true parameters (`rule` = newsvendor_base_stock | textbook_sS |
  order_the_mean), privileged and labelled as a rule of thumb, never an LLM baseline.
B and C with offline settings raise `ProviderError` (and the experiment driver refuses an LLM agent without a
key before any cell runs), so nothing runs in their place. Metrics per cell: gap, cost, reference_cost,
evaluable, turns, table_exact, rows_right, and the tokens of each role that made model requests
(`copilot_*`/`judge_*`, reported by the agents with their actions; `imitator_*`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.config import Settings
from core.errors import OrcaError, ProviderError, SpecError
from core.inventory.copilot.config import CopilotConfig
from core.inventory.copilot.policy_explanation import rule_sentence
from core.inventory.copilot.session import Copilot
from core.inventory.lab.assessment import result_policy, rules_of_thumb
from core.inventory.lab.env import ManagerEnv, fig4_question, spec_of
from core.inventory.lab.generator import Scenario, generate
from core.inventory.lab.judge import LLMJudge
from core.inventory.lab.treatments import INTERACTIVE_PROMPT, PARAMETER_PROMPT, CachedOptimizer
from core.llm import Message, Usage, make_chat_model
from core.llm.roles import RoleModel, role_from_text, settings_for
from core.rollout import RolloutResult
from solvers.inventory.agent import OptimizationResult
from solvers.inventory.period import counted_stock, truncate_orders

ENV_KEYS = {
    "protocol",
    "n",
    "seed",
    "risk_neutral",
    "noise",
    "assessment_paths",
    "optimizer_paths",
    "families",
    "capacity_basis",
    "day_numbering",
    "max_turns",
    "imitator",
    "imitator_seed",
    "assessment_seed",
    "copilot_seed",
    "critic_paths",
}
GENERATOR_KEYS = {"protocol", "n", "seed", "risk_neutral"}
TREATMENT_KINDS = ("A", "B", "C", "rule")


def instances(env: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    unknown = sorted(set(env) - ENV_KEYS)
    if unknown:
        raise SpecError(
            f"env.{unknown[0]}", f"unknown lab setting; expected one of {', '.join(sorted(ENV_KEYS))}"
        )
    scenarios = generate(
        env.get("n"),
        int(env.get("seed", 0)),
        protocol=env.get("protocol", "paper70"),
        risk_neutral=bool(env.get("risk_neutral", False)),
    )
    if env.get("imitator"):  # refused up front (unknown provider, no key), never replaced by the offline one
        settings_for(role_from_text(str(env["imitator"]), "env.imitator"), "env.imitator")
    trial = {k: env[k] for k in sorted(ENV_KEYS - GENERATOR_KEYS) if k in env}  # the trial's settings
    base = trial.pop("imitator_seed", None)  # scenario i's offline imitator: seed base + i (as the protocol's)
    return [
        (s.key, {"scenario": s.to_dict(), **trial} | ({} if base is None else {"imitator_seed": int(base) + i}))
        for i, s in enumerate(scenarios)
    ]


def env_roles(env: dict[str, Any]) -> dict[str, RoleModel]:
    """The roles `[env]` names by alias: `imitator = "provider:model"` is the role `imitator`."""
    return {"imitator": role_from_text(str(env["imitator"]), "env.imitator")} if env.get("imitator") else {}


def make_env(config: dict[str, Any], roles: dict[str, Settings] | None = None) -> ManagerEnv:
    """The trial's environment; the role `imitator` (its settings) plays the manager."""
    imitator = (roles or {}).get("imitator")
    return ManagerEnv(**config, imitator_settings=imitator) if imitator is not None else ManagerEnv(**config)


class CopilotAgent:
    """Treatment A as an agent: each manager message goes to `Copilot.respond`; once the policy is computed
    the action is final, with the optimizer's own policy as a spec, the extracted table and a request for
    Fig. 4's follow-up, whose question and farewell it answers with the Copilot (recording the order check)."""

    treatment = "A"

    def __init__(self, settings: Settings, config: dict[str, Any], title: str = "Lab treatment A") -> None:
        self.settings = settings
        self.paths = int(config.get("optimizer_paths", 200))
        self.optimizer = CachedOptimizer(
            config.get("families", "full"), config.get("capacity_basis", "inventory_position")
        )
        self.day_numbering = str(config.get("day_numbering", "from_one"))
        self.critic_paths = int(config.get("critic_paths", 100))
        self.seed = int(config.get("copilot_seed", 0))
        self.scenario = Scenario.from_dict(config["scenario"]) if "scenario" in config else None
        self.title = title
        self.name = "copilot"
        self.last_note = ""
        self.greeting = ""

    def reset(self, seed: int | None) -> None:
        cfg = CopilotConfig(
            paths=self.paths, critic_paths=self.critic_paths, seed=self.seed, day_numbering=self.day_numbering
        )
        self.copilot = Copilot(self.settings, None, cfg, optimizer=self.optimizer, title=self.title)
        self.greeting = self.copilot.greeting()
        self.stage = "talk"

    @property
    def usage(self) -> Usage:
        """The Copilot's model tokens so far (its extraction and interpretation requests; 0 offline)."""
        copilot = getattr(self, "copilot", None)
        return copilot.usage if copilot is not None else Usage()

    def act(self, observation: Any) -> dict[str, Any]:
        if self.stage != "talk":
            return self._follow_up(str(observation)) | _tokens(copilot=self.usage)
        try:
            turn = self.copilot.respond(str(observation))
        except Exception as err:  # the system under test failing is the trial's outcome (the protocol's), not a lab crash
            crash = not isinstance(err, OrcaError)
            message = f"Copilot crashed: {type(err).__name__}: {err}" if crash else str(err)
            self.last_note = "crash" if crash else "error"
            table = self.copilot.table.values()
            action = {"final": "", "policy": None, "table": table, "error": message} | ({"crash": True} if crash else {})
            return action | _tokens(copilot=self.usage)
        if self.copilot.phase == "extract":
            self.last_note = turn.action
            table = self.copilot.table.values()  # the reading so far: scored with the turn limit, if it comes
            return {"say": turn.assistant, "table": table} | _tokens(copilot=self.usage)
        result = self.copilot.result
        assert result is not None and self.copilot.brief is not None
        table = self.copilot.table.values()
        self.last_note = f"optimizer finalist {result.recommended}: {result.recommended_policy}"
        try:
            spec = spec_of(result_policy(result), table, result.problem.capacity_basis)
        except SpecError:  # a DQN policy has no JSON spec: the text alone goes to the parser
            spec = None
        self.stage = "question"
        text = f"{rule_sentence(self.copilot.brief)} (optimizer finalist '{result.recommended}': {result.recommended_policy})"
        return {
            "final": text,
            "say": turn.assistant,
            "policy": spec,
            "table": table,
            "follow_up": self.scenario is not None,  # Fig. 4's question is about the scenario's own plan
        } | _tokens(copilot=self.usage)

    def _follow_up(self, message: str) -> dict[str, Any]:
        """The answer to Fig. 4's question (with the check of the Copilot's order tool) or to the farewell; a
        failure is recorded in the check (the policy stands)."""
        stage, self.stage = self.stage, "farewell"
        assert self.scenario is not None  # asked only with a scenario (see `act`)
        question, step, on_hand = fig4_question(self.scenario, self.day_numbering)
        try:
            answer = self.copilot.respond(message).assistant
            if stage == "farewell":
                return {"say": answer}
            assert self.copilot.interpreter is not None and self.copilot.result is not None
            calls = self.copilot.interpreter.last_tool_calls
            return {"say": answer, "order_query": check_order_query(self.copilot.result, calls, message, step, on_hand)}
        except Exception as err:  # the system under test failing is a finding, recorded with the check
            failed = {"question": question, "step_expected": step, "step_ok": False, "order_ok": False}
            return {"say": "", "order_query": failed | {"error": repr(err)}}


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


def _tokens(**roles: Usage) -> dict[str, Any]:
    """An action's `tokens` entry (the agent's cumulative tokens per role, see `ManagerEnv`); none offline, so an
    offline agent's actions are what they were."""
    used = {r: [u.input_tokens, u.output_tokens] for r, u in roles.items() if u.input_tokens or u.output_tokens}
    return {"tokens": used} if used else {}


class LLMConsultant:
    """Treatments B (interactive, judged) and C (given the ground-truth parameter file)."""

    def __init__(
        self,
        settings: Settings,
        config: dict[str, Any],
        *,
        with_parameters: bool,
        judge: Settings | None = None,
    ) -> None:
        if settings.provider == "offline":
            raise ProviderError(
                f"treatment {'C' if with_parameters else 'B'} needs an LLM provider (an API key); it is not run "
                "offline and nothing is substituted for it"
            )
        self.model = make_chat_model(settings)
        self.judge = LLMJudge(judge or settings)
        self.with_parameters = with_parameters
        self.csv = Scenario.from_dict(config["scenario"]).params_csv() if with_parameters else ""
        self.name = "llm_parameters" if with_parameters else "llm_interactive"
        self.consultant, self.judged = Usage(), Usage()
        self.judge_calls = 0
        self.treatment = "C" if with_parameters else "B"
        self.last_note = ""

    @property
    def usage(self) -> Usage:
        """The consultant's and the judge's tokens so far."""
        return self.consultant + self.judged

    def reset(self, seed: int | None) -> None:
        self.history: list[Message] = []
        self.consultant, self.judged = Usage(), Usage()
        self.judge_calls = 0

    def act(self, observation: Any) -> dict[str, Any]:
        if self.with_parameters and not self.history:
            self.history.append(Message("user", f"Business parameters (extracted_params.csv):\n{self.csv}"))
        else:
            self.history.append(Message("user", str(observation)))
        prompt = PARAMETER_PROMPT if self.with_parameters else INTERACTIVE_PROMPT
        text = ""
        try:
            reply = self.model.complete(prompt, self.history)
            text = reply.text.strip()
            self.consultant += reply.usage
            self.history.append(Message("assistant", text))
            verdict = self.judge.verdict(text)
            self.judged += verdict.usage
            self.judge_calls += 1
        except OrcaError as err:  # the LLM failing is the trial's outcome (the protocol's `error`), not a failed cell
            self.last_note = f"error: {err}"
            return {"final": text, "policy": None, "table": None, "error": str(err)} | self._tokens()
        if self.with_parameters:  # C: no policy when the judge says No, even if the text parses (the protocol's)
            flag = {} if verdict.is_policy else {"no_policy": True}
            return {"final": text, "policy": None, "table": None} | flag | self._tokens()
        if verdict.is_policy:
            return {"final": text, "policy": None, "table": None} | self._tokens()
        return {"say": text or "Could you tell me more?"} | self._tokens()  # the manager reads no empty message

    def _tokens(self) -> dict[str, Any]:
        return _tokens(copilot=self.consultant, judge=self.judged)


class RuleAgent:
    """A rule of thumb computed from the true parameters (privileged; not an LLM baseline)."""

    def __init__(self, rule: str, config: dict[str, Any]) -> None:
        key = f"rule:{rule}"
        rules = rules_of_thumb(Scenario.from_dict(config["scenario"]).problem)
        if key not in rules:
            raise SpecError("rule", f"unknown rule {rule!r}; use one of {', '.join(r[5:] for r in rules)}")
        self.policy = rules[key]
        self.name = self.treatment = key

    def reset(self, seed: int | None) -> None:
        return None

    def act(self, observation: Any) -> dict[str, Any]:
        return {"final": f"rule of thumb {self.policy.name}", "policy": spec_of(self.policy), "table": None}


LAB_ROLES = ("copilot", "judge")  # the agent's side
AGENT_ROLES = LAB_ROLES  # recorded apart (`copilot_*`/`judge_*` metrics): each priced at its own model
ROLE_DEFAULTS = {"judge": "copilot"}  # an unnamed judge judges on the consultant's model
ENV_ROLES = ("imitator",)  # the environment's side (make_env); tokens in the cell's metrics
ROLES = LAB_ROLES + ENV_ROLES  # the roles a spec may name (the driver refuses others before any cell runs)


def make_agent(
    agent: dict[str, Any], config: dict[str, Any], settings: Settings, roles: dict[str, Settings] | None = None
):
    treatment = str(agent.get("treatment", "")).strip()
    roles = dict(roles or {})
    for role in roles:
        if role not in ROLES:
            raise SpecError(f"agents.{agent.get('name')}.roles.{role}", f"the lab's roles are {', '.join(ROLES)}")
    settings = roles.get("copilot", settings)
    if treatment == "A":
        return CopilotAgent(settings, config)
    if treatment in ("B", "C"):
        return LLMConsultant(settings, config, with_parameters=treatment == "C", judge=roles.get("judge"))
    if treatment == "rule":
        return RuleAgent(str(agent.get("rule", "")), config)
    raise SpecError(
        "agents.treatment", f"unknown treatment {treatment!r}; use one of {', '.join(TREATMENT_KINDS)}"
    )


def metrics(result: RolloutResult, env: ManagerEnv) -> dict[str, float]:
    return env.episode_metrics()
