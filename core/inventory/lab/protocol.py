"""The lab protocol's experiment adapter: `inventory lab run` and the lab page run through `core/experiments`.

One cell is one treatment (an agent: A, B or C) on one scenario (an instance), so the experiment engine runs the
lab on its local pool or Ray, saves every cell as it finishes and resumes exactly the missing cells after a
crash. The spec's `[env]` holds `lab` (a `LabConfig` as a dict, `workers` left out) and, when the scenarios come
from a file, `scenarios` (their dicts); without them the scenarios are generated from `lab`.

The cell's agent (`TreatmentAgent`) runs its treatment's whole trial (`run_treatment_a|b|c`, with the lab's
imitator) and assesses it on the ground truth (`assess`, common random numbers: the reference and the rules of
thumb are the same in every cell of a scenario) in one `act`; `TrialEnv` scores that record (reward −gap) and
ends the episode. The record travels as the cell's artifact `trial.json`, from which `lab.run_lab` rebuilds the
`LabResult` and its report. Roles (core.llm.roles): `copilot` (A's extraction, B and C's model), `judge`
(the Table 14 judge) and `imitator` (the manager; environment-side: its tokens are the cell's metrics
`imitator_input_tokens`/`imitator_output_tokens`, priced at its model, or at the treatment's when the lab's
`imitator = "llm"` alias plays it with the treatment's settings). (A departure kept until the conversations move onto `ManagerEnv`: the trial runs
inside the agent's single action rather than turn by turn.)
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from core.config import Settings
from core.errors import SpecError
from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, CallEstimate, estimate_tokens
from core.inventory.lab.assessment import assess
from core.inventory.lab.config import LabConfig, make_imitator
from core.inventory.lab.env import policy_from_spec, spec_of
from core.inventory.lab.generator import Scenario, generate
from core.inventory.lab.imitator import (
    ImitatorNoise,
    LLMImitator,
    OfflineImitator,
    llm_opening,
    persona_prompt,
)
from core.inventory.lab.judge import JUDGE_PROMPT, LLMJudge
from core.inventory.lab.treatments import (
    INTERACTIVE_PROMPT,
    PARAMETER_PROMPT,
    TREATMENTS,
    CachedOptimizer,
    run_treatment_a,
    run_treatment_b,
    run_treatment_c,
)
from core.llm import Usage
from core.rollout import RolloutResult

ADAPTER = "core.inventory.lab.protocol"
TRIAL_ARTIFACT = "trial.json"
ENV_KEYS = {"lab", "scenarios"}
PAPER_TABLES = "core.inventory.lab.tables"  # seed 000's Tables 5, 6 and Fig. 4 for `experiment report`


def _lab_config(raw: Any) -> LabConfig:
    if not isinstance(raw, dict):
        raise SpecError("env.lab", "the lab protocol needs its settings as a table")
    return LabConfig.from_dict(dict(raw))


def scenarios_of(env: dict[str, Any]) -> list[Scenario]:
    """The scenarios of a protocol spec's `[env]`: given ones, else generated from its lab settings."""
    unknown = sorted(set(env) - ENV_KEYS)
    if unknown:
        raise SpecError(f"env.{unknown[0]}", "the lab protocol takes only lab and scenarios")
    config = _lab_config(env.get("lab"))
    if env.get("scenarios"):
        return [Scenario.from_dict(dict(s)) for s in env["scenarios"]]
    return generate(config.n, config.seed, protocol=config.protocol, risk_neutral=config.risk_neutral)


def instances(env: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    lab = dict(env.get("lab") or {})
    return [
        (s.key, {"scenario": s.to_dict(), "index": i, "lab": lab}) for i, s in enumerate(scenarios_of(env))
    ]


class TrialEnv(gym.Env):
    """One treatment's trial on one scenario, as a one-step episode. Observation: the business context.
    Action: the trial record `{"treatment", "outcome", "assessment"}` the agent produced. Reward: −gap (−1
    when no evaluable policy); terminated after the one action."""

    metadata = {"render_modes": []}

    def __init__(self, scenario: dict[str, Any], index: int = 0, lab: dict[str, Any] | None = None) -> None:
        self.scenario = Scenario.from_dict(scenario)
        self.index = int(index)
        self.lab = dict(lab or {})
        self.observation_space = spaces.Text(max_length=100_000)
        self.action_space = spaces.Dict({})
        self.record: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[str, dict]:
        super().reset(seed=seed)
        self.record = {}
        return self.scenario.context, {"scenario": self.scenario.key}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if not isinstance(action, dict) or "assessment" not in action or "outcome" not in action:
            raise SpecError("action", "a lab trial action is the record {treatment, outcome, assessment}")
        self.record = action
        gap = action["assessment"]["gaps"].get(action["treatment"])
        return action["outcome"]["status"], -(gap if gap is not None else 1.0), True, False, {}

    def episode_metrics(self) -> dict[str, float]:
        if not self.record:
            return {}
        t, out, a = self.record["treatment"], self.record["outcome"], self.record["assessment"]
        metrics = {
            "evaluable": float(t in a["gaps"]),
            "turns": float(out["turns"]),
            "reference_cost": float(a["costs"]["reference"]),
            "dp_reference": float(a["dp_optimal_cost"] is not None),
            "input_tokens": float(out["input_tokens"]),
            "output_tokens": float(out["output_tokens"]),
            "imitator_input_tokens": float(self.record.get("imitator_tokens", (0, 0))[0]),
            "imitator_output_tokens": float(self.record.get("imitator_tokens", (0, 0))[1]),
        }
        for role in AGENT_ROLES:  # the treatment's own roles' tokens (their sum is the run's tokens)
            used = (out.get("role_tokens") or {}).get(role, (0, 0))
            metrics |= {f"{role}_input_tokens": float(used[0]), f"{role}_output_tokens": float(used[1])}
        gap = a["gaps"].get(t)
        metrics["gap"] = float("nan") if gap is None else float(gap)  # NaN: no evaluable policy
        if t in a["costs"]:
            metrics["cost"] = float(a["costs"][t])
        if out.get("table"):
            matches = [out["table"].get(k) == v for k, v in self.scenario.table.items()]
            metrics |= {"table_exact": float(all(matches)), "rows_right": float(sum(matches))}
        return metrics


def make_env(config: dict[str, Any]) -> TrialEnv:
    return TrialEnv(**config)


class TreatmentAgent:
    """Treatment A, B or C of the lab: `act` runs the whole trial and its assessment and returns the record.
    `roles` (role -> Settings): `copilot` replaces `settings`, `judge` judges B and C, `imitator` plays the
    manager (offline settings: the offline imitator)."""

    def __init__(
        self, treatment: str, config: dict[str, Any], settings: Settings, roles: dict[str, Settings] | None = None
    ) -> None:
        if treatment not in TREATMENTS:
            raise SpecError("agents.treatment", f"unknown treatment {treatment!r}; use one of A, B, C")
        self.roles = dict(roles or {})
        self.treatment, self.settings = treatment, self.roles.get("copilot", settings)
        self.lab = _lab_config(config.get("lab") or {})
        self.scenario = Scenario.from_dict(config["scenario"])
        self.index = int(config.get("index", 0))
        self.name = f"treatment {treatment}"
        self.usage = Usage()
        self.last_note = ""

    def reset(self, seed: int | None) -> None:
        self.usage = Usage()

    def _imitator(self) -> Any:
        role = self.roles.get("imitator")
        if role is None:
            return make_imitator(self.lab, self.scenario, self.index, self.settings)
        if role.provider == "offline":
            noise = ImitatorNoise.scaled(self.lab.noise)
            return OfflineImitator(self.scenario, noise, seed=self.lab.seed * 100_003 + self.index)
        return LLMImitator(self.scenario, role)

    def act(self, observation: Any) -> dict[str, Any]:
        lab, s, settings = self.lab, self.scenario, self.settings
        optimizer = CachedOptimizer(lab.families, lab.capacity_basis)
        judge = LLMJudge(self.roles["judge"]) if "judge" in self.roles else None
        imitator = None
        if self.treatment == "A":
            imitator = self._imitator()
            outcome = run_treatment_a(
                s, imitator, settings, config=lab.copilot(), optimizer=optimizer, max_turns=lab.max_turns
            )
        elif self.treatment == "B":
            imitator = self._imitator()
            outcome = run_treatment_b(s, imitator, settings, judge=judge, max_turns=lab.max_turns)
        else:
            outcome = run_treatment_c(s, settings, judge=judge)
        assessment = assess(s, {self.treatment: outcome}, optimizer, lab.assessment())
        self.usage = outcome.usage
        self.last_note = f"{outcome.status}: {outcome.policy_text[:200]}"
        used = getattr(imitator, "usage", None) or Usage()  # the environment-side role's tokens
        return {
            "treatment": self.treatment,
            "outcome": outcome.summary()
            | {"transcript": [list(x) for x in outcome.transcript], "policy_spec": _spec(outcome, lab.capacity_basis)},
            "assessment": assessment.to_dict(),
            "imitator_tokens": [used.input_tokens, used.output_tokens],
        }


def _spec(outcome: Any, capacity_basis: str) -> dict[str, Any] | None:
    """The JSON spec of the outcome's policy (None when there is none or it has no spec, e.g. a DQN); a DP
    policy's spec names the lab's capacity basis, which it was solved on."""
    if outcome.policy is None:
        return None
    try:
        return spec_of(outcome.policy, outcome.table, capacity_basis)
    except SpecError:
        return None


def policy_of(spec: dict[str, Any] | None) -> Any:
    """The simulator policy of a recorded spec (a DP table policy is solved again), or None."""
    return policy_from_spec(spec) if spec else None


def check_agents(agents: list[dict[str, Any]], env: dict[str, Any]) -> None:
    """Refuse, before any cell exists, an agent the lab cannot run: its name must be its treatment (the report
    rebuilds the trials by it), and B and C are LLM agents (offline, nothing is substituted for them)."""
    for agent in agents:
        name, treatment = agent.get("name"), str(agent.get("treatment", "")).strip().upper()
        if treatment not in TREATMENTS or name != treatment:
            raise SpecError(
                f"agents.{name}.treatment", "name each agent after its treatment: A, B or C (treatment = name)"
            )
        copilot = (agent.get("roles") or {}).get("copilot") or {}
        llm_role = bool(copilot) and copilot.get("provider") not in (None, "offline")
        if treatment in ("B", "C") and agent.get("kind") != "llm" and not llm_role:
            raise SpecError(
                f"agents.{name}.kind",
                f'treatment {treatment} is an LLM alone: use kind = "llm" with a provider and model (offline, '
                "it is not run and nothing is substituted)",
            )



AGENT_ROLES = ("copilot", "judge")  # recorded apart (`copilot_*`/`judge_*`): each priced at its own model
ENV_ROLES = ("imitator",)  # the manager: its tokens are the cell's metrics (core.experiments.costs)
ROLES = AGENT_ROLES + ENV_ROLES
ROLE_DEFAULTS = {"judge": "copilot", "imitator": "copilot"}  # an unnamed judge or LLM imitator: the consultant's model


def make_agent(
    agent: dict[str, Any], config: dict[str, Any], settings: Settings, roles: dict[str, Settings] | None = None
) -> TreatmentAgent:
    for role in roles or {}:
        if role not in ROLES:
            raise SpecError(f"agents.{agent.get('name')}.roles.{role}", f"the lab's roles are {', '.join(ROLES)}")
    return TreatmentAgent(str(agent.get("treatment", "")).strip().upper(), config, settings, roles)


def llm_calls(agent: dict[str, Any], config: dict[str, Any], max_steps: int | None) -> CallEstimate | None:
    """The dry-run estimate of one cell (`experiment run --dry-run`), an upper bound under stated assumptions:
    C makes 2 calls (the consultant, the judge); B runs to the turn limit (the judge never says Yes), each turn
    the consultant, the judge and — when the imitator is an LLM — the imitator; every reply is
    `DEFAULT_OUTPUT_TOKENS` long, the offline imitator's too. Input tokens are what those calls send (system
    prompt and history) by `estimate_tokens`. A (the Copilot's conversation): `core.inventory.lab.estimate`, its
    real requests under a stated assumed reply, with an upper bound on calls."""
    lab = _lab_config(config.get("lab") or {})
    scenario = Scenario.from_dict(config["scenario"])
    roles = dict(agent.get("roles") or {})
    treatment = str(agent.get("treatment", "")).strip().upper()
    out = DEFAULT_OUTPUT_TOKENS
    reply = out  # the tokens of one reply, by the assumption (4 characters a token)
    if treatment == "C":
        csv = f"Business parameters (extracted_params.csv):\n{scenario.params_csv()}"
        sent = estimate_tokens(PARAMETER_PROMPT) + estimate_tokens(csv) + estimate_tokens(JUDGE_PROMPT) + reply
        return CallEstimate(2, sent, out)
    if treatment == "A":
        from core.inventory.lab.estimate import estimate_a

        return estimate_a(agent, config, lab)
    if treatment != "B":
        return None
    imitator = roles.get("imitator")
    llm_imitator = (imitator is not None and imitator.get("provider") != "offline") or (
        imitator is None and lab.imitator == "llm"
    )
    turns = lab.max_turns
    opening = llm_opening(scenario) if llm_imitator else make_imitator(lab, scenario, 0, Settings()).opening()
    consultant = sum(
        estimate_tokens(INTERACTIVE_PROMPT) + estimate_tokens(opening) + (k - 1) * 2 * reply for k in range(1, turns + 1)
    )
    judge = turns * (estimate_tokens(JUDGE_PROMPT) + reply)
    if not llm_imitator:
        return CallEstimate(2 * turns, consultant + judge, out)
    persona = sum(estimate_tokens(persona_prompt(scenario)) + (2 * k - 1) * reply for k in range(1, turns + 1))
    return CallEstimate(3 * turns, consultant + judge + persona, out, roles={"imitator": (turns, persona)})


def metrics(result: RolloutResult, env: TrialEnv) -> dict[str, float]:
    return env.episode_metrics()


def artifacts(env: TrialEnv, agent: TreatmentAgent, record: Any) -> dict[str, bytes]:
    """The trial record, from which the lab report is rebuilt; the conversation also becomes the cell run's
    messages (manager: user, consultant: assistant), so Run history shows it."""
    if not env.record:
        return {}
    for who, text in env.record["outcome"].get("transcript", ()):
        record.messages.append(("user" if who == "manager" else "assistant", str(text), None))
    return {TRIAL_ARTIFACT: json.dumps(env.record).encode()}
