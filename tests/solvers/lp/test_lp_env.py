"""LPRepairEnv: ground-truth replay, budgets, Phase II loops, invalid actions, determinism, switches."""

from __future__ import annotations

import json

import numpy as np
from gymnasium.utils.env_checker import check_env

from solvers.lp.actions import Action, ActionName
from solvers.lp.dataset import Problem
from solvers.lp.env import LPRepairEnv, sample_actions
from solvers.lp.errortypes import ErrorType


def _first(problems: list[Problem], e: ErrorType) -> Problem:
    return next(p for p in problems if p.error_type is e)


def _run(env: LPRepairEnv, problem: Problem, actions: list[dict]):
    obs, info = env.reset(options={"problem": problem})
    trace = [(obs, 0.0, False, False, info)]
    for a in actions:
        out = env.step(a)
        trace.append(out)
        if out[2] or out[3]:
            break
    return trace


def test_ground_truth_replay_scores_150_on_every_type(small_problems) -> None:
    env = LPRepairEnv(small_problems, extended=True)
    for p in [p for p in small_problems if p.split == "test"]:
        trace = _run(env, p, [a.to_dict() for a in p.gt_actions])
        _obs, reward, terminated, _trunc, info = trace[-1]
        assert terminated and reward == 150.0, (p.id, info)
        m = env.episode_metrics()
        assert m["recovered"] and m["rational"] and m["steps"] == len(p.gt_actions)


def test_paper_grammar_refuses_coefficient_edits(small_problems) -> None:
    env = LPRepairEnv(small_problems)  # extended off by default
    p = _first(small_problems, ErrorType.ME8)
    obs, _r, term, _t, info = _run(env, p, [a.to_dict() for a in p.gt_actions])[-1]
    assert not term and info["error"] and "extended action set" in info["error"]
    assert info["status"] == "INFEASIBLE" and info["switches"]["extended_actions"] is False


def test_do_nothing_truncates_at_20_steps_with_minus_50(small_problems) -> None:
    env = LPRepairEnv(small_problems)
    p = _first(small_problems, ErrorType.ME4)
    trace = _run(env, p, [Action(ActionName.GET_IIS).to_dict()] * 25)
    assert len(trace) == 21
    _obs, reward, terminated, truncated, _info = trace[-1]
    assert truncated and not terminated and reward == -50.0
    assert all(r == 0.0 for _o, r, *_ in trace[:-1])


def test_me5_starts_in_phase_two_and_feedback_names_the_property(small_problems) -> None:
    env = LPRepairEnv(small_problems)
    p = _first(small_problems, ErrorType.ME5)
    obs, info = env.reset(options={"problem": p})
    assert info["status"] == "OPTIMAL" and info["phase"] == "VALIDATE" and info["loops"] == 1
    assert "Cost consistency violated" in obs and "Debug-Validate Loop: 1 / 3" in obs
    # three more failing verdicts are not allowed: loops 2, 3, then the end with +75
    wrong = Action(ActionName.UPDATE_OBJ, "B_e1", 1.0).to_dict()
    rewards = [env.step(wrong)[1:4] for _ in range(1)]
    assert env.loops == 2 and not env.done
    env.step(Action(ActionName.UPDATE_OBJ, "B_e1", 2.0).to_dict())
    assert env.loops == 3 and not env.done
    _obs, reward, terminated, _t, _info = env.step(Action(ActionName.UPDATE_OBJ, "B_e1", 3.0).to_dict())
    assert terminated and reward == 75.0 and rewards


def test_invalid_actions_cost_a_step_and_change_nothing(small_problems) -> None:
    env = LPRepairEnv(small_problems)
    p = _first(small_problems, ErrorType.ME3)
    obs0, info0 = env.reset(options={"problem": p})
    text0 = env.current_model().to_text()
    for bad in (
        {"name": "PARSE_ERROR", "arguments": {"error": "no Action: line after </think>"}},
        {"name": "FLY_TO_MOON", "arguments": {}},
        {"name": "UPDATE_RHS", "arguments": {"target": "capacity_e1"}},
        {"name": "DROP_CONSTRAINT", "arguments": {"target": "no_such_row"}},
        {"name": "DROP_CONSTRAINT", "arguments": {"target": "backorder_cap_e1"}},
        "free text",
    ):
        obs, reward, term, trunc, info = env.step(bad)
        assert info["error"] and "ERROR" in obs and reward == 0.0 and not term
    assert env.t == 6 and env.current_model().to_text() == text0
    assert "no Action: line" in env.history[0][2]


def test_protection_switch_off_lets_balance_rows_be_dropped(small_problems) -> None:
    p = _first(small_problems, ErrorType.ME4)
    env = LPRepairEnv(small_problems, protected=False)
    env.reset(options={"problem": p})
    _o, _r, _t, _tr, info = env.step(Action(ActionName.DROP_CONSTRAINT, "inv_balance_e1").to_dict())
    assert info["error"] is None and info["switches"]["protected_rows"] is False


def test_prefix_targets_act_on_every_period(small_problems) -> None:
    p = _first(small_problems, ErrorType.ME9)
    env = LPRepairEnv(small_problems)
    env.reset(options={"problem": p})
    n_rows = env.current_model().num_rows
    _o, reward, term, _tr, info = env.step(Action(ActionName.DROP_CONSTRAINT, "min_order").to_dict())
    assert env.current_model().num_rows == n_rows - p.supply_chain.n_periods
    assert info["status"] == "OPTIMAL" and term and reward == 150.0


def test_same_seed_same_actions_identical_outputs(small_problems) -> None:
    rng = np.random.default_rng(5)
    env = LPRepairEnv(small_problems)
    actions = sample_actions(env, rng, 12)
    actions = json.loads(json.dumps(actions))

    def run() -> list:
        out = []
        obs, info = env.reset(seed=3)
        out.append((obs, info))
        for a in actions:
            step = env.step(a)
            out.append(step)
            if step[2] or step[3]:
                break
        return out

    assert run() == run()


def test_observation_is_ascii_and_inside_the_space(small_problems) -> None:
    env = LPRepairEnv(small_problems)
    obs, _info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert "## Model (LP format)" in obs and "## Problem" in obs
    compact = env.compact_observation(obs)
    assert "## Model (LP format)" not in compact["text"] and len(compact["sha256"]) == 64


def test_gymnasium_check_env_passes(small_problems) -> None:
    env = LPRepairEnv(small_problems[:1])
    check_env(env, skip_render_check=True)
