"""Run any RetailBench agent through the environment and the one rollout loop, live: a background thread the
RetailBench page polls (day counter, running series), stops, and that stores the run when it ends.

Agents: the offline policies of `core.retail.agents` (oracle and baselines; the oracle is privileged), the
offline tool-plan agents of `core.retail.hybrid` (public tools only), and the four LLM frameworks of
`core.retail.frameworks` (they need an LLM provider; with the offline provider they are refused, never faked).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from core.errors import SpecError
from core.recorder import Recorder, RunStatus
from core.retail.agents import AGENTS as POLICY_AGENTS
from core.retail.agents import PolicyAgent
from core.retail.frameworks import FRAMEWORKS, make_framework_agent
from core.retail.hybrid import OFFLINE_TOOL_AGENTS
from core.rollout import rollout
from core.sandbox import run_code
from core.store import Store
from core.store.retail import retail_tables
from solvers.retail.env import RetailBenchEnv
from solvers.retail.records import evaluation_frames, record_frames
from solvers.retail.sim import RetailSim

WORKBENCH = "retailbench"
OFFLINE_AGENTS = (*OFFLINE_TOOL_AGENTS, *POLICY_AGENTS)
KINDS = {
    "oracle": "offline · privileged oracle (reads hidden quality and news effects)",
    "news_aware": "offline · baseline (reads hidden news effects)",
    "hybrid": "offline · solver-backed (public tools only)",
    "store_manager": "offline · scripted (public tools only)",
}


def agent_kind(name: str) -> str:
    if name in FRAMEWORKS:
        return "LLM"
    return KINDS.get(name, "offline · baseline (public records only)")


def make_retail_agent(name: str, env: RetailBenchEnv, *, model: Any = None, day_cap: int = 50, **options: Any) -> Any:
    """The agent called `name` for `env` (`model`: a ChatModel, required for the LLM frameworks; `options` go to
    the framework, e.g. Plan-and-Act's round_cap, fail_limit, max_rounds)."""
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


def day_index(rows: list[Any]) -> list[int]:
    """The step index `t` of each successful end_today (day d's calls are t in (index[d-2], index[d-1]])."""
    out = []
    for row in rows:
        action = row.action if hasattr(row, "action") else row["action"]
        info = row.info if hasattr(row, "info") else row["info"]
        if isinstance(action, dict) and action.get("name") == "end_today" and not (info or {}).get("error"):
            out.append(int(row.t if hasattr(row, "t") else row["t"]))
    return out


@dataclass
class LiveRun:
    """One rollout in a background thread; `state()` is safe to read from the page at any time."""

    agent: str
    preset: str = "hard_v2"
    days: int = 180
    seed: int = 0
    model: Any = None
    store: Store | None = None
    run_id: str | None = None
    status: str = "starting"
    error: str | None = None
    series: list[dict] = field(default_factory=list)
    steps: int = 0
    elapsed_s: float = 0.0
    metrics: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.env = RetailBenchEnv(self.preset, max_days=self.days, code_runner=run_code)
        self.actor = make_retail_agent(self.agent, self.env, model=self.model)
        self.thread = threading.Thread(target=self._run, name=f"retail-{self.agent}", daemon=True)

    def start(self) -> LiveRun:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    @property
    def done(self) -> bool:
        return self.status in ("done", "stopped", "failed")

    def state(self) -> dict:
        with self._lock:
            return {"status": self.status, "day": len(self.series), "days": self.days, "steps": self.steps,
                    "series": list(self.series), "run_id": self.run_id, "error": self.error,
                    "elapsed_s": round(self.elapsed_s, 1), "metrics": dict(self.metrics)}  # fmt: skip

    def _on_step(self, row: Any) -> None:
        with self._lock:
            self.steps += 1
            if self.env.sim is not None and len(self.env.sim.daily) > len(self.series):
                self.series.append(dict(self.env.sim.daily[-1]))

    def _run(self) -> None:
        config = {"preset": self.env.config.name, "days": self.days, "agent": self.agent,
                  "agent_kind": agent_kind(self.agent), "model": getattr(self.model, "name", None)}  # fmt: skip
        recorder = Recorder(None, WORKBENCH, config=config, seed=self.seed,
                            title=f"RetailBench {self.agent} · {self.env.config.name} · seed {self.seed}")  # fmt: skip
        started = time.perf_counter()
        self.status = "running"
        try:
            result = rollout(self.env, self.actor, seed=self.seed, recorder=recorder, on_step=self._on_step,
                             should_stop=self._stop.is_set)  # fmt: skip
            metrics = dict(result.metrics)
            tokens = getattr(self.actor, "tokens_per_day", None)
            if tokens:
                metrics["total_tokens"] = sum(tokens)
                metrics["avg_tokens_per_day"] = sum(tokens) / len(tokens)
            status = "stopped" if self._stop.is_set() else ("failed" if result.error else "done")
            metrics["bankrupt"] = bool(self.env.sim is not None and self.env.sim.bankrupt)
            recorder.update(status=RunStatus.INTERRUPTED if status == "stopped" else
                            (RunStatus.FAILED if status == "failed" else RunStatus.DONE), metrics=metrics)  # fmt: skip
            recorder.artifact("day_index.json", json.dumps(day_index(recorder.record.transitions)).encode())
            log = getattr(self.actor, "strategy_log", None)
            if log:
                recorder.artifact("strategy_log.json", json.dumps(log).encode())
            if self.store is not None:
                assert self.env.sim is not None
                recorder.record.tables = run_tables(self.env.sim)
                self.run_id = self.store.write_record(recorder.record)
            with self._lock:
                self.metrics, self.error = metrics, result.error
                self.status = status
        except Exception as err:  # the page shows it; the thread must not die silently
            with self._lock:
                self.status, self.error = "failed", f"{type(err).__name__}: {err}"
        finally:
            self.elapsed_s = time.perf_counter() - started
