"""The LLM repair agent end to end: real anthropic/openai SDKs against the local fake server, both formats."""

from __future__ import annotations

import json

import pytest

from core.config import Settings
from core.errors import ProviderError
from core.llm.factory import make_chat_model
from core.repair.evaluate import run_problem
from core.repair.llm_agent import LLMRepairAgent, make_llm_agent, system_prompt
from solvers.lp.env import LPRepairEnv
from solvers.lp.errortypes import ErrorType


def _settings(provider: str, fake) -> Settings:
    url = fake.anthropic_url if provider == "anthropic" else fake.openai_url
    return Settings(provider=provider, model="test-model", base_url=url, api_key="sk-test", max_retries=0)


def _texts(request: dict) -> str:
    body = request["body"]
    parts = [str(body.get("system", ""))]
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, list):
            parts += [str(c.get("text", "")) for c in content if isinstance(c, dict)]
        else:
            parts.append(str(content))
    return "\n".join(parts)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_think_format_repairs_a_problem(provider, fake_llm, repair_problems) -> None:
    p = next(p for p in repair_problems if p.error_type is ErrorType.ME9)
    fake_llm.script(
        [
            {
                "text": "<think>Look at the conflict first. Action: SUBMIT()</think>\nAction: GET_IIS()",
                "usage": (900, 20),
            },
            {
                "text": "<think>min_order rows exceed the supply cap.</think>\nAction: DROP_CONSTRAINT(min_order)",
                "usage": (950, 25),
            },
        ]
    )
    agent = LLMRepairAgent(make_chat_model(_settings(provider, fake_llm)), fmt="think")
    row = run_problem(LPRepairEnv([p]), agent, p)
    assert row["rational"] and row["steps"] == 2 and row["reward"] == 150.0
    assert row["tokens"] == 900 + 20 + 950 + 25
    first = _texts(fake_llm.requests[0])
    assert "rationality oracle" in first and "<think>" in first and "## Problem" in first
    assert p.error_type.value not in first


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_json_format_and_an_unparseable_reply_costs_a_step(provider, fake_llm, repair_problems) -> None:
    p = next(p for p in repair_problems if p.error_type is ErrorType.ME4)
    fix = p.gt_actions[0].to_dict()
    reply = {"reasoning": "capacity far below demand", "action": fix["name"], **fix["arguments"]}
    fake_llm.script([{"text": "I would relax the capacity, I think."}, {"text": json.dumps(reply)}])
    agent = LLMRepairAgent(make_chat_model(_settings(provider, fake_llm)), fmt="json")
    row = run_problem(LPRepairEnv([p]), agent, p)
    assert row["steps"] == 2 and row["recovered"]
    assert row["actions"][0]["name"] == "PARSE_ERROR" and agent.parse_errors == 1
    second = _texts(fake_llm.requests[1])
    assert "could not read an action from the reply" in second and "no action found" in second
    assert '"reasoning"' in second  # the JSON format instruction is in the system prompt


def test_system_prompt_formats_and_extended_action() -> None:
    assert "Action: ACTION_NAME(arguments)" in system_prompt("think")
    assert '"action": "ACTION_NAME"' in system_prompt("json")
    assert "UPDATE_COEF" not in system_prompt("think") and "UPDATE_COEF" in system_prompt(
        "think", extended=True
    )


def test_offline_settings_do_not_substitute_a_fake_llm() -> None:
    with pytest.raises(ProviderError):
        make_llm_agent(Settings(provider="offline"))


def test_the_real_track_prompt_names_no_supply_chain() -> None:
    from core.repair.llm_agent import system_prompt

    real = system_prompt("think", real=True)
    assert "fewest changed constraints" in real and "echelon" not in real and "UPDATE_COEF" not in real
    assert "echelon" in system_prompt("think")
