"""District data: shipped Table 6, time parsing, and upload validation with field-naming errors."""

from __future__ import annotations

import pytest

from core.errors import SpecError
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
