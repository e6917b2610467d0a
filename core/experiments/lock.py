"""One driver per experiment: an exclusive `flock` on `<store>.experiment-<id>.lock` while it runs.

A second driver of the same experiment (the same spec run twice, from two terminals or the page and a
terminal) is refused at once instead of computing every cell again. The kernel drops a `flock` when its
holder's process ends, however it ends (kill -9 included), so a killed driver never leaves a stale lock; the
file holds the holder's pid for the message and is removed by the holder on release.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from core.errors import StoreError


def lock_path(store_path: str | Path, experiment_id: str) -> Path:
    """The lock file of experiment `experiment_id` in the store at `store_path` (next to the store file; the
    path is resolved as `Store` resolves it, so every spelling of one store shares its locks)."""
    return Path(f"{Path(store_path).expanduser().resolve()}.experiment-{experiment_id}.lock")


class ExperimentBusy(StoreError):
    """Another driver is running this experiment."""


def _holder(path: Path) -> str:
    with contextlib.suppress(OSError, ValueError):
        pid = int(path.read_text(encoding="ascii").strip() or "0")
        if pid > 0:
            return f" (driver process {pid})"
    return ""


def _busy(experiment_id: str, path: Path) -> ExperimentBusy:
    return ExperimentBusy(
        f"experiment {experiment_id} is already running in another driver{_holder(path)}; wait for it to finish "
        f"or stop it, then run it again (`experiment status {experiment_id}` shows its progress)"
    )


@contextlib.contextmanager
def experiment_lock(store_path: str | Path, experiment_id: str) -> Iterator[None]:
    """Hold experiment `experiment_id`'s lock for the block; `ExperimentBusy` if another process holds it."""
    path = lock_path(store_path, experiment_id)
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise StoreError(
                f"Could not create the experiment lock file {path}: {err.strerror or err}"
            ) from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise _busy(experiment_id, path) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the previous holder removed the file between our open and our lock: take the new one
    try:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)


def check_free(store_path: str | Path, experiment_id: str) -> None:
    """`ExperimentBusy` if a driver holds experiment `experiment_id`'s lock now (the lock is not kept)."""
    path = lock_path(store_path, experiment_id)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # no lock file: no driver
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _busy(experiment_id, path) from None
    finally:
        os.close(fd)
