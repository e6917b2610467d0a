"""Running repair agents over problems through the one rollout loop, and building agents by name."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from core.agent import Agent
from core.errors import SpecError
from core.recorder import Recorder
from core.repair.agents import DoNothingAgent, GreedyDropAgent, GroundTruthAgent, OfflineRepairAgent
from core.repair.diagnostician import Diagnostician
from core.rollout import rollout
from solvers.lp.dataset import Problem
from solvers.lp.env import LPRepairEnv, Track
from solvers.lp.oracle import Judge
from solvers.lp.real import RealRepairEnv

OFFLINE_AGENTS = ("offline", "diagnostician", "ground-truth", "do-nothing", "greedy")
# The agents that can work on the real track (ground truth has nothing to replay there).
REAL_AGENTS = ("greedy", "do-nothing", "offline", "llm", "diagnostician")


def make_offline_agent(name: str, problem: Problem | None, *, protected: bool, extended: bool) -> Agent:
    """One of the offline agents by short name (`ground-truth` is per problem: it replays that problem's fix;
    `problem` is None on the real track)."""
    if name == "offline":
        return OfflineRepairAgent(extended=extended, protected=protected)
    if name == "diagnostician":
        return Diagnostician(extended=extended, protected=protected)
    if name == "ground-truth":
        if problem is None:
            raise SpecError("agent", "ground-truth has nothing to replay on the real track (no ground truth)")
        return GroundTruthAgent(problem)
    if name == "do-nothing":
        return DoNothingAgent()
    if name == "greedy":
        return GreedyDropAgent(protected=protected)
    known = ", ".join(OFFLINE_AGENTS)
    raise SpecError("agent", f"unknown agent {name!r}; use one of {known} or llm")


def run_problem(
    env: LPRepairEnv,
    agent: Agent,
    problem: Problem,
    *,
    seed: int = 0,
    recorder: Recorder | None = None,
) -> dict[str, Any]:
    """One episode on `problem`; the env's episode metrics plus agent name, tokens, status and wall time."""
    row = _episode_row(env, agent, problem.id, seed=seed, recorder=recorder)
    row["split"], row["size"] = problem.split, problem.size
    return row


def _episode_row(env: Any, agent: Agent, problem: str, *, seed: int, recorder: Recorder | None) -> dict[str, Any]:
    """One recorded episode on problem `problem`: the env's episode metrics plus agent name, tokens, status and
    wall time (`split` and `size` left for the caller to fill in)."""
    started = time.perf_counter()
    result = rollout(env, agent, seed=seed, recorder=recorder, options={"problem": problem})
    row = dict(result.metrics)
    usage = getattr(agent, "usage", None)
    row.update(
        {
            "agent": agent.name,
            "split": None,
            "size": None,
            "tokens": (usage.input_tokens + usage.output_tokens) if usage is not None else 0,
            "rollout_status": result.status.value,
            "run_id": result.run_id,
            "seconds": round(time.perf_counter() - started, 4),
            "actions": list(result.actions),
        }
    )
    if result.error:
        row["error"] = result.error
    return row


def run_offline(
    problems: list[Problem],
    agent_name: str,
    *,
    protected: bool = True,
    extended: bool = False,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    recorder_factory: Callable[[Problem, Agent], Recorder | None] | None = None,
    track: Track = Track.STANDARD,
    feedback_judge: Judge = Judge.PAPER,
) -> list[dict[str, Any]]:
    """Run an offline agent over `problems` (one env, one episode each) on `track`."""
    env = LPRepairEnv(problems, protected=protected, extended=extended, track=track, feedback_judge=feedback_judge)
    rows = []
    for k, p in enumerate(problems):
        agent = make_offline_agent(agent_name, p, protected=protected, extended=extended)
        recorder = recorder_factory(p, agent) if recorder_factory else None
        rows.append(run_problem(env, agent, p, seed=seed, recorder=recorder))
        if progress is not None:
            progress(k + 1, len(problems))
    return rows


def run_real(
    env: RealRepairEnv, agent: Agent, name: str, *, seed: int = 0, recorder: Recorder | None = None
) -> dict[str, Any]:
    """One episode of the real track on Netlib model `name`: the env's metrics plus agent, tokens and wall time."""
    row = _episode_row(env, agent, name, seed=seed, recorder=recorder)
    row["split"], row["size"] = "real", f"{env.original.num_rows} x {env.original.num_cols}"
    return row
