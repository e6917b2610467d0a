"""`experiment run --dry-run` of an inventory lab spec: the protocol adapter's `llm_calls` gives the exact number
of model calls a scripted fake-server run makes (B to its turn limit with an LLM imitator, C) and their input
tokens within 10 %, with the imitator's calls priced at its own model."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, estimate_tokens
from core.experiments.driver import estimate
from core.inventory.lab.lab import LabConfig, lab_spec, run_lab
from core.llm.prices import parse_prices
from core.llm.roles import RoleModel
from core.store import Store

PRICES = parse_prices('[openai]\n"lab-m" = { input = 1, output = 2 }\n"imit-m" = { input = 10, output = 20 }\n')


def _sent(requests: list[dict]) -> int:
    """Input tokens of what was sent (system prompt included), by the estimate's characters-per-token rule."""
    return sum(estimate_tokens(m["content"] or "") for r in requests for m in r["body"]["messages"])


def test_the_lab_dry_run_counts_the_calls_exactly_and_the_input_tokens_within_10_percent(
    fake_llm, monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    settings = Settings(provider="openai", model="lab-m", api_key="k", base_url=fake_llm.openai_url)
    config = LabConfig(
        protocol="mixed", n=1, seed=4, treatments=("B", "C"), noise=0.0, copilot_paths=30, critic_paths=10,
        assessment_paths=200, max_turns=3,
    )  # fmt: skip
    roles = {"imitator": RoleModel("openai", "imit-m")}
    spec = lab_spec(config, settings, roles=roles)
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, PRICES)
    assert guess["calls"] == 3 * 3 - 1 + 2 and guess["cost"].startswith("$")
    by_agent = {a["agent"]: a for a in guess["agents"]}
    assert by_agent["B"]["calls"] == 8 and by_agent["C"]["calls"] == 2
    # every reply as long as the estimate assumes; the judge never says Yes, so B runs to its turn limit
    reply = "No, " + "x" * (4 * DEFAULT_OUTPUT_TOKENS - 4)
    fake_llm.script([{"text": reply} for _ in range(10)])
    result = run_lab(config, settings, store=store, roles=roles)
    assert [o.status for r in result.records for o in r.outcomes.values()] == ["turn_limit", "no_policy"]
    assert len(fake_llm.requests) == guess["calls"]
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
    imitated = [r for r in fake_llm.requests if r["body"]["model"] == "imit-m"]
    assert len(imitated) == 2  # not asked again after the last turn
    # the imitator's share is priced at imit-m (10/20 per million), the rest at lab-m (1/2)
    role_in = _sent(imitated)
    rest_in = sent - role_in
    expected = (rest_in * 1 + 8 * DEFAULT_OUTPUT_TOKENS * 2 + role_in * 10 + 2 * DEFAULT_OUTPUT_TOKENS * 20) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, rel=0.1)


@pytest.mark.parametrize("manager", ["llm", "offline"])
def test_treatment_a_dry_run_counts_the_copilots_calls_exactly(fake_llm, monkeypatch, tmp_path, manager) -> None:
    """Issue 30: Treatment A (the Copilot as an LLM) — the estimate builds the Copilot's real Table 8 extraction
    requests (and an LLM manager's) and gives the exact calls of a scripted run in which every reply is the
    assumed one (a valid reply asking the next question: the trial runs to its turn limit), input tokens within
    10 %, and an upper bound the run stays under."""
    from core.inventory.lab.estimate import EXTRACTION_REPLY

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    settings = Settings(provider="openai", model="lab-m", api_key="k", base_url=fake_llm.openai_url)
    config = LabConfig(
        protocol="mixed", n=1, seed=4, treatments=("A",), noise=0.0, copilot_paths=30, critic_paths=10,
        assessment_paths=200, max_turns=4,
    )  # fmt: skip
    roles = {"imitator": RoleModel("openai", "imit-m") if manager == "llm" else RoleModel("offline", "rules")}
    spec = lab_spec(config, settings, roles=roles)
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, PRICES)
    llm_manager = manager == "llm"
    assert guess["calls"] == 4 + (3 if llm_manager else 0) and guess["cost"].startswith("$")
    assert guess["calls_upper_bound"] >= guess["calls"] and "calls assumed" in guess["agents"][0]["note"]
    fake_llm.script([{"text": EXTRACTION_REPLY} for _ in range(guess["calls"] + 3)])
    result = run_lab(config, settings, store=store, roles=roles)
    assert [o.status for r in result.records for o in r.outcomes.values()] == ["turn_limit"]
    assert len(fake_llm.requests) == guess["calls"]
    sent = _sent(fake_llm.requests)
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)
    imitated = [r for r in fake_llm.requests if r["body"]["model"] == "imit-m"]
    assert len(imitated) == (3 if llm_manager else 0)
    role_in = _sent(imitated)
    rest_in = sent - role_in
    out = DEFAULT_OUTPUT_TOKENS
    expected = (rest_in * 1 + 4 * out * 2 + role_in * 10 + len(imitated) * out * 20) / 1e6
    assert guess["cost_usd"] == pytest.approx(expected, rel=0.1)
