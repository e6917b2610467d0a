"""A small edit language over named LPs: the saboteur's injections and the ground-truth fixes are stored as
lists of these edits (JSON round-trippable; infinities as null) and replayed on a freshly built model.

It is a superset of the agents' repair grammar: SET_ROW_BOUNDS (UPDATE_RHS/RELAX), DROP_ROW, SET_COST
(UPDATE_OBJ), SET_COL_BOUNDS (UPDATE_BOUNDS), plus SET_COEF (coefficient edit; 0 deletes a term, a new
non-zero adds one) and ADD_ROW. Names are always explicit (no prefixes) so a replay is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.errors import SpecError
from solvers.lp.model import LPModel


class EditOp(StrEnum):
    SET_ROW_BOUNDS = "SET_ROW_BOUNDS"
    DROP_ROW = "DROP_ROW"
    ADD_ROW = "ADD_ROW"
    SET_COEF = "SET_COEF"
    SET_COST = "SET_COST"
    SET_COL_BOUNDS = "SET_COL_BOUNDS"


def _num(value: Any) -> float | None:
    if value is None:
        return None
    return float(value)


def _json_num(value: float | None) -> float | None:
    if value is None or (isinstance(value, float) and math.isinf(value)):
        return None
    return value


@dataclass(frozen=True)
class Edit:
    """One structured change. `lower`/`upper` None mean minus/plus infinity for bounds edits."""

    op: EditOp
    row: str | None = None
    col: str | None = None
    lower: float | None = None
    upper: float | None = None
    value: float | None = None
    coefs: tuple[tuple[str, float], ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        needs_row = {EditOp.SET_ROW_BOUNDS, EditOp.DROP_ROW, EditOp.ADD_ROW, EditOp.SET_COEF}
        needs_col = {EditOp.SET_COEF, EditOp.SET_COST, EditOp.SET_COL_BOUNDS}
        if self.op in needs_row and not self.row:
            raise SpecError("row", f"{self.op} needs a row name")
        if self.op in needs_col and not self.col:
            raise SpecError("col", f"{self.op} needs a column name")
        if self.op in (EditOp.SET_COEF, EditOp.SET_COST) and self.value is None:
            raise SpecError("value", f"{self.op} needs a value")

    @property
    def lo(self) -> float:
        return -math.inf if self.lower is None else self.lower

    @property
    def hi(self) -> float:
        return math.inf if self.upper is None else self.upper

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"op": self.op.value}
        for key in ("row", "col"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.op in (EditOp.SET_ROW_BOUNDS, EditOp.ADD_ROW, EditOp.SET_COL_BOUNDS):
            data["lower"] = _json_num(self.lower)
            data["upper"] = _json_num(self.upper)
        if self.value is not None:
            data["value"] = self.value
        if self.coefs:
            data["coefs"] = dict(self.coefs)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edit:
        try:
            op = EditOp(data["op"])
        except (KeyError, ValueError) as err:
            raise SpecError("op", f"unknown edit {data.get('op')!r}") from err
        return cls(
            op=op,
            row=data.get("row"),
            col=data.get("col"),
            lower=_num(data.get("lower")),
            upper=_num(data.get("upper")),
            value=_num(data.get("value")),
            coefs=tuple((str(k), float(v)) for k, v in (data.get("coefs") or {}).items()),
        )


def bounds_edit(row: str, lower: float, upper: float) -> Edit:
    return Edit(
        EditOp.SET_ROW_BOUNDS,
        row=row,
        lower=None if math.isinf(lower) else lower,
        upper=None if math.isinf(upper) else upper,
    )


def apply_edit(model: LPModel, edit: Edit) -> None:
    """Apply one edit in place (SpecError for unknown names)."""
    if edit.op is EditOp.SET_ROW_BOUNDS:
        model.set_row_bounds(edit.row, edit.lo, edit.hi)
    elif edit.op is EditOp.DROP_ROW:
        model.drop_rows([edit.row])
    elif edit.op is EditOp.ADD_ROW:
        model.add_row(edit.row, edit.lo, edit.hi, dict(edit.coefs))
    elif edit.op is EditOp.SET_COEF:
        model.set_coef(edit.row, edit.col, edit.value)
    elif edit.op is EditOp.SET_COST:
        model.set_cost(edit.col, edit.value)
    else:
        model.set_col_bounds(edit.col, edit.lo, edit.hi)


def apply_edits(model: LPModel, edits: list[Edit] | tuple[Edit, ...]) -> None:
    """Apply edits in order; runs of ADD_ROW and of DROP_ROW go to the solver as one call each."""
    i = 0
    while i < len(edits):
        edit = edits[i]
        j = i
        while j < len(edits) and edits[j].op is edit.op:
            j += 1
        if edit.op is EditOp.ADD_ROW:
            model.add_rows([(e.row, e.lo, e.hi, dict(e.coefs)) for e in edits[i:j]])
        elif edit.op is EditOp.DROP_ROW:
            model.drop_rows([e.row for e in edits[i:j]])
        else:
            for e in edits[i:j]:
                apply_edit(model, e)
        i = j
