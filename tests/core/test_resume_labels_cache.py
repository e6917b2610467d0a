"""`core/ui.py: resume_labels` is read once per store state and shared by every session (issue 31: a class on
one server), yet follows every write."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.store import Store
from core.ui import resume_labels, store_stamp


def test_labels_are_read_once_until_the_store_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = Store(tmp_path / "orca.duckdb")
    run_id = store.create_run("inventory_copilot", {}, title="first chat")
    store.add_message(run_id, "user", "Hello.")
    reads: list[str] = []
    real = Store.run_labels

    def counting(self: Store, *args: object, **kwargs: object):  # noqa: ANN202 - a pass-through spy
        reads.append(str(self.path))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Store, "run_labels", counting)
    first = resume_labels(store, "inventory_copilot")
    again = resume_labels(Store(store.path), "inventory_copilot")  # another session's handle on the same file
    assert list(first) == [run_id] and again == first and len(reads) == 1

    before = store_stamp(store.path)
    second = store.create_run("inventory_copilot", {}, title="second chat")
    store.add_message(second, "user", "We sell phone cases.")
    assert store_stamp(store.path) != before
    after = resume_labels(store, "inventory_copilot")
    assert len(reads) == 2 and "We sell phone cases." in after[second]
    assert resume_labels(None, "inventory_copilot") == {}


def test_the_simulators_copilot_run_list_is_shared_and_follows_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from core.inventory.simulator import inputs as sim_inputs
    from core.ui import store_read

    store = Store(tmp_path / "orca.duckdb")
    run_id = store.create_run("inventory_copilot", {}, title="phone cases")
    calls: list[int] = []
    real = Store.runs_with_artifact

    def counting(self: Store, workbench: str, name: str):  # noqa: ANN202 - a pass-through spy
        calls.append(1)
        return real(self, workbench, name)

    monkeypatch.setattr(Store, "runs_with_artifact", counting)
    assert store_read(sim_inputs.copilot_runs, store) == []
    assert store_read(sim_inputs.copilot_runs, store) == [] and len(calls) == 1  # the rerun reads nothing
    store.add_artifact(run_id, sim_inputs.PARAMS_ARTIFACT, data=b"parameter,value\n")
    assert [r for r, _ in store_read(sim_inputs.copilot_runs, store)] == [run_id]


def test_a_run_without_messages_gets_its_title_or_a_placeholder(tmp_path: Path):
    store = Store(tmp_path / "orca.duckdb")
    titled = store.create_run("inventory_copilot", {}, title="titled but empty")
    bare = store.create_run("inventory_copilot", {}, title="")
    labels = resume_labels(store, "inventory_copilot")
    assert "titled but empty" in labels[titled]
    assert "(no message yet)" in labels[bare]
