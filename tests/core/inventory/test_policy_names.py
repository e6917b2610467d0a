"""The engine's own policy and distribution strings, split without reading chat text (`engine_call`)."""

from __future__ import annotations

import pytest

from core.inventory.policy_names import EngineCall, engine_call, plain_name, plain_value


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("sS(8,20)", EngineCall("sS", ("8", "20"))),
        ("base_stock(48, cap=24)+cutoff", EngineCall("base_stock", ("48", "cap=24"), True)),
        (" rQ(5,10) +cutoff ", EngineCall("rQ", ("5", "10"), True)),
        ("dp", None),
        ("sS(8,20", None),
        ("x(a)(b)", None),
    ],
)
def test_engine_call_splits_engine_names(text: str, call: EngineCall | None) -> None:
    assert engine_call(text) == call


def test_a_distribution_never_takes_a_cutoff_tail() -> None:
    assert engine_call("normal(20,7.5)+cutoff", cutoff=False) is None
    assert plain_value("demand_distribution", "normal(20,7.5593)") == "about 20 a day, give or take 7.6"


def test_plain_names_of_the_engine_strings() -> None:
    assert plain_name("sS(8,20)") == "when below 8, top up to 20"
    assert plain_name("base_stock(48,cap=24)", unit="units") == "order up to 48 units, at most 24 a day"
    assert plain_name("mystery(1)") == "mystery(1)"
