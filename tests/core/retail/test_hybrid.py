"""The offline tool-plan agents (hybrid, store manager): public tools only, and they run a store."""

from __future__ import annotations

import sys

import pytest

import solvers.retail.env as env_module
from core.retail.hybrid import HybridAgent, ScriptedManager, drive
from core.rollout import rollout
from solvers.retail.env import RetailBenchEnv
from solvers.retail.sim import RetailSim

AGENT_MODULE = "core.retail.hybrid"


class GuardedSim(RetailSim):
    """A simulator that raises when code of the agent module reads any of its attributes."""

    def __getattribute__(self, name: str):
        caller = sys._getframe(1).f_globals.get("__name__")
        if caller == AGENT_MODULE:
            raise AssertionError(f"the agent read hidden simulator state: sim.{name}")
        return super().__getattribute__(name)


@pytest.mark.parametrize("agent_cls", [HybridAgent, ScriptedManager])
def test_agents_use_only_public_tools(monkeypatch, agent_cls):
    monkeypatch.setattr(env_module, "RetailSim", GuardedSim)
    env = RetailBenchEnv("hard_v2", max_days=3)
    agent = agent_cls()
    assert not any(isinstance(v, RetailBenchEnv | RetailSim) for v in vars(agent).values())
    result = rollout(env, agent, seed=7)
    assert isinstance(env.sim, GuardedSim)
    assert result.error is None and env.days_closed == 3
    names = {c["tool"] for c in env.tools.calls}
    assert {"set_shelf_skus", "place_order", "end_today"} <= names
    assert not any(c["source"] != "direct" for c in env.tools.calls)


def test_guard_catches_a_peek(monkeypatch):
    """The guard itself works: agent-module code reading the simulator fails the run."""
    monkeypatch.setattr(env_module, "RetailSim", GuardedSim)
    env = RetailBenchEnv("hard_v2", max_days=2)
    env.reset(seed=1)
    peek = compile("sim.quality()", AGENT_MODULE.replace(".", "/") + ".py", "eval")
    with pytest.raises(AssertionError, match="hidden simulator state"):
        eval(peek, {"__name__": AGENT_MODULE, "sim": env.sim})


def test_hybrid_makes_money_and_replays_identically():
    def one() -> tuple[float, list]:
        env = RetailBenchEnv("hard_v2", max_days=20)
        welcome, _ = env.reset(seed=3)
        agent = HybridAgent()
        drive(agent, env.tools.call, welcome, days=20, seed=3)
        return env.sim.net_worth(), [c["tool"] for c in env.tools.calls]

    worth, calls = one()
    assert one() == (worth, calls)
    do_nothing = 30_000 - 20 * 600
    assert worth > do_nothing + 5_000
    assert calls.count("end_today") == 20


def test_hybrid_price_is_profit_maximising_for_its_estimate():
    agent = HybridAgent()
    agent.start(None)
    from core.retail.hybrid import SkuModel

    agent.models["x"] = SkuModel("x", "c", 30, b=-1.0, level=3.0, price_lo=1.0, price_hi=10.0, fitted=True)
    p = agent._price("x", cost=2.0, r=0.0)
    assert p == pytest.approx(3.0, abs=0.01)  # c - 1/b
    grid = [1.5 + 0.01 * i for i in range(300)]
    best = max(grid, key=lambda q: (q - 2.0) * agent.models["x"].demand(q))
    assert abs(best - p) < 0.02


def test_hybrid_shelf_prefers_a_new_category_over_a_weak_second():
    agent = HybridAgent()
    agent.start(None)
    from core.retail.hybrid import SkuModel

    for sku, cat in (("a1", "A"), ("a2", "A"), ("b1", "B")):
        agent.models[sku] = SkuModel(sku, cat, 30)
    agent.shelf_cap = 2
    values = {"a1": (10.0, 1.0), "a2": (10.0, 1.0), "b1": (4.0, 1.0)}
    assert agent._shelf(values) == ["a1", "b1"]  # a2 adds (2^(1/3) - 1) * 10 = 2.6 < 4
