"""Issue 12, the run store under damage: a corrupted file is named, left untouched and never overwritten; a
writer killed with SIGKILL mid-write loses no committed run; a full disk is reported as such at once (not as
"busy"); text that is not valid Unicode is stored, not a crash."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from core import cli
from core.errors import StoreError
from core.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def good_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("good") / "orca.duckdb"
    store = Store(path)
    for i in range(40):
        run_id = store.create_run("inventory_copilot", {"i": i, "pad": "x" * 2000})
        store.add_message(run_id, "user", "hello " * 300)
    return path


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(path.stat().st_size))


def _truncated(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 3)


def _bad_header(path: Path) -> None:
    with path.open("r+b") as f:
        f.seek(8)
        f.write(b"XXXXXXXX")


def _bad_blocks(path: Path) -> None:
    size = path.stat().st_size
    with path.open("r+b") as f:
        for offset in range(3 * 4096 + 100, size, 4096):
            f.seek(offset)
            f.write(os.urandom(64))


def _a_csv(path: Path) -> None:  # DuckDB itself would open a CSV as a view; ORCA must not write into it
    path.write_text("parameter,value\ntime_horizon,30\n")


@pytest.mark.parametrize("damage", [_garbage, _truncated, _bad_header, _bad_blocks, _a_csv])
def test_a_damaged_store_is_named_and_left_untouched(
    damage, good_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "damaged.duckdb"
    shutil.copy(good_store, path)
    damage(path)
    before = _digest(path)
    with pytest.raises(StoreError) as err:
        Store(path).list_runs()
    message = str(err.value)
    assert str(path) in message and "Nothing was written" in message and "--db" in message
    assert cli.main(["--db", str(path), "runs", "list"]) == 2
    error = json.loads(capsys.readouterr().err)
    assert error["field"] == "store" and "damaged" in error["error"]
    assert _digest(path) == before  # never overwritten, not even by a migration
    assert not path.with_name(path.name + ".wal").exists()
    fresh = Store(tmp_path / "new.duckdb")  # the way out the message names works
    assert fresh.list_runs().empty


WRITER = textwrap.dedent(
    """
    import sys
    from core.store import Store

    store = Store(sys.argv[1])
    i = 0
    while True:
        run_id = store.create_run("inventory_copilot", {"i": i}, seed=i)
        with store.batch():
            for turn in range(5):
                store.add_message(run_id, "user", f"message {turn} " * 50)
            store.add_step(run_id, "tool_call", {"i": i})
        store.update_run(run_id, status="done", metrics={"i": i})
        print(run_id, flush=True)  # committed: everything above is on disk
        i += 1
    """
)


def test_kill_9_during_writes_loses_no_committed_run(tmp_path: Path) -> None:
    path = tmp_path / "orca.duckdb"
    Store(path)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    committed: list[str] = []
    assert writer.stdout is not None
    deadline = time.monotonic() + 60
    while len(committed) < 15 and time.monotonic() < deadline:
        committed.append(writer.stdout.readline().strip())
    time.sleep(0.05)  # most likely in the middle of the next run's writes
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    committed += [line.strip() for line in writer.stdout.read().splitlines() if line.strip()]
    assert len(committed) >= 15

    store = Store(path)  # opens after the kill
    runs = store.list_runs(limit=10_000).set_index("id")
    for run_id in committed:
        assert runs.loc[run_id, "status"] == "done"
        assert runs.loc[run_id, "n_messages"] == 5 and runs.loc[run_id, "n_steps"] == 1
    torn = runs[~runs.index.isin(committed)]  # at most the run being written at the kill
    assert len(torn) <= 1
    assert store.create_run("inventory_copilot", {}) in set(store.list_runs()["id"])


FILLER = textwrap.dedent(
    """
    import os, resource, signal, sys
    from core.errors import StoreError
    from core.store import Store, connection

    waits = []
    backoff = connection._backoff
    connection._backoff = lambda delay, deadline: waits.append(delay) or backoff(delay, deadline)
    path = sys.argv[1]
    store = Store(path)
    run_id = store.create_run("inventory_copilot", {})
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG, like a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(path) + 50_000, resource.RLIM_INFINITY))
    try:
        for _ in range(200):
            store.add_message(run_id, "user", "x" * 100_000)
    except StoreError as err:
        print(len(waits), err, sep="\\n")
    """
)


def test_a_full_disk_is_reported_at_once_not_as_busy(tmp_path: Path) -> None:
    path = tmp_path / "orca.duckdb"
    done = subprocess.run(
        [sys.executable, "-c", FILLER, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    waits, message = done.stdout.split("\n", 1)
    assert waits == "0" and "busy" not in message  # reported at once: not one retry as if the store were busy
    assert "File too large" in message and "Nothing of this step was saved" in message
    assert len(Store(path).list_runs()) == 1  # the store still opens, the committed run is there


def test_text_that_is_not_valid_unicode_is_stored(tmp_path: Path) -> None:
    store = Store(tmp_path / "orca.duckdb")
    run_id = store.create_run("inventory_copilot", {"note": "\ud800"}, title="t\udfff")
    store.add_message(run_id, "user", "hello \ud800 world")
    assert store.messages(run_id)["content"].tolist() == ["hello \ufffd\ufffd\ufffd world"]
