"""Experiment adapter for the School Scheduling lab (core/experiments): one instance per decision agent.

env config: {"utilities": "all" | [keys] | N (first N), "unique": false | true (the paper's strict tie rule:
the 92 utilities p001, … whose target is the only maximiser over all of S), "styles": [...], "feedbacks": [...],
"max_turns": 20,
"decision": "offline" | {kind = "llm", provider, model, template = "auto"}} — the decision agents: the offline
stand-ins (default) or LLM decision agents, whose key comes from the environment (ANTHROPIC_API_KEY /
OPENAI_API_KEY or OPENAI_BASE_URL, also in the workers); without it the experiment is refused before any cell
runs (nothing is substituted).
agent spec: {"design": "T-P-P" | "T-P-P-paper" | "C-P-P" | "C-P-R" | "C-N-R", "paradigm": "conversation" |
"one_shot" | "aware_one_shot" | "default"} (`OptimizerSpec`). Offline agents: T-P-P only (labelled offline in
reports); the other designs and LLM T-P-P are `kind = "llm"` agents (refused without credentials). C-N-R is
refused under `default` and `aware_one_shot` and with offline decision agents (see OptimizerSpec).
Roles (core.llm.roles): `optimizer` (an LLM optimization agent's model) and `decision` (the decision agents'
model, an environment-side role: `make_env` gets it, with temperature and seed; "offline:NAME" names the
offline stand-ins; the template stays `[env] decision.template`). `[env] decision = {kind = "llm", provider,
model}` is an alias of the role `decision` for every agent (an agent's own role wins). Tokens per role (the
shape of `core.experiments.costs.role_token_metrics`): the decision agents' are the cell's metrics
`decision_input_tokens`/`decision_output_tokens` (environment-side), an LLM optimization agent's
`optimizer_input_tokens`/`optimizer_output_tokens` (agent-side, `AGENT_ROLES`: the run's tokens); each is
priced at its role's model. An offline optimization agent records no `optimizer_*` fields.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.experiments.costs import CallEstimate, role_token_metrics
from core.llm.roles import RoleModel
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import DecisionProfile, Feedback, Style
from core.schedule.lab.env import ConversationEnv, OptimizerAgent
from core.schedule.lab.llm_decision import DecisionAgentSpec
from core.schedule.lab.optimization_agents import OptimizerSpec
from core.schedule.lab.utilities import utility_by_key, utility_set

_LOCAL = threading.local()
WORKBENCH = "school_scheduling"


def lab_spec(
    paradigms: Sequence[str],
    *,
    utilities: int | str | list[str] = "all",
    styles: Sequence[str] | None = None,
    feedbacks: Sequence[str] | None = None,
    max_turns: int = 20,
    seed: int = 0,
    name: str | None = None,
    decision: DecisionAgentSpec | None = None,
    roles: Mapping[str, RoleModel] | None = None,
    optimizer: OptimizerSpec | None = None,
    provider: str | None = None,
    model: str | None = None,
    unique: bool = False,
) -> dict[str, Any]:
    """The experiment spec (a dict for `core.experiments.spec.from_dict`) of one lab run: one agent per paradigm,
    every chosen utility × style × feedback an instance. Built here for the CLI (`schedule lab run`) and the
    page alike. `optimizer` is the offline T-P-P by default; an LLM design needs `provider` and `model`."""
    paradigms = list(paradigms) or [Paradigm.CONVERSATION.value]
    decision = decision or DecisionAgentSpec()
    optimizer = optimizer or OptimizerSpec()
    roles = dict(roles or {})
    who = f"role decision: {roles['decision'].label}" if "decision" in roles else decision.label
    named = {"roles": {r: m.as_dict() for r, m in roles.items()}} if roles else {}
    if optimizer.llm:
        slug = optimizer.design.lower().replace("-", "")
        base: dict[str, Any] = {
            "kind": "llm",
            "provider": provider,
            "model": model,
            "design": optimizer.design,
        }
        opt_who = f"{optimizer.label} over {provider}/{model}"
    else:
        slug, base = "tpp", {"kind": "offline", "design": "T-P-P"}
        opt_who = "the offline T-P-P (not an LLM)"
    return {
        "name": name or f"schedule_lab_{'_'.join(paradigms)}_{time.strftime('%Y%m%d_%H%M%S')}",
        "description": f"Decision agents: {who}. Optimization agent: {opt_who}.",
        "workbench": WORKBENCH,
        "seeds": [seed],
        "metric": "score",
        "goal": "max",
        "env": {
            "utilities": utilities,
            **({"unique": True} if unique else {}),
            "styles": list(styles or [s.value for s in Style]),
            "feedbacks": list(feedbacks or [f.value for f in Feedback]),
            "max_turns": max_turns,
            "decision": decision.as_config(),
        },
        "agents": [{"name": f"{slug}_{p}", **base, "paradigm": p} | named for p in paradigms],
    }


def driver_env(settings: Settings | None) -> dict[str, str]:
    """The variables that give an experiment driver the page's LLM (its key and URL, which may have been typed
    under Settings rather than exported); empty for the offline provider."""
    from core.config import PROVIDER_REGISTRY

    entry = PROVIDER_REGISTRY.get(settings.provider) if settings is not None else None
    if settings is None or entry is None:
        return {}
    pairs = ((entry.key_var, settings.api_key), (entry.url_var, settings.base_url))
    return {var: value for var, value in pairs if var and value}


PAPER_TABLES = "core.schedule.lab.tables"  # seed 003's Tables 2-5 for `experiment report`


def instances(spec_env_config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    chosen = spec_env_config.get("utilities", "all")
    unique = spec_env_config.get("unique", False)
    if not isinstance(unique, bool):
        raise SpecError("env.unique", "true (the paper's strict tie rule: p001, …) or false (default: u001, …)")
    utilities = utility_set(unique=unique)
    if chosen == "all":
        keys = [u.key for u in utilities]
    elif isinstance(chosen, int):
        if chosen < 1:
            raise SpecError("utilities", "need at least one utility")
        keys = [u.key for u in utilities[:chosen]]
    elif isinstance(chosen, list):
        keys = [utility_by_key(str(k)).key for k in chosen]
    else:
        raise SpecError("utilities", 'use "all", a count, or a list of keys')
    styles = [Style(s) for s in spec_env_config.get("styles", [s.value for s in Style])]
    feedbacks = [Feedback(f) for f in spec_env_config.get("feedbacks", [f.value for f in Feedback])]
    max_turns = int(spec_env_config.get("max_turns", 20))
    decision = DecisionAgentSpec.from_config(spec_env_config.get("decision"))
    decision.settings()  # an LLM decision agent without a key is refused here, before any cell runs
    return [
        (
            f"{k}-{s.value}-{f.value}",
            {
                "utility": k,
                "style": s.value,
                "feedback": f.value,
                "max_turns": max_turns,
                "decision": decision.as_config(),
            },
        )
        for k in keys
        for s in styles
        for f in feedbacks
    ]


def env_roles(env_config: dict[str, Any]) -> dict[str, RoleModel]:
    """The roles `[env]` names by alias: LLM decision agents in `[env] decision` are the role `decision`."""
    decision = DecisionAgentSpec.from_config(env_config.get("decision"))
    if decision.kind != "llm":
        return {}
    return {"decision": RoleModel(str(decision.provider), str(decision.model)).check("env.decision")}


def decision_of(config: dict[str, Any], role: Settings | None) -> tuple[DecisionAgentSpec, Settings | None]:
    """The decision agents of a cell and their settings: the role `decision` when named (offline: the stand-ins;
    the template from `[env] decision`), else `[env] decision`."""
    base = DecisionAgentSpec.from_config(config.get("decision"))
    if role is None:
        return base, (base.settings() if base.kind == "llm" else None)
    if role.provider == "offline":
        return DecisionAgentSpec(field="roles.decision"), None
    spec = DecisionAgentSpec(
        kind="llm", provider=role.provider, model=role.model, template=base.template, field="roles.decision"
    )
    return spec, role


def make_env(config: dict[str, Any], roles: dict[str, Settings] | None = None) -> ConversationEnv:
    profile = DecisionProfile(
        utility_by_key(config["utility"]), Style(config["style"]), Feedback(config["feedback"])
    )
    decision, settings = decision_of(config, (roles or {}).get("decision"))
    env = ConversationEnv(
        profile,
        max_turns=int(config.get("max_turns", 20)),
        decision=decision,
        settings=settings,
    )
    _LOCAL.env = env
    _LOCAL.optimizer = None
    return env


def _problem(agent_spec: dict[str, Any], decision_kind: str) -> str | None:
    """Why this optimization agent cannot run against `decision_kind` decision agents (None: it can)."""
    try:
        paradigm = Paradigm(agent_spec.get("paradigm", "conversation"))
    except ValueError as err:
        raise SpecError("paradigm", f"use one of {[p.value for p in Paradigm]}") from err
    spec = OptimizerSpec.from_agent_spec(agent_spec)
    for problem in (spec.paradigm_problem(paradigm), spec.decision_problem(decision_kind)):
        if problem is not None:
            return f"{spec.design} under {paradigm.value}: {problem}"
    return None


def check_agents(agents: list[dict[str, Any]], env_config: dict[str, Any]) -> None:
    """Refuse, before any cell runs, an agent seed 003 does not define in this set-up (e.g. C-N-R under
    `default`, or with offline decision agents), naming the agent."""
    default = DecisionAgentSpec.from_config(env_config.get("decision")).kind
    for agent in agents:
        role = (agent.get("roles") or {}).get("decision")
        kind = default if role is None else ("offline" if role.get("provider") == "offline" else "llm")
        problem = _problem(agent, kind)
        if problem is not None:
            raise SpecError(f"agents.{agent.get('name', '?')}.design", problem)


ENV_ROLES = ("decision",)  # the environment's side (make_env); its tokens are the cell's metrics
AGENT_ROLES = ("optimizer",)  # recorded apart (`optimizer_*` metrics, = the run's tokens): priced at its model
ROLES = (*AGENT_ROLES, *ENV_ROLES)  # the roles a spec may name


def make_agent(
    agent_spec: dict[str, Any],
    config: dict[str, Any],
    settings: Any = None,
    roles: dict[str, Any] | None = None,
) -> OptimizerAgent:
    """The optimization agent of a cell; `roles={"optimizer": Settings}` names an LLM agent's model instead of
    the agent's provider/model (refused on an offline agent: it has no model to set)."""
    if roles and "optimizer" in roles:
        if agent_spec.get("kind") != "llm":
            raise SpecError(
                f"agents.{agent_spec.get('name')}.roles.optimizer",
                'only an LLM optimization agent (kind = "llm") has a model to set',
            )
        settings = roles["optimizer"]
    try:
        paradigm = Paradigm(agent_spec.get("paradigm", "conversation"))
    except ValueError as err:
        raise SpecError("paradigm", f"use one of {[p.value for p in Paradigm]}") from err
    env = getattr(_LOCAL, "env", None)
    if env is None:
        raise SpecError("agent", "make_env must be called before make_agent in this worker")
    spec = OptimizerSpec.from_agent_spec(agent_spec)
    for problem in (spec.paradigm_problem(paradigm), spec.decision_problem(env.decision_spec.kind)):
        if problem is not None:
            raise SpecError("design", f"{spec.design} under {paradigm.value}: {problem}")
    env.paradigm = paradigm
    env.design = spec.design.upper()
    agent = OptimizerAgent(spec.factory(settings), f"{spec.label} / {paradigm.value}")
    _LOCAL.optimizer = agent if spec.llm else None  # an LLM's tokens are the role `optimizer`'s (`metrics`)
    return agent


def llm_calls(
    agent_spec: dict[str, Any], config: dict[str, Any], max_steps: int | None
) -> CallEstimate | None:
    """The dry-run estimate of one cell (`experiment run --dry-run`), built by `core.schedule.lab.estimate`: the
    cell's real requests (the optimization agent's, when it is an LLM, and the decision agents', when they are,
    as the role `decision`) under a stated assumed reply, in every paradigm, with the protocol's upper bound on
    calls. An offline optimization agent facing offline decision agents makes none."""
    from core.schedule.lab.estimate import estimate_cell

    roles = dict(agent_spec.get("roles") or {})
    decision = roles.get("decision")
    optimizer = roles.get("optimizer")
    decision_llm = decision is not None and decision.get("provider") != "offline"
    if agent_spec.get("kind") == "llm" or (optimizer is not None and optimizer.get("provider") != "offline"):
        return estimate_cell(agent_spec, config, max_steps, decision_llm)
    if not decision_llm:
        return CallEstimate(0, 0)
    return estimate_cell(agent_spec, config, max_steps, True, optimizer_llm=False)


def metrics(result: Any, env: ConversationEnv) -> dict[str, float]:
    """The environment's episode metrics, plus an LLM optimization agent's tokens as the role `optimizer`'s
    (`optimizer_input_tokens`/`optimizer_output_tokens`; an offline one records none)."""
    out = {k: float(v) for k, v in env.episode_metrics().items()}
    optimizer = getattr(_LOCAL, "optimizer", None)
    return out | (role_token_metrics("optimizer", optimizer.usage) if optimizer is not None else {})
