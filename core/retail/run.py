"""Run any RetailBench agent through the environment and the one rollout loop, then store the run.

The one run path of the workbench: the CLI (`retail run`) and experiment cells' artifacts use it directly, the
page's `core.retail.live.LiveRun` on a background thread. Agents: the offline policies of `core.retail.agents`
(the oracle — the paper reference policy, privileged, not an upper bound — the full-information reference and
baselines), the offline tool-plan agents of `core.retail.hybrid` (public
tools only), and the four LLM frameworks of `core.retail.frameworks` (they need an LLM; without one they are
refused, never faked). The transitions go through the recorder (buffered); the run, its record tables, daily
series and evaluation ground truth are written to DuckDB in one transaction (`RunRecord.tables`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from core.errors import OrcaError, ProviderError, SpecError
from core.recorder import Recorder, RunStatus
from core.retail.agents import AGENTS as POLICY_AGENTS
from core.retail.agents import PolicyAgent
from core.retail.frameworks import FRAMEWORKS, make_framework_agent
from core.retail.hybrid import OFFLINE_TOOL_AGENTS
from core.retail.paper import Harness, harness_of
from core.rollout import RolloutStatus, rollout
from core.sandbox import run_code
from core.store import Store
from core.store.retail import retail_tables
from solvers.retail.env import RetailBenchEnv
from solvers.retail.records import evaluation_frames, record_frames
from solvers.retail.sim import RetailSim

WORKBENCH = "retailbench"
OFFLINE_AGENTS = (*OFFLINE_TOOL_AGENTS, *POLICY_AGENTS)
KINDS = {
    "oracle": "offline · paper reference policy (not an upper bound; reads hidden quality and news effects)",
    "full_info": "offline · full-information reference (not an upper bound; reads the true model)",
    "news_aware": "offline · baseline (reads hidden news effects)",
    "hybrid": "offline · solver-backed (public tools only)",
    "store_manager": "offline · scripted (public tools only)",
}


def agent_kind(name: str, harness: Harness | str | None = None) -> str:
    """How reports label an agent: LLM (with its harness when known), offline (privileged or not)."""
    if name in FRAMEWORKS:
        return "LLM" if harness is None else f"LLM · {harness_of(harness).value} harness"
    return KINDS.get(name, "offline · baseline (public records only)")


def make_retail_agent(
    name: str, env: RetailBenchEnv, *, model: Any = None, day_cap: int = 50, **options: Any
) -> Any:
    """The agent called `name` for `env` (`model`: a ChatModel, required for the LLM frameworks; `options` go to
    the framework: `harness` (orca or paper), Plan-and-Act's round_cap, fail_limit, max_rounds, ...)."""
    if name in OFFLINE_TOOL_AGENTS:
        return OFFLINE_TOOL_AGENTS[name]()
    if name in POLICY_AGENTS:
        return PolicyAgent(name, env)
    if name in FRAMEWORKS:
        if model is None:
            raise SpecError("agent", f"{name} is an LLM framework: it needs an API key (Settings); offline stand-ins "
                                     "are not substituted")  # fmt: skip
        return make_framework_agent(name, model, preset=env.config.name, day_cap=day_cap, **options)
    raise SpecError(
        "agent", f"unknown agent {name!r}; choose one of {', '.join((*OFFLINE_AGENTS, *FRAMEWORKS))}"
    )


def run_tables(sim: RetailSim) -> dict[str, Any]:
    """The run's record tables and its evaluation ground truth, as `RunRecord.tables` (written with the run in
    one transaction). Taken after the rollout ends: the agent never sees them."""
    return retail_tables({**record_frames(sim), **evaluation_frames(sim)})


def run_metrics(result: Any, env: RetailBenchEnv, actor: Any, *, days: int) -> dict[str, Any]:
    """Table 1 numbers of an episode plus tokens per day (LLM agents), the policy-equivalent tool calls (policy
    agents), bankruptcy and survival of all `days`."""
    metrics = dict(result.metrics)
    tokens = getattr(actor, "tokens_per_day", None)
    if tokens:
        metrics["total_tokens"] = sum(tokens)
        metrics["avg_tokens_per_day"] = sum(tokens) / len(tokens)
    if isinstance(actor, PolicyAgent):
        metrics["policy_equivalent_tool_calls_per_day"] = actor.policy.count / max(
            metrics.get("run_days", 0), 1
        )
    metrics["bankrupt"] = bool(env.sim is not None and env.sim.bankrupt)
    metrics["survived"] = bool(metrics.get("run_days", 0) >= days and not metrics["bankrupt"])
    return metrics


def run_artifacts(actor: Any, transitions: list[Any]) -> dict[str, bytes]:
    """The replay's day index, for an Evolving-Strategy agent its strategy log, and under the paper harness the
    original's per-day token files (`day_<d>_token_usage.json`)."""
    out = {"day_index.json": json.dumps(day_index(transitions)).encode()}
    log = getattr(actor, "strategy_log", None)
    if log:
        out["strategy_log.json"] = json.dumps(log).encode()
    if getattr(actor, "harness", None) is Harness.PAPER:
        out |= {name: json.dumps(data).encode() for name, data in actor.token_files().items()}
    return out


def day_index(rows: list[Any]) -> list[int]:
    """The step index `t` of each successful end_today (day d's calls are t in (index[d-2], index[d-1]])."""
    out = []
    for row in rows:
        action = row.action if hasattr(row, "action") else row["action"]
        info = row.info if hasattr(row, "info") else row["info"]
        if isinstance(action, dict) and action.get("name") == "end_today" and not (info or {}).get("error"):
            out.append(int(row.t if hasattr(row, "t") else row["t"]))
    return out


class _Failing:
    """The actor as the rollout sees it, keeping the `OrcaError` that ended the run: the rollout records only
    the error's text, and a provider failure must be reported as one ("provider: ...")."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor
        self.failure: OrcaError | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.actor, name)

    def act(self, observation: Any) -> Any:
        try:
            return self.actor.act(observation)
        except OrcaError as err:
            self.failure = err
            raise


def failure_text(error: str | None, failure: OrcaError | None) -> str | None:
    """How a run's error is recorded and reported: a provider failure as "provider: <its message>" (the service
    at fault, as the CLIs name it), anything else as the rollout recorded it."""
    if error is not None and isinstance(failure, ProviderError):
        return f"provider: {failure}"
    return error


STATES = {RolloutStatus.DONE: RunStatus.DONE, RolloutStatus.TRUNCATED: RunStatus.DONE,
          RolloutStatus.STOPPED: RunStatus.STOPPED, RolloutStatus.FAILED: RunStatus.FAILED}  # fmt: skip


def run_agent(
    agent: str,
    *,
    preset: str = "hard_v2",
    days: int = 180,
    seed: int = 0,
    catalog: str | None = None,
    store: Store | None = None,
    overrides: dict | None = None,
    model: Any = None,
    env: RetailBenchEnv | None = None,
    actor: Any = None,
    on_step: Callable[[Any], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    harness: Harness | str | None = None,
) -> dict[str, Any]:
    """One episode of `agent` (an LLM framework needs `model`, a ChatModel) on catalog variant `catalog`
    (`solvers.retail.catalogs`; default the shipped one); `env` and `actor` when the caller built them
    already. Returns {run_id (None without a store), status (done, stopped or failed), steps,
    metrics, error, elapsed_s}; a provider failure ends the run as failed with error "provider: ...", and
    the run is stored with whatever days it has (none, when the first request failed). An LLM framework runs
    under `harness` (orca unless given; a given `actor` brings its own); the config, kind and title name it."""
    env = env or RetailBenchEnv(
        preset, max_days=days, overrides=overrides, code_runner=run_code, catalog=catalog
    )
    if actor is None:
        options = {"harness": harness_of(harness)} if agent in FRAMEWORKS else {}
        actor = make_retail_agent(agent, env, model=model, **options)
    ran = getattr(actor, "harness", None) if agent in FRAMEWORKS else None
    config = {"preset": env.config.name, "catalog": getattr(env, "catalog_name", "default"), "days": days,
              "agent": agent, "agent_kind": agent_kind(agent, ran),
              "model": getattr(model, "name", None), "overrides": overrides or {}}  # fmt: skip
    if ran is not None:
        config["harness"] = ran.value
    label = f"{agent} ({ran.value} harness)" if ran is not None else agent
    recorder = Recorder(None, WORKBENCH, config=config, seed=seed,
                        title=f"RetailBench {label} · {env.config.name} · seed {seed}")  # fmt: skip
    started = time.perf_counter()
    watched = _Failing(actor)
    result = rollout(env, watched, seed=seed, recorder=recorder, on_step=on_step, should_stop=should_stop)
    metrics = run_metrics(result, env, actor, days=days)
    error = failure_text(result.error, watched.failure)
    if error is not None:
        metrics["error"] = error
    recorder.update(metrics=metrics)
    for name, data in run_artifacts(actor, recorder.record.transitions).items():
        recorder.artifact(name, data)
    run_id = None
    if store is not None:
        recorder.record.tables = run_tables(env.sim)
        run_id = store.write_record(recorder.record)
    return {"run_id": run_id, "status": STATES[result.status], "steps": result.steps, "metrics": metrics,
            "error": error, "elapsed_s": round(time.perf_counter() - started, 3)}  # fmt: skip
