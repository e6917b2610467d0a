"""Phrasing families the offline agent used to misread: storage said as 'what we keep in the back', estimates
hedged in risk words, spreads stated apart from the mean, self-corrections inside one message, colloquial
money and competitors named by place. Each dialogue asserts the rows it talks about (None = not stored)."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from tests.support.extraction_dialogues import check_dialogue

ASK = "ASK NEXT QUESTION"
CLARIFY = "ASK CLARIFICATION"
TERMINATE = "TERMINATE"
# answers the agent's questions in its order: demand, transition, perishability, horizon, holding, penalty
# (lost sale), setup, lead time, capacity, max order
UP_TO_LEAD = ("Poisson, 5 a day", "customers leave", "no", "30 days", "$1", "$5", "$10", "2 days")

DIALOGUES: list[tuple[str, tuple[str, ...], dict[str, str | None], str]] = [
    ("keep_in_the_back", ("we keep around 100 in the back",), {"max_inventory": "100"}, ASK),
    (
        "carry_on_the_shelves",
        ("we usually carry about 60 units on the shelves",),
        {"max_inventory": "60"},
        ASK,
    ),
    ("never_keep_more_than", ("we never keep more than 80",), {"max_inventory": "80"}, ASK),
    ("stock_room_space", ("Our stock room has space for about 200 boxes",), {"max_inventory": "200"}, ASK),
    (
        "keep_in_the_back_as_the_capacity_answer",
        (*UP_TO_LEAD, "we keep around 100 in the back"),
        {"max_inventory": "100", "max_order": None, "risk_tolerance": None},
        ASK,
    ),
    (
        "conservative_estimate_is_demand",
        ("a conservative estimate is 20 a day", "A"),
        {"demand_distribution": "poisson(20)", "risk_tolerance": None},
        ASK,
    ),
    (
        "to_be_safe_is_demand",
        ("to be safe, say 15 a day, Poisson",),
        {"demand_distribution": "poisson(15)", "risk_tolerance": None},
        ASK,
    ),
    (
        "rough_guess_with_spread",
        ("my rough guess would be 12 per day, give or take 4",),
        {"demand_distribution": "normal(12,4)", "risk_tolerance": None},
        ASK,
    ),
    (
        "realistically_plus_or_minus",
        ("realistically we move 30 units per day, plus or minus 6",),
        {"demand_distribution": "normal(30,6)"},
        ASK,
    ),
    (
        "conservative_estimate_as_the_risk_answer_still_demand_free",
        (*UP_TO_LEAD, "100", "50", "a conservative estimate would be -4"),
        {"risk_tolerance": "-4", "demand_distribution": "poisson(5)"},
        TERMINATE,
    ),
    (
        "conservative_side_is_risk",
        ("I'm on the conservative side", "yes"),
        {"risk_tolerance": "-5", "demand_distribution": None},
        ASK,
    ),
    (
        "spread_after_filler",
        ("About 20 cartons a day, could be a few more or less, I'd say give or take 5.",),
        {"demand_distribution": "normal(20,5)"},
        ASK,
    ),
    (
        "competitor_down_the_road",
        ("if we're out they just go to the Tesco down the road",),
        {"state_transition_model": "lost_sale"},
        ASK,
    ),
    (
        "corrected_horizon_in_one_message",
        ("let's plan for two weeks, no wait, make that a month",),
        {"time_horizon": "30"},
        ASK,
    ),
    ("corrected_capacity_in_one_message", ("we can store 100, sorry, 120",), {"max_inventory": "120"}, ASK),
    (
        "two_durations_without_correction",
        ("plan for 30 days, deliveries take 2 days",),
        {"time_horizon": "30", "lead_time": "2"},
        ASK,
    ),
    (
        "dime_a_day",
        ("keeping one in the fridge costs a dime a day",),
        {"holding_cost": "0.1"},
        ASK,
    ),
    (
        "lost_sale_then_amount",
        ("lost sale 5 dollars",),
        {"penalty_cost": "5", "state_transition_model": "lost_sale"},
        ASK,
    ),
    (
        "per_lost_sale_without_currency",
        (*UP_TO_LEAD[:5], "7 per lost sale"),
        {"penalty_cost": "7"},
        ASK,
    ),
    (
        "fee_per_order_is_no_horizon",
        ("Poisson, 5 a day", "customers leave", "no", "10 per order"),
        {"time_horizon": None},
        ASK,
    ),
    ("losing_a_sale_costs", ("losing a sale costs us 3 dollars",), {"penalty_cost": "3"}, ASK),
    ("missing_a_sale_costs", ("missing a sale costs $3",), {"penalty_cost": "3"}, ASK),
    ("every_sale_we_miss", ("we lose $3 for every sale we miss",), {"penalty_cost": "3"}, ASK),
    ("charge_for_each_order", ("there is a 10 dollar charge for each order",), {"setup_cost": "10"}, ASK),
    ("order_has_a_fee", ("ordering has a 10 dollar fee",), {"setup_cost": "10"}, ASK),
    ("plan_over_the_next_quarter", ("we want to plan over the next quarter",), {"time_horizon": "90"}, ASK),
    ("the_next_year", ("Poisson, 5 a day. The next year, please.",), {"time_horizon": "365"}, ASK),
    ("for_the_next_month", ("let's do it for the next month",), {"time_horizon": "30"}, ASK),
    ("months_ahead", ("look 3 months ahead",), {"time_horizon": "90"}, ASK),
    (
        "next_day_delivery_is_no_horizon",
        ("next-day delivery",),
        {"lead_time": "1", "time_horizon": None},
        ASK,
    ),
    (
        "a_florist_in_one_message",
        (
            "We're a flower stall. We sell around 30 bunches a day, Poisson, and they wilt overnight. Losing a "
            "sale costs us about 4 dollars, there is a 15 dollar charge for each order, keeping a bunch costs 20 "
            "cents a day, next-day delivery, and we want to plan over the next quarter.",
        ),
        {
            "penalty_cost": "4",
            "setup_cost": "15",
            "holding_cost": "0.2",
            "lead_time": "1",
            "time_horizon": "90",
            "perishability": "true",
            "demand_distribution": "poisson(30)",
        },
        ASK,
    ),
    (
        "shelf_life_after_a_correction",
        ("milk goes off, so whatever we don't sell is binned... well actually it keeps about 5 days",),
        {"perishability": None},
        CLARIFY,
    ),
]


@pytest.mark.parametrize(("name", "turns", "expected", "action"), DIALOGUES, ids=[d[0] for d in DIALOGUES])
def test_phrasing_dialogue(
    name: str, turns: tuple[str, ...], expected: dict[str, str | None], action: str
) -> None:
    check_dialogue(turns, expected, action)


def test_a_bare_duration_with_both_duration_rows_open_asks_which_one() -> None:
    turn = ExtractionAgent().respond("90 days")
    assert turn.table["time_horizon"]["value"] is None and turn.table["lead_time"]["value"] is None
    assert "planning horizon or the delivery lead time" in turn.assistant


def test_a_rambling_shop_owner_gets_a_complete_table() -> None:
    turns = (
        "Hi, so I run a corner shop, twenty years now, my wife says I overthink the milk orders. Anyway. A "
        "conservative estimate is 20 cartons a day, could be a few more or less, I'd say give or take 5.",
        "if we're out they just go to the Tesco down the road",
        "milk goes off, whatever we don't sell is binned... well actually it keeps about 5 days",
        "B",
        "let's plan for two weeks, no wait, make that a month",
        "keeping one in the fridge costs maybe a dime a day",
        "a lost sale is about 80 cents of profit gone",
        "the dairy charges a flat twelve dollars per delivery",
        "-2 days",
        "next day",
        "we keep around 100 in the back",
        "they'll bring up to 150 per drop",
        "I'm pretty cautious",
        "yes",
    )
    expected = {
        "time_horizon": "30",
        "demand_type": "random",
        "demand_distribution": "normal(20,5)",
        "perishability": "false",
        "state_transition_model": "lost_sale",
        "holding_cost": "0.1",
        "penalty_cost": "0.8",
        "setup_cost": "12",
        "lead_time": "1",
        "max_inventory": "100",
        "max_order": "150",  # above the storage: kept as said, the storage binds every order
        "risk_tolerance": "-5",
    }
    check_dialogue(turns, expected, TERMINATE)
