"""Run any RetailBench agent live: `core.retail.run.run_agent` on a background thread that the RetailBench page
polls (day counter, running series) and can stop; the run is stored when it ends."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from core.eta import eta_text  # noqa: F401 - re-exported: the RetailBench page's progress bar
from core.retail.run import make_retail_agent, run_agent
from core.sandbox import run_code
from core.store import Store
from solvers.retail.env import RetailBenchEnv


@dataclass
class LiveRun:
    """One rollout in a background thread; `state()` is safe to read from the page at any time."""

    agent: str
    preset: str = "hard_v2"
    days: int = 180
    seed: int = 0
    model: Any = None
    store: Store | None = None
    harness: str = "orca"  # LLM frameworks: orca or paper (core.retail.paper.Harness)
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
        self._started: float | None = None
        self.env = RetailBenchEnv(self.preset, max_days=self.days, code_runner=run_code)
        options = {"harness": self.harness} if self.model is not None else {}
        self.actor = make_retail_agent(self.agent, self.env, model=self.model, **options)
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
        """Status, days done, tool calls, the daily series, and (while running) elapsed seconds and an ETA."""
        with self._lock:
            day = len(self.series)
            running = not self.done and self._started is not None
            elapsed = time.perf_counter() - self._started if running else self.elapsed_s
            eta = elapsed / day * (self.days - day) if running and day else None
            return {"status": self.status, "day": day, "days": self.days, "steps": self.steps,
                    "series": list(self.series), "run_id": self.run_id, "error": self.error,
                    "elapsed_s": round(elapsed, 1), "eta_s": None if eta is None else round(eta, 1),
                    "metrics": dict(self.metrics)}  # fmt: skip

    def _on_step(self, row: Any) -> None:
        with self._lock:
            self.steps += 1
            if self.env.sim is not None and len(self.env.sim.daily) > len(self.series):
                self.series.append(dict(self.env.sim.daily[-1]))

    def _run(self) -> None:
        started = self._started = time.perf_counter()
        self.status = "running"
        try:
            out = run_agent(self.agent, preset=self.preset, days=self.days, seed=self.seed, store=self.store,
                            model=self.model, env=self.env, actor=self.actor, on_step=self._on_step,
                            should_stop=self._stop.is_set)  # fmt: skip
            with self._lock:
                self.metrics, self.error, self.run_id = out["metrics"], out["error"], out["run_id"]
                self.status = out["status"]
        except Exception as err:  # the page shows it; the thread must not die silently
            with self._lock:
                self.status, self.error = "failed", f"{type(err).__name__}: {err}"
        finally:
            self.elapsed_s = time.perf_counter() - started


MONEY_SERIES = {"funds": "Funds", "net_worth": "Net worth"}


def money_chart(series: list[dict], *, height: int = 260) -> tuple[pd.DataFrame, dict]:
    """The live chart of funds and net worth per day: the data (long form) and a Vega-Lite spec with axis titles
    and dollar ticks."""
    rows = [{"day": i + 1, "series": label, "dollars": float(row[key])}
            for i, row in enumerate(series) for key, label in MONEY_SERIES.items()]  # fmt: skip
    spec = {"mark": {"type": "line", "tooltip": True}, "height": height,
            "encoding": {"x": {"field": "day", "type": "quantitative", "title": "Day of the run",
                               "axis": {"format": "d", "tickMinStep": 1}},
                         "y": {"field": "dollars", "type": "quantitative", "title": "Amount (US dollars)",
                               "axis": {"format": "$,.0f"}},
                         "color": {"field": "series", "type": "nominal", "title": None}}}  # fmt: skip
    return pd.DataFrame(rows, columns=["day", "series", "dollars"]), spec
