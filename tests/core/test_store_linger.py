"""A lingering connection (`Store(linger_s=...)`, the app's): calls in a burst share one DuckDB connection, and
the file is released once idle, after a failed call, and after `MAX_OPEN_S`; and the pickers' lighter run list."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.errors import SpecError, StoreError
from core.store import Store, connection

OPENER = "import sys, duckdb; duckdb.connect(sys.argv[1]).close()"  # another program, no retry


@pytest.fixture
def opens(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every DuckDB open the store makes."""
    seen: list[Path] = []
    real = connection._open

    def counted(path: Path, deadline: float):  # noqa: ANN202
        seen.append(path)
        return real(path, deadline)

    monkeypatch.setattr(connection, "_open", counted)
    return seen


def test_calls_in_a_burst_share_one_connection(tmp_path: Path, opens: list[Path]):
    store = Store(tmp_path / "s.duckdb", linger_s=30.0)
    run_id = store.create_run("inventory_copilot", {})
    for text in ("a", "b", "c"):
        store.add_message(run_id, "user", text)
    assert store.messages(run_id)["content"].tolist() == ["a", "b", "c"]
    assert len(opens) == 1
    connection.release(store.path)
    assert connection.path_state(store.path).con is None
    plain = Store(tmp_path / "t.duckdb")  # the default closes after every call
    plain.create_run("inventory_copilot", {})
    assert len(opens) == 3


def test_the_file_is_released_once_idle(tmp_path: Path):
    store = Store(tmp_path / "s.duckdb", linger_s=0.05)
    store.create_run("inventory_copilot", {})
    deadline = time.monotonic() + 10
    while connection.path_state(store.path).con is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert connection.path_state(store.path).con is None
    done = subprocess.run([sys.executable, "-c", OPENER, str(store.path)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr  # another program can open the file again


def test_a_failed_call_closes_it(tmp_path: Path, opens: list[Path]):
    store = Store(tmp_path / "s.duckdb", linger_s=30.0)
    with pytest.raises(StoreError, match="no run"):
        store.add_message("nosuchrun", "user", "x")
    assert connection.path_state(store.path).con is None
    store.list_runs()
    assert len(opens) == 2
    connection.release(store.path)


def test_it_is_closed_after_max_open(tmp_path: Path, opens: list[Path], monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(connection, "MAX_OPEN_S", 0.0)
    store = Store(tmp_path / "s.duckdb", linger_s=30.0)
    store.list_runs()
    assert connection.path_state(store.path).con is None and len(opens) == 2


def test_run_labels_are_list_runs_without_the_counts(tmp_path: Path):
    store = Store(tmp_path / "s.duckdb")
    for i in range(3):
        run_id = store.create_run("inventory_copilot", {}, title=f"t{i}")
        if i:
            store.add_message(run_id, "user", f"hello {i}")
            store.add_message(run_id, "assistant", "hi")
            store.add_message(run_id, "user", f"again {i}")
    store.create_run("school_scheduling", {})
    full = store.list_runs(workbench="inventory_copilot", limit=2)
    labels = store.run_labels("inventory_copilot", limit=2)
    assert labels["id"].tolist() == full["id"].tolist() and len(labels) == 2
    for a, b in zip(labels.itertuples(), full.itertuples(), strict=True):
        assert (a.title, a.status, a.created_at) == (b.title, b.status, b.created_at)
        assert list(a.first_user_messages) == list(b.first_user_messages)
    with pytest.raises(SpecError):
        store.run_labels("inventory_copilot", limit=0)


def test_reads_do_not_wait_for_another_threads_writes(tmp_path: Path):
    store = Store(tmp_path / "s.duckdb", timeout_s=0.5, linger_s=30.0)
    run_id = store.create_run("inventory_copilot", {})
    store.add_message(run_id, "user", "committed")
    inside, leave = threading.Event(), threading.Event()

    def writer() -> None:
        with store.batch():
            store.add_message(run_id, "assistant", "not yet committed")
            assert store.messages(run_id)["content"].tolist() == ["committed", "not yet committed"]  # its own
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert inside.wait(10)
        # the lock is held by the writer well past this store's 0.5 s timeout; the reads neither wait nor fail
        for _ in range(3):
            assert store.messages(run_id)["content"].tolist() == ["committed"]
            assert list(store.run_labels("inventory_copilot")["id"]) == [run_id]
            time.sleep(0.2)
    finally:
        leave.set()
        thread.join(10)
    assert store.messages(run_id)["content"].tolist() == ["committed", "not yet committed"]
    connection.release(store.path)
    assert connection.path_state(store.path).con is None


def test_a_close_waits_for_the_reads_on_the_connection(tmp_path: Path):
    store = Store(tmp_path / "s.duckdb", linger_s=30.0)
    store.create_run("inventory_copilot", {})
    state = connection.path_state(store.path)
    reading, done = threading.Event(), threading.Event()

    def slow_read(con):  # noqa: ANN001, ANN202 - a read that holds its cursor a while
        reading.set()
        done.wait(10)
        return con.execute("SELECT count(*) FROM runs").fetchone()[0]

    out: list[int] = []
    thread = threading.Thread(target=lambda: out.append(store._read(slow_read)))
    thread.start()
    assert reading.wait(10)
    connection.release(store.path)  # asks for the close; it must not pull the connection from under the read
    assert state.con is not None and state.retire
    done.set()
    thread.join(10)
    assert out == [1]
    deadline = time.monotonic() + 10
    while state.con is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert state.con is None


def test_threads_reading_and_writing_on_one_lingering_connection(tmp_path: Path):
    """Four session threads of one app process: each writes turns to its own run and reads every run's list and
    messages between them, on the lingering connection; nothing fails, every run's turns are 1..n."""
    store = Store(tmp_path / "s.duckdb", linger_s=0.25)
    errors: list[BaseException] = []
    runs: list[str] = []

    def session(k: int) -> None:
        try:
            run_id = store.create_run("inventory_copilot", {}, title=f"s{k}")
            runs.append(run_id)
            for turn in range(10):
                with store.batch():
                    store.add_messages(run_id, [("user", f"{k}-{turn}", None), ("assistant", "ok", None)])
                assert len(store.messages(run_id)) == 2 * (turn + 1)
                store.run_labels("inventory_copilot")
                store.list_runs()
        except BaseException as err:  # noqa: BLE001 - reported by the main thread
            errors.append(err)

    threads = [threading.Thread(target=session, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    for run_id in runs:
        assert store.messages(run_id)["turn"].tolist() == list(range(1, 21))
    connection.release(store.path)


def test_runs_with_artifact_lists_only_the_workbench_runs_that_saved_it(tmp_path: Path) -> None:
    """One query for the Policy Simulator's list of Copilot runs (it read every run's artifacts, one query each)."""
    store = Store(tmp_path / "orca.duckdb")
    first = store.create_run("inventory_copilot", {}, title="first")
    store.create_run("inventory_copilot", {}, title="no table yet")
    other = store.create_run("school_scheduling", {}, title="elsewhere")
    second = store.create_run("inventory_copilot", {}, title="second")
    for run in (first, other, second):
        store.add_artifact(run, "extracted_params.csv", data=b"parameter,value\n")
    listed = store.runs_with_artifact("inventory_copilot", "extracted_params.csv")
    assert list(listed["id"]) == [second, first]
    with pytest.raises(SpecError):
        store.runs_with_artifact("inventory_copilot", "extracted_params.csv", limit=0)
