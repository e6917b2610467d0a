"""Optimization agents for the lab. T-P-P wraps the School Scheduling agent (core/schedule/agent.py): the
offline policy without a key, or the configured LLM. `paper` mode is the paper's T-P-P: its four tools plus the
solver and model summary (no alternatives tool, not mentioned in the prompt either) and no automatic rollback
after an infeasible solve (the session keeps the infeasible model; the agent must relax or remove constraints)."""

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
FRONTIER_BUDGET = 60.0
"""Seconds for the frontier behind show_alternatives in lab runs (the workbench uses 5 s). Each of its epsilon
solves gets budget / (2 (points + 3)) seconds: 0.19 s at 5 s, which a loaded machine misses (the solve then keeps
an incumbent and the options shown change); at 60 s a solve has 2.3 s, so results do not depend on load. An
unloaded frontier takes well under a second either way."""
PAPER_MODE = "paper mode: no alternatives tool, no automatic rollback"


class TPPAgent:
    """T-P-P over the existing agent; counts solver calls (call_solver and alternatives)."""

    def __init__(
        self, agent: ScheduleAgent | None = None, *, name: str = "T-P-P (offline)", paper: bool = False
    ) -> None:
        self.agent = agent or ScheduleAgent()
        self.name = name
        self.paper = paper
        self.solver_calls = 0
        self.last: Any = None

    @classmethod
    def offline(cls, district: District | None = None, frontier_budget: float = FRONTIER_BUDGET) -> TPPAgent:
        """The offline T-P-P; its alternatives' frontier gets `frontier_budget` seconds (see FRONTIER_BUDGET)."""
        session = ScheduleSession(district, frontier_budget=frontier_budget)
        return cls(ScheduleAgent(session=session), name="T-P-P (offline)")

    @classmethod
    def llm(cls, settings: Any, *, paper: bool = False, district: District | None = None) -> TPPAgent:
        """T-P-P over the configured LLM; `paper` mode: the paper's tools only and no automatic rollback.
        Reports name the mode."""
        agent = ScheduleAgent.from_settings(settings, district)
        if paper:
            agent.session.rollback = False
            agent.toolbox = Toolbox([f for f in agent.session.tools() if f.__name__ in PAPER_TOOLS])
        mode = PAPER_MODE if paper else "ORCA mode"
        return cls(agent, name=f"T-P-P (LLM {settings.provider}/{settings.model}, {mode})", paper=paper)

    def opening(self) -> str:
        turn = self.agent.opening()
        if self.paper:  # the prompt must not point at a tool paper mode does not offer
            self.agent.system = "\n".join(
                line for line in self.agent.system.splitlines() if "show_alternatives" not in line
            )
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
