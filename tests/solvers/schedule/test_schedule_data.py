"""District data: shipped Table 6, time parsing, and upload validation with field-naming errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers.schedule.data as data
from core.errors import OrcaError, SpecError
from solvers.schedule.data import (
    District,
    format_time,
    load_district,
    parse_schools,
    parse_start_times,
    parse_time,
    sfusd_district,
)


def test_shipped_sfusd_data_matches_table_6():
    district = sfusd_district()
    assert len(district.schools) == 10
    assert sum(s.enrollment for s in district.schools) == 5857
    assert district.time_labels == ("7:50 AM", "8:40 AM", "9:30 AM")
    balboa = district.schools[district.school_index("Balboa HS")]
    assert (balboa.grade, balboa.enrollment, format_time(balboa.current_start)) == ("HS", 1226, "8:15 AM")


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("7:50 AM", 470),
        ("7:50am", 470),
        ("12:05 PM", 725),
        ("12:00 am", 0),
        ("13:10", 790),
        ("9", 540),
        ("9:30 p.m.", 1290),
    ],
)
def test_parse_time(text, minutes):
    assert parse_time(text) == minutes
    assert parse_time(format_time(minutes)) == minutes


@pytest.mark.parametrize("text", ["25:00", "7:75 AM", "noon", "13:00 PM", ""])
def test_parse_time_rejects_bad_values(text):
    with pytest.raises(SpecError):
        parse_time(text)


def test_upload_with_aliases_and_any_size():
    csv_text = 'School,Grade,Students,Current Start\nA,ES,100,8:00 AM\nB,MS,"1,200",8:30 AM\nC,HS,50,9:10 AM\nD,HS,75,7:45 AM\n'
    district = load_district(csv_text.encode(), ["7:30 AM", "8:15", "9:00 AM", "9:45 AM", "10:00 AM"])
    assert district.names == ("A", "B", "C", "D")
    assert district.schools[1].enrollment == 1200
    assert len(district.start_times) == 5


@pytest.mark.parametrize(
    ("csv_text", "field_part"),
    [
        ("name,grade,enrollment\nA,ES,10\n", "district"),
        ("name,grade,enrollment,current_start\nA,ES,ten,8:00 AM\n", "line 2 enrollment"),
        ("name,grade,enrollment,current_start\nA,ES,10,8:00 AM\nB,ES,20,late\n", "line 3 current_start"),
        ("name,grade,enrollment,current_start\n,ES,10,8:00 AM\n", "line 2 name"),
        ("name,grade,enrollment,current_start\n", "district"),
    ],
)
def test_upload_errors_name_the_field(csv_text, field_part):
    with pytest.raises(SpecError) as err:
        parse_schools(csv_text)
    assert field_part in err.value.field


def test_missing_column_message_lists_required_columns():
    with pytest.raises(SpecError, match="current_start"):
        parse_schools("name,grade,enrollment\nA,ES,10\n")


def test_duplicate_school_names_rejected():
    with pytest.raises(SpecError, match="repeated: A"):
        load_district(b"name,grade,enrollment,current_start\nA,ES,1,8:00\nA,ES,2,8:00\n")


def test_start_times_csv_sorted_and_duplicates_refused():
    assert parse_start_times("start_time\n9:30 AM\n7:50 AM\n") == (470, 570)
    with pytest.raises(SpecError, match="7:50 AM is listed more than once"):
        parse_start_times("start_time\n9:30 AM\n7:50 AM\n7:50\n")


def test_enrollments_bounded_and_not_all_zero():
    with pytest.raises(SpecError, match="above the limit") as err:
        load_district(b"name,grade,enrollment,current_start\nA,ES,1000000000000000,8:00\n")
    assert err.value.field == "enrollment"
    with pytest.raises(SpecError, match="no load to balance"):
        load_district(b"name,grade,enrollment,current_start\nA,ES,0,8:00\nB,ES,0,8:00\n")


def test_district_rejects_unsorted_times_and_unknown_lookups():
    district = sfusd_district()
    with pytest.raises(SpecError) as err:
        District(district.schools, (570, 470))
    assert err.value.field == "start_times"
    with pytest.raises(SpecError, match="7:50 AM, 8:40 AM, 9:30 AM"):
        district.time_index(500)


def test_row_with_an_extra_field_names_line_and_column():
    text = "name,grade,enrollment,current_start\nA,ES,300,8:00 AM\nB,ES,300,8:00 AM,oops\n"
    with pytest.raises(SpecError, match=r"district line 3.*column 5 \('oops'\) is extra"):
        parse_schools(text)


def test_latin1_file_is_a_spec_error_naming_the_file(tmp_path):
    path = tmp_path / "caf\u00e9.csv"
    path.write_bytes("name,grade,enrollment,current_start\nCaf\u00e9 ES,ES,300,8:00 AM\n".encode("latin-1"))
    with pytest.raises(SpecError, match=r"caf\u00e9\.csv is not UTF-8"):
        parse_schools(path)
    with pytest.raises(SpecError, match="uploaded district CSV is not UTF-8"):
        parse_schools(path.read_bytes())


def test_start_times_without_header_keep_the_first_time():
    assert parse_start_times("7:30 AM\n8:30 AM\n9:30 AM\n") == (450, 510, 570)
    assert parse_start_times("start_time\n7:30 AM\n8:30 AM\n") == (450, 510)


def test_district_names():
    assert sfusd_district().name == "San Francisco Unified School District"
    text = "name,grade,enrollment,current_start\nA,ES,300,8:00 AM\n"
    assert load_district(text, ["8:00 AM"]).name == "uploaded school district"


HEADER = "name,grade,enrollment,current_start\n"


def test_an_oversized_district_file_is_refused_before_parsing(tmp_path, monkeypatch):
    """The probe's 27 MB, 1.2-million-row file: refused after reading at most the cap + 1 bytes."""
    import pathlib

    path = tmp_path / "big.csv"
    row = "Washington Elementary School number 000000,ES,300,8:00 AM\n"
    with path.open("w") as handle:
        handle.write(HEADER)
        for k in range(27_000_000 // len(row)):
            handle.write(row.replace("000000", f"{k:06d}"))
    read = []
    real_open = pathlib.Path.open

    def counting_open(self, mode="r", *args, **kwargs):
        handle = real_open(self, mode, *args, **kwargs)
        real_read = handle.read
        handle.read = lambda size=-1: read.append(size) or real_read(size)
        return handle

    monkeypatch.setattr(pathlib.Path, "open", counting_open)
    with pytest.raises(SpecError, match=r"big.csv is larger than the limit of 5 MB") as err:
        parse_schools(path)
    assert err.value.field == "district" and read == [data.MAX_DISTRICT_BYTES + 1]


def test_rows_past_the_school_limit_stop_the_reading(monkeypatch):
    rows = "".join(f"S{k},ES,10,8:00 AM\n" for k in range(data.MAX_SCHOOLS + 50))
    with pytest.raises(SpecError, match=r"more than 5,000 rows") as err:
        parse_schools((HEADER + rows).encode())
    assert err.value.field == f"district line {data.MAX_SCHOOLS + 2}"
    calls = []
    real = data.School
    monkeypatch.setattr(data, "School", lambda *a: calls.append(a) or real(*a))
    with pytest.raises(SpecError):
        parse_schools((HEADER + rows).encode())
    assert calls == []  # refused while reading, before any school is built


@pytest.mark.parametrize("bad", ["\x00", "\x1b[31m", "\x07", "\x7f"])
def test_control_characters_in_a_school_name_are_refused_naming_the_row(bad):
    text = HEADER + "A,ES,300,8:00 AM\n" + f"Lincoln{bad} High,HS,300,8:00 AM\n"
    for source in (text, text.encode()):
        with pytest.raises(SpecError, match=r"line 3: control character") as err:
            load_district(source)
        assert err.value.field == "district"


def test_start_time_file_capped():
    with pytest.raises(SpecError, match="larger than the limit"):
        parse_start_times(b"start_time\n" + b"7:50 AM\n" * 20_000)
    with pytest.raises(SpecError, match="more than 48 rows"):
        parse_start_times("start_time\n" + "".join(f"{h}:{m:02d}\n" for h in range(6, 12) for m in range(0, 60, 5)))


@pytest.mark.parametrize(
    ("raw", "where"),
    [(b"\r ", "district"), (HEADER.encode() + b'"Lincoln\nHigh",HS,300,8:00 AM\n', "district line 3")],
)
def test_line_breaks_inside_fields_and_stray_carriage_returns(raw, where):
    with pytest.raises(SpecError) as err:
        load_district(raw)
    assert err.value.field == where


def _district_bytes() -> st.SearchStrategy[bytes]:
    valid = (HEADER + "Lincoln ES,ES,300,7:50 AM\nMission HS,HS,1200,8:40 AM\n\"Park, MS\",MS,450,9:30 AM\n").encode()

    def mutate(data_: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
        out = bytearray(data_)
        for pos, cut, insert in edits:
            pos %= len(out) + 1
            out[pos : pos + cut] = insert
        return bytes(out)

    edit = st.tuples(st.integers(0, 200), st.integers(0, 6),
                     st.sampled_from([b"", b",", b"\n", b'"', b"\x00", b"-1", b"99999999", b"25:00", b"\xff"]) | st.binary(max_size=3))  # fmt: skip
    return st.one_of(st.binary(max_size=200), st.builds(mutate, st.just(valid), st.lists(edit, min_size=1, max_size=4)))


@settings(derandomize=True, deadline=None, max_examples=200, suppress_health_check=list(HealthCheck))
@given(raw=_district_bytes())
def test_fuzz_district_only_project_errors(raw):
    """Random and mutated district files: a SpecError, or schools whose names are in the file."""
    try:
        district = load_district(raw)
    except OrcaError:
        return
    text = raw.decode("utf-8-sig").replace('"', "")
    assert all(s.name and s.name in text for s in district.schools)
    assert not any(ch < " " or ch == "\x7f" for s in district.schools for ch in s.name + s.grade)
    assert all(0 <= s.enrollment <= data.MAX_ENROLLMENT for s in district.schools)
