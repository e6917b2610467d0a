"""LLM decision agents through the real SDKs against the fake LLM server: prompt templates, check_utility as
their tool (good and bad arguments), and the three stopping criteria with the offline T-P-P opposite."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.llm import make_chat_model
from core.schedule.lab.decision_agents import DecisionProfile, Feedback, StopReason, Style
from core.schedule.lab.llm_decision import LLMDecisionAgent, Template, build_prompt
from core.schedule.lab.optimization_agents import TPPAgent
from solvers.schedule.data import sfusd_district
from solvers.schedule.utility import Direction, Utility, sfusd_space
from tests.support.schedule_lab import converse

DISTRICT = sfusd_district()
ORTEGA = Utility("t1", "Ortega (Jose) PK", Direction.EARLIER, 0.252, 0.332, 0.416, 25.0, 11.5, u_star=0.748)
BASE = (2, 2, 2, 0, 1, 0, 0, 1, 1, 2)


def times(assignment):
    return {n: DISTRICT.time_labels[a] for n, a in zip(DISTRICT.names, assignment, strict=True)}


def best_schedule():
    values = ORTEGA.values(sfusd_space())
    return tuple(int(a) for a in sfusd_space().assignments[int(values.argmax())])


def model(provider, fake_llm):
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    return make_chat_model(
        Settings(provider=provider, model="m", base_url=url, api_key="sk-test", max_retries=1)
    )


def test_templates_differ_and_hide_nothing_they_should_not() -> None:
    profile = DecisionProfile(ORTEGA, Style.VAGUE, Feedback.RICH)
    default = build_prompt(profile, Template.DEFAULT)
    assert "0.748" in default and "parent" in default and "__END__" in default
    assert "never give numbers" in default
    assert "answer only ONCE" in build_prompt(profile, Template.AWARE)
    assert "knows nothing about the district" in build_prompt(profile, Template.CNR)
    precise = build_prompt(DecisionProfile(ORTEGA, Style.PRECISE, Feedback.BINARY), Template.DEFAULT)
    assert "concrete targets" in precise and "only Y" in precise


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_satisfied_stop_through_check_utility(provider, fake_llm) -> None:
    fake_llm.script(
        [
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times(BASE)}}]},
            {"text": "Could Ortega start a little earlier? The peak also feels high."},
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times(best_schedule())}}]},
            {"text": "This works for our family. __END__"},
        ]
    )
    profile = DecisionProfile(ORTEGA, Style.VAGUE, Feedback.RICH)
    agent = LLMDecisionAgent(profile, model(provider, fake_llm))
    result = converse(profile, TPPAgent.offline(), decision=agent)
    assert result.stop is StopReason.SATISFIED
    assert result.turns == 2 and result.success and result.score == pytest.approx(1.0)
    assert agent.checks[0]["utility"] == pytest.approx(0.416)


def test_end_marker_bad_arguments_and_turn_limit(fake_llm) -> None:
    profile = DecisionProfile(ORTEGA, Style.PRECISE, Feedback.BINARY)
    bad = dict(times(BASE))
    bad.pop("Galileo HS")
    fake_llm.script(
        [
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": bad}}]},
            {"tool_calls": [{"name": "check_utility", "arguments": '{"start_times": '}]},
            {"text": "I don't think we'll do better. __END__"},
        ]
    )
    agent = LLMDecisionAgent(profile, model("openai", fake_llm))
    result = converse(profile, TPPAgent.offline(), decision=agent)
    assert result.stop is StopReason.ENDED and result.turns == 1
    assert "Galileo HS" in agent.checks[0]["error"]
    assert result.best_value == 0.0 and not result.success

    fake_llm.script([{"text": "Please set Ortega (Jose) PK to 7:50 AM."}] * 2)
    limited = LLMDecisionAgent(profile, model("openai", fake_llm), max_turns=2)
    result = converse(profile, TPPAgent.offline(), decision=limited)
    assert result.stop is StopReason.TURN_LIMIT and result.turns == 2
