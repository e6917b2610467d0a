"""Regression dialogues for the extraction agent's review: nothing wrong is stored silently, a clarification is
only settled by a reply about its own row, cross-row sanity, and the NLU gaps managers hit.

Each case is data: (name, user turns, expected rows (None = still undefined), final action, words the last
assistant message must contain). `FILLED` stands for a message that fills every row but the risk tolerance.
"""

from __future__ import annotations

import pytest

from core.errors import SpecError
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.nlu.row_units import canonical_unit
from core.inventory.table import ParameterTable
from core.text.numbers import words_to_digits
from core.text.ranges import split_range
from core.text.units import spoken_money

ASK, CLARIFY, TERMINATE = "ASK NEXT QUESTION", "ASK CLARIFICATION", "TERMINATE"
FILLED = (
    "Poisson demand, 3 a day; customers leave when we are out; holding costs $0.50 per unit per day; a lost "
    "sale costs $4; $3 fee per shipment; deliveries arrive 1 day after we order; we can store up to 15 units; "
    "the supplier caps a single order at 10 units; nothing perishes; plan for 20 days"
)
BACKLOG_FILLED = FILLED.replace("customers leave when we are out", "customers wait for a restock").replace(
    "; a lost sale costs $4", ""
)

CASES: list[tuple[str, tuple[str, ...], dict[str, str | None], str, tuple[str, ...]]] = [
    # 1. wrong values stored silently
    ("minus_lead_time", ("Lead time is minus 3 days",), {"lead_time": None}, ASK, ("negative",)),
    ("negative_word_lead_time", ("lead time is negative three",), {"lead_time": None}, ASK, ("negative",)),
    (
        "dollar_fifty",
        ("we pay a dollar fifty for every unit we run out of",),
        {"penalty_cost": "1.5"},
        ASK,
        (),
    ),
    ("k_suffix", ("ordering costs 1.5k per order",), {"setup_cost": "1500"}, ASK, ()),
    (
        "lead_time_range_asks",
        ("lead time between 2 and 4 days",),
        {"lead_time": None},
        CLARIFY,
        ("(A) 2 days", "(B) 4 days"),
    ),
    ("lead_time_range_answered", ("lead time between 2 and 4 days", "3"), {"lead_time": "3"}, ASK, ()),
    ("risk_range_asks", (FILLED, "somewhere between 2 and 4"), {"risk_tolerance": None}, CLARIFY, ("(B) 4",)),
    (
        "order_question_is_no_risk_answer",
        (FILLED, "current inventory 4, day 4, no incoming orders"),
        {"risk_tolerance": None},
        ASK,
        ("once the parameter table is complete", "risk preference"),
    ),
    # 2. a reply about another row does not settle a clarification
    (
        "capacity_reply_keeps_lead_time_conflict",
        ("lead time is 2 days", "lead time is 5 days", "we store at most 5 units"),
        {"lead_time": "2", "max_inventory": "5"},
        CLARIFY,
        ("(A) keep 2",),
    ),
    (
        "lead_time_reply_keeps_horizon_conflict",
        ("We plan for 30 days", "Our planning time horizon is 90 days.", "the lead time is 30 days"),
        {"time_horizon": "30", "lead_time": None},
        CLARIFY,
        ("(B) change to 90",),
    ),
    (
        "horizon_reply_keeps_lead_time_conflict",
        ("We plan for 30 days", "lead time is 2 days", "lead time 5 days", "horizon is 0 days"),
        {"time_horizon": "30", "lead_time": "2"},
        CLARIFY,
        ("at least 1 day", "(B) change to 5"),
    ),
    # 3. lead time must be shorter than the horizon
    (
        "lead_time_beyond_horizon",
        ("horizon 42 days, lead time 300 days",),
        {"time_horizon": "42", "lead_time": None},
        ASK,
        ("planning horizon", "no order could arrive"),
    ),
    (
        "horizon_below_lead_time",
        ("lead time 4 days", "we plan for 3 days"),
        {"time_horizon": None, "lead_time": "4"},
        ASK,
        ("time horizon", "no order could arrive"),
    ),
    # 4. capacity below the max order: both kept, the storage binds
    (
        "capacity_below_order",
        ("Max order 20", "capacity 10"),
        {"max_inventory": "10", "max_order": "20"},
        ASK,
        ("at most 10 units",),
    ),
    (
        "order_and_smaller_capacity_in_one_message",
        ("the max order is 50 units and storage holds 40",),
        {"max_inventory": "40", "max_order": "50"},
        ASK,
        ("at most 40 units",),
    ),
    # 5. (offline half) risk must be a whole number
    ("fractional_risk", (FILLED, "7.5"), {"risk_tolerance": None}, ASK, ("whole number",)),
    # 6. NLU gaps
    ("dollar_and_a_half", ("a dollar and a half per lost unit",), {"penalty_cost": "1.5"}, ASK, ()),
    ("delivery_is_amount", ("each delivery is $1,200",), {"setup_cost": "1200"}, ASK, ()),
    ("takes_a_week", ("it takes a week to get an order",), {"lead_time": "7"}, ASK, ()),
    ("dash_range", ("deliveries take 3-5 days",), {"lead_time": None}, CLARIFY, ("(A) 3 days",)),
    (
        "couple_of_days",
        ("lead time is a couple of days",),
        {"lead_time": "2"},
        ASK,
        ("'a couple' taken as 2",),
    ),
    (
        "no_order_limit_before_capacity",
        ("no limit on order size", "we can store 40 units"),
        {"max_inventory": "40", "max_order": "40"},
        ASK,
        ("no limit on order size",),
    ),
    (
        "no_order_limit_after_capacity",
        ("we can store 40 units", "no limit on order size"),
        {"max_order": "40"},
        ASK,
        ("storage capacity",),
    ),
    (
        "second_one",
        ("weekly demand is normal with mean 70 and sd 14", "the second one"),
        {"demand_distribution": "normal(10,2)"},
        ASK,
        (),
    ),
    ("oops_correction", ("lead time 3 days", "oops, 4"), {"lead_time": "4"}, ASK, ()),
    (
        "sorry_i_meant_last_answer",
        ("lead time 3 days", "capacity 30", "ah sorry, I meant 50"),
        {"lead_time": "3", "max_inventory": "50"},
        ASK,
        (),
    ),
    (
        "sorry_alone_still_answers_the_question",
        (FILLED.replace("we can store up to 15 units; ", ""), "sorry, 40"),
        {"max_inventory": "40", "lead_time": "1"},
        ASK,
        ("risk preference",),
    ),
    (
        "trailing_bare_horizon",
        (
            "Poisson demand 3 a day, customers leave, holding $0.5 per unit per day, each lost sale costs $4, "
            "$3 per order, lead time 2 days, we store 40 units, max order 20, nothing expires, 90 days.",
        ),
        {"time_horizon": "90", "lead_time": "2"},
        ASK,
        ("risk preference",),
    ),
    # 7. backlog charged once per unit
    (
        "backlog_per_unit_asks",
        ("customers wait, the delay costs us $1 per unit",),
        {"state_transition_model": "backlog", "penalty_cost": "1"},
        CLARIFY,
        ("per unit per day",),
    ),
    (
        "backlog_bare_answer_is_daily",
        (BACKLOG_FILLED, "$2", "0"),
        {"penalty_cost": "2", "risk_tolerance": "0"},
        TERMINATE,
        ("cost of a unit short: 2 USD/unit/day",),
    ),
    # 8. a narrative opening
    (
        "narrative_opening",
        ("Hi, I run a small bakery and want help with ordering flour.",),
        {},
        ASK,
        ("Thanks for telling me", "daily demand"),
    ),
]


@pytest.mark.parametrize(("name", "turns", "expected", "action", "says"), CASES, ids=[c[0] for c in CASES])
def test_review_dialogue(
    name: str, turns: tuple[str, ...], expected: dict[str, str | None], action: str, says: tuple[str, ...]
) -> None:
    agent = ExtractionAgent()
    agent.greeting()
    for text in turns:
        turn = agent.respond(text)
    values = {k: row["value"] for k, row in turn.table.items()}
    assert {k: values[k] for k in expected} == expected, turn.assistant
    assert turn.action == action, turn.assistant
    for words in says:
        assert words in turn.assistant
    assert "Sorry, I could not find" not in turn.assistant


def test_error_sentence_not_repeated() -> None:
    agent = ExtractionAgent()
    turn = agent.respond("the penalty is a lot and the penalty is high")
    assert turn.assistant.count("I can't use that") == 1


def test_units_and_signs_read() -> None:
    assert words_to_digits("minus 3 and negative four, plus or minus 2") == "-3 and -4, plus or minus 2"
    assert words_to_digits("1.5k and 2 thousand and $3K") == "1500 and 2000 and $3000"
    assert spoken_money("a dollar 50 and 2 dollars and 25 cents") == "1.5 dollar and 2.25 dollars"
    assert split_range("between 2 and 4 days") == ("2 days", "4 days")
    assert split_range("-10 to 10, I am a 3", scale=True) is None


def test_cell_units_converted_or_rejected() -> None:
    assert canonical_unit("holding_cost", "0.7", "USD/unit/week", "USD/unit/day") == ("0.1", "USD/unit/day")
    assert canonical_unit("time_horizon", "3", "months", "days") == ("90", "days")
    with pytest.raises(SpecError):
        canonical_unit("setup_cost", "3", "USD/unit", "USD/order")
    table = ParameterTable()
    assert table.set("holding_cost", "0.7", "USD/unit/week") == "0.1"
    assert table.rows["holding_cost"].unit == "USD/unit/day"
    with pytest.raises(SpecError, match="whole number"):
        table.set("risk_tolerance", "7.5")
    table.set("time_horizon", "30")
    with pytest.raises(SpecError, match="no order could arrive") as err:
        table.set("lead_time", "30")
    assert err.value.field == "lead_time"
    table.set("max_order", "20")
    table.set("max_inventory", "10")  # a cap above the storage is kept: the storage binds every order
    assert (table.value("max_order"), table.value("max_inventory")) == ("20", "10")
