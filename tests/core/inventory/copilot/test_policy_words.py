"""The explanation's words agree with the engine: the end-of-plan cutoff is counted as the engine counts it
(checked against a simulated order trace), the first line says what to do in units, and policy names and
parameter values read as plain words (issue 11, items 1 and 2)."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from core.inventory.copilot.critic import critique
from core.inventory.copilot.policy_brief import brief_from_result, policy_rule
from core.inventory.copilot.policy_explanation import action_sentence, explanation, rule_sentence
from core.inventory.policy_names import cutoff_days, plain_name, plain_value
from solvers.inventory.agent import optimize
from solvers.inventory.montecarlo import demand_matrix, simulate_policy
from solvers.inventory.parameters import PARAMETER_LABELS
from solvers.inventory.policies import BaseStockPolicy, SSPolicy
from solvers.inventory.spec import problem_from_table, table_from_problem
from tests.core.inventory.copilot.test_interpretation import SMALL


def _brief_for(table: dict[str, str], policy_key: str):
    res = optimize(problem_from_table(table), paths=200, seed=0, use_dqn=False, use_dp=False, final_paths=200)
    res = replace(res, recommended=policy_key, recommended_policy=res.evaluations[policy_key].policy)
    return brief_from_result(res, critique(res, table_from_problem(res.problem)))


def _stated_stop_days(text: str) -> int:
    if "On the last day of the plan, order nothing" in text:
        return 1
    m = re.search(r"In the last (\d+) days of the plan, order nothing", text)
    return int(m.group(1)) if m else 0


@pytest.mark.parametrize("lead", [0, 1, 3])
def test_the_cutoff_sentence_matches_the_simulated_order_trace(lead: int) -> None:
    table = SMALL | {"lead_time": str(lead), "time_horizon": "12"}
    brief = _brief_for(table, "sS_cutoff")
    p = brief.problem
    text = rule_sentence(brief)
    trace = simulate_policy(p, SSPolicy(brief.rule["s"], brief.rule["S"], cutoff=True), demand_matrix(p, 200, 1),
                            record=200).trajectory
    nothing_after = p.time_horizon
    while nothing_after > 0 and not trace.orders[:, nothing_after - 1].any():
        nothing_after -= 1
    # the engine blocks exactly the days the text names: none of them sees an order, the day before does
    stated = _stated_stop_days(text)
    assert stated == cutoff_days(p) == lead
    assert not trace.orders[:, p.time_horizon - stated:].any()
    if stated:
        assert trace.orders[:, p.time_horizon - stated - 1].any()


def test_a_perishable_capped_base_stock_rule_leads_with_the_daily_order() -> None:
    table = SMALL | {"perishability": "true", "lead_time": "1", "time_horizon": "14",
                     "demand_distribution": "normal(30,8)", "max_inventory": "60", "max_order": "24"}
    brief = _brief_for(table, "base_stock_cutoff")
    policy = BaseStockPolicy(48, cap=24, cutoff=True)
    brief = replace(brief, rule=policy_rule(brief.problem, "base_stock_cutoff", policy, 0),
                    recommended_policy="base_stock(48,cap=24)+cutoff", policy=policy)
    assert brief.rule["daily_order"] == 24
    first = explanation(brief).split("\n\n")[0]
    assert first == "**What to do:** Order 24 units every day (none on the last day)."
    trace = simulate_policy(brief.problem, policy, demand_matrix(brief.problem, 50, 3), record=50).trajectory
    assert set(np.unique(trace.orders[:, :-1]).tolist()) == {24} and not trace.orders[:, -1].any()


def test_policy_names_and_parameters_are_plain_words() -> None:
    p = problem_from_table(SMALL | {"lead_time": "1"})
    assert plain_name("base_stock(48,cap=24)+cutoff", p) == "order up to 48, at most 24 a day, none on the last day"
    assert plain_name("sS(8,20)") == "when below 8, top up to 20"
    assert plain_name("constant(25)") == "order 25 every day"
    assert plain_name("dp") == "exact optimal plan"
    assert plain_value("demand_distribution", "normal(20,7.5593)") == "about 20 a day, give or take 7.6"
    assert PARAMETER_LABELS["holding_cost"] == "Holding cost per unit per day"
    assert all("_" not in label for label in PARAMETER_LABELS.values())


def test_the_action_sentence_of_an_ss_rule_names_its_levels() -> None:
    brief = _brief_for(SMALL, "sS")
    text = action_sentence(brief)
    assert (f"below {brief.rule['s']}" in text and f"{brief.rule['S']} units" in text) or "every day" in text
