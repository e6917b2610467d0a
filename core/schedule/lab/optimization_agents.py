"""Optimization agents for the lab. T-P-P wraps the School Scheduling agent (core/schedule/agent.py): the
offline policy without a key, or the configured LLM. `paper` mode is the paper's T-P-P: its four tools plus the
solver and model summary (no alternatives tool, not mentioned in the prompt either) and no automatic rollback
after an infeasible solve (the session keeps the infeasible model; the agent must relax or remove constraints).

`OptimizerSpec` names one optimization agent (design + offline/LLM) for experiment cells and the page alike: it
builds the agent, labels it, refuses an LLM design without a key (nothing offline is substituted), and says
which paradigms and decision agents it can meaningfully face."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.llm import Toolbox, make_chat_model
from core.llm.types import Usage
from core.schedule.agent import ScheduleAgent
from core.schedule.lab.code_agents import CodeAgent, Design
from core.schedule.lab.conversation import Paradigm
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
"""Seconds for the frontier behind show_alternatives in lab runs, offline and LLM T-P-P (the workbench uses 5 s). Each of its epsilon
solves gets budget / (2 (points + 3)) seconds: 0.19 s at 5 s, which a loaded machine misses (the solve then keeps
an incumbent and the options shown change); at 60 s a solve has 2.3 s, so results do not depend on load. An
unloaded frontier takes well under a second either way."""
PAPER_MODE = "paper mode: no alternatives tool, no automatic rollback"


class TPPAgent:
    """T-P-P over the existing agent; counts solver calls (call_solver and alternatives) and the model's tokens
    (`usage`: every request of its turns; the offline policy makes none)."""

    def __init__(
        self, agent: ScheduleAgent | None = None, *, name: str = "T-P-P (offline)", paper: bool = False
    ) -> None:
        self.agent = agent or ScheduleAgent()
        self.name = name
        self.paper = paper
        self.solver_calls = 0
        self.usage = Usage()
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
        agent.session.frontier_budget = (
            FRONTIER_BUDGET  # as the offline lab T-P-P: options must not depend on load
        )
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
        self.usage = self.usage + turn.usage
        self.last = turn
        return turn.text

    def respond(self, text: str) -> str:
        turn = self.agent.respond(text)
        self.solver_calls += sum(
            1
            for c in turn.tool_calls
            if c.get("name") in SOLVER_TOOLS and "error" not in (c.get("result") or {})
        )
        self.usage = self.usage + turn.usage
        self.last = turn
        return turn.text


DESIGNS = ("T-P-P", "T-P-P-paper", "C-P-P", "C-P-R", "C-N-R")
DESCRIPTIONS = {
    "T-P-P": "tools over the School Scheduling model (fix, weight, bound, remove, solve, alternatives), "
    "processed solutions",
    "T-P-P-paper": f"T-P-P with the paper's tools only ({PAPER_MODE})",
    "C-P-P": "writes PuLP formulation code run in the sandbox pipeline; sees a processed schedule",
    "C-P-R": "writes PuLP formulation code run in the sandbox pipeline; sees raw x[q,t] values",
    "C-N-R": "a generic assistant with a Python (PuLP) sandbox: no problem prompt, no pipeline, raw output",
}


def llm_problem(settings: Settings | None) -> str | None:
    """Why `settings` cannot reach an LLM (offline provider, no key and no local OpenAI URL), or None."""
    if settings is None or settings.provider == "offline":
        return "no LLM provider is chosen (Anthropic or OpenAI under Settings)"
    if settings.api_key or (settings.provider == "openai" and settings.base_url):
        return None
    var = "ANTHROPIC_API_KEY" if settings.provider == "anthropic" else "OPENAI_API_KEY (or OPENAI_BASE_URL)"
    return f"{var} is not set"


@dataclass(frozen=True)
class OptimizerSpec:
    """One optimization agent: `design` (T-P-P, T-P-P-paper, C-P-P, C-P-R, C-N-R) and `kind` (offline: the
    built-in T-P-P policy, the only offline design; llm: the Settings/agent-spec LLM)."""

    design: str = "T-P-P"
    kind: str = "offline"

    def __post_init__(self) -> None:
        if self.kind not in ("offline", "llm"):
            raise SpecError("kind", f"use offline or llm, got {self.kind!r}")
        canonical = {d.upper(): d for d in DESIGNS}.get(str(self.design).upper())
        if canonical is None:
            raise SpecError("design", f"use {', '.join(DESIGNS)}; got {self.design!r}")
        object.__setattr__(self, "design", canonical)
        if self.kind == "offline" and canonical != "T-P-P":
            raise SpecError(
                "design",
                "the only offline design is T-P-P; T-P-P-paper, C-P-P, C-P-R, C-N-R need an LLM agent",
            )

    @classmethod
    def from_agent_spec(cls, agent_spec: dict[str, Any]) -> OptimizerSpec:
        """From an experiment's `[[agents]]` entry (`paper = true` on T-P-P means T-P-P-paper)."""
        design = str(agent_spec.get("design", "T-P-P"))
        if design.upper() == "T-P-P" and agent_spec.get("paper"):
            design = "T-P-P-paper"
        return cls(design=design, kind=str(agent_spec.get("kind", "offline")))

    @property
    def llm(self) -> bool:
        return self.kind == "llm"

    @property
    def label(self) -> str:
        """How reports and the page name this agent before it runs (offline is never called an LLM)."""
        if not self.llm:
            return "T-P-P (offline)"
        if self.design == "T-P-P-paper":
            return f"T-P-P (LLM, {PAPER_MODE})"
        return f"{self.design} (LLM)"

    def paradigm_problem(self, paradigm: Paradigm | str) -> str | None:
        """Why this agent cannot be evaluated under `paradigm` as seed 003 defines it (Table 2), or None."""
        paradigm = Paradigm(paradigm)
        if self.design != "C-N-R":
            return None
        if paradigm is Paradigm.DEFAULT:
            return (
                "C-N-R has no problem prompt, so it proposes no schedule before the decision agent explains the "
                "problem: there is no default schedule to score."
            )
        if paradigm is Paradigm.AWARE_ONE_SHOT:
            return (
                "the optimization-aware template assumes an agent that already knows the problem, while C-N-R "
                "needs the decision agent to explain it first (C-N-R-adjusted template); the paper defines no "
                "template that does both."
            )
        return None

    def paradigms(self) -> list[Paradigm]:
        """The paradigms this agent can meaningfully be evaluated under."""
        return [p for p in Paradigm if self.paradigm_problem(p) is None]

    def decision_problem(self, decision_kind: str) -> str | None:
        """Why this agent cannot face decision agents of `decision_kind` (offline / llm), or None."""
        if self.design == "C-N-R" and decision_kind == "offline":
            return (
                "C-N-R knows nothing about the district: the paper's decision agents first explain the problem "
                "(C-N-R-adjusted template), which the offline stand-ins cannot do. Use LLM decision agents with C-N-R."
            )
        return None

    def factory(self, settings: Settings | None) -> Callable[[], Any]:
        """A zero-argument constructor of the agent. An LLM design raises SpecError (field `agent.provider`)
        when called without usable LLM settings: no offline agent is substituted."""
        if not self.llm:
            return TPPAgent.offline

        def build() -> Any:
            problem = llm_problem(settings)
            if problem is not None:
                raise SpecError("agent.provider", f"{self.label} is an LLM agent and {problem}")
            if self.design in ("T-P-P", "T-P-P-paper"):
                return TPPAgent.llm(settings, paper=self.design == "T-P-P-paper")
            return CodeAgent(Design(self.design), make_chat_model(settings))

        return build
