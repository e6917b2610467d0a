"""`python -m core.cli inventory chat`: one JSON line out per JSON line in, errors for malformed lines, offline."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from core.cli_args import provider_settings
from core.config import Settings
from core.store import Store
from solvers.inventory.parameters import PARAMETER_KEYS

ROOT = Path(__file__).resolve().parents[4]
KEYS = list(PARAMETER_KEYS)  # the table's rows in the order of extracted_params.csv
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
    run_ids = {o["run_id"] for o in out}  # every line, errors included, names the recorded run
    assert len(run_ids) == 1 and None not in run_ids
    for a in answers:
        assert set(a) == {"assistant", "action", "table", "policy", "run_id"}
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
    assert runs["id"].tolist() == list(run_ids)
    assert "interpret.txt" in set(store.artifacts(runs["id"][0])["name"])


def test_resume_continues_a_stored_conversation(tmp_path):
    db = tmp_path / "orca.duckdb"
    first = _chat([json.dumps({"user": ALL_AT_ONCE}), json.dumps({"user": "20 days"})], db)
    assert first.returncode == 0, first.stderr
    run_id = Store(db).list_runs(workbench="inventory_copilot")["id"][0]
    resumed = _chat([json.dumps({"user": "2"})], db, "--resume", run_id)
    assert resumed.returncode == 0, resumed.stderr
    (answer,) = [json.loads(line) for line in resumed.stdout.splitlines()]
    assert answer["action"] == "TERMINATE" and answer["policy"] is not None and answer["run_id"] == run_id
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
    settings = provider_settings(args)
    assert (settings.provider, settings.model, settings.seed) == ("openai", "gpt-4o-mini", 3)
    assert settings.api_key == "sk-test" and settings.base_url == "http://127.0.0.1:9/v1"
    default = provider_settings(argparse.Namespace(provider=None, model="m", base_url=None, seed=None))
    assert default.provider == "openai" and default.model == "m"


def _run_lines(copilot, lines: list[object]) -> list[dict]:
    from core.inventory.copilot.cli import run_chat

    stdin = io.StringIO("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    stdout = io.StringIO()
    run_chat(copilot, stdin, stdout)
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_bad_edit_lines_are_answered_with_an_error_and_the_session_continues():
    from core.inventory.copilot.session import Copilot, CopilotConfig

    copilot = Copilot(Settings(), None, CopilotConfig(paths=100))
    out = _run_lines(
        copilot,
        [
            {"edit": {"key": "bogus", "value": "2"}},
            {"edit": {"key": "lead_time", "value": "abc"}},
            {"edit": {"key": "lead_time", "value": "  "}},
            {"edit": {"key": "demand_distribution", "value": "weird(3"}},
            {"edit": {"key": "lead_time", "value": 2}},
            {"user": "Plan for 20 days."},
        ],
    )
    assert len(out) == 6
    assert [o.get("field") for o in out[:4]] == ["bogus", "lead_time", "lead_time", "demand_distribution"]
    assert all("error" in o for o in out[:4]) and copilot.run_id is None  # rejected edits create no run
    assert out[4]["table"]["lead_time"]["value"] == "2"
    assert out[5]["table"]["time_horizon"]["value"] == "20"


def test_an_unexpected_exception_is_an_error_line_not_the_end_of_the_session(monkeypatch):
    from core.inventory.copilot.session import Copilot

    copilot = Copilot(Settings())
    real = copilot.respond
    monkeypatch.setattr(
        copilot,
        "respond",
        lambda text, progress=None: (_ for _ in ()).throw(KeyError("x")) if text == "boom" else real(text),
    )
    out = _run_lines(copilot, [{"user": "boom"}, {"user": "Lead time is 3 days"}])
    assert out[0]["field"] == "internal" and "KeyError" in out[0]["error"]
    assert out[1]["table"]["lead_time"]["value"] == "3"


def test_a_provider_failure_has_a_field_and_the_retry_starts_clean(fake_llm):
    from core.inventory.copilot.session import Copilot

    settings = Settings(
        provider="openai", model="fake", base_url=fake_llm.openai_url, api_key="k", max_retries=0
    )
    reply = {
        "reasoning": "lead time given",
        "updated_table": {"lead_time": {"value": "3", "unit": "days", "status": "defined"}},
        "action": "ASK NEXT QUESTION",
        "next_question": "How long is the plan?",
    }
    fake_llm.script([{"status": 500}, {"text": json.dumps(reply)}])
    copilot = Copilot(settings)
    copilot.greeting()
    out = _run_lines(copilot, [{"user": "Lead time is 3 days"}, {"user": "Lead time is 3 days"}])
    assert out[0]["field"] == "provider" and "error" in out[0]
    assert out[1]["table"]["lead_time"]["value"] == "3"
    sent = fake_llm.requests[-1]["body"]["messages"][-1]["content"]
    assert sent.count("Lead time is 3 days") == 1
    assert [r for r, _ in copilot.extraction.state.log] == ["assistant", "user", "assistant"]
