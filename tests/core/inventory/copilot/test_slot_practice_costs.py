"""Practice slot set for the three cost rows, written before the cost rows of `core/inventory/rows.toml` were
grown (and never copied into it): whole messages from many kinds of shop, each setting exactly its cost row
(penalty per unit, holding per unit per day, setup per order), and messages with money that is no cost row
(a selling price, wages, rent, the till, a tip, equipment) setting nothing. Before the growth 64 of the 70
passed (misses: two read a perishability too, 'a quarter a day', 'insurance and space', a tip read as a
penalty, and the per-litre penalty, which asks by design: see the last test)."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from tests.support.slots import table_after


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        (
            "If a customer wants a bag of compost and we're out, I reckon we forfeit about $3 on it.",
            {"penalty_cost": "3"},
        ),
        (
            "each missed sale of a bike chain is roughly eight bucks of margin I never get",
            {"penalty_cost": "8"},
        ),
        (
            "At the pharmacy, not having a prescription item in costs us around $6 per pack in lost goodwill.",
            {"penalty_cost": "6"},
        ),
        ("When the pet shop runs dry on cat litter we miss out on 4 dollars a bag.", {"penalty_cost": "4"}),
        (
            "Our florist figures every rose we can't supply is 90 cents of profit gone.",
            {"penalty_cost": "0.9"},
        ),
        ("a loaf we don't have when someone asks is a buck fifty lost", {"penalty_cost": "1.5"}),
        (
            "For the café, every muffin we could have sold but didn't is two dollars out of our pocket.",
            {"penalty_cost": "2"},
        ),
        (
            "If the bookshop can't hand over a title on the spot, that disappointment costs us about $5 a copy.",
            {"penalty_cost": "5"},
        ),
        (
            "The hardware store loses roughly $7 per drill bit set when the shelf is bare.",
            {"penalty_cost": "7"},
        ),
        ("Every bottle of wine we're short on means forfeiting $11 of margin.", {"penalty_cost": "11"}),
        ("stockouts on brake pads cost the garage 15 dollars a set", {"penalty_cost": "15"}),
        (
            "For every fillet the fishmonger can't sell because we ran out, we lose about $4.",
            {"penalty_cost": "4"},
        ),
        (
            "Each poster we can't print because we ran out of stock costs the print shop $2.50.",
            {"penalty_cost": "2.5"},
        ),
        (
            "Whenever we can't fill a request for seed potatoes, we're down about 3 dollars a sack.",
            {"penalty_cost": "3"},
        ),
        ("a shopper who walks out without their dog food is about $9 we'll never see", {"penalty_cost": "9"}),
        ("Not having the part means the mechanic loses around $20 on each one.", {"penalty_cost": "20"}),
        ("Each unit of unmet demand for printer ink sets us back $6.", {"penalty_cost": "6"}),
        ("the cost of being short one tray of eggs is about 2 bucks", {"penalty_cost": "2"}),
        ("A customer leaving without their cheese costs the deli roughly $3.75.", {"penalty_cost": "3.75"}),
    ],
)
def test_penalty_cost_messages(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("Every sack of feed stored in the barn costs me about 10 cents a day.", {"holding_cost": "0.1"}),
        ("keeping a bottle of wine in the cellar runs us 3 cents per day", {"holding_cost": "0.03"}),
        (
            "Each bike sitting on the shop floor ties up about 40 cents a day in capital.",
            {"holding_cost": "0.4"},
        ),
        (
            "For every tray of seedlings in the greenhouse we spend around a quarter a day on heat and light.",
            {"holding_cost": "0.25"},
        ),
        ("Freezer space costs the fishmonger 15 cents per box per day.", {"holding_cost": "0.15"}),
        ("A tub of ice cream in our freezer costs us 5 cents daily in power.", {"holding_cost": "0.05"}),
        ("The pharmacy reckons each pack kept on the shelf costs 2 cents a day.", {"holding_cost": "0.02"}),
        ("storing one pallet of bricks in the yard is $1.40 a week", {"holding_cost": "0.2"}),
        ("It costs us $0.70 a week to keep one bag of dog food in stock.", {"holding_cost": "0.1"}),
        ("Every tire in the back room costs us $3 a month to store.", {"holding_cost": "0.1"}),
        ("each crate of milk in the cooler costs 8 cents a day to keep cold", {"holding_cost": "0.08"}),
        ("Holding one book in the shop costs roughly a nickel a day.", {"holding_cost": "0.05"}),
        ("The carrying cost on each case of paint is about 12 cents per day.", {"holding_cost": "0.12"}),
        ("Insurance and space for every sofa in the warehouse come to $2 a day.", {"holding_cost": "2"}),
        ("each box of printer paper we hold costs us about 4 cents a day", {"holding_cost": "0.04"}),
        ("One crate of apples in cold storage costs the farm 30 cents a day.", {"holding_cost": "0.3"}),
        ("Keeping one spare battery on hand sets us back 6 cents a day.", {"holding_cost": "0.06"}),
        (
            "A bag of coffee beans sitting in our stockroom costs around 9 cents per day.",
            {"holding_cost": "0.09"},
        ),
        (
            "Every flowerpot taking up shelf space at the garden centre costs us 20 cents a day.",
            {"holding_cost": "0.2"},
        ),
        ("per jar of honey on hand we figure 1 cent a day", {"holding_cost": "0.01"}),
    ],
)
def test_holding_cost_messages(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("Every delivery from the feed mill comes with a $40 truck fee.", {"setup_cost": "40"}),
        ("The wholesaler adds a handling fee of $12 per purchase order.", {"setup_cost": "12"}),
        ("each time we reorder flour there's a 25 dollar delivery charge", {"setup_cost": "25"}),
        (
            "Placing one order with the pharmacy distributor costs us about $18 in paperwork.",
            {"setup_cost": "18"},
        ),
        ("There's a minimum charge of $30 per shipment from the tile supplier.", {"setup_cost": "30"}),
        ("The nursery charges $50 per drop, however many plants we take.", {"setup_cost": "50"}),
        ("Whenever the florist orders from the auction, there's a flat $15 fee.", {"setup_cost": "15"}),
        ("The courier bills the bookshop $8 for each consignment.", {"setup_cost": "8"}),
        ("every order we send to the wine merchant costs us twenty dollars in freight", {"setup_cost": "20"}),
        ("Admin for each purchase order comes to about $5.", {"setup_cost": "5"}),
        ("Each time the fish van comes out, we pay a $35 call-out.", {"setup_cost": "35"}),
        ("Getting a batch of bike parts shipped in costs $22 regardless of size.", {"setup_cost": "22"}),
        ("The print shop pays a $10 setup fee every time it orders paper.", {"setup_cost": "10"}),
        ("ordering from the pet food distributor costs a flat 14 bucks each time", {"setup_cost": "14"}),
        ("Each restock from the auto parts warehouse costs us $45 in delivery.", {"setup_cost": "45"}),
        ("The dairy charges a $6 drop fee on every delivery.", {"setup_cost": "6"}),
        ("Every time we place an order with the brewery there's a $60 freight charge.", {"setup_cost": "60"}),
        ("Our hardware supplier charges $9 per order for handling.", {"setup_cost": "9"}),
        ("the fixed cost of putting in one order is about 7 dollars", {"setup_cost": "7"}),
        (
            "Each shipment of coffee beans costs us $28 to bring in, whatever the amount.",
            {"setup_cost": "28"},
        ),
    ],
)
def test_setup_cost_messages(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


@pytest.mark.parametrize(
    "text",
    [
        "We sell each bag of compost for $8.",
        "I pay my Saturday helper $12 an hour.",
        "Rent on the shop is $1,500 a month.",
        "There was $340 in the till at closing.",
        "A customer left me a $5 tip today.",
        "We just bought a new freezer for $900.",
        "The bikes retail at around $450 each.",
        "Our electricity bill was $210 last month.",
        "A coffee costs $3.20 at the place next door.",
        "I paid $60 for the new shop sign.",
    ],
)
def test_money_that_is_no_cost_row_sets_nothing(text: str) -> None:
    assert table_after(text) == {}


def test_a_penalty_per_litre_is_asked_about_not_stored() -> None:
    """Written expecting 0.6; the agent rightly asks instead, since the table counts items, not litres (the
    expectation was corrected after the first run, not the agent)."""
    agent = ExtractionAgent()
    agent.greeting()
    turn = agent.respond("The dairy puts the shortage penalty at 60 cents per litre.")
    assert turn.table["penalty_cost"]["value"] is None
    assert "per item" in turn.assistant


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        (
            "Whenever the deli counter has no more ham, we give up roughly $2.20 of profit per pack we would have sold.",
            {"penalty_cost": "2.2"},
        ),
        ("my guess is a missed sale of a phone case costs me about 6 bucks", {"penalty_cost": "6"}),
        (
            "Each scarf a shopper wanted but we didn't have is fourteen dollars of margin we never made.",
            {"penalty_cost": "14"},
        ),
        (
            "The toy shop loses about $5 in goodwill for every unit it can't hand over at Christmas.",
            {"penalty_cost": "5"},
        ),
        (
            "Running dry on propane bottles costs the hardware store something like $9 a bottle.",
            {"penalty_cost": "9"},
        ),
        ("each frozen turkey we can't provide in November is a $10 hit", {"penalty_cost": "10"}),
        ("The vet clinic figures a pack of flea treatment it can't supply costs $7.", {"penalty_cost": "7"}),
        ("not being able to sell a sack of rice is a $3 loss for the grocer", {"penalty_cost": "3"}),
        (
            "For the surf shop, a wetsuit we could have rented out but didn't have costs $25.",
            {"penalty_cost": "25"},
        ),
        (
            "Every tube of sunscreen missing from the shelf in July costs us a couple of dollars.",
            {"penalty_cost": "2"},
        ),
        ("Every mattress stacked in our depot eats about 45 cents a day.", {"holding_cost": "0.45"}),
        (
            "a pack of laminate flooring taking up room out back costs roughly 3 cents daily",
            {"holding_cost": "0.03"},
        ),
        ("Each violin on display costs us about 30 cents a day in insurance.", {"holding_cost": "0.3"}),
        (
            "Keeping a drum of cooking oil in the back room sets us back a dime a day.",
            {"holding_cost": "0.1"},
        ),
        (
            "For each carton of frozen peas in the deep freeze we pay 4 cents a day in electricity.",
            {"holding_cost": "0.04"},
        ),
        ("a roll of turf waiting in the yard costs us 50 cents a week", {"holding_cost": "0.0714"}),
        (
            "Cask ale in the cellar costs the brewery about 15 cents per cask each day.",
            {"holding_cost": "0.15"},
        ),
        (
            "Every bouquet standing in the fridge costs the florist around 20 cents a day.",
            {"holding_cost": "0.2"},
        ),
        ("storing a set of winter tyres costs the garage $6 a month", {"holding_cost": "0.2"}),
        ("Each bag of potting mix on the pallet racking costs us 2 cents per day.", {"holding_cost": "0.02"}),
        ("Each time the brewery drops off kegs they bill us $40 for the trip.", {"setup_cost": "40"}),
        ("the toy wholesaler adds 18 dollars to every order for postage and packing", {"setup_cost": "18"}),
        (
            "Getting a consignment of rice shipped to the grocer costs $22, big or small.",
            {"setup_cost": "22"},
        ),
        ("A purchase order to the vet wholesaler costs us about $11 of office time.", {"setup_cost": "11"}),
        ("Every delivery of turf costs the landscaper a $65 lorry charge.", {"setup_cost": "65"}),
        ("The surf shop pays a $30 freight fee whenever it restocks wetsuits.", {"setup_cost": "30"}),
        ("Each top-up of propane from the depot costs $15 in delivery.", {"setup_cost": "15"}),
        (
            "ordering phone cases from the importer comes with a flat $12 handling charge",
            {"setup_cost": "12"},
        ),
        ("There's a $8 fee each time the florist's van collects from the grower.", {"setup_cost": "8"}),
        (
            "Placing an order with the tile factory costs $50 in transport, however many boxes.",
            {"setup_cost": "50"},
        ),
        ("A scarf goes for $28 in our shop.", {}),
        ("We pay the cleaner $18 an hour.", {}),
        ("The shop's broadband is $45 a month.", {}),
        ("Last month we spent $1,300 on a new counter.", {}),
        ("My van insurance came to $650 this year.", {}),
    ],
)
def test_a_second_batch_written_after_the_growth(text: str, expect: dict[str, str]) -> None:
    """Written after the bank grew, measured once (35/35; the bank before the growth read 30 of them), kept
    unchanged as a regression set."""
    assert table_after(text) == expect
