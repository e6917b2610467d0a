"""The experiment driver: expand a spec into cells, run the missing ones on an engine, write every outcome.

Only the driver writes the store. An experiment's id is its spec hash, so rerunning a spec resumes it: done
cells are skipped (never duplicated), failed and unfinished ones run again. Each outcome is written as the
cell's run and then its row, in one transaction, as it arrives; a crash of the driver loses only the cells in
flight, which the next run picks up.

One driver runs an experiment at a time (`core.experiments.lock`): a second one is refused. A write the file
system refuses (disk full) stops the run with a `StoreError` naming the store; the cells written before it
stay, so the same spec resumes once there is space. The spec's `metric` is checked against the first done
cell's metrics: a name the adapter does not report stops the run with an error listing the names it does.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TextIO

import duckdb

from core.config import Settings
from core.errors import SpecError, StoreError
from core.experiments.costs import Budget, estimate_cells, role_models
from core.experiments.engines import Engine, LocalEngine
from core.experiments.lock import experiment_lock
from core.experiments.progress import Progress
from core.experiments.spec import ExperimentSpec, expand, load_adapter
from core.experiments.worker import CellOutcome, CellStatus, CellTask
from core.experiments.worker import takes_roles as worker_takes_roles
from core.llm.prices import PriceTable, load_prices
from core.llm.roles import RoleModel, settings_for
from core.store import Store
from core.store.connection import write_failed


class ExperimentStatus(StrEnum):
    """running; done (every cell done); partial (finished with failed cells); stopped (asked to stop);
    stalled (read back only: marked running, but its driver stopped its heartbeat, so it was killed)."""

    RUNNING = "running"
    DONE = "done"
    PARTIAL = "partial"
    STOPPED = "stopped"
    STALLED = "stalled"


HEARTBEAT_S = 10.0
"""How often an idle driver touches its experiment (`Store.touch_experiment`); see `STALE_AFTER_S`."""


@dataclass(frozen=True)
class RunSummary:
    """What one `run_experiment` call did."""

    experiment_id: str
    status: ExperimentStatus
    cells: int
    skipped: int
    ran: int
    done: int
    failed: int
    elapsed_s: float
    spent_usd: float | None = None  # with a budget: what the cells run now cost (cached replies at $0)
    budget_reached: bool = False
    cached_usd: float | None = None  # with a budget: what the replies served from the cache would have cost

    def as_dict(self) -> dict[str, object]:
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in self.__dict__.items()}


class CellWriter:
    """Writes outcomes on its own thread, as many per transaction as have queued up, and beats the heartbeat.

    Opening the DuckDB file and committing costs far more than the rows (tens of ms on a busy disk), so a
    writer that batches keeps the driver from becoming the bottleneck of short cells. Each cell's run and row
    still commit together; `close()` drains the queue and re-raises a write error."""

    def __init__(self, store: Store, experiment_id: str, on_written: Callable[[CellOutcome], None]) -> None:
        self.store, self.experiment_id, self.on_written = store, experiment_id, on_written
        self.queue: queue.Queue[CellOutcome | None] = queue.Queue()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._loop, name="orca-cell-writer", daemon=True)
        self.thread.start()

    def put(self, outcome: CellOutcome) -> None:
        if self.error is None:
            self.queue.put(outcome)

    def _write(self, outcomes: list[CellOutcome]) -> None:
        try:
            self._commit(outcomes)
        except duckdb.Error as err:  # a commit the file system refused (disk full) arrives unwrapped
            raise write_failed(self.store.path, err) or StoreError(
                f"The run store {self.store.path} could not be written: {err}"
            ) from err
        for o in outcomes:
            self.on_written(o)

    def _commit(self, outcomes: list[CellOutcome]) -> None:
        with self.store.batch():
            self.store.touch_experiment(self.experiment_id)
            for o in outcomes:
                self.store.finish_cell(
                    self.experiment_id,
                    o.key,
                    status=o.status,
                    record=o.record,
                    metrics=o.metrics,
                    error=o.error,
                    elapsed_s=o.elapsed_s,
                )

    def _loop(self) -> None:
        closing = False
        while not closing:
            try:
                batch = [self.queue.get(timeout=HEARTBEAT_S)]
            except queue.Empty:
                self._beat()
                continue
            while True:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            closing = None in batch
            outcomes = [o for o in batch if o is not None]
            if outcomes and self.error is None:
                try:
                    self._write(outcomes)
                except BaseException as err:  # handed to the driver thread by close()
                    self.error = err

    def _beat(self) -> None:
        """Touch the experiment; a failed beat is only retried later (a cell write failing is what stops a run)."""
        with contextlib.suppress(StoreError):
            self.store.touch_experiment(self.experiment_id)

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


def _llm_settings(provider: str, model: str, where: str, env: dict[str, str] | None) -> Settings:
    """Settings of an LLM provider/model with the key/URL from the environment; a missing key is an error
    naming the variable (never an offline stand-in)."""
    return settings_for(RoleModel(provider, model), where, env)


def agent_settings(spec: ExperimentSpec, env: dict[str, str] | None = None) -> dict[str, Settings]:
    """Per-agent settings: offline for offline agents; for LLM agents the provider's key/URL from the
    environment. An LLM agent without credentials is an error: it is never replaced by an offline stand-in."""
    out: dict[str, Settings] = {}
    for agent in spec.agents:
        if agent.kind == "offline":
            out[agent.name] = Settings()
            continue
        out[agent.name] = _llm_settings(str(agent.provider), str(agent.model), f"agents.{agent.name}.provider", env)
    return out


def role_settings(
    spec: ExperimentSpec, env: dict[str, str] | None = None, adapter: object = None
) -> dict[str, dict[str, Settings]]:
    """Per agent, the settings of each of its roles (`role_models`): an LLM role's provider key/URL from
    the environment (refused without one, naming the role — `env.<role>` for an `[env]` alias — and the
    variable), its temperature and seed; an offline role only where the spec names "offline"."""
    out: dict[str, dict[str, Settings]] = {}
    for agent_name, models in role_models(spec, adapter).items():
        agent = spec.agent(agent_name)
        roles: dict[str, Settings] = {}
        for role, model in models.items():
            if model.offline:
                roles[role] = Settings(model=model.model)
                continue
            where = f"agents.{agent.name}.roles.{role}" if role in agent.roles else f"env.{role}"
            roles[role] = settings_for(model, where, env)
        out[agent.name] = roles
    return out


def takes_roles(adapter: object) -> bool:
    """Whether the adapter's `make_agent` or `make_env` accepts `roles=` (per-role settings)."""
    return any(
        callable(getattr(adapter, f, None)) and worker_takes_roles(getattr(adapter, f)) for f in ("make_agent", "make_env")
    )


def prepare(
    spec: ExperimentSpec, store: Store, settings: Mapping[str, Settings] | None = None, *, cache: bool = False
) -> list[CellTask]:
    """Record the experiment and its cells (idempotent) and return the tasks of the cells not done yet.

    `settings` (agent name -> Settings) replaces the environment's for callers that already hold them (the
    labs' CLIs and pages, whose provider flags and sidebar choose the model). With `cache`, LLM agents answer
    repeated requests from the reply cache in `store` (core.llm.cache)."""
    adapter = load_adapter(spec.adapter_module)
    if any(a.roles for a in spec.agents) and not takes_roles(adapter):
        raise SpecError(
            "roles", f"the adapter {spec.adapter_module} does not take per-role models (its make_agent has no roles=)"
        )
    known = getattr(adapter, "ROLES", None)  # an adapter may list its roles: others are refused up front
    for agent in spec.agents if known is not None else ():
        for role in agent.roles:
            if role not in known:
                raise SpecError(
                    f"agents.{agent.name}.roles.{role}", f"this workbench's roles are {', '.join(known) or 'none'}"
                )
    instances, cells = expand(spec, adapter)
    settings = dict(settings) if settings is not None else agent_settings(spec)
    roles = role_settings(spec, adapter=adapter)

    def cached(s: Settings) -> Settings:
        return s if not cache or s.provider == "offline" else s.with_changes(llm_cache=True, store_path=store.path)

    settings = {name: cached(s) for name, s in settings.items()}
    roles = {name: {r: cached(s) for r, s in by_role.items()} for name, by_role in roles.items()}
    exp_id = spec.experiment_id
    store.create_experiment(
        exp_id,
        name=spec.name,
        workbench=spec.workbench,
        spec=spec.to_dict(),
        spec_hash=spec.spec_hash,
        status=ExperimentStatus.RUNNING,
    )
    store.ensure_cells(exp_id, [(c.key, c.instance, c.agent, c.seed, c.repetition) for c in cells])
    stored = store.cells(exp_id)
    done = set(stored.loc[stored["status"] == CellStatus.DONE, "cell_key"])
    return [
        CellTask(
            experiment_id=exp_id,
            key=c.key,
            workbench=spec.workbench,
            adapter=spec.adapter_module,
            instance=c.instance,
            env_config=instances[c.instance],
            agent=spec.agent(c.agent).as_dict(),
            seed=c.seed,
            repetition=c.repetition,
            max_steps=spec.max_steps,
            settings=settings[c.agent],
            roles=roles[c.agent],
            title=f"{spec.name} · {c.key}",
        )
        for c in cells
        if c.key not in done
    ]


def run_experiment(
    spec: ExperimentSpec,
    store: Store,
    *,
    engine: Engine | None = None,
    progress: bool | TextIO = True,
    should_stop: Callable[[], bool] | None = None,
    on_outcome: Callable[[CellOutcome], None] | None = None,
    settings: Mapping[str, Settings] | None = None,
    cache: bool = False,
    budget_usd: float | None = None,
    prices: PriceTable | None = None,
) -> RunSummary:
    """Run (or resume) `spec` on `engine` (default: a local pool of 2), writing each cell as it finishes;
    `cache` puts the LLM agents behind the store's reply cache (a rerun then sends no repeated request).
    With `budget_usd`, no new cell starts once the cells finished in this call cost that much (at `prices`,
    default the price table file): the experiment is `stopped`, its other cells pending, and rerunning resumes.

    Holds the experiment's lock throughout: `ExperimentBusy` if another driver is running it. `settings`: see
    `prepare`."""
    budget = (
        Budget(budget_usd, spec, prices if prices is not None else load_prices(), load_adapter(spec.adapter_module))
        if budget_usd is not None
        else None
    )
    with experiment_lock(store.path, spec.experiment_id):
        return _run_locked(spec, store, engine or LocalEngine(), progress, should_stop, on_outcome, settings, cache, budget)


def estimate(spec: ExperimentSpec, store: Store, prices: PriceTable | None = None) -> dict[str, object]:
    """The `--dry-run` estimate of the cells still to run (nothing is written or run): model calls, tokens and
    USD per agent and in total (see `core.experiments.costs`)."""
    table = prices if prices is not None else load_prices()
    adapter = load_adapter(spec.adapter_module)
    instances, cells = expand(spec, adapter)
    stored = store.cells(spec.experiment_id)
    done = set(stored.loc[stored["status"] == CellStatus.DONE, "cell_key"])
    return estimate_cells(spec, adapter, [c for c in cells if c.key not in done], instances, table)


def _run_locked(
    spec: ExperimentSpec,
    store: Store,
    engine: Engine,
    progress: bool | TextIO,
    should_stop: Callable[[], bool] | None,
    on_outcome: Callable[[CellOutcome], None] | None,
    settings: Mapping[str, Settings] | None = None,
    cache: bool = False,
    budget: Budget | None = None,
) -> RunSummary:
    started = time.monotonic()
    tasks = prepare(spec, store, settings, cache=cache)
    agent_of = {t.key: str(t.agent["name"]) for t in tasks}
    exp_id = spec.experiment_id
    total = len(store.cells(exp_id))
    store.set_experiment_status(exp_id, ExperimentStatus.RUNNING)
    bar = (
        Progress(
            total, total - len(tasks), stream=None if progress is True else progress, label=f"{spec.name} "
        )
        if progress
        else None
    )
    counts = {"done": 0, "failed": 0}
    metric_error: list[SpecError] = []

    def written(outcome: CellOutcome) -> None:
        if budget is not None:
            budget.charge(agent_of[outcome.key], outcome.record, outcome.cached)
        ok = outcome.status is CellStatus.DONE
        counts["done" if ok else "failed"] += 1
        if ok and not metric_error and spec.metric not in (outcome.metrics or {}):
            names = ", ".join(sorted(outcome.metrics or {})) or "none"
            metric_error.append(
                SpecError("metric", f"the adapter reports no metric {spec.metric!r}; its metrics: {names}")
            )
        if bar is not None:
            bar.update(ok=ok)
        if on_outcome is not None:
            on_outcome(outcome)

    writer = CellWriter(store, exp_id, written)

    def stop() -> bool:
        return bool(
            writer.error is not None
            or metric_error
            or (budget is not None and budget.reached)
            or (should_stop is not None and should_stop())
        )

    status = ExperimentStatus.STOPPED
    failing = True
    try:
        try:
            if tasks:
                engine.run(tasks, writer.put, caps=spec.concurrency, should_stop=stop)
        finally:
            writer.close()
        failing = False
    finally:
        try:
            cells = store.cells(exp_id)
            finished = int((cells["status"] == CellStatus.DONE).sum())
            if finished == total:
                status = ExperimentStatus.DONE
            elif not stop() and not failing and (cells["status"] != CellStatus.PENDING).all():
                status = ExperimentStatus.PARTIAL
            store.set_experiment_status(exp_id, status)
        except StoreError:
            if not failing:
                raise  # otherwise the error that stopped the run (e.g. a full disk) is the one reported
        finally:
            if bar is not None:
                bar.close()
    if metric_error:
        raise metric_error[0]
    return RunSummary(
        exp_id,
        status,
        total,
        total - len(tasks),
        counts["done"] + counts["failed"],
        counts["done"],
        counts["failed"],
        time.monotonic() - started,
        round(budget.spent_usd, 6) if budget is not None else None,
        budget is not None and budget.reached,
        round(budget.cached_usd, 6) if budget is not None else None,
    )
