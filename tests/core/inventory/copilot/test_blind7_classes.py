"""Issue 27: classes the seventh blind batch (b7, measured once at e6b7999) found — the agent's own (A)/(B) questions
answered with a stated value or the same reply twice (dead ends), containers not multiplied or multiplied wrongly,
whole-business money per period where a per-unit cost is asked, and a cue for a row nobody asked about written
silently. Our own phrasings, never b7's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.dialogue import ASK_CLARIFICATION
from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values


def _say(*texts: str) -> tuple[ExtractionAgent, CopilotTurn]:
    return say(*texts)


# ---------------------------------------------------------------- 1. the agent's own questions answered by a value


@pytest.mark.parametrize(
    ("reply", "horizon"),
    [("28 days", "28"), ("4 weeks", "28"), ("the 28", "28"), ("keep it at 28 days", "28"), ("10 days", "10"),
     ("10", "10")],
)  # fmt: skip
def test_a_stated_value_picks_the_keep_or_change_option(reply: str, horizon: str) -> None:
    """'(A) keep 28 or (B) change to 10?' answered '28 days': a bare span the rows would give the lead time still
    answers the horizon asked about (it was 'I could not find a value' until the conversation ended)."""
    agent, turn = _say("Plan over 28 days please.", "make the plan 10 days", reply)
    assert _values(turn).get("time_horizon") == horizon, turn.assistant
    assert not agent.table.conflicts


@pytest.mark.parametrize(
    ("reply", "demand"),
    [
        ("roughly 49 a week, it goes up and down", "poisson(7)"),
        ("it goes up and down", "poisson(7)"),
        ("49 a week, same every day", "7"),
        ("pretty much the same every day", "7"),
        ("give or take 2", "normal(7,2)"),
        ("plus or minus 3 I'd say", "normal(7,3)"),
    ],
)
def test_the_demand_shape_question_accepts_a_restatement_with_a_cue(reply: str, demand: str) -> None:
    """'(A) Poisson (B) exactly 7 (C) normal: the sd?' answered with the amount again and how it varies, or only
    the spread: resolved (a restated amount that goes up and down was asked 40 times)."""
    agent, turn = _say("We sell scented candles.", "about 49 a week", reply)
    assert _values(turn).get("demand_distribution") == demand, turn.assistant
    assert not agent.table.conflicts


@pytest.mark.parametrize(
    ("setup", "reply"),
    [
        (("Plan over 28 days please.", "make the plan 10 days"), "the van is blue"),
        (("We sell scented candles.", "about 49 a week"), "my cat likes the candles"),
        (("We sell scented candles.", "we can store 100 units", "we can store 80 units"), "hmm the shelf is oak"),
    ],
)
def test_the_same_reply_twice_never_loops(setup: tuple[str, ...], reply: str) -> None:
    """The second identical reply that settles nothing takes the first option and reads it back; never a third
    asking of the same question."""
    agent, first = _say(*setup, reply)
    assert first.action == ASK_CLARIFICATION
    turn = agent.respond(reply.capitalize() + ".")
    assert turn.action != ASK_CLARIFICATION or agent.table.conflicts[0].question != first.assistant
    assert "the same answer twice" in turn.assistant, turn.assistant
    assert not any(c.question in first.assistant for c in agent.table.conflicts)


# ---------------------------------------------------------------- 3. whole-business money where a per-unit cost is asked

_OPENING = "We sell olive oil, about 6 tins a day, random. Customers leave. Nothing spoils. Plan 30 days."


@pytest.mark.parametrize(
    "reply",
    [
        "the cold store's power is around 350 a month",
        "freezer hire comes to 80 a week",
        "the alarm and insurance, maybe 1500 a year",
        "power for the shelves' lights, about $300 a month",
        "about 3 dollars a month",
    ],
)
def test_a_total_per_month_is_never_divided_into_a_holding_cost(reply: str) -> None:
    """Where a cost per unit per day is asked, money per week, month or year said of no item is asked about
    (per unit or for the whole business?), never divided silently (it was 400 a month -> 13.33 per unit per day)."""
    agent, turn = _say(_OPENING, reply)
    assert "holding_cost" not in _values(turn), turn.assistant
    assert "per unit" in turn.assistant or "one unit" in turn.assistant


@pytest.mark.parametrize(
    ("reply", "holding"),
    [
        ("keeping one tin costs me 3 a month", "0.1"),
        ("3 dollars a month per tin", "0.1"),
        ("each tin in the back costs about 70 cents a week", "0.1"),
        ("10 cents a tin a day", "0.1"),
    ],
)
def test_a_cost_per_item_and_period_is_still_converted(reply: str, holding: str) -> None:
    _, turn = _say(_OPENING, reply)
    assert _values(turn).get("holding_cost") == holding, turn.assistant


# ---------------------------------------------------------------- 4. a cue for a row nobody asked about


@pytest.mark.parametrize(
    ("texts", "guess"),
    [
        (("We run a cake stall.", "12 cakes a day, always 12, customers put their names down"), "backlog"),
        (("We bake wedding cakes.", "4 a day, exactly, people pre-order them"), "backlog"),
        (("We run a cake stall.", "12 cakes a day, always 12, it's all on pre-order"), "backlog"),
        (("We sell picnic hampers.", "6 a day, exactly, customers book and collect later"), "backlog"),
    ],
)
def test_an_unasked_stock_out_model_is_asked_not_written(texts: tuple[str, ...], guess: str) -> None:
    """A cue for the stock-out model inside an answer about demand: put to the user with the reading first, never
    written silently (pre-orders wrote a backlog nobody asked about)."""
    agent, turn = _say(*texts)
    if "state_transition_model" in _values(turn):
        raise AssertionError(turn.assistant)
    assert [c.kind for c in agent.table.conflicts] == ["inferred_transition"]
    assert guess in turn.assistant


@pytest.mark.parametrize(
    ("reply", "model"),
    [("yes", "backlog"), ("no", "lost_sale"), ("no, they buy elsewhere", "lost_sale"), ("B", "lost_sale"),
     ("right, they wait", "backlog")],
)  # fmt: skip
def test_the_inferred_stock_out_model_is_settled_by_the_reply(reply: str, model: str) -> None:
    agent, _ = _say("We run a cake stall.", "12 cakes a day, always 12, customers put their names down")
    turn = agent.respond(reply)
    assert _values(turn).get("state_transition_model") == model, turn.assistant
    assert not agent.table.conflicts


def test_a_stated_stock_out_model_is_still_written() -> None:
    """'if we run out they wait' says what customers do: written (and read back), not asked."""
    _, turn = _say("We run a cake stall.", "12 cakes a day, always 12, and if we run out they wait")
    assert _values(turn).get("state_transition_model") == "backlog", turn.assistant


# ---------------------------------------------------------------- 2. containers said earlier or in the same message

_STORE = ("Customers leave. Nothing spoils.", "Plan 30 days.", "5 cents a day", "a miss costs me 3", "12 a delivery",
          "2 days")  # fmt: skip


@pytest.mark.parametrize(
    ("opening", "demand", "storage", "units"),
    [
        ("We sell tulips by the stem; they arrive in buckets of 40.", "about 30 stems a day, random",
         "the cold room has space for 6 buckets", "240"),
        ("We sell alloy wheels one at a time, though most people buy sets of four.", "about 3 a day, random",
         "the racks take 15 sets", "60"),
        ("Hay for the stables, comes in bales of 20 flakes; we count flakes.", "about 40 flakes a day, random",
         "the barn fits 9 bales", "180"),
    ],
)  # fmt: skip
def test_a_container_sized_earlier_is_multiplied(opening: str, demand: str, storage: str, units: str) -> None:
    """'buckets of 40' early on, 'space for 6 buckets' later: 240 units, read back (it was 6, silently)."""
    agent, turn = _say(opening, demand, *_STORE)
    turn = agent.respond(storage)
    assert _values(turn).get("max_inventory") == units, turn.assistant
    assert "×" in turn.assistant


@pytest.mark.parametrize(
    ("storage", "units"),
    [
        ("the chiller takes 30 crates, 3 twelve-packs a crate", "90"),
        ("we can keep 10 boxes, 5 twelve-packs per box", "50"),
        ("room for 12 cases, 2 twelve-packs in each case", "24"),
    ],
)
def test_a_size_in_the_same_message_is_read(storage: str, units: str) -> None:
    """'30 crates, 3 twelve-packs a crate' while the table counts twelve-packs: 90, never 'how many does one crate
    hold?' (whose answer was then taken as the size)."""
    agent, turn = _say("We sell a cider by the twelve-pack.", "about 9 twelve-packs a day, random", *_STORE)
    turn = agent.respond(storage)
    assert _values(turn).get("max_inventory") == units, turn.assistant


@pytest.mark.parametrize(("count", "answer"), [("30 crates", "90 twelve-packs"), ("10 boxes", "50 twelve-packs"),
                                                ("12 cases", "36 twelve-packs")])  # fmt: skip
def test_a_total_in_the_tables_unit_is_never_taken_as_the_size(count: str, answer: str) -> None:
    """'how many units does one crate hold?' answered with a total in the table's own pack ('90 twelve-packs'
    after '30 crates'): asked (size or total), never 30 × 90 written."""
    agent, turn = _say("We sell a cider by the twelve-pack.", "about 9 twelve-packs a day, random", *_STORE)
    agent.respond(f"the chiller takes {count}")
    turn = agent.respond(answer)
    total = int(count.split()[0]) * int(answer.split()[0])
    assert _values(turn).get("max_inventory") != str(total), turn.assistant
    assert [c.kind for c in agent.table.conflicts] == ["range"]  # (A) the size, (B) the total
    assert "units in all" in turn.assistant


@pytest.mark.parametrize(
    ("opening", "demand", "value"),
    [
        ("We sell eggs by the dozen box.", "about 8 dozen a day, random", "poisson(8)"),
        ("We sell quail eggs by the dozen carton.", "roughly two dozen a day, give or take half a dozen",
         "normal(2,0.5)"),
        ("Our stall sells free-range eggs by the dozen tray.", "6 dozen a day, every day the same", "6"),
    ],
)  # fmt: skip
def test_dozens_count_the_dozen_pack_the_owner_sells(opening: str, demand: str, value: str) -> None:
    """The item is a carton of a dozen: '8 dozen a day' is 8 cartons, read back (it was 96, silently)."""
    _, turn = _say(opening, demand)
    assert _values(turn).get("demand_distribution") == value, turn.assistant
    assert "of a dozen" in turn.assistant


@pytest.mark.parametrize("count", ["40", "120", "75"])
def test_the_count_itself_as_the_size_is_asked(count: str) -> None:
    """'how many units does one crate hold?' answered with the count just said ('120' after '120 crates'): the
    crates are likely the units themselves; asked, never 120 × 120 written."""
    agent, _ = _say("We sell puzzle sets.", "about 4 sets a day, random", *_STORE)
    agent.respond(f"we have room for {count} crates")
    turn = agent.respond(count)
    assert _values(turn).get("max_inventory") != str(int(count) ** 2), turn.assistant
    assert [c.kind for c in agent.table.conflicts] == ["range"]
