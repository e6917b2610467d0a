"""Slot reading on sentences phrased unlike the bank: whole-sentence phrasings, stricter stock-out and
perishability facts, spoken durations, and asking when two cost rows read almost alike."""

from __future__ import annotations

import pytest

from core.inventory.nlu import cues
from core.inventory.nlu.extractors import read_message
from core.text.units import find_durations
from tests.support.slots import table_after


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("for the coming month", 30),
        ("over a whole year", 365),
        ("the following fortnight", 14),
        ("this coming quarter", 90),
        ("the entire week", 7),
    ],
)
def test_spoken_spans_are_durations(text: str, days: float) -> None:
    assert [d.days for d in find_durations(text)] == [days]


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("After I email the dairy, the cheese arrives 6 days later.", {"lead_time": "6"}),
        ("When we order from the brewery it gets here a week later.", {"lead_time": "7"}),
        ("Keeping one tin in the cupboard for a day costs me 20 cents.", {"holding_cost": "0.2"}),
        ("We lose $5 on every unit of demand we cannot serve.", {"penalty_cost": "5"}),
        ("Customers buy precisely 9 a day.", {"demand_type": "deterministic", "demand_distribution": "9"}),
        ("Let's look at the coming month.", {"time_horizon": "30"}),
        ("These cheeses are perishable.", {"perishability": "true"}),
        ("The lotions on our shelves have expiry dates.", {"perishability": "true"}),
        ("Tinned fish is not perishable.", {"perishability": "false"}),
    ],
)
def test_sentences_set_exactly_their_row(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


def test_a_supplier_wait_is_no_stock_out_rule() -> None:
    assert cues.facts("it arrives 4 days later") is None
    assert cues.facts("customers wait for the next delivery") == "backlog"


def test_a_spoil_word_without_denial_is_not_keeping() -> None:
    assert cues.facts("the vials are perishable") != "not_perishable"
    assert cues.facts("the vials are not perishable") == "not_perishable"


def test_two_cost_rows_read_alike_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    ranking = (("holding_cost", 0.42), ("penalty_cost", 0.38), ("none", 0.2))
    monkeypatch.setattr(cues, "_ranking", lambda clause: ranking)
    assert cues.rival("each one costs me $2", "holding_cost") == "penalty_cost"
    reading = read_message("each one costs me $2")
    assert not reading.findings
    assert [u.key for u in reading.unclear] == ["holding_cost"]
    assert "penalty" in reading.unclear[0].message


def test_a_named_cost_row_is_read_despite_a_close_rival(monkeypatch: pytest.MonkeyPatch) -> None:
    ranking = (("holding_cost", 0.42), ("penalty_cost", 0.38), ("none", 0.2))
    monkeypatch.setattr(cues, "_ranking", lambda clause: ranking)
    assert [(f.key, f.value) for f in read_message("storage is $2 per unit per day").findings] == [
        ("holding_cost", "2")
    ]


def test_money_only_clause_weighs_cost_rows_among_themselves(monkeypatch: pytest.MonkeyPatch) -> None:
    ranking = (("max_order", 0.5), ("setup_cost", 0.25), ("none", 0.1), ("penalty_cost", 0.05))
    monkeypatch.setattr(cues, "_ranking", lambda clause: ranking)
    assert cues.topics("the distributor bills $18 per order") == ["setup_cost"]
    ranking = (("none", 0.8), ("setup_cost", 0.1), ("penalty_cost", 0.05))
    assert cues.topics("that's $18, by the way") == []


def test_one_clause_stock_out_rule_must_be_what_the_sentence_says(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.inventory.nlu import extractors

    text = "Buyers leave their name, and we text them when the part is in."
    monkeypatch.setattr(extractors, "facts", lambda c: "lost_sale" if c.startswith("Buyers") else None)
    monkeypatch.setattr(
        extractors, "fact_ranking", lambda t: {"backlog": 0.45, "lost_sale": 0.2, "none": 0.35}
    )
    assert read_message(text).transitions == ()  # 'leave' alone reads as walking out; the sentence disagrees
    monkeypatch.setattr(extractors, "fact_ranking", lambda t: {"backlog": 0.1, "lost_sale": 0.6, "none": 0.3})
    assert read_message(text).transitions == ("lost_sale",)


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("I'd like to look ahead the next 5 weeks.", {"time_horizon": "35"}),
        ("The marble comes by ship, around 40 days door to door.", {"lead_time": "40"}),
        ("Sending in an order sets us back $11.", {"setup_cost": "11"}),
        ("Our wraps have to be sold the same day or thrown out.", {"perishability": "true"}),
    ],
)
def test_more_whole_sentence_phrasings(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


def test_a_unit_and_a_half_is_one_duration() -> None:
    from core.text.units import join_halves

    assert [d.days for d in find_durations("a week and a half")] == [10.5]
    assert join_halves("it takes 2 weeks and a half, maybe") == "it takes 2.5 weeks, maybe"
    assert table_after("Let's plan a month and a half.") == {"time_horizon": "45"}
    assert "lead_time" not in table_after("Their turnaround is a week and a half.")  # not 7: whole days, so it asks


def test_without_fail_is_fixed_demand() -> None:
    assert table_after("We sell 40 units each day without fail.") == {
        "demand_type": "deterministic",
        "demand_distribution": "40",
    }


@pytest.mark.parametrize("text", ["20 days", "6 days", "two weeks", "about 45 days"])
@pytest.mark.parametrize("asked", ["time_horizon", "lead_time"])
def test_a_bare_duration_answers_the_row_asked(text: str, asked: str) -> None:
    assert cues.topics(text) == []  # the lead-time phrasings in the bank must not claim a bare duration
    assert [f.key for f in read_message(text, asked).findings] == [asked]


def test_a_count_of_items_is_no_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    ranking = (("penalty_cost", 0.8), ("none", 0.15), ("demand", 0.05))
    monkeypatch.setattr(cues, "_ranking", lambda clause: ranking)
    assert cues.topics("if a shopper wants 1") == []  # a whole count, no money: not the penalty
    assert cues.topics("it's 2.5 a time") == ["penalty_cost"]  # 'two fifty', a spoken price
    assert cues.topics("if a shopper wants 1, that's $3 lost") == ["penalty_cost"]


def test_the_wanted_item_is_not_read_as_the_penalty() -> None:
    assert table_after("If a shopper wants one and the shelf is bare, that's $3.50 gone.") == {"penalty_cost": "3.5"}


@pytest.mark.parametrize(
    "text",
    ["the cream expires so we can't keep much of it around", "these won't keep past Sunday"],
)
def test_cannot_keep_it_long_is_a_shelf_life(text: str) -> None:
    assert read_message(text).perishable == "true"


def test_spoils_and_keeps_in_one_message_is_asked_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.inventory.nlu import extractors

    said = {"the milk goes off fast": "perishable", "the tins keep for years": "not_perishable"}
    monkeypatch.setattr(extractors, "facts", lambda clause: said.get(clause))
    assert extractors._perishability("the milk goes off fast, the tins keep for years", None) == (None, None)


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("non-perishable goods", True),
        ("they do not expire", True),
        ("nothing here goes bad", True),
        ("it is perishable", False),
        ("the milk expires so we can't keep it long", False),  # the denial is about keeping, not spoiling
    ],
)
def test_a_spoil_word_is_denied_only_inside_the_toolkits_negation_scope(text: str, denied: bool) -> None:
    assert cues._denied_spoil(text) is denied


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("If I order bike chains on a Monday, they arrive the following Monday.", {"lead_time": "7"}),
        ("we place the order friday and the truck comes tuesday", {"lead_time": "4"}),
        ("on Monday I phone the mill and on Thursday the flour arrives", {"lead_time": "3"}),
        ("we do the stock count on Monday and order on Wednesday", {}),
        ("we're open Monday to Saturday", {}),
    ],
)
def test_an_order_day_and_an_arrival_day_are_a_lead_time(text: str, expect: dict[str, str]) -> None:
    assert table_after(text) == expect


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("Spark plugs I order on a Wednesday get dropped off the following Wednesday.", {"lead_time": "7"}),
        ("the co-op caps any single order at 6 dozen eggs", {"max_order": "72"}),
        ("the truck carries 40 crates, so that's the most I can order at once", {"max_order": "40"}),
        ("we can keep 300 jars, that's all the shelf room we have", {"max_inventory": "300"}),
        ("strawberries go mouldy in no time", {"perishability": "true"}),
        ("Our allocation from the wholesaler is 30 cartons per order.", {"max_order": "30"}),
    ],
)
def test_readings_from_the_sixth_blind_batch_generalise(text: str, expect: dict[str, str]) -> None:
    """Misses of inventory_slots_fresh6 (measured once, then fixed generically), each tested on a new sentence:
    a single-clause weekday span, digits before 'dozen', a clause pointing back at the value before it, the
    idiom 'in no time', and a counted number that is no lead time."""
    assert table_after(text) == expect
