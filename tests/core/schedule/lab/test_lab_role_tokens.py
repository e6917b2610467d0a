"""Issue 30: the School Scheduling lab records tokens per role. An LLM T-P-P with the role `optimizer` on one fake
server facing LLM decision agents (the role `decision`) on another records each role's tokens (`optimizer_*`,
`decision_*`) exactly as the servers counted them, `experiment report` prices each at its own model (not the
agent's dearer one: no "upper bound"), the dry-run estimate prices each role's calls at that role's model, and an
offline optimization agent records no `optimizer_*` field."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.experiments.driver import estimate, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report
from core.experiments.spec import parse_spec
from core.llm.prices import parse_prices
from core.schedule.lab import experiment as adapter
from core.store import Store
from tests.support.fake_llm import FakeLLMServer

SPEC = """
name = "lab_role_tokens"
workbench = "school_scheduling"
metric = "score"
[env]
utilities = ["u001"]
styles = ["precise"]
feedbacks = ["rich"]
max_turns = 4
[[agents]]
name = "tpp_llm"
kind = "llm"
provider = "openai"
model = "dear-m"
design = "T-P-P"
paradigm = "conversation"
roles = { optimizer = "openai:opt-m", decision = "anthropic:decider-m" }
"""
PRICES = parse_prices(
    '[openai]\n"opt-m" = { input = 1, output = 2 }\n"dear-m" = { input = 100, output = 200 }\n'
    '[anthropic]\n"decider-m" = { input = 10, output = 20 }\n'
)


@pytest.fixture
def second_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer()
    yield server
    server.close()


def test_the_optimizer_and_the_decision_agents_on_two_models_record_and_price_their_own_tokens(
    fake_llm, second_server: FakeLLMServer, monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", second_server.anthropic_url)
    # T-P-P opens with the base model (solved offline, no request); the decision agent answers, T-P-P replies,
    # the decision agent ends the conversation
    fake_llm.script([{"text": "I will look into moving the high schools later.", "usage": (300, 30)}])
    second_server.script(
        [{"text": "Could the high schools start later?", "usage": (50, 5)}, {"text": "Fine. __END__", "usage": (40, 4)}]
    )
    spec = parse_spec(SPEC)
    db = tmp_path / "lab.duckdb"
    summary = run_experiment(spec, Store(db), engine=LocalEngine(1), progress=False)
    assert summary.done == 1, summary
    assert [r["body"]["model"] for r in fake_llm.requests] == ["opt-m"]
    assert [r["body"]["model"] for r in second_server.requests] == ["decider-m", "decider-m"]
    report = build_report(Store(db), spec.experiment_id, prices=PRICES)
    metrics = report.cells.iloc[0]
    # each role's tokens are exactly what its server reported
    assert (metrics["optimizer_input_tokens"], metrics["optimizer_output_tokens"]) == (300, 30)
    assert (metrics["decision_input_tokens"], metrics["decision_output_tokens"]) == (90, 9)
    row = report.cell_costs.iloc[0]
    assert (row["input_tokens"], row["output_tokens"]) == (300 + 90, 30 + 9)
    assert row["agent_role_tokens"] == "optimizer: 300 in / 30 out" and row["role_tokens"] == "decision: 90 in / 9 out"
    # the optimizer's at opt-m (1, 2), the decision agents' at decider-m (10, 20); not the agent's own dear-m
    expected = (300 * 1 + 30 * 2) / 1e6 + (90 * 10 + 9 * 20) / 1e6
    assert row["cost_usd"] == pytest.approx(expected) and row["price"] == "listed"
    costs = report.costs.set_index("agent")
    assert costs.at["tpp_llm", "price"] == "listed" and costs.at["tpp_llm", "cost_usd"] == pytest.approx(expected)
    # the run's own tokens are the optimizer's (T-P-P's tokens are counted per step)
    assert Store(db).run_tokens([row["run_id"]]).iloc[0][["input_tokens", "output_tokens"]].tolist() == [300, 30]


def test_the_dry_run_prices_the_optimizers_calls_at_the_optimizer_roles_model(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    spec = parse_spec(SPEC)
    guess = estimate(spec, Store(tmp_path / "lab.duckdb"), PRICES)
    agent = spec.agent("tpp_llm")
    played = {**agent.as_dict(), "roles": {r: m.as_dict() for r, m in agent.roles.items()}}
    (_, config), *_ = adapter.instances(dict(spec.env))
    cell = adapter.llm_calls(played, config, None)
    assert set(cell.roles) == {"optimizer", "decision"} and sum(c for c, _ in cell.roles.values()) == cell.calls
    (o_calls, o_in), (d_calls, d_in) = cell.roles["optimizer"], cell.roles["decision"]
    assert o_calls and d_calls
    out = cell.output_tokens_per_call
    expected = (o_in * 1 + o_calls * out * 2) / 1e6 + (d_in * 10 + d_calls * out * 20) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, abs=1e-6)


def test_an_offline_optimization_agent_records_no_optimizer_tokens(tmp_path) -> None:
    spec = parse_spec(
        SPEC.split("[[agents]]")[0] + '[[agents]]\nname = "tpp"\nkind = "offline"\ndesign = "T-P-P"\n'
    )
    db = tmp_path / "lab.duckdb"
    assert run_experiment(spec, Store(db), engine=LocalEngine(1), progress=False).done == 1
    cells = build_report(Store(db), spec.experiment_id, prices=PRICES).cells
    assert not [c for c in cells.columns if c.startswith("optimizer_")]
    # the environment's decision_* stay as they were: zero for the offline stand-ins
    assert (cells.iloc[0]["decision_input_tokens"], cells.iloc[0]["decision_output_tokens"]) == (0, 0)
