"""Both SDK adapters against the local fake server: text, tool loop, broken JSON, retries, auth, unknown model,
answers that are not the API, timeouts, and conversation histories the real APIs accept."""

import json

import anthropic
import pytest

from core.config import Settings
from core.errors import ProviderError
from core.llm import Message, Toolbox, check_connection, factory, make_chat_model, run_tools


def lookup_price(item: str, quantity: int = 1) -> dict:
    """Look up the price of an item.

    Args:
        item: the product name
        quantity: how many units
    """
    prices = {"apple": 0.5, "bread": 2.0}
    if item not in prices:
        return {"error": f"unknown item {item!r}"}
    return {"item": item, "total": prices[item] * quantity}


def settings_for(provider, fake, **changes):
    url = fake.anthropic_url if provider == "anthropic" else fake.openai_url
    base = Settings(provider=provider, model="test-model", base_url=url, api_key="sk-test", max_retries=2)
    return base.with_changes(**changes)


@pytest.fixture(params=["anthropic", "openai"])
def provider(request):
    return request.param


def test_plain_text_and_usage(provider, fake_llm):
    fake_llm.script([{"text": "hello there", "usage": (12, 3)}])
    model = make_chat_model(settings_for(provider, fake_llm))
    reply = model.complete("be brief", [Message("user", "hi")])
    assert reply.text == "hello there"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (12, 3)
    sent = fake_llm.requests[0]
    assert sent["body"]["model"] == "test-model"
    if provider == "anthropic":
        assert sent["path"] == "/v1/messages" and sent["body"]["system"] == "be brief"
        assert "sk-test" in sent["headers"].get("x-api-key", "") + sent["headers"].get("authorization", "")
        assert "anthropic-version" in sent["headers"]
    else:
        assert sent["path"] == "/v1/chat/completions"
        assert sent["body"]["messages"][0] == {"role": "system", "content": "be brief"}
        assert sent["headers"]["authorization"] == "Bearer sk-test"


def test_tool_loop_end_to_end(provider, fake_llm):
    fake_llm.script(
        [
            {"tool_calls": [{"name": "lookup_price", "arguments": {"item": "bread", "quantity": 3}}]},
            {"text": "Three loaves cost 6.0."},
        ]
    )
    model = make_chat_model(settings_for(provider, fake_llm))
    result = run_tools(model, "shop", [Message("user", "price of 3 bread?")], Toolbox([lookup_price]))
    assert result.text == "Three loaves cost 6.0."
    assert result.tool_calls[0]["result"] == {"item": "bread", "total": 6.0}
    assert result.usage.input_tokens == 22
    second = fake_llm.requests[1]["body"]
    if provider == "anthropic":
        assert second["tools"][0]["input_schema"]["required"] == ["item"]
        tool_result = second["messages"][-1]["content"][0]
        assert tool_result["type"] == "tool_result"
        assert json.loads(tool_result["content"]) == {"item": "bread", "total": 6.0}
        assert second["messages"][-2]["content"][0]["type"] == "tool_use"
    else:
        assert second["tools"][0]["function"]["name"] == "lookup_price"
        assert second["messages"][-1]["role"] == "tool"
        assert json.loads(second["messages"][-1]["content"]) == {"item": "bread", "total": 6.0}
        assert second["messages"][-2]["tool_calls"][0]["function"]["name"] == "lookup_price"


def test_wrong_tool_arguments_are_fed_back(provider, fake_llm):
    broken = '{"item": "apple", ' if provider == "openai" else {"item": 7}
    fake_llm.script(
        [
            {"tool_calls": [{"name": "lookup_price", "arguments": broken}]},
            {"tool_calls": [{"name": "lookup_price", "arguments": {"item": "apple", "quantity": 2}}]},
            {"text": "Two apples cost 1.0."},
        ]
    )
    model = make_chat_model(settings_for(provider, fake_llm))
    result = run_tools(model, "shop", [Message("user", "2 apples?")], Toolbox([lookup_price]))
    first_result = result.tool_calls[0]["result"]["error"]
    if provider == "openai":
        assert "not valid JSON" in first_result
    else:
        assert "must be of type string" in first_result
    assert result.tool_calls[1]["result"] == {"item": "apple", "total": 1.0}
    assert result.text == "Two apples cost 1.0."


def test_rate_limit_is_retried_then_succeeds(provider, fake_llm):
    fake_llm.script([{"status": 429}, {"status": 500}, {"text": "ok after retries"}])
    model = make_chat_model(settings_for(provider, fake_llm))
    assert model.complete("", [Message("user", "hi")]).text == "ok after retries"
    assert len(fake_llm.requests) == 3


def test_auth_failure_is_a_clear_provider_error(provider, fake_llm):
    fake_llm.script([{"status": 401}])
    model = make_chat_model(settings_for(provider, fake_llm))
    with pytest.raises(ProviderError, match=r"rejected the API key \(401\)"):
        model.complete("", [Message("user", "hi")])
    assert len(fake_llm.requests) == 1


def test_unknown_model_or_wrong_url_is_named(provider, fake_llm):
    fake_llm.script([{"status": 404}])
    with pytest.raises(ProviderError, match="model 'nope'.*unknown model or wrong base URL"):
        make_chat_model(settings_for(provider, fake_llm, model="nope")).complete("", [Message("user", "hi")])


@pytest.mark.parametrize(
    "entry",
    [
        {"raw": "<html><body>Welcome to nginx!</body></html>", "content_type": "text/html"},
        {"raw": '{"foo": 1}', "content_type": "application/json"},
        {"raw": "[1, 2]", "content_type": "application/json"},
        {"raw": '{"content": 5, "choices": "x"}', "content_type": "application/json"},
    ],
    ids=["html", "other-json", "json-list", "wrong-types"],
)
def test_an_answer_that_is_not_the_api_says_check_the_base_url(provider, fake_llm, entry):
    fake_llm.script([entry])
    model = make_chat_model(settings_for(provider, fake_llm))
    with pytest.raises(ProviderError, match="did not answer like .* API; check the base URL") as err:
        model.complete("", [Message("user", "hi")])
    assert str(fake_llm.port) in str(err.value)
    if "html" in entry["raw"]:
        assert "Welcome to nginx" in str(err.value)


def test_a_server_that_hangs_times_out_quickly_with_a_clear_error(provider, fake_llm):
    """The server answers after 10 s, so the error can only come from the client's 0.5 s timeout, after one
    attempt (no clock needed: a slow machine cannot fail this)."""
    fake_llm.script([{"hang": 10, "text": "too late"}])
    model = make_chat_model(settings_for(provider, fake_llm, timeout_s=0.5, max_retries=0))
    with pytest.raises(ProviderError, match="did not answer in time"):
        model.complete("", [Message("user", "hi")])
    assert len(fake_llm.requests) == 1


def test_check_connection_uses_a_short_timeout_and_one_retry(provider, fake_llm, monkeypatch):
    """Each attempt waits at most `CHECK_TIMEOUT_S`, not the settings' 60 s: the server answers after 10 s, so
    the error proves the short timeout, and the settings the check built say it too."""
    monkeypatch.setattr(factory, "CHECK_TIMEOUT_S", 0.3)
    built = []
    make = factory.make_chat_model
    monkeypatch.setattr(factory, "make_chat_model", lambda s, **kw: built.append(s) or make(s, **kw))
    fake_llm.script([{"hang": 10}] * 3)
    with pytest.raises(ProviderError, match="did not answer in time"):
        check_connection(settings_for(provider, fake_llm, timeout_s=60, max_retries=3))
    assert [(s.timeout_s, s.max_retries) for s in built] == [(0.3, 1)]
    assert len(fake_llm.requests) == 2


def test_url_credentials_never_appear_in_messages(provider, fake_llm):
    host = fake_llm.openai_url if provider == "openai" else fake_llm.anthropic_url
    url = host.replace("http://", "http://alice:hunter2@")
    fake_llm.script([{"status": 500}])
    with pytest.raises(ProviderError) as err:
        make_chat_model(settings_for(provider, fake_llm, base_url=url, max_retries=0)).complete(
            "", [Message("user", "hi")]
        )
    assert "hunter2" not in str(err.value) and "***@127.0.0.1" in str(err.value)


def test_empty_texts_in_history_are_accepted_by_anthropic(fake_llm):
    fake_llm.script([{"text": "fine"}])
    model = make_chat_model(settings_for("anthropic", fake_llm))
    history = [Message("user", "hi"), Message("assistant", ""), Message("user", "still there?")]
    assert model.complete("", history).text == "fine"
    assert fake_llm.requests[0]["body"]["messages"][1]["content"] == "(no text)"


def test_fake_anthropic_refuses_what_the_real_api_refuses(fake_llm):
    client = anthropic.Anthropic(api_key="k", base_url=fake_llm.anthropic_url, max_retries=0)
    empty = [{"role": "user", "content": [{"type": "text", "text": " "}]}]
    unanswered = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
        {"role": "user", "content": "and?"},
    ]
    orphan = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t9", "content": "1"}]}]
    for messages, reason in (
        (empty, "non-whitespace"),
        (unanswered, "without `tool_result`"),
        (orphan, "t9"),
    ):
        fake_llm.script([{"text": "should not be used"}])
        with pytest.raises(anthropic.BadRequestError, match=reason):
            client.messages.create(model="m", max_tokens=5, messages=messages)


def test_history_stays_valid_after_the_step_cap(provider, fake_llm):
    always = {"tool_calls": [{"name": "lookup_price", "arguments": {"item": "apple"}}]}
    fake_llm.script([always, always, {"text": "Sorry, I went round in circles."}])
    model = make_chat_model(settings_for(provider, fake_llm))
    first = [Message("user", "apples?")]
    capped = run_tools(model, "shop", first, Toolbox([lookup_price]), max_steps=2)
    assert capped.stopped == "max_steps"
    assert capped.messages[-1].role == "assistant" and not capped.messages[-1].tool_calls
    # Agents replace the final text with their own wording (core/inventory/copilot/interpretation.py does).
    history = [*first, *capped.messages[:-1], Message("assistant", "I stopped."), Message("user", "again")]
    assert (
        run_tools(model, "shop", history, Toolbox([lookup_price])).text == "Sorry, I went round in circles."
    )


def test_unreachable_server_and_exhausted_retries(provider, fake_llm):
    fake_llm.script([{"status": 429}] * 3)
    with pytest.raises(ProviderError, match="rate-limiting"):
        make_chat_model(settings_for(provider, fake_llm)).complete("", [Message("user", "hi")])
    dead = Settings(
        provider=provider, model="m", base_url="http://127.0.0.1:9", api_key="k", max_retries=0, timeout_s=2
    )
    with pytest.raises(ProviderError, match="cannot reach"):
        make_chat_model(dead).complete("", [Message("user", "hi")])


def test_check_connection_reports_success_and_failure(provider, fake_llm):
    fake_llm.script([{"text": "pong"}])
    assert "Connected to" in check_connection(settings_for(provider, fake_llm))
    fake_llm.script([{"status": 403}])
    with pytest.raises(ProviderError, match="403"):
        check_connection(settings_for(provider, fake_llm))


def test_missing_key_and_offline_without_policy():
    with pytest.raises(ProviderError, match="ANTHROPIC_API_KEY"):
        make_chat_model(Settings(provider="anthropic", model="m"))
    with pytest.raises(ProviderError, match="no offline policy"):
        make_chat_model(Settings())
    assert "ready" in check_connection(Settings())
