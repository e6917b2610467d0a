"""Two OS processes and several threads write and read one store file at the same time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest

from core.errors import StoreError
from core.store import Store

REPO = Path(__file__).resolve().parents[2]
RUNS_PER_WORKER = 3
MESSAGES_PER_RUN = 2
STEPS_PER_RUN = 2
SHARED_APPENDS = 3

# One worker: wait for the start signal, then create runs with messages and steps, append to a run shared by
# every worker, and read back. Prints its active interval as JSON; any exception fails the process.
WORKER = """
import json, sys, time
from pathlib import Path
from core.store import Store

def work(db, name, shared, go, runs, messages, steps, appends):
    store = Store(db)
    while not Path(go).exists():
        time.sleep(0.01)
    start = time.time()
    for i in range(runs):
        run_id = store.create_run("concurrency", {"worker": name, "i": i}, seed=i)
        for m in range(messages):
            store.add_message(run_id, "user", f"{name}-{i}-{m}")
        for s in range(steps):
            store.add_step(run_id, "tool_call", {"worker": name, "s": s}, input_tokens=s)
        if i < appends:
            store.add_message(shared, "assistant", name)
            store.add_step(shared, "note", {"worker": name})
        store.update_run(run_id, status="done", metrics={"i": i})
        turns = store.messages(shared)["turn"].tolist()
        assert turns == list(range(1, len(turns) + 1)), turns
        assert store.get_run(run_id)["status"] == "done"
        assert len(store.list_runs(workbench="concurrency", limit=1000)) >= i + 1
    return {"name": name, "start": start, "end": time.time()}

if __name__ == "__main__":
    db, name, shared, go, ready = sys.argv[1:6]
    store = Store(db)
    Path(ready).touch()
    print(json.dumps(work(db, name, shared, go, *map(int, sys.argv[6:]))))
"""


def _thread_worker(db: Path, name: str, shared: str, go: Path, out: list, errors: list) -> None:
    namespace: dict = {"__name__": "orca_worker"}
    exec(WORKER, namespace)
    try:
        out.append(
            namespace["work"](
                db, name, shared, go, RUNS_PER_WORKER, MESSAGES_PER_RUN, STEPS_PER_RUN, SHARED_APPENDS
            )
        )
    except BaseException as err:
        errors.append(err)


@pytest.mark.slow
def test_two_processes_and_threads_write_and_read_one_file(tmp_path: Path) -> None:
    db = tmp_path / "shared.duckdb"
    store = Store(db)
    shared = store.create_run("concurrency", {"shared": True})
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    counts = [str(n) for n in (RUNS_PER_WORKER, MESSAGES_PER_RUN, STEPS_PER_RUN, SHARED_APPENDS)]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER,
                str(db),
                f"proc{k}",
                shared,
                str(go),
                str(tmp_path / f"ready{k}"),
                *counts,
            ],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(2)
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"ready{k}").exists() for k in range(2)):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), "workers did not start"
        time.sleep(0.02)

    results: list[dict] = []
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=_thread_worker, args=(db, f"thread{k}", shared, go, results, errors))
        for k in range(3)
    ]
    for t in threads:
        t.start()
    go.touch()
    for t in threads:
        t.join(timeout=120)
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        assert p.returncode == 0, stderr
        results.append(json.loads(stdout.strip().splitlines()[-1]))
    assert errors == []

    workers = 5
    assert sorted(r["name"] for r in results) == ["proc0", "proc1", "thread0", "thread1", "thread2"]
    assert max(r["start"] for r in results) < min(r["end"] for r in results), "workers never overlapped"

    runs = store.list_runs(workbench="concurrency", limit=1000)
    assert len(runs) == workers * RUNS_PER_WORKER + 1
    assert runs["id"].is_unique
    for _, run in runs[runs["id"] != shared].iterrows():
        assert run["status"] == "done"
        assert store.messages(run["id"])["turn"].tolist() == list(range(1, MESSAGES_PER_RUN + 1))
        assert store.steps(run["id"])["step"].tolist() == list(range(1, STEPS_PER_RUN + 1))
    shared_msgs = store.messages(shared)
    assert shared_msgs["turn"].tolist() == list(range(1, workers * SHARED_APPENDS + 1))
    assert sorted(shared_msgs["content"].value_counts().tolist()) == [SHARED_APPENDS] * workers
    assert store.steps(shared)["step"].tolist() == list(range(1, workers * SHARED_APPENDS + 1))


HOLDER = """
import sys, time, duckdb
con = duckdb.connect(sys.argv[1])
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
con.close()
"""


def _hold(db: Path, seconds: float) -> subprocess.Popen:
    """Another program (not ORCA) holding the DuckDB file lock for `seconds`."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
    return proc


def test_waits_for_a_foreign_lock_holder_then_succeeds(tmp_path: Path) -> None:
    db = tmp_path / "held.duckdb"
    store = Store(db)
    holder = _hold(db, 1.0)
    started = time.monotonic()
    run_id = store.create_run("inventory", {})
    waited = time.monotonic() - started
    holder.wait(timeout=10)
    assert store.get_run(run_id)["workbench"] == "inventory"
    assert waited > 0.5


def test_gives_up_with_a_clear_error_after_the_timeout(tmp_path: Path) -> None:
    db = tmp_path / "held.duckdb"
    impatient = Store(db, timeout_s=0.4)
    holder = _hold(db, 5.0)
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="locked by another program"):
            impatient.create_run("inventory", {})
        assert time.monotonic() - started > 0.3  # it waited (a lower bound: load cannot break it)
        assert holder.poll() is None  # and gave up while the lock was still held, not after the holder's 5 s
    finally:
        holder.kill()
        holder.wait()
    assert duckdb.connect(str(db)).execute("SELECT count(*) FROM runs").fetchall() == [(0,)]


def test_threads_wait_for_a_batch_and_give_up_after_their_timeout(tmp_path: Path) -> None:
    db = tmp_path / "batch.duckdb"
    store = Store(db)
    run_id = store.create_run("inventory", {})
    impatient = Store(db, timeout_s=0.3)
    outcome: dict[str, object] = {}

    def other_thread() -> None:
        try:
            impatient.add_step(run_id, "k", {})
        except StoreError as err:
            outcome["error"] = str(err)

    with store.batch():
        store.add_step(run_id, "k", {"in": "batch"})
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join(timeout=10)
    assert "busy in this process" in str(outcome.get("error"))
    assert store.steps(run_id)["payload"].tolist() == [{"in": "batch"}]
