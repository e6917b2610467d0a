"""The macro-level strategy judge (seed 001) through the one LLM interface, against the fake servers; without
a key the analysis and the report say the macro level needs an LLM key."""

from __future__ import annotations

import json

import pytest

from core.config import Settings
from core.llm import make_chat_model
from core.recorder import Recorder
from core.retail import replay
from core.retail.diagnostics import MACRO_NEEDS_KEY
from core.retail.judge import MacroJudge, parse_similarity
from core.store import Store

LOG = [
    {"day": 1, "macro_strategy": ["Keep the best sellers stocked."], "execute_strategy": {"focus_skus": ["a"]}},
    {"day": 2, "macro_strategy": ["Keep the best sellers stocked."], "execute_strategy": {"focus_skus": ["a"]}},
    {"day": 3, "macro_strategy": ["Cut prices to win volume."], "execute_strategy": {"focus_skus": ["a", "b"]}},
    {"day": 4, "macro_strategy": ["Widen the assortment."], "execute_strategy": {"focus_skus": ["c"]}},
]


def model(fake_llm, provider):
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    return make_chat_model(Settings(provider=provider, model="judge-m", base_url=url, api_key="k", max_retries=0))


def test_parse_similarity():
    assert parse_similarity('{"similarity": 0.25, "reason": "r"}') == 0.25
    assert parse_similarity('Sure.\n{"similarity": 1, "reason": "same"}') == 1.0
    assert parse_similarity("0.7") == 0.7
    for bad in ("", "very similar", '{"similarity": 1.4}', '{"score": 0.5}', "0.2 or 0.3", '{"similarity": "high"}'):
        assert parse_similarity(bad) is None, bad


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_macro_instability_by_the_judge(fake_llm, provider, tmp_path):
    fake_llm.script([{"text": '{"similarity": 0.4, "reason": "prices instead of stock"}'},
                     {"text": "I would say they differ."}])  # fmt: skip
    judge = MacroJudge(model(fake_llm, provider))
    store = Store(tmp_path / "s.duckdb")
    rec = Recorder(None, "retailbench", config={"agent": "evolving_strategy"}, seed=0)
    rec.artifact("strategy_log.json", json.dumps(LOG).encode())
    run_id = store.write_record(rec.record)
    out = replay.instability(store, run_id, judge=judge)
    assert out["macro_similarity"] == [1.0, 0.4, None]  # identical days need no call; a wordy reply is unscored
    assert out["macro_unscored"] == 1 and "macro_note" not in out
    assert out["macro"]["mac"] == pytest.approx(0.6) and out["macro"]["tv"] == pytest.approx(0.6)
    assert judge.calls == 2 and judge.failures == 1 and judge.usage.input_tokens > 0
    assert len(fake_llm.requests) == 2
    sent = json.dumps(fake_llm.requests[0]["body"])
    assert "Keep the best sellers stocked." in sent and "Cut prices to win volume." in sent


def test_without_a_key_the_macro_level_says_so(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    rec = Recorder(None, "retailbench", config={"agent": "evolving_strategy"}, seed=0)
    rec.artifact("strategy_log.json", json.dumps(LOG).encode())
    run_id = store.write_record(rec.record)
    out = replay.instability(store, run_id)
    assert out["macro_note"] == MACRO_NEEDS_KEY and "needs an LLM key" in MACRO_NEEDS_KEY
    assert out["macro"] == {"std_diff": None, "mac": None, "tv": None}
    assert out["execution"]["tv"] is not None
