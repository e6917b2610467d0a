"""Evaluation ground truth stored with our runs (hidden supplier quality, reference prices): stage-3
diagnostics from it, and it never reaches an agent."""

from __future__ import annotations

import json

import pytest

from core.recorder import Recorder
from core.retail import replay
from core.retail.hybrid import HybridAgent
from core.retail.live import run_tables
from core.retail.run import run_offline
from core.rollout import rollout
from core.store import Store
from core.store.retail import retail_records
from solvers.retail.env import RetailBenchEnv

HIDDEN_KEYS = ("quality", "reference")


def keys(value, out=None):
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            keys(v, out)
    elif isinstance(value, list):
        for v in value:
            keys(v, out)
    return out


class Watching:
    """Wraps an agent and keeps every observation it is given."""

    def __init__(self, agent):
        self.agent, self.seen = agent, []

    def reset(self, seed):
        self.agent.reset(seed)

    def act(self, observation):
        self.seen.append(json.loads(json.dumps(observation, default=str)))
        return self.agent.act(observation)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return Store(tmp_path_factory.mktemp("eval") / "s.duckdb")


def test_stored_ground_truth_is_not_visible_to_the_agent(store):
    env = RetailBenchEnv("hard_v2", max_days=4)
    agent = Watching(HybridAgent())
    recorder = Recorder(None, "retailbench", config={"agent": "hybrid"}, seed=2)
    rollout(env, agent, seed=2, recorder=recorder)
    recorder.record.tables = run_tables(env.sim)
    run_id = store.write_record(recorder.record)
    quality = retail_records(store, run_id, "eval_quality")
    orders = retail_records(store, run_id, "supplier_orders")
    assert len(quality) == 4 * env.sim.m * 5 and not orders.empty
    assert not retail_records(store, run_id, "eval_reference_price").empty
    # the agent placed orders and saw their results, yet no observation carries a hidden field
    assert any(o.get("result", {}).get("lines") for o in agent.seen if isinstance(o.get("result"), dict))
    leaked = {k for o in agent.seen for k in keys(o) if any(h in k.lower() for h in HIDDEN_KEYS)}
    assert not leaked, f"hidden evaluation data reached the agent: {sorted(leaked)}"
    # nor does the stored transcript of what the agent saw
    for obs in store.transitions(run_id)["observation"]:
        obs = obs if isinstance(obs, dict) else json.loads(obs)
        assert not {k for k in keys(obs) if any(h in k.lower() for h in HIDDEN_KEYS)}


def test_stage3_of_our_runs_from_the_stored_ground_truth(store):
    """Known answers: the privileged oracle buys from the hidden-quality-best supplier and prices by the
    reference rule; the cheapest baseline buys the cheapest quote."""
    oracle = run_offline("oracle", days=6, seed=3, store=store)["run_id"]
    cheapest = run_offline("cheapest", days=6, seed=3, store=store)["run_id"]
    both = replay.diagnostics_of(store, [oracle, cheapest])
    o, c = both[oracle], both[cheapest]
    assert o["s3_place_order_eval_count"] > 0 and o["s3_modify_price_eval_count"] > 0
    assert o["s3_supplier_quality_first_rate"] == 1.0 and o["supplier_quality_score"] == 1.0
    assert o["s3_modify_price_distance_pct_mean"] == pytest.approx(0.0, abs=1e-9)
    assert o["price_closeness"] == 1.0
    assert c["s3_supplier_price_first_rate"] == 1.0 and c["s3_supplier_quality_first_rate"] < 0.5
    assert c["price_closeness"] == 0.0  # the worse of the two compared runs
    assert "stage3_note" not in o
