"""The experiment adapter: instances, env and agent construction, numeric metrics through the one rollout."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.errors import ProviderError
from core.repair import experiment
from core.rollout import rollout
from solvers.lp.dataset import save


def test_adapter_runs_cells(tmp_path, repair_problems) -> None:
    path = save(repair_problems, tmp_path / "set.json")
    cells = experiment.instances({"dataset": str(path), "split": "test", "types": ["ME-3", "ME-9"]})
    assert [c["error_type"] for _k, c in cells] == ["ME-3", "ME-9"]
    for _key, config in cells:
        env = experiment.make_env(config)
        agent = experiment.make_agent({"kind": "offline"}, config, Settings())
        result = rollout(env, agent, seed=0)
        m = experiment.metrics(result, env)
        assert (
            m["rational"] == 1.0
            and m["recovered_at_5"] == 1.0
            and all(isinstance(v, float) for v in m.values())
        )
    with pytest.raises(ProviderError):
        experiment.make_agent({"kind": "llm"}, cells[0][1], Settings(provider="offline"))
