"""Opt-in server-side timing (`$ORCA_SCRIPT_TIMING`): one JSON line per script run and per store call.

`core/ui.py: script_timing` writes a line for each script run; `core/store/connection.py` writes one for each
store call (how long it waited for the per-file lock, how long opening DuckDB took, how long it held the lock,
and its call site) and adds its wait and hold to the script run it belongs to (`RunTally`, per thread). Without
the variable every hook costs one environment lookup and writes nothing. `bench/class_load.py` reads the file.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

TIMING_VAR = "ORCA_SCRIPT_TIMING"
"""When this variable names a file, script runs and store calls append one JSON line each to it."""

_ROOT = Path(__file__).resolve().parents[1]
_STORE_DIR = str(_ROOT / "core" / "store")
_SKIPPED = (str(Path(__file__).resolve()), f"{_STORE_DIR}/connection.py", "contextlib.py")
_WRITE_LOCK = threading.Lock()
_LOCAL = threading.local()


def timing_path() -> str | None:
    """The timing file, or None when timing is off."""
    return os.environ.get(TIMING_VAR) or None


def append_line(path: str, line: str) -> None:
    """Append one line to the timing file (threads take turns)."""
    with _WRITE_LOCK, open(path, "a", encoding="utf-8") as out:
        out.write(line + "\n")


@dataclass
class RunTally:
    """The store calls of the script run on this thread: how many, seconds waited for the lock, seconds held."""

    session: str
    calls: int = 0
    wait_s: float = 0.0
    hold_s: float = 0.0


def begin_run(session: str) -> RunTally:
    """Start counting this thread's store calls for one script run of `session`."""
    tally = RunTally(session)
    _LOCAL.tally = tally
    return tally


def end_run() -> None:
    """Stop counting this thread's store calls."""
    _LOCAL.tally = None


def call_site(frame: FrameType | None = None) -> str:
    """`store method < caller file:function` of the store call being made: the outermost `core/store` function
    on the stack and the first function outside it (context-manager plumbing is skipped)."""
    frame = frame or sys._getframe(1)
    method, caller = "?", "?"
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.endswith(_SKIPPED):
            if name.startswith(_STORE_DIR):
                method = frame.f_code.co_name
            else:
                try:
                    where = str(Path(name).relative_to(_ROOT))
                except ValueError:
                    where = Path(name).name
                caller = f"{where}:{frame.f_code.co_name}"
                break
        frame = frame.f_back
    return f"{method} < {caller}"


def store_call(
    path: str,
    site: str,
    started: float,
    wait_s: float,
    open_s: float,
    hold_s: float,
    error: str = "",
    *,
    shared: bool = False,
) -> None:
    """Log one store call (`kind` "store"; `error` "busy" for a call that gave up waiting for the lock; `shared`
    for a read on a cursor of the lingering connection, which takes no lock: its `hold_s` is its duration and is
    not added to the script run's `store_hold_s`) and add it to this thread's script run, if one is timed."""
    tally: RunTally | None = getattr(_LOCAL, "tally", None)
    if tally is not None:
        tally.calls += 1
        tally.wait_s += wait_s
        tally.hold_s += 0.0 if shared else hold_s
    record: dict[str, object] = {
        "kind": "store",
        "site": site,
        "session": tally.session if tally is not None else threading.current_thread().name,
        "start": round(started, 4),
        "wait_s": round(wait_s, 5),
        "open_s": round(open_s, 5),
        "hold_s": round(hold_s, 5),
    }
    if error:
        record["error"] = error
    if shared:
        record["shared"] = True
    append_line(path, json.dumps(record))
