"""Issue 27: classes the sixth blind batch (b6, measured once at 3e658fa) found written wrong silently — a spread
said as a bare number after a converted mean, a size said as 'N items to a container', a count of containers taken
back with a bare number, the table's unit switched mid-conversation by someone selling 'by the case', an answer to
'how many does one case hold?' that may be the total, what a miss costs after the prices, an expiry read as a
horizon. Our own phrasings, never b6's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from tests.support.extraction_dialogues import table_values as _values
from tests.support.extraction_dialogues import talk as _talk

# ---------------------------------------------------------------- 1. a bare spread after a converted mean


@pytest.mark.parametrize(
    ("opening", "text", "demand"),
    [
        ("We stock bark mulch in 50-litre sacks.", "roughly 500 litres a day, give or take 100", "normal(10,2)"),
        ("Our flour goes out in the 25 kilo bags.", "we sell about 250 kilos a day, plus or minus 50",
         "normal(10,2)"),
        ("Fishmonger: we sell the 500 gram fillets.", "around 6 kilos a day, give or take 1", "normal(12,2)"),
    ],
)  # fmt: skip
def test_a_bare_spread_after_a_sized_measure_is_divided_too(opening: str, text: str, demand: str) -> None:
    _, turn = _talk(opening, text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand, turn.assistant


@pytest.mark.parametrize(
    ("opening", "text", "demand"),
    [
        ("Cheese counter; we sell the slices in packs of ten.", "about 100 slices a day, give or take 20",
         "normal(10,2)"),
        ("Cake shop here, we sell our scones in boxes of 4.", "we sell about 48 scones a day, give or take a dozen",
         "normal(12,3)"),
        ("We sell the beer in crates of 12 and count crates.", "around 120 bottles a day, plus or minus 24",
         "normal(10,2)"),  # without "count crates" the crate or the bottle is asked (b15, Session 34)
    ],
)  # fmt: skip
def test_a_bare_spread_after_contents_of_the_pack_sold_counts_packs(opening: str, text: str, demand: str) -> None:
    _, turn = _talk(opening, text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand, turn.assistant


def test_a_spread_with_its_own_pack_unit_is_left_alone() -> None:
    """'give or take 2 bags' already counts packs: never divided again."""
    _, turn = _talk(
        "I run a bakery and we sell the rolls in bags of four.", "about 80 rolls a day, give or take 2 bags",
        asked="demand_type",
    )
    assert _values(turn).get("demand_distribution") == "normal(20,2)"


# ---------------------------------------------------------------- 2. a size said as 'N items to a container'


@pytest.mark.parametrize(
    ("text", "demand"),
    [
        ("about 2 trays a day, 30 eggs to a tray, random", "poisson(60)"),
        ("we sell roughly 3 boxes a day, 20 bags in each box, it varies", "poisson(60)"),
        ("around 14 cartons a week, 6 to a carton, random", "poisson(12)"),
    ],
)
def test_a_size_said_n_to_a_container_multiplies_demand(text: str, demand: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand, turn.assistant


@pytest.mark.parametrize(
    ("size", "storage", "units"),
    [
        ("about 2 trays a day, 30 eggs to a tray, random", "the cold room takes 12 trays", "360"),
        ("we sell roughly 3 boxes a day, 20 bags in each box, it varies", "room for 15 boxes", "300"),
        ("around 14 cartons a week, 6 to a carton, random", "we can keep 40 cartons", "240"),
    ],
)
def test_a_size_said_n_to_a_container_is_remembered(size: str, storage: str, units: str) -> None:
    agent, _ = _talk(size, asked="demand_type")
    agent.state.asked = "max_inventory"
    turn = agent.respond(storage)
    assert _values(turn).get("max_inventory") == units, turn.assistant


# ---------------------------------------------------------------- 3. a count of containers taken back


@pytest.mark.parametrize(
    ("text", "demand"),
    [
        ("we go through 3 boxes a day, no sorry, 2, boxes of 10, random", "poisson(20)"),
        ("about 6 cases a week, no wait, 7, cases of 12, it varies", "poisson(12)"),
        ("we use 3 trays a day, wait no, 4, trays of 15, random", "poisson(60)"),
    ],
)
def test_a_bare_replacement_of_a_container_count_counts_containers(text: str, demand: str) -> None:
    _, turn = _talk(text, asked="demand_type")
    assert _values(turn).get("demand_distribution") == demand, turn.assistant


# ---------------------------------------------------------------- 4. the table's unit never switches mid-way


@pytest.mark.parametrize(
    ("later", "units"),
    [
        ("the distributor sells by the box, 5 boxes max per order", "60"),
        ("they only sell by the box, 5 boxes max", "60"),
        ("the wholesaler only sells by the box, 4 boxes at most", "48"),
    ],
)
def test_someone_selling_by_the_container_keeps_the_table_in_items(later: str, units: str) -> None:
    agent, _ = _talk(
        "I sell jars of honey, they come in boxes of 12.", "about 8 jars a day, random", asked="demand_type"
    )
    agent.state.asked = "max_order"
    turn = agent.respond(later)
    assert _values(turn).get("max_order") == units, turn.assistant


def test_selling_by_the_container_after_demand_never_switches_the_unit() -> None:
    """Demand is written in jars: 'we sell by the box' later cannot make the storage count boxes."""
    agent, _ = _talk(
        "I sell jars of honey, they come in boxes of 12.", "about 8 jars a day, random", asked="demand_type"
    )
    agent.state.asked = "max_inventory"
    turn = agent.respond("we sell by the box mostly, and the shelf takes 10 boxes")
    assert _values(turn).get("max_inventory") == "120", turn.assistant


# ---------------------------------------------------------------- 5. a size that may be the row's total


def _unsized_storage(count: str) -> ExtractionAgent:
    """An agent counting bottles whose storage was said in cases of an unknown size."""
    agent, _ = _talk("I run an off-licence.", "about 6 bottles a day, random", asked="demand_type")
    agent.state.asked = "max_inventory"
    agent.respond(f"the stockroom takes {count} cases")
    assert any(c.kind == "container_size" for c in agent.table.conflicts)
    return agent


@pytest.mark.parametrize(("count", "answer"), [("20", "240 bottles"), ("15", "180"), ("10", "about 120 bottles")])
def test_a_size_that_is_a_multiple_of_the_count_is_asked(count: str, answer: str) -> None:
    agent = _unsized_storage(count)
    turn = agent.respond(answer)
    assert "max_inventory" not in _values(turn), turn.assistant
    assert "(B)" in turn.assistant and "in all" in turn.assistant


@pytest.mark.parametrize(("answer", "units"), [("B", "240"), ("A", "4800"), ("240 in all", "240")])
def test_the_size_or_total_question_is_answered(answer: str, units: str) -> None:
    agent = _unsized_storage("20")
    agent.respond("240 bottles")
    turn = agent.respond(answer)
    assert _values(turn).get("max_inventory") == units, turn.assistant


def test_a_size_said_per_container_is_not_asked() -> None:
    agent = _unsized_storage("4")
    turn = agent.respond("24 to a case")
    assert _values(turn).get("max_inventory") == "96", turn.assistant


# ---------------------------------------------------------------- 6. what a miss costs, after the prices


@pytest.mark.parametrize(
    ("text", "penalty"),
    [
        ("I pay 2 dollars each and sell at 5, so a miss costs me 3", "3"),
        ("they cost me 1.50 and go for 4, so every miss costs me 2.50", "2.5"),
        ("I buy them at 80 cents and sell at 2, a miss costs me about 1.20", "1.2"),
    ],
)
def test_what_a_miss_costs_after_the_prices_is_the_penalty(text: str, penalty: str) -> None:
    _, turn = _talk("We sell candles, customers leave if we're out.", text, asked="penalty_cost")
    assert _values(turn).get("penalty_cost") == penalty, turn.assistant


# ---------------------------------------------------------------- 7. an expiry is how long stock keeps


@pytest.mark.parametrize(
    "text",
    ["no, they have a three-year expiry", "no, the expiry is 2 years out", "no, there is a 2-year expiry date on them"],
)
def test_an_expiry_never_changes_the_horizon(text: str) -> None:
    agent, _ = _talk("plan for 60 days", asked="time_horizon")
    agent.state.asked = "perishability"
    turn = agent.respond(text)
    assert _values(turn).get("time_horizon") == "60", turn.assistant
    assert not any(c.keys == ("time_horizon",) for c in agent.table.conflicts), turn.assistant
