"""The words of one evaluation conversation (seed 003 §4.1) between an optimization agent and a decision agent:
its paradigms, what an optimization agent is, and its scored result. The conversation itself exists once, as the
environment `core/schedule/lab/env.py: ConversationEnv` (`orca/SchoolSchedulingLab-v0`), run by `core/rollout.py`
(`core/schedule/lab/session.py` for the page's watched conversation, the experiment adapter for batches).

Paradigms (Table 2): `default` scores the base proposal, `one_shot` lets the decision agent send one message
about its school and the optimization agent answer once, `aware_one_shot` makes that single message carry all
of its preferences, and `conversation` runs until U* is reached, __END__, or the 20-turn limit. The best
schedule seen is what is scored: pi_d = U_d(best) / U_d*.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from core.schedule.lab.decision_agents import StopReason


class Paradigm(StrEnum):
    DEFAULT = "default"
    ONE_SHOT = "one_shot"
    AWARE_ONE_SHOT = "aware_one_shot"
    CONVERSATION = "conversation"


class OptimizationAgent(Protocol):
    """What the lab needs from an optimization agent (T-P-P, C-P-P, C-P-R, C-N-R)."""

    name: str
    solver_calls: int

    def opening(self) -> str: ...
    def respond(self, text: str) -> str: ...


@dataclass(frozen=True)
class ConversationResult:
    """Scores and the transcript of one conversation (`session.run_conversation`)."""

    key: str
    paradigm: Paradigm
    optimization_agent: str
    decision_agent: str
    stop: StopReason
    turns: int
    solver_calls: int
    best_value: float
    u_star: float
    best_schedule: dict[str, str]
    transcript: tuple[dict[str, Any], ...] = ()
    run_id: str | None = None
    optimizer_llm: bool = False
    decision_llm: bool = False

    @property
    def score(self) -> float:
        return max(self.best_value, 0.0) / self.u_star

    @property
    def success(self) -> bool:
        return self.best_value >= self.u_star - 1e-9

    @property
    def agents_note(self) -> str:
        """Which of the two agents were LLMs and which were offline stand-ins (for every report and page)."""
        pairs = ((self.optimization_agent, self.optimizer_llm), (self.decision_agent, self.decision_llm))
        llms = [name for name, llm in pairs if llm]
        stand_ins = [name for name, llm in pairs if not llm]
        return (
            f"LLM agents: {', '.join(llms) or 'none'}. "
            f"Offline stand-ins (built-in, not LLMs): {', '.join(stand_ins) or 'none'}."
        )

    def row(self) -> dict[str, Any]:
        profile_parts = self.key.split("-")
        return {
            "key": self.key,
            "utility": profile_parts[0],
            "style": profile_parts[1],
            "feedback": profile_parts[2],
            "paradigm": self.paradigm.value,
            "optimization_agent": self.optimization_agent,
            "optimization_agent_kind": "LLM" if self.optimizer_llm else "offline stand-in",
            "decision_agent": self.decision_agent,
            "decision_agent_kind": "LLM" if self.decision_llm else "offline stand-in",
            "stop": self.stop.value,
            "turns": self.turns,
            "solver_calls": self.solver_calls,
            "utility_value": round(self.best_value, 6),
            "u_star": self.u_star,
            "score": round(self.score, 6),
            "success": self.success,
            "run_id": self.run_id,
        }
