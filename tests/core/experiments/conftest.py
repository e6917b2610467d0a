"""Helpers for experiment tests: specs on the toy adapter, which is registered as an allowed adapter on import
(for this process and the drivers and workers it starts), as every module that uses `TOY` imports it from here."""

from __future__ import annotations

from typing import Any

from core.experiments.spec import ExperimentSpec, from_dict, register_adapter

TOY = "tests.core.experiments.toy_adapter"
register_adapter(TOY)


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
