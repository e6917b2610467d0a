"""`LLMToolAgent` end to end: the real anthropic/openai SDKs against the fake server, driving a toy counter
environment through native and text-format tool calls, corrections, nudges, a 200-step history window and a
token budget."""

import json

import pytest

from core.config import Settings
from core.errors import OrcaError, SpecError
from core.llm import (
    HistoryPolicy,
    LoopStop,
    OfflineModel,
    OfflineTurn,
    TextCallFormat,
    make_chat_model,
    tool_spec,
)
from core.llm_agent import AgentStopped, LLMToolAgent, TokenBudgetExhausted


def add(n: int) -> dict:
    """Add n to the counter.

    Args:
        n: how much to add (may be negative)
    """
    return {}


def finish() -> dict:
    """End the episode when the counter equals the target."""
    return {}


ENV_TOOLS = [tool_spec(add), tool_spec(finish)]


class CounterEnv:
    """A counter starting at 0; actions `add(n)` and `finish()`; reward -|counter - target| when finishing.

    Invalid actions are error observations and cost a step, as the rollout contract asks.
    """

    def __init__(self, target: int = 5) -> None:
        self.target = target
        self.value = 0

    def reset(self, seed=None, options=None):
        self.value = 0
        return {"counter": 0, "target": self.target}, {}

    def step(self, action):
        name, args = action.get("name"), action.get("arguments", {})
        if name == "add" and isinstance(args.get("n"), int):
            self.value += args["n"]
            return {"counter": self.value}, 0.0, False, False, {}
        if name == "finish" and not args:
            return {"counter": self.value, "finished": True}, -abs(self.value - self.target), True, False, {}
        return {"error": f"invalid action {action!r}"}, 0.0, False, False, {}


def episode(env, agent, max_steps=300, seed=0):
    """A minimal rollout: reset both, act until the environment terminates."""
    obs, _ = env.reset(seed=seed)
    agent.reset(seed)
    actions, reward = [], 0.0
    for _ in range(max_steps):
        action = agent.act(obs)
        actions.append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    return actions, reward


@pytest.fixture(params=["anthropic", "openai"])
def provider(request):
    return request.param


def chat_model(provider, fake):
    url = fake.anthropic_url if provider == "anthropic" else fake.openai_url
    return make_chat_model(Settings(provider=provider, model="m", base_url=url, api_key="k", max_retries=0))


def call(name, **arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def sent_messages(fake, i):
    return fake.requests[i]["body"]["messages"]


def last_text(provider, fake, i):
    """The text of the last message of request i, whatever its wire format."""
    content = sent_messages(fake, i)[-1]["content"]
    if isinstance(content, list):
        return " ".join(b.get("content") or b.get("text") or "" for b in content)
    return content


def agent_for(provider, fake, **options):
    options.setdefault("system", "Bring the counter to the target, then finish.")
    return LLMToolAgent(chat_model(provider, fake), env_tools=ENV_TOOLS, **options)


def test_native_tool_calls_drive_the_environment(provider, fake_llm):
    fake_llm.script(
        [
            {"text": "Two first.", **call("add", n=2)},
            call("add", n=3),
            {"text": "Done.", **call("finish")},
        ]
    )
    agent = agent_for(provider, fake_llm)
    env = CounterEnv(target=5)
    actions, reward = episode(env, agent)
    assert actions == [
        {"name": "add", "arguments": {"n": 2}},
        {"name": "add", "arguments": {"n": 3}},
        {"name": "finish", "arguments": {}},
    ]
    assert reward == 0 and env.value == 5 and agent.last_note == "Done."
    assert json.loads(sent_messages(fake_llm, 0)[-1]["content"]) == {"counter": 0, "target": 5}
    assert json.loads(last_text(provider, fake_llm, 1)) == {"counter": 2}  # the observation answers the call
    body = fake_llm.requests[2]["body"]
    tools = [t["name"] if provider == "anthropic" else t["function"]["name"] for t in body["tools"]]
    assert tools == ["add", "finish"]
    if provider == "openai":
        assert body["messages"][-1]["role"] == "tool" and body["messages"][-1]["tool_call_id"] == "call_2_0"
    assert (agent.usage.input_tokens, agent.usage.output_tokens) == (33, 21)


@pytest.mark.parametrize("fmt", list(TextCallFormat))
def test_text_format_calls_drive_the_environment(provider, fake_llm, fmt):
    fake_llm.script(
        [
            {"text": "<think>0 -> 5. Action: add(5)</think>Start with two.\nAction: add(2)"},
            {"text": 'Then three.\n<tool_call>{"name": "add", "arguments": {"n": 3}}</tool_call>'},
            {"text": "Action: finish()"},
        ]
    )
    agent = agent_for(provider, fake_llm, text_tools=fmt)
    actions, reward = episode(CounterEnv(target=5), agent)
    assert [a["arguments"].get("n") for a in actions] == [2, 3, None] and reward == 0
    first = fake_llm.requests[0]["body"]
    assert "tools" not in first
    system = first["system"] if provider == "anthropic" else first["messages"][0]["content"]
    assert "add(n: integer): Add n to the counter." in system and "Every reply must call a tool." in system
    observation = sent_messages(fake_llm, 1)[-1]
    assert observation["role"] == "user" and '{"counter": 2}' in observation["content"]
    assert agent.last_note == "" and agent.steps[0].payload["tool_calls"][0]["arguments"] == {"n": 2}


def test_a_malformed_call_is_sent_back_as_an_error_and_corrected(provider, fake_llm):
    fake_llm.script(
        [
            {
                "tool_calls": [{"name": "add", "arguments": '{"n": 2'}]
            },  # broken JSON / (Anthropic) not an object
            call("add", n=2),
            call("finish"),
        ]
    )
    agent = agent_for(provider, fake_llm)
    actions, _ = episode(CounterEnv(target=2), agent)
    assert actions == [{"name": "add", "arguments": {"n": 2}}, {"name": "finish", "arguments": {}}]
    error = json.loads(last_text(provider, fake_llm, 1))["error"]
    assert error.startswith("could not call add:")
    assert len(fake_llm.requests) == 3


def test_an_unreadable_text_reply_is_an_error_result_never_a_default(provider, fake_llm):
    fake_llm.script([{"text": "Action: add(2"}, {"text": "Action: add(2)"}, {"text": "Action: finish"}])
    agent = agent_for(provider, fake_llm, text_tools=TextCallFormat.ACTION)
    actions, _ = episode(CounterEnv(target=2), agent)
    assert [a["name"] for a in actions] == ["add", "finish"]
    correction = sent_messages(fake_llm, 1)[-1]["content"]
    assert correction.startswith("Observation: ") and "never closed" in correction

    fake_llm.script([{"text": "Action: add(2"}] * 3)
    agent = agent_for(provider, fake_llm, text_tools=True, max_steps_per_act=3)
    with pytest.raises(AgentStopped, match="3 model calls without choosing an environment action") as err:
        episode(CounterEnv(), agent)
    assert err.value.stop is LoopStop.MAX_STEPS and isinstance(err.value, OrcaError)


def test_a_reply_without_a_tool_call_is_nudged(provider, fake_llm):
    fake_llm.script([{"text": "I will add five."}, call("add", n=5), call("finish")])
    agent = agent_for(provider, fake_llm)
    actions, reward = episode(CounterEnv(target=5), agent)
    assert [a["name"] for a in actions] == ["add", "finish"] and reward == 0
    nudge = sent_messages(fake_llm, 1)[-1]
    assert nudge["role"] == "user" and "did not call a tool" in nudge["content"]

    fake_llm.script([{"text": "no"}, {"text": "still no"}])
    agent = agent_for(provider, fake_llm, max_nudges=1)
    with pytest.raises(AgentStopped, match="after 1 reminder") as err:
        episode(CounterEnv(), agent)
    assert err.value.stop is LoopStop.NO_TOOL_CALL


def test_history_window_keeps_a_200_step_run_bounded(provider, fake_llm):
    steps = 200
    notes = [call("take_note", note="target is 199, keep adding")]
    fake_llm.script([call("add", n=1)] * 10 + notes + [call("add", n=1)] * (steps - 11) + [call("finish")])
    agent = agent_for(
        provider, fake_llm, history=HistoryPolicy(keep_last_turns=6, pinned=("target 199",)), notes=True
    )
    actions, reward = episode(CounterEnv(target=steps - 1), agent)
    assert len(actions) == steps and reward == 0
    sizes = [len(json.dumps(r["body"]["messages"])) for r in fake_llm.requests]
    counts = [len(r["body"]["messages"]) for r in fake_llm.requests]
    system = 1 if provider == "openai" else 0
    assert max(counts) == system + 2 + 6 * 2  # notes, first observation, 6 turns (call + its result)
    assert counts[-1] == system + 1 + 6 * 2  # once trimming starts: notes + 6 turns
    assert max(sizes[20:]) <= 1.2 * sizes[20]  # the request stays the same size to the end
    llm_steps = [s for s in agent.steps if s.kind == "llm"]
    assert llm_steps[-1].payload["request"]["dropped_turns"] == steps - 6
    assert llm_steps[-1].payload["request"]["dropped_messages"] == 1 + 2 * (steps - 6)
    pinned = sent_messages(fake_llm, len(fake_llm.requests) - 1)[system]["content"]
    assert "- target 199\n- target is 199, keep adding\n[389 earlier messages (194 turns)" in pinned
    assert len(agent.messages) == 2 * steps + 2  # the agent keeps the whole run; only requests are trimmed


def test_token_budget_ends_the_run_with_an_error(provider, fake_llm):
    fake_llm.script([call("add", n=1)] * 5)  # 11 + 7 tokens per reply
    agent = agent_for(provider, fake_llm, token_limit=50)
    with pytest.raises(TokenBudgetExhausted, match="used up its token budget \\(54 of 50 tokens\\)") as err:
        episode(CounterEnv(), agent)
    assert err.value.stop is LoopStop.TOKEN_BUDGET
    assert len(fake_llm.requests) == 3 and agent.usage.input_tokens + agent.usage.output_tokens == 54
    assert agent.messages[-1].role == "assistant" and "token budget" in agent.messages[-1].content
    agent.reset(1)
    assert agent.budget.spent == 0 and agent.messages == [] and agent.usage.input_tokens == 0


def test_offline_models_and_option_checks():
    def policy(system, messages, tools):
        return (
            OfflineTurn("adding", [("add", {"n": 5})])
            if len(messages) == 1
            else OfflineTurn("", [("finish", {})])
        )

    agent = LLMToolAgent(OfflineModel(policy), system="s", env_tools=ENV_TOOLS)
    assert episode(CounterEnv(), agent)[1] == 0 and agent.name == "llm:offline"
    with pytest.raises(SpecError, match="env_tools"):
        LLMToolAgent(OfflineModel(policy), system="s", env_tools=[])
    with pytest.raises(SpecError, match="local_tools"):
        LLMToolAgent(OfflineModel(policy), system="s", env_tools=ENV_TOOLS, local_tools=[add])
    with pytest.raises(SpecError, match="token_budget"):
        LLMToolAgent(OfflineModel(policy), system="s", env_tools=ENV_TOOLS, token_limit=0)


def test_through_the_one_rollout_loop(provider, fake_llm):
    """The agent plugs into `core.rollout.rollout`: per-step token deltas and notes, and a used-up budget ends
    the run as failed with the reason."""
    from core.agent import Agent
    from core.rollout import RolloutStatus, rollout

    fake_llm.script([{"text": "Plus two.", **call("add", n=2)}, call("add", n=3), call("finish")])
    agent = agent_for(provider, fake_llm)
    assert isinstance(agent, Agent)
    rows = []
    result = rollout(CounterEnv(target=5), agent, seed=3, on_step=rows.append)
    assert result.status is RolloutStatus.DONE and result.total_reward == 0 and result.steps == 3
    assert [(r.input_tokens, r.output_tokens) for r in rows] == [(11, 7)] * 3
    assert rows[0].note == "Plus two." and rows[0].action == {"name": "add", "arguments": {"n": 2}}

    fake_llm.script([call("add", n=1)] * 3)
    budgeted = agent_for(provider, fake_llm, token_limit=30)
    result = rollout(CounterEnv(), budgeted, seed=3)
    assert result.status is RolloutStatus.FAILED and result.steps == 2
    assert "used up its token budget (36 of 30 tokens)" in result.error
