"""A container with a price ('a pack is 4 bucks') states no size: blind batch 17 (b17-15) multiplied a later
'40 packs' by 4. A container with a count ('a crate is 24 jars', 'a case is 12') still does."""

from __future__ import annotations

import pytest

from core.text.mentions import Kind, container_sizes, parse


@pytest.mark.parametrize(
    "text", ["a pack is 4 bucks but without it i lose 45", "a box is 3 dollars", "a bag is 50 cents", "a box is $3"]
)
def test_a_price_after_is_is_money_not_a_size(text: str) -> None:
    said = parse(text)
    assert container_sizes(said) == {}
    assert said.of(Kind.MONEY)


@pytest.mark.parametrize(("text", "size"), [("a crate is 24 jars", 24.0), ("a case is 12", 12.0),
                                             ("cases of 12", 12.0)])
def test_a_count_after_is_is_a_size(text: str, size: float) -> None:
    assert list(container_sizes(parse(text)).values()) == [size]
