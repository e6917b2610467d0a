"""Issue 30: RetailBench records tokens per role. An Evolving-Strategy cell with the role `agent` on one fake
server and the role `judge` on another records each role's tokens (`agent_*`, `judge_*`) exactly as the servers
counted them, `experiment report` prices each at its own model (not the agent's dearer one: no "upper bound"),
the dry-run estimate prices each role's calls at that role's model, and an offline cell records no token field."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.experiments.driver import estimate, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report
from core.experiments.spec import parse_spec
from core.llm.prices import parse_prices
from core.retail import experiment as adapter
from core.store import Store
from tests.support.fake_llm import FakeLLMServer

SPEC = """
name = "retail_role_tokens"
workbench = "retailbench"
seeds = [0]
metric = "final_networth"
[env]
preset = "easy"
days = 2
[[agents]]
name = "evolving"
kind = "llm"
provider = "openai"
model = "dear-m"
framework = "evolving_strategy"
roles = { agent = "openai:agent-m", judge = "anthropic:judge-m" }
"""
PRICES = parse_prices(
    '[openai]\n"agent-m" = { input = 1, output = 2 }\n"dear-m" = { input = 100, output = 200 }\n'
    '[anthropic]\n"judge-m" = { input = 10, output = 20 }\n'
)
AGENT_USAGE, JUDGE_USAGE = (300, 30), (70, 3)


def _strategy(day: int) -> dict:
    """A strategy-phase reply: set a macro strategy that differs from the other day's, then end the phase."""
    principle = ["Keep staples in stock."] if day == 1 else ["Cut prices on slow movers."]
    calls = [{"name": "set_macro_strategy", "arguments": {"macro_strategy": principle}},
             {"name": "end_strategy_phase", "arguments": {}}]  # fmt: skip
    return {"tool_calls": calls, "usage": AGENT_USAGE}


END_DAY = {"tool_calls": [{"name": "end_today", "arguments": {}}], "usage": AGENT_USAGE}


@pytest.fixture
def second_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer()
    yield server
    server.close()


def test_the_agent_and_the_judge_on_two_models_record_and_price_their_own_tokens(
    fake_llm, second_server: FakeLLMServer, monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", second_server.anthropic_url)
    fake_llm.script([_strategy(1), END_DAY, _strategy(2), END_DAY])
    second_server.script([{"text": "0.5", "usage": JUDGE_USAGE}])
    spec = parse_spec(SPEC)
    db = tmp_path / "r.duckdb"
    summary = run_experiment(spec, Store(db), engine=LocalEngine(1), progress=False)
    assert summary.done == 1, summary
    agent_calls, judge_calls = len(fake_llm.requests), len(second_server.requests)
    assert agent_calls == 4 and judge_calls == 1  # the two days' strategy and execution; one pair of days judged
    assert {r["body"]["model"] for r in fake_llm.requests} == {"agent-m"}
    assert second_server.requests[0]["body"]["model"] == "judge-m"
    report = build_report(Store(db), spec.experiment_id, prices=PRICES)
    metrics = report.cells.iloc[0]
    # each role's tokens are exactly what its server reported
    assert (metrics["agent_input_tokens"], metrics["agent_output_tokens"]) == (4 * 300, 4 * 30)
    assert (metrics["judge_input_tokens"], metrics["judge_output_tokens"]) == (70, 3)
    row = report.cell_costs.iloc[0]
    assert (row["input_tokens"], row["output_tokens"]) == (1200 + 70, 120 + 3)
    assert row["agent_role_tokens"] == "agent: 1200 in / 120 out" and row["role_tokens"] == "judge: 70 in / 3 out"
    # the agent's at agent-m (1, 2), the judge's at judge-m (10, 20); not the agent's own dear-m
    expected = (1200 * 1 + 120 * 2) / 1e6 + (70 * 10 + 3 * 20) / 1e6
    assert row["cost_usd"] == pytest.approx(expected) and row["price"] == "listed"
    costs = report.costs.set_index("agent")
    assert costs.at["evolving", "price"] == "listed" and costs.at["evolving", "cost_usd"] == pytest.approx(expected)


def test_the_dry_run_prices_the_agents_calls_at_the_agent_roles_model(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    spec = parse_spec(SPEC)
    guess = estimate(spec, Store(tmp_path / "r.duckdb"), PRICES)
    agent = spec.agent("evolving")
    played = {**agent.as_dict(), "roles": {r: m.as_dict() for r, m in agent.roles.items()}}
    cell = adapter.llm_calls(played, {"preset": "easy", "days": 2}, None)
    assert set(cell.roles) == {"agent", "judge"} and sum(c for c, _ in cell.roles.values()) == cell.calls
    (a_calls, a_in), (j_calls, j_in) = cell.roles["agent"], cell.roles["judge"]
    out = cell.output_tokens_per_call
    expected = (a_in * 1 + a_calls * out * 2) / 1e6 + (j_in * 10 + j_calls * out * 20) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, abs=1e-6)


def test_an_offline_cell_records_no_token_fields(tmp_path) -> None:
    spec = parse_spec(SPEC.split("[[agents]]")[0] + '[[agents]]\nname = "oracle"\nkind = "offline"\npolicy = "oracle"\n')
    db = tmp_path / "r.duckdb"
    assert run_experiment(spec, Store(db), engine=LocalEngine(1), progress=False).done == 1
    cells = build_report(Store(db), spec.experiment_id, prices=PRICES).cells
    assert not [c for c in cells.columns if c.endswith(("_input_tokens", "_output_tokens"))]
    assert adapter.agent_tokens(None) == {}
