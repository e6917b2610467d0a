"""Experiments running in the background of a long-lived process (the Streamlit server).

One process-wide registry owns the runs, so a run keeps going when the page that started it is left, and
every browser session sees the same runs; their progress is read from the store's cells table. Each run is
the CLI driver (`python -m core.cli experiment run`) in a child process, watched by a daemon thread: the
process pool then starts from a clean interpreter (Streamlit swaps `__main__` for the page script, which
worker processes would re-import), and a crash of the run cannot take the app down. Only that driver writes
the experiment's cells. Starting a spec that is already running returns the running one; one that a driver
outside this process (a terminal) is running is refused.

Uploaded spec files go through `read_upload` (size, UTF-8, then the same validation as every spec), so an
upload never imports anything: its adapter must be an allowed one, checked before any import.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.experiments.driver import prepare
from core.experiments.lock import check_free
from core.experiments.spec import MAX_SPEC_CHARS, ExperimentSpec, from_dict, parse_spec
from core.store import Store

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "data" / "experiments"


@dataclass
class BackgroundRun:
    """One experiment driver process; `summary` is its JSON result, `error` why it failed."""

    experiment_id: str
    spec: ExperimentSpec
    store_path: Path
    workers: int
    started: float = field(default_factory=time.time)
    summary: dict[str, Any] | None = None
    error: str | None = None
    process: subprocess.Popen | None = None
    stopped: bool = False
    env: dict[str, str] = field(default_factory=dict, repr=False)  # extra variables for the driver (a key)
    thread: threading.Thread | None = None

    @property
    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def _launch(self, target: str, spec_file: str | None = None) -> None:
        """Run the CLI driver on `target` (a spec file or a stored experiment's id); `spec_file` is deleted after."""
        paths = [str(ROOT), *sys.path, *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
        env = {**os.environ, **self.env, "PYTHONPATH": os.pathsep.join(dict.fromkeys(p for p in paths if p))}
        cmd = [sys.executable, "-m", "core.cli", "--db", str(self.store_path), "experiment", "run", target,
               "--workers", str(self.workers), "--quiet"]  # fmt: skip
        self.process = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.thread = threading.Thread(
            target=self._watch, args=(spec_file,), name=f"orca-experiment-{self.experiment_id}", daemon=True
        )
        self.thread.start()

    def _watch(self, spec_file: str | None) -> None:
        assert self.process is not None
        out, err = self.process.communicate()
        if spec_file is not None:
            Path(spec_file).unlink(missing_ok=True)
        if self.process.returncode == 0 and out.strip():
            self.summary = json.loads(out.strip().splitlines()[-1])
            return
        if self.stopped:
            return
        lines = [line for line in err.strip().splitlines() if line.strip()]
        try:
            self.error = json.loads(lines[-1])["error"]
        except (IndexError, ValueError, KeyError, TypeError):
            self.error = f"the experiment process ended with code {self.process.returncode}" + (
                f": {lines[-1]}" if lines else ""
            )

    def stop(self) -> None:
        """Interrupt the driver: cells in flight are abandoned (never half-written); rerun to finish."""
        if self.process is not None and self.process.poll() is None:
            self.stopped = True
            self.process.send_signal(signal.SIGINT)


_RUNS: dict[str, BackgroundRun] = {}
_LOCK = threading.Lock()


def start(text: str, store_path: str | Path, *, workers: int = 2) -> BackgroundRun:
    """Start (or resume) the TOML spec `text` on the local engine in the background; the running one if it is
    already going. The spec is checked and its cells recorded here, so a bad spec fails in the caller and the
    experiment is in the store (with its progress) as soon as this returns."""
    return _start(parse_spec(text), Path(store_path), workers, text=text)


def start_spec(
    spec: ExperimentSpec, store_path: str | Path, *, workers: int = 2, env: Mapping[str, str] | None = None
) -> BackgroundRun:
    """Start (or resume) a spec built in code (e.g. by a lab page) as `start` does: the spec is recorded in the
    store, and the driver runs the stored experiment. `env` adds variables to the driver's environment (the
    page's LLM key when it was typed under Settings rather than exported)."""
    return _start(spec, Path(store_path), workers, text=None, env=env)


def resume(experiment_id: str, store_path: str | Path, *, workers: int = 2) -> BackgroundRun:
    """Resume a stored experiment (e.g. one whose driver was killed) from its stored spec, as `start` does."""
    spec = from_dict(Store(store_path).get_experiment(experiment_id)["spec"])
    return _start(spec, Path(store_path), workers, text=None)


def _start(
    spec: ExperimentSpec, path: Path, workers: int, *, text: str | None, env: Mapping[str, str] | None = None
) -> BackgroundRun:
    """Launch the driver on the spec `text` (via a temporary file) or, without text, on the stored experiment."""
    with _LOCK:
        current = _RUNS.get(spec.experiment_id)
        if current is not None and current.alive:
            return current
        check_free(path, spec.experiment_id)
        prepare(spec, Store(path))
        run = BackgroundRun(spec.experiment_id, spec, path, workers, env=dict(env or {}))
        if text is None:
            run._launch(spec.experiment_id)
        else:
            with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False, encoding="utf-8") as f:
                f.write(text)
            run._launch(f.name, f.name)
        _RUNS[spec.experiment_id] = run
        return run


def read_upload(data: bytes, name: str) -> str:
    """The text of an uploaded spec file `name`, validated like every spec (nothing is imported); a `SpecError`
    naming the file if it is too large, not UTF-8 text, or not a valid spec."""
    if len(data) > MAX_SPEC_CHARS:
        raise SpecError(
            name, f"the file is larger than {MAX_SPEC_CHARS:,} bytes; a spec is a short TOML file"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError(name, "not UTF-8 text; upload the TOML spec itself") from None
    parse_spec(text)
    return text


def get(experiment_id: str) -> BackgroundRun | None:
    """The background run of `experiment_id` in this process (running or finished), if any."""
    return _RUNS.get(experiment_id)


def is_live(experiment_id: str, status: str) -> bool:
    """This process runs the experiment, or its stored `status` says it runs (e.g. from the CLI)."""
    run = get(experiment_id)
    return (run is not None and run.alive) or status == "running"


def running() -> list[BackgroundRun]:
    """The background runs still going."""
    return [r for r in _RUNS.values() if r.alive]


def stop(experiment_id: str) -> None:
    """Interrupt a background run (see `BackgroundRun.stop`)."""
    run = _RUNS.get(experiment_id)
    if run is not None:
        run.stop()


def shipped_specs() -> dict[str, Path]:
    """The example specs shipped in data/experiments, by file name."""
    return {p.name: p for p in sorted(SHIPPED.glob("*.toml"))}
