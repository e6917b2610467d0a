"""The agent protocol every workbench shares: `reset(seed)`, then `act(observation) -> action`.

Offline agents are plain classes; LLM agents wrap the one tool loop (`core/llm/runner.py`). An agent may expose
`usage` (cumulative `core.llm.Usage`: the rollout records each step's token delta) and `last_note` (a short
text explaining its last action: reasoning, a rule's name), both optional.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Acts in an environment, one observation at a time."""

    name: str

    def reset(self, seed: int | None) -> None:
        """Start a new episode; a seeded agent must act identically after the same `reset(seed)`."""
        ...

    def act(self, observation: Any) -> Any:
        """The action for this observation (what `env.step` takes)."""
        ...
