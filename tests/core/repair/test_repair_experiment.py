"""The experiment adapter: instances, env and agent construction, numeric metrics through the one rollout."""

from __future__ import annotations

from pathlib import Path

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


def test_a_spec_runs_through_the_experiment_layer(tmp_path, repair_problems, store_path) -> None:
    import io
    import tomllib

    from core.experiments.driver import ExperimentStatus, run_experiment
    from core.experiments.engines import LocalEngine
    from core.experiments.spec import load_spec
    from core.store import Store

    data = save(repair_problems, tmp_path / "set.json")
    raw = (Path(__file__).parent / "lp_repair_spec.toml").read_text()
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(raw.replace('split = "test"', f'split = "test"\ndataset = "{data}"'))
    assert tomllib.loads(spec_path.read_text())["env"]["dataset"] == str(data)
    spec = load_spec(spec_path)
    summary = run_experiment(spec, Store(store_path), engine=LocalEngine(1), progress=io.StringIO())
    assert summary.status is ExperimentStatus.DONE and summary.done == summary.cells == 4


def test_metrics_carry_the_strict_verdict_and_exact(tmp_path, repair_problems) -> None:
    """ME-7 by the offline agent: rational under the paper's checks, refused by the strict judge, not exact."""
    path = save(repair_problems, tmp_path / "set.json")
    [(_key, config)] = experiment.instances({"dataset": str(path), "split": "test", "types": ["ME-7"]})
    env = experiment.make_env(config)
    agent = experiment.make_agent({"kind": "offline"}, config, Settings())
    m = experiment.metrics(rollout(env, agent, seed=0), env)
    assert (m["rational"], m["rational_strict"], m["exact_repair"]) == (1.0, 0.0, 0.0)


def test_adapter_builds_the_diagnostician(tmp_path, repair_problems) -> None:
    path = save(repair_problems, tmp_path / "set.json")
    cells = experiment.instances({"dataset": str(path), "split": "test", "types": ["ME-8"], "extended": True})
    env = experiment.make_env(cells[0][1])
    agent = experiment.make_agent({"kind": "offline", "agent": "diagnostician"}, cells[0][1], Settings())
    assert agent.name.startswith("diagnostician")
    m = experiment.metrics(rollout(env, agent, seed=0), env)
    assert m["rational_strict"] == 1.0 and m["exact_repair"] == 1.0
