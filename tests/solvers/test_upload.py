"""solvers/upload.py: a path that is missing or not a regular file is refused the same way by both readers, and
one record parser turns every malformed record into one error naming the file and the record."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import SpecError
from solvers.upload import iter_lines, parse_record, read_bounded


def _read_all(source: Path) -> object:
    return list(iter_lines(source, field="f", name="data.txt", max_bytes=100, max_lines=10))


@pytest.mark.parametrize("read", [lambda p: read_bounded(p, field="f", name="data.txt", max_bytes=100), _read_all])
def test_both_readers_refuse_a_missing_file_and_a_folder(tmp_path: Path, read) -> None:  # noqa: ANN001
    with pytest.raises(SpecError, match="data.txt: file not found"):
        read(tmp_path / "missing.txt")
    with pytest.raises(SpecError, match="data.txt is not a regular file"):
        read(tmp_path)
    (tmp_path / "ok.txt").write_text("one\ntwo\n")
    assert read(tmp_path / "ok.txt") in (b"one\ntwo\n", [(1, "one\n"), (2, "two\n")])


def _point(data: dict) -> tuple[int, int]:
    if "x" not in data:
        raise SpecError("x", "is missing")
    return int(data["x"]), int(data["y"])


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([1, 2], "f.json line 3: a point must be an object"),
        ({"y": 1}, "f.json line 3: x: is missing"),
        ({"x": "a", "y": 1}, "f.json line 3: malformed point (invalid literal"),
        ({"x": 1}, "f.json line 3: malformed point ('y')"),
        ({"x": float("inf"), "y": 1}, "f.json line 3: malformed point (cannot convert float infinity"),
    ],
)
def test_parse_record_names_the_file_and_the_record(record: object, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_record(
            record, _point, field="points", where="f.json line 3", not_object="a point must be an object", what="point"
        )
    assert caught.value.field == "points"
    assert message in str(caught.value)


def test_parse_record_returns_the_parsed_record() -> None:
    kwargs = {"field": "points", "where": "w", "not_object": "n", "what": "point"}
    assert parse_record({"x": 2, "y": 3}, _point, **kwargs) == (2, 3)
