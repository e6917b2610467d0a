"""The own-model tool on Netlib's infeasible LPs (data/lp/netlib_infeasible): status, a verified IIS, and
verified repairs whose printed amounts repair the model when applied by plain highspy to the file as read."""

from __future__ import annotations

import json
import math
from pathlib import Path

import highspy
import pytest

from solvers.lp.analyze import analyze, iis_lp_text, read_model
from solvers.lp.iischeck import is_irreducible_iis
from solvers.lp.model import IIS, IISMember, LPModel, LPStatus

DATA = Path(__file__).resolve().parents[3] / "data" / "lp" / "netlib_infeasible"
MODELS = ("galenet", "woodinfe", "klein1", "forest6", "ex72a", "box1", "refinery", "vol1", "bgetam", "cplex1")
# vol1's IIS written alone as LP text solves to UNKNOWN in HiGHS (as vol1 itself does without presolve); the
# same members solved in place (is_irreducible_iis) are infeasible and irreducible
NUMERICALLY_HARD = {"vol1"}


def netlib_file(name: str) -> Path:
    """The model's stored file: .mps, or .mps.gz (cplex1), which `read_model` and HiGHS both read."""
    plain = DATA / f"{name}.mps"
    return plain if plain.exists() else DATA / f"{name}.mps.gz"


def _feasible_after(path: Path, changes: list[dict]) -> str:
    """Apply the printed changes with plain highspy to the file as HiGHS reads it; the model status."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    lp = h.getLp()
    rows = {n: i for i, n in enumerate(lp.row_names_)}
    cols = {n: j for j, n in enumerate(lp.col_names_)}
    for ch in changes:
        if ch["kind"] == "row":
            i = rows[ch["name"]]
            lo, hi = lp.row_lower_[i], lp.row_upper_[i]
        else:
            i = cols[ch["name"]]
            lo, hi = lp.col_lower_[i], lp.col_upper_[i]
        lo, hi = (lo, ch["new"]) if ch["side"] == "<=" else (ch["new"], hi)
        (h.changeRowBounds if ch["kind"] == "row" else h.changeColBounds)(i, min(lo, hi), max(lo, hi))
    h.run()
    return h.modelStatusToString(h.getModelStatus())


@pytest.mark.parametrize("name", MODELS)
def test_netlib_infeasible_model(name: str) -> None:
    path = netlib_file(name)
    model = read_model(path)
    report = analyze(model)
    out = json.loads(json.dumps(report.to_dict()))  # what the CLI prints
    assert out["status"] == "INFEASIBLE"
    iis = out["iis"]
    assert iis["verified_irreducible"] is True and iis["rows"]
    members = IIS(
        tuple(IISMember("row", r["name"], r["side"], r["value"]) for r in iis["rows"]),
        tuple(IISMember("bound", b["column"], b["side"], b["value"]) for b in iis["bounds"]),
    )
    assert is_irreducible_iis(read_model(path), members)  # the JSON's IIS, rebuilt on a fresh read
    assert iis["farkas"] is not None and iis["farkas"]["need"] > iis["farkas"]["most"]
    alone = LPModel.from_text(iis_lp_text(model, report.iis)).solve().status
    assert alone is (LPStatus.OTHER if name in NUMERICALLY_HARD else LPStatus.INFEASIBLE)
    assert out["candidates"], out["not_listed"]
    for cand in out["candidates"]:
        assert cand["verified_status"] in ("OPTIMAL", "UNBOUNDED")
        for ch in cand["changes"]:
            moved = ch["new"] - ch["old"] if ch["side"] == "<=" else ch["old"] - ch["new"]
            assert math.isclose(moved, ch["amount"], rel_tol=1e-9, abs_tol=1e-9)
        status = _feasible_after(path, cand["changes"])
        assert status in ("Optimal", "Unbounded"), (cand["label"], status)
    assert min(c["changed"] for c in out["candidates"]) <= 3  # fewest changes, not cplex1's 212 rows
    assert report.best() is not None


def test_cplex1_is_read_from_its_stored_mps_gz_as_a_user_upload() -> None:
    """The stored cplex1.mps.gz goes through `read_model` (decompression capped, strict checks), no hand unpacking."""
    path = netlib_file("cplex1")
    assert path.name == "cplex1.mps.gz"
    model = read_model(path)
    assert (model.num_rows, model.num_cols) == (3005, 3221)


def test_vol1_reaches_highs_getiis_after_both_ray_routes_fail() -> None:
    """The audit's case: the ray routes give nothing usable on vol1; getIis from a fresh solve does."""
    report = analyze(read_model(netlib_file("vol1")))
    assert report.iis.method == "HiGHS getIis" and len(report.iis.attempts) == 2


def test_when_every_iis_route_fails_the_repairs_still_come(monkeypatch) -> None:
    import solvers.lp.analyze as analyze_module
    from core.errors import SolverError

    def fail(*_args, **_kwargs):
        raise SolverError("forced failure")

    for name in ("presolved_ray_iis", "_highs_iis_fresh", "_elastic_filter_iis"):
        monkeypatch.setattr(analyze_module, name, fail)
    monkeypatch.setattr(LPModel, "_ray_iis", lambda self: None)
    report = analyze(read_model(netlib_file("galenet")))
    assert report.iis.method == "none (elastic-only analysis)" and len(report.iis.attempts) == 5
    assert report.candidates and report.candidates[0].status is LPStatus.OPTIMAL
    assert "No IIS could be computed" in report.summary


def test_a_mip_found_fewest_repair_is_not_called_proven() -> None:
    """woodinfe: no IIS member alone repairs it, so the count comes from the L0 MIP and is labelled best found."""
    report = analyze(read_model(netlib_file("woodinfe")))
    fewest = next(c for c in report.candidates if c.goal == "fewest")
    assert len(fewest.changes) == 2 and not fewest.proven and "not proven" in fewest.label


def test_refinery_has_a_one_change_repair() -> None:
    """HiGHS' L0 MIP called 3 changes optimal here; trying IIS members alone finds one row that suffices."""
    report = analyze(read_model(netlib_file("refinery")))
    fewest = next(c for c in report.candidates if c.goal == "fewest")
    assert len(fewest.changes) == 1 and fewest.proven
