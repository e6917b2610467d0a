"""The LLM extraction agent: Table 8 JSON protocol, validation, retries with the error fed back."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from core.errors import SpecError
from core.inventory.copilot.extraction_llm import SYSTEM_PROMPT, LLMExtractionAgent, parse_reply
from core.inventory.table import ParameterTable
from core.llm import Message, OpenAIChatModel, Reply, ToolSpec

FULL = {
    "time_horizon": {"value": "90", "unit": "days", "status": "defined"},
    "demand_type": {"value": "random", "unit": "N/A", "status": "defined"},
    "demand_distribution": {"value": "Poisson(λ = 6)", "unit": "N/A", "status": "defined"},
    "perishability": {"value": "false", "unit": "N/A", "status": "defined"},
    "state_transition_model": {"value": "lost sale", "unit": "N/A", "status": "defined"},
    "holding_cost": {"value": "0.5", "unit": "USD/unit/day", "status": "defined"},
    "penalty_cost": {"value": "4", "unit": "USD/unit", "status": "defined"},
    "setup_cost": {"value": "3", "unit": "USD/order", "status": "defined"},
    "lead_time": {"value": "4", "unit": "days", "status": "defined"},
    "max_inventory": {"value": "80", "unit": "units", "status": "defined"},
    "max_order": {"value": "30", "unit": "units", "status": "defined"},
    "risk_tolerance": {"value": "2", "unit": "N/A", "status": "defined"},
}


def reply(table: dict, action: str, question: str = "") -> str:
    return json.dumps({"reasoning": "r", "updated_table": table, "action": action, "next_question": question})


class Scripted:
    """A ChatModel double answering scripted texts and recording what it was sent."""

    name = "scripted"

    def __init__(self, texts: list[str]) -> None:
        self.texts = list(texts)
        self.calls: list[tuple[str, list[Message]]] = []

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        self.calls.append((system, list(messages)))
        return Reply(self.texts.pop(0))


def test_system_prompt_is_table_8() -> None:
    assert "rigorous intelligent data assistant" in SYSTEM_PROMPT
    assert "ASK CLARIFICATION" in SYSTEM_PROMPT and "risk-averse" in SYSTEM_PROMPT


def test_valid_reply_updates_table_canonically() -> None:
    model = Scripted(
        [
            reply(
                {"lead_time": {"value": "4", "unit": "days", "status": "defined"}},
                "ASK NEXT QUESTION",
                "Horizon?",
            )
        ]
    )
    agent = LLMExtractionAgent(model)
    turn = agent.respond("Deliveries take four days.")
    assert turn.action == "ASK NEXT QUESTION" and turn.assistant == "Horizon?"
    assert turn.table["lead_time"] == {"value": "4", "unit": "days", "status": "defined"}
    assert "Deliveries take four days." in model.calls[0][1][0].content


def test_terminate_with_full_table_canonicalises_values() -> None:
    agent = LLMExtractionAgent(Scripted([f"```json\n{reply(FULL, 'TERMINATE')}\n```"]))
    turn = agent.respond("everything")
    assert turn.action == "TERMINATE"
    assert turn.table["demand_distribution"]["value"] == "poisson(6)"
    assert turn.table["state_transition_model"]["value"] == "lost_sale"
    assert "poisson(6)" in agent.extracted_params_csv()


def test_broken_json_then_valid_is_retried_with_error() -> None:
    good = reply(
        {"time_horizon": {"value": "90", "unit": "days", "status": "defined"}}, "ASK NEXT QUESTION", "Demand?"
    )
    model = Scripted(['{"reasoning": "x", "updated_table": {', good])
    turn = LLMExtractionAgent(model).respond("90 days")
    assert turn.table["time_horizon"]["value"] == "90"
    assert len(model.calls) == 2
    assert "rejected" in model.calls[1][1][-1].content and "JSON" in model.calls[1][1][-1].content


def test_invalid_values_rejected_and_table_unchanged() -> None:
    bad = reply(
        {"lead_time": {"value": "-3", "unit": "days", "status": "defined"}}, "ASK NEXT QUESTION", "Next?"
    )
    over = reply(
        {
            "max_inventory": {"value": "50", "unit": "units", "status": "defined"},
            "max_order": {"value": "-80", "unit": "units", "status": "defined"},
        },
        "ASK NEXT QUESTION",
        "Next?",
    )
    model = Scripted([bad, over, reply({}, "TERMINATE")])
    agent = LLMExtractionAgent(model, max_retries=2)
    turn = agent.respond("lead time minus three")
    assert turn.table["lead_time"]["value"] is None and turn.table["max_order"]["value"] is None
    assert turn.action == "ASK NEXT QUESTION" and turn.assistant.startswith("Sorry")
    assert len(agent.rejections) == 3
    assert (
        "negative" in agent.rejections[0]
        and "max_order" in agent.rejections[1]
        and "TERMINATE" in agent.rejections[2]
    )


def test_clarification_opens_conflict_and_unknown_key_rejected() -> None:
    table = ParameterTable()
    table.set("time_horizon", "30", "days")
    with pytest.raises(SpecError, match="colour"):
        parse_reply(reply({"colour": {"value": "red", "status": "defined"}}, "ASK NEXT QUESTION", "q"), table)
    agent = LLMExtractionAgent(Scripted([reply({}, "ASK CLARIFICATION", "30 or 90 days?")]), table=table)
    turn = agent.respond("we plan for 90 days")
    assert turn.action == "ASK CLARIFICATION" and turn.conflicts and table.value("time_horizon") == "30"


def test_through_fake_openai_server(fake_llm) -> None:  # type: ignore[no-untyped-def]
    fake_llm.script(
        [
            {"text": "not json at all"},
            {
                "text": reply(
                    {"setup_cost": {"value": "3", "unit": "USD/order", "status": "defined"}},
                    "ASK NEXT QUESTION",
                    "Lead time?",
                )
            },
        ]
    )
    model = OpenAIChatModel("gpt-test", "sk-test", fake_llm.openai_url, timeout_s=5, max_retries=0)
    turn = LLMExtractionAgent(model).respond("$3 per order")
    assert turn.table["setup_cost"]["value"] == "3" and turn.assistant == "Lead time?"
    assert len(fake_llm.requests) == 2
    assert "rigorous intelligent data assistant" in json.dumps(fake_llm.requests[0]["body"])


def _one(key: str, value: str, unit: str) -> dict:
    return {key: {"value": value, "unit": unit, "status": "defined"}}


def test_weekly_holding_unit_converted_and_fractional_risk_rejected() -> None:
    week = reply(_one("holding_cost", "0.7", "USD/unit/week"), "ASK NEXT QUESTION", "Penalty?")
    turn = LLMExtractionAgent(Scripted([week])).respond("holding is 70 cents a unit per week")
    assert turn.table["holding_cost"] == {"value": "0.1", "unit": "USD/unit/day", "status": "defined"}
    risky = reply(_one("risk_tolerance", "7.5", "N/A"), "ASK NEXT QUESTION", "Next?")
    agent = LLMExtractionAgent(Scripted([risky] * 3), max_retries=2)
    assert agent.respond("7.5").table["risk_tolerance"]["value"] is None
    assert "whole number" in agent.rejections[0]


def test_model_change_without_correction_opens_example_5_conflict() -> None:
    table = ParameterTable()
    table.set("time_horizon", "30", "days")
    changed = reply(_one("time_horizon", "90", "days"), "ASK NEXT QUESTION", "Demand?")
    agent = LLMExtractionAgent(Scripted([changed, reply({}, "ASK NEXT QUESTION", "Demand?")]), table=table)
    turn = agent.respond("we plan for 90 days")
    assert turn.action == "ASK CLARIFICATION" and "(B) change to 90" in turn.assistant
    assert table.value("time_horizon") == "30"
    turn = agent.respond("B")
    assert table.value("time_horizon") == "90" and not table.conflicts and turn.action == "ASK NEXT QUESTION"


def test_model_correction_is_written() -> None:
    table = ParameterTable()
    table.set("time_horizon", "30", "days")
    changed = reply(_one("time_horizon", "90", "days"), "ASK NEXT QUESTION", "Demand?")
    turn = LLMExtractionAgent(Scripted([changed]), table=table).respond("sorry, I meant 90 days")
    assert turn.action == "ASK NEXT QUESTION" and table.value("time_horizon") == "90"


@pytest.mark.parametrize(
    ("model", "unit", "words"),
    [("lost_sale", "USD/unit/day", "one-time penalty"), ("backlog", "USD/unit", "per unit per day")],
)
def test_semantic_penalty_conflicts_on_model_updates(model: str, unit: str, words: str) -> None:
    table = _one("state_transition_model", model, "N/A") | _one("penalty_cost", "2", unit)
    agent = LLMExtractionAgent(Scripted([reply(table, "ASK NEXT QUESTION", "Setup cost?")]))
    turn = agent.respond("customers ... $2 per unit")
    assert turn.action == "ASK CLARIFICATION" and words in turn.assistant
    assert agent.table.conflicts[0].kind in ("lost_sale_daily_penalty", "backlog_unit_penalty")


def test_fake_server_garbage_keeps_the_table_and_the_next_reply_works(fake_llm) -> None:  # type: ignore[no-untyped-def]
    """A tool call instead of JSON, broken JSON and a weekly normal demand (which needs the Example 3 choice)
    are all rejected; after the retries the table is as it was, and the next valid reply is written."""
    table = ParameterTable()
    table.set("time_horizon", "30", "days")
    table.set("lead_time", "2", "days")
    weekly = reply(
        {
            "demand_type": {"value": "random", "unit": "N/A", "status": "defined"},
            "demand_distribution": {"value": "normal(70,7)", "unit": "units/week", "status": "defined"},
        },
        "ASK NEXT QUESTION",
        "Lost sales or backlog?",
    )
    fake_llm.script(
        [
            {"tool_calls": [{"name": "update_table", "arguments": {"lead_time": 5}}]},
            {"text": '{"reasoning": "x", "updated_table": {"lead_time": {"value": "5"'},
            {"text": weekly},
            {"text": reply(_one("lead_time", "3", "days"), "ASK NEXT QUESTION", "Demand?")},
        ]
    )
    model = OpenAIChatModel("gpt-test", "sk-test", fake_llm.openai_url, timeout_s=5, max_retries=0)
    agent = LLMExtractionAgent(model, table=table, max_retries=2)
    turn = agent.respond("about 70 a week give or take 7; actually deliveries take 5 days")
    assert turn.assistant.startswith("Sorry") and turn.action == "ASK NEXT QUESTION"
    assert {k: turn.table[k]["value"] for k in ("time_horizon", "lead_time", "demand_distribution")} == {
        "time_horizon": "30",
        "lead_time": "2",
        "demand_distribution": None,
    }
    assert "normal(10,2.6458)" in agent.rejections[2] and "normal(10,1)" in agent.rejections[2]
    fed_back = fake_llm.requests[2]["body"]["messages"][-1]["content"]
    assert fed_back.startswith("Your reply was rejected:") and "JSON" in fed_back
    again = agent.respond("sorry, I meant 3 days for deliveries")
    assert again.table["lead_time"]["value"] == "3" and again.table["time_horizon"]["value"] == "30"
