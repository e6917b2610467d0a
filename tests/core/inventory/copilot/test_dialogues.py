"""Scripted dialogues with the offline Information Extraction Agent; each asserts the final table.

Dialogues are data: (name, user turns, expected values, expected final action). Expected values list the
rows the dialogue pins down; complete dialogues list all 12 and must end with TERMINATE.
"""

from __future__ import annotations

import pytest

from tests.support.extraction_dialogues import check_dialogue

RISK_Q = "Last question, about risk preference"

BASE = {
    "time_horizon": "90",
    "demand_type": "random",
    "demand_distribution": "poisson(6)",
    "perishability": "false",
    "state_transition_model": "lost_sale",
    "holding_cost": "0.5",
    "penalty_cost": "4",
    "setup_cost": "3",
    "lead_time": "4",
    "max_inventory": "80",
    "max_order": "30",
    "risk_tolerance": "2",
}


def full(**changes: str) -> dict[str, str]:
    return BASE | changes


ONE_AT_A_TIME = (
    "We run a small hardware shop and want help ordering light bulbs.",
    "It varies from day to day.",
    "Poisson with a mean of 6 per day.",
    "They just walk out and buy elsewhere.",
    "No, bulbs don't expire.",
    "90 days",
    "$0.50 per unit per day",
    "$4 per unit",
    "$3 per order",
    "4 days",
    "80",
    "30",
    "2",
)

DIALOGUES: list[tuple[str, tuple[str, ...], dict[str, str], str]] = [
    ("one_at_a_time", ONE_AT_A_TIME, full(), "TERMINATE"),
    (
        "all_at_once_then_horizon_and_risk",
        (
            "I sell phone cases online. Daily demand is random, Poisson with λ = 6 units a day. If we're out, "
            "customers go elsewhere. Holding a case costs $0.50 per unit per day, and each lost sale costs us $4. "
            "There's a flat $3 fee per shipment, and deliveries arrive 4 days after we order. We can store up to "
            "80 units, and the supplier caps a single order at 30 units. Nothing perishes.",
            "Plan for 90 days.",
            "I'd call us a 2.",
        ),
        full(),
        "TERMINATE",
    ),
    (
        "number_words",
        (
            "Demand is Poisson with mean six a day and customers won't wait, the sale is lost.",
            "nothing spoils",
            "ninety days",
            "fifty cents a unit per day",
            "four dollars per unit",
            "three dollars each order",
            "four days",
            "eighty units",
            "thirty",
            "two",
        ),
        full(),
        "TERMINATE",
    ),
    (
        "approximations",
        (
            "Demand: poisson(6). Lost sales. Non-perishable.",
            "roughly 90 days I guess",
            "about $0.5 per unit per day",
            "around $4 per unit",
            "maybe $3 per order",
            "maybe 4 days max",
            "approximately 80",
            "30 at most",
            "somewhere around 2",
        ),
        full(),
        "TERMINATE",
    ),
    (
        "months_to_days",
        ("Plan over the next 3 months. poisson(6), lost sales, no spoilage.",),
        {"time_horizon": "90", "demand_distribution": "poisson(6)"},
        "ASK NEXT QUESTION",
    ),
    (
        "quarter_to_days",
        ("Our planning horizon is a quarter.",),
        {"time_horizon": "90"},
        "ASK NEXT QUESTION",
    ),
    (
        "weeks_to_days_lead_time",
        ("Lead time is 2 weeks and the horizon is 1 year.",),
        {"lead_time": "14", "time_horizon": "365"},
        "ASK NEXT QUESTION",
    ),
    (
        "cents_to_dollars",
        ("Holding costs 50 cents per unit per day and a stockout costs 250 cents per unit.",),
        {"holding_cost": "0.5", "penalty_cost": "2.5"},
        "ASK NEXT QUESTION",
    ),
    (
        "weekly_holding_cost",
        ("Holding cost is $3.50 per unit per week.",),
        {"holding_cost": "0.5"},
        "ASK NEXT QUESTION",
    ),
    (
        "monthly_holding_cost",
        ("Storage costs us $15 per unit per month.",),
        {"holding_cost": "0.5"},
        "ASK NEXT QUESTION",
    ),
    (
        "normal_mean_sd",
        ("Daily demand is normally distributed, mean 30 and standard deviation 10.",),
        {"demand_type": "random", "demand_distribution": "normal(30,10)"},
        "ASK NEXT QUESTION",
    ),
    (
        "give_or_take",
        ("We sell around 30 a day, give or take 10.",),
        {"demand_distribution": "normal(30,10)"},
        "ASK NEXT QUESTION",
    ),
    (
        "plus_minus_uniform",
        ("Demand is ±20 around 150, uniformly.",),
        {"demand_type": "random", "demand_distribution": "uniform(130,170)"},
        "ASK NEXT QUESTION",
    ),
    (
        "between_range",
        ("Each day we sell between 10 and 20 units, uniformly.",),
        {"demand_distribution": "uniform(10,20)"},
        "ASK NEXT QUESTION",
    ),
    (
        "deterministic_demand",
        ("We sell exactly 12 units every day.",),
        {"demand_type": "deterministic", "demand_distribution": "12"},
        "ASK NEXT QUESTION",
    ),
    (
        "mean_only_then_poisson",
        ("We sell about 8 a day.", "A"),
        {"demand_type": "random", "demand_distribution": "poisson(8)"},
        "ASK NEXT QUESTION",
    ),
    (
        "mean_only_then_sd",
        ("About 8 units a day on average.", "normal, with a standard deviation of 2"),
        {"demand_distribution": "normal(8,2)"},
        "ASK NEXT QUESTION",
    ),
    (
        "mean_only_then_fixed",
        ("Demand is about 8 a day.", "it's always exactly that"),
        {"demand_type": "deterministic", "demand_distribution": "8"},
        "ASK NEXT QUESTION",
    ),
    (
        "weekly_normal_option_a",
        ("Weekly demand follows a normal distribution with mean 14 and sd 7.", "A"),
        {"demand_type": "random", "demand_distribution": "normal(2,2.6458)"},
        "ASK NEXT QUESTION",
    ),
    (
        "weekly_normal_option_b",
        ("Our weekly demand is N(14,7).", "Option B, just scale it."),
        {"demand_distribution": "normal(2,1)"},
        "ASK NEXT QUESTION",
    ),
    (
        "weekly_normal_words",
        ("We sell 70 a week, plus or minus 14.", "independent days, please (the square-root rule)"),
        {"demand_distribution": "normal(10,5.2915)"},
        "ASK NEXT QUESTION",
    ),
    (
        "weekly_poisson_exact",
        ("Poisson demand, 42 per week on average.",),
        {"demand_distribution": "poisson(6)"},
        "ASK NEXT QUESTION",
    ),
    (
        "weekly_uniform_confirmed",
        ("Weekly demand is uniform between 70 and 140.", "yes, that's fine"),
        {"demand_distribution": "uniform(10,20)"},
        "ASK NEXT QUESTION",
    ),
    (
        "example1_lost_then_both",
        (
            "I run a bike repair shop; demand for inner tubes is unpredictable.",
            "Customers usually leave if we don't have the part, so treat it as lost sales.",
            "Demand is Poisson with λ = 8. The model type should be Backlog + Lost Sale + Random Demand.",
            "Since customers leave when we run out, lost sale it is, rather than backorders.",
        ),
        {"state_transition_model": "lost_sale", "demand_distribution": "poisson(8)"},
        "ASK NEXT QUESTION",
    ),
    (
        "example1_switch_to_backlog_conflict",
        ("Customers leave when we're out.", "Customers will wait for it, they come back later.", "B"),
        {"state_transition_model": "backlog"},
        "ASK NEXT QUESTION",
    ),
    (
        "example4_keep_lost_sale",
        (
            "If we're out of stock, customers leave.",
            "Unmet demand costs us $2.80 per unit per day.",
            "Keep lost_sale. The penalty is really $2.80 one-time per lost unit.",
        ),
        {"state_transition_model": "lost_sale", "penalty_cost": "2.8"},
        "ASK NEXT QUESTION",
    ),
    (
        "example4_switch_to_backlog",
        (
            "Customers leave when we run out, and each shortage costs $2.80 per unit per day.",
            "B, make it a backlog",
        ),
        {"state_transition_model": "backlog", "penalty_cost": "2.8"},
        "ASK NEXT QUESTION",
    ),
    (
        "example5_confirm_new_horizon",
        (
            "Let's plan for 30 days.",
            "The planning time horizon is 90 days.",
            "Use 90 days for the planning time horizon.",
        ),
        {"time_horizon": "90"},
        "ASK NEXT QUESTION",
    ),
    (
        "example5_keep_old_horizon",
        ("Horizon: 30 days.", "We plan for 90 days.", "Keep the original, sorry."),
        {"time_horizon": "30"},
        "ASK NEXT QUESTION",
    ),
    (
        "correction_make_that",
        ("Plan for 60 days.", "actually make that 90 days"),
        {"time_horizon": "90"},
        "ASK NEXT QUESTION",
    ),
    (
        "correction_explicit_key",
        ("Lead time is 5 days.", "Sorry, I meant the lead time is 3 days."),
        {"lead_time": "3"},
        "ASK NEXT QUESTION",
    ),
    (
        "negative_lead_time_reasked",
        ("Lead time is -2 days.", "OK, 2 days then."),
        {"lead_time": "2"},
        "ASK NEXT QUESTION",
    ),
    (
        "risk_out_of_range_reasked",
        (*ONE_AT_A_TIME[:-1], "50", "minus three"),
        full(risk_tolerance="-3"),
        "TERMINATE",
    ),
    (
        "max_order_above_capacity",
        ("Our warehouse holds at most 50 units.", "The maximum order is 80 units."),
        {"max_inventory": "50", "max_order": "80"},  # both kept: the storage binds every order
        "ASK NEXT QUESTION",
    ),
    (
        "unparseable_then_answer",
        ("Lead time", "hmm, not sure", "about 6 days"),
        {"lead_time": "6"},
        "ASK NEXT QUESTION",
    ),
    (
        "spoils_after_a_day",
        ("Our bread spoils after a day.",),
        {"perishability": "true"},
        "ASK NEXT QUESTION",
    ),
    (
        "shelf_life_week_non_perishable",
        ("The yogurt expires after 7 days.", "B"),
        {"perishability": "false"},
        "ASK NEXT QUESTION",
    ),
    (
        "customers_wait_backlog",
        ("Customers are happy to wait for a backorder.",),
        {"state_transition_model": "backlog"},
        "ASK NEXT QUESTION",
    ),
    (
        "no_setup_cost_and_next_day_delivery",
        ("There is no fixed ordering cost, and the supplier delivers overnight.",),
        {"setup_cost": "0", "lead_time": "1"},
        "ASK NEXT QUESTION",
    ),
    (
        "backlog_full_with_daily_penalty",
        (
            "Demand is normal(20,5) per day, customers are willing to wait, and items don't expire.",
            "Horizon 60 days; holding $1 per unit per day; backorders cost $6 per unit per day; ordering costs $10 per order.",
            "Deliveries take 3 days. Storage capacity is 200 units and the largest order is 100 units.",
            "Risk: 0",
        ),
        {
            "time_horizon": "60",
            "demand_type": "random",
            "demand_distribution": "normal(20,5)",
            "perishability": "false",
            "state_transition_model": "backlog",
            "holding_cost": "1",
            "penalty_cost": "6",
            "setup_cost": "10",
            "lead_time": "3",
            "max_inventory": "200",
            "max_order": "100",
            "risk_tolerance": "0",
        },
        "TERMINATE",
    ),
    (
        "perishable_deterministic_full",
        (
            "We bake fresh croissants that must be thrown out at the end of each day. We sell exactly 40 every day.",
            "Unsold demand is simply lost, people buy elsewhere.",
            "30 days",
            "holding is 10 cents per croissant per day",
            "a lost sale costs $2 per unit",
            "$5 per delivery",
            "next day",
            "we can keep 60 at most",
            "50",
            "-4",
        ),
        {
            "time_horizon": "30",
            "demand_type": "deterministic",
            "demand_distribution": "40",
            "perishability": "true",
            "state_transition_model": "lost_sale",
            "holding_cost": "0.1",
            "penalty_cost": "2",
            "setup_cost": "5",
            "lead_time": "1",
            "max_inventory": "60",
            "max_order": "50",
            "risk_tolerance": "-4",
        },
        "TERMINATE",
    ),
    (
        "correction_after_terminate",
        (*ONE_AT_A_TIME, "Actually the lead time is 6 days."),
        full(lead_time="6"),
        "TERMINATE",
    ),
    (
        "restated_same_value_no_conflict",
        ("Lead time is 4 days.", "As I said, the lead time is 4 days."),
        {"lead_time": "4"},
        "ASK NEXT QUESTION",
    ),
    (
        "risk_neutral_word",
        (*ONE_AT_A_TIME[:-1], "we're pretty much neutral"),
        full(risk_tolerance="0"),
        "TERMINATE",
    ),
    (
        "thousands_separator_capacity",
        ("Our warehouse capacity is 1,200 units and the supplier ships at most 300 units per order.",),
        {"max_inventory": "1200", "max_order": "300"},
        "ASK NEXT QUESTION",
    ),
]


@pytest.mark.parametrize(("name", "turns", "expected", "action"), DIALOGUES, ids=[d[0] for d in DIALOGUES])
def test_dialogue(name: str, turns: tuple[str, ...], expected: dict[str, str], action: str) -> None:
    check_dialogue(turns, expected, action)


def test_there_are_at_least_forty_dialogues() -> None:
    assert len(DIALOGUES) >= 40
    assert len({d[0] for d in DIALOGUES}) == len(DIALOGUES)
