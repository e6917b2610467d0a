"""The four RetailBench LLM frameworks end to end: the real SDKs against the fake server, a 3-day run on the
easy preset with scripted replies (valid calls, a malformed call, replies without a tool call, the per-day cap)."""

from __future__ import annotations

import json

import pytest

from core.config import Settings
from core.errors import SpecError
from core.llm import HistoryPolicy, make_chat_model
from core.retail.frameworks import FRAMEWORKS, make_framework_agent
from core.rollout import rollout
from solvers.retail.env import RetailBenchEnv

DAY_CAP = 5


def call(name, **arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def execution_days(skus: list[str]) -> list[list[dict]]:
    """Replies for the three days' action requests (after any framework call)."""
    day1 = [
        {"text": "Check funds first.", **call("view_funds_and_date")},
        {"tool_calls": [{"name": "place_order", "arguments": '{"items": [{"sku_id": '}]},  # broken JSON
        call("set_shelf_skus", sku_ids=skus[:2]),
        call("place_order", items=[{"sku_id": skus[0], "quantity": 30}], supplier_id="supplier_1"),
        {"text": "I think that is all for today."},  # no tool call -> nudged
        call("end_today"),
    ]
    day2 = [{"text": "Nothing to do."}, {"text": "Still nothing."}, {"text": "No."}]  # -> forced end_today
    day3 = [
        call("view_inventory"),
        call("add_note", content="order more of the first SKU"),
        call("view_notes"),
        call("view_shelf_status"),
        call("view_funds_and_date"),  # the 5th call: the cap closes the day
    ]
    return [day1, day2, day3]


def script_for(framework: str, skus: list[str]) -> list[dict]:
    days = execution_days(skus)
    out: list[dict] = []
    for d, replies in enumerate(days, start=1):
        if framework == "reflection" and d > 1:
            out.append({"text": f"Reflection after day {d - 1}: keep the shelf small."})
        if framework == "plan_and_act":
            out.append({"text": f"1. check stock 2. order day {d}"})
        if framework == "evolving_strategy":
            if d == 1:
                out += [
                    call(
                        "set_macro_strategy",
                        macro_strategy=["Sell few products well.", "Avoid poor suppliers."],
                    ),
                    call("place_order", items=[{"sku_id": skus[0], "quantity": 1}], supplier_id="supplier_1"),
                    call(
                        "set_execute_strategy",
                        execute_strategy={"focus_skus": skus[:2], "skus_to_reorder": skus[:1]},
                    ),
                    call("end_strategy_phase"),
                ]
            elif d == 2:
                out += [
                    call("set_execute_strategy", execute_strategy={"focus_skus": skus[1:3]}),
                    call("end_strategy_phase"),
                ]
            else:
                out += [call("end_strategy_phase")]
        out += replies
    return out


@pytest.fixture(params=["anthropic", "openai"])
def provider(request):
    return request.param


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_framework_runs_three_days(framework, provider, fake_llm):
    env = RetailBenchEnv("easy", max_days=3)
    welcome, _ = env.reset(seed=0)
    skus = [p["sku_id"] for p in welcome["products"]]
    fake_llm.script(script_for(framework, skus))
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    model = make_chat_model(Settings(provider=provider, model="m", base_url=url, api_key="k", max_retries=0))
    agent = make_framework_agent(framework, model, preset="easy", day_cap=DAY_CAP,
                                 history=HistoryPolicy(keep_last_turns=4))  # fmt: skip
    result = rollout(env, agent, seed=0)
    assert result.error is None, result.error
    assert env.days_closed == 3 and len(fake_llm.queue) == 0
    calls = [c["tool"] for c in env.tools.calls]
    assert calls.count("end_today") == 3
    assert "place_order" in calls and "set_shelf_skus" in calls
    assert env.sim.shelf.sum() == 2
    assert [d.forced_end for d in agent.days] == ["", "no_tool_call", "cap"]
    assert [d.tool_calls for d in agent.days] == [4, 1, 6]
    tokens = agent.tokens_per_day
    assert len(tokens) == 3 and all(t > 0 for t in tokens)
    assert sum(tokens) == agent.usage.input_tokens + agent.usage.output_tokens
    # the order's hidden supplier quality never reached the model (the env keeps it for evaluation only)
    assert not any("quality_score" in json.dumps(r["body"]) for r in fake_llm.requests)
    # the malformed call came back to the model as an error, and the cap closed day 3 without asking the model
    assert any("could not call place_order" in str(r["body"]) for r in fake_llm.requests)
    # the note saved on day 3 is pinned from then on
    assert agent.env_notes and "order more" in next(iter(agent.env_notes.values()))
    # the history policy kept requests bounded: day 3's last request holds at most a day's window
    last = fake_llm.requests[-1]["body"]["messages"]
    assert len(last) <= 4 * 2 + 3
    if framework == "reflection":
        assert agent.reflection.startswith("Reflection after day 2")
        assert "Long-term reflection memory" in agent.days[2].memory
    if framework == "plan_and_act":
        assert agent.plan == "1. check stock 2. order day 3" and "## Plan" in agent.days[0].memory
    if framework == "evolving_strategy":
        log = agent.strategy_log
        assert [s["day"] for s in log] == [1, 2, 3]
        assert log[0]["macro_strategy"] == ["Sell few products well.", "Avoid poor suppliers."]
        assert log[0]["execute_strategy"]["focus_skus"] == skus[:2]
        assert log[1]["execute_strategy"]["focus_skus"] == skus[1:3]
        assert log[1]["execute_strategy"]["skus_to_reorder"] == skus[:1]  # missing fields keep their value
        # the order attempted during the strategy phase never reached the store
        orders = [c for c in env.tools.calls if c["tool"] == "place_order"]
        assert len(orders) == 1


def test_react_with_text_format_tool_calls(fake_llm):
    """A model without native tool calling: calls as <tool_call>{json}</tool_call> or Action: NAME(...)."""
    env = RetailBenchEnv("easy", max_days=2)
    welcome, _ = env.reset(seed=0)
    sku = welcome["products"][0]["sku_id"]
    fake_llm.script(
        [
            {
                "text": f'<think>shelf first</think><tool_call>{{"name": "set_shelf_skus", "arguments": {{"sku_ids": ["{sku}"]}}}}</tool_call>'
            },
            {"text": "Action: end_today()"},
            {"text": "<tool_call>{not json</tool_call>"},  # unreadable -> error result, asked again
            {"text": "Action: end_today()"},
        ]
    )
    model = make_chat_model(
        Settings(provider="openai", model="m", base_url=fake_llm.openai_url, api_key="k", max_retries=0)
    )
    agent = make_framework_agent("react", model, preset="easy", day_cap=DAY_CAP, text_tools=True)
    result = rollout(env, agent, seed=0)
    assert result.error is None and env.days_closed == 2 and len(fake_llm.queue) == 0
    assert "tools" not in fake_llm.requests[0]["body"]
    assert [c["tool"] for c in env.tools.calls] == ["set_shelf_skus", "end_today", "end_today"]
    assert [d.forced_end for d in agent.days] == ["", ""]


def _requests_text(fake_llm, i):
    return json.dumps(fake_llm.requests[i]["body"])


def test_plan_and_act_replans_when_execution_fails(provider, fake_llm):
    """Two failed calls in a row: the planner sees them (with the errors) and revises the plan; the next round
    starts a fresh conversation with the revised plan, and the day goes on."""
    env = RetailBenchEnv("easy", max_days=1)
    welcome, _ = env.reset(seed=0)
    sku = welcome["products"][0]["sku_id"]
    fake_llm.script([
        {"text": "1. Order NOPE. 2. Price NOPE. 3. end_today"},
        call("place_order", items=[{"sku_id": "NOPE", "quantity": 5}], supplier_id="supplier_1"),
        call("modify_sku_price", sku_id="NOPE", new_price=2.0),
        {"text": f"1. View prices of {sku}. 2. end_today"},  # the revised plan
        call("view_sku_prices", sku_ids=[sku]),
        call("end_today"),
    ])  # fmt: skip
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    model = make_chat_model(Settings(provider=provider, model="m", base_url=url, api_key="k", max_retries=0))
    agent = make_framework_agent("plan_and_act", model, preset="easy", day_cap=20)
    result = rollout(env, agent, seed=0)
    assert result.error is None and env.days_closed == 1 and len(fake_llm.queue) == 0
    assert [c["tool"] for c in env.tools.calls] == ["place_order", "modify_sku_price", "view_sku_prices", "end_today"]
    day = agent.days[0]
    assert day.replans == 1 and day.forced_end == ""
    assert agent.plan.startswith("1. View prices") and "Revised plan (round 2: execution failed)" in day.memory
    replan = _requests_text(fake_llm, 3)
    assert "Unknown SKU" in replan and "place_order" in replan and "modify_sku_price" in replan
    after = [m for m in fake_llm.requests[4]["body"]["messages"] if m["role"] != "system"]
    assert len(after) == 1  # the first request of round 2: a fresh conversation and "round 2" in json.dumps(after) and "View prices of" in json.dumps(after)
    tokens = agent.tokens_per_day
    assert tokens[0] == agent.usage.input_tokens + agent.usage.output_tokens  # plan calls counted in the day


def test_plan_and_act_replans_when_a_round_uses_its_budget(fake_llm):
    env = RetailBenchEnv("easy", max_days=1)
    env.reset(seed=0)
    fake_llm.script([
        {"text": "1. look around"},
        call("view_funds_and_date"), call("view_inventory"),  # round 1 used its 2 calls
        {"text": "1. end the day"},
        call("end_today"),
    ])  # fmt: skip
    model = make_chat_model(Settings(provider="openai", model="m", base_url=fake_llm.openai_url, api_key="k",
                                     max_retries=0))  # fmt: skip
    agent = make_framework_agent("plan_and_act", model, preset="easy", day_cap=20, round_cap=2)
    assert rollout(env, agent, seed=0).error is None
    assert agent.days[0].replans == 1 and "round's budget is used up" in agent.days[0].memory
    assert len(fake_llm.queue) == 0 and env.days_closed == 1


def test_plan_and_act_stops_replanning_at_max_rounds(fake_llm):
    env = RetailBenchEnv("easy", max_days=1)
    env.reset(seed=0)
    bad = call("modify_sku_price", sku_id="NOPE", new_price=1.0)
    fake_llm.script([{"text": "plan 1"}, bad, bad, {"text": "plan 2"}, bad, bad, bad, call("end_today")])
    model = make_chat_model(Settings(provider="openai", model="m", base_url=fake_llm.openai_url, api_key="k",
                                     max_retries=0))  # fmt: skip
    agent = make_framework_agent("plan_and_act", model, preset="easy", day_cap=20, max_rounds=2)
    assert rollout(env, agent, seed=0).error is None
    assert agent.days[0].replans == 1 and agent.plan == "plan 2" and len(fake_llm.queue) == 0
    with pytest.raises(SpecError, match="round_cap"):
        make_framework_agent("plan_and_act", model, round_cap=0)
