"""The plain-words summary of the exact DP policy is stated only when following it costs at most
SUMMARY_TOLERANCE_PCT more on the same demand paths; a perishable bakery gets a steady daily order, not an
(s,S) rule that would halve its fill rate."""

from __future__ import annotations

import pytest

import core.inventory.copilot.policy_brief as policy_brief
from core.inventory.copilot.policy_brief import SUMMARY_TOLERANCE_PCT, policy_rule
from core.inventory.copilot.policy_explanation import never_orders, rule_sentence
from solvers.inventory.dp import solve_dp
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.policies import ConstantPolicy, SSPolicy
from solvers.inventory.spec import problem_from_table
from tests.core.inventory.copilot.test_interpretation import SMALL

BAKERY = SMALL | {
    "time_horizon": "30",
    "demand_distribution": "poisson(20)",
    "perishability": "true",
    "holding_cost": "0.5",
    "penalty_cost": "3",
    "setup_cost": "10",
    "max_inventory": "60",
    "max_order": "60",
    "risk_tolerance": "0",
}


class _Brief:
    """The two fields `rule_sentence` and `never_orders` read, for a rule computed here."""

    def __init__(self, problem, rule):
        self.problem, self.rule = problem, rule
        self.costs = {"dp": {"orders": 1.0}}
        self.recommended = "dp"


def _summary_cost_gap(problem, rule) -> float:
    """Evaluate the stated summary on fresh paths against the DP policy: the claim must hold out of sample."""
    dp = solve_dp(problem).policy
    demand = demand_matrix(problem, 400, 99)
    summary = (
        SSPolicy(rule["reorder_at"] + 1, rule["order_up_to"], cutoff=True)
        if "reorder_at" in rule
        else ConstantPolicy(rule["steady_order"], cutoff=True)
    )
    base = simulate_policy(problem, dp, demand).mean
    return 100 * (simulate_policy(problem, summary, demand).mean - base) / base


@pytest.mark.parametrize(("table", "kind"), [(BAKERY, "steady_order"), (SMALL, None)])
def test_a_stated_summary_costs_little_more_than_the_policy(table, kind):
    problem = problem_from_table(table)
    rule = policy_rule(problem, "dp", solve_dp(problem).policy, seed=0)
    assert rule["summary_gap_pct"] <= SUMMARY_TOLERANCE_PCT
    if kind:
        assert kind in rule
    assert _summary_cost_gap(problem, rule) <= SUMMARY_TOLERANCE_PCT + 1.0
    sentence = rule_sentence(_Brief(problem, rule))
    assert "costs about" in sentence and not never_orders(_Brief(problem, rule))


def test_the_perishable_bakery_is_not_told_an_ss_rule():
    problem = problem_from_table(BAKERY)
    rule = policy_rule(problem, "dp", solve_dp(problem).policy, seed=0)
    assert "reorder_at" not in rule
    assert f"ordering about {rule['steady_order']} units every day" in rule_sentence(_Brief(problem, rule))


def test_no_summary_is_stated_when_none_is_close(monkeypatch):
    monkeypatch.setattr(policy_brief, "SUMMARY_TOLERANCE_PCT", -1.0)
    problem = problem_from_table(SMALL)
    rule = policy_rule(problem, "dp", solve_dp(problem).policy, seed=0)
    assert "reorder_at" not in rule and "steady_order" not in rule and rule["ordered"]
    sentence = rule_sentence(_Brief(problem, rule))
    assert "no simple rule comes close" in sentence and "Ask me for any day's order" in sentence
    assert not never_orders(_Brief(problem, rule))


def test_a_capacity_below_lead_time_demand_is_named_as_the_cause(monkeypatch):
    from core.inventory.copilot.critic import critique
    from core.inventory.copilot.policy_brief import brief_from_result
    from core.inventory.copilot.policy_explanation import explanation
    from solvers.inventory.agent import optimize
    from solvers.inventory.spec import table_from_problem

    coffee = SMALL | {"demand_distribution": "poisson(30)", "max_inventory": "50", "max_order": "40", "lead_time": "2"}
    result = optimize(problem_from_table(coffee), paths=200, seed=0, use_dqn=False)
    report = critique(result, table_from_problem(result.problem))
    check = report.check("supply_keeps_up")
    assert not check.ok and "16.7 units a day" in check.message
    text = explanation(brief_from_result(result, report))
    assert "also counts what is on order" in text and "Warning: Stock cannot keep up" in text
    assert report.check("supply_keeps_up").ok is False and result.evaluations[result.recommended].fill_rate < 0.6
