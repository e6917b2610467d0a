"""`solvers.records.read_fields`: typed reads by annotation, defaults, given fields, the field named in errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import pytest

from core.errors import SpecError
from solvers.records import read_fields


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Record:
    name: str
    count: int
    weight: float
    colour: Colour
    flag: bool = False
    slots: tuple[int, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)


def test_reads_each_field_by_its_type_and_keeps_defaults() -> None:
    r = read_fields(Record, {"name": 7, "count": "3", "weight": "0.5", "colour": "blue", "slots": ["1", 2]}, "rec")
    assert r == Record(name="7", count=3, weight=0.5, colour=Colour.BLUE, slots=(1, 2))
    assert r.flag is False and r.notes == {}


def test_given_fields_are_taken_as_they_are() -> None:
    data = {"name": "a", "count": 1, "weight": 1, "colour": "red", "notes": "ignored"}
    r = read_fields(Record, data, "rec", notes={"k": "v"}, count=9)
    assert r.notes == {"k": "v"} and r.count == 9


def test_missing_required_field_is_named() -> None:
    with pytest.raises(SpecError, match="^weight: is missing from the test record"):
        read_fields(Record, {"name": "a", "count": 1, "colour": "red"}, "test record")


@pytest.mark.parametrize(
    ("key", "value"), [("count", "three"), ("weight", None), ("colour", "green"), ("flag", "yes"), ("slots", [1, "x"])]
)
def test_unreadable_value_is_named(key: str, value: object) -> None:
    data = {"name": "a", "count": 1, "weight": 1.0, "colour": "red", key: value}
    with pytest.raises(SpecError) as err:
        read_fields(Record, data, "rec")
    assert err.value.field == key


def test_a_field_without_a_reader_must_be_given() -> None:
    with pytest.raises(TypeError, match="given"):
        read_fields(Record, {"name": "a", "count": 1, "weight": 1.0, "colour": "red", "notes": {}}, "rec")
