"""Experiment adapter for RetailBench: instances are (preset, days); agents are the offline policies
(`agent = "oracle"` in the spec's agent table, else the agent's name).

The privileged oracle and the baselines plan from the environment's simulator, so `make_agent` binds to the
environment this worker made last with `make_env` (an experiment cell makes its env, then its agent, then
rolls out, in one process).
"""

from __future__ import annotations

import threading
from typing import Any

from core.errors import SpecError
from core.retail.agents import AGENTS, PolicyAgent
from core.sandbox import run_code
from solvers.retail.config import preset as resolve_preset
from solvers.retail.env import RetailBenchEnv

_LOCAL = threading.local()


def instances(spec_env_config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """{"presets": [...] or "preset": name, "days": 180} -> [(key, {"preset", "days"})]."""
    names = spec_env_config.get("presets") or [spec_env_config.get("preset", "hard_v2")]
    days = int(spec_env_config.get("days", 180))
    if days < 1:
        raise SpecError("days", "must be at least 1")
    out = []
    for name in names:
        resolved = resolve_preset(str(name)).name
        out.append((f"{resolved}-{days}d", {"preset": resolved, "days": days}))
    return out


def make_env(config: dict[str, Any]) -> RetailBenchEnv:
    env = RetailBenchEnv(config["preset"], max_days=int(config["days"]), code_runner=run_code)
    _LOCAL.env = env
    return env


def make_agent(agent_spec: dict[str, Any], config: dict[str, Any], settings: Any = None) -> PolicyAgent:
    if agent_spec.get("kind", "offline") != "offline":
        raise SpecError("agents.kind", "RetailBench LLM agents come with the agents issue; use offline agents")
    name = agent_spec.get("agent") or agent_spec.get("policy") or agent_spec.get("name")
    if name not in AGENTS:
        raise SpecError("agent", f"RetailBench offline agents are {', '.join(AGENTS)}; got {name!r}")
    env = getattr(_LOCAL, "env", None)
    if env is None:
        raise SpecError("agent", "make_env must be called before make_agent in this worker")
    return PolicyAgent(str(name), env)


def metrics(result: Any, env: RetailBenchEnv) -> dict[str, float]:
    """Table 1 numbers of the episode (numeric values only)."""
    values = dict(getattr(result, "metrics", {}) or env.episode_metrics())
    return {k: float(v) for k, v in values.items() if isinstance(v, int | float)}
