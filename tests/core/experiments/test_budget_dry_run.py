"""`experiment run --dry-run` and `--budget`: the estimate gives the exact number of model calls a scripted
fake-server run makes and its input tokens within 10 %, writes nothing; a budget stops the experiment cleanly
(cells not started stay pending) and rerunning resumes exactly the missing cells."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from core.cli import main
from core.errors import SpecError
from core.experiments.costs import estimate_tokens
from core.experiments.driver import ExperimentStatus, estimate, run_experiment
from core.experiments.engines import LocalEngine
from core.llm.prices import parse_prices
from core.store import Store
from tests.core.experiments.conftest import TOY, toy_spec

PRICES = parse_prices('[openai]\n"fake-model" = { input = 2.0, output = 10.0 }\n')
LLM = {"name": "gpt", "kind": "llm", "provider": "openai", "model": "fake-model"}


@pytest.fixture
def openai_env(fake_llm, monkeypatch):  # noqa: ANN001, ANN201
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    return fake_llm


def _sent_input_tokens(requests: list[dict]) -> int:
    """The input tokens of what was actually sent, by the estimate's own characters-per-token rule."""
    return sum(estimate_tokens(m["content"] or "") for r in requests for m in r["body"]["messages"])


def test_the_dry_run_counts_the_calls_exactly_and_the_input_tokens_within_10_percent(
    openai_env, store_path: Path
) -> None:
    spec = toy_spec(env={"horizons": [3, 5]}, seeds=[0, 1], agents=[LLM, {"name": "low", "S": 10}], baseline="low")
    store = Store(store_path)
    guess = estimate(spec, store, PRICES)
    assert store.list_experiments().empty, "a dry run writes nothing"
    assert guess["pending_cells"] == 8 and guess["calls"] == (3 + 5) * 2
    gpt = next(a for a in guess["agents"] if a["agent"] == "gpt")
    assert gpt["output_tokens"] == 3 * guess["calls"] and "assumed" in gpt["note"]
    assert guess["cost_usd"] == pytest.approx((guess["input_tokens"] * 2 + guess["output_tokens"] * 10) / 1e6)
    openai_env.script([{"text": str(10 + i % 5)} for i in range(40)])
    run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert len(openai_env.requests) == guess["calls"]
    sent = _sent_input_tokens(openai_env.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
    assert estimate(spec, store, PRICES)["pending_cells"] == 0, "done cells are not estimated again"


def test_a_model_without_a_price_is_estimated_as_price_unknown(store_path: Path) -> None:
    spec = toy_spec(env={"horizons": [3]}, seeds=[0], agents=[{**LLM, "model": "unpriced"}, {"name": "low"}])
    guess = estimate(spec, Store(store_path), PRICES)
    assert guess["calls"] == 3 and guess["cost_usd"] is None and guess["cost"] == "price unknown"


def test_the_budget_stops_cleanly_and_the_rest_resumes(openai_env, store_path: Path) -> None:
    spec = toy_spec(
        env={"horizons": [3]}, seeds=list(range(10)), agents=[LLM, {"name": "low", "S": 10}], baseline="low"
    )
    openai_env.script([{"text": "12", "usage": (100, 10)} for _ in range(60)])  # 0.0009 USD per LLM cell
    store = Store(store_path)
    first = run_experiment(spec, store, engine=LocalEngine(1), progress=False, budget_usd=0.001, prices=PRICES)
    assert first.status is ExperimentStatus.STOPPED and first.budget_reached
    assert first.spent_usd is not None and first.spent_usd >= 0.001
    cells = store.cells(spec.experiment_id)
    pending = set(cells.loc[cells["status"] == "pending", "cell_key"])
    assert pending and set(cells["status"]) <= {"done", "pending"}, "cells not started are left pending"
    llm_done = int(((cells["agent"] == "gpt") & (cells["status"] == "done")).sum())
    # the cell that reaches the budget and the (at most 2 per worker) cells already in flight finish
    assert 2 <= llm_done < 10 and len(openai_env.requests) == 3 * llm_done
    second = run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert second.status is ExperimentStatus.DONE and second.ran == len(pending)
    after = store.cells(spec.experiment_id)
    assert (after["status"] == "done").all() and after["attempts"].eq(1).all(), "no cell ran twice"
    assert len(openai_env.requests) == 3 * 10


def test_a_budget_needs_a_price_and_is_refused_before_anything_runs(openai_env, store_path: Path) -> None:
    spec = toy_spec(env={"horizons": [3]}, seeds=[0], agents=[{**LLM, "model": "unpriced"}, {"name": "low"}])
    store = Store(store_path)
    with pytest.raises(SpecError, match="--budget.*no price"):
        run_experiment(spec, store, progress=False, budget_usd=1.0, prices=PRICES)
    assert store.list_experiments().empty and not openai_env.requests


def test_the_cli_dry_run_prints_the_estimate(openai_env, store_path: Path, capsys) -> None:
    spec_file = store_path.parent / "toy.toml"
    spec_file.write_text(
        f'name = "toy"\nworkbench = "policy_simulator"\nadapter = "{TOY}"\nseeds = [0]\n'
        'metric = "total_cost"\ngoal = "min"\nbaseline = "low"\n[env]\nhorizons = [4]\n'
        '[[agents]]\nname = "gpt"\nkind = "llm"\nprovider = "openai"\nmodel = "gpt-4o-mini"\n'
        '[[agents]]\nname = "low"\nS = 10\n'
    )
    assert main(["--db", str(store_path), "experiment", "run", str(spec_file), "--dry-run"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dry_run"] and out["calls"] == 4 and out["cost"].startswith("$") and not openai_env.requests
    with pytest.raises(SystemExit) as refused:
        main(["--db", str(store_path), "experiment", "run", str(spec_file), "--budget", "nan"])
    assert refused.value.code == 2 and '"field": "--budget"' in capsys.readouterr().err


def test_the_budget_counts_cached_replies_at_zero(openai_env, store_path: Path) -> None:
    """A reply served from the reply cache costs nothing: a rerun from the cache under a budget smaller than
    one cell's list price runs to the end, sends nothing, spends $0 and says what the cache saved."""
    spec = toy_spec(env={"horizons": [3]}, seeds=list(range(4)), agents=[LLM, {"name": "low", "S": 10}])
    openai_env.script([{"text": "12", "usage": (100, 10)} for _ in range(12)])  # 0.0009 USD per LLM cell
    store = Store(store_path)
    assert run_experiment(spec, store, engine=LocalEngine(1), progress=False, cache=True).status is ExperimentStatus.DONE
    sent = len(openai_env.requests)  # at most 12 (a request repeated in another cell is a cache hit already)
    again = replace(spec, name="the same, from the cache")
    rerun = run_experiment(again, store, engine=LocalEngine(1), progress=False, cache=True, budget_usd=0.0005, prices=PRICES)
    assert rerun.status is ExperimentStatus.DONE and not rerun.budget_reached and rerun.done == 8
    assert rerun.spent_usd == 0.0 and rerun.cached_usd == pytest.approx(4 * 0.0009)
    assert len(openai_env.requests) == sent, "no request was sent"
