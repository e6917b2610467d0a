"""Issue 27: every claim in an explanation is generated from the engine's numbers and agrees with them — a
fill rate of 48% never 'keeps the shelf stocked', a rule that is cheaper on average never 'costs more'."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.inventory.copilot.policy_answers import answer_question
from core.inventory.copilot.policy_explanation import (
    compare_words,
    dqn_overview,
    explanation,
    rule_sentence,
    service_words,
    why_words,
)
from solvers.inventory.spec import format_number
from tests.core.inventory.copilot.test_interpretation import SMALL
from tests.core.inventory.copilot.test_policy_words import _brief_for

_COST = st.floats(min_value=1.0, max_value=1e5, allow_nan=False)


def _direction(clause: str) -> int:
    """+1 for 'more', -1 for 'less', 0 for 'about the same'."""
    if "about the same" in clause:
        return 0
    return 1 if re.search(r"% more\b", clause) else -1 if re.search(r"% less\b", clause) else 99


def _expected(new: float, old: float) -> int:
    pct = 100 * (new - old) / old
    return 0 if round(abs(pct), 1) == 0 else (1 if pct > 0 else -1)


@given(_COST, _COST, _COST, _COST, st.sampled_from(["mean", "objective"]))
def test_the_words_of_a_cost_comparison_follow_the_signs_of_the_numbers(
    other_mean: float, rec_mean: float, other_obj: float, rec_obj: float, lead: str
) -> None:
    said = compare_words(other_mean, rec_mean, other_obj, rec_obj, lead=lead)
    first, _, second = said.partition(" (" if lead == "mean" else ", though ")
    mean_part, obj_part = (first, second) if lead == "mean" else (second, first)
    if mean_part:
        assert _direction(mean_part) == _expected(other_mean, rec_mean)
    if obj_part:
        assert _direction(obj_part) == _expected(other_obj, rec_obj)
    assert mean_part or obj_part


@given(st.floats(min_value=0.0, max_value=100.0, allow_nan=False))
def test_the_shelf_is_called_stocked_only_when_the_fill_rate_says_so(fill: float) -> None:
    said = service_words(fill)
    assert ("keeps the shelf stocked" in said) is (fill >= 80)
    assert f"{fill:.1f}%" in said


def _with_costs(brief, key: str, **values: float):
    costs = {k: dict(v) for k, v in brief.costs.items()}
    costs[key].update(values)
    return replace(brief, costs=costs)


def test_a_steady_order_serving_half_of_demand_does_not_keep_the_shelf_stocked() -> None:
    brief = _with_costs(_brief_for(SMALL, "constant"), "constant", fill_rate=0.483)
    said = why_words(brief)
    assert "keeps the shelf stocked" not in said and "48.3%" in said


def test_a_simple_rule_cheaper_on_average_is_never_said_to_cost_more_on_average() -> None:
    brief = _brief_for(SMALL, "base_stock")
    rec = brief.costs["base_stock"]
    brief = _with_costs(brief, "sS", mean=rec["mean"] * 0.99, objective=rec["objective"] * 1.002)
    text = explanation(brief)
    sentence = next(s for s in text.split("\n\n") if s.startswith("For comparison"))
    assert "1.0% less on average" in sentence and "0.2% more in the objective" in sentence
    answer = answer_question(brief, "I don't trust this, something simpler please")
    assert "% more" not in answer  # the rule offered here is cheaper on average and in the objective


def test_a_summary_rule_cheaper_than_the_exact_plan_is_never_said_to_cost_more() -> None:
    brief = _brief_for(SMALL, "sS")
    for gap, want in ((-1.2, "costs about 1.2% less than the exact plan"), (0.0, "costs about the same as the exact")):
        rule = {"kind": "table", "ordered": True, "last_order_day": 18, "steady_order": 3, "summary_gap_pct": gap}
        said = rule_sentence(replace(brief, rule=rule))
        assert want in said and "% more" not in said


def test_the_dqn_is_called_cheaper_than_s_s_only_when_its_average_is_lower() -> None:
    brief = _brief_for(SMALL, "sS")
    ss = brief.costs["sS"]
    costs = {**brief.costs, "dqn": dict(ss, mean=ss["mean"] * 1.05, objective=ss["objective"] * 0.9)}
    said = dqn_overview(replace(brief, costs=costs, recommended="dqn", scenario="B"))
    assert "lower than the standard (s,S)" not in said and "5.0% more than the standard (s,S)" in said
    costs["dqn"] = dict(ss, mean=ss["mean"] * 0.9)
    assert "lower than the standard (s,S)" in dqn_overview(replace(brief, costs=costs, scenario="B"))


@pytest.mark.parametrize(("penalty", "holding"), [(4.0, 0.5), (0.6, 0.5), (4.0, 0.0)])
def test_why_a_buffer_pays_is_said_with_the_two_costs(penalty: float, holding: float) -> None:
    brief = _brief_for(SMALL, "sS")
    problem = replace(brief.problem, penalty_cost=penalty, holding_cost=holding)
    rule = {"kind": "sS", "s": 20, "S": 30, "cutoff": False}  # 20 is above the lead-time demand of 6
    said = why_words(replace(brief, problem=problem, rule=rule))
    assert "a few days" not in said and f"${format_number(penalty)}" in said
    if holding and penalty / holding >= 2:
        assert f"about {penalty / holding:.0f} days" in said


def test_a_fixed_order_is_never_said_to_react_to_the_stock() -> None:
    brief = _brief_for(SMALL, "constant")
    said = answer_question(brief, "what if demand doubles next week?")
    assert "I simulated" in said and "reacts to lower stock" not in said and "does not react" in said
    reacting = answer_question(_brief_for(SMALL | {"lead_time": "0"}, "sS"), "what if demand doubles next week?")
    assert "reacts to lower stock" in reacting and "the same day" in reacting and "lead time to arrive" not in reacting


def test_a_steady_exact_plan_is_not_said_to_beat_reacting_to_stock() -> None:
    brief = _brief_for(SMALL, "sS")
    rule = {"kind": "table", "ordered": True, "last_order_day": 18, "steady_order": 3, "summary_gap_pct": 0.4}
    said = why_words(replace(brief, rule=rule))
    assert "beats reacting" not in said and "hardly reacts" in said
