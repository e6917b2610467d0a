"""School Scheduling's opening work off the page's script thread: the base model's solve (the opening proposal)
and its trade-off frontier, computed once per district and solver settings for the whole server process.

The page shows the district's current schedule at once, starts (or finds) the `OpeningJob` for its district and
settings, and polls it: the chat opens as soon as the solve is done (`RecordedChat.start` takes the solved
result, so it does not solve again), the frontier chart when the frontier is. A second session or a reload
finds the finished job and paints at once. Frontiers live in the process-wide cache of
`core/schedule/frontier.py`, so a chat request that needs the frontier while it is still computing waits for
the same computation instead of starting another.
"""

from __future__ import annotations

import atexit
import threading
import time
from dataclasses import dataclass
from enum import StrEnum

from core.errors import OrcaError, SpecError
from core.eta import eta_text
from core.schedule.frontier import FrontierKey, cache_key, compute_frontier, frontier_done
from core.schedule.session import ScheduleSession
from core.schedule.state import ModelState
from solvers.schedule.data import District
from solvers.schedule.model import ScheduleResult, ScheduleSpec, solve_schedule
from solvers.schedule.pareto import Frontier

JOB_LIMIT = 16
"""Opening jobs kept per server process (the oldest finished ones go first)."""


class Stage(StrEnum):
    """Where an opening job is."""

    SOLVING = "solving"
    FRONTIER = "frontier"
    DONE = "done"
    FAILED = "failed"


STAGE_TEXT = {
    Stage.SOLVING: "Solving the base model for the opening proposal and preparing the agent",
    Stage.FRONTIER: "Computing the trade-off frontier",
    Stage.DONE: "Done",
    Stage.FAILED: "Failed",
}


@dataclass(frozen=True)
class OpeningKey:
    """What the opening depends on: the district and the solver settings (not the chat model)."""

    district: District
    time_limit: float
    points: int
    budget: float

    @classmethod
    def of(cls, session: ScheduleSession) -> OpeningKey:
        """The key of a fresh session's opening."""
        return cls(session.district, session.time_limit, session.frontier_points, session.frontier_budget)

    @property
    def spec(self) -> ScheduleSpec:
        """The base model (no constraints, default weights) as a fresh session solves it."""
        return ModelState().to_spec(self.district, self.time_limit)


@dataclass(frozen=True)
class Progress:
    """A job's state for a progress bar: the stage, a fraction in [0, 1] and the seconds since it started."""

    stage: Stage
    fraction: float
    elapsed_s: float
    left_s: float | None = None
    """At most this many seconds left (the frontier stops at its time budget); None when unknown."""

    @property
    def text(self) -> str:
        left = eta_text(self.left_s, prefix="at most")
        return f"{STAGE_TEXT[self.stage]}… ({self.elapsed_s:.1f} s)" + (f" · {left}" if left else "")


class OpeningJob:
    """The base solve and then the frontier of one `OpeningKey`, on a daemon thread; safe to read any time."""

    def __init__(self, key: OpeningKey, *, frontier: bool = True) -> None:
        self.key = key
        self.frontier_wanted = frontier
        """Compute the frontier after the solve (the page); the CLI and tests only need the solve."""
        self.started = time.monotonic()
        self.finished: float | None = None
        self.frontier_started: float | None = None
        self.stage = Stage.SOLVING
        self.result: ScheduleResult | None = None
        self.frontier: Frontier | None = None
        self.error: BaseException | None = None
        self._solved = threading.Event()
        self._done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="orca-schedule-opening", daemon=True)

    def _run(self) -> None:
        try:
            result = solve_schedule(self.key.spec)
            if not result.has_schedule:
                raise SpecError("district", f"the base model has no schedule ({result.status.value})")
            if self.frontier_wanted:  # the page: the chat it opens next needs the offline reader too
                warm_agent()
            self.result = result
            if self.frontier_wanted:
                self.frontier_started = time.monotonic()
                self.stage = Stage.FRONTIER
                self._solved.set()
                self.frontier = compute_frontier(self.key.spec, self.key.points, self.key.budget)
            self.stage = Stage.DONE
        except BaseException as err:  # handed to the page, which shows it
            self.error = err
            self.stage = Stage.FAILED
        finally:
            self.finished = time.monotonic()
            self._solved.set()
            self._done.set()

    @property
    def solved(self) -> bool:
        """Whether the opening proposal is ready (or the job failed: `base_result` then raises)."""
        return self._solved.is_set()

    @property
    def done(self) -> bool:
        """Whether the frontier is ready too (or the job failed)."""
        return self._done.is_set()

    def base_result(self, timeout: float | None = None) -> ScheduleResult:
        """The solved base model, waiting for it up to `timeout` seconds (None: as long as it takes)."""
        if not self._solved.wait(timeout):
            raise TimeoutError("the opening solve is still running")
        if self.result is None:
            if isinstance(self.error, OrcaError):
                raise self.error
            raise SpecError("district", f"the opening solve failed: {self.error}")
        return self.result

    def progress(self) -> Progress:
        """The stage, a rough fraction (solve first, then the frontier against its time budget) and the time."""
        end = self.finished if self.finished is not None else time.monotonic()
        elapsed = end - self.started
        if self.stage in (Stage.DONE, Stage.FAILED):
            fraction = 1.0
        elif self.stage is Stage.SOLVING:
            fraction = min(0.3, 0.1 + elapsed / 20)
        else:
            fraction = min(0.95, 0.3 + 0.65 * elapsed / max(self.key.budget, 1.0))
        left = None
        if self.stage is Stage.FRONTIER and self.frontier_started is not None:
            left = max(self.key.budget - (end - self.frontier_started), 0.0)
        return Progress(self.stage, fraction, elapsed, left)


def warm_agent() -> None:
    """Load what a new chat's agent needs once per process (the offline request reader's classifier, whose
    first use imports scikit-learn: seconds on a busy machine), so the page's script thread does not pay it."""
    from core.schedule.language import intents

    intents()


_JOBS: dict[OpeningKey, OpeningJob] = {}
_LOCK = threading.Lock()
EXIT_WAIT_S = 30.0
"""At exit, wait this long for running solves: a HiGHS solve cut by the interpreter's exit aborts the process."""


@atexit.register
def _join_at_exit() -> None:
    deadline = time.monotonic() + EXIT_WAIT_S
    threads = [j.thread for j in list(_JOBS.values())] + [t for t, _ in list(_FRONTIER_THREADS.values())]
    for thread in threads:
        if thread.is_alive():
            thread.join(max(0.0, deadline - time.monotonic()))


def opening_job(key: OpeningKey, *, frontier: bool = True) -> OpeningJob:
    """The process-wide job for `key`, started on first request; a failed job is started again. With
    `frontier` the job goes on to the frontier after the solve (when it already passed that point, the page
    starts the frontier itself: `frontier_in_background`)."""
    with _LOCK:
        job = _JOBS.get(key)
        if job is None or job.stage is Stage.FAILED:
            if len(_JOBS) >= JOB_LIMIT:
                for old in [k for k, j in _JOBS.items() if j.done][: len(_JOBS) - JOB_LIMIT + 1]:
                    del _JOBS[old]
            job = _JOBS[key] = OpeningJob(key, frontier=frontier)
            job.thread.start()
        elif frontier:
            job.frontier_wanted = True
    return job


def opening_for(session: ScheduleSession, *, frontier: bool = True) -> OpeningJob:
    """The opening job of a fresh session's district and settings."""
    return opening_job(OpeningKey.of(session), frontier=frontier)


def seed_opening(session: ScheduleSession, timeout: float | None = None) -> None:
    """Give a fresh session its opening proposal from the process-wide job (waiting for it up to `timeout`),
    so the agent's `opening()` or `replay()` does not solve the base model again."""
    if not session.proposals and session.state.same_model(ModelState()):
        session.accept(opening_for(session, frontier=False).base_result(timeout))


def default_opening() -> OpeningJob:
    """The opening job of the shipped district with the default solver settings (a new page's chat)."""
    return opening_for(ScheduleSession())


_FRONTIER_THREADS: dict[FrontierKey, tuple[threading.Thread, float]] = {}


def frontier_in_background(session: ScheduleSession) -> Progress:
    """Start computing the frontier of the session's current constraints on a daemon thread (once; the opening
    job already computes the base model's) and return its progress."""
    spec = session.state.to_spec(session.district, session.time_limit)
    points, budget = session.frontier_points, session.frontier_budget
    key = cache_key(spec, points, budget)
    if frontier_done(spec, points, budget):
        return Progress(Stage.DONE, 1.0, 0.0)
    job = _JOBS.get(OpeningKey.of(session))
    if job is not None and job.stage is Stage.FRONTIER and cache_key(job.key.spec, points, budget) == key:
        return job.progress()
    with _LOCK:
        running = _FRONTIER_THREADS.get(key)
        if running is None or not running[0].is_alive():
            for old in [k for k, (t, _) in _FRONTIER_THREADS.items() if not t.is_alive()]:
                del _FRONTIER_THREADS[old]
            thread = threading.Thread(
                target=_quiet_frontier, args=(spec, points, budget), name="orca-schedule-frontier", daemon=True
            )
            running = _FRONTIER_THREADS[key] = (thread, time.monotonic())
            thread.start()
    elapsed = time.monotonic() - running[1]
    fraction = min(0.95, 0.05 + 0.9 * elapsed / max(budget, 1.0))
    return Progress(Stage.FRONTIER, fraction, elapsed, max(budget - elapsed, 0.0))


def _quiet_frontier(spec: ScheduleSpec, points: int, budget: float) -> None:
    """A background frontier; an error is not raised here: the page's own `frontier()` call meets it again."""
    try:
        compute_frontier(spec, points, budget)
    except Exception:  # noqa: BLE001 - the session recomputes and shows the error
        return
