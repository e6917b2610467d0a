"""The one contract test over every registered environment: the gymnasium API, determinism, reset, replay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

from core.catalog import ENVIRONMENTS, WORKBENCHES, make, sample_actions
from core.recorder import Recorder
from core.rollout import RolloutStatus, replay_run, rollout, to_json
from core.store import Store

IDS = [e.id for e in ENVIRONMENTS]
STEPS = 40
ROOT = Path(__file__).resolve().parents[2]


class ScriptedAgent:
    """Plays a fixed list of actions (the contract needs the same actions twice)."""

    name = "scripted"

    def __init__(self, actions: list[Any]) -> None:
        self.actions = actions
        self.i = 0

    def reset(self, seed: int | None) -> None:
        self.i = 0

    def act(self, observation: Any) -> Any:
        action = self.actions[self.i % len(self.actions)]
        self.i += 1
        return action


_NUMERIC = (
    gymnasium.spaces.Box,
    gymnasium.spaces.Discrete,
    gymnasium.spaces.MultiBinary,
    gymnasium.spaces.MultiDiscrete,
)


def _numeric(env: gymnasium.Env) -> bool:
    return isinstance(env.observation_space, _NUMERIC) and isinstance(env.action_space, _NUMERIC)


def _trace(env: gymnasium.Env, seed: int, actions: list[Any]) -> list[Any]:
    obs, info = env.reset(seed=seed)
    out = [to_json(obs), to_json(info)]
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((to_json(obs), float(reward), terminated, truncated, to_json(info)))
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("env_id", IDS)
def test_env_is_a_gymnasium_env_and_passes_the_checker(env_id: str) -> None:
    env = make(env_id)
    assert isinstance(env, gymnasium.Env)
    assert env.__doc__ and len(env.__doc__) > 200, "the class docstring is the environment's spec sheet"
    if _numeric(env):
        check_env(env, skip_render_check=True)


def _outside(space: gymnasium.spaces.Space, obs: Any) -> str:
    """Why `obs` is not in `space` ("" when it is): for text, the length and the characters the space refuses."""
    if space.contains(obs):
        return ""
    if isinstance(space, gymnasium.spaces.Text) and isinstance(obs, str):
        bad = sorted({c for c in obs if c not in space.character_set})
        return f"{len(obs)} characters (space: {space.min_length}..{space.max_length}); refused: {bad!r}"
    return f"{type(obs).__name__} {str(obs)[:200]!r} not in {space}"


@pytest.mark.parametrize("env_id", IDS)
def test_every_observation_lies_in_the_declared_observation_space(env_id: str) -> None:
    """`observation_space.contains(obs)` on reset and on steps, for every space (text ones included)."""
    env = make(env_id)
    actions = sample_actions(env_id, env, seed=7, n=STEPS)
    for seed in (0, 11):
        obs, _ = env.reset(seed=seed)
        assert not (why := _outside(env.observation_space, obs)), f"reset(seed={seed}): {why}"
        for i, action in enumerate(actions):
            obs, _, terminated, truncated, _ = env.step(action)
            assert not (why := _outside(env.observation_space, obs)), f"seed {seed}, step {i}: {why}"
            if terminated or truncated:
                break


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_and_actions_give_identical_runs_and_reset_resets(env_id: str) -> None:
    env = make(env_id)
    actions = sample_actions(env_id, env, seed=3, n=STEPS)
    first = _trace(env, 11, actions)
    again = _trace(env, 11, actions)  # the same instance after reset: nothing left over from the first run
    fresh = _trace(make(env_id), 11, actions)
    assert first == again == fresh
    other = _trace(make(env_id), 12, actions)
    assert other != first, "a different seed should change something in the run"


@pytest.mark.parametrize("env_id", IDS)
def test_recorded_run_replays_exactly(env_id: str, store_path) -> None:
    store = Store(store_path)
    env = make(env_id)
    actions = sample_actions(env_id, env, seed=5, n=STEPS)
    recorder = Recorder(store, "contract", config={"env": env_id}, seed=21)
    result = rollout(env, ScriptedAgent(actions), seed=21, recorder=recorder, max_steps=STEPS)
    assert result.status in (RolloutStatus.DONE, RolloutStatus.TRUNCATED)
    assert result.run_id is not None and result.steps > 0
    stored = store.transitions(result.run_id)
    assert len(stored) == result.steps
    check = replay_run(store, result.run_id, make(env_id))
    assert check.matches, check.mismatch


def test_the_catalog_is_the_one_list_and_importing_it_registers_every_environment() -> None:
    """As with a Gymnasium package, `import core.catalog` in a fresh interpreter is enough for `gymnasium.make`."""
    assert [i for w in WORKBENCHES for i in w.env_ids] == IDS
    assert len(set(IDS)) == len(IDS) == 6, "each environment is listed once, under its workbench"
    assert {i for i in gymnasium.registry if i.startswith("orca/")} == set(IDS)
    code = (
        "import gymnasium, core.catalog as c\n"
        "for e in c.ENVIRONMENTS:\n"
        "    print(e.id, type(gymnasium.make(e.id, disable_env_checker=True).unwrapped).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=900
    )
    expected = [f"{e.id} {e.entry_point.rpartition(':')[2]}" for e in ENVIRONMENTS]
    assert out.stdout.splitlines() == expected
