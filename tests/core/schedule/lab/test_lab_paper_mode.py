"""T-P-P paper mode against the fake LLM server: the same tool calls that the default (ORCA) mode recovers from
by rolling back leave paper mode with the infeasible model, so it keeps the earlier, worse proposal."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.schedule.lab.optimization_agents import PAPER_MODE, TPPAgent
from core.schedule.session import ScheduleSession
from solvers.schedule.data import sfusd_district
from solvers.schedule.utility import Direction, Utility

DISTRICT = sfusd_district()
EVERETT_LATE = Utility("t", "Everett MS", Direction.LATER, 0.6, 0.2, 0.2, 30.0, 30.0)
SCRIPT = [
    {
        "tool_calls": [
            {
                "name": "add_objective_upper_bound",
                "arguments": {"objective": "schedule_deviation", "value": 5},
            },
            {"name": "call_solver", "arguments": {}},
        ]
    },
    {
        "tool_calls": [
            {"name": "fix_start_time", "arguments": {"school": "Everett MS", "time": "9:30 AM"}},
            {"name": "call_solver", "arguments": {}},
        ]
    },
    {"text": "Here is where we are."},
]


def run(paper: bool, fake_llm) -> TPPAgent:
    fake_llm.script(list(SCRIPT))
    settings = Settings(
        provider="openai", model="m", base_url=fake_llm.openai_url, api_key="sk", max_retries=1
    )
    agent = TPPAgent.llm(settings, paper=paper)
    agent.opening()
    agent.respond("Everett should start as late as possible, and please change as little as you can.")
    return agent


def test_paper_mode_keeps_the_infeasible_model_and_the_worse_proposal(fake_llm) -> None:
    orca, paper = run(False, fake_llm), run(True, fake_llm)
    assert PAPER_MODE in paper.name and "ORCA mode" in orca.name
    solves = [c["result"] for c in paper.last.tool_calls if c["name"] == "call_solver"]
    assert [r["status"] for r in solves] == ["infeasible", "infeasible"]  # the bound is still there
    assert "no automatic rollback" in solves[0]["message"] and "rolled back" not in solves[0]["message"]
    assert "upper_bound[schedule_deviation]" in paper.agent.session.state.names()
    assert len(paper.agent.session.proposals) == 1  # still the base proposal
    orca_solves = [c["result"] for c in orca.last.tool_calls if c["name"] == "call_solver"]
    assert [r["status"] for r in orca_solves] == ["infeasible", "optimal"]
    assert "rolled back" in orca_solves[0]["message"]
    assert "upper_bound[schedule_deviation]" not in orca.agent.session.state.names()
    kept = paper.agent.session.current.result.assignment
    moved = orca.agent.session.current.result.assignment
    assert moved[DISTRICT.school_index("Everett MS")] == 2
    assert EVERETT_LATE.value(DISTRICT, kept) < EVERETT_LATE.value(DISTRICT, moved)  # worse for this agent
    tools = {t["function"]["name"] for t in fake_llm.requests[-1]["body"]["tools"]}
    assert "show_alternatives" not in tools and "call_solver" in tools
    assert "show_alternatives" not in paper.agent.system


def test_session_default_still_rolls_back() -> None:
    for rollback in (True, False):
        session = ScheduleSession(rollback=rollback)
        session.call_solver()
        session.add_objective_upper_bound("schedule_deviation", 5)
        out = session.call_solver()
        assert out["status"] == "infeasible" and out["current_proposal_kept"] == 1
        kept = "upper_bound[schedule_deviation]" in session.state.names()
        assert kept is (not rollback)
    assert ScheduleSession().rollback is True


@pytest.mark.parametrize("paper", [False, True])
def test_report_names_the_mode(paper) -> None:
    from core.schedule.lab.report import agent_design

    design = agent_design({"params": {"design": "T-P-P-paper" if paper else "T-P-P"}})
    assert ("no automatic rollback" in design) is paper
