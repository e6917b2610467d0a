"""The critic and the Policy Interpretation Agent: Scenario A (an explainable policy wins), Scenario B (the DQN
wins, order queries through the `calculate_dqn_order` tool), offline and through the fake LLM servers."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from core.config import Settings
from core.errors import SpecError
from core.inventory.copilot.critic import critique
from core.inventory.copilot.interpretation import (
    DONE,
    FAREWELL,
    INTERPRET,
    InterpretationAgent,
    is_done,
    merge_followup,
    offline_policy,
)
from core.inventory.copilot.order_query import OrderQuery, parse_order_query
from core.inventory.copilot.policy_answers import simplest_alternative
from core.inventory.copilot.policy_brief import PolicyBrief, brief_from_result
from core.inventory.copilot.policy_explanation import CLOSING_QUESTION, system_prompt
from core.llm import OfflineModel, make_chat_model
from solvers.inventory.agent import OptimizationResult, optimize
from solvers.inventory.artifacts import calculate_dqn_order, write_artifacts
from solvers.inventory.dp import evaluate_exact, solve_dp
from solvers.inventory.dqn import DQNConfig
from solvers.inventory.montecarlo import evaluate_policies
from solvers.inventory.policies import ConstantPolicy, SSPolicy, truncate_orders
from solvers.inventory.spec import problem_from_table, table_from_problem

SMALL = {
    "time_horizon": "20",
    "demand_type": "random",
    "demand_distribution": "poisson(3)",
    "perishability": "false",
    "state_transition_model": "lost_sale",
    "holding_cost": "0.5",
    "penalty_cost": "4",
    "setup_cost": "3",
    "lead_time": "1",
    "max_inventory": "15",
    "max_order": "10",
    "risk_tolerance": "2",
}
TINY = SMALL | {
    "time_horizon": "8",
    "demand_distribution": "poisson(2)",
    "max_inventory": "8",
    "max_order": "6",
}


@pytest.fixture(scope="module")
def result() -> OptimizationResult:
    return optimize(problem_from_table(SMALL), paths=300, seed=0, use_dqn=False)


def scenario_b_result(out_dir: Path, seed: int = 0) -> OptimizationResult:
    """A result in which the DQN wins: a tiny DQN really trained on TINY, compared (as in the paper) with one
    (s,S) rule only, here a deliberately poor (s=0, S=1), both evaluated on the same fresh paths; the
    deployment artifacts are written as the engine writes them."""
    problem = problem_from_table(TINY)
    config = DQNConfig(steps=40, seconds=120, envs=16, hidden=16, eval_every=20, eval_paths=50)
    trained = optimize(problem, paths=100, seed=seed, use_dqn=True, use_dp=False, dqn_config=config)
    assert trained.dqn is not None
    ev_dqn, ev_ss = evaluate_policies(problem, [trained.dqn.policy, SSPolicy(0, 1)], 500, seed + 1)
    assert ev_dqn.mean < ev_ss.mean
    folder = write_artifacts(
        out_dir,
        problem,
        [("sS", ev_ss), ("dqn", ev_dqn)],
        (0, 1),
        "dqn",
        trained.dqn.policy,
        trained.dqn.hidden,
    )
    return replace(
        trained,
        recommended="dqn",
        recommended_policy="dqn",
        objective=ev_dqn.objective(problem.risk_tolerance),
        s=0,
        S=1,
        evaluations={"sS": ev_ss, "dqn": ev_dqn},
        searches={},
        artifacts_dir=folder,
    )


@pytest.fixture(scope="module")
def b_result(tmp_path_factory: pytest.TempPathFactory) -> OptimizationResult:
    return scenario_b_result(tmp_path_factory.mktemp("dqn") / "deployment_artifacts")


def _brief(res: OptimizationResult) -> PolicyBrief:
    return brief_from_result(res, critique(res, table_from_problem(res.problem)))


def _offline(brief: PolicyBrief) -> InterpretationAgent:
    return InterpretationAgent(OfflineModel(offline_policy(brief)), brief)


# --- the critic ---


def test_critic_passes_the_engines_recommendation_and_states_assumptions(result):
    report = critique(result, SMALL)
    assert report.ok
    names = {c.name for c in report.checks}
    assert {"table_matches_problem", "orders_within_max_order", "within_capacity", "sS_levels"} <= names
    assert report.check("recommended_minimises_objective").ok
    joined = " ".join(report.assumptions)
    assert "You start with 0 units on hand and nothing on order." in report.assumptions
    assert "arrives 1 day(s) later" in joined
    assert "λ = 2" in joined


def test_critic_states_normal_rounding_and_perishing():
    problem = problem_from_table(SMALL | {"demand_distribution": "normal(3,1)", "perishability": "true"})
    res = optimize(problem, paths=100, seed=0, use_dqn=False, use_dp=False)
    joined = " ".join(critique(res).assumptions)
    assert "rounded to the nearest whole unit and never below 0" in joined
    assert "thrown away at the end of each day" in joined


def test_critic_flags_a_table_that_differs_from_the_solved_problem(result):
    report = critique(result, SMALL | {"lead_time": "3"})
    assert not report.ok
    check = report.check("table_matches_problem")
    assert not check.ok and "lead_time" in check.message


def test_critic_flags_rules_that_break_capacity_and_max_order(result):
    searches = dict(result.searches)
    searches["constant"] = replace(searches["constant"], best_policy=ConstantPolicy(50))
    searches["sS"] = replace(searches["sS"], best_policy=SSPolicy(3, 40))
    bad = replace(result, recommended="constant", searches=searches)
    report = critique(bad, SMALL)
    assert not report.ok
    assert not report.check("constant_order_size").ok
    assert not report.check("sS_levels").ok
    assert not report.check("orders_need_no_cap").ok
    assert not report.check("recommended_minimises_objective").ok
    assert report.check("orders_within_max_order").ok  # the simulator still truncates to max order


def test_critic_warns_about_orders_placed_too_late(result):
    report = critique(replace(result, recommended="sS"), SMALL)
    late = report.check("no_orders_too_late")
    assert not late.ok and late.severity == "warning"
    assert late in report.findings
    blocking = [c.name for c in report.checks if not c.ok and c.severity == "error"]
    assert blocking == ["recommended_minimises_objective"]  # the engine recommended dp, not the plain rule


# --- Scenario A ---


def test_scenario_a_explains_the_dp_policy_in_plain_words(result):
    brief = _brief(result)
    assert brief.scenario == "A" and brief.recommended == result.recommended
    agent = _offline(brief)
    text = agent.opening().assistant
    assert text.endswith(CLOSING_QUESTION)
    rule = brief.rule
    if result.recommended == "dp":
        assert (
            f"at or below about {rule['reorder_at']}" in text and f"up to about {rule['order_up_to']}" in text
        )
    assert f"${result.evaluations[result.recommended].mean:,.2f}" in text
    assert "Assumptions:" in text and "You start with 0 units" in text
    assert f"{brief.cost_diff_pct:.1f}% more" in text
    policy = brief.policy_dict()
    assert policy["type"] == "sS" and policy["s"] == result.s and policy["S"] == result.S


def test_scenario_a_ss_rule_wording_and_cost_split(result):
    brief = _brief(replace(result, recommended="sS", recommended_policy=result.evaluations["sS"].policy))
    text = _offline(brief).opening().assistant
    assert f"If it is below {result.s}, order enough to bring it back up to {result.S}" in text
    ev = result.evaluations["sS"]
    assert f"holding ${ev.holding_cost:,.2f}" in text and f"order fees ${ev.setup_cost:,.2f}" in text
    assert "Do NOT recommend the DQN" in system_prompt(brief)


def test_scenario_a_order_query_runs_the_policy_tool(result):
    brief = _brief(result)
    agent = _offline(brief)
    agent.opening()
    turn = agent.respond("current inventory 4, day 4, no incoming orders")
    assert turn.action == INTERPRET
    (call,) = turn.tool_calls
    assert call["name"] == "calculate_policy_order"
    assert call["arguments"] == {"current_inventory": 4, "current_time_step": 3, "pipeline_orders": ""}
    p = result.problem
    want = int(
        truncate_orders(p, brief.policy.orders(p, 3, np.array([4]), np.zeros((1, 1), int)), np.array([4]))[0]
    )
    assert call["result"]["recommended_order"] == want
    assert f"order {want} units now" in turn.assistant
    assert turn.assistant.endswith(CLOSING_QUESTION)


def test_answers_about_costs_comparisons_and_assumptions(result):
    agent = _offline(_brief(result))
    agent.opening()
    assert "What it costs" in agent.respond("How much will this cost me?").assistant
    compare = agent.respond("How does it compare with the alternatives?").assistant
    assert all(v.policy in compare for v in result.evaluations.values())
    assert "Assumptions:" in agent.respond("What did you assume about deliveries?").assistant


def test_done_archives_the_transcript(result):
    agent = _offline(_brief(result))
    agent.opening()
    agent.respond("I have 5 units in stock, day 2, 3 arriving")
    turn = agent.respond("No thanks, that's all.")
    assert (turn.action, turn.assistant) == (DONE, FAREWELL)
    assert agent.done
    text = agent.transcript()
    assert text.startswith("Policy Interpretation Agent, Scenario A")
    assert "User: I have 5 units in stock, day 2, 3 arriving" in text
    assert "[CALLING TOOL]: calculate_policy_order" in text
    reopened = agent.respond("one more thing: what is S?")
    assert reopened.action == INTERPRET and not agent.done and "User: one more thing" in agent.transcript()


# --- Scenario B ---


def test_scenario_b_presents_the_dqn_as_an_on_demand_expert(b_result):
    brief = _brief(b_result)
    assert brief.scenario == "B" and brief.policy_dict()["type"] == "dqn"
    assert brief.critic.ok
    text = _offline(brief).opening().assistant
    assert "on-demand expert" in text and "Current Inventory" in text and "Pipeline Orders" in text
    assert "% more" not in text.split("Before presenting")[0]
    assert text.endswith(CLOSING_QUESTION)
    prompt = system_prompt(brief)
    assert "The DQN policy achieved a LOWER objective" in prompt
    assert f"costs {brief.cost_diff_pct:.1f}% more" in prompt


def test_scenario_b_answers_the_figure_4_query_through_calculate_dqn_order(b_result):
    brief = _brief(b_result)
    agent = _offline(brief)
    agent.opening()
    turn = agent.respond("current inventory 4, day 4, no incoming orders")
    (call,) = turn.tool_calls
    assert call["name"] == "calculate_dqn_order"
    want = calculate_dqn_order(4, 3, "0", b_result.artifacts_dir)
    assert call["result"] == want
    assert f"I recommend placing an order for {want['recommended_order']} units" in turn.assistant
    assert turn.assistant.endswith(CLOSING_QUESTION)


def test_scenario_b_takes_today_as_day_one_and_says_so(b_result):
    agent = _offline(_brief(b_result))
    agent.opening()
    turn = agent.respond("We have 3 units on hand and nothing on order")
    assert turn.tool_calls and turn.tool_calls[0]["arguments"]["current_time_step"] == 0
    assert "day 1 of your" in turn.assistant and "time step" not in turn.assistant


def test_scenario_b_offers_the_simpler_policy_when_the_user_is_skeptical(b_result):
    brief = _brief(b_result)
    agent = _offline(brief)
    agent.opening()
    text = agent.respond("What's DQN? I don't really trust a black box.").assistant
    assert f"(s = 0, S = 1) policy exists but it costs {brief.cost_diff_pct:.1f}% more" in text
    assert brief.cost_diff_pct > 0
    chosen = agent.respond("OK, I'll go with the simpler rule").assistant
    assert "If stock on hand plus on order is below 0, order up to 1" in chosen
    assert agent.respond("that's all").action == DONE
    assert "[CALLING TOOL]" not in agent.transcript()


def test_a_tool_error_is_explained_not_raised(b_result):
    agent = _offline(_brief(b_result))
    agent.opening()
    turn = agent.respond("current inventory 99, day 2, no incoming orders")
    assert "error" in turn.tool_calls[0]["result"]
    assert "I could not compute that order" in turn.assistant and "max inventory" in turn.assistant


# --- parsing ---


@pytest.mark.parametrize(
    ("text", "lead", "want"),
    [
        ("current inventory 4, day 4, no incoming orders", 2, (4, 3, "")),
        ("We have 7 units on hand at time step 5, pipeline 2, 3", 2, (7, 5, "2,3")),
        ("stock is four, day two, 5 arriving", 2, (4, 1, "5,0")),
        ("inventory 6 at period 0", 0, (6, 0, "")),
        ("inventory 6, day 1", 1, (6, 0, None)),
        ("we hold 30 units, 2 then 3 arriving", 2, (30, None, "2,3")),
        ("I got six crates of 24 this morning, nothing on order", 1, (144, None, "")),
        ("-3 on hand (a backlog), day 2, pipeline empty", 1, (-3, 1, "")),
        ("we've got 18 in the shop, day #5", 0, (18, 4, "")),
    ],
)
def test_order_queries_are_read(text, lead, want):
    q = parse_order_query(text, lead)
    assert q is not None
    assert (q.current_inventory, q.current_time_step, q.pipeline_orders) == want


def test_no_inventory_no_query():
    assert parse_order_query("what does s mean?", 2) is None
    for text in (
        "max inventory (20)",
        "base_stock(20)",
        "the cost of keeping stock is about 10 cents per unit daily",
        "it's about $0.15 a day to keep one box on the shelf",
    ):
        assert parse_order_query(text, 2) is None, text


def test_a_follow_up_names_the_day_or_the_deliveries():
    earlier = OrderQuery(10, None, None)
    assert merge_followup(earlier, "we are 20 days in", 1).current_time_step == 20
    assert merge_followup(earlier, "it's day 3", 1).current_time_step == 2
    assert merge_followup(earlier, "we have 15 coming in tomorrow", 1).pipeline_orders == "15"
    assert merge_followup(earlier, "It's the same every day: 100 coffees.", 1) is None
    assert merge_followup(earlier, "a night in the cooler costs each case 10 cents", 1) is None


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("no thanks", True),
        ("That's all.", True),
        ("No, thank you!", True),
        ("ok, thanks", True),
        ("ok thanks thats all", True),
        ("great thank you bye", True),
        ("ok thanks what about next week", False),
        ("no, what does s mean?", False),
        ("thanks, but how much will it cost?", False),
        ("ok 4", False),
        ("no, 5", False),
    ],
)
def test_done_detection(text, done):
    assert is_done(text) is done


# --- the LLM path (fake servers) ---


def _llm(fake_llm, provider: str) -> Settings:
    url = fake_llm.openai_url if provider == "openai" else fake_llm.anthropic_url
    return Settings(provider=provider, model="fake-model", base_url=url, api_key="test-key", max_retries=2)


def test_llm_scenario_b_calls_the_tool_and_gets_the_closing_question(fake_llm, b_result):
    brief = _brief(b_result)
    agent = InterpretationAgent(make_chat_model(_llm(fake_llm, "openai")), brief)
    want = calculate_dqn_order(4, 3, "", b_result.artifacts_dir)
    fake_llm.script(
        [
            {"text": "The DQN is your on-demand expert. Tell me your inventory, day and pipeline orders."},
            {"status": 429},
            {
                "tool_calls": [
                    {
                        "name": "calculate_dqn_order",
                        "arguments": {"current_inventory": 4, "current_time_step": 3, "pipeline_orders": "0"},
                    }
                ]
            },
            {"text": f"I recommend placing an order for {want['recommended_order']} units."},
        ]
    )
    opening = agent.opening()
    assert "Assumptions:" in opening.assistant and opening.assistant.endswith(CLOSING_QUESTION)
    turn = agent.respond("current inventory 4, day 4, no incoming orders")
    assert turn.tool_calls[0]["result"] == want
    assert (
        turn.assistant
        == f"I recommend placing an order for {want['recommended_order']} units.\n\n{CLOSING_QUESTION}"
    )
    first = fake_llm.requests[0]["body"]
    system = first["messages"][0]["content"]
    assert "Lead Time is 1 day(s)" in system and f"costs {brief.cost_diff_pct:.1f}% more" in system
    assert [t["function"]["name"] for t in first["tools"]] == ["calculate_dqn_order"]
    last = fake_llm.requests[-1]["body"]["messages"]
    tool_msg = next(m for m in last if m["role"] == "tool")
    assert json.loads(tool_msg["content"]) == want


def test_llm_bad_tool_arguments_are_fed_back(fake_llm, b_result):
    agent = InterpretationAgent(make_chat_model(_llm(fake_llm, "openai")), _brief(b_result))
    fake_llm.script(
        [
            {"tool_calls": [{"name": "calculate_dqn_order", "arguments": {"current_inventory": "lots"}}]},
            {"text": "Sorry, could you give me the inventory as a number and the day?"},
        ]
    )
    turn = agent.respond("I have lots of stock")
    assert "error" in turn.tool_calls[0]["result"]
    assert turn.assistant.endswith(CLOSING_QUESTION)


def test_llm_scenario_a_through_anthropic(fake_llm, result):
    agent = InterpretationAgent(make_chat_model(_llm(fake_llm, "anthropic")), _brief(result))
    fake_llm.script(
        [{"text": "Order up to the level when stock is low. Assumptions: none beyond the table."}]
    )
    opening = agent.opening()
    assert opening.assistant.endswith(CLOSING_QUESTION)
    body = fake_llm.requests[-1]["body"]
    assert "Do NOT recommend the DQN" in body["system"]
    assert [t["name"] for t in body["tools"]] == ["calculate_policy_order"]
    assert body["messages"][0]["role"] == "user"


# --- degenerate and implausible results ---


def test_critic_flags_a_plan_that_cannot_keep_up_with_demand():
    table = SMALL | {
        "state_transition_model": "backlog",
        "demand_distribution": "poisson(40)",
        "max_inventory": "12",
        "max_order": "5",
        "time_horizon": "60",
    }
    res = optimize(problem_from_table(table), paths=100, seed=0, use_dqn=False, use_dp=False, final_paths=200)
    report = critique(res, table, 50)
    serves, cost = report.check("serves_demand"), report.check("cost_plausible")
    assert not serves.ok and serves.severity == "error" and "below the average daily demand" in serves.message
    assert not cost.ok and "backorder" in cost.message
    assert not report.ok
    text = _offline(brief_from_result(res, report)).opening().assistant
    assert "Stock cannot keep up with demand" in text and "- Problem:" in text
    assert "units less than that" not in text and "now and then" not in text


def test_a_rule_that_never_orders_is_worded_as_such():
    table = SMALL | {"setup_cost": "100000"}
    res = optimize(problem_from_table(table), paths=100, seed=0, use_dqn=False, use_dp=False, final_paths=200)
    brief = _brief(res)
    assert brief.costs[res.recommended]["orders"] == 0
    assert not brief.critic.check("serves_demand").ok
    text = _offline(brief).opening().assistant
    assert "Order nothing" in text and "no order that pays for itself" in text
    assert "trigger level" not in text and "Ordering up to 0" not in text and "below 0" not in text


# --- Q&A routing after a recommendation ---


def test_a_cost_question_with_a_number_is_not_an_order_query(result):
    brief = _brief(result)
    agent = _offline(brief)
    agent.opening()
    turn = agent.respond("what's the holding cost over the 90 days?")
    assert not turn.tool_calls and "You said the inventory is" not in turn.assistant
    holding = brief.costs[brief.recommended]["holding"]
    assert f"holding costs come to about ${holding:,.2f} over the 20-day plan" in turn.assistant
    assert f"over 90 days at the same daily rate that is about ${holding / 20 * 90:,.2f}" in turn.assistant
    assert parse_order_query("what's the holding cost over the 90 days?", 1) is None
    assert parse_order_query("what is the inventory cost over 90 days?", 1) is None


def test_a_proposed_fixed_daily_order_is_evaluated_on_common_paths(result):
    brief = _brief(result)
    agent = _offline(brief)
    agent.opening()
    text = agent.respond("why not just order 20 every day?").assistant
    p = result.problem
    rec, fixed = evaluate_policies(
        p, [brief.policy, ConstantPolicy(p.max_order)], brief.paths, brief.seed + 104_729
    )
    assert (
        f"Ordering {p.max_order} units every day" in text and f"at most {p.max_order} units at once" in text
    )
    assert f"${fixed.mean:,.2f}" in text and f"${rec.mean:,.2f}" in text
    mean_diff = 100 * (fixed.mean - rec.mean) / rec.mean
    assert f"{mean_diff:.1f}% more on average than the recommended policy" in text and "time step" not in text


def test_a_fixed_order_answer_separates_the_average_from_the_risk_weighted_cost(result):
    brief = _brief(result)
    averse = replace(brief, problem=replace(brief.problem, risk_tolerance=-5.0))
    agent = _offline(averse)
    agent.opening()
    text = agent.respond("why not just order 1 every day?").assistant
    p = averse.problem
    rec, fixed = evaluate_policies(p, [brief.policy, ConstantPolicy(1)], brief.paths, brief.seed + 104_729)
    assert fixed.objective(-5.0) > rec.objective(-5.0)
    risk_diff = 100 * (fixed.objective(-5.0) - rec.objective(-5.0)) / abs(rec.objective(-5.0))
    assert f"({risk_diff:.1f}% more once your risk preference also weighs how much the cost varies)" in text
    assert "in the objective" not in text


def test_a_skeptical_user_is_offered_the_plain_ss_rule_when_something_else_won(result):
    brief = _brief(result)
    assert brief.recommended != "sS"
    rec = brief.costs[brief.recommended]
    # only (s,S) is a plain alternative here: it is offered, with its real difference
    costs = {k: v for k, v in brief.costs.items() if k in ("sS", brief.recommended)}
    brief = replace(brief, costs=costs)
    agent = _offline(brief)
    agent.opening()
    pct = 100 * (costs["sS"]["objective"] - rec["objective"]) / abs(rec["objective"])
    for question in ("I don't trust this", "I'd rather have something simpler"):
        text = agent.respond(question).assistant
        assert f"below {brief.s}, order up to {brief.S}" in text
        assert f"{pct:.1f}% more in the objective" in text
    assert (
        "Understood, the simpler rule it is" in agent.respond("OK, I'll go with the simpler rule").assistant
    )


def test_something_simpler_offers_the_simplest_rule_within_a_few_percent(result):
    brief = _brief(result)
    rec = brief.costs[brief.recommended]
    costs = {
        brief.recommended: rec,
        "sS": rec | {"policy": "sS(4,12)", "objective": rec["objective"] * 1.59, "mean": rec["mean"] * 1.59},
        "base_stock": rec | {"policy": "base_stock(9,cap=6)", "objective": rec["objective"] * 1.01},
        "constant": rec
        | {"policy": "constant(3)", "objective": rec["objective"] * 1.018, "mean": rec["mean"] * 1.02},
    }
    brief = replace(
        brief,
        recommended="dp",
        costs={"dp": rec, **{k: v for k, v in costs.items() if k != brief.recommended}},
    )
    assert simplest_alternative(brief) == "constant"
    text = _offline(brief).respond("something simpler?").assistant
    assert "Order 3 units every day" in text and "1.8% more in the objective" in text
    assert "59.0%" not in text and "order up to 12" not in text
    # nothing within a few percent: the cheapest plain rule
    far = {
        k: v | {"objective": v["objective"] * (1.2 if k == "constant" else 1.0)}
        for k, v in brief.costs.items()
    }
    assert simplest_alternative(replace(brief, costs=far)) == "base_stock"


def test_the_opening_reports_a_requested_dqn_that_lost(result):
    brief = _brief(result)
    ss = brief.costs["sS"]
    dqn = ss | {"policy": "dqn", "mean": ss["mean"] * 1.5, "objective": ss["objective"] * 1.5}
    text = _offline(replace(brief, costs=brief.costs | {"dqn": dqn})).opening().assistant
    rec = brief.costs[brief.recommended]["objective"]
    pct = 100 * (dqn["objective"] - rec) / abs(rec)
    assert "You asked me to also train a Deep Q-Network (DQN)" in text
    assert f"{pct:.1f}% more in the objective than the recommended policy" in text


def test_scenario_b_needs_the_dp_to_be_absent(b_result):
    """Why Scenario B is out of reach when the DP runs: the DP is the exact optimum of expected cost, so the
    DQN's exact expected cost is never lower (only L(π)'s std term or simulation noise could favour it)."""
    dp = solve_dp(b_result.problem)
    dqn_exact = evaluate_exact(b_result.problem, b_result.dqn.policy)
    assert dp.optimal_cost <= dqn_exact + 1e-9
    assert b_result.recommended == "dqn" and "dp" not in b_result.evaluations


# --- the day numbering switch (Fig. 4) ---


def test_fig4_day_numbering_passes_the_users_day_as_the_time_step(result, b_result):
    """Fig. 4: "current inventory 4, day 4, no incoming orders" becomes current_time_step 4; the default reads
    day 4 as the fourth day of the plan, step 3. The tool description an LLM reads says which."""
    brief = _brief(result)
    for numbering, step in (("from_one", 3), ("fig4", 4)):
        agent = InterpretationAgent(
            OfflineModel(offline_policy(brief, numbering)), brief, day_numbering=numbering
        )
        agent.opening()
        (call,) = agent.respond("current inventory 4, day 4, no incoming orders").tool_calls
        assert call["arguments"] == {"current_inventory": 4, "current_time_step": step, "pipeline_orders": ""}
        (spec,) = agent.toolbox.specs
        doc = spec.parameters["properties"]["current_time_step"]["description"]
        assert ("'day 4' is 4" in doc) == (numbering == "fig4")
    assert parse_order_query("inventory 6, day 1", 1, "fig4").current_time_step == 1
    assert parse_order_query("inventory 6, day 0", 1, "fig4").current_time_step == 0
    assert parse_order_query("inventory 6, day 1", 1).current_time_step == 0
    # Scenario B without a day: today is the first day, named per the numbering
    agent = InterpretationAgent(
        OfflineModel(offline_policy(_brief(b_result), "fig4")), _brief(b_result), day_numbering="fig4"
    )
    agent.opening()
    turn = agent.respond("We have 3 units on hand and nothing on order")
    assert turn.tool_calls[0]["arguments"]["current_time_step"] == 0 and "day 0 of your" in turn.assistant
    with pytest.raises(SpecError) as err:
        offline_policy(brief, "day_one")
    assert err.value.field == "day_numbering"
