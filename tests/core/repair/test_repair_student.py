"""A student's typed LP repair actions: the CLI's checks, then the environment's action validation."""

import pytest

from core.errors import SpecError
from core.repair.lab import RepairSession
from core.repair.student import StudentAgent, student_action, student_actions
from solvers.lp.env import default_problems


def test_a_typed_action_becomes_the_envs_tool_call():
    assert student_action("UPDATE_RHS", " capacity_e1 ", "443.81") == {
        "name": "UPDATE_RHS",
        "arguments": {"target": "capacity_e1", "value": 443.81},
    }
    assert student_action("GET_IIS", "", "") == {"name": "GET_IIS", "arguments": {}}
    bounds = student_action("UPDATE_BOUNDS", "x_e1_t1", "0", "")
    assert bounds["arguments"] == {"target": "x_e1_t1", "value": 0.0}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        (("UPDATE_RHS", "capacity_e1", "nan"), "value"),
        (("UPDATE_RHS", "capacity_e1", "inf"), "value"),
        (("UPDATE_RHS", "capacity_e1", "1e13"), "value"),
        (("UPDATE_RHS", "capacity_e1", "9" * 100), "value"),
        (("UPDATE_RHS", "capacity_e1", "ten"), "value"),
        (("DROP_CONSTRAINT", "x" * 201), "target"),
        (("DROP_CONSTRAINT", "cap\x00acity"), "target"),
        (("DROP_CONSTRAINT", ""), "target"),
        (("UPDATE_RHS", "capacity_e1", ""), "value"),
        (("UPDATE_COEF", "inv_balance_e1", "-1"), "action"),
        (("DELETE_EVERYTHING",), "action"),
    ],
)
def test_malformed_fields_are_refused_naming_the_field(fields, field):
    with pytest.raises(SpecError) as err:
        student_action(*fields)
    assert err.value.field == field


def test_update_coef_only_with_the_extended_set_and_a_whole_lag():
    assert "UPDATE_COEF" not in student_actions(False) and "UPDATE_COEF" in student_actions(True)
    coef = student_action("UPDATE_COEF", "inv_balance_e1", "-1", var="x_e1", lag=1, extended=True)
    assert coef["arguments"] == {"target": "inv_balance_e1", "value": -1.0, "var": "x_e1", "lag": 1}
    with pytest.raises(SpecError):
        student_action("UPDATE_COEF", "inv_balance_e1", "-1", var="x_e1", lag=True, extended=True)


def test_the_student_agent_waits_for_an_action():
    agent = StudentAgent()
    with pytest.raises(SpecError, match="no action chosen yet"):
        agent.act("obs")


def test_a_malformed_action_costs_no_step_and_a_protected_row_costs_one():
    problem = next(p for p in default_problems() if p.error_type.value == "ME-4")
    session = RepairSession(problem, "student")
    with pytest.raises(SpecError):
        session.play(student_action("UPDATE_RHS", "capacity_e1", "lots"))
    assert len(session.trace) == 1
    session.play(student_action("DROP_CONSTRAINT", "inv_balance_e1_t1"))
    assert len(session.trace) == 2 and "protected" in (session.trace[-1].error or "")
    offline = RepairSession(problem, "offline")
    with pytest.raises(SpecError, match="only a student episode"):
        offline.play(student_action("GET_IIS"))
