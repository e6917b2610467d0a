"""A student repairs an LP step by step: the same actions, observation and judges as the agents (issue 31).

`StudentAgent` is the `Agent` whose actions come from a person (the LP Repair Lab page): `give` queues one, `act`
hands it to the episode, so a student's episode steps through `core.rollout.Episode` and the one recorder exactly
like an agent's (`core.repair.lab.RepairSession`, agent `student`). `student_action` checks a typed action before
it costs a step: the form's text goes through the CLI's argument checks (`core.cli_args`: text length, control
characters, finite numbers) and then through the environment's own action validation
(`solvers.lp.actions.Action.from_dict`: the name, the arguments each action needs). The environment's rules
(unknown target, protected rows, UPDATE_COEF only with the extended set) then answer as they answer any agent:
the action costs a step and the next observation says what was wrong.
"""

from __future__ import annotations

from typing import Any

from core import cli_args
from core.errors import SpecError
from solvers.lp.actions import Action, ActionName

STUDENT = "student"
MAX_LP_VALUE = 1e12  # a number typed in the student's form (RHS, amount, bound, coefficient)
lp_value = cli_args.number(-MAX_LP_VALUE, MAX_LP_VALUE, what="a number")
target_text = cli_args.free_text(cli_args.MAX_ID_CHARS, "a row, family or variable name")

ACTION_HELP: dict[ActionName, str] = {
    ActionName.GET_IIS: "recompute the irreducible infeasible subsystem",
    ActionName.CHECK_SLACK: "show sense, RHS and slack of a row or a family (target)",
    ActionName.RELAX_CONSTRAINT: "loosen a row or family by an amount (target, value)",
    ActionName.DROP_CONSTRAINT: "delete a row or a whole family (target)",
    ActionName.UPDATE_RHS: "set a row's or family's right-hand side (target, value)",
    ActionName.UPDATE_OBJ: "set the objective coefficient of a variable family (target, value)",
    ActionName.UPDATE_BOUNDS: "set a variable's bounds (target, value = lower, value 2 = upper; blank = none)",
    ActionName.UPDATE_COEF: "set a coefficient (target row, variable, value, lag); extended action set only",
    ActionName.SUBMIT: "end the episode with the model as it stands",
    ActionName.RESET: "restore the model as it was handed over",
}


def student_actions(extended: bool) -> list[str]:
    """The action names a student may choose: the agents' grammar (UPDATE_COEF only with the extended set)."""
    return [a.value for a in ACTION_HELP if extended or a is not ActionName.UPDATE_COEF]


def _optional(check: Any, text: str | None, field: str) -> Any:
    """`text` through a CLI check, or None when blank."""
    if text is None or not str(text).strip():
        return None
    return cli_args.checked(check, str(text), field)


def student_action(
    name: str,
    target: str | None = None,
    value: str | None = None,
    value2: str | None = None,
    var: str | None = None,
    lag: int = 0,
    *,
    extended: bool = False,
) -> dict[str, Any]:
    """The form's fields as the environment's action `{"name", "arguments"}`; a `SpecError` naming the field
    when a field is malformed or missing (nothing is played then)."""
    if name not in student_actions(extended):
        raise SpecError("action", f"unknown action {name!r}; choose one of {', '.join(student_actions(extended))}")
    if isinstance(lag, bool) or not isinstance(lag, int) or not -1000 <= lag <= 1000:
        raise SpecError("lag", f"must be a whole number from -1000 to 1000, got {lag!r}")
    args: dict[str, Any] = {
        "target": _optional(target_text, target, "target"),
        "value": _optional(lp_value, value, "value"),
        "value2": _optional(lp_value, value2, "value2"),
    }
    if name == ActionName.UPDATE_COEF.value:
        args["var"] = _optional(target_text, var, "var")
        args["lag"] = lag
    action = Action.from_dict({"name": name, "arguments": {k: v for k, v in args.items() if v is not None}})
    return action.to_dict()


class StudentAgent:
    """The `Agent` whose actions come from a person: `give` queues one, `act` hands it to the episode."""

    name = STUDENT

    def __init__(self) -> None:
        self.pending: list[dict[str, Any]] = []
        self.last_note = "student"

    def reset(self, seed: int | None) -> None:
        self.pending = []

    def give(self, action: dict[str, Any]) -> None:
        self.pending.append(action)

    def act(self, observation: Any) -> dict[str, Any]:
        if not self.pending:
            raise SpecError("action", "no action chosen yet: fill in the form and press Play")
        return self.pending.pop(0)
