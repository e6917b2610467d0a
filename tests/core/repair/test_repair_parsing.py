"""Reply parsing: both OptiRepair formats to one Action; typed errors otherwise (acceptance check 7)."""

from __future__ import annotations

import math

import pytest

from core.repair.parsing import ReplyError, parse_reply
from solvers.lp.actions import Action, ActionName

A = ActionName
RELAX_CAP = Action(A.RELAX_CONSTRAINT, "capacity_e1", 50.0)
INF = math.inf

EQUIVALENT = [
    # (reply, expected action)
    ("<think>capacity is too low</think>\nAction: RELAX_CONSTRAINT(capacity_e1, 50.0)", RELAX_CAP),
    ("<think>x</think> Action: relax_constraint(capacity_e1, 50)", RELAX_CAP),
    ("<think>x</think>\naction: Relax-Constraint('capacity_e1', 50)", RELAX_CAP),
    ('<think>x</think>\nAction: RELAX_CONSTRAINT("capacity_e1", "50.0")', RELAX_CAP),
    ("<think>x</think>\nAction: RELAX(capacity_e1, 50)", RELAX_CAP),
    ("<think>x</think>\nAction: RELAX_CONSTRAINT(name=capacity_e1, amount=50)", RELAX_CAP),
    (
        '{"reasoning": "cap too low", "action": "RELAX_CONSTRAINT", "target": "capacity_e1", "value": 50.0}',
        RELAX_CAP,
    ),
    (
        '```json\n{"reasoning": "r", "action": "relax_constraint", "target": "capacity_e1", "value": "50"}\n```',
        RELAX_CAP,
    ),
    (
        '{"reasoning": "r", "action": "RELAX", "target": "capacity_e1", "value": 50, "extra": {"a": 1}}',
        RELAX_CAP,
    ),
    ('Sure. {"action": {"name": "RELAX_CONSTRAINT", "target": "capacity_e1", "value": 50}}', RELAX_CAP),
    (
        "<think>Maybe Action: DROP_CONSTRAINT(capacity_e1)? No.</think>\nAction: RELAX_CONSTRAINT(capacity_e1, 50)",
        RELAX_CAP,
    ),
    ("Action: DROP_CONSTRAINT(x)\nOn second thought:\nAction: RELAX_CONSTRAINT(capacity_e1, 50)", RELAX_CAP),
    (
        '<think>t</think><tool_call>{"name": "RELAX_CONSTRAINT", "arguments": {"target": "capacity_e1", "value": 50}}'
        "</tool_call>",
        RELAX_CAP,
    ),
    ("<think>a</think>\nAction: GET_IIS()", Action(A.GET_IIS)),
    ("<think>a</think>\nAction: GET_IIS", Action(A.GET_IIS)),
    ('{"action": "get-iis"}', Action(A.GET_IIS)),
    ('{"action": "IIS", "target": null}', Action(A.GET_IIS)),
    ("Action: SUBMIT()", Action(A.SUBMIT)),
    ("Action: reset()", Action(A.RESET)),
    ("<think>t</think>\nAction: DROP_CONSTRAINT(min_order)", Action(A.DROP_CONSTRAINT, "min_order")),
    ('{"action": "DROP", "target": "min_order"}', Action(A.DROP_CONSTRAINT, "min_order")),
    ("Action: CHECK_SLACK(capacity_e1_t3)", Action(A.CHECK_SLACK, "capacity_e1_t3")),
    ("Action: UPDATE_RHS(demand_prop_e2, 0)", Action(A.UPDATE_RHS, "demand_prop_e2", 0.0)),
    ("Action: UPDATE_RHS(demand_prop_e2, -12.5)", Action(A.UPDATE_RHS, "demand_prop_e2", -12.5)),
    ("Action: UPDATE_OBJ(hold.e1, 3.0)", Action(A.UPDATE_OBJ, "hold.e1", 3.0)),
    ('{"action": "UPDATE_OBJ", "target": "I_e2", "value": 1e1}', Action(A.UPDATE_OBJ, "I_e2", 10.0)),
    ("Action: UPDATE_BOUNDS(x_e1_t1, 0, inf)", Action(A.UPDATE_BOUNDS, "x_e1_t1", 0.0, INF)),
    ("Action: UPDATE_BOUNDS(x_e1_t1, -inf, 20)", Action(A.UPDATE_BOUNDS, "x_e1_t1", -INF, 20.0)),
    ("Action: UPDATE_BOUNDS(x_e1_t1, None, 20)", Action(A.UPDATE_BOUNDS, "x_e1_t1", None, 20.0)),
    (
        '{"action": "UPDATE_BOUNDS", "target": "x_e1_t1", "value": 0, "value2": 20}',
        Action(A.UPDATE_BOUNDS, "x_e1_t1", 0.0, 20.0),
    ),
    (
        "Action: UPDATE_COEF(inv_balance_e2, x_e2, -1, 2)",
        Action(A.UPDATE_COEF, "inv_balance_e2", -1.0, var="x_e2", lag=2),
    ),
    (
        '{"action": "UPDATE_COEF", "target": "demand_prop_e3", "var": "x_e2", "value": -1, "lag": 0}',
        Action(A.UPDATE_COEF, "demand_prop_e3", -1.0, var="x_e2", lag=0),
    ),
    ("**Action:** DROP_CONSTRAINT(net_inventory_e2_t5)", Action(A.DROP_CONSTRAINT, "net_inventory_e2_t5")),
]

ERRORS = [
    ("", "empty"),
    ("I think we should relax the capacity.", "no action found"),
    ("<think>Action: DROP_CONSTRAINT(min_order)</think>\nI am not sure.", "inside <think>"),
    ("<think>still thinking... Action: GET_IIS()", "never closed"),
    ("Action: FLY_TO_MOON(capacity_e1)", "unknown action"),
    ("Action: RELAX_CONSTRAINT(capacity_e1)", "needs a numeric value"),
    ("Action: UPDATE_RHS(capacity_e1, lots)", "must be a number"),
    ("Action: DROP_CONSTRAINT()", "needs a constraint or variable name"),
    ("Action: RELAX_CONSTRAINT(50, capacity_e1)", "first argument"),
    ('{"reasoning": "r", "target": "capacity_e1"}', "no action found"),
    ('{"action": 7, "target": "capacity_e1"}', "no 'action' string"),
    ("Action: UPDATE_RHS(capacity_e1, nan)", "NaN"),
    ('{"action": "UPDATE_OBJ", "target": "I_e2", "value": true}', "must be a number"),
]


@pytest.mark.parametrize(("reply", "expected"), EQUIVALENT)
def test_equivalent_replies_parse_to_the_same_action(reply: str, expected: Action) -> None:
    assert parse_reply(reply).action == expected


@pytest.mark.parametrize(("reply", "fragment"), ERRORS)
def test_bad_replies_raise_a_typed_error_naming_the_problem(reply: str, fragment: str) -> None:
    with pytest.raises(ReplyError) as err:
        parse_reply(reply)
    assert fragment in str(err.value)
    assert err.value.field == "reply"


def test_reasoning_and_format_are_kept() -> None:
    parsed = parse_reply(
        "<think>Capacity 20 is below demand 45.</think>\nAction: RELAX_CONSTRAINT(capacity_e1, 50)"
    )
    assert parsed.format == "think" and parsed.reasoning == "Capacity 20 is below demand 45."
    parsed = parse_reply(
        '{"reasoning": "too tight", "action": "RELAX", "target": "capacity_e1", "value": 50}'
    )
    assert parsed.format == "json" and parsed.reasoning == "too tight"


def test_fixture_count() -> None:
    assert len(EQUIVALENT) + len(ERRORS) >= 30
