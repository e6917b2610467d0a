"""Containment of experiment drivers: their worker processes end with them (kill -9 included, even while a
worker holds the GIL in C code), a second driver of the same experiment is refused while a killed driver's lock
never blocks, and a pool whose forkserver died ends the run with a clear error, resumable."""

from __future__ import annotations

import json
import multiprocessing.forkserver
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.cli import main
from core.errors import OrcaError, StoreError
from core.experiments import background
from core.experiments.driver import run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.lock import ExperimentBusy, lock_path
from core.experiments.spec import parse_spec
from core.store import Store
from tests.core.experiments.conftest import TOY, toy_spec

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _spec(agent: str, seeds: int) -> str:
    return (
        f'name = "contained"\nworkbench = "policy_simulator"\nadapter = "{TOY}"\nseeds = {seeds}\n'
        f'metric = "total_cost"\n[env]\nhorizons = [5]\n[[agents]]\nname = "a"\n{agent}\n'
    )


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _driver(store_path: Path, target: str, *flags: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "core.cli", "--db", str(store_path), "experiment", "run", target, "--quiet"]
    return subprocess.Popen(
        [*cmd, *flags], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _wait(condition, timeout: float, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _done(store: Store, exp_id: str) -> int:
    """Done cells so far; 0 while the driver (which takes its lock first) has not written the experiment yet."""
    try:
        return store.get_experiment(exp_id)["done"]
    except StoreError:
        return 0


def test_kill_9_of_the_driver_ends_every_worker_even_one_holding_the_gil(store_path: Path, tmp_path) -> None:
    flag = tmp_path / "hold"
    flag.touch()
    text = _spec(f'hold_gil = 30_000_000_000\nhold_flag = "{flag}"', 4)  # minutes in C code per cell
    spec_file = tmp_path / "s.toml"
    spec_file.write_text(text)
    driver = _driver(store_path, str(spec_file), "--workers", "2")
    try:
        # resource tracker, forkserver and two workers
        _wait(lambda: len(_descendants(driver.pid)) >= 4, 120, "the pool to start")
        time.sleep(1.0)  # the workers are inside their first step's C loop
        pool = _descendants(driver.pid)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_alive(p) for p in pool) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in pool if _alive(p)]
    finally:
        for pid in _descendants(driver.pid):
            os.kill(pid, signal.SIGKILL)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes of the killed driver's pool still running: {left}"
    exp_id = parse_spec(text).experiment_id
    assert main(["--db", str(store_path), "experiment", "status", exp_id]) == 0
    flag.unlink()
    resumed = _driver(store_path, exp_id, "--workers", "2")
    out, err = resumed.communicate(timeout=180)
    assert resumed.returncode == 0, err
    assert json.loads(out)["status"] == "done"


def test_a_second_driver_is_refused_and_a_killed_drivers_lock_never_blocks(
    store_path: Path, tmp_path, capsys
):
    text = _spec("spin = 300000", 12)
    spec_file = tmp_path / "s.toml"
    spec_file.write_text(text)
    exp_id = parse_spec(text).experiment_id
    store = Store(store_path)
    first = _driver(store_path, str(spec_file), "--workers", "1")
    try:
        _wait(lambda: lock_path(store_path, exp_id).exists(), 120, "the first driver to take its lock")
        assert main(["--db", str(store_path), "experiment", "run", str(spec_file), "--quiet"]) == 2
        error = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
        assert exp_id in error["error"] and "already running" in error["error"]
        assert f"driver process {first.pid}" in error["error"]
        with pytest.raises(ExperimentBusy):
            background.start(text, store_path, workers=1)
        _wait(lambda: _done(store, exp_id) >= 1, 120, "a first cell")
    finally:
        first.kill()
        first.wait(timeout=30)
    done_before = store.get_experiment(exp_id)["done"]
    assert done_before < 12
    assert main(["--db", str(store_path), "experiment", "run", str(spec_file), "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["status"] == "done" and summary["skipped"] >= done_before
    assert store.cells(exp_id)["attempts"].max() == 1, "no cell ran twice"


def test_a_pool_whose_forkserver_died_ends_the_run_clearly_and_it_resumes(
    store_path: Path, monkeypatch
) -> None:
    """Starting a worker through a dead forkserver fails with EOFError: a clear error, never an internal one."""
    spec = toy_spec()
    store = Store(store_path)

    def dead_server(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise EOFError

    monkeypatch.setattr(multiprocessing.forkserver, "connect_to_new_process", dead_server)
    with pytest.raises(OrcaError) as err:
        run_experiment(spec, store, engine=LocalEngine(2), progress=False)
    assert "forkserver" in str(err.value) and "resume" in str(err.value)
    assert store.get_experiment(spec.experiment_id)["status"] == "stopped"
    monkeypatch.undo()
    summary = run_experiment(spec, store, engine=LocalEngine(2), progress=False)
    assert summary.status == "done" and summary.done == 6


def test_kill_9_of_the_forkserver_leaves_no_worker_and_no_internal_error(store_path: Path, tmp_path) -> None:
    spec_file = tmp_path / "s.toml"
    spec_file.write_text(_spec("spin = 300000", 6))
    driver = _driver(store_path, str(spec_file), "--workers", "2")
    try:
        _wait(lambda: len(_descendants(driver.pid)) >= 4, 120, "the pool to start")
        server = next(
            p
            for p in _descendants(driver.pid)
            if "forkserver" in Path(f"/proc/{p}/cmdline").read_text() and _parent(p) == driver.pid
        )
        workers = _descendants(server)
        os.kill(server, signal.SIGKILL)
        _wait(lambda: not any(_alive(p) for p in workers), 20, "the server's workers to end")
        out, err = driver.communicate(timeout=180)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode in (0, 2), err
    if driver.returncode == 2:
        assert json.loads(err.strip().splitlines()[-1])["field"] != "internal"
    else:
        assert json.loads(out)["status"] in ("done", "partial")


def test_every_spelling_of_a_store_shares_one_experiment_lock(tmp_path: Path, monkeypatch) -> None:
    """The page passes its own path and a terminal a relative `--db`: both must contend for the same lock."""
    from core.experiments.lock import experiment_lock

    monkeypatch.chdir(tmp_path)
    assert lock_path("orca.duckdb", "abc") == lock_path(tmp_path / "orca.duckdb", "abc")
    other = tmp_path / "sub" / ".." / "orca.duckdb"
    with (
        experiment_lock("orca.duckdb", "abc"),
        pytest.raises(ExperimentBusy) as err,
        experiment_lock(other, "abc"),
    ):
        pass
    assert "abc" in str(err.value) and f"driver process {os.getpid()}" in str(err.value)
    with experiment_lock(tmp_path / "orca.duckdb", "abc"):
        pass  # released: free again
    assert not lock_path("orca.duckdb", "abc").exists(), "the holder removes its lock file"
