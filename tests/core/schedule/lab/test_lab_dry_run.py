"""Issue 30: the School Scheduling lab's dry-run estimate for LLM optimization agents (T-P-P in paper mode, C-P-P,
C-P-R, C-N-R) gives the exact number of model calls a scripted fake-server run makes when every reply is the
assumed one (no tool call, no schedule, no __END__), their input tokens (messages and tool schemas) within 10 %,
the decision agents' share as the role `decision`, and an upper bound on calls that the run stays under."""

from __future__ import annotations

import json

from core.experiments.costs import estimate_tokens
from core.experiments.driver import estimate, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.spec import parse_spec
from core.llm.prices import parse_prices
from core.schedule.lab.estimate import OPTIMIZER_REPLY
from core.store import Store

SPEC = """
name = "lab_llm_optimizers"
workbench = "school_scheduling"
metric = "score"
[env]
utilities = ["u001"]
styles = ["precise"]
feedbacks = ["rich"]
max_turns = 3
decision = {kind = "llm", provider = "openai", model = "decider-1"}
"""
AGENTS = [
    ("tpp_paper", "T-P-P", "conversation", 'paper = true\n'),
    ("cpp", "C-P-P", "conversation", ""),
    ("cnr", "C-N-R", "conversation", ""),
    ("cpr_one_shot", "C-P-R", "one_shot", ""),
    ("tpp_offline_decision", "T-P-P", "conversation", 'roles = { decision = "offline:rules" }\n'),
]
PRICES = parse_prices('[openai]\n"opt-m" = { input = 1, output = 2 }\n"decider-1" = { input = 10, output = 20 }\n')


def _sent(requests: list[dict]) -> int:
    """Input tokens of what was sent: every message's text and each tool's schema, by the estimate's rule."""
    messages = sum(estimate_tokens(m.get("content") or "") for r in requests for m in r["body"]["messages"])
    tools = sum(estimate_tokens(json.dumps(t["function"])) for r in requests for t in r["body"].get("tools", []))
    return messages + tools


def test_the_dry_run_counts_the_llm_optimization_agents_calls_exactly(monkeypatch, fake_llm, tmp_path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    agents = "".join(
        f'[[agents]]\nname = "{name}"\nkind = "llm"\nprovider = "openai"\nmodel = "opt-m"\ndesign = "{design}"\n'
        f'paradigm = "{paradigm}"\n{extra}'
        for name, design, paradigm, extra in AGENTS
    )
    spec = parse_spec(SPEC + agents)
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, PRICES)
    by_agent = {a["agent"]: a for a in guess["agents"]}
    assert all(a["calls"] for a in guess["agents"]), guess["agents"]
    assert "calls assumed" in by_agent["cpp"]["note"] and guess["cost"].startswith("$")
    # the assumed reply to every request: no tool call, no schedule, no __END__
    fake_llm.script([{"text": OPTIMIZER_REPLY} for _ in range(guess["calls"] + 5)])
    run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert len(fake_llm.requests) == guess["calls"]
    assert guess["calls"] <= guess["calls_upper_bound"]
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
    decided = [r for r in fake_llm.requests if r["body"]["model"] == "decider-1"]
    optimized = [r for r in fake_llm.requests if r["body"]["model"] == "opt-m"]
    assert len(decided) and len(optimized) and len(decided) + len(optimized) == guess["calls"]
    # priced per role: the decision agents' requests at decider-1, the optimization agents' at opt-m
    role_in, rest_in = _sent(decided), _sent(optimized)
    out = 200
    expected = (rest_in * 1 + len(optimized) * out * 2 + role_in * 10 + len(decided) * out * 20) / 1e6
    assert abs(guess["cost_usd"] - expected) <= 0.1 * expected, (guess["cost_usd"], expected)


def test_the_dry_run_counts_the_decision_agents_calls_in_the_one_shot_paradigms(monkeypatch, fake_llm, tmp_path) -> None:
    """The offline T-P-P facing LLM decision agents under one-shot, optimization-aware one-shot and default: the
    decision agents' requests, exact, tokens within 10 % (the default paradigm: one check of the opening)."""
    from core.schedule.lab.estimate import DECISION_REPLY

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    agents = "".join(
        f'[[agents]]\nname = "tpp_{p}"\nkind = "offline"\ndesign = "T-P-P"\nparadigm = "{p}"\n'
        for p in ("one_shot", "aware_one_shot", "default")
    )
    spec = parse_spec(SPEC + agents)
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, PRICES)
    by_agent = {a["agent"]: a["calls"] for a in guess["agents"]}
    assert by_agent == {"tpp_one_shot": 2, "tpp_aware_one_shot": 2, "tpp_default": 1}
    fake_llm.script([{"text": DECISION_REPLY} for _ in range(guess["calls"] + 3)])
    run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert len(fake_llm.requests) == guess["calls"] == 5
    assert {r["body"]["model"] for r in fake_llm.requests} == {"decider-1"}
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
