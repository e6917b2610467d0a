"""Spoken amounts of money: coins, and 'a quarter' only when it is paid (never three months or a fourth)."""

from __future__ import annotations

import pytest

from core.text.units import spoken_money


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("each pot plant costs me a quarter a day", "each pot plant costs me 25 cents a day"),
        ("storage is a quarter per box", "storage is 25 cents per box"),
        ("we lose about a quarter every time", "we lose about 25 cents every time"),
        ("it runs us 3 quarters a week", "it runs us 75 cents a week"),
        ("a dime a day", "10 cents a day"),
        ("a dollar and a half", "1.5 dollar"),
    ],
)
def test_spoken_amounts_become_money(text: str, expected: str) -> None:
    assert spoken_money(text) == expected


@pytest.mark.parametrize(
    "text",
    ["we plan for a quarter", "a quarter of our stock spoils", "let's look a quarter ahead", "we lose a quarter of it"],
)
def test_a_quarter_that_is_not_paid_stays(text: str) -> None:
    assert spoken_money(text) == text
