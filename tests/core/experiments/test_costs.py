"""Tokens and dollars in experiment reports: per cell, per agent and per experiment, from the runs' recorded
tokens and the price table; a model missing from the table is "price unknown", never $0."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.experiments.driver import run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report, to_markdown
from core.llm.prices import parse_prices
from core.store import Store
from tests.core.experiments.conftest import toy_spec

PRICES = parse_prices('[openai]\n"fake-model" = { input = 2.0, output = 10.0 }\n')


@pytest.fixture
def report_store(fake_llm, monkeypatch, store_path: Path) -> tuple[Store, str]:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"text": "12", "usage": (100, 10)} for _ in range(6)])
    spec = toy_spec(
        env={"horizons": [3]},
        seeds=[0, 1],
        agents=[{"name": "gpt", "kind": "llm", "provider": "openai", "model": "fake-model"}, {"name": "low", "S": 10}],
        baseline="low",
    )
    store = Store(store_path)
    run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert len(fake_llm.requests) == 6
    return store, spec.experiment_id


def test_tokens_and_cost_per_cell_agent_and_experiment(report_store) -> None:
    store, exp_id = report_store
    report = build_report(store, exp_id, prices=PRICES)
    llm = report.cell_costs[report.cell_costs["agent"] == "gpt"]
    assert llm["input_tokens"].tolist() == [300, 300] and llm["output_tokens"].tolist() == [30, 30]
    assert llm["cost_usd"].tolist() == pytest.approx([0.0009, 0.0009])
    costs = report.costs.set_index("agent")
    assert costs.at["gpt", "cost_usd"] == pytest.approx(0.0018) and costs.at["gpt", "price"] == "listed"
    assert costs.at["low", "cost_usd"] == 0.0 and costs.at["low", "price"] == "offline"
    assert report.total_cost == pytest.approx(0.0018)
    assert (report.total_tokens.input_tokens, report.total_tokens.output_tokens) == (600, 60)
    text = to_markdown(report)
    assert "## Tokens and cost" in text and "600 input and 60 output tokens, $0.0018" in text
    assert set(report.tables()) >= {"costs", "cell_costs"}


def test_a_model_without_a_price_is_unknown_not_free(report_store) -> None:
    store, exp_id = report_store
    report = build_report(store, exp_id, prices=parse_prices('[openai]\n"other" = { input = 1, output = 1 }\n'))
    costs = report.costs.set_index("agent")
    assert costs.at["gpt", "price"] == "price unknown" and costs.at["gpt", "cost_usd"] != 0.0
    assert report.total_cost is None
    assert "output tokens, price unknown at list price" in to_markdown(report)


def test_the_estimate_sums_upper_bounds_and_says_the_assumption() -> None:
    """Issue 30: an estimate whose calls rest on an assumed behaviour names it in the agent's note and sums the
    adapter's upper bounds (`calls_upper_bound`); one that claims no bound makes the total bound unknown; a
    `DryRunModel` counts what a request would send (system, messages, tool schemas) and answers the assumed reply."""
    from types import SimpleNamespace

    from core.experiments.costs import (
        CallEstimate,
        DryRunModel,
        assumed_reply,
        estimate_cells,
        estimate_tokens,
    )
    from core.llm.types import Message, ToolCall, ToolSpec

    spec = toy_spec([{"name": n, "kind": "llm", "provider": "openai", "model": "m"} for n in ("a", "b")])
    guesses = {"a": CallEstimate(3, 300, 10, max_calls=9, assumption="one request a turn"),
               "b": CallEstimate(2, 200, 10, assumption="a floor")}  # fmt: skip
    adapter = SimpleNamespace(llm_calls=lambda agent, config, max_steps: guesses[agent["name"]])
    cells = [SimpleNamespace(agent=n, instance="i") for n in ("a", "a", "b")]
    prices = parse_prices('[openai]\n"m" = { input = 1, output = 2 }\n')
    out = estimate_cells(spec, adapter, cells, {"i": {}}, prices)
    rows = {r["agent"]: r for r in out["agents"]}
    assert (rows["a"]["calls"], rows["a"]["calls_upper_bound"]) == (6, 18) and rows["b"]["calls_upper_bound"] is None
    assert "calls assumed: one request a turn" in rows["a"]["note"] and out["calls"] == 8
    assert out["calls_upper_bound"] is None
    reply = assumed_reply("No.", 5)
    assert len(reply) <= 20 and reply.startswith("No.")
    model = DryRunModel(reply, tool_calls=(ToolCall("c", "end_today", {}),))
    tool = ToolSpec("end_today", "End the day.", {"type": "object", "properties": {}})
    answer = model.complete("s" * 40, [Message("user", "u" * 80)], [tool])
    assert answer.text == reply and [c.name for c in answer.tool_calls] == ["end_today"]
    assert model.calls == 1 and model.input_tokens == 10 + 20 + estimate_tokens(
        '{"name": "end_today", "description": "End the day.", "parameters": {"type": "object", "properties": {}}}'
    )
