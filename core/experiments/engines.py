"""Engines run cell tasks and hand each outcome back to the driver, which alone writes the store.

`LocalEngine` is a process pool on this machine (forkserver workers, so it is safe to start from a Streamlit
thread). A worker that dies (killed, out of memory) breaks the pool: the pool is rebuilt, the cells that were in
flight are re-run one at a time so the culprit is identified, and that cell alone is reported failed.
`RayEngine` runs each cell as a Ray task on an existing cluster (`address`) or on a local instance with
`workers` CPUs that it starts and shuts down; Ray retries a task whose worker died once, then the cell fails.
Both keep at most `workers` (+ a small queue) cells in flight and honour per-provider caps for LLM agents.
`workers` is at most `MAX_WORKERS`. A cluster `address` must accept a TCP connection within
`RAY_CONNECT_TIMEOUT_S`, and a throwaway process must join it within `RAY_INIT_TIMEOUT_S`, before this process
asks Ray to join it: Ray itself waits for minutes on an address where no cluster answers.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import types
from abc import ABC, abstractmethod
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TypeVar

from core.cli_args import ENGINES, MAX_WORKERS  # the engines' names; the most workers one driver asks for
from core.errors import OrcaError, SpecError
from core.experiments.worker import CellOutcome, CellStatus, CellTask, die_with_driver, run_cell

OnOutcome = Callable[[CellOutcome], None]
ShouldStop = Callable[[], bool]
K = TypeVar("K")
"""What an engine keys a cell in flight by (a future, a Ray object reference)."""
PRELOAD = ["core.experiments.worker", "core.experiments.spec"]
ROOT = Path(__file__).resolve().parents[2]
WORKER_DIED = "the worker process died while running this cell (killed or crashed); nothing of it was stored"
RAY_CONNECT_TIMEOUT_S = 5.0
"""How long a Ray cluster address may take to accept a TCP connection before the run is refused."""
RAY_INIT_TIMEOUT_S = 45.0
"""How long joining the cluster at an address that accepts connections may take (in a throwaway process)."""
_RAY_JOIN = "import sys, ray; ray.init(address=sys.argv[1], log_to_driver=False, logging_level='ERROR'); ray.shutdown()"


class PoolBroken(OrcaError):
    """The local process pool could not start workers (its forkserver died); the run stops, resumable."""


def check_workers(workers: object) -> int:
    """`workers` if it is a whole number from 1 to `MAX_WORKERS`; a `SpecError` naming `--workers` otherwise."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise SpecError("--workers", f"must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    return workers


def provider_of(task: CellTask) -> str | None:
    """The LLM provider a cell uses (None for offline agents, which have no cap)."""
    return task.agent.get("provider") if task.agent.get("kind") == "llm" else None


class Scheduler:
    """Hands out pending tasks in order, skipping those whose provider is at its concurrency cap."""

    def __init__(self, tasks: Iterable[CellTask], caps: Mapping[str, int]) -> None:
        self.pending: deque[CellTask] = deque(tasks)
        self.caps = dict(caps)
        self.running: Counter[str | None] = Counter()

    def __bool__(self) -> bool:
        return bool(self.pending)

    def take(self) -> CellTask | None:
        for i, task in enumerate(self.pending):
            provider = provider_of(task)
            if provider is None or self.running[provider] < self.caps.get(provider, 1 << 30):
                del self.pending[i]
                self.running[provider] += 1
                return task
        return None

    def release(self, task: CellTask) -> None:
        self.running[provider_of(task)] -= 1

    def hold(self, task: CellTask) -> None:
        """Count a task handed out outside `take` (a re-run) as in flight."""
        self.running[provider_of(task)] += 1

    def put_back(self, task: CellTask) -> None:
        """Return a task that could not be submitted to the front of the queue."""
        self.release(task)
        self.pending.appendleft(task)

    def fill(self, in_flight: dict[K, CellTask], limit: int, submit: Callable[[CellTask], K]) -> None:
        """Submit tasks until `limit` are in flight; a task whose submit raises goes back to the front."""
        while len(in_flight) < limit and (task := self.take()) is not None:
            try:
                in_flight[submit(task)] = task
            except Exception:
                self.put_back(task)
                raise


def died(task: CellTask, message: str = WORKER_DIED) -> CellOutcome:
    return CellOutcome(task.key, CellStatus.FAILED, None, None, message, 0.0)


def _never() -> bool:
    return False


class Engine(ABC):
    """Runs cell tasks and hands each outcome to the driver; every engine queues the same way (`run`) and
    differs only in how it keeps cells in flight (`_drive`)."""

    workers: int

    def run(
        self,
        tasks: list[CellTask],
        on_outcome: OnOutcome,
        *,
        caps: Mapping[str, int],
        should_stop: ShouldStop | None = None,
    ) -> None:
        """Run `tasks` under the per-provider `caps`; once `should_stop()` is true no new cell starts, and the
        cells in flight finish."""
        self._drive(Scheduler(tasks, caps), on_outcome, should_stop or _never)

    @abstractmethod
    def _drive(self, queue: Scheduler, on_outcome: OnOutcome, stopping: ShouldStop) -> None:
        """Take tasks from `queue` (at most about two per worker in flight) until it and the flight are empty."""


@contextmanager
def bare_main() -> Iterator[None]:
    """Hide `__main__` while worker processes start, so they do not re-import it.

    multiprocessing re-runs the parent's main script in every new worker; under Streamlit (and after an
    AppTest) `__main__` is a page script, which must not run in a worker. The cell code is imported by module
    name, so workers need nothing from `__main__`."""
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


class LocalEngine(Engine):
    """A process pool of `workers` worker processes (forkserver)."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = check_workers(workers)

    @staticmethod
    def _submit(pool: ProcessPoolExecutor, task: CellTask) -> Future[CellOutcome]:
        with bare_main():  # a submit may start a worker process
            try:
                return pool.submit(run_cell, task)
            except (EOFError, ConnectionError) as err:  # the forkserver died while starting a worker
                raise PoolBroken(
                    "the local worker pool broke: its forkserver process ended while starting a worker "
                    f"({type(err).__name__}); the cells finished so far are stored — run the same spec again "
                    "(or `experiment run ID`) to resume"
                ) from None

    def _pool(self) -> ProcessPoolExecutor:
        # forkserver: workers fork from a clean single-threaded server that has the worker code preloaded, so
        # starting them is safe from a threaded app and a rebuilt pool starts fast.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=die_with_driver, initargs=(os.getpid(),)
        )

    def _drive(self, queue: Scheduler, on_outcome: OnOutcome, stopping: ShouldStop) -> None:
        suspects: deque[CellTask] = deque()
        in_flight: dict[Future[CellOutcome], CellTask] = {}
        limit = 2 * self.workers
        pool = self._pool()
        try:
            while queue or suspects or in_flight:
                try:
                    if stopping():
                        pass
                    elif suspects:
                        if not in_flight:
                            task = suspects.popleft()
                            queue.hold(task)
                            try:
                                in_flight[self._submit(pool, task)] = task
                            except BrokenProcessPool:
                                queue.release(task)
                                suspects.appendleft(task)
                                raise
                    else:
                        queue.fill(in_flight, limit, partial(self._submit, pool))
                except BrokenProcessPool:
                    pass  # a worker died since the last wait; the wait below collects the broken cells
                if not in_flight:
                    break
                alone = len(in_flight) == 1
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                broken: list[CellTask] = []
                for fut in done:
                    task = in_flight.pop(fut)
                    queue.release(task)
                    try:
                        outcome = fut.result()
                    except BrokenProcessPool:
                        broken.append(task)
                    except Exception as err:  # e.g. a result that cannot be unpickled
                        on_outcome(died(task, f"the worker could not return this cell: {err}"))
                    else:
                        on_outcome(outcome)
                if broken:
                    for task in in_flight.values():
                        queue.release(task)
                    broken += list(in_flight.values())
                    in_flight.clear()
                    pool.shutdown(wait=True, cancel_futures=True)
                    pool = self._pool()
                    if alone and len(broken) == 1:
                        on_outcome(died(broken[0]))
                    else:
                        suspects.extend(broken)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class RayEngine(Engine):
    """Each cell a Ray task: on the cluster at `address`, or on a local instance with `workers` CPUs."""

    def __init__(self, workers: int = 2, address: str | None = None) -> None:
        self.workers = check_workers(workers)
        self.address = address

    def _init(self) -> bool:
        """Connect to or start Ray; True if this call started it (and must shut it down)."""
        import ray

        if ray.is_initialized():
            return False
        # Workers must import `core` and the adapter from this checkout: a local instance's workers inherit the
        # driver's PYTHONPATH; on an existing cluster (same machine or shared file system) the job's runtime
        # environment sets it.
        paths = [str(ROOT), os.getcwd(), *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
        python_path = os.pathsep.join(dict.fromkeys(p for p in paths if p and os.path.isdir(p)))
        if self.address:
            probe_address(self.address)
            probe_cluster(self.address)
        try:
            if self.address:
                ray.init(
                    address=self.address,
                    log_to_driver=False,
                    runtime_env={"env_vars": {"PYTHONPATH": python_path}},
                )
            else:
                os.environ["PYTHONPATH"] = python_path
                ray.init(num_cpus=self.workers, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise SpecError(
                "--address", f"could not reach Ray at {self.address or 'a local instance'}: {err}"
            ) from None
        return True

    def _drive(self, queue: Scheduler, on_outcome: OnOutcome, stopping: ShouldStop) -> None:
        import ray

        started = self._init()
        try:
            remote = ray.remote(num_cpus=1, max_retries=1)(run_cell)
            limit = 2 * max(self.workers, int(ray.cluster_resources().get("CPU", self.workers)))
            in_flight: dict[ray.ObjectRef, CellTask] = {}
            while queue or in_flight:
                if not stopping():
                    queue.fill(in_flight, limit, remote.remote)
                if not in_flight:
                    break
                ready, _ = ray.wait(list(in_flight), num_returns=1)
                for ref in ready:
                    task = in_flight.pop(ref)
                    queue.release(task)
                    try:
                        outcome = ray.get(ref)
                    except ray.exceptions.RayError as err:
                        outcome = died(task, f"{WORKER_DIED} — Ray: {type(err).__name__}")
                    on_outcome(outcome)
        finally:
            if started:
                ray.shutdown()


def probe_address(address: str, timeout_s: float = RAY_CONNECT_TIMEOUT_S) -> None:
    """Refuse a Ray `address` (`HOST:PORT` or `ray://HOST:PORT`; `auto` and `local` are Ray's own) that is
    malformed or does not accept a TCP connection within `timeout_s`."""
    if address in ("auto", "local"):
        return
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SpecError("--address", f"expected HOST:PORT (or ray://HOST:PORT, auto), got {address[:200]!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            pass
    except OSError as err:
        reason = "no answer" if isinstance(err, TimeoutError) else (err.strerror or str(err))
        raise SpecError(
            "--address",
            f"could not reach Ray at {address} within {timeout_s:g} s ({reason}); start the cluster "
            "(`ray start --head`) or fix the address",
        ) from None


def probe_cluster(address: str, timeout_s: float = RAY_INIT_TIMEOUT_S) -> None:
    """Refuse a Ray `address` that a throwaway process cannot join within `timeout_s` (killed then): a port
    that accepts connections but is not a Ray cluster would otherwise hold `ray.init` for minutes."""
    if address in ("auto", "local"):
        return
    try:
        done = subprocess.run(
            [sys.executable, "-c", _RAY_JOIN, address], capture_output=True, text=True, timeout=timeout_s
        )
    except subprocess.TimeoutExpired:
        raise SpecError(
            "--address",
            f"{address} accepts connections, but no Ray cluster answered within {timeout_s:g} s; give the "
            "head node's GCS address (HOST:6379 by default, `ray status` shows it)",
        ) from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise SpecError(
            "--address", f"could not join the Ray cluster at {address}: {(lines or ['?'])[-1][:300]}"
        )


def make_engine(name: str, *, workers: int = 2, address: str | None = None) -> Engine:
    """The engine called `name` ("local" or "ray")."""
    if name == "local":
        if address:
            raise SpecError("--address", "only the ray engine connects to a cluster")
        return LocalEngine(workers)
    if name == "ray":
        return RayEngine(workers, address)
    raise SpecError("--engine", f"unknown engine {name!r}; choose {', '.join(ENGINES)}")
