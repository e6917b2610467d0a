"""The policy parser on 48 phrasings: evaluable ones read exactly, the rest "not evaluable" with a reason."""

from __future__ import annotations

import pytest

from core.inventory.lab.policy_parser import parse_policy
from solvers.inventory.policies import SSPolicy

EVALUABLE = [
    ("I recommend an (s, S) policy with (s, S) = (20, 80).", "sS", {"s": 20, "S": 80}),
    ("Use (s = 12, S = 45).", "sS", {"s": 12, "S": 45}),
    ("Policy: s=7, S=30 (inventory position based).", "sS", {"s": 7, "S": 30}),
    ("**Reorder point (s): 15 units**, **Order-up-to level (S): 60 units**", "sS", {"s": 15, "S": 60}),
    ("Set the reorder point at 18 and the order-up-to level at 55.", "sS", {"s": 18, "S": 55}),
    ("When inventory falls below 20 units, order up to 80 units.", "sS", {"s": 20, "S": 80}),
    (
        "I recommend an (s, S) policy: when the sum of on-hand and on-order inventory drops below 35 units, "
        "order up to a total of 150 units.",
        "sS",
        {"s": 35, "S": 150},
    ),
    (
        "Whenever your inventory position drops to or below 24, order enough to bring it up to 60.",
        "sS",
        {"s": 25, "S": 60},
    ),
    ("If stock falls to 10, replenish up to 40.", "sS", {"s": 11, "S": 40}),
    ("Once the inventory position is under twenty, order up to seventy.", "sS", {"s": 20, "S": 70}),
    ("Order up to 90 units whenever inventory drops below 30.", "sS", {"s": 30, "S": 90}),
    ("When inventory is at or below 9 units, raise it up to 33 units.", "sS", {"s": 10, "S": 33}),
    ("If on-hand plus on-order stock is less than 16, top up to 48.", "sS", {"s": 16, "S": 48}),
    ("(s, S) = (20, 80). In words: when inventory drops below 20, order up to 80.", "sS", {"s": 20, "S": 80}),
    ("When inventory falls below 20 units, order 80 units.", "rQ", {"R": 20, "Q": 80}),
    ("Use an (R, Q) policy with (R, Q) = (25, 40).", "rQ", {"R": 25, "Q": 40}),
    ("R = 14 and Q = 30.", "rQ", {"R": 14, "Q": 30}),
    ("Reorder point 22 units with an order quantity of 35.", "rQ", {"R": 22, "Q": 35}),
    (
        "Whenever stock drops to 12 or below... sorry: whenever stock drops below 12, place an order for 25 units.",
        "rQ",
        {"R": 12, "Q": 25},
    ),
    ("Order 40 units as soon as inventory falls below 15.", "rQ", {"R": 15, "Q": 40}),
    ("Keep a base-stock level of 45 units.", "base_stock", {"S": 45}),
    ("Use a base stock policy with S = 38.", "base_stock", {"S": 38}),
    ("Every day, order enough to bring the inventory position up to 52.", "base_stock", {"S": 52}),
    ("Order up to 27 units every day.", "base_stock", {"S": 27}),
    ("Order 8 units every day.", "constant", {"q": 8}),
    ("Place a constant order of 6 per day: order exactly 6 units each day.", "constant", {"q": 6}),
    ("Buy a fixed quantity of twelve units per period.", "constant", {"q": 12}),
    ("Constant order quantity of 9.", "constant", {"q": 9}),
]

NOT_EVALUABLE = [
    ("We should consider optimizing inventory.", "no numbers"),
    ("You need a better plan.", "no numbers"),
    ("You need to order more when inventory is below 5 units.", "trigger without"),
    ("Reorder when stock gets low, roughly every week.", "no numbers"),
    ("Order between 20 and 30 units when needed.", "range"),
    ("Keep about 20-25 units on hand.", "range"),
    ("When inventory drops below 12.5, order up to 40.", "fractional"),
    ("Use (s, S) = (30, 20).", "inconsistent"),
    ("Keep three days of safety stock.", "no complete"),
    ("Aim for a 95% service level with daily demand of 8.", "no complete"),
    ("(s, S) = (20, 80), or alternatively (s, S) = (25, 90) if you prefer.", "several"),
    (
        "When inventory falls below 20, order up to 80. In peak weeks, order 50 units when it falls below 30.",
        "several",
    ),
    ("Order around 10% more than last month.", "no complete"),
    ("", "empty"),
    ("Order whenever you think it's right.", "no numbers"),
    ("Monitor your stock levels closely and adjust orders as needed.", "no numbers"),
    ("Your reorder point should be 15.", "no complete"),
    ("Order up to the capacity of 100 when needed.", "no complete"),
    ("Hold 40 units of stock at all times, give or take.", "no complete"),
    ("Order 30 units.", "no complete"),
]


@pytest.mark.parametrize(("text", "family", "params"), EVALUABLE)
def test_evaluable(text: str, family: str, params: dict[str, int]) -> None:
    parsed = parse_policy(text)
    assert parsed.evaluable, parsed.note
    assert (parsed.family, parsed.params) == (family, params)
    assert parsed.source == text and parsed.policy is not None


@pytest.mark.parametrize(("text", "reason"), NOT_EVALUABLE)
def test_not_evaluable(text: str, reason: str) -> None:
    parsed = parse_policy(text)
    assert not parsed.evaluable, parsed.describe()
    assert parsed.policy is None
    assert reason in parsed.note
    assert parsed.describe().startswith("not evaluable")


def test_counts_and_basis() -> None:
    assert len(EVALUABLE) + len(NOT_EVALUABLE) >= 40
    on_hand = parse_policy("When on-hand stock drops below 10, order up to 30.")
    assert on_hand.basis == "on_hand" and "inventory position" in on_hand.note
    assert (
        parse_policy("When the inventory position drops below 10, order up to 30.").basis
        == "inventory_position"
    )
    assert parse_policy("s=3, S=9").policy == SSPolicy(3, 9)
