"""The DuckDB run store: runs, messages, steps, artifacts, migrations, exports, secrets."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from core.errors import SpecError, StoreError
from core.store import Store, connection, default_store_path, json_safe, scrub_secrets
from core.store.connection import _is_lock_conflict
from core.store.migrations import SCHEMA_VERSION, migrate


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "orca.duckdb")


def test_default_path_is_repo_data_unless_orca_db_is_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ORCA_DB", raising=False)
    assert default_store_path() == Path(__file__).resolve().parents[2] / "data" / "orca.duckdb"
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "elsewhere.duckdb"))
    assert default_store_path() == tmp_path / "elsewhere.duckdb"
    assert Store().path == (tmp_path / "elsewhere.duckdb").resolve()


def test_create_and_get_run_decodes_json(store: Store) -> None:
    run_id = store.create_run("inventory", {"demand": [1, 2], "policy": {"s": 3}}, seed=7, title="first")
    assert len(run_id) == 12 and int(run_id, 16) >= 0
    run = store.get_run(run_id)
    assert run["workbench"] == "inventory" and run["title"] == "first" and run["status"] == "running"
    assert run["seed"] == 7
    assert run["config"] == {"demand": [1, 2], "policy": {"s": 3}}
    assert run["metrics"] is None
    assert isinstance(run["created_at"], datetime) and run["updated_at"] == run["created_at"]


def test_secrets_are_never_stored(store: Store, tmp_path: Path) -> None:
    config = {
        "provider": "anthropic",
        "api_key": "sk-ant-SECRET1",
        "llm": {"openai_key": "sk-SECRET2", "Authorization": "Bearer SECRET3", "model": "m"},
        "headers": [{"x-api-key": "SECRET4", "accept": "json"}],
        "max_tokens": 100,
    }
    run_id = store.create_run("retail", config)
    store.update_run(run_id, config={**config, "ANTHROPIC_API_KEY": "SECRET5"})
    assert store.get_run(run_id)["config"] == {
        "provider": "anthropic",
        "llm": {"model": "m"},
        "headers": [{"accept": "json"}],
        "max_tokens": 100,
    }
    raw = (tmp_path / "orca.duckdb").read_bytes()
    assert b"SECRET" not in raw
    assert scrub_secrets({"sort": 1, "password": "x", "db_password": "y"}) == {"sort": 1}


def test_update_run_replaces_only_given_fields(store: Store) -> None:
    run_id = store.create_run("schedule", {"a": 1}, title="t")
    before = store.get_run(run_id)
    store.update_run(run_id, status="done", metrics={"cost": 12.5, "series": [1, 2]})
    after = store.get_run(run_id)
    assert after["status"] == "done" and after["metrics"] == {"cost": 12.5, "series": [1, 2]}
    assert after["config"] == {"a": 1} and after["title"] == "t"
    assert after["updated_at"] >= before["updated_at"]
    with pytest.raises(StoreError, match="no run with id 'nope'"):
        store.update_run("nope", status="done")


def test_messages_and_steps_are_numbered_per_run(store: Store) -> None:
    a = store.create_run("inventory", {})
    b = store.create_run("inventory", {})
    assert [store.add_message(a, "user", "hi"), store.add_message(b, "user", "yo")] == [1, 1]
    calls = [{"id": "c1", "name": "solve", "arguments": {"s": 3}}]
    assert store.add_message(a, "assistant", "", tool_calls=calls) == 2
    assert store.add_step(a, "tool_call", {"name": "solve"}, 10, 5, 12.5) == 1
    assert store.add_step(a, "tool_result", {"ok": True}) == 2

    msgs = store.messages(a)
    assert list(msgs["turn"]) == [1, 2] and list(msgs["role"]) == ["user", "assistant"]
    assert msgs["tool_calls"].iloc[0] is None and msgs["tool_calls"].iloc[1] == calls
    steps = store.steps(a)
    assert list(steps["step"]) == [1, 2] and list(steps["kind"]) == ["tool_call", "tool_result"]
    assert steps["payload"].tolist() == [{"name": "solve"}, {"ok": True}]
    assert steps["input_tokens"].tolist() == [10, 0] and steps["output_tokens"].tolist() == [5, 0]
    assert steps["latency_ms"].iloc[0] == 12.5 and pd.isna(steps["latency_ms"].iloc[1])
    for add in (lambda: store.add_message("ghost", "user", "x"), lambda: store.add_step("ghost", "k", {})):
        with pytest.raises(StoreError, match="no run with id 'ghost'"):
            add()


def test_artifacts_blob_path_replace_and_errors(store: Store, tmp_path: Path) -> None:
    run_id = store.create_run("inventory", {})
    store.add_artifact(run_id, "policy.bin", data=b"\x00\x01v1")
    store.add_artifact(run_id, "policy.bin", data=b"\x00\x01v2!")
    model = tmp_path / "model.pt"
    model.write_bytes(b"weights")
    store.add_artifact(run_id, "model", path=str(model))

    assert store.get_artifact(run_id, "policy.bin") == b"\x00\x01v2!"
    assert store.get_artifact(run_id, "model") == b"weights"
    listing = store.artifacts(run_id)
    assert "blob" not in listing.columns
    assert listing["name"].tolist() == ["model", "policy.bin"] and listing["size"].tolist() == [7, 5]

    with pytest.raises(StoreError, match="no artifact named 'missing'"):
        store.get_artifact(run_id, "missing")
    with pytest.raises(StoreError, match="exactly one of data or path"):
        store.add_artifact(run_id, "both", data=b"x", path=str(model))
    with pytest.raises(StoreError, match="no run with id"):
        store.add_artifact("ghost", "x", data=b"x")
    model.unlink()
    with pytest.raises(StoreError, match="cannot be read"):
        store.get_artifact(run_id, "model")


def test_list_runs_newest_first_with_filter_limit_and_counts(store: Store) -> None:
    ids = [store.create_run("inventory" if i % 2 else "schedule", {"i": i}) for i in range(5)]
    store.add_message(ids[4], "user", "a")
    store.add_step(ids[4], "k", {})
    store.add_step(ids[4], "k", {})

    runs = store.list_runs()
    assert runs["id"].tolist() == ids[::-1]
    assert runs.loc[0, "n_messages"] == 1 and runs.loc[0, "n_steps"] == 2 and runs.loc[1, "n_steps"] == 0
    assert runs["config"].tolist() == [{"i": i} for i in range(4, -1, -1)]
    assert store.list_runs(workbench="inventory")["id"].tolist() == [ids[3], ids[1]]
    assert len(store.list_runs(limit=2)) == 2
    assert store.list_runs(workbench="none").empty


def test_get_and_delete_unknown_or_deleted_run(store: Store) -> None:
    run_id = store.create_run("inventory", {})
    store.add_message(run_id, "user", "x")
    store.add_step(run_id, "k", {})
    store.add_artifact(run_id, "a", data=b"1")
    store.delete_run(run_id)
    with pytest.raises(StoreError, match=f"no run with id '{run_id}'"):
        store.get_run(run_id)
    assert store.messages(run_id).empty and store.steps(run_id).empty and store.artifacts(run_id).empty
    with pytest.raises(StoreError, match="no run with id"):
        store.delete_run(run_id)


def test_export_run_json_is_complete_and_json_ready(store: Store) -> None:
    run_id = store.create_run("schedule", {"k": 1}, seed=3)
    store.add_message(run_id, "user", "plan", tool_calls=None)
    store.add_step(run_id, "request", {"messages": 1}, 4, 2, 9.0)
    store.add_artifact(run_id, "plan.csv", data=b"a,b\n")
    store.update_run(run_id, status="done", metrics={"gap": 0.0})

    exported = store.export_run_json(run_id)
    assert json.loads(json.dumps(exported)) == exported
    assert exported["run"]["id"] == run_id and exported["run"]["metrics"] == {"gap": 0.0}
    assert [m["content"] for m in exported["messages"]] == ["plan"]
    assert exported["steps"][0]["payload"] == {"messages": 1} and exported["steps"][0]["latency_ms"] == 9.0
    assert exported["artifacts"] == [
        {"name": "plan.csv", "path": None, "size": 4, "created_at": exported["artifacts"][0]["created_at"]}
    ]
    with pytest.raises(StoreError, match="no run with id 'ghost'"):
        store.export_run_json("ghost")


def test_export_parquet_selected_runs(store: Store, tmp_path: Path) -> None:
    keep = store.create_run("inventory", {"x": 1})
    other = store.create_run("inventory", {"x": 2})
    for run_id in (keep, other):
        store.add_message(run_id, "user", run_id)
        store.add_step(run_id, "k", {"run": run_id})
    store.add_artifact(keep, "a", data=b"bytes")

    files = store.export_parquet(tmp_path / "out", [keep])
    assert sorted(f.name for f in files) == [
        "artifacts.parquet",
        "messages.parquet",
        "runs.parquet",
        "steps.parquet",
        "transitions.parquet",
    ]
    runs = pd.read_parquet(tmp_path / "out" / "runs.parquet")
    assert runs["id"].tolist() == [keep] and json.loads(runs["config"].iloc[0]) == {"x": 1}
    assert pd.read_parquet(tmp_path / "out" / "messages.parquet")["content"].tolist() == [keep]
    assert "blob" not in pd.read_parquet(tmp_path / "out" / "artifacts.parquet").columns
    all_steps = duckdb.sql(f"SELECT count(*) FROM '{store.export_parquet(tmp_path / 'all')[2]}'").fetchall()
    assert all_steps == [(2,)]
    with pytest.raises(StoreError, match="no run with id 'ghost'"):
        store.export_parquet(tmp_path / "bad", [keep, "ghost"])


def test_batch_commits_together_or_not_at_all(store: Store) -> None:
    run_id = store.create_run("inventory", {})
    with store.batch():
        for i in range(5):
            store.add_step(run_id, "k", {"i": i})
    assert store.steps(run_id)["step"].tolist() == [1, 2, 3, 4, 5]
    with pytest.raises(RuntimeError), store.batch():
        store.add_step(run_id, "k", {})
        raise RuntimeError("boom")
    assert len(store.steps(run_id)) == 5


def test_opening_a_v1_file_migrates_it(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    assert migrate(con, target=1) == 1
    con.execute(
        "INSERT INTO runs (id, workbench, created_at, status, seed, config) VALUES (?, ?, ?, ?, ?, ?)",
        ["abc", "inventory", datetime(2025, 1, 2, 3, 4, 5), "done", 1, json.dumps({"old": True})],
    )
    con.execute("INSERT INTO messages VALUES ('abc', 1, 'user', 'hello', NULL, now()::TIMESTAMP)")
    con.execute(
        "INSERT INTO runs (id, workbench, created_at, status, seed, config) VALUES (?, ?, ?, ?, ?, ?)",
        ["cop", "inventory_copilot", datetime(2025, 1, 2, 3, 4, 6), "interpreting", 1, "{}"],
    )
    con.close()

    store = Store(path)
    assert store.get_run("cop")["status"] == "active", "one status vocabulary: 'interpreting' became 'active'"
    assert store.transitions("abc").empty
    assert store.schema_version == SCHEMA_VERSION == 5
    run = store.get_run("abc")
    assert run["title"] == "" and run["updated_at"] == datetime(2025, 1, 2, 3, 4, 5)
    assert run["config"] == {"old": True}
    assert store.add_message("abc", "assistant", "hi again") == 2
    versions = duckdb.connect(str(path)).execute("SELECT version FROM schema_version ORDER BY 1").fetchall()
    assert versions == [(1,), (2,), (3,), (4,), (5,)]


def test_a_file_from_a_newer_orca_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.duckdb"
    Store(path)
    con = duckdb.connect(str(path))
    con.execute("INSERT INTO schema_version VALUES (?, now()::TIMESTAMP)", [SCHEMA_VERSION + 1])
    con.close()
    with pytest.raises(StoreError, match="newer than this ORCA understands"):
        Store(path)


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.duckdb"
    path.write_bytes(b"this is not duckdb" * 1000)
    with pytest.raises(StoreError, match="is damaged or not a DuckDB file"):
        Store(path)


def test_unusable_paths_are_store_errors(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for bad in (tmp_path, blocker / "sub" / "orca.duckdb"):
        with pytest.raises(StoreError):
            Store(bad, timeout_s=1)


def test_secrets_are_scrubbed_from_steps_metrics_and_tool_calls(store: Store, tmp_path: Path) -> None:
    run_id = store.create_run("inventory", {"base_url": "http://alice:SECRET1@10.0.0.5:8000/v1"})
    store.add_step(
        run_id,
        "llm",
        {"request": {"api_key": "SECRET2", "url": "https://bob:SECRET3@host/v1"}, "text": "ok"},
    )
    store.update_run(run_id, metrics={"cost": 3.0, "settings": {"openai_api_key": "SECRET4"}})
    store.add_message(
        run_id, "assistant", "", tool_calls=[{"name": "f", "arguments": {"auth_token": "SECRET5"}}]
    )
    assert store.get_run(run_id)["config"] == {"base_url": "http://***@10.0.0.5:8000/v1"}
    assert store.steps(run_id)["payload"][0] == {"request": {"url": "https://***@host/v1"}, "text": "ok"}
    assert store.get_run(run_id)["metrics"] == {"cost": 3.0, "settings": {}}
    assert store.messages(run_id)["tool_calls"][0] == [{"name": "f", "arguments": {}}]
    assert b"SECRET" not in (tmp_path / "orca.duckdb").read_bytes()


def test_non_finite_numbers_are_stored_as_null(store: Store) -> None:
    run_id = store.create_run("inventory", {})
    store.update_run(run_id, metrics={"gap": float("nan"), "ratio": np.float64("inf"), "n": np.int64(3)})
    assert store.get_run(run_id)["metrics"] == {"gap": None, "ratio": None, "n": 3}
    assert json_safe({"a": (1.5, float("-inf"))}) == {"a": [1.5, None]}


@pytest.mark.parametrize("limit", [0, -1, 2.5, True])
def test_list_runs_refuses_a_bad_limit(store: Store, limit: object) -> None:
    with pytest.raises(SpecError) as err:
        store.list_runs(limit=limit)  # type: ignore[arg-type]
    assert err.value.field == "limit"


def test_export_parquet_checks_runs_before_creating_the_folder(store: Store, tmp_path: Path) -> None:
    store.create_run("inventory", {})
    with pytest.raises(StoreError, match="no run with id 'ghost'"):
        store.export_parquet(tmp_path / "never" / "made", ["ghost"])
    assert not (tmp_path / "never").exists()


def test_export_parquet_to_an_unwritable_place_is_a_store_error(store: Store, tmp_path: Path) -> None:
    run_id = store.create_run("inventory", {})
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="Could not write the export to .*a-file"):
        store.export_parquet(blocker / "out", [run_id])


def test_a_lock_file_that_cannot_be_created_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "orca.duckdb"
    (
        tmp_path / "orca.duckdb.lock"
    ).mkdir()  # like a read-only folder, even for root: the lock cannot be opened
    with pytest.raises(StoreError, match="cannot create its lock file .*orca.duckdb.lock"):
        Store(path, timeout_s=1)


def test_only_duckdb_lock_conflicts_are_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conflict = duckdb.IOException(
        'IO Error: Could not set lock on file "/x/o.duckdb": Conflicting lock is held'
    )
    assert _is_lock_conflict(conflict)
    assert not _is_lock_conflict(
        duckdb.IOException('IO Error: The file "/srv/lockers/o.duckdb" is not valid')
    )
    junk = tmp_path / "deadlock" / "orca.duckdb"
    junk.parent.mkdir()
    junk.write_bytes(b"not a database" * 100)
    waits: list[float] = []
    monkeypatch.setattr(connection, "_backoff", lambda delay, deadline: waits.append(delay) or delay)
    with pytest.raises(StoreError, match="is damaged or not a DuckDB file"):
        Store(junk, timeout_s=5)
    assert waits == []  # refused at once: not one wait for a lock


def test_a_record_writes_its_workbench_tables_in_the_same_transaction(store: Store) -> None:
    from datetime import date

    from core.store import RunRecord
    from core.store.retail import retail_records

    rows = pd.DataFrame({"date": [date(1991, 9, 7)], "sku_id": ["A"], "supplier_id": ["supplier_1"], "quality": [4.5]})
    record = RunRecord("retailbench", {"agent": "x"}, tables={"retail_eval_quality": rows})
    run_id = store.write_record(record)
    assert retail_records(store, run_id, "eval_quality")["quality"].tolist() == [4.5]
    for bad, message in (({"runs": rows}, "not a workbench record table"),
                         ({"no_such_table": rows}, "not a workbench record table"),
                         ({"retail_eval_quality": rows.drop(columns="quality")}, "lack the columns")):  # fmt: skip
        with pytest.raises(StoreError, match=message):
            store.write_record(RunRecord("retailbench", {"agent": "bad"}, tables=bad))
    assert len(store.list_runs()) == 1, "a refused record leaves no run behind"


def test_an_empty_record_table_is_written_as_no_rows_not_refused(store: Store) -> None:
    """A run that ends before its first day (a provider error, a stop) has record tables without rows and often
    without columns: nothing to check, nothing written, the run itself stored (issue 25)."""
    from core.store import RunRecord
    from core.store.retail import retail_records

    empty = {"retail_eval_quality": pd.DataFrame(), "retail_daily": pd.DataFrame(columns=["day"])}
    run_id = store.write_record(RunRecord("retailbench", {"agent": "x"}, status="failed", tables=empty))
    assert store.get_run(run_id)["status"] == "failed"
    assert len(retail_records(store, run_id, "eval_quality")) == 0 and len(retail_records(store, run_id, "daily")) == 0


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, "x", None, True], "nested": {"k": "v", "list": [{"deep": "ü → ✓"}]}, 3: "int key"},
        {"api_key": "sk-1", "ok": 1},
        {"password\n": "a trailing newline still ends the key for the scrubber", "ok": 1},
        {"headers": [{"X-Api-Key": "s", "accept": "json"}], "session_token": "t"},
        {"url": "https://user:pw@example.com/x", "other": "mailto:a@b.c"},
        {"nan": float("nan"), "arr": np.array([1.0, 2.0]), "n": np.int64(3)},
        {"bad": "\ud800 lone surrogate"},
        ["a", ("t", 1)],
        "plain",
    ],
)
def test_dumps_fast_path_writes_the_same_data_as_scrubbing(value) -> None:
    from core.store.codec import dumps

    slow = json.dumps(json_safe(scrub_secrets(value)), default=str, allow_nan=False)
    assert json.loads(dumps(value)) == json.loads(slow)
