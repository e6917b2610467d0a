"""Session bookkeeping: the undo stack, rollback after an infeasible solve, relaxations, cached frontier,
and rebuilding an uploaded district on resume."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

from core.schedule.agent import ScheduleAgent, build_system_prompt, district_from_record, district_record
from core.schedule.session import ScheduleSession
from core.schedule.state import ModelState

REPO = Path(__file__).resolve().parents[3]
CSV = "name,grade,enrollment,current_start\nAlpha ES,ES,300,8:00 AM\nBeta HS,HS,300,8:00 AM\nGamma MS,MS,100,9:00 AM\n"


def test_undo_stack_rewinds_to_earlier_states():
    session = ScheduleSession()
    session.call_solver()
    session.fix_start_time("Everett MS", "8:40 AM")
    session.call_solver()
    everett = session.state
    session.fix_start_time("Galileo HS", "8:40 AM")
    session.call_solver()
    assert session.undo_target() == everett
    session.remove_constraint("fix_start_time[Galileo HS=8:40 AM]")
    session.call_solver()
    assert session.undo_target() == ModelState()
    session.remove_constraint("fix_start_time[Everett MS=8:40 AM]")
    session.call_solver()
    assert session.undo_target() is None


def test_infeasible_solve_rolls_back_and_relaxation_applies_to_the_attempt():
    session = ScheduleSession()
    session.call_solver()
    session.fix_start_time("Everett MS", "9:30 AM")
    session.add_objective_upper_bound("schedule_deviation", 12)
    out = session.call_solver()
    assert out["status"] == "infeasible"
    assert session.state == ModelState()
    assert [c["name"] for c in out["attempted_constraints"]] == [
        "fix_start_time[Everett MS=9:30 AM]",
        "upper_bound[schedule_deviation]",
    ]
    raise_bound = next(r for r in session.infeasible.report.relaxations if r.action == "raise_bound")
    target = session.relaxed_state(raise_bound)
    for name, args in session.calls_to_reach(target):
        getattr(session, name)(**args)
    assert session.state.same_model(target)
    assert session.call_solver()["objectives"]["schedule_deviation"] == 16.5
    assert session.infeasible is None


def test_frontier_is_cached_per_constraints():
    session = ScheduleSession()
    session.call_solver()
    first = session.frontier()
    assert session._frontier() is session._frontier()
    session.fix_start_time("Everett MS", "9:30 AM")
    assert session.frontier() != first and len(session.frontiers) == 2
    assert not session.frontier_partial


def test_uploaded_district_survives_resume():
    record = district_record(CSV.encode(), ["8:00 AM", "9:00 AM"], "test school district")
    agent = ScheduleAgent(session=ScheduleSession(district_from_record(record)))
    agent.opening()
    agent.respond("Alpha at 9:00")
    stored = [
        {"role": m.role, "content": m.content, "tool_calls": [c.to_dict() for c in m.tool_calls] or None}
        for m in agent.messages
    ]
    resumed = ScheduleAgent(session=ScheduleSession(district_from_record(record)))
    assert resumed.replay(stored) == []
    assert resumed.session.state == agent.session.state
    assert "test school district" in build_system_prompt(resumed.session)
    assert "San Francisco" not in build_system_prompt(resumed.session)
    problems = ScheduleAgent().replay(stored)  # the SFUSD district has no school "Alpha ES"
    assert problems and "Alpha ES" in problems[0]


def test_bench_script_imports_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if Path(p or ".").resolve() != REPO])
    runpy.run_path(str(REPO / "bench" / "schedule_speed.py"), run_name="bench_import_check")


def test_cli_rejects_zero_weights_and_dedupes_fixes():
    def solve(*args):
        return subprocess.run(
            [sys.executable, "-m", "core.cli", "schedule", "solve", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )

    out = solve("--alpha", "0", "--beta", "0")
    assert out.returncode == 2 and "at least one objective weight must be positive" in out.stderr
    out = solve("--fix", "Everett MS=9:30 AM", "--fix", "everett=9:30")
    assert out.returncode == 0, out.stderr
    assert '"constraints": ["fix_start_time[Everett MS=9:30 AM]"]' in out.stdout
