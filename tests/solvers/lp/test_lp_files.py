"""User .mps/.lp files: truncated or inconsistent files are refused, naming the file, line and section."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import OrcaError, SpecError
from solvers.lp.analyze import analyze, read_model

MPS = """NAME        plan
ROWS
 N  obj
 L  c1
 G  c2
COLUMNS
    x         obj       2
    x         c1        1
    x         c2        1
    y         obj       3
    y         c1        1
    y         c2        1
RHS
    RHS_V     c1        10
    RHS_V     c2        5
BOUNDS
 UP BOUND     x         40
ENDATA
"""

LP = """\\ a small plan
Minimize
 obj: 2 x + 3 y
Subject To
 c1: x + y <= 10
 c2: x + y >= 5
Bounds
 0 <= x <= 40
General
 y
End
"""

BAD_MPS = {
    "no ENDATA": (MPS.replace("ENDATA\n", ""), "ends without ENDATA"),
    "cut in COLUMNS": (MPS[: MPS.index("    y         obj")], "stops in section COLUMNS"),
    "undefined row": (MPS.replace("y         c2", "y         c9"), "line 12 (COLUMNS): row 'c9' is not defined"),
    "undefined RHS row": (MPS.replace("RHS_V     c2", "RHS_V     c7"), "line 15 (RHS): row 'c7'"),
    "undefined bound column": (MPS.replace("BOUND     x", "BOUND     w"), "line 17 (BOUNDS): column 'w'"),
    "text number": (MPS.replace("x         c1        1", "x         c1        abc"), "'abc' is not a finite"),
    "nan": (MPS.replace("c1        10", "c1        nan"), "'nan' is not a finite number"),
    "overflow": (MPS.replace("c1        10", "c1        1e999"), "not a finite number"),
    "row twice": (MPS.replace(" G  c2\n", " G  c2\n L  c1\n"), "row 'c1' is defined twice"),
    "entry twice": (MPS.replace("    x         c2        1\n", "    x         c2        1\n" * 2), "second entry"),
    "column split": (MPS.replace("ENDATA", "ENDATA").replace("RHS\n", "    x         c2        4\nRHS\n", 1),
                     "column 'x' is defined twice"),
    "no ROWS": (MPS.replace("ROWS\n N  obj\n L  c1\n G  c2\n", ""), "before any ROWS section"),
    "sections out of order": (MPS.replace("RHS\n", "RHSX\n"), "'RHSX' is not an MPS section"),
    "bound twice": (MPS.replace("ENDATA", " UP BOUND     x         41\nENDATA"), "second UP bound"),
    "text after ENDATA": (MPS + "NAME other\n", "text after ENDATA"),
    "two RHS sets": (MPS.replace("RHS_V     c2", "OTHER     c2"), "a second RHS set"),
}  # fmt: skip

BAD_LP = {
    "no End": (LP.replace("End\n", ""), "ends without an End line"),
    "cut in a constraint": (LP[: LP.index("<= 10")], "stops in section 'constraints'"),
    "nan": (LP.replace("<= 10", "<= nan"), "line 5 (constraints): 'nan' is not a finite number"),
    "inf coefficient": (LP.replace("2 x", "inf x"), "'inf' is not a finite number"),
    "constraint twice": (LP.replace(" c2:", " c1:"), "constraint 'c1' is defined twice"),
    "undefined bound": (LP.replace("0 <= x <= 40", "0 <= w <= 40"), "bound on 'w'"),
    "undefined integer": (LP.replace("General\n y", "General\n z"), "variable 'z' appears in no"),
    "bound twice": (LP.replace("0 <= x <= 40", "0 <= x <= 40\n x <= 30"), "second upper bound"),
    "no objective": (LP.replace("Minimize\n", ""), "must start with Minimize or Maximize"),
    "section twice": (LP.replace("General", "Bounds"), "section 'bounds' appears twice"),
    "missing operator": (LP.replace("c1: x + y <= 10", "c1: x y <= 10"), "expected + or - before 'y'"),
    "text after End": (LP + "Maximize\n", "text after End"),
    "quadratic": (LP.replace("3 y", "[ x ^ 2 ]"), "not supported"),
}


def _write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_valid_files_read_as_written(tmp_path: Path) -> None:
    mps = read_model(_write(tmp_path, "plan.mps", MPS))
    assert (mps.num_rows, sorted(mps.col_names)) == (2, ["x", "y"])
    assert analyze(mps).objective == pytest.approx(10.0)
    lp = read_model(_write(tmp_path, "plan.lp", LP))
    assert (lp.num_rows, sorted(lp.col_names), lp.is_mip()) == (2, ["x", "y"], True)


@pytest.mark.parametrize("case", sorted(BAD_MPS))
def test_bad_mps_is_refused_naming_the_file(tmp_path: Path, case: str) -> None:
    text, expected = BAD_MPS[case]
    with pytest.raises(SpecError) as err:
        read_model(_write(tmp_path, "my plan.mps", text))
    assert err.value.field == "file" and str(err.value).startswith("file: my plan.mps")
    assert expected in str(err.value)


@pytest.mark.parametrize("case", sorted(BAD_LP))
def test_bad_lp_is_refused_naming_the_file(tmp_path: Path, case: str) -> None:
    text, expected = BAD_LP[case]
    with pytest.raises(SpecError) as err:
        read_model(_write(tmp_path, "plan.lp", text))
    assert err.value.field == "file" and "plan.lp" in str(err.value)
    assert expected in str(err.value)


@pytest.mark.parametrize(("name", "text"), [("plan.mps", MPS), ("plan.lp", LP)])
def test_every_truncation_is_refused(tmp_path: Path, name: str, text: str) -> None:
    """Cut after any line but the last: never a model (the probe got OPTIMAL, objective 0)."""
    lines = text.splitlines(keepends=True)
    for k in range(len(lines) - 1):
        with pytest.raises(SpecError, match="truncated|before any|no ROWS|must start"):
            read_model(_write(tmp_path, name, "".join(lines[:k])))


def test_binary_and_control_characters_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"plan.mps line 1 is not UTF-8"):
        read_model(_write(tmp_path, "plan.mps", b"\xff\xfe\x00\x01garbage"))
    with pytest.raises(SpecError, match=r"plan.lp line 5: control character"):
        read_model(_write(tmp_path, "plan.lp", LP.replace("c1:", "c\x001:")))


def test_upload_name_is_the_one_in_messages(tmp_path: Path) -> None:
    """The page writes an upload to a temporary path; errors name the user's file."""
    with pytest.raises(SpecError, match="^file: chain 7.mps ends without ENDATA"):
        read_model(_write(tmp_path, "model.mps", MPS.replace("ENDATA\n", "")), "chain 7.mps")


def test_size_cap_stops_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import solvers.lp.analyze as analyze_module

    monkeypatch.setattr(analyze_module, "MAX_BYTES", 200)
    with pytest.raises(SpecError, match="larger than the limit"):
        read_model(_write(tmp_path, "plan.mps", MPS + "*" * 10_000_000 + "\n"))


def _mutations() -> st.SearchStrategy[bytes]:
    base = st.sampled_from([MPS.encode(), LP.encode()])

    def mutate(data: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
        out = bytearray(data)
        for pos, cut, insert in edits:
            pos %= len(out) + 1
            out[pos : pos + cut] = insert
        return bytes(out)

    edit = st.tuples(
        st.integers(0, 400), st.integers(0, 12), st.sampled_from([b"", b" ", b"\n", b"x", b"1e999", b"nan", b":"])
        | st.binary(max_size=4)
    )
    return st.one_of(st.binary(max_size=300), st.builds(mutate, base, st.lists(edit, min_size=1, max_size=4)))


@settings(derandomize=True, deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutations(), suffix=st.sampled_from([".mps", ".lp"]))
def test_fuzz_only_project_errors_and_no_invented_model(tmp_path_factory, data: bytes, suffix: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / f"fuzz{suffix}"
    path.write_bytes(data)
    try:
        model = read_model(path)
    except OrcaError:
        return
    words = set(re.split(r"[\s:+\-<>=]+", data.decode("utf-8")))
    assert set(model.col_names) <= words and set(model.row_names) <= words
    assert model.num_cols >= 1


# --- gzipped models (.mps.gz, .lp.gz) ---


def test_gzipped_files_read_as_the_plain_ones(tmp_path: Path) -> None:
    mps = read_model(_write(tmp_path, "plan.mps.gz", gzip.compress(MPS.encode())))
    assert (mps.num_rows, sorted(mps.col_names)) == (2, ["x", "y"])
    assert analyze(mps).objective == pytest.approx(10.0)
    lp = read_model(_write(tmp_path, "model.lp.gz", gzip.compress(LP.encode())), "Plan.LP.GZ")
    assert (lp.num_rows, lp.is_mip()) == (2, True)


def test_a_gzipped_file_is_checked_like_a_plain_one(tmp_path: Path) -> None:
    text, expected = BAD_MPS["no ENDATA"]
    with pytest.raises(SpecError, match=f"^file: my plan.mps.gz {expected}"):
        read_model(_write(tmp_path, "my plan.mps.gz", gzip.compress(text.encode())))


def test_a_gzip_bomb_is_refused_by_its_decompressed_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import solvers.lp.analyze as analyze_module

    monkeypatch.setattr(analyze_module, "MAX_BYTES", 10_000)
    bomb = gzip.compress(MPS.encode() + b"*" * 50_000_000)  # 50 MB of comment lines in about 50 KB
    assert len(bomb) < 100_000
    with pytest.raises(SpecError, match=r"^file: bomb.mps.gz decompresses to more than the limit of 0.01 MB"):
        read_model(_write(tmp_path, "bomb.mps.gz", bomb))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (MPS.encode(), "Not a gzipped file"),
        (gzip.compress(MPS.encode(), mtime=0)[:-12], "cut short"),
        (gzip.compress(MPS.encode(), mtime=0)[:5], "cut short"),
        (b"", "empty"),
    ],
    ids=["plain", "cut-tail", "cut-header", "empty"],
)
def test_a_file_that_is_no_readable_gzip_names_the_users_file(tmp_path: Path, data: bytes, reason: str) -> None:
    with pytest.raises(SpecError, match=f"^file: chain.mps.gz is not a readable gzip file .*{reason}"):
        read_model(_write(tmp_path, "model.mps.gz", data), "chain.mps.gz")


def test_only_model_files_and_their_gzipped_forms_are_read(tmp_path: Path) -> None:
    for name in ("plan.gz", "plan.txt.gz", "plan.mps.zip", "plan.gz.mps"[:-4]):
        with pytest.raises(SpecError, match="upload an .mps or .lp model file"):
            read_model(_write(tmp_path, "x.mps.gz", gzip.compress(MPS.encode())), name)


def _gzip_mutations() -> st.SearchStrategy[bytes]:
    packed = gzip.compress(MPS.encode())

    def mutate(edits: list[tuple[int, int, bytes]]) -> bytes:
        out = bytearray(packed)
        for pos, cut, insert in edits:
            pos %= len(out) + 1
            out[pos : pos + cut] = insert
        return bytes(out)

    edit = st.tuples(st.integers(0, 400), st.integers(0, 8), st.binary(max_size=4))
    return st.builds(mutate, st.lists(edit, min_size=1, max_size=4))


@settings(derandomize=True, deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=_gzip_mutations())
def test_fuzz_corrupt_gzip_gives_project_errors_or_the_checked_model(tmp_path_factory, data: bytes) -> None:
    """A corrupted .mps.gz is a SpecError naming the file, or it still decompresses to a file the checks pass."""
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.mps.gz"
    path.write_bytes(data)
    try:
        model = read_model(path, "my model.mps.gz")
    except OrcaError as err:
        assert "my model.mps.gz" in str(err)
        return
    text = gzip.decompress(data).decode("utf-8")
    words = set(re.split(r"\s+", text))
    assert set(model.col_names) <= words and set(model.row_names) <= words
