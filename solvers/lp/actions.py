"""The repair grammar agents use (OptiRepair §3.3 / D.1) and its semantics on an `LPModel`.

Actions: GET_IIS(), CHECK_SLACK(name), RELAX_CONSTRAINT(name, amount), DROP_CONSTRAINT(name),
UPDATE_RHS(name, value), UPDATE_OBJ(var_prefix, value), UPDATE_BOUNDS(var, lb, ub), SUBMIT(), RESET();
with the extended action set also UPDATE_COEF(row, var, value, lag).

Targets: an exact name wins, otherwise the action applies to every name starting with `target + "_"`
(`capacity_e1` hits every `capacity_e1_t*`). `hold.e2` / `backorder.e2` are read as `I_e2` / `B_e2`.

Semantics (OR-Debug-Bench's, kept): RELAX on a `<=` row raises its RHS by |amount|, on a `>=` row lowers it
by |amount|, on an equality shifts both sides by the signed amount, on a ranged row widens both sides.
UPDATE_RHS replaces the finite side(s). UPDATE_BOUNDS sets both bounds (None = infinite).
UPDATE_COEF sets, in every matched row `..._t{t}`, the coefficient of `{var}_t{t - lag}` (rows whose
period minus lag falls before period 1 are skipped); with exact names `lag` is ignored.

Protected rows (switch, default on): `inv_balance_*` (flow conservation) and the saboteur's tightening
rows `backorder_cap_*`, `supply_cap_*` cannot be dropped, relaxed or have their RHS changed, with one
exception: UPDATE_RHS naming a single `inv_balance_e{n}_t{t}` row exactly may set its target (ME-3 is a wrong
balance target, Table 7). A wrong target there is phantom stock, which the strict judge's plan replay refuses.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.errors import SpecError
from solvers.lp.model import LPModel, family_of, period_of, sense_of


class ActionName(StrEnum):
    GET_IIS = "GET_IIS"
    CHECK_SLACK = "CHECK_SLACK"
    RELAX_CONSTRAINT = "RELAX_CONSTRAINT"
    DROP_CONSTRAINT = "DROP_CONSTRAINT"
    UPDATE_RHS = "UPDATE_RHS"
    UPDATE_OBJ = "UPDATE_OBJ"
    UPDATE_BOUNDS = "UPDATE_BOUNDS"
    UPDATE_COEF = "UPDATE_COEF"
    SUBMIT = "SUBMIT"
    RESET = "RESET"


REPAIR_ACTIONS = frozenset(
    {
        ActionName.RELAX_CONSTRAINT,
        ActionName.DROP_CONSTRAINT,
        ActionName.UPDATE_RHS,
        ActionName.UPDATE_OBJ,
        ActionName.UPDATE_BOUNDS,
        ActionName.UPDATE_COEF,
    }
)
ROW_ACTIONS = frozenset(
    {ActionName.CHECK_SLACK, ActionName.RELAX_CONSTRAINT, ActionName.DROP_CONSTRAINT, ActionName.UPDATE_RHS}
)
PROTECTED_PREFIXES = ("inv_balance_", "backorder_cap_", "supply_cap_")


@dataclass(frozen=True)
class Action:
    """One parsed agent action; `value2` is the upper bound of UPDATE_BOUNDS, `var`/`lag` serve UPDATE_COEF."""

    name: ActionName
    target: str | None = None
    value: float | None = None
    value2: float | None = None
    var: str | None = None
    lag: int = 0

    def to_dict(self) -> dict[str, Any]:
        args: dict[str, Any] = {}
        if self.target is not None:
            args["target"] = self.target
        for key in ("value", "value2"):
            v = getattr(self, key)
            if v is not None:
                args[key] = None if math.isinf(v) else v
        if self.name is ActionName.UPDATE_COEF:
            args["var"] = self.var
            args["lag"] = self.lag
        return {"name": self.name.value, "arguments": args}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """From `{"name": NAME, "arguments": {...}}` (the env's tool-call form); SpecError when malformed."""
        if not isinstance(data, dict) or "name" not in data:
            raise SpecError("action", "an action is a dict {'name': NAME, 'arguments': {...}}")
        try:
            name = ActionName(str(data["name"]).strip().upper())
        except ValueError:
            raise SpecError("action", f"unknown action {data['name']!r}") from None
        args = data.get("arguments") or {}
        if not isinstance(args, dict):
            raise SpecError("arguments", "arguments must be an object")

        def num(key: str, default: float | None = None) -> float | None:
            v = args.get(key, default)
            if v is None:
                return None
            try:
                return float(v)
            except (TypeError, ValueError):
                raise SpecError(key, f"must be a number, got {v!r}") from None

        lag_raw = args.get("lag", 0) or 0
        try:
            lag = int(lag_raw)
        except (TypeError, ValueError):
            raise SpecError("lag", f"must be a whole number, got {lag_raw!r}") from None
        action = cls(
            name=name,
            target=None if args.get("target") is None else str(args["target"]),
            value=num("value"),
            value2=num("value2"),
            var=None if args.get("var") is None else str(args["var"]),
            lag=lag,
        )
        return validate(action)

    def signature(self) -> str:
        """`NAME(args)` as the think/Action format writes it."""
        args: list[str] = []
        if self.target is not None:
            args.append(self.target)
        if self.name is ActionName.UPDATE_COEF:
            args += [str(self.var), _fmt(self.value), str(self.lag)]
        else:
            if self.value is not None or self.value2 is not None:
                args.append(_fmt(self.value))
            if self.value2 is not None:
                args.append(_fmt(self.value2))
        return f"{self.name.value}({', '.join(args)})"


def _fmt(v: float | None) -> str:
    if v is None:
        return "None"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:g}"


def validate(action: Action) -> Action:
    """Check the arguments each action needs; SpecError naming the missing one."""
    n = action.name
    if n in (ActionName.GET_IIS, ActionName.SUBMIT, ActionName.RESET):
        return action
    if not action.target:
        raise SpecError("target", f"{n.value} needs a constraint or variable name")
    if (
        n in (ActionName.RELAX_CONSTRAINT, ActionName.UPDATE_RHS, ActionName.UPDATE_OBJ)
        and action.value is None
    ):
        raise SpecError("value", f"{n.value} needs a numeric value")
    if n is ActionName.UPDATE_BOUNDS and (action.value is None and action.value2 is None):
        raise SpecError("value", "UPDATE_BOUNDS needs a lower and an upper bound (None for infinite)")
    if n is ActionName.UPDATE_COEF and (action.var is None or action.value is None):
        raise SpecError("var", "UPDATE_COEF needs a row, a variable, a value and a lag")
    for key in ("value", "value2"):
        v = getattr(action, key)
        if v is not None and math.isnan(v):
            raise SpecError(key, "must be a number, not NaN")
    return action


def is_protected(row: str) -> bool:
    return row.startswith(PROTECTED_PREFIXES)


def _objective_alias(target: str) -> str:
    for alias, var in (("hold.", "I_"), ("holding.", "I_"), ("backorder.", "B_"), ("order.", "x_")):
        if target.startswith(alias):
            return var + target[len(alias) :]
    return target


@dataclass(frozen=True)
class Outcome:
    """What an action did: `changed` tells whether the model was edited; `message` is shown to the agent."""

    ok: bool
    changed: bool
    message: str
    rows: tuple[str, ...] = ()


def _rows(model: LPModel, target: str) -> list[str]:
    rows = model.rows_matching(target)
    if not rows:
        raise SpecError("target", f"no constraint named {target!r} and none starting with {target + '_'!r}")
    return rows


def _cols(model: LPModel, target: str) -> list[str]:
    cols = model.cols_matching(target)
    if not cols:
        raise SpecError("target", f"no variable named {target!r} and none starting with {target + '_'!r}")
    return cols


RETARGETABLE_PREFIX = "inv_balance_"


def _guard(rows: list[str], protected: bool, verb: str, target: str | None = None) -> None:
    """Refuse an edit of protected rows; `target` naming one balance row exactly may have its target re-set."""
    if not protected:
        return
    if target is not None and rows == [target] and target.startswith(RETARGETABLE_PREFIX):
        return
    blocked = [r for r in rows if is_protected(r)]
    if blocked:
        fams = sorted({family_of(r) for r in blocked})
        raise SpecError(
            "target",
            f"cannot {verb} protected rows ({', '.join(fams[:4])}): flow-balance and operational-limit rows are "
            "protected; repair the constraint that causes the conflict instead",
        )


def relaxed_bounds(lower: float, upper: float, amount: float) -> tuple[float, float]:
    sense = sense_of(lower, upper)
    if sense == "<=":
        return lower, upper + abs(amount)
    if sense == ">=":
        return lower - abs(amount), upper
    if sense == "==":
        return lower + amount, upper + amount
    if sense == "range":
        return lower - abs(amount), upper + abs(amount)
    return lower, upper


def updated_bounds(lower: float, upper: float, value: float) -> tuple[float, float]:
    sense = sense_of(lower, upper)
    if sense == "<=":
        return lower, value
    if sense == ">=":
        return value, upper
    if sense == "range":
        return lower, max(lower, value)
    return value, value


_BOUND_EDITS: dict[ActionName, tuple[str, Callable[[float, float, float], tuple[float, float]], str]] = {
    ActionName.RELAX_CONSTRAINT: ("relax", relaxed_bounds, "relaxed {n} constraint(s) matching {target} by {value:g}"),
    ActionName.UPDATE_RHS: (
        "change the right-hand side of",
        updated_bounds,
        "set the right-hand side of {n} constraint(s) matching {target} to {value:g}",
    ),
}
"""The actions that move each matching row's bounds: (what the protection error says one may not do, the new
bounds from the old ones and the action's value, what the outcome says)."""


def apply_action(
    model: LPModel, action: Action, *, protected: bool = True, extended: bool = False
) -> Outcome:
    """Apply a repair action in place. Diagnostic, meta and invalid actions leave the model unchanged.

    Raises SpecError for unknown names, missing arguments or forbidden edits (callers turn it into an
    error observation).
    """
    validate(action)
    name = action.name
    if name not in REPAIR_ACTIONS:
        return Outcome(True, False, f"{name.value} does not change the model")
    if name is ActionName.UPDATE_COEF and not extended:
        raise SpecError("action", "UPDATE_COEF is part of the extended action set, which is switched off")
    target = str(action.target)
    if name is ActionName.DROP_CONSTRAINT:
        rows = _rows(model, target)
        _guard(rows, protected, "drop")
        model.drop_rows(rows)
        return Outcome(True, True, f"dropped {len(rows)} constraint(s) matching {target}", tuple(rows))
    if name in _BOUND_EDITS:
        verb, bounds, done = _BOUND_EDITS[name]
        rows = _rows(model, target)
        _guard(rows, protected, verb, target if name is ActionName.UPDATE_RHS else None)
        for r in rows:
            model.set_row_bounds(r, *bounds(*model.row_bounds(r), float(action.value)))
        return Outcome(True, True, done.format(n=len(rows), target=target, value=action.value), tuple(rows))
    if name is ActionName.UPDATE_OBJ:
        cols = _cols(model, _objective_alias(target))
        for c in cols:
            model.set_cost(c, float(action.value))
        return Outcome(
            True,
            True,
            f"set the objective coefficient of {len(cols)} variable(s) matching {target} to {action.value:g}",
        )
    if name is ActionName.UPDATE_BOUNDS:
        cols = _cols(model, target)
        lo = -math.inf if action.value is None else float(action.value)
        hi = math.inf if action.value2 is None else float(action.value2)
        for c in cols:
            model.set_col_bounds(c, lo, hi)
        return Outcome(
            True,
            True,
            f"set the bounds of {len(cols)} variable(s) matching {target} to [{_fmt(lo)}, {_fmt(hi)}]",
        )
    # UPDATE_COEF
    rows = _rows(model, target)
    _guard(rows, False, "edit")
    var = str(action.var)
    pairs: list[tuple[str, str]] = []
    if len(rows) == 1 and rows[0] == target and model.has_col(var):
        pairs.append((target, var))
    else:
        for r in rows:
            t = period_of(r)
            if t is None or t - action.lag < 1:
                continue
            col = f"{var}_t{t - action.lag}"
            if model.has_col(col):
                pairs.append((r, col))
    if not pairs:
        raise SpecError("var", f"no variable {var}_t* pairs with the rows matching {target}")
    for r, c in pairs:
        model.set_coef(r, c, float(action.value))
    return Outcome(
        True,
        True,
        f"set {len(pairs)} coefficient(s) of {var} (lag {action.lag}) in {target} to {action.value:g}",
        tuple(r for r, _ in pairs),
    )
