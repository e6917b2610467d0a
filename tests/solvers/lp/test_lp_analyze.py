"""The own-model analysis in small, hand-checkable cases: stems, outward rounding, pre-checks, the Farkas
certificate, hard rows and weights, bounds as repairs, MIPs and malformed files."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import SpecError
from solvers.lp.analyze import (
    RepairOptions,
    analyze,
    parse_names,
    parse_weights,
    prechecks,
    read_model,
    round_out,
    stem_of,
)
from solvers.lp.model import LPModel, LPStatus

DATA = Path(__file__).resolve().parents[2] / "data" / "lp"

CONFLICT = """Minimize
 obj: x + y
Subject To
 cap1: x + y <= 10
 need2: x + y >= 25
Bounds
 0 <= x <= 40
 0 <= y <= 40
End
"""


def _model(tmp_path: Path, text: str, name: str = "m.lp") -> LPModel:
    path = tmp_path / name
    path.write_text(text)
    return read_model(path)


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("BBB1", "BBB"),
        ("c54", "c"),
        ("inv_balance_e2_t3", "inv_balance_e2"),
        ("P0000000", "P"),
        ("R_12", "R"),
        ("COST", "COST"),
        ("123", "123"),
    ],
)
def test_stem_of(name: str, stem: str) -> None:
    assert stem_of(name) == stem


@given(
    st.floats(min_value=1e-9, max_value=1e12, allow_nan=False),
    st.floats(min_value=-1e12, max_value=1e12, allow_nan=False),
)
def test_round_out_is_above_the_amount_with_a_margin_and_prints_exactly(amount: float, base: float) -> None:
    out = round_out(amount, base)
    margin = 1e-6 * max(1.0, amount, abs(base))
    assert out >= amount + margin * 0.999
    assert out <= amount + margin + 2e-5 * (amount + margin)  # six significant digits, rounded up
    assert float(repr(out)) == out and len(f"{out:.6g}") <= 12


def test_a_printed_boundary_amount_repairs(tmp_path: Path) -> None:
    """The elastic amount sits on the boundary; the printed, rounded one leaves room."""
    text = CONFLICT.replace("<= 10", "<= 10.0000001234567")
    report = analyze(_model(tmp_path, text))
    change = report.candidates[0].changes[0]
    assert change.amount > 25 - 10.0000001234567
    assert report.candidates[0].status is LPStatus.OPTIMAL


def test_farkas_certificate_in_plain_words(tmp_path: Path) -> None:
    report = analyze(_model(tmp_path, CONFLICT))
    cert = report.iis.certificate
    assert cert is not None
    assert {t.row for t in cert.terms} == {"cap1", "need2"}
    assert cert.need - cert.most == pytest.approx(15.0 * cert.terms[0].weight)
    words = cert.sentences()
    assert any("cap1: at most 10" in w for w in words) and any("need2: at least 25" in w for w in words)
    assert "cannot all hold" in words[-1]


def test_prechecks_pinpoint_trivial_conflicts(tmp_path: Path) -> None:
    text = """Minimize
 obj: x + y
Subject To
 big: x + y >= 100
 fine: x - y <= 3
Bounds
 0 <= x <= 40
 0 <= y <= 40
 5 <= z <= 3
End
"""
    found = prechecks(_model(tmp_path, text.replace("\n 5 <= z <= 3", "")))
    assert [(f.kind, f.name) for f in found] == [("row", "big")]
    assert "at most 80" in found[0].words


def test_hard_rows_weights_and_bounds(tmp_path: Path) -> None:
    model = _model(tmp_path, CONFLICT)
    soft_cap = analyze(model, RepairOptions(hard=("need",), bounds=False))
    assert {ch.name for c in soft_cap.candidates for ch in c.changes} == {"cap1"}
    priced = analyze(model, RepairOptions(weights=(("cap1", 100.0),), bounds=False))
    assert priced.candidates[0].changes[0].name == "need2"
    with pytest.raises(SpecError, match="matches no row"):
        analyze(model, RepairOptions(hard=("nope",)))
    with pytest.raises(SpecError, match="weight"):
        analyze(model, RepairOptions(weights=(("cap1", math.inf),)))
    bounds_only = analyze(model, RepairOptions(hard=("cap1", "need2")))
    assert bounds_only.candidates == ()  # x + y <= 10 and >= 25 cannot be met by moving bounds


def test_parsed_user_lists() -> None:
    assert parse_names("BBB, c54\nD1") == ("BBB", "c54", "D1")
    assert parse_weights("cap=2, need2=0.5") == (("cap", 2.0), ("need2", 0.5))
    for bad in ("cap", "cap=0", "cap=-1", "cap=nan", "cap=1e400", "=2", "a\x00=1"):
        with pytest.raises(SpecError):
            parse_weights(bad)


def test_mips_relaxation_feasible_means_integrality(tmp_path: Path) -> None:
    report = analyze(read_model(DATA / "infeasible-mip0.mps"))
    assert report.status is LPStatus.INFEASIBLE
    assert report.mip == {"integer_columns": 6, "relaxation_status": "OPTIMAL", "mip_status": "INFEASIBLE"}
    assert "integrality causes" in report.summary
    assert report.iis.method.startswith("deletion filter on the MIP") and report.iis.rows
    assert report.candidates and all(c.status is LPStatus.OPTIMAL for c in report.candidates)
    feasible = analyze(read_model(DATA / "flugpl.mps"))
    assert feasible.status is LPStatus.OPTIMAL and feasible.mip["relaxation_status"] == "OPTIMAL"


def test_truncated_and_malformed_files_name_the_file(tmp_path: Path) -> None:
    text = LPModel.from_text(CONFLICT).to_text("mps")
    cut = tmp_path / "mine.mps"
    cut.write_text(text[: len(text) // 2])
    with pytest.raises(SpecError, match="mine.mps"):
        read_model(cut)
    junk = tmp_path / "junk.lp"
    junk.write_text("Minimize\n obj: x +\n")
    with pytest.raises(SpecError, match="junk.lp"):
        read_model(junk)


def test_huge_numbers_are_numbers(tmp_path: Path) -> None:
    model = _model(tmp_path, CONFLICT.replace("0 <= y <= 40", "0 <= y <= 1e300"))
    assert analyze(model).status is LPStatus.INFEASIBLE


@given(st.text(max_size=200))
def test_fuzzed_hard_and_weight_lists_are_read_or_refused(text: str) -> None:
    """Whatever a user types: names and weights come back checked, or a SpecError says what is wrong."""
    model = LPModel.from_text(CONFLICT)
    for parse in (parse_names, parse_weights):
        try:
            parsed = parse(text)
        except SpecError:
            continue
        options = (
            RepairOptions(hard=parsed, bounds=False)
            if parse is parse_names
            else RepairOptions(weights=parsed, bounds=False)
        )
        try:
            options.check(model)
        except SpecError:
            continue
        assert all(options.is_hard(n) for n in options.hard)


@given(st.binary(max_size=400))
def test_fuzzed_uploads_are_models_or_spec_errors(tmp_path_factory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "upload.mps"
    path.write_bytes(b"NAME x\nROWS\n N obj\n" + data)
    try:
        model = read_model(path)
    except SpecError as err:
        assert "upload.mps" in str(err) or err.field == "file"
        return
    analyze(model, RepairOptions(fewest_seconds=0.5))


def test_prechecks_find_contradictory_bounds() -> None:
    model = LPModel.from_rows(
        columns=[("x", 5.0, 3.0, 1.0), ("y", 0.0, 1.0, 1.0)],
        rows=[("r", 4.0, 2.0, {"x": 1.0, "y": 1.0})],
    )
    found = [(f.kind, f.name, f.words) for f in prechecks(model)]
    assert found[0] == ("bounds", "x", "column x must be at least 5 and at most 3")
    assert found[1] == ("row", "r", "row r must be at least 4 and at most 2")
    assert found[2][:2] == ("row", "r") and "at least 5" in found[2][2]  # and x's bounds push it above 2
