"""The real track (`solvers.lp.real.RealRepairEnv`): Netlib's infeasible models as repair episodes, success a
verified feasible model with the fewest changes (the own-model tool's fewest as the reference)."""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.repair.agents import DoNothingAgent, GreedyDropAgent, OfflineRepairAgent
from core.rollout import rollout
from solvers.lp.actions import Action, ActionName
from solvers.lp.env import LPRepairEnv, Track
from solvers.lp.real import REAL_MODELS, RealRepairEnv, count_changes, load_real, reference


def test_greedy_repairs_galenet_with_the_fewest_changes() -> None:
    env = RealRepairEnv(["galenet"])
    result = rollout(env, GreedyDropAgent(protected=False), seed=0, options={"problem": "galenet"})
    m = result.metrics
    assert (m["recovered"], m["verified_status"], m["changed"]) == (True, "OPTIMAL", 1)
    assert m["reference_fewest"] == 1 and m["reference_proven"] is True and m["fewest"] is True
    assert m["reward"] == 150.0 and m["track"] == "real" and len(m["changed_rows"]) == 1


def test_more_changes_than_the_reference_is_recovered_but_not_fewest() -> None:
    """box1: greedy drops three rows where one change repairs it."""
    m = rollout(RealRepairEnv(["box1"]), GreedyDropAgent(protected=False), seed=0).metrics
    assert m["recovered"] is True and m["changed"] == 3 and m["reference_fewest"] == 1
    assert m["fewest"] is False and m["reward"] == 75.0


def test_do_nothing_and_the_statement_diff_agent_do_not_recover() -> None:
    env = RealRepairEnv(["galenet"])
    m = rollout(env, DoNothingAgent(), seed=0).metrics
    assert (m["recovered"], m["changed"], m["reward"]) == (False, 0, -50.0)
    agent = OfflineRepairAgent()
    obs, _ = env.reset(options={"problem": "galenet"})
    assert "## Problem" not in obs and "## IIS" in obs and "## Model (LP format)" in obs
    assert agent.act(obs)["name"] == "SUBMIT" and "cannot work" in agent.last_note


def test_invalid_actions_cost_a_step_and_change_nothing() -> None:
    env = RealRepairEnv(["galenet"])
    env.reset(options={"index": 0})
    obs, reward, done, truncated, info = env.step({"name": "DROP_CONSTRAINT", "arguments": {"target": "nope"}})
    assert info["error"] and not done and reward == 0.0 and "ERROR" in obs
    _obs, _r, _d, _t, info = env.step(Action(ActionName.UPDATE_COEF, "x", 1.0).to_dict())
    assert info["error"] and info["step"] == 2
    assert count_changes(load_real("galenet"), env.current_model()).count == 0


def test_counts_rows_and_bounds_and_refuses_unknown_models() -> None:
    base = load_real("galenet")
    other = base.copy()
    other.drop_rows([base.row_names[0]])
    col = base.col_names[0]
    other.set_col_bounds(col, -5.0, 5.0)
    changes = count_changes(base, other)
    assert changes.rows == (base.row_names[0],) and changes.bounds == (col,) and changes.count == 2
    with pytest.raises(SpecError):
        RealRepairEnv(["not-a-model"])
    with pytest.raises(SpecError):
        LPRepairEnv(track=Track.REAL)


def test_every_model_has_a_verified_reference() -> None:
    """The own-model tool's fewest-changes repair exists for each model (cached; cplex1 read from .gz)."""
    for name in ("galenet", "cplex1"):
        ref = reference(name)
        assert ref.changes is not None and ref.changes >= 1
    assert len(REAL_MODELS) == 10
