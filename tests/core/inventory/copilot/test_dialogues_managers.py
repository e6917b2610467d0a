"""Robustness dialogues: small-business managers describing their item in their own words.

Each dialogue is data: (name, user turns, expected values, expected final action). Complete dialogues
list all 12 rows and end with TERMINATE; partial ones pin the rows they talk about (None = still
undefined, so nothing was stored silently).

Conventions these dialogues pin down:
- Currency: '$', 'dollars', 'bucks', 'cents', 'half a dollar', '€' and 'euros' are all read as the
  model's single money unit at face value (no exchange rate); the agent says so for non-dollar amounts.
- Time: a week = 7 days, a month = 30, a quarter = 90, a year = 365; a business week = 5 days
  (business days count as days); 'next day' / 'overnight' = 1 day, 'same-day' = 0.
- Risk words map onto the -10..10 scale by strength (a bit ±2, plain or 'pretty' ±5, 'very' ±8) and
  the agent asks the user to confirm the number (or give their own) before storing it.
"""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from tests.support.extraction_dialogues import check_dialogue

TERMINATE = "TERMINATE"
ASK = "ASK NEXT QUESTION"
CLARIFY = "ASK CLARIFICATION"


def shop(
    horizon: str,
    demand: str,
    perishable: str,
    model: str,
    holding: str,
    penalty: str,
    setup: str,
    lead: str,
    capacity: str,
    max_order: str,
    risk: str,
) -> dict[str, str]:
    """A complete expected table (the demand type follows from the distribution)."""
    return {
        "time_horizon": horizon,
        "demand_type": "random" if "(" in demand else "deterministic",
        "demand_distribution": demand,
        "perishability": perishable,
        "state_transition_model": model,
        "holding_cost": holding,
        "penalty_cost": penalty,
        "setup_cost": setup,
        "lead_time": lead,
        "max_inventory": capacity,
        "max_order": max_order,
        "risk_tolerance": risk,
    }


DIALOGUES: list[tuple[str, tuple[str, ...], dict[str, str | None], str]] = [
    (
        "bakery_sourdough_terse",
        (
            "Sourdough loaves.",
            "it varies",
            "25 a day give or take 5",
            "stockouts mean the sale is gone",
            "it goes bad overnight",
            "a month",
            "costs me 10 cents a day to keep one on the shelf",
            "I lose $4 of profit on every missed sale",
            "flat $5 per order",
            "it arrives the next day",
            "room for 40 loaves",
            "can't take more than 30 per delivery",
            "I'm pretty risk-averse",
            "yes",
        ),
        shop("30", "normal(25,5)", "true", "lost_sale", "0.1", "4", "5", "1", "40", "30", "-5"),
        TERMINATE,
    ),
    (
        "bike_shop_chatty_paragraph",
        (
            "Hi! I run a little bike shop and want to get smarter about inner tubes. We sell somewhere "
            "between 4 and 12 a day, pretty evenly spread. If we're out, people will come back for it "
            "later, they're loyal. Tubes keep for ages. Keeping one in stock costs about 2 cents a day, "
            "and every day a customer waits for a backordered tube costs me 50 cents in goodwill. The "
            "distributor charges a flat $8 per order and deliveries take 3 days. The back room holds 60 "
            "tubes and the distributor caps orders at 25. Let's plan for a quarter.",
            "I don't mind gambling a bit",
            "sure",
        ),
        shop("90", "uniform(4,12)", "false", "backlog", "0.02", "0.5", "8", "3", "60", "25", "2"),
        TERMINATE,
    ),
    (
        "pharmacy_dash_list",
        (
            "Flu test kits at our pharmacy:\n"
            "– demand: Poisson, about 6 per day\n"
            "– if we're out, patients wait for us to reorder\n"
            "– the kits don't expire\n"
            "– horizon: 180 days\n"
            "– holding: $0.25 per kit per day\n"
            "– backorder penalty: $1.50 per kit per day\n"
            "– ordering fee: $12 per order\n"
            "– lead time – 2 days\n"
            "– shelf space: 50 kits\n"
            "– max order: 20 kits",
            "-6",
        ),
        shop("180", "poisson(6)", "false", "backlog", "0.25", "1.5", "12", "2", "50", "20", "-6"),
        TERMINATE,
    ),
    (
        "hardware_screws_one_at_a_time",
        (
            "Hardware store here, I'm asking about boxes of wood screws.",
            "It's steady: exactly twelve boxes a day.",
            "they just go to another store",
            "screws don't go off",
            "two quarters",
            "$1.50 a month per box",
            "1.5 bucks per box we can't sell",
            "$20 each delivery",
            "one business week",
            "the back room holds 60",
            "supplier caps orders at 25",
            "zero, I'm neutral",
        ),
        shop("180", "12", "false", "lost_sale", "0.05", "1.5", "20", "5", "60", "25", "0"),
        TERMINATE,
    ),
    (
        "flower_stand_roses",
        (
            "I sell roses at a flower stand, anywhere from 20 to 40 bunches a day, all equally likely.",
            "Roses wilt by the next morning, so whatever's left gets tossed.",
            "If I'm out they just buy somewhere else.",
            "We're open every day for 3 months.",
            "30 cents a day per bunch in the cooler",
            "A missed sale costs me about $6.",
            "The wholesaler charges $10 per delivery.",
            "Same-day delivery.",
            "My cooler has room for 80 bunches and I can't take more than 50 per delivery.",
            "I'm very cautious",
            "make it -7",
        ),
        shop("90", "uniform(20,40)", "true", "lost_sale", "0.3", "6", "10", "0", "80", "50", "-7"),
        TERMINATE,
    ),
    (
        "cafe_oat_milk_euros",
        (
            "Café in Lisbon, oat milk cartons. We go through about 15 a day, Poisson I'd say.",
            "If we run out the customer orders something else, so that sale is gone.",
            "Unopened cartons keep for months.",
            "Plan for one quarter.",
            "Storage is €0.05 per carton per day, a stockout costs €2 per carton, and each delivery "
            "costs me €15 in fees.",
            "The supplier needs two days.",
            "The fridge fits 100 cartons; orders are capped at 48.",
            "3",
        ),
        shop("90", "poisson(15)", "false", "lost_sale", "0.05", "2", "15", "2", "100", "48", "3"),
        TERMINATE,
    ),
    (
        "known_miss_deliveries_take_1_day",
        ("deliveries take 1 day",),
        {"lead_time": "1"},
        ASK,
    ),
    (
        "known_miss_store_and_order_at_once",
        ("We can store 15 units and order at most 10 at once",),
        {"max_inventory": "15", "max_order": "10"},
        ASK,
    ),
    (
        "known_miss_fee_and_quantity_per_order",
        ("The supplier charges $3 per order, and I can get up to 10 per order.",),
        {"setup_cost": "3", "max_order": "10"},
        ASK,
    ),
    (
        "usual_order_quantity_is_not_a_fee",
        ("Shipping is $3 per order, we usually get 10 per order.",),
        {"setup_cost": "3", "max_order": None},
        ASK,
    ),
    (
        "pet_store_bullets_backlog",
        (
            "Dog food, 20 kg bags.\n"
            "• We sell about 8 bags a day, normally distributed with a standard deviation of 3\n"
            "• People will come back for it if we're out\n"
            "• Bags keep for ages\n"
            "• Each day someone waits for a bag costs me 20 cents\n"
            "• Keeping a bag costs 4 cents a day\n"
            "• $25 delivery charge per order\n"
            "• It takes 5 days to arrive\n"
            "• Room for 120 bags, the truck brings at most 60",
            "Plan for a year.",
            "risk 1",
        ),
        shop("365", "normal(8,3)", "false", "backlog", "0.04", "0.2", "25", "5", "120", "60", "1"),
        TERMINATE,
    ),
    (
        "hardware_paint_corrections",
        (
            "Paint cans: demand is random, poisson(9). Customers leave if we're out. Paint doesn't spoil.",
            "Horizon 60 days, holding $0.20 per can per day, $3 per lost can, $12 per order.",
            "Lead time 3 days.",
            "scratch that, deliveries take 4 days",
            "We have space for 100 cans.",
            "Sorry, the back room holds 70.",
            "We order no more than 40 cans at a time.",
            "4",
        ),
        shop("60", "poisson(9)", "false", "lost_sale", "0.2", "3", "12", "4", "70", "40", "4"),
        TERMINATE,
    ),
    (
        "florist_horizon_restated_conflict",
        ("Plan for two weeks.", "Let's plan for a month.", "go with 30"),
        {"time_horizon": "30"},
        ASK,
    ),
    (
        "bagel_shop_number_words",
        (
            "Every morning we sell exactly sixty bagels. Bagels go stale by the next day and we toss "
            "the rest. Customers who find us sold out just leave.",
            "thirty days",
            "five cents per bagel per day",
            "seventy-five cents per bagel we can't sell",
            "eleven dollars per delivery",
            "overnight",
            "one hundred and twenty",
            "eighty",
            "minus two",
        ),
        shop("30", "60", "true", "lost_sale", "0.05", "0.75", "11", "1", "120", "80", "-2"),
        TERMINATE,
    ),
    (
        "pharmacy_half_a_dollar",
        ("Holding a box of bandages costs half a dollar per box per week.",),
        {"holding_cost": "0.0714"},
        ASK,
    ),
    (
        "cafe_croissants_two_day_wait",
        (
            "Croissants, about 30 a day, give or take 8. They're thrown out every evening. If we're "
            "out, people go somewhere else. Plan for two weeks.",
            "Keeping one costs 15 cents a day, a lost croissant is $1.20, the bakery charges $6 per "
            "delivery and there's a two-day wait.",
            "The display case has room for 50 and the bakery won't ship more than 45.",
            "I'd say -1",
        ),
        shop("14", "normal(30,8)", "true", "lost_sale", "0.15", "1.2", "6", "2", "50", "45", "-1"),
        TERMINATE,
    ),
    (
        "bookshop_risk_word_then_number",
        (
            "Poisson(3) a day, lost sales, books never go bad, 90 days.",
            "Holding 1 cent per book per day, a lost sale costs $5, $7 per order, lead time 6 days.",
            "Capacity 30 books, order at most 20.",
            "I'm a bit cautious",
            "-3",
            "90 days, like I said",
        ),
        shop("90", "poisson(3)", "false", "lost_sale", "0.01", "5", "7", "6", "30", "20", "-3"),
        TERMINATE,
    ),
    (
        "toy_shop_uniform_words",
        ("We sell between ten and thirty yo-yos a day, any number equally likely.",),
        {"demand_type": "random", "demand_distribution": "uniform(10,30)"},
        ASK,
    ),
    (
        "garden_centre_free_shipping",
        ("Shipping is free for us.", "Lead time is a week."),
        {"setup_cost": "0", "lead_time": "7"},
        ASK,
    ),
    (
        "ice_cream_supplier_caps",
        ("The freezer takes 40 tubs, and the supplier caps orders at 25 tubs.",),
        {"max_inventory": "40", "max_order": "25"},
        ASK,
    ),
    (
        "deli_weekly_holding",
        ("It costs me $0.70 a week to keep one tub of hummus in the fridge.",),
        {"holding_cost": "0.1"},
        ASK,
    ),
    (
        "corner_shop_weekly_poisson",
        ("We sell about 35 newspapers a week, Poisson.",),
        {"demand_type": "random", "demand_distribution": "poisson(5)"},
        ASK,
    ),
    (
        "farm_stand_eggs_keep_for_ages",
        ("Our eggs keep for ages in the cold room.",),
        {"perishability": "false"},
        ASK,
    ),
    (
        "hardware_bad_lead_time_answer",
        ("Lead time: dunno, a while.", "about three days"),
        {"lead_time": "3"},
        ASK,
    ),
    (
        "bike_shop_order_above_capacity",
        ("Room for forty helmets.", "The distributor lets us order up to sixty at once."),
        {"max_inventory": "40", "max_order": "60"},  # both kept: the storage binds every order
        ASK,
    ),
    (
        "bakery_lost_sale_daily_penalty",
        (
            "If we're out of rye bread the customer leaves.",
            "Every day a customer goes without costs me $1 per loaf per day.",
            "A",
        ),
        {"state_transition_model": "lost_sale", "penalty_cost": "1"},
        ASK,
    ),
    (
        "cafe_switch_to_backlog_restated",
        ("Stockouts mean the sale is gone.", "Hmm, actually people will come back for it."),
        {"state_transition_model": "backlog"},
        ASK,
    ),
    (
        "hardware_store_all_at_once_digits",
        (
            "Light switches: 5/day fixed. No perishing. Lost sales. 120 days. $0.03/unit/day holding. "
            "$2/unit penalty. $9/order setup. 2 days lead. Cap 40. Max order 25. Risk 0.",
            "120",
            "40",
        ),
        shop("120", "5", "false", "lost_sale", "0.03", "2", "9", "2", "40", "25", "0"),
        TERMINATE,
    ),
    (
        "flower_stand_tulips_gamble",
        (
            "Tulips: Poisson with mean 18 a day; they wilt overnight; unsold demand is simply lost.",
            "Plan 45 days. Holding 20 cents per bunch per day. I lose $3 on every missed sale. "
            "Each delivery costs me $15 in fees. It arrives the next day.",
            "The bucket stand holds 60 bunches; supplier caps orders at 40.",
            "Honestly I'm a risk-taker, I like to gamble",
            "yes, 5 is right",
        ),
        shop("45", "poisson(18)", "true", "lost_sale", "0.2", "3", "15", "1", "60", "40", "5"),
        TERMINATE,
    ),
    (
        "pharmacy_vitamins_correction_after_terminate",
        (
            "Vitamin bottles, normal(12,4) per day, customers wait for backorders, nothing expires. "
            "Plan 90 days. Holding is $0.02 per bottle per day, backorders cost $0.30 per bottle per day, "
            "the wholesaler bills $18 per order, deliveries take 2 days, storage capacity 150, max order 80.",
            "-2",
            "Actually deliveries take 3 days.",
        ),
        shop("90", "normal(12,4)", "false", "backlog", "0.02", "0.3", "18", "3", "150", "80", "-2"),
        TERMINATE,
    ),
    (
        "pharmacy_sanitizer_rambling",
        (
            "Okay so, I manage a small pharmacy and we're looking at hand sanitizer. On a normal day we sell "
            "roughly 18 bottles, sometimes 10, sometimes 26 — it's pretty random, I'd guess Poisson. When "
            "we're out, folks just grab it at the supermarket next door. Sanitizer basically never expires. "
            "I'd like to plan the next 60 days. Keeping a bottle around costs us maybe 3 cents a day; a missed "
            "sale is about 2 dollars of margin. Our wholesaler bills a flat 7.50 per order, and stuff shows up "
            "2 days after we order. We've got shelf space for 90 bottles, and they'll ship at most 50 per order.",
            "I'd rather be safe than sorry",
            "ok -4",
        ),
        shop("60", "poisson(18)", "false", "lost_sale", "0.03", "2", "7.5", "2", "90", "50", "-4"),
        TERMINATE,
    ),
    (
        "coffee_roaster_corrections",
        (
            "Coffee beans, 1kg bags. Normal, mean 12, sd 3 per day. People come back later if we're out. "
            "Beans last for months. 90 day horizon.",
            "Holding: 8 cents per bag per day. Each day a customer is kept waiting costs 40 cents per bag. "
            "Orders cost $5 flat. Lead time 3 days.",
            "Correction: it's $4 per order, not $5.",
            "We have room for 40 bags, order at most 30 at once.",
            "wait, capacity is 35 not 40",
            "Risk? I'm a bit of a gambler",
            "3 then",
        ),
        shop("90", "normal(12,3)", "false", "backlog", "0.08", "0.4", "4", "3", "35", "30", "3"),
        TERMINATE,
    ),
    (
        "florist_tulip_grower",
        (
            "Tulips sell 10 to 30 a day.",
            "if we're out, they'll order it and pick it up later",
            "unsold flowers go in the compost at closing",
            "we're open every day for the next 8 weeks",
            "every bouquet sitting in the cooler costs me 5 cents a day",
            "A customer who can't get tulips costs me about €3 for every day they wait.",
            "€9 for each delivery",
            "It's about a 3 day turnaround from the grower.",
            "We only have space for 45 buckets.",
            "the grower won't sell us more than 40 at once",
            "I'm totally neutral about risk",
        ),
        shop("56", "uniform(10,30)", "true", "backlog", "0.05", "3", "9", "3", "45", "40", "0"),
        TERMINATE,
    ),
    (
        "order_cap_after_the_number",
        ("It's $3 per order, 10 per order max.",),
        {"setup_cost": "3", "max_order": "10"},
        ASK,
    ),
    (
        "cheese_shop_keeps_five_days",
        ("Our soft cheese keeps for about 5 days.", "B"),
        {"perishability": "false"},
        ASK,
    ),
    (
        "garden_centre_free_storage_truck_max",
        ("Storage is free for us, and the truck can bring 100 max.",),
        {"holding_cost": "0", "max_order": "100"},
        ASK,
    ),
    (
        "bakery_open_days_are_not_demand",
        ("We're open 5 days a week and sell around 40 rolls a day.", "A"),
        {"demand_type": "random", "demand_distribution": "poisson(40)"},
        ASK,
    ),
    (
        "usual_stock_is_not_capacity",
        ("We usually hold 50 units.",),
        {"max_inventory": None},
        ASK,
    ),
    (
        "hedged_risk_word_asks_for_a_number",
        ("I'm not very risk-averse.", "-1"),
        {"risk_tolerance": "-1"},
        ASK,
    ),
    (
        "bike_shop_chains_euros_and_bucks",
        (
            "Bike chains. Poisson, 2 a day. Riders will come back for it. They keep for ages.",
            "A quarter.",
            "Holding is €0.10 per chain per day.",
            "Every day a rider waits costs me 1.5 bucks per chain per day.",
            "€4 per order",
            "a two-day wait",
            "space for 25 chains",
            "we can't take more than 20 per delivery",
            "I'm somewhere in the middle",
        ),
        shop("90", "poisson(2)", "false", "backlog", "0.1", "1.5", "4", "2", "25", "20", "0"),
        TERMINATE,
    ),
]


@pytest.mark.parametrize(("name", "turns", "expected", "action"), DIALOGUES, ids=[d[0] for d in DIALOGUES])
def test_manager_dialogue(
    name: str, turns: tuple[str, ...], expected: dict[str, str | None], action: str
) -> None:
    check_dialogue(turns, expected, action)


def test_non_dollar_currency_is_said_to_be_taken_at_face_value() -> None:
    turn = ExtractionAgent().respond("Holding costs €0.05 per carton per day.")
    assert turn.table["holding_cost"]["value"] == "0.05"
    assert "same" in turn.assistant.lower() and ("€" in turn.assistant or "EUR" in turn.assistant)


def test_risk_word_is_confirmed_before_it_is_stored() -> None:
    agent = ExtractionAgent()
    turn = agent.respond("I'm pretty risk-averse.")
    assert turn.action == CLARIFY and "-5" in turn.assistant
    assert turn.table["risk_tolerance"]["value"] is None


def test_there_are_at_least_twenty_five_manager_dialogues() -> None:
    assert len(DIALOGUES) >= 25
    assert len({d[0] for d in DIALOGUES}) == len(DIALOGUES)
