"""The row readers of `nlu/extractors.py` read the one parse's tokens (issue 27 item 5), not regex tables."""

from __future__ import annotations

import pytest

from core.inventory.nlu.extractors import read_message, read_row


def test_a_word_said_with_s_is_still_that_word() -> None:
    """'rent's' is one token of the parse; a running cost of the shop is never a holding cost per day."""
    reading = read_message("my rent's 1200 a month, that's what storage costs me", "holding_cost")
    assert not any(f.key == "holding_cost" for f in reading.findings)


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("setup_cost", "there's no set-up fee", "0"),
        ("lead_time", "it comes same-day", "0"),
        ("lead_time", "it takes about a full day", "1"),
        ("max_order", "there's no real limit", "capacity"),
        ("max_order", "as much as we want", "capacity"),
    ],
)
def test_row_cues_on_the_tokens(key: str, text: str, value: str) -> None:
    found = read_row(key, text)
    assert found is not None and getattr(found, "value", None) == value
