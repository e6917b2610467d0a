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


def test_track_key_withholds_the_statement_and_bad_keys_are_refused(tmp_path, repair_problems) -> None:
    from core.errors import SpecError
    from solvers.lp.env import Track

    path = save(repair_problems, tmp_path / "set.json")
    base = {"dataset": str(path), "split": "test", "types": ["ME-9"]}
    [(_key, config)] = experiment.instances({**base, "track": "model-only"})
    assert config["track"] == "model-only" and config["mix"] == "single"
    env = experiment.make_env(config)
    assert env.track is Track.MODEL_ONLY
    agent = experiment.make_agent({"kind": "offline"}, config, Settings())
    m = experiment.metrics(rollout(env, agent, seed=0), env)
    assert m["recovered"] == 0.0 and "cannot work" in agent.last_note
    with pytest.raises(SpecError):
        experiment.instances({**base, "track": "galaxy"})
    with pytest.raises(SpecError):
        experiment.instances({**base, "mix": "triple", "dataset": None})


def test_feedback_judge_strict_runs_phase_two_on_the_strict_verdict(tmp_path, repair_problems) -> None:
    """ME-7: the paper judge ends the episode rational (+150); under feedback_judge = strict the same plan is
    refused with the strict judge's reason as feedback, and the reward follows that judge."""
    path = save(repair_problems, tmp_path / "set.json")
    base = {"dataset": str(path), "split": "test", "types": ["ME-7"]}
    results = {}
    for judge in ("paper", "strict"):
        [(_key, config)] = experiment.instances({**base, "feedback_judge": judge})
        assert config["feedback_judge"] == judge
        env = experiment.make_env(config)
        agent = experiment.make_agent({"kind": "offline"}, config, Settings())
        result = rollout(env, agent, seed=0)
        results[judge] = (experiment.metrics(result, env), env._observation())
    paper, strict = results["paper"][0], results["strict"][0]
    assert paper["reward"] == 150.0 and paper["loops"] == 0.0
    assert strict["reward"] < 150.0 and strict["loops"] >= 1.0 and strict["rational_strict"] == 0.0
    assert "Strict judge refuses the plan" in results["strict"][1]
    from core.errors import SpecError

    with pytest.raises(SpecError):
        experiment.instances({**base, "feedback_judge": "lenient"})


def test_real_track_cells_run_netlib_models_without_ground_truth() -> None:
    from core.errors import SpecError

    cells = experiment.instances({"track": "real", "limit": 2})
    assert [k for k, _c in cells] == ["galenet", "woodinfe"]
    config = cells[0][1]
    env = experiment.make_env(config)
    agent = experiment.make_agent({"kind": "offline", "agent": "greedy"}, config, Settings())
    m = experiment.metrics(rollout(env, agent, seed=0, options={"problem": "galenet"}), env)
    assert m == {"recovered": 1.0, "fewest": 1.0, "changed": 1.0, "steps": 1.0, "reward": 150.0,
                 "reference_fewest": 1.0}
    with pytest.raises(SpecError):
        experiment.make_agent({"kind": "offline", "agent": "ground-truth"}, config, Settings())


def test_adapter_builds_the_diagnostician(tmp_path, repair_problems) -> None:
    path = save(repair_problems, tmp_path / "set.json")
    cells = experiment.instances({"dataset": str(path), "split": "test", "types": ["ME-8"], "extended": True})
    env = experiment.make_env(cells[0][1])
    agent = experiment.make_agent({"kind": "offline", "agent": "diagnostician"}, cells[0][1], Settings())
    assert agent.name.startswith("diagnostician")
    m = experiment.metrics(rollout(env, agent, seed=0), env)
    assert m["rational_strict"] == 1.0 and m["exact_repair"] == 1.0
