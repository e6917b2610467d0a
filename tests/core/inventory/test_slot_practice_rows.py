"""Practice slot set for the non-cost rows and the facts: whole messages written before the rows bank grew
(8 per row or fact, none taken from the bank or the held-out sets), each read by a fresh agent. The values
are as the agent stores them: days, units, demand type and distribution, the stock-out rule, perishability.
Talk about today's stock (`state`) is an order question: it names no row and sets nothing. A shelf life of
several days is asked about by design (the model discards stock daily), so the perishable cases say same-day
spoiling."""

from __future__ import annotations

import pytest

from core.inventory.nlu import cues
from tests.support.slots import table_after


def _lead(days: str) -> dict[str, str]:
    return {"lead_time": days}


def _horizon(days: str) -> dict[str, str]:
    return {"time_horizon": days}


def _room(units: str) -> dict[str, str]:
    return {"max_inventory": units}


def _cap(units: str) -> dict[str, str]:
    return {"max_order": units}


def _fixed(per_day: str) -> dict[str, str]:
    return {"demand_type": "deterministic", "demand_distribution": per_day}


def _random(distribution: str) -> dict[str, str]:
    return {"demand_type": "random", "demand_distribution": distribution}


_LOST = {"state_transition_model": "lost_sale"}
_WAIT = {"state_transition_model": "backlog"}
_SPOILS = {"perishability": "true"}
_KEEPS = {"perishability": "false"}

PRACTICE = [
    # lead time
    ("If I put in the order for seed potatoes on a Tuesday, they come on Friday.", _lead("3")),
    ("The pharmacy wholesaler turns orders around in two days.", _lead("2")),
    ("From the day I phone the tyre distributor it's about nine days till they're in the shop.", _lead("9")),
    ("Our flour lands 4 days after we send the order.", _lead("4")),
    ("The printer paper shows up a week after I order it.", _lead("7")),
    ("Once the fish auction gets my order, the crates are here in 1 day.", _lead("1")),
    ("the wine importer takes three weeks to get a pallet to us", _lead("21")),
    ("Bike parts come in about 6 days after I email the supplier.", _lead("6")),
    # time horizon
    ("I only care about the next 3 weeks.", _horizon("21")),
    ("Plan the garden centre through the spring, say 80 days.", _horizon("80")),
    ("Can we look ahead six weeks?", _horizon("42")),
    ("Work it out for the coming 50 days.", _horizon("50")),
    ("Give me a plan that covers the next four months.", _horizon("120")),
    ("We're planning for the next 15 days only.", _horizon("15")),
    ("Let's think about the next 200 days.", _horizon("200")),
    ("I want to plan ahead for a fortnight.", _horizon("14")),
    # max inventory
    ("Our walk-in cooler holds 70 crates of milk at most.", _room("70")),
    ("The back room has space for 250 bags of compost.", _room("250")),
    ("We can fit about 40 bikes in the shop.", _room("40")),
    ("The shelves take no more than 90 books.", _room("90")),
    ("Our freezer fits 120 boxes of fish.", _room("120")),
    ("There's only room for 35 kegs in the cellar.", _room("35")),
    ("The warehouse holds up to 600 tyres.", _room("600")),
    ("we have storage for maybe 80 sacks of feed", _room("80")),
    # max order
    ("The mill won't sell us more than 40 sacks per order.", _cap("40")),
    ("Each order is capped at 150 bottles by the distributor.", _cap("150")),
    ("The truck brings at most 60 bales in one trip.", _cap("60")),
    ("Our allocation from the vaccine supplier is 25 doses per order.", _cap("25")),
    ("The florist wholesaler lets us order up to 200 stems at a time.", _cap("200")),
    ("One order can't go above 30 cases.", _cap("30")),
    ("The most the brewery will ship per order is 12 kegs.", _cap("12")),
    ("The parts supplier limits each order to 80 units.", _cap("80")),
    # demand
    ("We sell exactly 12 loaves every single day.", _fixed("12")),
    ("Customers buy 30 bags of feed each day without fail.", _fixed("30")),
    ("Daily sales are always 5 bikes, never more, never less.", _fixed("5")),
    ("Demand for the paint is Poisson with a mean of 7 a day.", _random("poisson(7)")),
    ("The number of prescriptions per day is Poisson, about 20 on average.", _random("poisson(20)")),
    ("Sales go anywhere from 10 to 30 a day, all equally likely.", _random("uniform(10,30)")),
    ("We sell a steady 25 bouquets per day.", _fixed("25")),
    ("Daily demand for the coffee is Poisson with mean 40.", _random("poisson(40)")),
    # lost sale
    ("If the cheese is gone, people just buy from the supermarket instead.", _LOST),
    ("When we're out of bike chains, the customer goes to the other shop.", _LOST),
    ("Nobody waits for a loaf; if there's none they leave.", _LOST),
    ("The sale is simply gone when we run out of flowers.", _LOST),
    ("Customers don't hang around, they walk out.", _LOST),
    ("If we have none they get it from the competitor.", _LOST),
    ("An out-of-stock means that customer buys elsewhere.", _LOST),
    ("People won't wait for paint, they go to another hardware store.", _LOST),
    # backlog
    ("When we run out, people put their name on a list and wait for the next delivery.", _WAIT),
    ("Customers leave a deposit and collect the part once it comes in.", _WAIT),
    ("We give them a rain check and they come back when stock arrives.", _WAIT),
    ("If we're out, we back-order it for them.", _WAIT),
    ("People wait for the next shipment rather than go elsewhere.", _WAIT),
    ("We owe the customer the item and deliver it when it arrives.", _WAIT),
    ("They're happy to wait a few days for the books.", _WAIT),
    ("Out-of-stock orders are filled when the next delivery lands.", _WAIT),
    # perishable
    ("The tulips wilt if they sit overnight.", _SPOILS),
    ("Fresh fish goes off by the next day.", _SPOILS),
    ("The sandwiches have a best-before of one day.", _SPOILS),
    ("Whatever milk is left at closing gets poured away.", _SPOILS),
    ("The insulin expires, so we can't hold much.", _SPOILS),
    ("Unsold cakes get thrown out at the end of the day.", _SPOILS),
    ("The salad leaves go brown and slimy if we keep them.", _SPOILS),
    ("Yes, the pet food has an expiry date.", _SPOILS),
    # not perishable
    ("Bike chains don't go bad.", _KEEPS),
    ("The screws keep forever.", _KEEPS),
    ("Books have no shelf life.", _KEEPS),
    ("Wine in the cellar doesn't spoil.", _KEEPS),
    ("Car batteries never expire on the shelf.", _KEEPS),
    ("The paint keeps for years unopened.", _KEEPS),
    ("Nothing we sell goes off.", _KEEPS),
    ("Garden tools don't expire.", _KEEPS),
]

STATE = [
    "We have 14 bags on the shelf right now.",
    "There are 6 bikes in the shop today.",
    "Right now the cooler has 20 crates in it.",
    "We've got 3 left this morning.",
    "An order of 40 is arriving tomorrow.",
    "Today is day 5.",
    "There's a delivery of 12 on its way.",
    "At the moment we hold 9 units.",
]


_MISSED: dict[str, str] = {}
"""Practice messages still misread, with why (none now). Before the rows bank grew, 70 of 80 passed (these missed then:
the weekday lead time, the spring horizon, the six-week question, the vaccine allocation, the name on a list,
wait rather than go elsewhere, orders filled at the next delivery, and three stock-today messages); after it,
77 of 80 pass (the deposit message, which passed before, is the one new miss). After the lead merged both bank
growths and made the fact classifier keep the bank's proportions, read weekday spans and stopped '25 doses per
order' from being a lead time, 79 of 80 pass; a request in question form that names the span ('Can we look
ahead six weeks?') now sets the horizon, and all 80 pass."""


def _marked(*case: object) -> object:
    reason = _MISSED.get(str(case[0]))
    if reason:
        return pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=reason))
    return pytest.param(*case)


@pytest.mark.parametrize(("text", "expect"), [_marked(t, e) for t, e in PRACTICE])
def test_practice_message_sets_its_row(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


@pytest.mark.parametrize("text", [_marked(t) for t in STATE])
def test_practice_stock_talk_is_no_row(text: str) -> None:
    assert cues.about_stock(text)
    assert table_after(text) == {}


_SMALL_TALK = [
    "explain the policy",
    "the online shop",
    "the numbers look fine",
    "Good morning",
    "good afternoon",
    "good evening",
    "hi, good day",
    "hello there",
    "thanks a lot",
    "try the DQN",
    "also try the DQN",
    "use the DQN",
    "use the default",
    "use a default",
    "skip",
    "the table",
    "the policy",
    "the chart",
    "the results",
    "the website",
    "the app",
    "show me the chart",
    "download the csv",
    "ok A I guess",
    "B obviously",
    "the second one",
    "Could you advise",
    "whatever",
    "oat milk cartons",
    "model paint sets",
]
_SMALL_TALK_MISSED: dict[str, str] = {}
"""Clauses that name no fact, from greetings, the app and item names: a grown fact bank must not claim them
(before the growth the fact classifier read ten of a similar list of 51 as a fact at 0.5 or more; after
the first round of growth 'try the DQN' did, and broke a dialogue test)."""


@pytest.mark.parametrize(
    "clause",
    [*_SMALL_TALK]
    + [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=r)) for c, r in _SMALL_TALK_MISSED.items()
    ],
)
def test_small_talk_states_no_fact(clause: str) -> None:
    assert cues.facts(clause) is None
