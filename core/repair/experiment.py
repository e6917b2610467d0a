"""The LP Repair Lab's adapter for the experiment layer (`core/experiments`): agents x problems x seeds.

Spec env config keys (all optional): `dataset_seed` (2), `dataset` (path), `mix` ("single" | "multi": error
types per source instance), `split` ("test"), `types` (list of ME-k), `limit` (problems per type),
`protected` (True), `extended` (False), `track` ("standard" | "model-only": whether the agent sees the
problem statement; "real": Netlib's infeasible models, one cell per model, `limit` = the first N models, no
data set), `feedback_judge` ("paper" | "strict": the judge Phase II's feedback and the reward follow).
Agent tables: `kind = "offline"`
with `agent = "offline" | "greedy" | "do-nothing" | "ground-truth" | "diagnostician"` (default: the agent's
name; `offline` is the statement-diff reference, an upper bound of what the statement alone reveals; no
ground-truth on `real`), or
`kind = "llm"` with `format = "think" | "json"` (the run's Settings; offline settings are refused, no stand-in).
Real-track cells report `recovered` (verified feasible), `fewest` (at most the own-model tool's fewest
changes), `changed`, `reference_fewest`, `steps`, `reward`.
Example spec: `tests/core/repair/lp_repair_spec.toml`.
"""

from __future__ import annotations

import functools
from typing import Any

from core.agent import Agent
from core.errors import SpecError
from core.repair.data import find, load_or_generate, select
from core.repair.evaluate import OFFLINE_AGENTS, REAL_AGENTS, make_offline_agent
from solvers.lp.dataset import Mix, Problem
from solvers.lp.env import LPRepairEnv, Track
from solvers.lp.oracle import Judge
from solvers.lp.real import REAL_MODELS, RealRepairEnv


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
    if _track(cfg.get("track", "standard")) is Track.REAL:
        limit = cfg.get("limit")
        names = REAL_MODELS[: int(limit)] if limit else REAL_MODELS
        real = {"track": Track.REAL.value, "protected": False, "extended": False, "error_type": "real"}
        return [(n, {**real, "problem_id": n}) for n in names]
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
        "feedback_judge": _feedback_judge(cfg.get("feedback_judge", "paper")).value,
    }
    return [(p.id, {**base, "problem_id": p.id, "error_type": p.error_type.value}) for p in chosen]


def _track(value: Any) -> Track:
    try:
        return Track(str(value))
    except ValueError:
        raise SpecError("track", f"use standard, model-only or real; got {value!r}") from None


def _feedback_judge(value: Any) -> Judge:
    try:
        return Judge(str(value))
    except ValueError:
        raise SpecError("feedback_judge", f"use paper or strict; got {value!r}") from None


def make_env(config: dict[str, Any]) -> LPRepairEnv | RealRepairEnv:
    if _track(config.get("track", "standard")) is Track.REAL:
        return RealRepairEnv([config["problem_id"]])
    return LPRepairEnv(
        [_problem(config)],
        protected=config["protected"],
        extended=config["extended"],
        track=_track(config.get("track", "standard")),
        feedback_judge=_feedback_judge(config.get("feedback_judge", "paper")),
    )


def make_agent(agent_spec: dict[str, Any], config: dict[str, Any], settings: Any) -> Agent:
    """`kind = "llm"` (format from `format`), else the offline agent named by `agent` (or the agent's name)."""
    kind = str(agent_spec.get("kind", "offline"))
    real = _track(config.get("track", "standard")) is Track.REAL
    if kind == "llm":
        from core.repair.llm_agent import make_llm_agent

        fmt = agent_spec.get("format", "think")
        return make_llm_agent(settings, fmt=fmt, extended=config["extended"], real=real)
    known = OFFLINE_AGENTS
    which = agent_spec.get("agent") or (kind if kind in known else agent_spec.get("name"))
    if which not in known:
        raise SpecError("agent", f"LP Repair offline agents are {', '.join(known)}; got {which!r}")
    if real and which not in REAL_AGENTS:
        raise SpecError("agent", f"on the real track use one of {', '.join(REAL_AGENTS)}; got {which!r}")
    problem = None if real else _problem(config)
    return make_offline_agent(str(which), problem, protected=config["protected"], extended=config["extended"])


def metrics(result: Any, env: LPRepairEnv) -> dict[str, float]:
    """Numeric per-cell metrics: recovered, rational (paper), rational_strict, exact_repair as 0-1, steps,
    reward, RR@k ingredients, diagnosis P/R."""
    m = dict(result.metrics)
    if m.get("track") == Track.REAL.value:
        real = {
            "recovered": float(bool(m.get("recovered"))),
            "fewest": float(bool(m.get("fewest"))),
            "changed": float(m.get("changed", 0)),
            "steps": float(m.get("steps", 0)),
            "reward": float(m.get("reward", 0.0)),
        }
        if m.get("reference_fewest") is not None:
            real["reference_fewest"] = float(m["reference_fewest"])
        return real
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
