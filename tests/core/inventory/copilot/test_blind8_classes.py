"""Issue 27: classes the eighth blind batch (b8, measured once at be9bc17) found — a number corrected inside an
answer written to the row filled the turn before. Our own phrasings, never b8's."""

from __future__ import annotations

import pytest

from core.inventory.copilot.extraction import ExtractionAgent
from core.inventory.copilot.turn import CopilotTurn
from core.inventory.nlu.intents import MEANINGS
from tests.support.extraction_dialogues import say
from tests.support.extraction_dialogues import table_values as _values

_TO_STORAGE = (
    "I run a garden centre selling compost.",
    "plan for 90 days",
    "about 10 a day, it varies at random",
    "they wait for it, and delivery takes 5 days",
    "no, it keeps",
    "10 cents a unit per day",
    "1 dollar per unit per day",
    "the courier charges 45 an order",
)


def _say(*texts: str) -> tuple[ExtractionAgent, CopilotTurn]:
    return say(*texts)


def test_the_script_reaches_the_storage_question_with_the_fee_filled() -> None:
    """The setting the class tests need: the fee per order filled one turn before storage is asked."""
    _, turn = _say(*_TO_STORAGE)
    assert _values(turn).get("setup_cost") == "45"
    assert "store at most" in turn.assistant, turn.assistant


# ---------------------------------------------------------------- 1. a correction inside an answer


@pytest.mark.parametrize(
    ("reply", "storage"),
    [
        ("the brochure says the shed takes 400 but honestly it's 320", "320"),
        ("the brochure says the loft takes 250 but honestly it's 180", "180"),
        ("the leaflet says the shed takes 400 but actually it's 320", "320"),
        ("the brochure says the shed takes 600 but truly it's 480", "480"),
    ],
)
def test_a_number_taken_back_in_the_answer_fills_the_asked_row(reply: str, storage: str) -> None:
    """A message that takes back its own number answers the question asked; the fee filled one turn before
    (45) stays, since the number taken back was never the fee."""
    _, turn = _say(*_TO_STORAGE, reply)
    values = _values(turn)
    assert values.get("setup_cost") == "45", turn.assistant
    assert values.get("max_inventory") == storage, turn.assistant



# ---------------------------------------------------------------- 2. the asked cost read as another row

_TO_FEE = _TO_STORAGE[:-1]


@pytest.mark.parametrize(
    "reply", ["the ferry delivery is 30 a time", "the shipment is 45 a time", "the lorry drop is 70 at once"]
)
def test_a_figure_without_money_for_the_asked_fee_is_asked_about(reply: str) -> None:
    """A figure with no money word where the fee per order is asked could be the fee or an order limit: asked
    (which_row), neither row written."""
    agent, turn = _say(*_TO_FEE, reply)
    values = _values(turn)
    assert "setup_cost" not in values and "max_order" not in values, turn.assistant
    assert [c.kind for c in agent.table.conflicts] == ["which_row"], turn.assistant


@pytest.mark.parametrize(("pick", "row", "value"), [("A", "setup_cost", "30"), ("B", "max_order", "30")])
def test_the_which_row_question_writes_the_picked_row(pick: str, row: str, value: str) -> None:
    """The answer to the question writes only the row picked."""
    agent, turn = _say(*_TO_FEE, "the ferry delivery is 30 a time", pick)
    values = _values(turn)
    assert values.get(row) == value, turn.assistant
    assert {"setup_cost", "max_order"} - {row} - set(values) == {"setup_cost", "max_order"} - {row}
    assert not agent.table.conflicts


def test_a_figure_with_money_words_is_the_fee() -> None:
    """'30 dollars a time' says money: the fee, written without a question."""
    agent, turn = _say(*_TO_FEE, "the ferry delivery is 30 dollars a time")
    assert _values(turn).get("setup_cost") == "30", turn.assistant
    assert not agent.table.conflicts


# ---------------------------------------------------------------- 3. a weight with the pack size in one message


@pytest.mark.parametrize(
    ("reply", "mean"),
    [
        ("about 60 kilos a day, the 15-kilo sacks", "4"),
        ("about 60 pounds a day, the 15-pound sacks", "4"),
        ("roughly 90 kg a day in 30 kg sacks", "3"),
        ("around 48 litres a day, we use the 4-litre tubs", "12"),
    ],
)
def test_a_weight_with_its_pack_size_counts_packs(reply: str, mean: str) -> None:
    """The pack's own weight in the same message divides the amount (60 kg ÷ 15 kg = 4), read back; it is
    never the count, nor the weight the count."""
    _, turn = _say("I run a feed store selling chicken feed.", "plan for 90 days", reply)
    assert f"= {mean} units" in turn.assistant, turn.assistant
    assert f"around {mean} (Poisson with mean {mean})" in turn.assistant, turn.assistant


# ------------------------------------------- a bare amount answers the agent's own "which amount?" question


@pytest.mark.parametrize(
    ("storage", "answer", "units"),
    [
        ("somewhere between 60 and 90 jars", "80 jars", "80"),
        ("it's 100 or 120, depends how I stack them", "110 bags", "110"),
        ("anywhere from 40 to 70 tubs", "55 tubs", "55"),
    ],
)
def test_a_bare_amount_answers_which_amount_question(storage: str, answer: str, units: str) -> None:
    """'(A) 2 units, (B) 30 units, or another number?' answered '60 loaves': the storage, never a daily demand
    of 60 (it was read as demand, and the same question came back)."""
    agent, turn = _say(*_TO_STORAGE, storage)
    assert "another number" in turn.assistant, turn.assistant
    turn = agent.respond(answer)
    values = _values(turn)
    assert values.get("max_inventory") == units, turn.assistant
    assert values.get("demand_distribution") == "poisson(10)"
    assert not agent.table.conflicts


@pytest.mark.parametrize(
    ("storage", "units"),
    [
        ("two shelves, 40 jars on each", "80"),
        ("3 pallets with 50 on each", "150"),
        ("four fridges, 25 tubs in each", "100"),
    ],
)
def test_so_many_holders_with_so_many_on_each_are_multiplied(storage: str, units: str) -> None:
    """'two racks, 30 loaves on each' is 60, read back with its conversion (it was 'which: 2 or 30?')."""
    _, turn = _say(*_TO_STORAGE, storage)
    assert _values(turn).get("max_inventory") == units, turn.assistant
    assert "×" in turn.assistant


# ------------------------------------------------------------- a pack whose name says what it holds

_BEER = "I have an off-licence and want to plan a pale ale better."


@pytest.mark.parametrize(
    ("demand", "table"),
    [
        ("roughly four six-packs' worth a day, it goes up and down", "poisson(24)"),
        ("about 2 twelve-packs' worth a day, random", "poisson(24)"),
        ("around five 4-packs' worth daily, it varies", "poisson(20)"),
    ],
)
def test_a_named_pack_counts_its_contents(demand: str, table: str) -> None:
    """'three six-packs' worth a day' is 18 cans (it was written as 3, read back as 3): multiplied out and
    read back with its conversion."""
    agent, _ = _say(_BEER)
    agent.state.asked = "demand_type"
    turn = agent.respond(demand)
    assert _values(turn).get("demand_distribution") == table, turn.assistant
    assert "×" in turn.assistant


@pytest.mark.parametrize(
    ("opening", "demand", "table"),
    [
        ("I sell a local stout by the four-pack.", "about 7 four-packs a day, random", "poisson(7)"),
        ("We sell our lager by the six-pack, that's how we count it.", "around 12 six-packs a day, it varies",
         "poisson(12)"),
        ("I sell a craft cider by the twelve-pack.", "about 3 twelve-packs a day, random", "poisson(3)"),
    ],
)  # fmt: skip
def test_a_pack_the_owner_sells_by_stays_the_unit(opening: str, demand: str, table: str) -> None:
    """'I sell a local IPA by the six-pack': the six-pack is the table's unit, so six-packs a day stay packs."""
    agent, _ = _say(opening)
    agent.state.asked = "demand_type"
    turn = agent.respond(demand)
    assert _values(turn).get("demand_distribution") == table, turn.assistant


# ------------------------------------------------------ a risk number said with a verb, after the definition


@pytest.mark.parametrize("answer", ["put me at 5", "put me at 7", "put me at 2"])
def test_a_risk_number_put_with_a_verb_is_read(answer: str) -> None:
    """'put me at 5' after the risk question was read as no value at all, 20 times in a row (a dead end)."""
    agent = ExtractionAgent()
    agent.greeting()
    agent.state.asked = "risk_tolerance"
    turn = agent.respond(answer)
    assert _values(turn).get("risk_tolerance") == answer.split()[-1], turn.assistant


def test_no_row_definition_names_a_business_the_owner_may_not_run() -> None:
    """The rephrased risk question spoke of bread to a phone shop: the definitions speak of stock."""
    for key, meaning in MEANINGS.items():
        assert not {"bread", "bakery", "loaves"} & set(meaning.lower().replace(",", " ").split()), key


# ------------------------------------------------ a number answering a which-number question is that number


@pytest.mark.parametrize(
    ("said", "answer", "risk"),
    [
        ("neutral-ish, slightly careful, minus 1", "-1", "-1"),
        ("about neutral, maybe plus 1", "1", "1"),
        ("right in the middle, call it 2", "2", "2"),
        ("neutral-ish, slightly careful, minus 1", "the second one", "-1"),
    ],
)
def test_a_number_answering_which_number_is_that_number_never_a_place(said: str, answer: str, risk: str) -> None:
    """'(A) 0, (B) -1, or another number?' answered '-1' wrote 0: the digit was read as 'the first option'."""
    agent = ExtractionAgent()
    agent.greeting()
    agent.state.asked = "risk_tolerance"
    turn = agent.respond(said)
    if "risk_tolerance" in _values(turn):  # read at once: the stated number is the risk
        assert _values(turn)["risk_tolerance"] == risk, turn.assistant
        return
    assert agent.table.conflicts, turn.assistant
    turn = agent.respond(answer)
    assert _values(turn).get("risk_tolerance") == risk, turn.assistant


# ------------------------------------------- a number taken back that the row just written holds corrects it


@pytest.mark.parametrize(
    ("retract", "row", "value"),
    [
        ("sorry, not 45, 55", "setup_cost", "55"),
        ("oops, not 45 but 50", "setup_cost", "50"),
        ("sorry, I meant 40, not 45", "setup_cost", "40"),
    ],
)
def test_a_number_taken_back_corrects_the_row_that_holds_it(retract: str, row: str, value: str) -> None:
    """'sorry, not 45, 55' right after the fee of 45 was written: 55 was written as the storage asked next."""
    agent, turn = _say(*_TO_STORAGE, retract)
    values = _values(turn)
    assert values.get(row) == value, turn.assistant
    assert "max_inventory" not in values


# ------------------------------------------------------- a weight sold is no cost in pounds sterling


@pytest.mark.parametrize(
    "demand",
    ["about 25 pounds a day, give or take 5", "roughly 40 pounds a day, it varies", "30 pounds a day or so, random"],
)
def test_a_weight_per_day_while_demand_is_asked_is_no_holding_cost(demand: str) -> None:
    """'about 25 pounds a day' to the demand question was written as a holding cost of 25 GBP per unit per day."""
    agent, _ = _say("I run a butcher's and want to plan mince.")
    agent.state.asked = "demand_type"
    turn = agent.respond(demand)
    assert "holding_cost" not in _values(turn), turn.assistant


# ------------------------------------------------------------- 'is that per day or per week?'


@pytest.mark.parametrize(
    ("asked", "question", "answer"),
    [
        ("demand_type", "is that per day or per week?", "Per day"),
        ("holding_cost", "do you mean per week or per day?", "Per unit and per day"),
        ("setup_cost", "is that a daily figure?", "Per order"),
    ],
)
def test_a_question_about_the_period_is_answered_and_sets_nothing(asked: str, question: str, answer: str) -> None:
    """'is that per day or per week?' got 'each option below says what I would put in the table'."""
    agent, _ = _say("I run a garden centre selling compost.")
    agent.state.asked = asked
    turn = agent.respond(question)
    assert turn.assistant.startswith(answer), turn.assistant
    assert not _values(turn)


# ------------------------------------------- a price pair is never the answer to "shall I put X (yes)?"


@pytest.mark.parametrize(
    "reply",
    [
        "hmm, a stem costs me 80 cents and sells for 2.50, so that's what I miss",
        "well one costs me 1.20 and goes for 3, that's the gap",
        "I buy them at 40 cents and sell at a dollar",
    ],
)
def test_a_purchase_and_sale_price_never_confirm_a_holding_cost(reply: str) -> None:
    """'Shall I put holding cost = 0.05 (yes)?' answered with a purchase and a sale price wrote the purchase
    price, 0.8, as the holding cost."""
    agent, turn = _say("I run a florist, roses.")
    agent.state.asked = "holding_cost"
    turn = agent.respond("um, maybe 5 cents a stem a day?")
    assert agent.table.conflicts, turn.assistant
    turn = agent.respond(reply)
    assert _values(turn).get("holding_cost") in (None, "0.05"), turn.assistant


# ------------------------------------------------ an amount per delivery is a fee per order, whatever was asked


@pytest.mark.parametrize("said", ["10 per delivery", "the courier is 20 per trip", "the van charges 15 a drop"])
def test_an_amount_per_delivery_is_never_a_penalty(said: str) -> None:
    """'10 per delivery' to the penalty question was written as a penalty of 10 per unit."""
    agent, _ = _say("I run a garden centre selling compost.")
    agent.state.asked = "penalty_cost"
    turn = agent.respond(said)
    assert "penalty_cost" not in _values(turn), turn.assistant
    assert _values(turn).get("setup_cost") == next(w for w in said.split() if w.isdigit()), turn.assistant


@pytest.mark.parametrize(
    ("said", "units"),
    [("the cooler takes 4 buckets of 25", "100"), ("the shed holds 6 crates of 20", "120"),
     ("our fridge fits 3 trays of 12", "36")],
)  # fmt: skip
def test_a_count_of_goods_is_never_offered_as_a_cost(said: str, units: str) -> None:
    """'the cooler takes 4 buckets of 25' to the penalty question: '(A) penalty cost = 100 or (B) storage?'."""
    agent, _ = _say("I run a florist, roses.")
    agent.state.asked = "penalty_cost"
    turn = agent.respond(said)
    assert _values(turn).get("max_inventory") == units, turn.assistant
    assert "penalty" not in turn.assistant.split("?")[0].lower() or "(A)" not in turn.assistant


# ------------------------------------------- a purchase or sale price is never written as the penalty


@pytest.mark.parametrize(
    ("said", "penalty"),
    [
        ("a crate costs me 9 and sells for 15, so I'm 6 down when I miss one", "6"),
        ("one costs me 3 and goes for 8, I'm 5 out of pocket each time", "5"),
        ("each one costs me 2.50 and sells for 4, so 1.50 short when I miss one", "1.5"),
    ],
)
def test_a_price_is_never_the_penalty_when_the_loss_is_stated(said: str, penalty: str) -> None:
    """'a six-pack costs me 7 and sells for 12, so I'm 5 down when I miss one' wrote the purchase price, 7."""
    agent, _ = _say("I run an off-licence, cider crates.")
    agent.state.asked = "penalty_cost"
    turn = agent.respond(said)
    assert _values(turn).get("penalty_cost") in (penalty, None), turn.assistant
    assert _values(turn).get("penalty_cost") not in (said.split()[4], said.split()[8])
