"""The offline Information Extraction Agent (seed 000 §2.2, Figure 2): update the table from the latest
message, detect conflicts, ask one targeted question, TERMINATE when complete and conflict-free."""

from __future__ import annotations

from collections.abc import Iterable

from core.errors import SpecError
from core.inventory import conflicts as cf
from core.inventory.dialogue import ExtractionBase, ExtractionTurn
from core.inventory.nlu.extractors import Finding, Reading, compatible, read_message, read_row
from core.inventory.table import LABELS, Cell, ParameterTable


class ExtractionAgent(ExtractionBase):
    """Deterministic slot-filling dialogue over the Parameter Specification Table.

    >>> agent = ExtractionAgent()
    >>> agent.respond("Lead time is about ten days").table["lead_time"]["value"]
    '10'
    """

    def __init__(self, table: ParameterTable | None = None) -> None:
        super().__init__(table)
        self._touched: list[str] = []

    def respond(self, user_text: str) -> ExtractionTurn:
        """Update the table from one user message and return the next agent turn."""
        self.state.log.append(("user", user_text))
        notes: list[str] = []
        problems: list[SpecError] = []
        reading = read_message(user_text, self.state.asked)
        handled: set[str] = set()
        if self.table.conflicts:
            handled = self._resolve(self.table.conflicts[0], user_text, reading, notes, problems)
        self._apply(reading, handled, notes, problems)
        self._semantic_checks()
        if noted := [n for n in notes if not n.startswith("Got it")]:
            notes = [n for n in notes if n.startswith("Got it")] + ["Noted: " + "; ".join(noted) + "."]
        if reading.empty and not handled and not problems and not notes:
            notes.append("Sorry, I could not find a value in that.")
        return self._finish(notes, problems)

    def _resolve(
        self, conflict: cf.Conflict, text: str, reading: Reading, notes: list[str], problems: list[SpecError]
    ) -> set[str]:
        cells = cf.resolve(conflict, text)
        if cells is None:
            restated = [f for f in reading.findings if f.key in conflict.keys]
            if restated and conflict.kind == "changed_value":
                cells = (Cell(restated[0].key, restated[0].value, restated[0].unit),)
            elif reading.demand and reading.demand.value and "demand_distribution" in conflict.keys:
                cells = (
                    Cell("demand_type", reading.demand.demand_type or "random"),
                    Cell("demand_distribution", reading.demand.value),
                )
        if cells is None:
            return set()
        try:
            applied = self.table.set_many(cells)
        except SpecError as err:
            problems.append(err)
            return set(conflict.keys)
        self.table.close(conflict)
        self._touch(c.key for c in applied)
        notes.append("Got it: " + ", ".join(f"{LABELS[c.key]} = {c.value}" for c in applied) + ".")
        return set(conflict.keys)

    def _apply(
        self, reading: Reading, handled: set[str], notes: list[str], problems: list[SpecError]
    ) -> None:
        findings = list(reading.findings)
        if reading.correction and reading.loose and not findings:
            findings += self._bare_correction(reading.loose[0])
        for f in findings:
            if f.key in handled:
                continue
            if f.approximate:
                self.table.open(cf.risk_scale(f.value, f.note))
            else:
                self._propose((Cell(f.key, f.value, f.unit),), f.note, reading.correction, notes, problems)
        demand = reading.demand
        if demand is not None and not handled & {"demand_type", "demand_distribution"}:
            if demand.options:
                self.table.open(cf.demand_conversion(demand.period, demand.options))
            elif demand.value is not None:
                cells = (
                    Cell("demand_type", demand.demand_type or "random"),
                    Cell("demand_distribution", demand.value),
                )
                self._propose(cells, demand.note, reading.correction, notes, problems)
            elif demand.mean_only is not None:
                self.table.open(cf.demand_shape(demand.mean_only, demand.note))
            elif demand.demand_type is not None:
                self._propose(
                    (Cell("demand_type", demand.demand_type),), "", reading.correction, notes, problems
                )
        if reading.transitions and "state_transition_model" not in handled:
            if len(reading.transitions) > 1:
                self.table.open(cf.transition_both())
            else:
                cell = (Cell("state_transition_model", reading.transitions[0]),)
                self._propose(cell, "", reading.correction, notes, problems)
        if reading.perishable is not None and "perishability" not in handled:
            if reading.shelf_life_days:
                self.table.open(cf.shelf_life(reading.shelf_life_days))
            else:
                self._propose(
                    (Cell("perishability", reading.perishable),), "", reading.correction, notes, problems
                )
        for unclear in reading.unclear:
            if unclear.key not in handled:
                problems.append(SpecError(unclear.key, unclear.message))

    def _bare_correction(self, text: str) -> list[Finding]:
        """'Actually make that 90 days': the most recently touched row the value fits."""
        for key in reversed(self._touched):
            if key in (
                "time_horizon",
                "lead_time",
                "holding_cost",
                "penalty_cost",
                "setup_cost",
                "max_inventory",
                "max_order",
                "risk_tolerance",
            ) and compatible(key, text):
                found = read_row(key, text)
                return [found] if isinstance(found, Finding) else []
        return []

    def _propose(
        self,
        cells: tuple[Cell, ...],
        note: str,
        correction: bool,
        notes: list[str],
        problems: list[SpecError],
    ) -> None:
        """Validate proposed cells; write them, or open a conflict when they contradict a defined row."""
        try:
            canonical = self.table.check(cells)
        except SpecError as err:
            problems.append(err)
            return
        changed = [
            c for c in canonical if self.table.is_defined(c.key) and self.table.value(c.key) != c.value
        ]
        if changed and not correction:
            current = tuple(
                Cell(c.key, self.table.value(c.key) or "", self.table.rows[c.key].unit)
                for c in canonical
                if self.table.is_defined(c.key)
            )
            self.table.open(cf.changed_value(current, canonical))
            return
        new = [c for c in canonical if not self.table.is_defined(c.key) or self.table.value(c.key) != c.value]
        olds = {c.key: self.table.value(c.key) for c in canonical}
        self.table.set_many(canonical)
        for conflict in list(self.table.conflicts):
            if conflict.kind == "changed_value" and set(conflict.keys) & {c.key for c in canonical}:
                self.table.close(conflict)
        self._touch(c.key for c in canonical)
        if new:
            parts = [
                f"{LABELS[c.key]} changed from {olds[c.key]} to {c.value}"
                if olds[c.key] is not None
                else f"{LABELS[c.key]} = {_show(c)}"
                for c in new
            ]
            notes.append("; ".join(parts) + (f" ({note})" if note else ""))

    def _semantic_checks(self) -> None:
        """Example 4: a lost-sale model whose penalty accrues per unit per day."""
        unit = self.table.rows["penalty_cost"].unit
        if (
            self.table.value("state_transition_model") == "lost_sale"
            and self.table.is_defined("penalty_cost")
            and unit.endswith("/day")
        ) and not any(c.kind == "lost_sale_daily_penalty" for c in self.table.conflicts):
            self.table.open(
                cf.lost_sale_daily_penalty(self.table.value("penalty_cost") or "", unit.split("/")[0])
            )

    def _touch(self, keys: Iterable[str]) -> None:
        for key in keys:
            if key in self._touched:
                self._touched.remove(key)
            self._touched.append(key)


def _show(cell: Cell) -> str:
    unit = "day" if cell.unit == "days" and cell.value == "1" else cell.unit
    return f"{cell.value} {unit}" if unit and unit != "N/A" else cell.value
