"""The agent with an LLM (fake server), the system prompt, replay of stored chats, and the CLI protocol."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.config import Settings
from core.schedule.agent import ScheduleAgent, build_system_prompt
from core.store import Store

REPO = Path(__file__).resolve().parents[3]


def run_cli(*args: str, stdin: str = "", db: Path | None = None) -> subprocess.CompletedProcess[str]:
    store = ["--db", str(db)] if db is not None else []
    return subprocess.run(
        [sys.executable, "-m", "core.cli", *store, *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_system_prompt_has_the_four_parts_and_the_data():
    agent = ScheduleAgent()
    agent.opening()
    prompt = build_system_prompt(agent.session)
    for heading in (
        "## Task overview",
        "## Problem setting",
        "## Dialogue instructions",
        "## Tool usage tips",
    ):
        assert heading in prompt
    assert "| Galileo HS | HS | 1851 | 8:00 AM | 7:50 AM |" in prompt
    assert "Student Load Balancing: 25.65 (2,565 students)" in prompt


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_llm_agent_drives_tools_through_fake_server(provider, fake_llm):
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    settings = Settings(provider=provider, model="test-model", base_url=url, api_key="sk-test", max_retries=1)
    fake_llm.script(
        [
            {
                "tool_calls": [
                    {"name": "fix_start_time", "arguments": {"school": "Everet", "time": "9:30 AM"}}
                ]
            },
            {
                "tool_calls": [
                    {
                        "name": "add_objective_upper_bound",
                        "arguments": {"objective": "schedule_deviation", "value": 16},
                    }
                ]
            },
            {"tool_calls": [{"name": "call_solver", "arguments": {}}]},
            {
                "text": "Everett at 9:30 AM cannot keep the average change under 16 minutes; 16.5 is the floor."
            },
        ]
    )
    agent = ScheduleAgent.from_settings(settings)
    agent.opening()
    turn = agent.respond("Move Everett to 9:30 and keep disruption low")
    assert [c["name"] for c in turn.tool_calls] == [
        "fix_start_time",
        "add_objective_upper_bound",
        "call_solver",
    ]
    assert turn.tool_calls[2]["result"]["status"] == "infeasible"
    assert "16.5" in turn.text
    assert turn.constraints == []  # rolled back to proposal 1 (Section 9: resolve before changing more)
    attempted = [c["name"] for c in turn.tool_calls[2]["result"]["attempted_constraints"]]
    assert attempted == ["fix_start_time[Everett MS=9:30 AM]", "upper_bound[schedule_deviation]"]
    first_request = fake_llm.requests[0]["body"]
    sent = json.dumps(first_request)
    assert "Tool usage tips" in sent and "fix_start_time" in sent
    assert first_request["messages"][0]["role"] in ("user", "system")


def test_replay_rebuilds_the_session_from_stored_messages():
    agent = ScheduleAgent()
    agent.opening()
    agent.respond("Everett at 8:40 please")
    agent.respond("keep the peak under 2,500 students")
    stored = [
        {"role": m.role, "content": m.content, "tool_calls": [c.to_dict() for c in m.tool_calls] or None}
        for m in agent.messages
    ]
    resumed = ScheduleAgent()
    resumed.replay(stored)
    assert resumed.session.state == agent.session.state
    assert [p.result.assignment for p in resumed.session.proposals] == [
        p.result.assignment for p in agent.session.proposals
    ]
    assert len(resumed.messages) == len(agent.messages)
    assert resumed.respond("undo that").constraints == ["fix_start_time[Everett MS=8:40 AM]"]


def test_cli_solve_default_and_infeasible():
    out = run_cli("schedule", "solve")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["status"] == "optimal"
    assert data["objectives"] == {"student_load_balancing": 25.65, "schedule_deviation": 8.5}
    assert data["schedule"]["Galileo HS"] == "7:50 AM" and data["seconds"] > 0
    out = run_cli(
        "schedule",
        "solve",
        "--fix",
        "Everett MS=9:30 AM",
        "--max-deviation",
        "12",
        "--forbid",
        "Galileo HS=7:50 AM",
    )
    data = json.loads(out.stdout)
    assert data["status"] == "infeasible"
    assert "upper_bound[schedule_deviation]" in data["conflicting_constraints"]


def test_cli_solve_bad_school_exits_2(tmp_path):
    out = run_cli("schedule", "solve", "--fix", "Evrett=9:30 AM")
    assert out.returncode == 2
    assert "Did you mean: Everett MS?" in json.loads(out.stderr)["error"]


def test_cli_solve_custom_district(tmp_path):
    district = tmp_path / "d.csv"
    district.write_text(
        "name,grade,enrollment,current_start\nA,ES,300,8:00 AM\nB,ES,300,8:00 AM\nC,HS,100,9:00 AM\n"
    )
    times = tmp_path / "t.csv"
    times.write_text("start_time\n8:00 AM\n9:00 AM\n")
    data = json.loads(
        run_cli(
            "schedule", "solve", "--district", str(district), "--start-times", str(times), "--alpha", "10"
        ).stdout
    )
    assert data["objectives"]["student_load_balancing"] == 4.0
    assert sorted(data["schedule"].values()) == ["8:00 AM", "9:00 AM", "9:00 AM"]


def test_cli_chat_protocol(tmp_path):
    lines = "\n".join(
        [json.dumps({"user": "Could Everett start later?"}), "not json", json.dumps({"user": "this works"})]
    )
    db = tmp_path / "orca.duckdb"
    out = run_cli("schedule", "chat", "--provider", "offline", stdin=lines + "\n", db=db)
    assert out.returncode == 0, out.stderr
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(replies) == 4
    opening, moved, error, done = replies
    keys = {"assistant", "status", "schedule", "objectives", "constraints", "tool_calls", "run_id"}
    assert set(opening) == keys and len({r["run_id"] for r in replies}) == 1
    (run,) = Store(db).list_runs().to_dict("records")  # the chat is recorded under the printed run id
    assert run["id"] == opening["run_id"] and run["workbench"] == "school_scheduling"
    assert opening["status"] == moved["status"] == "optimal" and done["status"] == "no_change"
    assert opening["objectives"]["student_load_balancing"] == 25.65 and opening["tool_calls"] == []
    assert moved["schedule"]["Everett MS"] == "8:40 AM"
    assert moved["constraints"] == ["fix_start_time[Everett MS=8:40 AM]"]
    assert [c["name"] for c in moved["tool_calls"]] == ["fix_start_time", "call_solver"]
    assert moved["tool_calls"][1]["result"]["status"] == "optimal"
    assert "error" in error
    assert done["tool_calls"] == [] and "proposal 2" in done["assistant"]


def test_cli_refuses_an_oversized_district_and_a_nul_in_a_name(tmp_path, capsys):
    """The probe's cases: a 27 MB district (no answer in 120 s before) and a NUL inside a school name."""
    from core.cli import main

    big = tmp_path / "big.csv"
    row = "Lincoln Elementary School number 0000000,ES,300,8:00 AM\n"
    big.write_text("name,grade,enrollment,current_start\n" + row * (27_000_000 // len(row)))
    assert main(["schedule", "solve", "--district", str(big)]) == 2
    error = json.loads(capsys.readouterr().err)
    assert error["field"] == "district" and "big.csv is larger than the limit of 5 MB" in error["error"]
    nul = tmp_path / "nul.csv"
    nul.write_bytes(b"name,grade,enrollment,current_start\nA,ES,300,8:00 AM\nB\x00x,ES,300,8:00 AM\n")
    assert main(["schedule", "solve", "--district", str(nul)]) == 2
    error = json.loads(capsys.readouterr().err)
    assert error["field"] == "district" and "nul.csv line 3: control character" in error["error"]
