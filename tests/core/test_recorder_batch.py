"""`Recorder.batch`: a turn's writes are held in memory and written in one short transaction when the block ends
(issue 31: a class on one server, where a turn's burst of numbered inserts held the store's lock)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from core.errors import StoreError
from core.llm import Message
from core.recorder import Recorder, RunStatus
from core.store import Store


def _spy(monkeypatch: pytest.MonkeyPatch, names: list[str]) -> list[str]:
    calls: list[str] = []
    for name in names:
        real = getattr(Store, name)

        def spy(self: Store, *args: object, _real=real, _name=name, **kwargs: object):  # noqa: ANN202
            calls.append(_name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, spy)
    return calls


def test_a_turn_is_written_when_the_block_ends_in_one_statement_per_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    store = Store(tmp_path / "s.duckdb", timeout_s=0.5)
    rec = Recorder(store, "inventory_copilot", status=RunStatus.ACTIVE)
    run_id = rec.start()
    calls = _spy(monkeypatch, ["add_message", "add_messages", "add_step", "add_steps"])
    with rec.batch():
        rec.message("user", "We sell croissants.")
        rec.messages([Message("assistant", "How many a day?"), Message("user", "About 40.")])
        rec.event("extraction", {"action": "ask"}, latency_ms=3.0)
        rec.event("critic", {"ok": True})
        rec.artifact("notes.txt", b"hello")
        rec.update(metrics={"turns": 1})
        # nothing is written yet, and the store is not held: another writer gets in at once
        assert store.messages(run_id).empty and store.steps(run_id).empty
        other: list[str] = []
        thread = threading.Thread(target=lambda: other.append(store.create_run("school_scheduling", {})))
        thread.start()
        thread.join(10)
        assert len(other) == 1
    assert store.messages(run_id)["turn"].tolist() == [1, 2, 3]
    assert store.messages(run_id)["content"].tolist() == ["We sell croissants.", "How many a day?", "About 40."]
    assert store.steps(run_id)["kind"].tolist() == ["extraction", "critic"]
    assert store.get_artifact(run_id, "notes.txt") == b"hello"
    assert store.get_run(run_id)["metrics"] == {"turns": 1}
    assert calls == ["add_messages", "add_steps"]
    rec.message("assistant", "Thanks.")  # outside a block: written at once, numbered after the batch
    assert store.messages(run_id)["turn"].tolist() == [1, 2, 3, 4]


def test_a_failed_block_writes_nothing_and_the_run_is_created_at_its_end(tmp_path: Path):
    store = Store(tmp_path / "s.duckdb")
    rec = Recorder(store, "school_scheduling")
    with pytest.raises(RuntimeError), rec.batch():
        rec.message("user", "hello")
        raise RuntimeError("the provider failed")
    assert rec.run_id is None and store.list_runs().empty
    with rec.batch():
        rec.message("user", "hello again")
        assert rec.run_id is None
    assert rec.run_id is not None
    assert store.messages(rec.run_id)["content"].tolist() == ["hello again"]


def test_a_read_only_recorder_refuses_inside_a_block_at_once(tmp_path: Path):
    store = Store(tmp_path / "s.duckdb")
    rec = Recorder(store, "inventory_copilot")
    run_id = rec.start()
    rec.read_only = True
    with pytest.raises(StoreError, match="read-only"), rec.batch():
        rec.message("user", "mixed?")
    assert store.messages(run_id).empty


def test_finish_sets_the_status_and_releases_the_lease_in_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    store = Store(tmp_path / "s.duckdb")
    rec = Recorder(store, "policy_simulator")
    run_id = rec.start()
    assert store.lease(run_id)[0] == rec.owner
    calls = _spy(monkeypatch, ["batch", "update_run", "take_lease", "release_lease"])
    rec.finish(RunStatus.DONE, {"cost": 1.0})
    assert calls == ["batch", "update_run", "take_lease", "release_lease"]
    assert store.get_run(run_id)["status"] == "done" and store.lease(run_id)[0] is None
    idle = Recorder(store, "policy_simulator")
    idle.paused = True
    idle.finish()
    assert idle.run_id is None and len(store.list_runs()) == 1
