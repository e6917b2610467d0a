"""School-district data: schools, start-time options, and CSV loading with readable errors.

Times are minutes after midnight internally and "7:50 AM" strings at the edges. The shipped
district is the 10 SFUSD schools of the seed's Table 6 with the options 7:50, 8:40, 9:30 AM;
uploads may have any number of schools and options.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from core.errors import SpecError
from solvers.upload import check_controls, decode_text, read_bounded

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
SFUSD_SCHOOLS_CSV = DATA_DIR / "schools_sfusd.csv"
SFUSD_START_TIMES_CSV = DATA_DIR / "start_times.csv"
SFUSD_NAME = "San Francisco Unified School District"
MAX_ENROLLMENT = 1_000_000  # students of one school (keeps every load sum exact in the MILP)
MAX_SCHOOLS = 5_000
MAX_START_TIMES = 48
MAX_DISTRICT_BYTES = 5_000_000  # a district CSV (5,000 schools at up to 1,000 bytes a row)
MAX_START_TIMES_BYTES = 100_000  # a start-time CSV (48 options)

_TIME_RE = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*([ap]\.?\s*m\.?)?\s*$", re.IGNORECASE)
_COLUMN_ALIASES = {
    "name": ("name", "school", "school name", "school_name"),
    "grade": ("grade", "grade level", "grade_level", "level"),
    "enrollment": ("enrollment", "students", "total enrollment", "transported enrollment"),
    "current_start": ("current_start", "current start", "current start time", "start", "current"),
}


def parse_time(text: str, field: str = "time") -> int:
    """Parse "7:50 AM", "7:50am", "13:10" or "9" into minutes after midnight."""
    match = _TIME_RE.match(str(text))
    if not match:
        raise SpecError(field, f"{text!r} is not a clock time; write it like '7:50 AM' or '13:10'")
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    suffix = (match.group(3) or "").replace(".", "").replace(" ", "").lower()
    if minute > 59 or (suffix and not 1 <= hour <= 12) or hour > 23:
        raise SpecError(field, f"{text!r} is not a valid clock time")
    if suffix == "pm" and hour != 12:
        hour += 12
    elif suffix == "am" and hour == 12:
        hour = 0
    return hour * 60 + minute


def format_time(minutes: int) -> str:
    """Format minutes after midnight as "7:50 AM"."""
    hour, minute = divmod(int(minutes), 60)
    suffix = "AM" if hour < 12 else "PM"
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {suffix}"


@dataclass(frozen=True)
class School:
    """One school: name, grade level, students using district transport, current start (minutes)."""

    name: str
    grade: str
    enrollment: int
    current_start: int

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise SpecError("name", "a school needs a non-empty name")
        if isinstance(self.enrollment, bool) or not isinstance(self.enrollment, int) or self.enrollment < 0:
            raise SpecError("enrollment", f"{self.name}: enrollment must be a whole number >= 0")
        if self.enrollment > MAX_ENROLLMENT:
            raise SpecError(
                "enrollment",
                f"{self.name}: enrollment {self.enrollment:,} is above the limit {MAX_ENROLLMENT:,}",
            )
        if not 0 <= self.current_start < 24 * 60:
            raise SpecError("current_start", f"{self.name}: start time must be within the day")


@dataclass(frozen=True)
class District:
    """Schools plus the allowed standardized start times (minutes, ascending) and a display name."""

    schools: tuple[School, ...]
    start_times: tuple[int, ...]
    name: str = ""

    def __post_init__(self) -> None:
        if not self.schools:
            raise SpecError("schools", "the district needs at least one school")
        if len(self.schools) > MAX_SCHOOLS:
            raise SpecError("schools", f"{len(self.schools):,} schools is above the limit {MAX_SCHOOLS:,}")
        if all(s.enrollment == 0 for s in self.schools):
            raise SpecError(
                "enrollment",
                "every school has 0 students, so there is no load to balance; give the enrollments",
            )
        if len(self.start_times) > MAX_START_TIMES:
            raise SpecError(
                "start_times",
                f"{len(self.start_times)} start-time options is above the limit {MAX_START_TIMES}",
            )
        names = [s.name for s in self.schools]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise SpecError("schools", f"school names must be unique; repeated: {', '.join(duplicates)}")
        if not self.start_times:
            raise SpecError("start_times", "give at least one start-time option")
        if len(set(self.start_times)) != len(self.start_times):
            raise SpecError("start_times", "start-time options must be distinct")
        if list(self.start_times) != sorted(self.start_times):
            raise SpecError("start_times", "start-time options must be in ascending order")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.schools)

    @property
    def time_labels(self) -> tuple[str, ...]:
        return tuple(format_time(t) for t in self.start_times)

    def school_index(self, name: str) -> int:
        """Index of a school by exact name (SpecError listing valid names otherwise)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise SpecError("school", f"unknown school {name!r}; valid: {', '.join(self.names)}") from None

    def time_index(self, minutes: int) -> int:
        """Index of a start-time option (SpecError listing the options otherwise)."""
        try:
            return self.start_times.index(minutes)
        except ValueError:
            raise SpecError(
                "time", f"{format_time(minutes)} is not an option; valid: {', '.join(self.time_labels)}"
            ) from None


def _read_text(source: str | Path | bytes, what: str, max_bytes: int, file_name: str | None = None) -> str:
    """The CSV's text: at most `max_bytes` are read (a larger file is refused unparsed), UTF-8, no control
    characters (a NUL in a school name is refused with its line). `file_name` names an upload in errors."""
    if isinstance(source, bytes):
        origin = f"the uploaded {what} CSV" + (f" {file_name}" if file_name else "")
    elif isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and "," not in source):
        source, origin = Path(source), str(source)
    else:
        if len(source) > max_bytes:
            raise SpecError(what, f"the {what} CSV is larger than the limit of {max_bytes / 1_000_000:g} MB")
        check_controls(source, field=what, name=f"the {what} CSV")
        return source
    raw = read_bounded(source, field=what, name=origin, max_bytes=max_bytes)
    return decode_text(raw, field=what, name=origin)


def _read_rows(
    source: str | Path | bytes, what: str, max_bytes: int, max_rows: int, file_name: str | None = None
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """Header and (line number, row) pairs; a row with more or fewer fields than the header is an error, and
    reading stops at the first row past `max_rows`."""
    reader = csv.reader(io.StringIO(_read_text(source, what, max_bytes, file_name), newline=""))
    header: list[str] = []
    rows: list[tuple[int, dict[str, str]]] = []
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            raise SpecError(f"{what} line {reader.line_num}", f"not a readable CSV row ({err})") from None
        if any(ch in c for c in cells for ch in "\r\n\t"):
            raise SpecError(
                f"{what} line {reader.line_num}",
                "a line break or tab inside a field; each school's fields must be plain text on one line",
            )
        if not any(c.strip() for c in cells):
            continue
        if not header:
            header = [c.strip() for c in cells]
            continue
        if len(rows) >= max_rows:
            raise SpecError(
                f"{what} line {reader.line_num}", f"more than {max_rows:,} rows (the limit is {max_rows:,})"
            )
        if len(cells) != len(header):
            extra = (
                f"; column {len(header) + 1} ({cells[len(header)].strip()!r}) is extra"
                if len(cells) > len(header)
                else ""
            )
            raise SpecError(
                f"{what} line {reader.line_num}",
                f"{len(cells)} fields but the header has {len(header)} ({', '.join(header)}){extra}",
            )
        rows.append((reader.line_num, dict(zip(header, (c.strip() for c in cells), strict=True))))
    return header, rows


def _resolve_columns(header: list[str], what: str) -> dict[str, str]:
    lowered = {h.lower(): h for h in header}
    found: dict[str, str] = {}
    for field, aliases in _COLUMN_ALIASES.items():
        match = next((lowered[a] for a in aliases if a in lowered), None)
        if match is None:
            raise SpecError(
                what,
                f"missing column {field!r}; the CSV needs columns name, grade, enrollment, current_start "
                f"(found: {', '.join(header) or 'none'})",
            )
        found[field] = match
    return found


def parse_schools(
    source: str | Path | bytes, what: str = "district", file_name: str | None = None
) -> tuple[School, ...]:
    """Read schools from a CSV path, text or bytes with columns name, grade, enrollment, current_start
    (`file_name`: an upload's name, for errors)."""
    header, rows = _read_rows(source, what, MAX_DISTRICT_BYTES, MAX_SCHOOLS, file_name)
    columns = _resolve_columns(header, what)
    if not rows:
        raise SpecError(what, "the CSV has a header but no schools")
    schools = []
    for number, row in rows:
        where = f"{what} line {number}"
        name = row[columns["name"]]
        if not name:
            raise SpecError(f"{where} name", "school name is empty")
        raw = row[columns["enrollment"]].replace(",", "")
        if not re.fullmatch(r"\d{1,30}", raw):  # longer: far above MAX_ENROLLMENT, and int() is quadratic
            shown = raw if len(raw) <= 30 else f"{raw[:20]}... ({len(raw):,} characters)"
            raise SpecError(
                f"{where} enrollment",
                f"{shown!r} is not a whole number of students up to {MAX_ENROLLMENT:,}",
            )
        start = parse_time(row[columns["current_start"]], f"{where} current_start")
        schools.append(School(name, row[columns["grade"]], int(raw), start))
    return tuple(schools)


def parse_start_times(source: str | Path | bytes | list[str], what: str = "start_times") -> tuple[int, ...]:
    """Read start-time options from a one-column CSV (header start_time, or no header) or a list of strings."""
    if isinstance(source, list):
        values = source
    else:
        header, rows = _read_rows(source, what, MAX_START_TIMES_BYTES, MAX_START_TIMES)
        if not header:
            raise SpecError(what, "the start-time CSV is empty")
        column = header[0]
        values = [row[column] for _, row in rows if row.get(column)]
        if _TIME_RE.match(column):
            values.insert(0, column)
    if not values:
        raise SpecError(what, "give at least one start-time option")
    parsed = [parse_time(v, f"{what} {v!r}") for v in values]
    repeated = sorted({t for t in parsed if parsed.count(t) > 1})
    if repeated:
        raise SpecError(
            what,
            f"{', '.join(format_time(t) for t in repeated)} is listed more than once; list each option once",
        )
    return tuple(sorted(parsed))


def load_district(
    schools: str | Path | bytes | None = None,
    start_times: str | Path | bytes | list[str] | None = None,
    name: str | None = None,
    *,
    file_name: str | None = None,
) -> District:
    """Load a district (default: the shipped SFUSD data and its three start-time options); `file_name` is the
    uploaded file's name, shown in errors about uploaded bytes."""
    parsed_schools = parse_schools(SFUSD_SCHOOLS_CSV if schools is None else schools, file_name=file_name)
    parsed_times = parse_start_times(SFUSD_START_TIMES_CSV if start_times is None else start_times)
    if name is None:
        name = SFUSD_NAME if schools is None else "uploaded school district"
    return District(parsed_schools, parsed_times, name)


def sfusd_district() -> District:
    """The 10 SFUSD schools of Table 6 with the options 7:50, 8:40 and 9:30 AM."""
    return load_district()
