"""Issue 27, no dead ends: a delivery time as long as the plan, said twice for each row, is kept with what it
implies (b17-10 and b19-07 looped between the two rows forever). Our own phrasings."""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.inventory.copilot.resume import snapshot, table_from_snapshot
from core.inventory.table import ParameterTable
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_LEAD = (
    "a shop",
    "plan for 5 days",
    "about 20 a day, it varies",
    "they go elsewhere",
    "no, it keeps",
    "10 cents",
    "5 dollars",
    "12 per order",
)


def test_both_rows_said_twice_are_kept_and_the_plan_is_told() -> None:
    agent, turn = say(*_TO_LEAD, "5 days", "5 days", "5 days", "5 days")
    values = _values(turn)
    assert values.get("lead_time") == "5" and values.get("time_horizon") == "5", turn.assistant
    assert "stock you have" in turn.assistant
    assert agent.table.late_delivery


def test_a_single_insistence_still_asks_the_other_row_again() -> None:
    agent, turn = say(*_TO_LEAD, "5 days", "5 days")
    values = _values(turn)
    assert values.get("lead_time") == "5" and values.get("time_horizon") is None, turn.assistant
    assert not agent.table.late_delivery


def test_a_different_horizon_after_the_insistence_is_no_confirmation() -> None:
    """The horizon said twice must be the one cleared: a new, longer one is simply written."""
    _, turn = say(*_TO_LEAD, "5 days", "5 days", "60 days")
    values = _values(turn)
    assert values.get("time_horizon") == "60" and values.get("lead_time") == "5", turn.assistant


def test_the_table_refuses_the_pair_unless_confirmed_and_a_snapshot_keeps_the_confirmation() -> None:
    table = ParameterTable()
    table.set("time_horizon", "5")
    with pytest.raises(SpecError):
        table.set("lead_time", "5")
    table.late_delivery = True
    table.set("lead_time", "5")
    again = table_from_snapshot(snapshot(table))
    assert again.late_delivery and again.value("lead_time") == "5"
    assert not table_from_snapshot(snapshot(ParameterTable())).late_delivery
