"""Run an offline RetailBench agent through the environment and the one rollout loop, then store the run.

The transitions go through the recorder (buffered); the run, its record tables, daily series and evaluation
ground truth are written to DuckDB in one transaction (`RunRecord.tables`).
"""

from __future__ import annotations

import json
import time
from typing import Any

from core.recorder import Recorder
from core.retail.agents import PolicyAgent
from core.retail.live import agent_kind, day_index, make_retail_agent, run_tables
from core.rollout import rollout
from core.sandbox import run_code
from core.store import Store
from solvers.retail.env import RetailBenchEnv

WORKBENCH = "retailbench"


def run_offline(
    agent: str,
    *,
    preset: str = "hard_v2",
    days: int = 180,
    seed: int = 0,
    store: Store | None = None,
    overrides: dict | None = None,
) -> dict[str, Any]:
    """One episode of `agent`; returns {run_id, status, metrics, elapsed_s} (run_id None without a store)."""
    env = RetailBenchEnv(preset, max_days=days, overrides=overrides, code_runner=run_code)
    actor = make_retail_agent(agent, env)
    config = {"preset": env.config.name, "days": days, "agent": agent, "agent_kind": agent_kind(agent),
              "overrides": overrides or {}}  # fmt: skip
    recorder = Recorder(
        None, WORKBENCH, config=config, seed=seed, title=f"RetailBench {agent} · {env.config.name}"
    )
    started = time.perf_counter()
    result = rollout(env, actor, seed=seed, recorder=recorder)
    metrics = dict(result.metrics)
    days_run = max(metrics.get("run_days", 0), 1)
    if isinstance(actor, PolicyAgent):
        metrics["policy_equivalent_tool_calls_per_day"] = actor.policy.count / days_run
    metrics["survived"] = bool(metrics.get("run_days", 0) >= days and not env.sim.bankrupt)
    metrics["bankrupt"] = bool(env.sim.bankrupt)
    recorder.update(metrics=metrics)
    recorder.artifact("day_index.json", json.dumps(day_index(recorder.record.transitions)).encode())
    elapsed = time.perf_counter() - started
    run_id = None
    if store is not None:
        recorder.record.tables = run_tables(env.sim)
        run_id = store.write_record(recorder.record)
    return {"run_id": run_id, "status": str(result.status), "steps": result.steps, "metrics": metrics,
            "elapsed_s": round(elapsed, 3)}  # fmt: skip
