"""`python -m core.cli repair ...` end to end on a small generated data set and on user model files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main

INFEASIBLE_LP = """\\ two capacity rows that cannot both hold
Minimize
 obj: 2 x + 3 y
Subject To
 capacity_e1_t1: x + y <= 10
 demand_e1_t1: x + y >= 25
 mix_t1: x - y >= 0
Bounds
 0 <= x <= 40
 0 <= y <= 40
End
"""

MIP_LP = INFEASIBLE_LP.replace("End", "General\n x\nEnd")

UNBOUNDED_LP = """Maximize
 obj: x + y
Subject To
 c1: x - y <= 1
End
"""


def _run(capsys, argv: list[str]) -> tuple[int, dict | None, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


@pytest.fixture(scope="module")
def small_dataset(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("lp") / "small.json"
    assert main(["repair", "generate", "--small", "1", "--seed", "4", "--dataset", str(path)]) == 0
    return path


def test_generate_writes_a_split_data_set(small_dataset: Path) -> None:
    data = json.loads(small_dataset.read_text())
    assert len(data["problems"]) == 20
    assert {p["split"] for p in data["problems"]} == {"train", "test"}
    assert data["stats"]["kept"]["ME-3"] == 2


def test_bench_ground_truth_and_offline(capsys, small_dataset: Path, tmp_path: Path) -> None:
    code, out, _ = _run(
        capsys, ["repair", "bench", "--dataset", str(small_dataset), "--agent", "ground-truth", "--extended"]
    )
    assert code == 0 and out["overall"]["RRR"] == 1.0 and out["switches"]["extended_actions"] is True
    assert "offline reference" in out["agent"]
    code, out, _ = _run(
        capsys, ["repair", "bench", "--dataset", str(small_dataset), "--types", "ME-3", "ME-9"]
    )
    assert code == 0 and out["problems"] == 2 and set(out["by_type"]) == {"ME-3", "ME-9"}


def test_bench_reports_rrr_per_judge(capsys, small_dataset: Path) -> None:
    base = ["repair", "bench", "--dataset", str(small_dataset), "--types", "ME-7", "ME-8"]
    code, out, _ = _run(capsys, [*base, "--agent", "ground-truth", "--extended"])
    overall = out["overall"]
    assert code == 0 and out["judges"] == ["paper", "strict"]
    assert overall["rrr_paper"] == overall["RRR"] == 1.0 and overall["rrr_strict"] == 1.0
    # the offline agent decouples an echelon on ME-7/8 (paper grammar): the paper judge accepts, strict refuses
    code, out, _ = _run(capsys, [*base, "--agent", "offline", "--judge", "strict"])
    overall = out["overall"]
    assert code == 0 and out["judges"] == ["strict"] and "rrr_paper" not in overall
    assert overall["RRR"] == 1.0 and overall["rrr_strict"] == 0.0 and overall["exact"] == 0.0
    code, out, _ = _run(capsys, [*base, "--judge", "paper"])
    assert code == 0 and "rrr_strict" not in out["overall"] and out["overall"]["rrr_paper"] == 1.0
    with pytest.raises(SystemExit) as refused:
        main([*base, "--judge", "lenient"])
    assert refused.value.code == 2 and '"field": "--judge"' in capsys.readouterr().err


def test_run_records_the_episode(capsys, small_dataset: Path, tmp_path: Path) -> None:
    pid = next(
        p["id"] for p in json.loads(small_dataset.read_text())["problems"] if p["error_type"] == "ME-9"
    )
    db = str(tmp_path / "orca.duckdb")
    code, out, _ = _run(
        capsys, ["--db", db, "repair", "run", "--dataset", str(small_dataset), "--problem", pid]
    )
    assert code == 0 and out["rational"] and out["run_id"]
    code, listing, _ = _run(capsys, ["--db", db, "runs", "list", "--workbench", "lp_repair"])
    assert [r["id"] for r in listing] == [out["run_id"]]
    code, shown, _ = _run(capsys, ["--db", db, "runs", "show", out["run_id"]])
    assert code == 0
    from core.rollout import replay_run
    from core.store import Store
    from solvers.lp.dataset import load
    from solvers.lp.env import LPRepairEnv

    problems = load(small_dataset)
    check = replay_run(Store(db), out["run_id"], LPRepairEnv(problems), options={"problem": pid})
    assert check.matches, check.mismatch


def test_run_unknown_problem_is_a_clean_error(capsys, small_dataset: Path) -> None:
    code, out, err = _run(
        capsys, ["repair", "run", "--dataset", str(small_dataset), "--problem", "nope", "--no-record"]
    )
    assert code == 2 and out is None and json.loads(err)["field"] == "problem"


def test_solve_user_files(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.lp"
    bad.write_text(INFEASIBLE_LP)
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(bad)])
    assert code == 0 and out["status"] == "INFEASIBLE"
    assert {g["family"] for g in out["iis"]["groups"]} >= {"capacity_e1", "demand_e1"}
    assert {r["name"] for r in out["iis"]["rows"]} == {"capacity_e1_t1", "demand_e1_t1"}
    assert out["iis"]["verified_irreducible"] is True
    assert out["candidates"] and all(c["verified_status"] == "OPTIMAL" for c in out["candidates"])
    assert out["candidates"][0]["total_relaxation"] == pytest.approx(15.0)
    assert out["candidates"][0]["changes"][0]["amount"] > 15.0  # rounded outward
    mip = tmp_path / "mip.lp"
    mip.write_text(MIP_LP)
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(mip)])
    assert code == 0 and out["mip"]["relaxation_status"] == "INFEASIBLE" and out["candidates"]
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(mip), "--relax-integrality"])
    assert code == 0 and out["status"] == "INFEASIBLE"
    unb = tmp_path / "unb.lp"
    unb.write_text(UNBOUNDED_LP)
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(unb)])
    assert code == 0 and out["status"] == "UNBOUNDED" and "unbounded" in out["summary"]
    junk = tmp_path / "junk.mps"
    junk.write_text("this is not a model\n")
    code, _out, err = _run(capsys, ["repair", "solve", "--file", str(junk)])
    assert code == 2 and json.loads(err)["field"] == "file"
    text = tmp_path / "model.txt"
    text.write_text(INFEASIBLE_LP)
    code, _out, err = _run(capsys, ["repair", "solve", "--file", str(text)])
    assert code == 2 and ".mps or .lp" in json.loads(err)["error"]
    with pytest.raises(SystemExit):  # a missing file is refused while parsing --file
        main(["repair", "solve", "--file", str(tmp_path / "missing.lp")])
    assert json.loads(capsys.readouterr().err)["field"] == "--file"


def test_solve_reads_a_gzipped_mps_and_refuses_a_gzip_bomb(capsys, tmp_path: Path, monkeypatch) -> None:
    import gzip

    import solvers.lp.analyze as analyze_module
    from solvers.lp.model import LPModel, LPStatus

    packed = tmp_path / "bad.mps.gz"
    packed.write_bytes(gzip.compress(LPModel.from_text(INFEASIBLE_LP).to_text("mps").encode()))
    fixed = tmp_path / "fixed.mps"
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(packed), "--repair-out", str(fixed)])
    assert code == 0 and out["status"] == "INFEASIBLE" and out["file"] == str(packed)
    assert {r["name"] for r in out["iis"]["rows"]} == {"capacity_e1_t1", "demand_e1_t1"}
    assert LPModel.read(fixed).solve().status is LPStatus.OPTIMAL
    monkeypatch.setattr(analyze_module, "MAX_BYTES", 1_000)
    bomb = tmp_path / "bomb.mps.gz"
    bomb.write_bytes(gzip.compress(b"*" * 5_000_000))
    code, out, err = _run(capsys, ["repair", "solve", "--file", str(bomb)])
    assert code == 2 and out is None
    assert json.loads(err)["error"].startswith("file: bomb.mps.gz decompresses to more than the limit")
    cut = tmp_path / "cut.mps.gz"
    cut.write_bytes(packed.read_bytes()[:-20])
    code, out, err = _run(capsys, ["repair", "solve", "--file", str(cut)])
    assert code == 2 and "cut.mps.gz is not a readable gzip file" in json.loads(err)["error"]


def test_solve_a_supply_chain_model_runs_the_deployable_oracle(
    capsys, tmp_path: Path, repair_problems
) -> None:
    from solvers.lp.edits import apply_edits

    p = repair_problems[0]
    model = p.build()
    apply_edits(model, p.gt_edits)
    path = tmp_path / "chain.mps"
    path.write_text(model.to_text("mps"))
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(path)])
    assert code == 0 and out["status"] == "OPTIMAL"
    assert out["oracle"]["mode"] == "deployable (all checks)" and len(out["oracle"]["checks"]) == 5
    assert "rationality oracle ran with every check" in out["summary"]


def test_solve_refuses_a_truncated_mps_file(capsys, tmp_path: Path) -> None:
    """The probe's case: a cut .mps used to come back OPTIMAL with objective 0."""
    from solvers.lp.model import LPModel

    text = LPModel.from_text(INFEASIBLE_LP).to_text("mps")
    cut = tmp_path / "cut.mps"
    cut.write_text(text[: text.index("RHS")])
    code, out, err = _run(capsys, ["repair", "solve", "--file", str(cut)])
    assert code == 2 and out is None
    assert json.loads(err) == {
        "error": "file: cut.mps ends without ENDATA (it stops in section COLUMNS): the file is truncated or "
        "not an MPS model",
        "field": "file",
    }


def test_run_judge_reports_the_chosen_verdicts(capsys, small_dataset: Path) -> None:
    """An offline ME-7 repair decouples an echelon: the paper judge accepts it, the strict one refuses."""
    problems = json.loads(small_dataset.read_text())["problems"]
    pid = next(p["id"] for p in problems if p["error_type"] == "ME-7" and p["split"] == "test")
    base = ["repair", "run", "--dataset", str(small_dataset), "--problem", pid, "--no-record"]
    code, both, _ = _run(capsys, base)
    assert code == 0 and both["verdict"] == {"paper": True, "strict": False, "exact": False}
    code, strict, _ = _run(capsys, [*base, "--judge", "strict"])
    assert code == 0 and strict["verdict"] == {"strict": False, "exact": False}
    code, paper, _ = _run(capsys, [*base, "--judge", "paper"])
    assert code == 0 and paper["verdict"] == {"paper": True, "exact": False}
    with pytest.raises(SystemExit) as refused:
        main([*base, "--judge", "lenient"])
    assert refused.value.code == 2 and '"field": "--judge"' in capsys.readouterr().err


def test_run_out_writes_the_final_model(capsys, small_dataset: Path, tmp_path: Path) -> None:
    """`repair run --out` writes the episode's final model: the ground-truth replay gives the repaired model."""
    from solvers.lp.dataset import load
    from solvers.lp.diff import diff_models
    from solvers.lp.edits import apply_edits
    from solvers.lp.model import LPModel, LPStatus

    problem = next(p for p in load(small_dataset) if p.error_type.value == "ME-10" and p.split == "test")
    out = tmp_path / "final.mps"
    argv = ["repair", "run", "--dataset", str(small_dataset), "--problem", problem.id, "--no-record"]
    code, row, _ = _run(capsys, [*argv, "--agent", "ground-truth", "--extended", "--out", str(out)])
    assert code == 0 and row["model_file"] == str(out) and row["verdict"]["exact"]
    written = LPModel.read(out)
    assert written.solve().status is LPStatus.OPTIMAL
    fixed = problem.build()
    apply_edits(fixed, problem.gt_edits)
    assert diff_models(fixed, written, tol=1e-6).empty
    code, row, _ = _run(capsys, [*argv, "--agent", "do-nothing", "--out", str(tmp_path / "as_given.lp")])
    assert code == 0 and LPModel.read(tmp_path / "as_given.lp").solve().status is LPStatus.INFEASIBLE
    with pytest.raises(SystemExit) as refused:
        main([*argv, "--out", str(tmp_path)])
    assert refused.value.code == 2 and '"field": "--out"' in capsys.readouterr().err


def test_bench_model_only_track_withholds_the_statement(capsys, small_dataset: Path) -> None:
    """model-only: no statement in the observation; the statement-diff reference says it cannot work."""
    from core.repair.agents import OfflineRepairAgent
    from solvers.lp.dataset import load
    from solvers.lp.env import LPRepairEnv, Track

    problem = next(p for p in load(small_dataset) if p.error_type.value == "ME-3" and p.split == "test")
    env = LPRepairEnv([problem], track=Track.MODEL_ONLY)
    obs, _ = env.reset(options={"problem": problem.id})
    assert "## Problem" not in obs and problem.description not in obs and "## Model" in obs
    agent = OfflineRepairAgent()
    assert agent.act(obs)["name"] == "SUBMIT" and "cannot work" in agent.last_note
    standard, _ = LPRepairEnv([problem]).reset(options={"problem": problem.id})
    assert problem.description in standard
    base = ["repair", "bench", "--dataset", str(small_dataset), "--types", "ME-3", "ME-9"]
    code, out, _ = _run(capsys, [*base, "--track", "model-only"])
    assert code == 0 and out["switches"]["track"] == "model-only" and out["overall"]["RR"] == 0.0
    code, out, _ = _run(capsys, [*base, "--agent", "greedy", "--track", "model-only"])
    assert code == 0 and out["by_type"]["ME-9"]["RR"] == 1.0 and out["by_type"]["ME-3"]["RR"] == 0.0
    code, out, _ = _run(capsys, base)
    assert code == 0 and out["switches"]["track"] == "standard" and out["overall"]["exact"] == 1.0
    with pytest.raises(SystemExit) as refused:
        main([*base, "--track", "galaxy"])
    assert refused.value.code == 2 and '"field": "--track"' in capsys.readouterr().err

def test_solve_writes_the_best_verified_repair_and_honours_hard_rows(capsys, tmp_path: Path) -> None:
    from solvers.lp.model import LPModel, LPStatus

    bad = tmp_path / "bad.lp"
    bad.write_text(INFEASIBLE_LP)
    fixed = tmp_path / "fixed.mps"
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(bad), "--repair-out", str(fixed)])
    assert code == 0 and out["repair_out"]["status"] == "OPTIMAL"
    assert LPModel.read(fixed).solve().status is LPStatus.OPTIMAL
    code, out, _ = _run(
        capsys, ["repair", "solve", "--file", str(bad), "--hard", "capacity_e1", "--rows-only"]
    )
    assert code == 0 and out["candidates"]
    assert all(ch["name"] == "demand_e1_t1" for c in out["candidates"] for ch in c["changes"])
    code, out, _ = _run(capsys, ["repair", "solve", "--file", str(bad), "--hard", "capacity_e1", "demand_e1"])
    assert code == 0 and not out["candidates"] and "un-mark" in out["summary"]
    code, _out, err = _run(capsys, ["repair", "solve", "--file", str(bad), "--hard", "nosuchrow"])
    assert code == 2 and "nosuchrow" in json.loads(err)["error"]
    for bad_weight in ("capacity_e1=0", "capacity_e1=-1", "capacity_e1=nan", "=3", "capacity_e1"):
        with pytest.raises(SystemExit):
            main(["repair", "solve", "--file", str(bad), "--weight", bad_weight])
        assert json.loads(capsys.readouterr().err)["field"] == "--weight"
    code, _out, err = _run(
        capsys,
        [
            "repair",
            "solve",
            "--file",
            str(bad),
            "--hard",
            "capacity_e1",
            "demand_e1",
            "--repair-out",
            str(tmp_path / "none.mps"),
        ],
    )
    assert code == 2 and json.loads(err)["field"] == "--repair-out"


def test_solve_keeps_the_labs_protected_rows_on_supply_chain_models(
    capsys, tmp_path: Path, repair_problems
) -> None:
    """The audit's weak point: `solve` proposed relaxing inv_balance rows (phantom stock) the lab forbids."""
    from solvers.lp.actions import is_protected

    touched_protected = False
    for p in repair_problems[:4]:
        path = tmp_path / f"{p.id}.mps"
        path.write_text(p.build().to_text("mps"))
        code, out, _ = _run(capsys, ["repair", "solve", "--file", str(path)])
        assert code == 0
        if out["status"] != "INFEASIBLE":
            continue
        assert any("protected rows" in n for n in out["not_listed"])
        assert not any(
            is_protected(ch["name"]) for c in out["candidates"] for ch in c["changes"] if ch["kind"] == "row"
        )
        code, loose, _ = _run(capsys, ["repair", "solve", "--file", str(path), "--unprotected"])
        touched_protected |= any(
            is_protected(ch["name"])
            for c in loose["candidates"]
            for ch in c["changes"]
            if ch["kind"] == "row"
        )
    assert touched_protected  # without the rule the elastic LPs do reach for balance rows


def test_bench_real_track_reports_recovered_changes_and_the_reference(capsys) -> None:
    code, out, _ = _run(capsys, ["repair", "bench", "--track", "real", "--agent", "greedy", "--limit", "2"])
    assert code == 0 and out["split"] == "real" and out["switches"]["track"] == "real"
    galenet, woodinfe = out["models"]
    assert galenet["problem_id"] == "galenet" and galenet["recovered"] is True and galenet["changed"] == 1
    assert galenet["reference_fewest"] == 1 and galenet["reference_proven"] is True and galenet["fewest"] is True
    assert woodinfe["reference_proven"] is False and out["overall"]["recovered"] == 1.0
    code, out, _ = _run(capsys, ["repair", "bench", "--track", "real", "--agent", "do-nothing", "--limit", "1"])
    assert code == 0 and out["overall"] == {"n": 1, "recovered": 0.0, "fewest": 0.0, "steps": 1.0}
    code, out, err = _run(capsys, ["repair", "bench", "--track", "real", "--agent", "ground-truth"])
    assert code == 2 and out is None and "no ground truth" in err
    code, out, err = _run(capsys, ["repair", "run", "--problem", "galenet", "--track", "real", "--no-record"])
    assert code == 2 and "repair bench --track real" in err


def test_feedback_judge_flag_is_typed_and_reported(capsys, small_dataset: Path) -> None:
    base = ["repair", "bench", "--dataset", str(small_dataset), "--types", "ME-9"]
    code, out, _ = _run(capsys, [*base, "--feedback-judge", "strict"])
    assert code == 0 and out["switches"]["feedback_judge"] == "strict"
    code, out, _ = _run(capsys, base)
    assert code == 0 and out["switches"]["feedback_judge"] == "paper"
    with pytest.raises(SystemExit) as refused:
        main([*base, "--feedback-judge", "lenient"])
    assert refused.value.code == 2 and '"field": "--feedback-judge"' in capsys.readouterr().err


def test_bench_diagnostician_refuses_rather_than_decouples(capsys, small_dataset: Path) -> None:
    base = [
        "repair",
        "bench",
        "--dataset",
        str(small_dataset),
        "--types",
        "ME-7",
        "ME-8",
        "--agent",
        "diagnostician",
    ]
    code, out, _ = _run(capsys, base)
    assert code == 0 and out["agent"].startswith("diagnostician")
    assert out["overall"]["RR"] == 0.0 and out["overall"]["rrr_paper"] == 0.0  # submits: no rational repair
    code, out, _ = _run(capsys, [*base, "--extended"])
    assert code == 0 and out["overall"]["rrr_strict"] == 1.0 and out["overall"]["exact"] == 1.0
