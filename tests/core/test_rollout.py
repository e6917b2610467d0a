"""The rollout loop and the recorder: statuses, token deltas, buffering for workers, replay that can fail."""

from __future__ import annotations

import pickle
from typing import Any

import duckdb
import pytest

from core.catalog import make
from core.errors import SpecError
from core.llm import Usage
from core.recorder import Lease, Recorder, RunStatus
from core.rollout import RolloutStatus, replay_run, rollout
from core.store import Store

ENV = "orca/InventoryControl-v0"


class OrderUpTo:
    """Orders up to 20 (a plain offline agent); spends 10 fake tokens per decision."""

    name = "order-up-to-20"

    def __init__(self, fail_at: int | None = None) -> None:
        self.fail_at = fail_at
        self.usage = Usage()
        self.last_note = ""

    def reset(self, seed: int | None) -> None:
        self.usage = Usage()

    def act(self, observation: Any) -> int:
        if self.fail_at is not None and int(observation[1]) == self.fail_at:
            raise SpecError("action", "the agent could not decide")
        self.usage = self.usage + Usage(7, 3)
        self.last_note = f"position {int(observation[0]) + int(sum(observation[2:]))}"
        return max(0, 20 - int(observation[0]) - int(sum(observation[2:])))


def test_rollout_records_every_step_with_tokens_notes_and_final_metrics(store_path) -> None:
    store = Store(store_path)
    rec = Recorder(store, "policy_simulator", config={"env": ENV}, seed=4)
    result = rollout(make(ENV), OrderUpTo(), seed=4, recorder=rec)
    assert result.status is RolloutStatus.DONE and result.steps == 30
    rows = store.transitions(result.run_id)
    assert list(rows["t"]) == list(range(30))
    assert set(rows["input_tokens"]) == {7} and set(rows["output_tokens"]) == {3}
    assert rows["note"].iloc[0].startswith("position")
    run = store.get_run(result.run_id)
    assert run["status"] == RunStatus.DONE
    assert run["metrics"]["total_cost"] == -result.total_reward > 0
    assert store.lease(result.run_id) == (None, None), "a finished run is released"


def test_agent_error_fails_the_run_cleanly_and_stop_interrupts(store_path) -> None:
    store = Store(store_path)
    failed = rollout(make(ENV), OrderUpTo(fail_at=5), seed=1, recorder=Recorder(store, "x", seed=1))
    assert failed.status is RolloutStatus.FAILED and failed.steps == 5
    assert "could not decide" in failed.error
    assert store.get_run(failed.run_id)["status"] == "failed"
    calls = iter(range(100))
    stopped = rollout(make(ENV), OrderUpTo(), seed=1, recorder=Recorder(store, "x", seed=1),
                      should_stop=lambda: next(calls) >= 3)
    assert stopped.status is RolloutStatus.STOPPED and stopped.steps == 3
    assert store.get_run(stopped.run_id)["status"] == "stopped"
    capped = rollout(make(ENV), OrderUpTo(), seed=1, max_steps=7)
    assert capped.status is RolloutStatus.TRUNCATED and capped.steps == 7 and capped.run_id is None


def test_worker_buffers_a_picklable_record_that_the_driver_writes_in_one_go(store_path) -> None:
    rec = Recorder(None, "policy_simulator", config={"env": ENV}, seed=9, title="cell")
    result = rollout(make(ENV), OrderUpTo(), seed=9, recorder=rec)
    record = pickle.loads(pickle.dumps(rec.record))
    assert len(record.transitions) == 30 and record.status == "done"
    store = Store(store_path)
    run_id = store.write_record(record)
    assert store.get_run(run_id)["metrics"]["total_cost"] == result.metrics["total_cost"]
    assert replay_run(store, run_id, make(ENV)).matches


def test_replay_notices_a_tampered_step(store_path) -> None:
    store = Store(store_path)
    result = rollout(make(ENV), OrderUpTo(), seed=2, recorder=Recorder(store, "x", seed=2))
    con = duckdb.connect(str(store_path))
    con.execute("UPDATE transitions SET reward = reward - 1 WHERE run_id = ? AND t = 12", [result.run_id])
    con.close()
    check = replay_run(store, result.run_id, make(ENV))
    assert not check.matches and "step 12: reward" in check.mismatch


def test_attached_recorder_continues_numbering_and_paused_writes_nothing(store_path) -> None:
    store = Store(store_path)
    rec = Recorder(store, "x", seed=3)
    rec.message("user", "hello")
    rec.paused = True
    rec.message("user", "replayed, not recorded")
    rec.paused = False
    rec.finish(RunStatus.ACTIVE)
    again = Recorder.attach(store, rec.run_id)
    again.message("assistant", "hi")
    assert list(store.messages(rec.run_id)["content"]) == ["hello", "hi"]


def test_a_second_writer_of_a_leased_run_is_read_only_unless_the_holder_is_gone(tmp_path):
    from core.errors import StoreError
    from core.recorder import Recorder
    from core.store import Store

    store = Store(tmp_path / "lease.duckdb")
    first = Recorder(store, "inventory_copilot", owner="tab-1")
    first.message("user", "hello")
    second = Recorder.attach(store, first.run_id, Lease("tab-2", lambda owner: True))
    assert second.read_only
    with pytest.raises(StoreError, match="read-only"):
        second.message("user", "from the other tab")
    assert store.messages(first.run_id)["content"].tolist() == ["hello"]
    reloaded = Recorder.attach(store, first.run_id, Lease("tab-3", lambda owner: False))
    assert not reloaded.read_only and store.lease(first.run_id)[0] == "tab-3"
    reloaded.message("user", "after the reload")
    assert store.messages(first.run_id)["content"].tolist() == ["hello", "after the reload"]


def test_to_json_and_fingerprint_fast_paths_match_the_walk() -> None:
    """Plain JSON data takes the C encoder; the result and the hash are what the Python walk gives."""
    import hashlib
    import json

    import numpy as np

    from core.rollout import _to_json, fingerprint, to_json

    plain = {"b": [1, 2.5, "ü", None, True, ("t", 2)], "a": {"3": {"deep": [{"x": -0.0}]}}}
    mixed = {"arr": np.arange(3), "n": np.float64(1.5), "nan": float("nan"), 2: "int key", "s": {1, 2}}
    for value in (plain, mixed, [plain, mixed]):
        assert to_json(value) == _to_json(value)
        walk = json.dumps(_to_json(value), sort_keys=True, separators=(",", ":"), default=str)
        assert fingerprint(value) == hashlib.sha256(walk.encode()).hexdigest()


def test_an_episode_stepped_by_hand_records_what_rollout_records(store_path) -> None:
    """A page's stepper and the batch loop are one loop: the same rows (but latency), metrics and status."""
    from core.rollout import Episode

    store = Store(store_path)
    batch = rollout(make(ENV), OrderUpTo(), seed=6, recorder=Recorder(store, "x", seed=6))
    episode = Episode(make(ENV), OrderUpTo(), seed=6, recorder=Recorder(store, "x", seed=6))
    observation, _ = episode.reset()
    assert int(observation[1]) == 0 and episode.steps == 0
    while episode.ended is None:
        row = episode.step()
        assert row is episode.trace[-1] and row.t == episode.steps - 1
    result = episode.finish()
    assert result.status is RolloutStatus.DONE and result.steps == batch.steps == 30
    assert result.total_reward == batch.total_reward and result.metrics == batch.metrics
    assert result.actions == batch.actions
    by_hand, looped = store.transitions(result.run_id), store.transitions(batch.run_id)
    for name in ("t", "action", "reward", "obs_hash", "input_tokens", "output_tokens", "note"):
        assert by_hand[name].tolist() == looped[name].tolist(), name
    assert store.get_run(result.run_id)["status"] == RunStatus.DONE
    with pytest.raises(SpecError, match="has ended"):
        episode.step()


def test_an_episode_takes_a_given_action_without_asking_the_agent_and_finishes_as_told() -> None:
    from core.rollout import Episode

    agent = OrderUpTo(fail_at=1)  # raises when asked in period 1
    rec = Recorder(None, "x", seed=1)
    episode = Episode(make(ENV), agent, seed=1, recorder=rec)
    episode.reset()
    row = episode.step(5)
    assert row.action == 5 and row.input_tokens == row.output_tokens == 0
    assert row.latency_ms is None and row.note is None
    with pytest.raises(SpecError, match="could not decide"):
        episode.step()
    assert episode.steps == len(rec.record.transitions) == 1, "a failed step changes nothing"
    result = episode.finish(RolloutStatus.STOPPED, extra_metrics={"agent": "by hand"})
    assert result.status is RolloutStatus.STOPPED and result.metrics["agent"] == "by hand"
    assert result.metrics["steps"] == 1 and rec.record.status == RunStatus.STOPPED
    episode.reset()
    assert episode.steps == 0 and episode.result is None and episode.total_reward == 0.0
    assert episode.step(0).t == 1, "transition numbers continue the recorder's"
