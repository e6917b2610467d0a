"""Issue 13, Inventory Copilot after the policy is computed: order questions keep their context across turns
and speak in days; what-if questions about demand run a simulation."""

from __future__ import annotations

import re

from core.inventory.copilot.policy_answers import demand_factor
from tests.core.inventory.copilot.test_interpretation import _brief, _offline, result  # noqa: F401 - fixture


def _agent(result):  # noqa: F811 - the fixture
    agent = _offline(_brief(result))
    agent.opening()
    return agent


def test_an_order_question_completed_over_two_turns_keeps_its_context(result):  # noqa: F811
    agent = _agent(result)
    first = agent.respond("we have 10 in stock, how many should I order?")
    assert not first.tool_calls and "on order" in first.assistant
    assert "time step" not in first.assistant and "day of the plan" not in first.assistant
    second = agent.respond("4 arriving tomorrow")
    assert second.tool_calls, second.assistant
    args = second.tool_calls[0]["arguments"]
    assert args["current_inventory"] == 10 and args["pipeline_orders"] == "4"
    assert re.search(r"order \d+ units now", second.assistant)


def test_an_order_question_in_one_message_is_answered_at_once(result):  # noqa: F811
    turn = _agent(result).respond("we have 10 in stock and 4 coming tomorrow, how many should I order?")
    assert turn.tool_calls and turn.tool_calls[0]["arguments"]["current_inventory"] == 10
    assert "time step" not in turn.assistant


def test_how_many_tomorrow_morning_is_asked_in_shop_words(result):  # noqa: F811
    turn = _agent(result).respond("how many do I order tomorrow morning?")
    assert "time step" not in turn.assistant and "day of the plan" not in turn.assistant
    assert "on hand" in turn.assistant


def test_a_demand_what_if_runs_a_simulation(result):  # noqa: F811
    turn = _agent(result).respond("what happens if demand doubles one weekend?")
    assert "I simulated the recommended policy" in turn.assistant and "x2" in turn.assistant
    assert "one weekend" in turn.assistant
    costs = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+\.\d\d)", turn.assistant)[:2]]
    assert costs[0] > costs[1], "doubled demand on a lost-sales shop costs more than the normal paths"


def test_demand_factors():
    assert demand_factor("what if demand doubles") == 2
    assert demand_factor("what if sales go up 30%") == 1.3
    assert demand_factor("suppose demand drops by 20 percent") == 0.8
    assert demand_factor("what if it rains") is None


def test_the_issue_order_dialogue_with_a_day_keeps_its_context(result):  # noqa: F811
    """The issue's sentence: '24 coming tomorrow' used to end in a request for the day, and 'it's day 1' in
    generic text instead of the order."""
    agent = _agent(result)
    turn = agent.respond("we have 10 in stock and 24 coming tomorrow, how many should I order?")
    if not turn.tool_calls:
        assert "day of the plan" not in turn.assistant and "time step" not in turn.assistant
        turn = agent.respond("it's day 1")
    assert turn.tool_calls, turn.assistant
    args = turn.tool_calls[0]["arguments"]
    assert args["current_inventory"] == 10 and args["pipeline_orders"] == "24"
    assert re.search(r"order \d+ units", turn.assistant), turn.assistant
    after = agent.respond("it's day 1")
    assert "order" in after.assistant and "I could not" not in after.assistant, after.assistant


def test_incoming_orders_are_read_in_one_pass_over_a_long_chain(monkeypatch) -> None:
    """A "1,1,1,..." chain is read once from the one parse's words: the cue lookups grow with the number of
    words, not with words x numbers (the old single regex tried every number as a start: quadratic, ~2 s at
    the chat line cap)."""
    import core.inventory.copilot.order_query as oq

    calls = []
    real = oq._starts

    def counting(words: tuple[str, ...], at: int, phrases: tuple[tuple[str, ...], ...]) -> int:
        calls.append(at)
        return real(words, at, phrases)

    chain = ", ".join(["1"] * 1500)
    monkeypatch.setattr(oq, "_starts", counting)
    assert oq.parse_order_query(chain + " x", lead_time=2) is None
    query = oq.parse_order_query("we have 4 on hand, " + chain + " arriving", lead_time=3)
    assert query is not None and query.pipeline_orders == "1,1,1"
    assert len(calls) <= 4 * 1510
    query = oq.parse_order_query("we have 4 on hand, 3 and 5 arriving", lead_time=2)
    assert query is not None and query.pipeline_orders == "3,5"
