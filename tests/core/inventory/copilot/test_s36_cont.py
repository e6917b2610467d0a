"""Session 36 (cont), blind batch 19: a container size said early applies to the counts said later in that
container. The owner who counts or sells single items gets containers of known size multiplied out and read
back; an owner whose goods merely come 'in crates of 24' is asked crates or single units; a pack name is no
demand and 'one at a time' no order limit. Our own phrasings, never the blind owners' words."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn


def _talk(*texts: str, asked: str = "demand_type") -> tuple[ExtractionAgent, CopilotTurn]:
    """A fresh agent; the first message is the opening, the others answer the row `asked`."""
    agent = ExtractionAgent()
    agent.greeting()
    turn = agent.respond(texts[0])
    for text in texts[1:]:
        agent.state.asked = asked
        turn = agent.respond(text)
    return agent, turn


def _values(turn: CopilotTurn) -> dict[str, str]:
    return {k: row["value"] for k, row in turn.table.items() if row["value"] is not None}


# ---------------------------------------------------------------- 1. the owner counts single items


@pytest.mark.parametrize(
    ("opening", "demand", "table", "said"),
    [
        ("Cider bar. The cider comes in cases of 12, we sell single bottles.", "a case and a half a day, random",
         "poisson(18)", "1.5 cases × 12 = 18"),
        ("Jam shop: jars arrive in crates of 6 but I count single jars", "about 3 crates a day, it varies",
         "poisson(18)", "3 crates × 6 = 18"),
        ("We sell our lager in four-packs but I count stock in cans.", "about 5 four-packs a day, random",
         "poisson(20)", "× 4 = 20"),
        ("soap comes in boxes of 20 and we sell them individually", "2 boxes a day, give or take half a box",
         "normal(40,10)", "2 boxes × 20 = 40"),
    ],
)  # fmt: skip
def test_demand_in_a_sized_container_is_multiplied_when_the_owner_counts_singles(
    opening: str, demand: str, table: str, said: str
) -> None:
    agent, turn = _talk(opening, demand)
    assert _values(turn).get("demand_distribution") == table
    assert said in turn.assistant  # the conversion is read back
    assert not any(c.kind == "count_basis" for c in agent.table.conflicts)


@pytest.mark.parametrize(
    ("opening", "count", "row", "units"),
    [
        ("Cider bar. The cider comes in cases of 12, we sell single bottles.", "30 cases", "max_inventory", "360"),
        ("We sell our lager in four-packs but I count stock in cans.", "the fridge fits 50 four-packs",
         "max_inventory", "200"),
        ("Jam shop: jars arrive in crates of 6 but I count single jars", "at most 20 crates an order", "max_order",
         "120"),
    ],
)  # fmt: skip
def test_a_later_count_in_a_sized_container_is_multiplied(opening: str, count: str, row: str, units: str) -> None:
    agent, _ = _talk(opening, "about 20 a day, random")
    agent.state.asked = row
    turn = agent.respond(count)
    assert _values(turn).get(row) == units
    assert f"= {units} units" in turn.assistant


# ---------------------------------------------------------------- 2. a pack name is no amount


@pytest.mark.parametrize(
    "opening",
    [
        "Hey, we sell our IPA in six-packs but I count stock in cans.",
        "Beer shop, we sell it in 4-packs and I count the cans",
        "we sell our stout in six-packs",
    ],
)
def test_a_pack_name_in_the_opening_is_no_demand(opening: str) -> None:
    _, turn = _talk(opening)
    assert "demand_distribution" not in _values(turn)
    assert "units a day" not in turn.assistant


# ---------------------------------------------------------------- 3. goods merely come in a sized container


@pytest.mark.parametrize(
    ("opening", "demand", "answer", "table"),
    [
        ("corner shop, tonic water in crates of 24", "about 2 crates a day, give or take half a crate",
         "48 bottles a day, give or take 12", "normal(48,12)"),
        ("bakery supplies, flour in cases of 10", "3 cases a day, random", "single units", "poisson(30)"),
    ],
)  # fmt: skip
def test_a_container_the_goods_come_in_is_asked_never_written_in_containers(
    opening: str, demand: str, answer: str, table: str
) -> None:
    agent, turn = _talk(opening, demand)
    assert "demand_distribution" not in _values(turn)  # never the bare container count
    assert any(c.kind == "count_basis" for c in agent.table.conflicts)
    turn = agent.respond(answer)
    assert _values(turn).get("demand_distribution") == table
    agent.state.asked = "max_inventory"
    size = 24 if "24" in opening else 10
    turn = agent.respond("10 " + ("crates" if size == 24 else "cases"))
    assert _values(turn).get("max_inventory") == str(10 * size)


# ---------------------------------------------------------------- 4. 'one at a time' is no order limit


@pytest.mark.parametrize(
    "opening",
    [
        "Pens come in boxes of 10 but students buy them one at a time, so I count single pens.",
        "customers take them one at a time",
        "people buy the candles one at a time",
    ],
)
def test_buying_one_at_a_time_is_no_max_order(opening: str) -> None:
    _, turn = _talk(opening)
    assert "max_order" not in _values(turn)


def test_an_order_limit_said_at_a_time_is_still_read() -> None:
    _, turn = _talk("hello", "the supplier sends 50 at a time", asked="max_order")
    assert _values(turn).get("max_order") == "50"
