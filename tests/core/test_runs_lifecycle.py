"""Issue 12, runs that lose their way: a chat prints its run id first; `runs delete` refuses a run a live
session holds; a session killed mid-way is marked interrupted on the next open and can be resumed;
`runs list --workbench` takes keys and CLI groups and names the known ones otherwise."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core import cli
from core.recorder import LEASE_SECONDS, RunStatus
from core.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _start_chat(db: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(db), "schedule", "chat", "--provider", "offline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object, dict]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    out = json.loads(captured.out) if captured.out.strip() else None
    return code, out, json.loads(captured.err) if captured.err.strip() else {}


def test_a_live_session_keeps_its_run_and_a_killed_one_is_interrupted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "orca.duckdb"
    Store(db)
    chat = _start_chat(db)
    assert chat.stdin is not None and chat.stdout is not None
    try:
        opening = json.loads(chat.stdout.readline())  # the first line names the run
        run_id = opening["run_id"]
        chat.stdin.write(json.dumps({"user": "Could Everett start later?"}) + "\n")
        chat.stdin.flush()
        assert "assistant" in json.loads(chat.stdout.readline())

        code, _, err = _cli(capsys, "--db", str(db), "runs", "delete", run_id)
        assert code == 2 and err["field"] == "store" and "in use by a live session" in err["error"]
        assert Store(db).get_run(run_id)["status"] == RunStatus.ACTIVE  # a live session is not interrupted
        for group in ("schedule", "inventory"):  # nor resumed by a second session
            code, _, err = _cli(capsys, "--db", str(db), group, "chat", "--resume", run_id)
            assert code == 2 and err["field"] == "--resume" and "in use by a live session" in err["error"]
    finally:
        chat.send_signal(signal.SIGKILL)  # killed mid-session: no clean end, its lease stays behind
        chat.wait(timeout=30)

    store = Store(db)  # the next open notices the writer is gone
    assert run_id in store.interrupted and store.get_run(run_id)["status"] == RunStatus.INTERRUPTED
    code, shown, _ = _cli(capsys, "--db", str(db), "runs", "show", run_id)
    assert code == 0 and shown["resume"] == f"python -m core.cli schedule chat --resume {run_id}"

    resumed = subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), "schedule", "chat", "--resume", run_id],
        input=json.dumps({"user": "this works"}) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    first, answer = (json.loads(line) for line in resumed.stdout.splitlines())
    assert first == {"run_id": run_id, "resumed": True, "problems": []}
    assert answer["run_id"] == run_id and "proposal" in answer["assistant"].lower()
    assert Store(db).get_run(run_id)["status"] == RunStatus.ACTIVE
    code, out, _ = _cli(capsys, "--db", str(db), "runs", "delete", run_id)  # the ended session freed it
    assert code == 0 and out == {"deleted": run_id}


def test_an_expired_lease_is_interrupted_and_force_deletes_a_held_run(tmp_path: Path) -> None:
    store = Store(tmp_path / "orca.duckdb")
    held = store.create_run("inventory_copilot", {}, status="active")
    assert store.take_lease(held, f"{os.getpid()}-test", LEASE_SECONDS)
    lapsed = store.create_run("inventory_copilot", {}, status="running")
    assert store.take_lease(lapsed, f"{os.getpid()}-old", -1.0)  # a lease that already ran out
    done = store.create_run("inventory_copilot", {}, status="done")
    reopened = Store(store.path)
    assert reopened.interrupted == [lapsed]
    statuses = {r["id"]: r["status"] for r in reopened.list_runs().to_dict("records")}
    assert statuses == {held: "active", lapsed: "interrupted", done: "done"}
    with pytest.raises(Exception, match="in use by a live session"):
        reopened.delete_run(held)
    reopened.delete_run(held, force=True)
    assert held not in set(reopened.list_runs()["id"])
    owner, until = reopened.lease(lapsed)
    assert owner is None and until is None


def test_workbench_filter_takes_keys_and_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "orca.duckdb"
    store = Store(db)
    ids = {
        key: store.create_run(key, {})
        for key in ("inventory_copilot", "policy_simulator", "school_scheduling")
    }
    store.create_run("lp_repair", {})  # a workbench this checkout does not know, but the store has

    def listed(name: str) -> set[str]:
        code, out, err = _cli(capsys, "--db", str(db), "runs", "list", "--workbench", name)
        assert code == 0, err
        return {r["workbench"] for r in out}

    assert listed("inventory") == {"inventory_copilot", "policy_simulator"}
    assert listed("schedule") == {"school_scheduling"}
    assert listed("policy_simulator") == {"policy_simulator"}
    assert listed("lp_repair") == {"lp_repair"}
    code, _, err = _cli(capsys, "--db", str(db), "runs", "list", "--workbench", "unknown")
    assert code == 2 and err["field"] == "--workbench"
    assert all(name in err["error"] for name in (*ids, "lp_repair", "inventory", "schedule"))
