"""The lab protocol's experiment adapter: `inventory lab run` and the lab page run through `core/experiments`.

One cell is one treatment (an agent: A, B or C) on one scenario (an instance), so the experiment engine runs the
lab on its local pool or Ray, saves every cell as it finishes and resumes exactly the missing cells after a
crash. The spec's `[env]` holds `lab` (a `LabConfig` as a dict, `workers` left out) and, when the scenarios come
from a file, `scenarios` (their dicts); without them the scenarios are generated from `lab`.

Each cell is one `ManagerEnv` trial (`orca/InventoryManager-v0`) run turn by turn through the one rollout loop,
on the protocol's set-up (`make_env`: scenario i's offline imitator seeded `lab seed × 100,003 + i`, the
assessment on the lab's seed, Fig. 4's day numbering), with the treatment's agent of
`core.inventory.lab.experiment` (`CopilotAgent`, `LLMConsultant`). The environment assesses the policy on the
ground truth (common random numbers: the reference and the rules of thumb are the same in every cell of a
scenario); `artifacts` writes the trial record `trial.json` from the environment's record, from which
`lab.run_lab` rebuilds the `LabResult` and its report. Roles (core.llm.roles): `copilot` (A's extraction, B and
C's model), `judge` (the Table 14 judge) and `imitator` (the manager; environment-side: its tokens are the cell's
metrics `imitator_input_tokens`/`imitator_output_tokens`, priced at its model, or at the treatment's when the
lab's `imitator = "llm"` alias plays it with the treatment's settings).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, CallEstimate, estimate_tokens
from core.inventory.lab.config import LabConfig, make_imitator
from core.inventory.lab.env import ManagerEnv, policy_from_spec, spec_of
from core.inventory.lab.experiment import CopilotAgent, LLMConsultant
from core.inventory.lab.generator import Scenario, generate
from core.inventory.lab.imitator import llm_opening, persona_prompt
from core.inventory.lab.judge import JUDGE_PROMPT
from core.inventory.lab.treatments import INTERACTIVE_PROMPT, PARAMETER_PROMPT, TREATMENTS
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


def make_env(
    config: dict[str, Any], roles: dict[str, Settings] | None = None, settings: Settings | None = None
) -> ManagerEnv:
    """The cell's trial: a `ManagerEnv` on the protocol's set-up. The manager is the role `imitator` (offline
    settings: the offline imitator), else the lab's imitator: the offline one, or with `imitator = "llm"` the
    LLM persona on the treatment's model (the role `copilot`, else the agent's `settings`)."""
    lab = _lab_config(config.get("lab") or {})
    index = int(config.get("index", 0))
    roles = dict(roles or {})
    imitator = roles.get("imitator")
    if imitator is None and lab.imitator == "llm":
        imitator = roles.get("copilot", settings)
        if imitator is None or imitator.provider == "offline":
            raise SpecError("imitator", "the LLM imitator needs an LLM provider; use the offline imitator")
    return ManagerEnv(
        config["scenario"],
        noise=lab.noise,
        assessment_paths=lab.assessment_paths,
        optimizer_paths=lab.copilot_paths,
        families=lab.families,
        max_turns=lab.max_turns,
        capacity_basis=lab.capacity_basis,
        imitator_settings=imitator,
        imitator_seed=lab.seed * 100_003 + index,
        assessment_seed=lab.seed,
        day_numbering=lab.day_numbering,
    )


def _agent_config(config: dict[str, Any], lab: LabConfig) -> dict[str, Any]:
    """The treatment agents' settings (`core.inventory.lab.experiment`) on the protocol's set-up."""
    return {
        "scenario": config["scenario"],
        "optimizer_paths": lab.copilot_paths,
        "critic_paths": lab.critic_paths,
        "copilot_seed": lab.seed,
        "families": lab.families,
        "capacity_basis": lab.capacity_basis,
        "day_numbering": lab.day_numbering,
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
) -> CopilotAgent | LLMConsultant:
    """Treatment A, B or C as the trial's agent; `roles` (role -> Settings): `copilot` replaces `settings`,
    `judge` judges B and C (the `imitator` is the environment's)."""
    roles = dict(roles or {})
    for role in roles:
        if role not in ROLES:
            raise SpecError(f"agents.{agent.get('name')}.roles.{role}", f"the lab's roles are {', '.join(ROLES)}")
    treatment = str(agent.get("treatment", "")).strip().upper()
    if treatment not in TREATMENTS:
        raise SpecError("agents.treatment", f"unknown treatment {treatment!r}; use one of A, B, C")
    lab = _lab_config(config.get("lab") or {})
    settings = roles.get("copilot", settings)
    scenario = Scenario.from_dict(config["scenario"])
    if treatment == "A":
        return CopilotAgent(settings, _agent_config(config, lab), title=f"Lab {scenario.key} · treatment A")
    return LLMConsultant(settings, config, with_parameters=treatment == "C", judge=roles.get("judge"))


def llm_calls(agent: dict[str, Any], config: dict[str, Any], max_steps: int | None) -> CallEstimate | None:
    """The dry-run estimate of one cell (`experiment run --dry-run`), an upper bound under stated assumptions:
    C makes 2 calls (the consultant, the judge); B runs to the turn limit (the judge never says Yes), each turn
    the consultant, the judge and — when the imitator is an LLM — the imitator (but after the last turn); every reply is
    `DEFAULT_OUTPUT_TOKENS` long, the offline imitator's too. Input tokens are what those calls send (system
    prompt and history) by `estimate_tokens`. A (the Copilot's conversation): `core.inventory.lab.estimate`, its
    real requests under a stated assumed reply, with an upper bound on calls. Every call is listed under its role
    (`copilot`: the consultant, `judge`, `imitator`; the metrics' names), so each is priced at its own model."""
    lab = _lab_config(config.get("lab") or {})
    scenario = Scenario.from_dict(config["scenario"])
    roles = dict(agent.get("roles") or {})
    treatment = str(agent.get("treatment", "")).strip().upper()
    out = DEFAULT_OUTPUT_TOKENS
    reply = out  # the tokens of one reply, by the assumption (4 characters a token)
    if treatment == "C":
        csv = f"Business parameters (extracted_params.csv):\n{scenario.params_csv()}"
        consultant, judge = estimate_tokens(PARAMETER_PROMPT) + estimate_tokens(csv), estimate_tokens(JUDGE_PROMPT) + reply
        return CallEstimate(2, consultant + judge, out, roles={"copilot": (1, consultant), "judge": (1, judge)})
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
    own = {"copilot": (turns, consultant), "judge": (turns, judge)}
    if not llm_imitator:
        return CallEstimate(2 * turns, consultant + judge, out, roles=own)
    # the manager answers every unjudged message but the last: the trial ends at the turn limit
    persona = sum(estimate_tokens(persona_prompt(scenario)) + (2 * k - 1) * reply for k in range(1, turns))
    roles = own | {"imitator": (turns - 1, persona)}
    return CallEstimate(3 * turns - 1, consultant + judge + persona, out, roles=roles)


def trial_record(env: ManagerEnv, treatment: str | None = None, agent: Any = None) -> dict[str, Any]:
    """The trial record `{treatment, outcome, assessment, imitator_tokens}` of a scored `ManagerEnv` trial (empty
    before it is scored), under the treatment's name; with the `agent`, its judge-call count and the messages the
    manager did not see (A's greeting first; C's parameter file in place of the unread opening)."""
    outcome, assessment = env.outcome, env.assessment
    if outcome is None or assessment is None:
        return {}
    name = treatment or env.assessment_name
    transcript = list(outcome.transcript)
    if getattr(agent, "greeting", ""):
        transcript.insert(0, ("consultant", agent.greeting))
    if getattr(agent, "with_parameters", False) and transcript:
        transcript[0] = ("manager", f"Business parameters (extracted_params.csv):\n{env.scenario.params_csv()}")
    outcome = replace(
        outcome, treatment=name, transcript=tuple(transcript), judge_calls=int(getattr(agent, "judge_calls", 0))
    )
    a = assessment.to_dict()
    for part in ("costs", "ses", "policies", "gaps", "excluded"):
        a[part] = {(name if k == env.assessment_name else k): v for k, v in a[part].items()}
    used = outcome.tokens("imitator")
    return {
        "treatment": name,
        "outcome": outcome.summary()
        | {"transcript": [list(x) for x in transcript], "policy_spec": _spec(outcome, env.capacity_basis.value)},
        "assessment": a,
        "imitator_tokens": [used.input_tokens, used.output_tokens],
    }


def metrics(result: RolloutResult, env: ManagerEnv) -> dict[str, float]:
    """The cell's metrics: gap (NaN without an evaluable policy), cost, reference_cost, evaluable, turns,
    dp_reference, the tokens (the run's, and per role) and, with a table, table_exact and rows_right."""
    record = trial_record(env)
    if not record:
        return {}
    t, out, a = record["treatment"], record["outcome"], record["assessment"]
    metrics = {
        "evaluable": float(t in a["gaps"]),
        "turns": float(out["turns"]),
        "reference_cost": float(a["costs"]["reference"]),
        "dp_reference": float(a["dp_optimal_cost"] is not None),
        "input_tokens": float(out["input_tokens"]),
        "output_tokens": float(out["output_tokens"]),
        "imitator_input_tokens": float(record["imitator_tokens"][0]),
        "imitator_output_tokens": float(record["imitator_tokens"][1]),
    }
    for role in AGENT_ROLES:  # the treatment's own roles' tokens (their sum is the run's tokens)
        used = (out.get("role_tokens") or {}).get(role, (0, 0))
        metrics |= {f"{role}_input_tokens": float(used[0]), f"{role}_output_tokens": float(used[1])}
    gap = a["gaps"].get(t)
    metrics["gap"] = float("nan") if gap is None else float(gap)  # NaN: no evaluable policy
    if t in a["costs"]:
        metrics["cost"] = float(a["costs"][t])
    if out.get("table"):
        matches = [out["table"].get(k) == v for k, v in env.scenario.table.items()]
        metrics |= {"table_exact": float(all(matches)), "rows_right": float(sum(matches))}
    return metrics


def artifacts(env: ManagerEnv, agent: Any, record: Any) -> dict[str, bytes]:
    """The trial record, from which the lab report is rebuilt; the conversation also becomes the cell run's
    messages (manager: user, consultant: assistant), so Run history shows it."""
    trial = trial_record(env, getattr(agent, "treatment", None), agent)
    if not trial:
        return {}
    for who, text in trial["outcome"].get("transcript", ()):
        record.messages.append(("user" if who == "manager" else "assistant", str(text), None))
    return {TRIAL_ARTIFACT: json.dumps(trial).encode()}
