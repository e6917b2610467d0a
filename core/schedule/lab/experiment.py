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
"""

from __future__ import annotations

import threading
from typing import Any

from core.errors import SpecError
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import DecisionProfile, Feedback, Style
from core.schedule.lab.env import ConversationEnv, OptimizerAgent
from core.schedule.lab.llm_decision import DecisionAgentSpec
from core.schedule.lab.optimization_agents import OptimizerSpec
from core.schedule.lab.utilities import utility_by_key, utility_set

_LOCAL = threading.local()
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


def make_env(config: dict[str, Any]) -> ConversationEnv:
    profile = DecisionProfile(
        utility_by_key(config["utility"]), Style(config["style"]), Feedback(config["feedback"])
    )
    decision = DecisionAgentSpec.from_config(config.get("decision"))
    env = ConversationEnv(
        profile,
        max_turns=int(config.get("max_turns", 20)),
        decision=decision,
        settings=decision.settings() if decision.kind == "llm" else None,
    )
    _LOCAL.env = env
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
    kind = DecisionAgentSpec.from_config(env_config.get("decision")).kind
    for agent in agents:
        problem = _problem(agent, kind)
        if problem is not None:
            raise SpecError(f"agents.{agent.get('name', '?')}.design", problem)


ROLES = ("optimizer",)  # the roles a spec may name (the decision agents are the environment's: [env] decision)


def make_agent(
    agent_spec: dict[str, Any], config: dict[str, Any], settings: Any = None, roles: dict[str, Any] | None = None
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
    return OptimizerAgent(spec.factory(settings), f"{spec.label} / {paradigm.value}")


def metrics(result: Any, env: ConversationEnv) -> dict[str, float]:
    return {k: float(v) for k, v in env.episode_metrics().items()}
