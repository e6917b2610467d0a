"""The reader's clause caches (`core/inventory/nlu/cues.py: prime`) are shared by every session's thread: a
clause another thread is classifying is never visible half-cached (in a class, two students sending the same
sentence at once hit `KeyError` in `facts`)."""

from __future__ import annotations

import pytest

from core.inventory.nlu import cues


class _Rows(dict):
    """`_ROWS` noting, when clauses appear in it, whether their facts are cached yet."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.half: list[str] = []

    def update(self, *args: object, **kwargs: object) -> None:
        before = set(self)
        super().update(*args, **kwargs)
        self.half += [c for c in self if c not in before and c not in cues._FACTS]


def test_a_clause_is_listed_as_read_only_once_its_fact_is_cached_too(monkeypatch: pytest.MonkeyPatch):
    clause = "Holding a case costs $0.50 per unit per day, as two students typed at once"
    rows = _Rows(cues._ROWS)
    monkeypatch.setattr(cues, "_ROWS", rows)
    monkeypatch.setattr(cues, "_FACTS", dict(cues._FACTS))
    cues.prime([clause])
    assert clause in rows and rows.half == []  # a thread that skips it (already in _ROWS) finds its fact
    assert cues.facts(clause) in (None, *cues.FACTS)


def test_a_denied_walk_away_is_a_customer_who_stays() -> None:
    assert cues.customers_stay("nobody walks away, they wait for restock")
    assert not cues.customers_stay("if the flowers aren't here they walk away")


def test_a_number_before_a_bullet_counts_nothing() -> None:
    text = "a standard deviation of 3\n• People will come back"
    assert not cues.counts_things(text, text.index("3") + 1)
    assert cues.counts_things("25 doses per order", 2)
    assert not cues.counts_things("25 days", 2)
