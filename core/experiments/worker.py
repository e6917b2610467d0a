"""What a worker does with one cell: build the environment and agent through the adapter, run the one rollout
loop with a buffering recorder, and return the run record and metrics. Workers never open the store.

Everything here is picklable and imports no workbench package: the adapter is imported by its module string
inside the worker process (a process-pool worker or a Ray task). An adapter may also offer `tables(env)` (its
record tables, table name -> DataFrame) and `artifacts(env, agent, record)` (name -> bytes): they travel with
the run record, so the driver commits them with the run and the cell in one transaction.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import multiprocessing
import multiprocessing.forkserver
import os
import select
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.config import Settings
from core.errors import OrcaError
from core.recorder import Recorder
from core.rollout import RolloutStatus, rollout
from core.store import RunRecord


class CellStatus(StrEnum):
    """A cell's state in the store: pending (not finished yet), done, failed (retried on the next run)."""

    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class CellTask:
    """Everything a worker needs to run one cell (picklable)."""

    experiment_id: str
    key: str
    workbench: str
    adapter: str
    instance: str
    env_config: dict[str, Any]
    agent: dict[str, Any]
    seed: int
    repetition: int
    max_steps: int | None = None
    settings: Settings = field(default_factory=Settings, repr=False)
    title: str = ""
    roles: dict[str, Settings] = field(default_factory=dict, repr=False)  # per-role settings (AgentSpec.roles)


@dataclass(frozen=True)
class CellOutcome:
    """What a worker returns: the cell's status, its run record (None if nothing ran), metrics or error."""

    key: str
    status: CellStatus
    record: RunRecord | None
    metrics: dict[str, float] | None
    error: str | None
    elapsed_s: float
    cached: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    """Input and output tokens of the replies served from the reply cache, per (provider, model): not spent."""


def _float_metrics(raw: Any) -> dict[str, float]:
    """The adapter's metrics as plain floats (non-numbers dropped, non-finite kept as None by the store)."""
    out: dict[str, float] = {}
    for name, value in dict(raw or {}).items():
        try:
            number = float(value)
        except (TypeError, ValueError):
            continue
        out[str(name)] = number if math.isfinite(number) else float("nan")
    return out


def run_cell(task: CellTask) -> CellOutcome:
    """Run one cell. An error of the adapter, environment or agent is a failed outcome, never an exception."""
    from core.experiments.spec import import_adapter
    from core.llm.cache import served_since, served_usage

    started = time.perf_counter()
    recorder: Recorder | None = None
    served = served_usage()

    def cached() -> dict[tuple[str, str], tuple[int, int]]:
        return {k: (u.input_tokens, u.output_tokens) for k, u in served_since(served).items()}

    try:
        adapter = import_adapter(
            task.adapter
        )  # the driver allowed it (`load_adapter`) before making the task
        env_kw: dict[str, Any] = {}
        if task.roles and takes_roles(adapter.make_env):  # environment-side roles (a lab's manager imitator)
            env_kw["roles"] = dict(task.roles)
        if takes_roles(adapter.make_env, "settings"):  # a manager played on the agent's own model (a lab alias)
            env_kw["settings"] = task.settings
        env = adapter.make_env(dict(task.env_config), **env_kw)
        if task.roles and takes_roles(adapter.make_agent):  # the driver checked that the adapter takes them
            agent = adapter.make_agent(dict(task.agent), dict(task.env_config), task.settings, roles=dict(task.roles))
        else:
            agent = adapter.make_agent(dict(task.agent), dict(task.env_config), task.settings)
        config = {
            "experiment": task.experiment_id,
            "cell": task.key,
            "instance": task.instance,
            "env": task.env_config,
            "agent": task.agent,
            "repetition": task.repetition,
            "max_steps": task.max_steps,
        }
        recorder = Recorder(None, task.workbench, config=config, seed=task.seed, title=task.title)
        result = rollout(env, agent, seed=task.seed, recorder=recorder, max_steps=task.max_steps)
        metrics = _float_metrics(adapter.metrics(result, env))
        recorder.record.metrics = {**result.metrics, **metrics}
        if callable(getattr(adapter, "tables", None)):  # the workbench's record tables, written with the run
            recorder.record.tables = dict(adapter.tables(env))
        if callable(getattr(adapter, "artifacts", None)):
            recorder.record.artifacts.update(adapter.artifacts(env, agent, recorder.record))
        failed = result.status is RolloutStatus.FAILED
        return CellOutcome(
            task.key,
            CellStatus.FAILED if failed else CellStatus.DONE,
            recorder.record,
            metrics,
            result.error if failed else None,
            time.perf_counter() - started,
            cached(),
        )
    except OrcaError as err:
        error = str(err)
    except Exception as err:  # an adapter bug must fail its cell, not the experiment
        error = f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=6)}"
    record = recorder.record if recorder is not None else None
    if record is not None:
        record.status = "failed"
        record.metrics = {"error": error}
    return CellOutcome(task.key, CellStatus.FAILED, record, None, error, time.perf_counter() - started, cached())


def takes_roles(function: Any, name: str = "roles") -> bool:
    """Whether `function` (an adapter's `make_agent` or `make_env`) accepts `roles=` (per-role settings), or the
    keyword `name`."""
    import inspect

    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent() -> bool:
    """Ask the kernel to SIGKILL this process when its parent process ends (Linux `PR_SET_PDEATHSIG`); False
    where that is not available. Unlike a watcher thread it also works while this process holds the GIL in C
    code (a long solver call). The parent is checked again afterwards, in case it ended before the request."""
    if not sys.platform.startswith("linux"):
        return False
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:
        os._exit(1)
    return True


def die_with_driver(driver_pid: int) -> None:
    """Pool initializer: end this worker as soon as the driver process `driver_pid` is gone.

    A forkserver worker inherits the write end of the server's liveness pipe, so the worker and the server keep
    each other alive after a driver killed outright (kill -9, out of memory). The worker therefore closes its
    copy: the forkserver then exits when the driver ends, and the kernel kills the worker when its parent (the
    forkserver) ends, even while it holds the GIL in C code. A watcher thread on the driver's pidfd is a second
    guard (and the only one where `PR_SET_PDEATHSIG` does not exist)."""
    forkserver = multiprocessing.forkserver._forkserver
    alive = getattr(forkserver, "_forkserver_alive_fd", None)
    if alive is not None and multiprocessing.parent_process() is not None:
        forkserver._forkserver_alive_fd = None
        with contextlib.suppress(OSError):
            os.close(alive)
    die_with_parent()
    try:
        fd = os.pidfd_open(driver_pid)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):
        return  # no pidfd on this platform: orphans end when their cell does and the pool is not fed again

    def watch() -> None:
        select.select([fd], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="orca-driver-watch", daemon=True).start()
