"""Offline RetailBench agents on the shared `Agent` protocol: the privileged oracle and simple baselines.

Each wraps a `solvers.retail.policies` policy: at the start of a day it plans the day's tool calls from the
environment's simulator (the oracle also reads hidden quality and news effects) and then emits them one per
step, ending with `end_today`. They are labelled offline (not LLM) in every record.
"""

from __future__ import annotations

from typing import Any

from core.errors import SpecError
from solvers.retail.env import RetailBenchEnv
from solvers.retail.policies import POLICIES, Policy, make_policy

AGENTS = tuple(POLICIES)
DESCRIPTIONS = {
    "oracle": "privileged reference: best hidden-quality supplier, best historical price, bulk reorder, news-aware",
    "cheapest": "always the cheapest supplier, best historical price, reorder 4x expected demand",
    "review_aware": "supplier by smoothed review rating (no hidden data), otherwise like cheapest",
    "news_aware": "review-rated suppliers, weekly exploration orders to every supplier, hidden news effects",
    "do_nothing": "never acts; pays rent until bankrupt",
}


class PolicyAgent:
    """Plays a non-LLM policy through the environment's tools (one tool call per step)."""

    def __init__(self, name: str, env: RetailBenchEnv) -> None:
        if name not in POLICIES:
            raise SpecError("agent", f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}")
        self.name = name
        self.env = env
        self.policy: Policy = make_policy(name, env.config.name)
        self.queue: list[dict] = []
        self.last_note = ""

    def reset(self, seed: int | None) -> None:
        self.policy = make_policy(self.name, self.env.config.name)
        self.queue = []

    def act(self, observation: Any) -> dict:
        if not self.queue:
            if self.env.sim is None:
                raise SpecError("env", "reset the environment before acting")
            self.queue = list(self.policy.plan(self.env.sim))
        action = self.queue.pop(0)
        self.last_note = f"{self.name} (offline policy)"
        return action
