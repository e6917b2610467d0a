"""Helpers for experiment tests: specs on the toy adapter."""

from __future__ import annotations

from typing import Any

from core.experiments.spec import ExperimentSpec, from_dict

TOY = "tests.core.experiments.toy_adapter"


def toy_spec(agents: list[dict[str, Any]] | None = None, **fields: Any) -> ExperimentSpec:
    """A spec on the toy adapter: by default 2 agents × 1 instance × 3 seeds."""
    data: dict[str, Any] = {
        "name": "toy",
        "workbench": "policy_simulator",
        "adapter": TOY,
        "env": {"horizons": [8]},
        "agents": agents or [{"name": "low", "S": 10}, {"name": "high", "S": 25}],
        "seeds": [0, 1, 2],
        "metric": "total_cost",
        "goal": "min",
    }
    data.update(fields)
    return from_dict(data)
