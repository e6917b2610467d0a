"""The offline agent's replies: an infeasible request is reported with the limit just asked for, and later
proposals show what changed rather than the whole schedule again (issue 11, items 8 and 11)."""

from __future__ import annotations

from core.config import Settings
from core.schedule.agent import ScheduleAgent
from solvers.schedule.data import sfusd_district


def _agent() -> ScheduleAgent:
    agent = ScheduleAgent.from_settings(Settings(), sfusd_district())
    agent.opening()
    return agent


def _reply(agent: ScheduleAgent, text: str) -> str:
    return agent.respond(text).messages[-1].content


def test_an_infeasible_limit_is_named_by_the_value_just_requested():
    agent = _agent()
    _reply(agent, "keep the peak under 2,500 students")
    text = _reply(agent, "keep the peak under 1,500 students")
    conflict = text.split("cannot all hold at once:")[1].split("\n\n")[0]
    assert "at most 15 (1,500 students)" in conflict
    assert "at most 25" not in conflict


def test_later_proposals_show_only_the_schools_that_changed():
    agent = _agent()
    schools = [s.name for s in agent.session.district.schools]
    text = _reply(agent, "keep the peak under 2,500 students")
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith(("| School", "| ---"))]
    moved = {r.split("|")[1].strip() for r in rows}
    assert moved == {"Balboa HS", "Galileo HS"} and len(rows) < len(schools)
    assert "full schedule is in the panel" in text
