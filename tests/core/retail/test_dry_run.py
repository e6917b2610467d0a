"""Issue 30: RetailBench's dry-run estimate. The framework agents' requests are built by the real environment
and agents: a scripted fake-server run in which every reply ends the day at once makes exactly the estimated
calls, with input tokens (messages and tool schemas) within 10 %; the judge's requests, one per adjacent pair of
days whose macro strategies differ, match a fake-server judge run on the same strategies."""

from __future__ import annotations

import json
from types import SimpleNamespace

from core.config import Settings
from core.experiments.costs import estimate_tokens
from core.experiments.driver import estimate, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.spec import parse_spec
from core.llm.prices import parse_prices
from core.retail import experiment as adapter
from core.retail.estimate import JUDGE_REPLY, PAPER_REPLY, STRATEGIES, estimate_cell, judge_request_tokens
from core.store import Store

SPEC = """
name = "retail_dry_run"
workbench = "retailbench"
seeds = [0]
metric = "final_networth"
[env]
preset = "easy"
days = 3
"""
AGENTS = [("react-orca", "react", "orca"), ("reflection-paper", "reflection", "paper"),
          ("plan-orca", "plan_and_act", "orca"), ("evolving-orca", "evolving_strategy", "orca")]  # fmt: skip
PRICES = parse_prices('[openai]\n"agent-m" = { input = 1, output = 2 }\n"judge-m" = { input = 10, output = 20 }\n')


def _sent(requests: list[dict]) -> int:
    messages = sum(estimate_tokens(m.get("content") or "") for r in requests for m in r["body"]["messages"])
    calls = sum(
        estimate_tokens(json.dumps({"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"])}))
        for r in requests for m in r["body"]["messages"] for c in m.get("tool_calls") or []
    )  # fmt: skip
    tools = sum(estimate_tokens(json.dumps(t["function"])) for r in requests for t in r["body"].get("tools", []))
    return messages + calls + tools


def test_the_dry_run_counts_the_framework_agents_calls_exactly(monkeypatch, fake_llm, tmp_path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    agents = "".join(
        f'[[agents]]\nname = "{name}"\nkind = "llm"\nprovider = "openai"\nmodel = "agent-m"\nframework = "{fw}"\n'
        f'harness = "{harness}"\n'
        for name, fw, harness in AGENTS
    )
    spec = parse_spec(SPEC + agents + '[[agents]]\nname = "oracle"\nkind = "offline"\npolicy = "oracle"\n')
    store = Store(tmp_path / "r.duckdb")
    guess = estimate(spec, store, PRICES)
    by_agent = {a["agent"]: a for a in guess["agents"]}
    assert by_agent["oracle"]["calls"] == 0 and all(by_agent[name]["calls"] for name, _, _ in AGENTS)
    assert guess["cost"].startswith("$") and "calls assumed" in by_agent["react-orca"]["note"]
    assert guess["calls_upper_bound"] > 10 * guess["calls"]  # every loop at its limit, every day of the horizon
    either = {"text": PAPER_REPLY, "tool_calls": [{"name": "end_today", "arguments": {}}]}
    fake_llm.script([either for _ in range(guess["calls"] + 5)])
    summary = run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert summary.failed == 0
    assert len(fake_llm.requests) == guess["calls"]
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)


def test_the_judges_estimate_matches_a_fake_server_judge_run(fake_llm) -> None:
    days = 5
    log = [
        {"day": d, "macro_strategy": STRATEGIES[d % 2], "execute_strategy": {}} for d in range(1, days + 1)
    ]
    fake_llm.script([{"text": JUDGE_REPLY} for _ in range(days)])
    judge = Settings(provider="openai", model="judge-m", api_key="k", base_url=fake_llm.openai_url)
    out = adapter.judged(SimpleNamespace(strategy_log=log), judge)
    assert len(fake_llm.requests) == days - 1 and out["macro_unscored"] == 0
    sent = _sent(fake_llm.requests)
    assert abs((days - 1) * judge_request_tokens() - sent) <= 0.1 * sent
    # in a cell: the judge's part is the role `judge`, one request per adjacent pair of the days the agent ran
    agent = {"name": "e", "kind": "llm", "provider": "openai", "model": "agent-m", "framework": "evolving_strategy"}
    config = {"preset": "easy", "days": 3}
    alone = estimate_cell(agent, config, None, judge_llm=False)
    judged = estimate_cell(agent, config, None, judge_llm=True)
    assert judged.roles["judge"] == (2, 2 * judge_request_tokens())
    assert (judged.calls, judged.input_tokens) == (alone.calls + 2, alone.input_tokens + 2 * judge_request_tokens())


def test_a_run_that_never_ends_its_days_stays_under_the_upper_bound(monkeypatch, fake_llm, tmp_path) -> None:
    """The bound holds for a model that only ever looks (a view call every reply, so each day runs to its cap)."""
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    agents = "".join(
        f'[[agents]]\nname = "{fw}"\nkind = "llm"\nprovider = "openai"\nmodel = "agent-m"\nframework = "{fw}"\n'
        "day_cap = 3\n"
        for fw in ("react", "plan_and_act")
    )
    spec = parse_spec(SPEC.replace("days = 3", "days = 2") + agents)
    store = Store(tmp_path / "r.duckdb")
    guess = estimate(spec, store, PRICES)
    look = {"text": "", "tool_calls": [{"name": "view_funds_and_date", "arguments": {}}]}
    fake_llm.script([look for _ in range(guess["calls_upper_bound"] + 5)])
    assert run_experiment(spec, store, engine=LocalEngine(1), progress=False).failed == 0
    assert guess["calls"] < len(fake_llm.requests) <= guess["calls_upper_bound"]
