"""Short-lived DuckDB connections shared safely by threads and processes.

DuckDB lets one process at a time open a database file read-write; any other process (even read-only)
gets `IOException: Could not set lock on file`. ORCA therefore never keeps the file open: every store
operation opens a connection, does its work in one transaction and closes it, which releases the file
lock. Inside a process a per-path `threading.RLock` serialises writes (and reads when no connection is open);
a lingering connection (`linger_s` > 0, the app's) also serves reads of other threads on a cursor of their own
without that lock (`read`), so they do not queue behind another thread's writes. Across processes a sidecar `<db>.lock` file taken with `flock` queues writers
in the kernel instead of letting them poll, and opening still retries with exponential backoff and
jitter on DuckDB's own lock error (for processes that do not use the sidecar, such as the duckdb CLI)
and on transaction conflicts, within a bounded total wait.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import duckdb

from core import timing
from core.errors import StoreError

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 10.0
_FIRST_DELAY_S = 0.005
_MAX_DELAY_S = 0.25


MAX_OPEN_S = 1.0
"""A lingering connection (`linger_s` > 0) is closed after the call that finds it open this long, even when busy,
so that other processes queued on the sidecar lock get their turn."""


@dataclass
class _PathState:
    """Process-wide state of one database file: its lock, the connection open in it (if any: in use while
    `depth` > 0, else lingering), the sidecar lock's descriptor held with it, and when it was opened and last
    used (monotonic seconds). `guard` (taken after `lock`, never before it) protects `con` against a close while
    `readers` threads read on cursors of it; `writer` is the thread holding it for writes; `retire` asks the
    closer thread to close it as soon as no one uses it."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    con: duckdb.DuckDBPyConnection | None = None
    depth: int = 0
    guard: threading.Lock = field(default_factory=threading.Lock)
    readers: int = 0
    writer: int | None = None
    retire: bool = False
    wake: threading.Event = field(default_factory=threading.Event)
    fd: int | None = None
    opened: float = 0.0
    used: float = 0.0
    closer: threading.Thread | None = None


_STATES: dict[str, _PathState] = {}
_STATES_LOCK = threading.Lock()


def path_state(path: Path) -> _PathState:
    """The shared state for `path`; every `Store` on the same file in this process gets the same one."""
    key = str(path)
    with _STATES_LOCK:
        return _STATES.setdefault(key, _PathState())


_LOCK_CONFLICT_TEXTS = ("Could not set lock", "Conflicting lock")
_DAMAGE_TEXTS = (
    "not a valid DuckDB database file",
    "Corrupt database file",
    "Could not read enough bytes",
    "checksum",
)
_WRITE_FAILURE_TEXTS = (
    "No space left",
    "File too large",
    "Disk quota",
    "Could not write",
    "Read-only file system",
)


def damaged(path: Path, err: BaseException) -> StoreError | None:
    """The store's error for a damaged file (None if `err` is not about damage): which file, that nothing was
    written, and how to go on without touching it."""
    text = str(err)
    if not any(t in text for t in _DAMAGE_TEXTS):
        return None
    reason = text.split("\n")[0][:200]
    return StoreError(
        f"The run store {path} is damaged or not a DuckDB file ({reason}). Nothing was written to it, and ORCA "
        "never overwrites it: keep it for recovery and start a new store with --db NEW_FILE.duckdb (or "
        "ORCA_DB=NEW_FILE.duckdb, or the run-store field in Settings)."
    )


def write_failed(path: Path, err: BaseException) -> StoreError | None:
    """The store's error for a write the file system refused (disk full, file too large, read-only)."""
    text = str(err)
    if not any(t in text for t in _WRITE_FAILURE_TEXTS):
        return None
    return StoreError(
        f"Could not write to the run store {path}: the file system refused ({text.split(chr(10))[0][:200]}). "
        "Nothing of this step was saved; free some disk space (or choose another store) and try again."
    )


_MAGIC = b"DUCK"  # bytes 8-11 of every DuckDB database file


def check_file(path: Path) -> None:
    """Refuse an existing non-empty file that is not a DuckDB database before DuckDB opens it (DuckDB would
    otherwise read a CSV or Parquet file as a view and ORCA would write its tables into it)."""
    try:
        with path.open("rb") as f:
            head = f.read(12)
    except FileNotFoundError:
        return
    except OSError as err:
        raise StoreError(f"Could not read the run store {path}: {err.strerror or err}") from err
    if head and head[8:12] != _MAGIC:
        raise damaged(path, duckdb.IOException(f'The file "{path}" is not a valid DuckDB database file'))


def _is_conflict(err: duckdb.TransactionException) -> bool:
    """A write-write conflict between transactions (worth retrying), not a failed write."""
    return "conflict" in str(err).lower()


def _is_lock_conflict(err: duckdb.Error) -> bool:
    """DuckDB's "another process has the file open" error (not any error whose path contains "lock")."""
    return isinstance(err, duckdb.IOException) and any(text in str(err) for text in _LOCK_CONFLICT_TEXTS)


def _backoff(delay: float, deadline: float) -> float:
    """Sleep a jittered `delay` (never past `deadline`) and return the next, doubled delay."""
    time.sleep(max(0.0, min(delay * random.uniform(0.5, 1.5), deadline - time.monotonic())))
    return min(delay * 2, _MAX_DELAY_S)


def _flock_until(fd: int, deadline: float) -> bool:
    """Take an exclusive `flock` on `fd`, waiting in the kernel's queue until `deadline`.

    A blocked `flock` cannot time out, so the wait happens in a helper thread. If the deadline passes first,
    the helper keeps `fd` and closes it (releasing the lock) once it gets it; the caller must not touch `fd`.
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        pass
    got = threading.Event()
    guard = threading.Lock()
    abandoned = False

    def wait() -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with guard:
            if abandoned:
                os.close(fd)
            else:
                got.set()

    threading.Thread(target=wait, name="orca-store-flock", daemon=True).start()
    if got.wait(max(0.0, deadline - time.monotonic())):
        return True
    with guard:
        if got.is_set():
            return True
        abandoned = True
    return False


def _process_lock(path: Path, deadline: float) -> int:
    """Take the sidecar `flock` on `<path>.lock` (processes queue in the kernel instead of polling); its
    descriptor, which the caller closes to release it."""
    try:
        fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise StoreError(
            f"Could not use the run store {path}: cannot create its lock file {path}.lock ({err.strerror}). "
            "Choose a folder you can write to (ORCA_DB or Settings)."
        ) from err
    if not _flock_until(fd, deadline):
        raise StoreError(f"The run store {path} is busy: another process held it for too long. Try again.")
    return fd


def _close(state: _PathState) -> bool:
    """Close the state's connection and release the sidecar lock (the caller holds `state.lock`); False (and
    nothing closed) while another thread reads on a cursor of it."""
    with state.guard:
        if state.readers:
            return False
        con, state.con = state.con, None
        fd, state.fd = state.fd, None
        state.retire = False
    try:
        if con is not None:
            con.close()
    finally:
        if fd is not None:
            os.close(fd)
    return True


def _close_when_idle(state: _PathState, linger_s: float) -> None:
    """The closer thread of a lingering connection: close it once unused for `linger_s`, or as soon as it is
    unused when retired or open for `MAX_OPEN_S`."""
    while True:
        with state.lock:
            if state.con is None:
                state.closer = None
                return
            now = time.monotonic()
            idle = now - state.used
            due = state.retire or idle >= linger_s or now - state.opened >= MAX_OPEN_S
            if state.depth == 0 and due and _close(state):
                state.closer = None
                return
            state.wake.clear()
            pause = 0.01 if due else max(0.01, min(linger_s - idle, MAX_OPEN_S - (now - state.opened)))
        state.wake.wait(pause)


def _close_or_retire(state: _PathState, linger_s: float) -> None:
    """Close the connection now, or (while threads read on it) leave that to the closer thread (the caller holds
    `state.lock`)."""
    if not _close(state):
        state.retire = True
        _start_closer(state, linger_s)
        state.wake.set()


def _start_closer(state: _PathState, linger_s: float) -> None:
    if state.closer is None:
        state.closer = threading.Thread(
            target=_close_when_idle, args=(state, linger_s), name="orca-store-linger", daemon=True
        )
        state.closer.start()


@atexit.register
def _release_all() -> None:
    """At exit, close every lingering connection (DuckDB checkpoints its log then)."""
    with _STATES_LOCK:
        paths = list(_STATES)
    for key in paths:
        state = _STATES[key]
        if state.lock.acquire(timeout=1.0):
            try:
                if state.depth == 0 and state.con is not None:
                    _close(state)
            finally:
                state.lock.release()


def release(path: Path) -> None:
    """Close a lingering connection to `path` now (waits for a call in progress in another thread)."""
    state = path_state(path)
    with state.lock:
        if state.depth == 0 and state.con is not None:
            _close_or_retire(state, 0.0)


def _open(path: Path, deadline: float) -> duckdb.DuckDBPyConnection:
    """Open `path`, retrying DuckDB's file-lock conflicts until `deadline`."""
    delay = _FIRST_DELAY_S
    while True:
        try:
            return duckdb.connect(str(path))
        except duckdb.Error as err:
            if not _is_lock_conflict(err):
                raise damaged(path, err) or StoreError(f"Could not open the run store {path}: {err}") from err
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"The run store {path} is locked by another program for more than the allowed wait: {err}"
                ) from err
            delay = _backoff(delay, deadline)


@contextmanager
def connection(
    path: Path, timeout_s: float = DEFAULT_TIMEOUT_S, linger_s: float = 0.0
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to `path` owned by this thread; nested uses in one thread share one connection.

    With `linger_s` > 0 the connection (and the sidecar lock) stays open after the call, for the next call of any
    thread of this process, until unused for `linger_s` or open for `MAX_OPEN_S`: a burst of calls pays for
    opening DuckDB once. A call that fails closes it.
    """
    state = path_state(path)
    deadline = time.monotonic() + timeout_s
    log = timing.timing_path()  # None unless $ORCA_SCRIPT_TIMING: then each outermost call is logged
    started, t0 = (time.time(), time.perf_counter()) if log else (0.0, 0.0)
    held: tuple[float, float, float] | None = None  # (wait, open, hold) seconds of a logged call
    if not state.lock.acquire(timeout=timeout_s):
        if log:
            timing.store_call(log, timing.call_site(), started, time.perf_counter() - t0, 0.0, 0.0, "busy")
        raise StoreError(f"The run store {path} is busy in this process (a long batch?). Try again.")
    try:
        if state.depth > 0:
            state.depth += 1
            try:
                yield state.con  # type: ignore[misc]
            finally:
                state.depth -= 1
            return
        t_locked = time.perf_counter() if log else 0.0
        if state.con is None:
            state.fd = _process_lock(path, deadline)
            try:
                state.con = _open(path, deadline)
            except BaseException:
                _close(state)
                raise
            state.opened = time.monotonic()
        t_open = time.perf_counter() if log else 0.0
        state.depth = 1
        state.writer = threading.get_ident()
        ok = False
        try:
            yield state.con
            ok = True
        finally:
            state.depth = 0
            state.writer = None
            state.used = time.monotonic()
            if not ok or linger_s <= 0 or state.used - state.opened >= MAX_OPEN_S:
                _close_or_retire(state, linger_s)
            else:
                _start_closer(state, linger_s)
            if log:
                held = (t_locked - t0, t_open - t_locked, time.perf_counter() - t_locked)
    finally:
        state.lock.release()
    if held and log:  # logged after the lock is released: the file write is not charged to the next waiter
        timing.store_call(log, timing.call_site(), started, *held)


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    """Roll back the open transaction, if DuckDB has not already done so after a failed commit."""
    with suppress(duckdb.TransactionException):
        con.rollback()


def _rollback_quietly(con: duckdb.DuckDBPyConnection) -> None:
    with suppress(duckdb.Error):
        con.rollback()


@contextmanager
def batch(path: Path, timeout_s: float = DEFAULT_TIMEOUT_S, linger_s: float = 0.0) -> Iterator[None]:
    """Hold one connection and one transaction for every store call this thread makes inside the block."""
    with connection(path, timeout_s, linger_s) as con:
        if path_state(path).depth > 1:
            yield
            return
        con.begin()
        try:
            yield
            con.commit()
        except BaseException:
            _rollback(con)
            raise


def run_in_transaction(
    path: Path,
    work: Callable[[duckdb.DuckDBPyConnection], T],
    timeout_s: float = DEFAULT_TIMEOUT_S,
    linger_s: float = 0.0,
) -> T:
    """Run `work(con)` in one transaction, retrying it on transaction conflicts until the timeout."""
    deadline = time.monotonic() + timeout_s
    delay = _FIRST_DELAY_S
    while True:
        with connection(path, timeout_s, linger_s) as con:
            state = path_state(path)
            if state.depth > 1:
                return work(con)
            con.begin()
            try:
                result = work(con)
                con.commit()
                return result
            except duckdb.TransactionException as err:
                _rollback(con)
                if not _is_conflict(err):
                    raise write_failed(path, err) or StoreError(
                        f"The run store {path} failed: {err}"
                    ) from err
                if time.monotonic() >= deadline:
                    raise StoreError(f"The run store {path} stayed busy: {err}") from err
            except (duckdb.IOException, duckdb.InternalException, duckdb.SerializationException) as err:
                _rollback_quietly(con)
                raise (
                    damaged(path, err)
                    or write_failed(path, err)
                    or StoreError(f"The run store {path} could not be read or written: {err}")
                ) from err
            except BaseException:
                _rollback(con)
                raise
        delay = _backoff(delay, deadline)


def _shared(state: _PathState) -> duckdb.DuckDBPyConnection | None:
    """The open connection, counted as read by one more thread, if it may serve a read: open, not retired, not
    open for `MAX_OPEN_S` yet (so that other processes get their turn), and not this thread's own write."""
    with state.guard:
        con = state.con
        if (
            con is None
            or state.retire
            or state.writer == threading.get_ident()
            or time.monotonic() - state.opened >= MAX_OPEN_S
        ):
            return None
        state.readers += 1
        return con


def read(
    path: Path,
    work: Callable[[duckdb.DuckDBPyConnection], T],
    timeout_s: float = DEFAULT_TIMEOUT_S,
    linger_s: float = 0.0,
) -> T:
    """`work(cursor)` for a read-only unit of work. With `linger_s` > 0 and a lingering connection open, it runs on a
    cursor of that connection (DuckDB's way for threads to share one database) in a snapshot transaction of its
    own, without the per-file lock: it sees what is committed and does not wait for another thread's writes.
    Otherwise (no connection open, `linger_s` = 0 as in the CLI, or inside this thread's own `batch`) it is a
    `run_in_transaction` call as before."""
    state = path_state(path)
    con = _shared(state) if linger_s > 0 else None
    if con is None:
        return run_in_transaction(path, work, timeout_s, linger_s)
    log = timing.timing_path()
    started, t0 = (time.time(), time.perf_counter()) if log else (0.0, 0.0)
    try:
        cur = con.cursor()
        try:
            cur.begin()
            result = work(cur)
            cur.commit()
        finally:
            cur.close()
    except duckdb.Error as err:
        raise (
            damaged(path, err)
            or StoreError(f"The run store {path} could not be read: {err}")
        ) from err
    finally:
        with state.guard:
            state.readers -= 1
            state.used = time.monotonic()
    if log:
        timing.store_call(log, timing.call_site(), started, 0.0, 0.0, time.perf_counter() - t0, shared=True)
    return result
