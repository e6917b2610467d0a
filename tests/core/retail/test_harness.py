"""The two harnesses of the RetailBench LLM frameworks end to end through the real SDKs and the fake server
(issue 29 item 1): `orca` keeps the day's status, catalogue and framework memory in every request, however long
the day; `paper` runs the original runners' loop (text `<tool_call>` blocks, every call of a turn in order, 50
turns a day, the status message last, history trimmed past a token threshold, five invalid turns close the day,
the multi-line `end_today` report, per-day token files)."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.config import Settings
from core.errors import SpecError
from core.llm import make_chat_model
from core.llm.textcalls import parse_tool_call_batch
from core.llm.types import ToolSpec
from core.retail import experiment
from core.retail.frameworks import FRAMEWORKS, make_framework_agent
from core.retail.paper import Harness
from core.retail.run import run_agent
from core.rollout import rollout
from core.store import Store
from solvers.retail.env import RetailBenchEnv


def native(name, **arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def tc(name, **arguments):
    return f"<tool_call>{json.dumps({'name': name, 'arguments': arguments})}</tool_call>"


def text(*calls: str, say: str = "Let me work.") -> dict:
    return {"text": say + "\n" + "\n".join(calls)}


@pytest.fixture(params=["anthropic", "openai"])
def provider(request):
    return request.param


def model_for(fake_llm, provider):
    url = fake_llm.anthropic_url if provider == "anthropic" else fake_llm.openai_url
    return make_chat_model(Settings(provider=provider, model="m", base_url=url, api_key="k", max_retries=0))


def conversation(request: dict) -> str:
    """A request's messages (without the system prompt) as one string."""
    body = request["body"]
    return json.dumps([m for m in body["messages"] if m.get("role") != "system"])


def env_calls(env) -> list[str]:
    return [c["tool"] for c in env.tools.calls]


# --- orca: the opening message survives the history window ---------------------------------------------------

MEMORY = {"react": None, "reflection": "Long-term reflection memory", "plan_and_act": "## Plan",
          "evolving_strategy": "## Strategy"}  # fmt: skip


def framework_extras(framework: str, day: int) -> list[dict]:
    if framework == "reflection" and day > 1:
        return [{"text": "Reflection: keep the shelf small."}]
    if framework == "plan_and_act":
        return [{"text": f"1. check funds 2. end day {day}"}]
    if framework == "evolving_strategy":
        return [native("set_macro_strategy", macro_strategy=["Sell few products well."]), native("end_strategy_phase")]
    return []


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_orca_keeps_status_catalogue_and_memory_in_every_request_of_a_long_day(framework, provider, fake_llm):
    """Day 2 makes 30 read calls: from the 25th model call on, the 24-turn window drops the day's first turns,
    yet every request still holds the status, the product list and the framework's memory (the audit's defect:
    requests 25-30 held none of them)."""
    env = RetailBenchEnv("easy", max_days=2)
    env.reset(seed=0)
    script = [*framework_extras(framework, 1), native("end_today"), *framework_extras(framework, 2)]
    first_long = len(script)
    script += [native("view_funds_and_date") for _ in range(30)] + [native("end_today")]
    fake_llm.script(script)
    options = {"round_cap": 40} if framework == "plan_and_act" else {}
    agent = make_framework_agent(framework, model_for(fake_llm, provider), preset="easy", day_cap=40, **options)
    result = rollout(env, agent, seed=0)
    assert result.error is None, result.error
    assert env.days_closed == 2 and len(fake_llm.queue) == 0
    long_day = fake_llm.requests[first_long:]
    assert len(long_day) == 31
    late = long_day[25:]
    assert any("not shown to keep the conversation short" in conversation(r) for r in late)  # the window cut
    for request in late:
        seen = conversation(request)
        assert "## Status" in seen and "## Products" in seen
        if MEMORY[framework]:
            assert MEMORY[framework] in seen


def test_orca_runs_only_the_first_action_of_a_batched_reply(fake_llm):
    """What `orca` does with 5 native calls in one reply: the first environment action runs, the other four are
    answered "not executed" and the model is asked again (documented in docs/retailbench.md)."""
    env = RetailBenchEnv("easy", max_days=1)
    welcome, _ = env.reset(seed=0)
    sku = welcome["products"][0]["sku_id"]
    batch = [{"name": "view_funds_and_date", "arguments": {}}, {"name": "set_shelf_skus", "arguments": {"sku_ids": [sku]}},
             {"name": "view_inventory", "arguments": {}}, {"name": "view_shelf_status", "arguments": {}},
             {"name": "view_notes", "arguments": {}}]  # fmt: skip
    fake_llm.script([{"tool_calls": batch}, native("end_today")])
    agent = make_framework_agent("react", model_for(fake_llm, "openai"), preset="easy")
    assert rollout(env, agent, seed=0).error is None
    assert env_calls(env) == ["view_funds_and_date", "end_today"]
    assert conversation(fake_llm.requests[1]).count("not executed: one environment action per reply") == 4


# --- paper ----------------------------------------------------------------------------------------------------


def test_paper_runs_all_five_calls_of_a_turn_in_order(provider, fake_llm):
    env = RetailBenchEnv("easy", max_days=1)
    welcome, _ = env.reset(seed=0)
    sku = welcome["products"][0]["sku_id"]
    five = [tc("view_funds_and_date"), tc("set_shelf_skus", sku_ids=[sku]),
            tc("place_order", items=[{"sku_id": sku, "quantity": 5}], supplier_id="supplier_1"),
            tc("modify_sku_price", sku_id=sku, new_price=3.5), tc("view_inventory")]  # fmt: skip
    fake_llm.script([text(*five, say="<think>plan the day</think>Five things at once."), text(tc("end_today"))])
    agent = make_framework_agent("react", model_for(fake_llm, provider), preset="easy", harness="paper")
    result = rollout(env, agent, seed=0)
    assert result.error is None, result.error
    assert len(fake_llm.queue) == 0 and env.days_closed == 1
    # the runner's two status reads, the five calls in the order written, then end_today
    assert env_calls(env) == ["view_funds_and_date", "view_shelf_status", "view_funds_and_date", "set_shelf_skus",
                              "place_order", "modify_sku_price", "view_inventory", "end_today"]  # fmt: skip
    assert env.sim.price[env.sim.sku_ids.index(sku)] == 3.5
    first, second = (r["body"] for r in fake_llm.requests)
    assert "tools" not in first and "tools" not in second  # text calls, no native tool calling
    system = first["system"] if provider == "anthropic" else first["messages"][0]["content"]
    system = system if isinstance(system, str) else json.dumps(system)
    assert "<tools>" in system and "<tool_call>" in system
    assert "tells you nothing" not in system
    messages = [m for m in second["messages"] if m.get("role") != "system"]
    responses = [m for m in messages if "<tool_response>" in json.dumps(m)]
    assert len(responses) == 5
    assert "Current date" in json.dumps(responses[0]) and "Inventory" in json.dumps(responses[4])
    # the day's status message is the last message of every request
    for body in (first, second):
        last = json.dumps(body["messages"][-1])
        assert "# Day 1 - ReAct Operations" in last and "## Products" in last
    assert agent.days[0].turns == 2 and agent.days[0].tool_calls == 6 and agent.days[0].forced_end == ""


def test_paper_five_invalid_turns_in_a_row_close_the_day(provider, fake_llm):
    """Malformed `<tool_call>` blocks and turns whose every call fails are invalid; a valid turn resets the count;
    the fifth invalid turn in a row closes the day (the model is not asked a sixth time)."""
    env = RetailBenchEnv("easy", max_days=2)
    env.reset(seed=0)
    broken = {"text": '<tool_call>{"name": "view_inventory", "arguments": </tool_call>'}
    failing = text(tc("place_order", items=[{"sku_id": "nope", "quantity": 1}], supplier_id="supplier_1"))
    fake_llm.script([broken, broken, text(tc("view_notes")),  # a valid turn resets the count
                     broken, failing, {"text": "I am thinking."}, broken, failing,  # 5 invalid -> forced
                     text(tc("end_today"))])  # fmt: skip
    agent = make_framework_agent("react", model_for(fake_llm, provider), preset="easy", harness="paper")
    result = rollout(env, agent, seed=0)
    assert result.error is None, result.error
    assert len(fake_llm.queue) == 0 and env.days_closed == 2
    assert [d.forced_end for d in agent.days] == ["invalid_turns", ""]
    assert agent.days[0].turns == 8
    day1 = fake_llm.requests[:8]
    assert "not valid JSON" in conversation(day1[1]) and "No valid tool call detected" in conversation(day1[1])
    assert "Unknown SKU" in conversation(day1[5]) or "nope" in conversation(day1[5])


def test_paper_day_cap_counts_turns_not_tool_calls(fake_llm):
    env = RetailBenchEnv("easy", max_days=1)
    env.reset(seed=0)
    two = text(tc("view_funds_and_date"), tc("view_notes"))
    fake_llm.script([two, two, two])
    agent = make_framework_agent("react", model_for(fake_llm, "openai"), preset="easy", harness="paper", day_cap=3)
    assert rollout(env, agent, seed=0).error is None
    assert len(fake_llm.queue) == 0 and len(fake_llm.requests) == 3
    day = agent.days[0]
    assert day.turns == 3 and day.forced_end == "cap" and day.tool_calls == 7  # 6 calls + the forced end_today


def test_paper_trims_history_only_past_the_token_threshold(fake_llm):
    """Below `max_input_tokens` the whole day is resent; once a request's prompt passed it, the history before the
    third assistant message is dropped (no summary)."""
    env = RetailBenchEnv("easy", max_days=1)
    env.reset(seed=0)
    replies = [{**text(tc("view_notes"), say=f"turn {i}"), "usage": (50, 5)} for i in range(1, 4)]
    replies += [{**text(tc("view_notes"), say="turn 4"), "usage": (5_000, 5)}, text(tc("end_today"), say="turn 5")]
    fake_llm.script(replies)
    agent = make_framework_agent("react", model_for(fake_llm, "anthropic"), preset="easy", harness="paper",
                                 max_input_tokens=1_000)  # fmt: skip
    assert rollout(env, agent, seed=0).error is None and len(fake_llm.queue) == 0
    fourth, fifth = conversation(fake_llm.requests[3]), conversation(fake_llm.requests[4])
    assert all(f"turn {i}" in fourth for i in (1, 2, 3))  # under the threshold: everything
    assert "turn 1" not in fifth and "turn 2" not in fifth and "turn 3" in fifth and "turn 4" in fifth
    assert json.dumps(fake_llm.requests[4]["body"]["messages"][-1]).count("## Products") == 1


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_paper_runs_every_framework_for_two_days(framework, provider, fake_llm):
    env = RetailBenchEnv("easy", max_days=2)
    welcome, _ = env.reset(seed=0)
    sku = welcome["products"][0]["sku_id"]
    script: list[dict] = []
    for day in (1, 2):
        if framework == "reflection" and day == 2:
            script.append({"text": "Reflection: the shelf was right."})
        if framework == "plan_and_act":
            script.append({"text": f"1. shelf 2. end day {day}"})
        if framework == "evolving_strategy":  # strategy tools, the phase switch and an action in one turn
            script.append(text(tc("set_macro_strategy", macro_strategy=["Few products, good suppliers."]),
                               tc("end_strategy_phase"), tc("set_shelf_skus", sku_ids=[sku])))  # fmt: skip
        else:
            script.append(text(tc("set_shelf_skus", sku_ids=[sku])))
        script.append(text(tc("end_today")))
    fake_llm.script(script)
    agent = make_framework_agent(framework, model_for(fake_llm, provider), preset="easy", harness="paper")
    result = rollout(env, agent, seed=0)
    assert result.error is None, result.error
    assert len(fake_llm.queue) == 0 and env.days_closed == 2
    assert env_calls(env).count("set_shelf_skus") == 2
    files = agent.token_files()
    assert list(files) == ["day_1_token_usage.json"]  # day 2 was never reported closed to the agent
    assert files["day_1_token_usage.json"]["current_date"] == "1991-09-08"
    if framework == "reflection":
        reflection_request = conversation(fake_llm.requests[2])
        assert "Current Funds:" in reflection_request and "Money earned yesterday:" in reflection_request
        assert "## Goal" in reflection_request and "a rent of" in reflection_request
        assert "Long-term reflection memory" in json.dumps(fake_llm.requests[3]["body"]["messages"][-1])
    if framework == "plan_and_act":
        assert env_calls(env)[:3] == ["view_funds_and_date", "view_shelf_status", "view_inventory"]
        assert "## Plan" in json.dumps(fake_llm.requests[1]["body"]["messages"][-1])
        assert "## Goal" in conversation(fake_llm.requests[0]) and "units on hand" in conversation(fake_llm.requests[0])
        assert files["day_1_token_usage.json"]["prompt_tokens"] == 3 * 11  # the plan call counts
    if framework == "evolving_strategy":
        assert [s["day"] for s in agent.strategy_log] == [1, 2]
        assert agent.strategy_log[0]["macro_strategy"] == ["Few products, good suppliers."]


def test_paper_token_files_leave_reflection_calls_out(fake_llm):
    """As the original: a day's file counts its execution turns, not the reflection written at its start."""
    env = RetailBenchEnv("easy", max_days=3)
    env.reset(seed=0)
    fake_llm.script([text(tc("end_today")), {"text": "Reflection one.", "usage": (100, 40)}, text(tc("end_today")),
                     {"text": "Reflection two.", "usage": (100, 40)}, text(tc("end_today"))])  # fmt: skip
    agent = make_framework_agent("reflection", model_for(fake_llm, "openai"), preset="easy", harness="paper")
    assert rollout(env, agent, seed=0).error is None and len(fake_llm.queue) == 0
    files = agent.token_files()
    assert sorted(files) == ["day_1_token_usage.json", "day_2_token_usage.json"]
    day2 = files["day_2_token_usage.json"]
    assert (day2["prompt_tokens"], day2["completion_tokens"], day2["total_tokens"]) == (11, 7, 18)
    assert (agent.days[1].input_tokens, agent.days[1].output_tokens) == (111, 47)  # the run's own count has both
    assert [f["current_date"] for f in files.values()] == ["1991-09-08", "1991-09-09"]


def test_paper_plan_and_act_replans_when_a_round_uses_its_turns(fake_llm):
    env = RetailBenchEnv("easy", max_days=1)
    env.reset(seed=0)
    fake_llm.script([{"text": "plan 1"}, text(tc("view_notes")), text(tc("view_notes")),
                     {"text": "plan 2"}, text(tc("end_today"))])  # fmt: skip
    agent = make_framework_agent("plan_and_act", model_for(fake_llm, "openai"), preset="easy", harness="paper",
                                 round_cap=2)  # fmt: skip
    assert rollout(env, agent, seed=0).error is None and len(fake_llm.queue) == 0
    assert agent.days[0].replans == 1 and agent.plan == "plan 2"
    # the new round re-read the status (funds, shelf, inventory) and started a fresh conversation
    assert env_calls(env).count("view_inventory") == 2
    assert "view_notes" in conversation(fake_llm.requests[3])  # the re-plan saw the round's calls
    assert "<tool_response>" not in conversation(fake_llm.requests[4])


def test_paper_runs_are_labelled_and_store_token_files(tmp_path, fake_llm):
    fake_llm.script([text(tc("view_notes")), text(tc("end_today")), text(tc("end_today"))])
    store = Store(tmp_path / "r.duckdb")
    out = run_agent("react", preset="easy", days=2, seed=0, store=store, model=model_for(fake_llm, "openai"),
                    harness="paper")  # fmt: skip
    assert out["status"] == "done" and out["metrics"]["run_days"] == 2
    run = store.get_run(out["run_id"])
    assert run["config"]["harness"] == "paper" and run["config"]["agent_kind"] == "LLM · paper harness"
    assert "(paper harness)" in run["title"]
    names = set(store.artifacts(out["run_id"])["name"])
    assert {"day_1_token_usage.json", "day_index.json"} <= names
    tokens = json.loads(store.get_artifact(out["run_id"], "day_1_token_usage.json"))
    assert tokens["prompt_tokens"] == 22 and tokens["completion_tokens"] == 14 and tokens["total_tokens"] == 36


def test_cli_and_spec_choose_the_harness(tmp_path, capsys, fake_llm, monkeypatch):
    db = str(tmp_path / "r.duckdb")
    with pytest.raises(SystemExit) as refused:
        main(["--db", db, "retail", "run", "--agent", "react", "--harness", "nope"])
    assert refused.value.code == 2 and json.loads(capsys.readouterr().err)["field"] == "--harness"
    assert main(["--db", db, "retail", "run", "--agent", "oracle", "--harness", "paper", "--days", "1"]) == 2
    assert "offline agent" in capsys.readouterr().err
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    fake_llm.script([text(tc("end_today"))])
    args = ["--db", db, "retail", "run", "--agent", "react", "--preset", "easy", "--days", "1", "--harness", "paper",
            "--provider", "openai", "--model", "m", "--base-url", fake_llm.openai_url, "--llm-retries", "0"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert Store(db).get_run(out["run_id"])["config"]["harness"] == "paper"
    # experiment specs: `harness = "paper"` in an LLM agent's table
    experiment.make_env({"preset": "easy", "days": 1})
    settings = Settings(provider="openai", model="m", base_url=fake_llm.openai_url, api_key="k")
    spec = {"name": "p", "kind": "llm", "framework": "reflection", "harness": "paper"}
    assert experiment.make_agent(spec, {"preset": "easy", "days": 1}, settings).harness is Harness.PAPER
    spec["harness"] = None
    assert experiment.make_agent(spec, {"preset": "easy", "days": 1}, settings).harness is Harness.ORCA
    with pytest.raises(SpecError, match="orca or paper"):
        experiment.make_agent({**spec, "harness": "both"}, {"preset": "easy", "days": 1}, settings)


def test_batch_parser_reads_every_call_in_order():
    tools = [ToolSpec("view", "", {"type": "object", "properties": {"n": {"type": "integer"}}}),
             ToolSpec("end_today", "", {"type": "object", "properties": {}})]  # fmt: skip
    xml = parse_tool_call_batch(
        '<think>' + tc("view", n=0) + "</think>" + tc("view", n=1) + "<tool_call>{oops</tool_call>" + tc("view", n=2)
        + tc("other") + tc("end_today") + tc("end_today"), tools)  # fmt: skip
    assert [(c.name, c.arguments) for c in xml.calls] == [("view", {"n": 1}), ("view", {"n": 2}), ("end_today", {})]
    assert xml.method == "xml" and len(xml.errors) == 2 and "unknown tool 'other'" in xml.errors[1]
    function = parse_tool_call_batch("First view(n=3), then end_today().", tools)
    assert [(c.name, c.arguments) for c in function.calls] == [("view", {"n": 3}), ("end_today", {})]
    bare = parse_tool_call_batch('{"name": "view", "arguments": {"n": 4}} {"function": {"name": "end_today"}}', tools)
    assert bare.method == "json" and [c.name for c in bare.calls] == ["view", "end_today"]
    assert parse_tool_call_batch("Nothing to call.", tools).calls == ()
