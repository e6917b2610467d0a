"""Offline RetailBench agents on the shared `Agent` protocol: the paper reference policy (the oracle), the
full-information reference policy (`core.retail.reference`) and simple baselines.

Each wraps a `solvers.retail.policies` policy: at the start of a day it plans the day's tool calls from the
environment's simulator (the oracle also reads hidden quality and news effects, the full-information policy the
whole true model) and then emits them one per step, ending with `end_today`. They are labelled offline (not
LLM) in every record. Neither reference is an upper bound.
"""

from __future__ import annotations

from typing import Any

from core.errors import SpecError
from core.retail.reference import FullInformationPolicy
from solvers.retail.env import RetailBenchEnv
from solvers.retail.policies import POLICIES, Policy, make_policy

REFERENCE = {"full_info": FullInformationPolicy}
AGENTS = (*POLICIES, *REFERENCE)
ORACLE_LABEL = "paper reference policy (not an upper bound)"
DESCRIPTIONS = {
    "oracle": f"{ORACLE_LABEL}: privileged (hidden quality, news effects); best-quality supplier, best "
    "historical price, bulk reorder",
    "full_info": "full-information reference (not an upper bound): true demand model, supplier quality and news "
    "effects; model-optimal prices, order-up-to stock",
    "cheapest": "always the cheapest supplier, best historical price, reorder 4x expected demand",
    "review_aware": "supplier by smoothed review rating (no hidden data), otherwise like cheapest",
    "news_aware": "review-rated suppliers, weekly exploration orders to every supplier, hidden news effects",
    "do_nothing": "never acts; pays rent until bankrupt",
}


def make_reference_or_policy(name: str, config_name: str) -> Policy:
    """The policy called `name`: a `solvers.retail.policies` one or a reference policy of this package."""
    if name in REFERENCE:
        return REFERENCE[name]()
    return make_policy(name, config_name)


class PolicyAgent:
    """Plays a non-LLM policy through the environment's tools (one tool call per step)."""

    def __init__(self, name: str, env: RetailBenchEnv) -> None:
        if name not in AGENTS:
            raise SpecError("agent", f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}")
        self.name = name
        self.env = env
        self.policy: Policy = make_reference_or_policy(name, env.config.name)
        self.queue: list[dict] = []
        self.last_note = ""

    def reset(self, seed: int | None) -> None:
        self.policy = make_reference_or_policy(self.name, self.env.config.name)
        self.queue = []

    def act(self, observation: Any) -> dict:
        if not self.queue:
            if self.env.sim is None:
                raise SpecError("env", "reset the environment before acting")
            self.queue = list(self.policy.plan(self.env.sim))
        action = self.queue.pop(0)
        self.last_note = f"{self.name} (offline policy)"
        return action
