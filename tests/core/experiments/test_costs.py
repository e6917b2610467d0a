"""Tokens and dollars in experiment reports: per cell, per agent and per experiment, from the runs' recorded
tokens and the price table; a model missing from the table is "price unknown", never $0."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.experiments.costs import PER_ROLE, UPPER_BOUND, cell_cost
from core.experiments.driver import run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report, to_markdown
from core.experiments.spec import AgentSpec
from core.llm.prices import parse_prices
from core.llm.roles import RoleModel
from core.llm.types import Usage
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


# Per-role pricing of the agent's side (issue 30): three models at hand-checkable prices (USD per million tokens)
ROLE_PRICES = parse_prices(
    '[openai]\n"cheap" = { input = 1, output = 2 }\n"mid" = { input = 3, output = 15 }\n'
    '[anthropic]\n"dear" = { input = 10, output = 50 }\n'
)
SPLIT = {"copilot_input_tokens": 1000.0, "copilot_output_tokens": 200.0,
         "judge_input_tokens": 400.0, "judge_output_tokens": 10.0}  # fmt: skip


def _agent(roles: dict[str, str]) -> AgentSpec:
    spec = toy_spec(agents=[{"name": "x", "kind": "llm", "provider": "openai", "model": "cheap", "roles": roles}])
    return spec.agent("x")


def _models(agent: AgentSpec) -> dict[str, RoleModel]:
    return dict(agent.roles)


def test_two_agent_side_roles_on_two_models_are_each_priced_at_their_own() -> None:
    agent = _agent({"copilot": "openai:mid", "judge": "anthropic:dear"})
    cost = cell_cost(
        agent, Usage(1400, 210), SPLIT, ROLE_PRICES, models=_models(agent), agent_side=("copilot", "judge")
    )
    # copilot 1,000 in / 200 out at mid (3, 15) + judge 400 in / 10 out at dear (10, 50)
    assert cost.cost_usd == pytest.approx((1000 * 3 + 200 * 15) / 1e6 + (400 * 10 + 10 * 50) / 1e6)  # 0.0105
    assert cost.basis == PER_ROLE
    assert cost.agent_roles == {"copilot": Usage(1000, 200), "judge": Usage(400, 10)}
    assert (cost.usage.input_tokens, cost.usage.output_tokens) == (1400, 210)


def test_without_the_split_the_agent_side_is_an_upper_bound_labelled_so() -> None:
    agent = _agent({"copilot": "openai:mid", "judge": "anthropic:dear"})
    cost = cell_cost(agent, Usage(1400, 210), {}, ROLE_PRICES, models=_models(agent), agent_side=("copilot", "judge"))
    assert cost.cost_usd == pytest.approx((1400 * 10 + 210 * 50) / 1e6)  # all at the dearest: 0.0245
    assert cost.basis == UPPER_BOUND and cost.agent_roles == {}
    # tokens the split does not account for (100 input) are priced at the dearest, and the cell says so
    rest = cell_cost(
        agent, Usage(1500, 210), SPLIT, ROLE_PRICES, models=_models(agent), agent_side=("copilot", "judge")
    )
    assert rest.cost_usd == pytest.approx(0.0105 + 100 * 10 / 1e6) and rest.basis == UPPER_BOUND


def test_an_unnamed_role_is_played_by_the_role_its_adapter_names() -> None:
    agent = _agent({"copilot": "openai:mid"})  # the judge and the imitator are not named: the consultant's model
    metrics = {**SPLIT, "imitator_input_tokens": 100.0, "imitator_output_tokens": 5.0}
    cost = cell_cost(
        agent, Usage(1400, 210), metrics, ROLE_PRICES, roles=("imitator",), models=_models(agent),
        agent_side=("copilot", "judge"), defaults={"judge": "copilot", "imitator": "copilot"},
    )  # fmt: skip
    assert cost.cost_usd == pytest.approx((1400 * 3 + 210 * 15 + 100 * 3 + 5 * 15) / 1e6)
    assert cost.basis == "listed" and cost.roles == {"imitator": Usage(100, 5)}
    # without the adapter's default the judge would be the agent's own model (cheap)
    plain = cell_cost(
        agent, Usage(1400, 210), SPLIT, ROLE_PRICES, models=_models(agent), agent_side=("copilot", "judge")
    )
    assert plain.cost_usd == pytest.approx((1000 * 3 + 200 * 15 + 400 * 1 + 10 * 2) / 1e6)
    assert plain.basis == PER_ROLE


def test_a_split_role_without_a_price_makes_the_cell_unknown() -> None:
    agent = _agent({"copilot": "openai:mid", "judge": "openai:unlisted"})
    cost = cell_cost(
        agent, Usage(1400, 210), SPLIT, ROLE_PRICES, models=_models(agent), agent_side=("copilot", "judge")
    )
    assert cost.cost_usd is None


def test_the_estimate_prices_an_agent_side_roles_calls_at_that_roles_model() -> None:
    """Issue 30: a `CallEstimate.roles` part of an agent-side role (a lab's optimizer) is priced at that role's
    model, not at the dearest of the agent's models; calls no role accounts for stay at the dearest."""
    from types import SimpleNamespace

    from core.experiments.costs import CallEstimate, estimate_cells, role_token_metrics, role_usage

    spec = toy_spec(agents=[{"name": "x", "kind": "llm", "provider": "anthropic", "model": "dear",
                             "roles": {"optimizer": "openai:cheap"}}])  # fmt: skip
    cells = [SimpleNamespace(agent="x", instance="i")]

    def priced(guess: CallEstimate) -> float:
        adapter = SimpleNamespace(llm_calls=lambda agent, config, max_steps: guess)
        return estimate_cells(spec, adapter, cells, {"i": {}}, ROLE_PRICES)["cost_usd"]

    split = CallEstimate(3, 3000, 100, roles={"optimizer": (3, 3000)})
    assert priced(split) == pytest.approx((3000 * 1 + 300 * 2) / 1e6)  # all at cheap (1, 2)
    rest = CallEstimate(4, 3500, 100, roles={"optimizer": (3, 3000)})
    assert priced(rest) == pytest.approx((3000 * 1 + 300 * 2) / 1e6 + (500 * 10 + 100 * 50) / 1e6)  # 1 call at dear
    assert priced(CallEstimate(3, 3000, 100)) == pytest.approx((3000 * 10 + 300 * 50) / 1e6)  # no split: the dearest
    # the one shape of a role's recorded tokens, read back by `role_usage`
    assert role_token_metrics("optimizer", Usage(12, 3)) == {"optimizer_input_tokens": 12.0, "optimizer_output_tokens": 3.0}
    assert role_usage(role_token_metrics("agent", Usage(5, 1)), "agent") == Usage(5, 1)
