"""One School Scheduling lab conversation for tests: given agent instances, through the environment and rollout."""

from __future__ import annotations

from typing import Any

from core.schedule.lab.conversation import ConversationResult, OptimizationAgent, Paradigm
from core.schedule.lab.decision_agents import DecisionProfile
from core.schedule.lab.env import ConversationEnv
from core.schedule.lab.session import run_conversation


def converse(
    profile: DecisionProfile,
    optimizer: OptimizationAgent,
    *,
    paradigm: Paradigm | str = Paradigm.CONVERSATION,
    decision: Any = None,
) -> ConversationResult:
    """`optimizer` against `decision` (default: the environment's offline stand-in for `profile`) in
    `orca/SchoolSchedulingLab-v0`, rolled out with seed 0."""
    env = ConversationEnv(
        profile, paradigm=paradigm, decision_agent=None if decision is None else lambda _: decision
    )
    return run_conversation(env, lambda: optimizer)
