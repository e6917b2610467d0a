"""One evaluation conversation (seed 003 §4.1) between an optimization agent and a decision agent.

Paradigms (Table 2): `default` scores the base proposal, `one_shot` lets the decision agent send one message
about its school and the optimization agent answer once, `aware_one_shot` makes that single message carry all
of its preferences, and `conversation` runs until U* is reached, __END__, or the 20-turn limit. The best
schedule seen is what is scored: pi_d = U_d(best) / U_d*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from core.errors import SpecError
from core.recorder import Recorder, RunStatus
from core.schedule.lab.decision_agents import DecisionProfile, OfflineDecisionAgent, StopReason
from solvers.schedule.data import District, sfusd_district


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


@dataclass
class ConversationResult:
    """Scores and the transcript of one conversation."""

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
    transcript: list[dict[str, Any]] = field(default_factory=list)
    run_id: str | None = None

    @property
    def score(self) -> float:
        return max(self.best_value, 0.0) / self.u_star

    @property
    def success(self) -> bool:
        return self.best_value >= self.u_star - 1e-9

    def row(self) -> dict[str, Any]:
        profile_parts = self.key.split("-")
        return {
            "key": self.key,
            "utility": profile_parts[0],
            "style": profile_parts[1],
            "feedback": profile_parts[2],
            "paradigm": self.paradigm.value,
            "optimization_agent": self.optimization_agent,
            "decision_agent": self.decision_agent,
            "stop": self.stop.value,
            "turns": self.turns,
            "solver_calls": self.solver_calls,
            "utility_value": round(self.best_value, 6),
            "u_star": self.u_star,
            "score": round(self.score, 6),
            "success": self.success,
            "run_id": self.run_id,
        }


def converse(
    profile: DecisionProfile,
    optimizer: OptimizationAgent,
    *,
    paradigm: Paradigm | str = Paradigm.CONVERSATION,
    decision: Any = None,
    district: District | None = None,
    recorder: Recorder | None = None,
    max_turns: int = 20,
    seed: int = 0,
    on_message: Any = None,
) -> ConversationResult:
    """Run one conversation and score it; each message (with the utility checks) goes to the recorder."""
    try:
        paradigm = Paradigm(paradigm)
    except ValueError as err:
        raise SpecError("paradigm", f"use one of {[p.value for p in Paradigm]}") from err
    district = district or sfusd_district()
    decision = decision or OfflineDecisionAgent(profile, district, max_turns=max_turns, seed=seed)
    transcript: list[dict[str, Any]] = []

    def emit(role: str, text: str, **extra: Any) -> None:
        entry = {"role": role, "content": text, **extra}
        transcript.append(entry)
        if recorder is not None:
            recorder.message("user" if role == "decision" else "assistant", text)
            if extra:
                recorder.event("utility_check", {"role": role, **extra})
        if on_message is not None:
            on_message(entry)

    text = optimizer.opening()
    emit("optimizer", text)
    stop: StopReason
    if paradigm is Paradigm.DEFAULT:
        _, checks = decision.see(text)
        emit("check", "", checks=checks)
        stop = StopReason.ENDED
    elif paradigm in (Paradigm.ONE_SHOT, Paradigm.AWARE_ONE_SHOT):
        turn = decision.respond(text, one_shot=True, aware=paradigm is Paradigm.AWARE_ONE_SHOT)
        emit("decision", turn.text, checks=turn.checks)
        if turn.stop is None:
            reply = optimizer.respond(turn.text)
            emit("optimizer", reply)
            _, checks = decision.see(reply)
            emit("check", "", checks=checks)
        stop = StopReason.ENDED if turn.stop is None else turn.stop
    else:
        while True:
            turn = decision.respond(text)
            if turn.stop is StopReason.TURN_LIMIT:
                emit("check", "", checks=turn.checks)
                stop = turn.stop
                break
            emit("decision", turn.text, checks=turn.checks, best=round(max(decision.best_value, 0.0), 6))
            if turn.stop is not None:
                stop = turn.stop
                break
            text = optimizer.respond(turn.text)
            emit("optimizer", text)
    best = decision.best
    result = ConversationResult(
        key=profile.key,
        paradigm=paradigm,
        optimization_agent=optimizer.name,
        decision_agent=getattr(decision, "name", "decision"),
        stop=stop,
        turns=decision.turns,
        solver_calls=optimizer.solver_calls,
        best_value=max(decision.best_value, 0.0),
        u_star=profile.utility.u_star,
        best_schedule={}
        if best is None
        else dict(zip(district.names, (district.time_labels[a] for a in best), strict=True)),
        transcript=transcript,
    )
    if recorder is not None:
        metrics = {
            k: v for k, v in result.row().items() if isinstance(v, int | float) and not isinstance(v, bool)
        }
        metrics["success"] = float(result.success)
        recorder.finish(RunStatus.DONE, metrics)
        result.run_id = getattr(recorder, "run_id", None)
    return result
