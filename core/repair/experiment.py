"""The LP Repair Lab's adapter for the experiment layer (`core/experiments`): agents x problems x seeds.

Spec env config keys (all optional): `dataset_seed` (2), `dataset` (path), `mix` ("single" | "multi": error
types per source instance), `split` ("test"), `types` (list of ME-k), `limit` (problems per type),
`protected` (True), `extended` (False), `track` ("standard" | "model-only": whether the agent sees the
problem statement). Agent tables: `kind = "offline"`
with `agent = "offline" | "greedy" | "do-nothing" | "ground-truth"` (default: the agent's name), or
`kind = "llm"` with `format = "think" | "json"` (the run's Settings; offline settings are refused, no stand-in).
Example spec: `tests/core/repair/lp_repair_spec.toml`.
"""

from __future__ import annotations

import functools
from typing import Any

from core.agent import Agent
from core.errors import SpecError
from core.repair.data import find, load_or_generate, select
from core.repair.evaluate import OFFLINE_AGENTS, make_offline_agent
from solvers.lp.dataset import Mix, Problem
from solvers.lp.env import LPRepairEnv, Track


@functools.lru_cache(maxsize=4)
def _dataset(seed: int, path: str | None, mix: str = "single") -> tuple[Problem, ...]:
    try:
        chosen = Mix(mix)
    except ValueError:
        raise SpecError("mix", f"use single or multi; got {mix!r}") from None
    return tuple(load_or_generate(seed, path, mix=chosen))


def _problem(config: dict[str, Any]) -> Problem:
    return find(
        list(
            _dataset(int(config.get("dataset_seed", 2)), config.get("dataset"), config.get("mix", "single"))
        ),
        config["problem_id"],
    )


def instances(spec_env_config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One cell configuration per selected problem, keyed by problem id."""
    cfg = dict(spec_env_config or {})
    seed, path, mix = int(cfg.get("dataset_seed", 2)), cfg.get("dataset"), str(cfg.get("mix", "single"))
    chosen = select(
        list(_dataset(seed, path, mix)),
        split=cfg.get("split", "test"),
        types=cfg.get("types"),
        limit=cfg.get("limit"),
    )
    base = {
        "dataset_seed": seed,
        "dataset": path,
        "mix": mix,
        "protected": bool(cfg.get("protected", True)),
        "extended": bool(cfg.get("extended", False)),
        "track": _track(cfg.get("track", "standard")).value,
    }
    return [(p.id, {**base, "problem_id": p.id, "error_type": p.error_type.value}) for p in chosen]


def _track(value: Any) -> Track:
    try:
        return Track(str(value))
    except ValueError:
        raise SpecError("track", f"use standard or model-only; got {value!r}") from None


def make_env(config: dict[str, Any]) -> LPRepairEnv:
    return LPRepairEnv(
        [_problem(config)],
        protected=config["protected"],
        extended=config["extended"],
        track=_track(config.get("track", "standard")),
    )


def make_agent(agent_spec: dict[str, Any], config: dict[str, Any], settings: Any) -> Agent:
    """`kind = "llm"` (format from `format`), else the offline agent named by `agent` (or the agent's name)."""
    kind = str(agent_spec.get("kind", "offline"))
    if kind == "llm":
        from core.repair.llm_agent import make_llm_agent

        return make_llm_agent(settings, fmt=agent_spec.get("format", "think"), extended=config["extended"])
    which = agent_spec.get("agent") or (kind if kind in OFFLINE_AGENTS else agent_spec.get("name"))
    if which not in OFFLINE_AGENTS:
        raise SpecError("agent", f"LP Repair offline agents are {', '.join(OFFLINE_AGENTS)}; got {which!r}")
    return make_offline_agent(
        str(which), _problem(config), protected=config["protected"], extended=config["extended"]
    )


def metrics(result: Any, env: LPRepairEnv) -> dict[str, float]:
    """Numeric per-cell metrics: recovered, rational (paper), rational_strict, exact_repair as 0-1, steps,
    reward, RR@k ingredients, diagnosis P/R."""
    m = dict(result.metrics)
    out = {
        "recovered": float(bool(m.get("recovered"))),
        "rational": float(bool(m.get("rational"))),
        "rational_strict": float(bool(m.get("rational_strict"))),
        "exact_repair": float(bool(m.get("exact_repair"))),
        "steps": float(m.get("steps", 0)),
        "reward": float(m.get("reward", 0.0)),
        "loops": float(m.get("loops", 0)),
    }
    first = m.get("first_optimal_step")
    for k in (5, 10, 15, 20):
        out[f"recovered_at_{k}"] = float(bool(m.get("recovered")) and first is not None and first <= k)
    for key in ("diagnosis_recall", "diagnosis_precision"):
        if m.get(key) is not None:
            out[key] = float(m[key])
    return out
