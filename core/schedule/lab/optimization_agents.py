"""Optimization agents for the lab. T-P-P wraps the School Scheduling agent (core/schedule/agent.py): the
offline policy without a key, or the configured LLM; `paper` mode restricts it to the paper's four tools plus
the solver (no alternatives tool)."""

from __future__ import annotations

from typing import Any

from core.llm import Toolbox
from core.schedule.agent import ScheduleAgent
from core.schedule.session import ScheduleSession
from solvers.schedule.data import District

SOLVER_TOOLS = ("call_solver", "show_alternatives")
PAPER_TOOLS = (
    "fix_start_time",
    "change_objective_weight",
    "add_objective_upper_bound",
    "remove_constraint",
    "call_solver",
    "get_model_summary",
)


class TPPAgent:
    """T-P-P over the existing agent; counts solver calls (call_solver and alternatives)."""

    def __init__(self, agent: ScheduleAgent | None = None, *, name: str = "T-P-P (offline)") -> None:
        self.agent = agent or ScheduleAgent()
        self.name = name
        self.solver_calls = 0
        self.last: Any = None

    @classmethod
    def offline(cls, district: District | None = None) -> TPPAgent:
        return cls(ScheduleAgent(session=ScheduleSession(district)), name="T-P-P (offline)")

    @classmethod
    def llm(cls, settings: Any, *, paper: bool = False, district: District | None = None) -> TPPAgent:
        """T-P-P over the configured LLM; `paper` keeps only the paper's tools (no alternatives tool).

        The session's automatic rollback after an infeasible solve stays on in paper mode (it lives in the
        shared session); reports name the mode.
        """
        agent = ScheduleAgent.from_settings(settings, district)
        if paper:
            agent.toolbox = Toolbox([f for f in agent.session.tools() if f.__name__ in PAPER_TOOLS])
        mode = "paper mode" if paper else "ORCA mode"
        return cls(agent, name=f"T-P-P (LLM {settings.provider}/{settings.model}, {mode})")

    def opening(self) -> str:
        turn = self.agent.opening()
        self.solver_calls += 1
        self.last = turn
        return turn.text

    def respond(self, text: str) -> str:
        turn = self.agent.respond(text)
        self.solver_calls += sum(
            1
            for c in turn.tool_calls
            if c.get("name") in SOLVER_TOOLS and "error" not in (c.get("result") or {})
        )
        self.last = turn
        return turn.text
