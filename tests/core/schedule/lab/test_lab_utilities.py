"""The shipped utility set is exactly what the generator produces, and every record is consistent."""

from __future__ import annotations

import json

import pytest

from core.errors import SpecError
from core.schedule.lab.utilities import UTILITIES_PATH, generate, load_utilities, parse
from solvers.schedule.utility import sfusd_space


def test_shipped_set_is_reproducible() -> None:
    shipped = json.loads(UTILITIES_PATH.read_text(encoding="utf-8"))
    assert generate() == shipped


def test_shipped_records_attain_their_u_star() -> None:
    space = sfusd_space()
    utilities = load_utilities()
    assert len(utilities) == json.loads(UTILITIES_PATH.read_text())["count"]
    assert len({u.key for u in utilities}) == len(utilities)
    for u in utilities:
        assert u.optimum(space)[0] == pytest.approx(u.u_star, abs=1e-6)


def test_malformed_record_names_its_index() -> None:
    with pytest.raises(SpecError, match=r"utilities\[0\]"):
        parse({"utilities": [{"key": "a"}]})
    with pytest.raises(SpecError, match="utilities"):
        parse({"nothing": 1})
