"""Experiment adapter for RetailBench: instances are (preset, catalog, days); agents are the offline policies
(`agent = "oracle"` in the spec's agent table, else the agent's name) or the LLM frameworks.

Each cell's run carries the retail record tables, the evaluation ground truth and the replay's day index
(`tables`, `artifacts`): the driver commits them with the run and the cell, so experiment runs open in the
replay page with their daily series and diagnostics.

The oracle (the paper reference policy, privileged), the full-information reference and the baselines plan from the environment's simulator, so `make_agent` binds to the
environment this worker made last with `make_env` (an experiment cell makes its env, then its agent, then
rolls out, in one process).
"""

from __future__ import annotations

import threading
from typing import Any

from core.errors import SpecError
from core.experiments.costs import role_token_metrics
from core.llm.types import Usage
from core.sandbox import run_code
from solvers.retail.config import preset as resolve_preset
from solvers.retail.env import RetailBenchEnv

_LOCAL = threading.local()


def instances(spec_env_config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """{"presets": [...] or "preset": name, "catalogs": [...] or "catalog": name, "days": 180} ->
    [(key, {"preset", "days"} + "catalog" when not the default)]; the key names a non-default catalog."""
    from solvers.retail.catalogs import DEFAULT_CATALOG, variant

    names = spec_env_config.get("presets") or [spec_env_config.get("preset", "hard_v2")]
    catalogs = spec_env_config.get("catalogs") or [spec_env_config.get("catalog", DEFAULT_CATALOG)]
    days = int(spec_env_config.get("days", 180))
    if days < 1:
        raise SpecError("days", "must be at least 1")
    out = []
    for name in names:
        resolved = resolve_preset(str(name)).name
        for catalog in catalogs:
            cat = variant(str(catalog)).name
            if cat == DEFAULT_CATALOG:
                out.append((f"{resolved}-{days}d", {"preset": resolved, "days": days}))
            else:
                out.append((f"{resolved}-{cat}-{days}d", {"preset": resolved, "days": days, "catalog": cat}))
    return out


def make_env(config: dict[str, Any], roles: dict[str, Any] | None = None) -> RetailBenchEnv:
    """The cell's environment; the role `judge` (its settings) judges the macro strategies at the cell's end."""
    env = RetailBenchEnv(config["preset"], max_days=int(config["days"]), code_runner=run_code,
                         catalog=config.get("catalog"))  # fmt: skip
    _LOCAL.env = env
    _LOCAL.judge = (roles or {}).get("judge")
    _LOCAL.agent = None
    return env


def agent_name(agent_spec: dict[str, Any]) -> str | None:
    """The RetailBench agent a spec's agent table names (an LLM agent: its framework)."""
    if agent_spec.get("kind") == "llm":
        return agent_spec.get("framework")
    return agent_spec.get("agent") or agent_spec.get("policy") or agent_spec.get("name")


RETAIL_ROLES = ("agent",)
AGENT_ROLES = RETAIL_ROLES  # recorded apart (`agent_*` metrics, = the run's tokens): priced at the role's model
ENV_ROLES = ("judge",)  # the macro-strategy judge, run by `metrics` at the cell's end; tokens in the metrics
ROLES = RETAIL_ROLES + ENV_ROLES  # the roles a spec may name (the driver refuses others before any cell runs)


def make_agent(
    agent_spec: dict[str, Any], config: dict[str, Any], settings: Any = None, roles: dict[str, Any] | None = None
) -> Any:
    """Offline agents by name (oracle, baselines, hybrid, store_manager); LLM frameworks (react, reflection,
    plan_and_act, evolving_strategy) through the experiment's LLM settings — never an offline stand-in.

    Per-role models (`roles=`, core.llm.roles): `agent` (the framework's model, instead of the agent's
    provider/model) and `judge` (environment-side, see `make_env`: seed 001's macro-strategy judge, which
    scores an Evolving-Strategy run's adjacent days at the end of its cell)."""
    from core.retail.frameworks import FRAMEWORKS
    from core.retail.run import OFFLINE_AGENTS, make_retail_agent

    for role in roles or {}:
        if role not in ROLES:
            raise SpecError(
                f"agents.{agent_spec.get('name')}.roles.{role}", f"a RetailBench cell's roles are {', '.join(ROLES)}"
            )
    if roles and "agent" in roles:
        settings = roles["agent"]
    name = agent_name(agent_spec)
    if agent_spec.get("kind") == "llm" and name not in FRAMEWORKS:
        raise SpecError(
            "agents.framework", f"RetailBench LLM agents need a framework: {', '.join(FRAMEWORKS)}"
        )
    if name not in (*OFFLINE_AGENTS, *FRAMEWORKS):
        raise SpecError(
            "agent",
            f"RetailBench offline agents are {', '.join(OFFLINE_AGENTS)}; LLM frameworks are "
            f"{', '.join(FRAMEWORKS)}; got {name!r}",
        )
    env = getattr(_LOCAL, "env", None)
    if env is None:
        raise SpecError("agent", "make_env must be called before make_agent in this worker")
    model = None
    if name in FRAMEWORKS:
        from core.llm.factory import make_chat_model

        if settings is None or getattr(settings, "provider", "offline") == "offline":
            raise SpecError("agent", f"RetailBench LLM agents ({name}) need an LLM provider with a key")
        model = make_chat_model(settings)
    options: dict[str, Any] = {k: int(agent_spec[k]) for k in ("round_cap", "fail_limit", "max_rounds")
                               if name == "plan_and_act" and k in agent_spec}  # fmt: skip
    if name in FRAMEWORKS:
        from core.retail.paper import harness_of

        options["harness"] = harness_of(agent_spec.get("harness"))
    agent = make_retail_agent(
        str(name), env, model=model, day_cap=int(agent_spec.get("day_cap", 50)), **options
    )
    _LOCAL.agent = agent
    return agent


def llm_calls(agent_spec: dict[str, Any], config: dict[str, Any], max_steps: int | None) -> Any:
    """The dry-run estimate of one cell (`experiment run --dry-run`): an LLM framework agent's requests under a
    stated assumed behaviour, and the judge's when the role `judge` is an LLM (`core.retail.estimate`); an
    offline agent makes none (the judge only scores an Evolving-Strategy agent's strategies)."""
    from core.experiments.costs import CallEstimate
    from core.retail.estimate import estimate_cell
    from core.retail.frameworks import FRAMEWORKS

    framework = agent_name(agent_spec)
    if framework not in FRAMEWORKS:
        return CallEstimate(0, 0)
    judge = (agent_spec.get("roles") or {}).get("judge")
    judge_llm = judge is not None and judge.get("provider") != "offline"
    return estimate_cell({**agent_spec, "framework": framework}, config, max_steps, judge_llm)


def tables(env: RetailBenchEnv) -> dict[str, Any]:
    """The cell's RetailBench record tables and evaluation ground truth, written with its run by the driver."""
    from core.retail.run import run_tables

    if env.sim is None:
        return {}
    return run_tables(env.sim)


def artifacts(env: RetailBenchEnv, agent: Any, record: Any) -> dict[str, bytes]:
    """The replay's day index (and an Evolving-Strategy agent's strategy log) as run artifacts."""
    from core.retail.run import run_artifacts

    return run_artifacts(agent, record.transitions)


def metrics(result: Any, env: RetailBenchEnv) -> dict[str, float]:
    """Table 1 numbers of the episode (numeric values only), tokens per role: an LLM framework agent's (every
    request of its days, its reflection, plan and strategy calls included) as the role `agent`'s
    (`agent_input_tokens`/`agent_output_tokens`: the run's tokens; an offline agent records none), and the
    judge's (`judged`)."""
    values = dict(getattr(result, "metrics", {}) or env.episode_metrics())
    out = {k: float(v) for k, v in values.items() if isinstance(v, int | float)}
    agent = getattr(_LOCAL, "agent", None)
    return out | agent_tokens(agent) | judged(agent, getattr(_LOCAL, "judge", None))


def agent_tokens(agent: Any) -> dict[str, float]:
    """An LLM framework agent's tokens as the role `agent`'s metrics (`role_token_metrics`); none for an offline
    agent."""
    from core.retail.frameworks import FRAMEWORKS

    usage = getattr(agent, "usage", None)
    if getattr(agent, "framework", None) not in FRAMEWORKS or not isinstance(usage, Usage):
        return {}
    return role_token_metrics("agent", usage)


def judged(agent: Any, judge: Any) -> dict[str, float]:
    """With the role `judge` (LLM settings) and an agent that kept a strategy log (Evolving Strategy): the macro
    instability of its adjacent days as `macro_std_diff`, `macro_mac`, `macro_tv`, the pairs left unscored and
    the judge's tokens (`judge_input_tokens`, `judge_output_tokens`: priced at the judge's model). Else
    nothing (an offline judge is no judge: the macro level needs an LLM)."""
    log = getattr(agent, "strategy_log", None)
    if judge is None or getattr(judge, "provider", "offline") == "offline" or not log:
        return {}
    from core.llm.factory import make_chat_model
    from core.retail.diagnostics import strategy_instability
    from core.retail.judge import MacroJudge

    macro_judge = MacroJudge(make_chat_model(judge))
    result = strategy_instability(log, macro_judge=macro_judge)
    out = {f"macro_{k}": float(v) for k, v in result["macro"].items() if isinstance(v, int | float)}
    unscored = {"macro_unscored": float(result.get("macro_unscored", 0))}
    return out | unscored | role_token_metrics("judge", macro_judge.usage)
