"""Treatments B and C and the Table 14 judge end to end through the real SDKs against the fake LLM servers."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.errors import ProviderError
from core.inventory.lab.generator import generate
from core.inventory.lab.judge import LLMJudge
from core.inventory.lab.lab import LabConfig, run_lab
from core.inventory.lab.report import render_markdown
from core.inventory.lab.treatments import TrialOutcome
from core.llm import Usage
from tests.support.lab_trials import protocol_trial

LAB = LabConfig(protocol="mixed", n=1, seed=4, noise=0.0, copilot_paths=30, critic_paths=10, assessment_paths=200)


def _trial(treatment: str, settings: Settings) -> TrialOutcome:
    """The protocol's cell of `treatment` on scenario 0 of mixed seed 4 (a quiet offline imitator)."""
    return protocol_trial(treatment, LAB, settings)[0]


def _openai(fake_llm) -> Settings:
    return Settings(
        provider="openai",
        model="gpt-test",
        api_key="sk-test",
        base_url=fake_llm.openai_url,
        timeout_s=5,
        max_retries=0,
    )


def _anthropic(fake_llm) -> Settings:
    return Settings(
        provider="anthropic",
        model="claude-test",
        api_key="sk-test",
        base_url=fake_llm.anthropic_url,
        timeout_s=5,
        max_retries=0,
    )


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_treatment_b_stops_on_the_judge(fake_llm, provider: str) -> None:
    settings = _openai(fake_llm) if provider == "openai" else _anthropic(fake_llm)
    scenario = generate(1, seed=4, protocol="mixed")[0]
    replies = [
        {"text": "Thanks! What is your storage capacity?"},
        {"text": "No"},
        {"text": "You should keep more stock when things get busy."},
        {"text": "No."},
        {"text": "I recommend an (s, S) policy: when inventory drops below 14 units, order up to 40 units."},
        {"text": "Yes"},
    ]
    # the consultant's replies report 100 + k input tokens, the judge's 10 + k (k: the request's index)
    fake_llm.script([r | {"usage": ((10 if k % 2 else 100) + k, k + 1)} for k, r in enumerate(replies)])
    out = _trial("B", settings)
    assert out.status == "policy" and out.judge_calls == 3 and out.turns == 3
    assert out.parsed.family == "sS" and out.parsed.params == {"s": 14, "S": 40}
    assert out.policy_text.startswith("I recommend")
    assert str(scenario.problem.max_inventory) in out.transcript[2][1]  # the imitator answered the question
    # the consultant saw Table 12's rule and the judge Table 14's; no hidden truth reached the consultant
    bodies = [r["body"] for r in fake_llm.requests[-6:]]
    consultant = [b for b in bodies if "consultant" in str(b)]
    assert consultant and all(scenario.params_csv() not in str(b) for b in consultant)
    assert "Yes or No" in str(bodies[1])
    # tokens per role (issue 30): exactly what the fake server reported, the judge apart from the consultant
    assert out.tokens("copilot") == Usage(100 + 102 + 104, 1 + 3 + 5)
    assert out.tokens("judge") == Usage(11 + 13 + 15, 2 + 4 + 6)
    assert out.usage == out.tokens("copilot") + out.tokens("judge") and "imitator" not in out.role_tokens
    assert out.summary()["role_tokens"] == {"copilot": [306, 9], "judge": [39, 12]}


def test_treatment_c_gets_the_parameter_file(fake_llm) -> None:
    settings = _openai(fake_llm)
    fake_llm.script(
        [{"text": "Order between 10 and 20 units when low.", "usage": (500, 40)}, {"text": "Yes", "usage": (60, 1)}]
    )
    out = _trial("C", settings)
    assert out.role_tokens == {"copilot": Usage(500, 40), "judge": Usage(60, 1)} and out.usage == Usage(560, 41)
    assert out.status == "not_evaluable" and "range" in out.parsed.note and out.policy is None
    sent = str(fake_llm.requests[-2]["body"])
    assert "extracted_params.csv" in sent and "holding_cost" in sent
    fake_llm.script([{"text": "Consider optimizing inventory."}, {"text": "No"}])
    assert _trial("C", settings).status == "no_policy"


def test_judge_unreadable_and_broken_provider(fake_llm) -> None:
    settings = _openai(fake_llm)
    fake_llm.script([{"text": "Maybe, it depends"}])
    v = LLMJudge(settings).verdict("order 5 units")
    assert not v.is_policy and v.unreadable
    fake_llm.script([{"status": 500}])
    out = _trial("C", settings)
    assert out.status == "error" and out.error
    with pytest.raises(ProviderError):
        LLMJudge(Settings())


def test_lab_with_b_and_c_reports_them(fake_llm) -> None:
    settings = _openai(fake_llm)
    config = LabConfig(
        protocol="mixed",
        n=1,
        seed=4,
        treatments=("B", "C"),
        noise=0.0,
        copilot_paths=30,
        critic_paths=10,
        assessment_paths=200,
    )
    fake_llm.script(
        [
            {"text": "When inventory drops below 10, order up to 30."},
            {"text": "Yes"},
            {"text": "(s, S) = (12, 35)"},
            {"text": "Yes"},
        ]
    )
    result = run_lab(config, settings)
    assert result.not_run == {}
    costs = result.records[0].assessment.costs
    assert {"B", "C", "reference"} <= set(costs)
    md = render_markdown(result)
    assert "C · LLM alone, ground-truth parameters (Table 13) vs B · LLM alone" in md
    assert "(s,S) s=10, S=30" in md and "(s,S) s=12, S=35" in md


def test_llm_imitator_and_llm_context(fake_llm) -> None:
    from core.errors import SpecError
    from core.inventory.lab.generator import llm_context
    from core.inventory.lab.imitator import LLMImitator

    settings = _openai(fake_llm)
    scenario = generate(1, seed=4, protocol="mixed")[0]
    fake_llm.script([{"text": "Hmm, maybe 40 units? Our back room isn't big."}])
    imitator = LLMImitator(scenario, settings)
    assert not any(ch.isdigit() for ch in imitator.opening())
    reply = imitator.reply("What is your storage capacity?")
    assert reply.text.startswith("Hmm") and reply.asked == ("max_inventory",)
    system = str(fake_llm.requests[-1]["body"])
    assert (
        "reveal a fact only when the consultant asks" in system
        and f"{scenario.problem.max_inventory} units" in system
    )
    with pytest.raises(SpecError):
        LLMImitator(scenario, Settings())

    fake_llm.script([{"text": "A family-run shop that restocks bicycle inner tubes for commuters."}])
    written = llm_context(settings, scenario)
    assert written.context.startswith("A family-run shop") and written.context_source == "llm:gpt-test"
    fake_llm.script([{"text": "A shop selling 40 tubes a day."}])
    assert llm_context(settings, scenario).context == scenario.context  # digits would leak the truth
    with pytest.raises(ProviderError):
        llm_context(Settings(), scenario)


def test_paper_families_switch() -> None:
    from core.inventory.lab.treatments import CachedOptimizer

    problem = generate(1, seed=4, protocol="mixed")[0].problem
    full = CachedOptimizer("full")(problem, 30, 0, False, None, use_dp=True)
    paper = CachedOptimizer("paper")(problem, 30, 0, False, None, use_dp=True)
    assert set(paper.evaluations) == {"sS"} and paper.recommended == "sS" and paper.dp is None
    assert {"sS", "base_stock", "constant"} <= set(full.evaluations)
