"""`python -m core.cli inventory chat`: one JSON line out per JSON line in, errors for malformed lines, offline."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from core.inventory.chat_cli import settings_from_args
from core.store import Store

ROOT = Path(__file__).resolve().parents[3]
KEYS = [
    "time_horizon",
    "demand_type",
    "demand_distribution",
    "perishability",
    "state_transition_model",
    "holding_cost",
    "penalty_cost",
    "setup_cost",
    "lead_time",
    "max_inventory",
    "max_order",
    "risk_tolerance",
]
ALL_AT_ONCE = (
    "I sell phone cases online. Daily demand is random, Poisson with λ = 3 units a day. If we're out, customers "
    "go elsewhere. Holding a case costs $0.50 per unit per day, and each lost sale costs us $4. There's a flat "
    "$3 fee per shipment, and deliveries arrive 1 day after we order. We can store up to 15 units, and the "
    "supplier caps a single order at 10 units. Nothing perishes."
)


def _chat(lines: list[str], db: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")} | {"ORCA_DB": str(db)}
    env.pop("ORCA_PROVIDER", None)
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "inventory", "chat", "--paths", "200", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def test_json_lines_dialogue_with_a_malformed_line(tmp_path):
    lines = [
        json.dumps({"user": ALL_AT_ONCE}),
        "{not json",
        "",
        json.dumps(["user", "hi"]),
        json.dumps({"user": 5}),
        json.dumps({"user": "Plan for 20 days."}),
        json.dumps({"edit": {"key": "lead_time", "value": "-2"}}),
        json.dumps({"user": "2"}),
        json.dumps({"user": "current inventory 4, day 4, no incoming orders"}),
        json.dumps({"user": "no thanks, that's all"}),
    ]
    db = tmp_path / "orca.duckdb"
    done = _chat(lines, db, "--provider", "offline", "--seed", "7")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 9  # one answer per non-blank line
    errors = [o for o in out if "error" in o]
    assert [e["field"] for e in errors] == ["input", "input", "user", "lead_time"]
    answers = [o for o in out if "error" not in o]
    assert [a["action"] for a in answers] == [
        "ASK NEXT QUESTION",
        "ASK NEXT QUESTION",
        "TERMINATE",
        "INTERPRET",
        "DONE",
    ]
    for a in answers:
        assert set(a) == {"assistant", "action", "table", "policy"}
        assert list(a["table"]) == KEYS
        assert all(set(cell) == {"value", "unit", "status"} for cell in a["table"].values())
    first = answers[0]
    assert first["policy"] is None
    assert first["table"]["time_horizon"] == {"value": None, "unit": "days", "status": "undefined"}
    assert first["table"]["demand_distribution"]["value"] == "poisson(3)"
    policy = answers[2]["policy"]
    assert policy["type"] in ("sS", "dqn") and policy["dqn_mean"] is None
    assert {"s", "S", "ss_mean", "recommended", "critic"} <= set(policy)
    assert answers[2]["assistant"].endswith("Do you have any other questions?")
    assert "units now" in answers[3]["assistant"]

    store = Store(db)
    runs = store.list_runs(workbench="inventory_copilot")
    assert runs["status"].tolist() == ["done"] and runs["seed"].tolist() == [7]
    assert "interpret.txt" in set(store.artifacts(runs["id"][0])["name"])


def test_resume_continues_a_stored_conversation(tmp_path):
    db = tmp_path / "orca.duckdb"
    first = _chat([json.dumps({"user": ALL_AT_ONCE}), json.dumps({"user": "20 days"})], db)
    assert first.returncode == 0, first.stderr
    run_id = Store(db).list_runs(workbench="inventory_copilot")["id"][0]
    resumed = _chat([json.dumps({"user": "2"})], db, "--resume", run_id)
    assert resumed.returncode == 0, resumed.stderr
    (answer,) = [json.loads(line) for line in resumed.stdout.splitlines()]
    assert answer["action"] == "TERMINATE" and answer["policy"] is not None
    assert answer["table"]["time_horizon"]["value"] == "20"
    assert len(Store(db).list_runs(workbench="inventory_copilot")) == 1
    missing = _chat([json.dumps({"user": "2"})], db, "--resume", "nope")
    assert missing.returncode == 2 and "no run" in missing.stderr


def test_a_provider_without_a_key_is_an_error(tmp_path):
    done = _chat([json.dumps({"user": "hi"})], tmp_path / "orca.duckdb", "--provider", "anthropic")
    assert done.returncode == 2
    assert "API key" in json.loads(done.stderr.strip().splitlines()[-1])["error"]
    assert done.stdout == ""


def test_settings_follow_the_flags(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    args = argparse.Namespace(provider="openai", model=None, base_url="http://127.0.0.1:9/v1", seed=3)
    settings = settings_from_args(args)
    assert (settings.provider, settings.model, settings.seed) == ("openai", "gpt-4o-mini", 3)
    assert settings.api_key == "sk-test" and settings.base_url == "http://127.0.0.1:9/v1"
    default = settings_from_args(argparse.Namespace(provider=None, model="m", base_url=None, seed=None))
    assert default.provider == "openai" and default.model == "m"
