"""Each T-P-P tool's semantics and errors, through the Toolbox the agents use."""

from __future__ import annotations

import pytest

from core.llm import Toolbox
from core.schedule.session import ScheduleSession
from core.schedule.state import resolve_school, resolve_time
from solvers.schedule.data import sfusd_district


@pytest.fixture
def box():
    session = ScheduleSession()
    return session, Toolbox(session.tools())


def names(result):
    return [c["name"] for c in result["model_summary"]["active_constraints"]]


def test_toolkit_names_and_schemas(box):
    _, toolbox = box
    assert toolbox.names == [
        "fix_start_time",
        "change_objective_weight",
        "add_objective_upper_bound",
        "remove_constraint",
        "call_solver",
        "get_model_summary",
        "show_alternatives",
    ]
    fix = next(s for s in toolbox.specs if s.name == "fix_start_time")
    assert fix.parameters["properties"]["type"]["enum"] == ["fix", "forbid"]
    assert fix.parameters["required"] == ["school", "time"]


def test_call_solver_processes_the_solution(box):
    _, toolbox = box
    result = toolbox.call("call_solver", {})
    assert result["status"] == "optimal"
    assert result["objective_summary"] == [
        "Student Load Balancing: 25.65 (2,565 students)",
        "Schedule Deviation: 8.5 minutes",
    ]
    assert result["schedule"]["Everett MS"] == "7:50 AM"
    moved = {c["school"]: (c["from"], c["to"]) for c in result["changes_vs_current_schedule"]}
    assert moved["Balboa HS"] == ("8:15 AM", "8:40 AM")
    assert "Muir (John) PK" not in moved
    assert result["changes_vs_previous_proposal"] == []


def test_fix_replaces_conflicting_constraints_for_that_school(box):
    _, toolbox = box
    toolbox.call("fix_start_time", {"school": "Everett MS", "time": "7:50 AM", "type": "forbid"})
    toolbox.call("fix_start_time", {"school": "Galileo HS", "time": "9:30 AM", "type": "forbid"})
    result = toolbox.call("fix_start_time", {"school": "everett", "time": "8:40"})
    assert names(result) == ["forbid_start_time[Galileo HS=9:30 AM]", "fix_start_time[Everett MS=8:40 AM]"]
    assert "Removed conflicting: forbid_start_time[Everett MS=7:50 AM]" in result["message"]
    result = toolbox.call("fix_start_time", {"school": "Everett MS", "time": "8:40 AM", "type": "forbid"})
    assert names(result) == ["forbid_start_time[Galileo HS=9:30 AM]", "forbid_start_time[Everett MS=8:40 AM]"]


def test_forbidding_every_time_is_refused(box):
    _, toolbox = box
    toolbox.call("fix_start_time", {"school": "Lick (James) MS", "time": "7:50 AM", "type": "forbid"})
    toolbox.call("fix_start_time", {"school": "Lick (James) MS", "time": "8:40 AM", "type": "forbid"})
    result = toolbox.call(
        "fix_start_time", {"school": "Lick (James) MS", "time": "9:30 AM", "type": "forbid"}
    )
    assert "would leave Lick (James) MS no start time" in result["error"]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"school": "Everet", "time": "9:15 AM"}, "9:15 AM is not a start-time option (nearest: 9:30 AM)"),
        ({"school": "Evrett MS", "time": "9:30 AM"}, "Did you mean: Everett MS?"),
        ({"school": "Hogwarts", "time": "9:30 AM"}, "Valid schools: Muir (John) PK"),
        ({"school": "Everett MS", "time": "soon"}, "valid start times: 7:50 AM, 8:40 AM, 9:30 AM"),
        ({"school": "Everett MS", "time": "9:30", "type": "prefer"}, "must be one of 'fix', 'forbid'"),
    ],
)
def test_fix_start_time_errors_name_valid_choices(box, arguments, expected):
    _, toolbox = box
    assert expected in toolbox.call("fix_start_time", arguments)["error"]


def test_change_objective_weight_changes_the_solution(box):
    session, toolbox = box
    result = toolbox.call("change_objective_weight", {"objective": "student_load_balancing", "weight": 3})
    assert result["model_summary"]["objective_weights"] == {
        "student_load_balancing": 3.0,
        "schedule_deviation": 1.0,
    }
    solved = toolbox.call("call_solver", {})
    assert solved["objectives"]["student_load_balancing"] == pytest.approx(19.87)
    assert "error" in toolbox.call("change_objective_weight", {"objective": "cost", "weight": 2})
    assert (
        "finite number >= 0"
        in toolbox.call("change_objective_weight", {"objective": "schedule_deviation", "weight": -1})["error"]
    )
    toolbox.call("change_objective_weight", {"objective": "schedule_deviation", "weight": 0})
    assert (
        "positive weight"
        in toolbox.call("change_objective_weight", {"objective": "student_load_balancing", "weight": 0})[
            "error"
        ]
    )


def test_upper_bound_replaces_earlier_bound_and_reports_binding(box):
    _, toolbox = box
    toolbox.call("call_solver", {})
    first = toolbox.call("add_objective_upper_bound", {"objective": "student_load_balancing", "value": 26})
    assert "not binding" in first["message"]
    second = toolbox.call(
        "add_objective_upper_bound", {"objective": "student_load_balancing", "value": 25.64}
    )
    assert "replaces the earlier limit 26" in second["message"] and "is binding" in second["message"]
    assert names(second) == ["upper_bound[student_load_balancing]"]
    solved = toolbox.call("call_solver", {})
    assert solved["objectives"]["student_load_balancing"] <= 25.64
    assert solved["changes_vs_previous_proposal"]
    assert (
        "positive number"
        in toolbox.call("add_objective_upper_bound", {"objective": "schedule_deviation", "value": 0})["error"]
    )


def test_remove_constraint(box):
    _, toolbox = box
    toolbox.call("add_objective_upper_bound", {"objective": "schedule_deviation", "value": 10})
    assert names(toolbox.call("remove_constraint", {"name": "upper_bound[schedule_deviation]"})) == []
    assert (
        "no active constraint named"
        in toolbox.call("remove_constraint", {"name": "upper_bound[schedule_deviation]"})["error"]
    )
    assert (
        "base model"
        in toolbox.call("remove_constraint", {"name": "assign_one_start_time[Everett MS]"})["error"]
    )


def test_infeasible_solve_reports_conflicts_and_keeps_proposal(box):
    session, toolbox = box
    toolbox.call("call_solver", {})
    toolbox.call("fix_start_time", {"school": "Everett MS", "time": "9:30 AM"})
    toolbox.call("add_objective_upper_bound", {"objective": "schedule_deviation", "value": 16})
    result = toolbox.call("call_solver", {})
    assert result["status"] == "infeasible"
    assert set(result["conflicting_constraints"]) == {
        "fix_start_time[Everett MS=9:30 AM]",
        "upper_bound[schedule_deviation]",
    }
    descriptions = [r["description"] for r in result["relaxations"]]
    assert "raise the schedule_deviation limit to 16.5 minutes" in descriptions
    assert "start Everett MS at 8:40 AM instead" in descriptions
    assert result["current_proposal_kept"] == 1 and len(session.proposals) == 1


def test_show_alternatives_leaves_model_unchanged(box):
    session, toolbox = box
    toolbox.call("call_solver", {})
    before = session.state
    result = toolbox.call("show_alternatives", {"count": 2})
    assert session.state == before
    options = result["alternatives"]
    assert len(options) == 2
    assert len({tuple(o["schedule"].values()) for o in options}) == 2
    assert all(o["schedule"] != session.current.result.schedule for o in options)
    assert "1 to 5" in toolbox.call("show_alternatives", {"count": 9})["error"]


def test_get_model_summary_lists_weights_and_constraints(box):
    _, toolbox = box
    toolbox.call("fix_start_time", {"school": "Cobb", "time": "7:50 AM"})
    summary = toolbox.call("get_model_summary", {})["model_summary"]
    assert summary["active_constraints"] == [
        {
            "name": "fix_start_time[Cobb (Dr William L) ES=7:50 AM]",
            "meaning": "Cobb (Dr William L) ES must start at 7:50 AM",
        }
    ]
    assert summary["start_time_options"] == ["7:50 AM", "8:40 AM", "9:30 AM"]


def test_calls_to_reach_round_trip(box):
    session, toolbox = box
    start = session.state
    toolbox.call("fix_start_time", {"school": "Everett MS", "time": "9:30 AM"})
    toolbox.call("add_objective_upper_bound", {"objective": "schedule_deviation", "value": 20})
    toolbox.call("change_objective_weight", {"objective": "schedule_deviation", "weight": 2})
    target = session.state
    for name, args in session.calls_to_reach(start):
        assert "error" not in toolbox.call(name, args)
    assert session.state == start
    for name, args in session.calls_to_reach(target):
        toolbox.call(name, args)
    assert session.state == target


def test_resolvers():
    district = sfusd_district()
    assert resolve_school(district, "lawton") == "Lawton K-8 (K-5)"
    assert resolve_school(district, "Transition Training Center") == "Transition Training Center (Access)"
    assert resolve_time(district, "840") == 520
