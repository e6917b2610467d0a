"""The LP Repair Lab page headless (AppTest): run a repair, step through the trace, upload a model, benchmark."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.store import Store

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "lp_repair_lab.py")

INFEASIBLE_LP = """Minimize
 obj: 2 x + 3 y
Subject To
 capacity_e1_t1: x + y <= 10
 demand_e1_t1: x + y >= 25
Bounds
 0 <= x <= 40
 0 <= y <= 40
End
"""


def _page(monkeypatch, tmp_path) -> tuple[AppTest, Path]:
    db = tmp_path / "lp.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    monkeypatch.setenv("ORCA_LP_DATA", str(tmp_path / "no-dataset"))  # the built-in 10-problem sample
    return AppTest.from_file(PAGE, default_timeout=180).run(), db


def _frame(at, column: str):
    """The first dataframe on the page with this column (AppTest does not expose dataframe keys)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_run_a_repair_to_the_end_and_read_the_trace(monkeypatch, tmp_path):
    at, db = _page(monkeypatch, tmp_path)
    assert not at.exception
    assert "built-in sample" in at.info[0].value
    at.selectbox(key="lp_type").set_value("ME-4").run()
    at.button(key="lp_new").click().run()
    assert not at.exception
    assert at.metric[0].value == "INFEASIBLE"
    assert len(at.get("plotly_chart")) >= 1  # the IIS grid of step 0
    at.button(key="lp_run").click().run()
    assert not at.exception
    assert at.metric[0].value == "OPTIMAL"
    assert "rationally recovered" in at.success[0].value
    trace = _frame(at, "action")
    assert trace["action"].iloc[1].startswith("UPDATE_RHS(capacity_e1") or trace["action"].iloc[1].startswith(
        "DROP"
    )
    card = _frame(at, "check")
    assert set(card["check"]) == {
        "Base-stock structure",
        "Bullwhip ratio",
        "Inventory allocation",
        "Cost consistency",
        "Order smoothing",
    }
    assert (card.set_index("check").loc["Bullwhip ratio", "result"]) == "not applied"
    panel = _frame(at, "what").set_index("what")
    assert panel.loc["status", "before"] == "INFEASIBLE" and panel.loc["status", "after"] == "OPTIMAL"
    assert panel.loc["check: Bullwhip ratio", "after"] == "not applied"
    chart = at.get("plotly_chart")[0].proto.spec
    assert "IIS at step 0" in chart and "the state step" in chart  # the IIS the repair started from
    at.selectbox(key="lp_trace_step").set_value(0).run()
    assert not at.exception
    runs = Store(db).list_runs("lp_repair")
    assert len(runs) == 1 and runs["status"][0] == "done"
    assert len(Store(db).transitions(runs["id"][0])) == len(trace) - 1
    from core.rollout import replay_run
    from solvers.lp.env import LPRepairEnv, default_problems

    run = Store(db).get_run(runs["id"][0])
    env = LPRepairEnv(list(default_problems()))
    check = replay_run(Store(db), run["id"], env, options={"problem": run["config"]["problem"]})
    assert check.matches, check.mismatch  # the page's step-by-step recording replays like a rollout


def test_step_by_step_with_the_greedy_floor(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.selectbox(key="lp_type").set_value("ME-9").run()
    at.selectbox(key="lp_agent").set_value("greedy").run()
    at.button(key="lp_new").click().run()
    at.button(key="lp_step").click().run()
    assert not at.exception
    trace = _frame(at, "action")
    assert len(trace) == 2 and trace["action"].iloc[1].startswith("DROP_CONSTRAINT(")


def test_llm_agent_without_a_provider_says_so(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.selectbox(key="lp_agent").set_value("llm").run()
    assert any("needs a provider" in w.value for w in at.warning)
    at.button(key="lp_new").click().run()
    assert not at.exception
    assert any("offline policy" in e.value or "provider" in e.value for e in at.error)


def test_benchmark_tab_runs_and_charts(monkeypatch, tmp_path):
    at, db = _page(monkeypatch, tmp_path)
    at.number_input(key="lp_bench_n").set_value(1).run()
    at.button(key="lp_bench_run").click().run()
    assert not at.exception
    assert len(Store(db).list_runs("lp_repair")) == 10
    assert len(at.get("plotly_chart")) >= 2


def test_upload_an_infeasible_model_and_apply_a_repair(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.file_uploader(key="lp_file").set_value(("plan.lp", INFEASIBLE_LP.encode(), "text/plain")).run()
    assert not at.exception
    assert any(m.value == "INFEASIBLE" for m in at.metric)
    assert any("infeasible" in m.value and "capacity_e1" in m.value for m in at.markdown)
    at.button(key="lp_up_apply").click().run()
    assert not at.exception
    assert any("OPTIMAL" in s.value for s in at.success)
    assert any(b.proto.label == "Download the repaired model" for b in at.get("download_button"))


def test_upload_a_mip_says_so(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    mip = INFEASIBLE_LP.replace("End", "General\n x\nEnd")
    at.file_uploader(key="lp_file").set_value(("plan.lp", mip.encode(), "text/plain")).run()
    assert not at.exception
    assert any("MIP with 1 integer columns: LP relaxation INFEASIBLE" in c.value for c in at.caption)
    assert any("relaxation is already infeasible" in m.value for m in at.markdown)


def test_upload_shows_the_full_iis_why_it_conflicts_and_verified_repairs(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.file_uploader(key="lp_file").set_value(("plan.lp", INFEASIBLE_LP.encode(), "text/plain")).run()
    assert not at.exception
    iis = _frame(at, "family")
    assert set(iis["row"]) == {"capacity_e1_t1", "demand_e1_t1"}
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download the IIS (.lp)" in labels
    assert any("Why they conflict" in m.value for m in at.markdown)
    assert any("capacity_e1_t1: at most 10" in m.value and "cannot all hold" in m.value for m in at.markdown)
    table = _frame(at, "verified status")
    assert set(table["verified status"]) == {"OPTIMAL"}
    at.text_input(key="lp_up_hard").set_value("capacity_e1").run()
    at.checkbox(key="lp_up_rows_only").check().run()
    table = _frame(at, "verified status")
    assert all(w.startswith("demand_e1_t1") for w in table["what changes"])
    at.text_input(key="lp_up_weights").set_value("capacity_e1=abc").run()
    assert any("not a number" in e.value for e in at.error)


def test_a_failed_repair_is_an_error_and_offers_no_download(monkeypatch, tmp_path):
    import solvers.lp.analyze as analyze_module
    from solvers.lp.model import LPStatus

    monkeypatch.setattr(analyze_module, "apply_candidate", lambda model, cand: LPStatus.OTHER)
    at, _db = _page(monkeypatch, tmp_path)
    at.file_uploader(key="lp_file").set_value(("plan.lp", INFEASIBLE_LP.encode(), "text/plain")).run()
    at.button(key="lp_up_apply").click().run()
    assert not at.exception
    assert not at.success
    assert any("repair failed" in e.value and "OTHER" in e.value for e in at.error)
    assert "Download the repaired model" not in [b.proto.label for b in at.get("download_button")]


def test_upload_a_truncated_model_names_the_users_file(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    cut = INFEASIBLE_LP[: INFEASIBLE_LP.index(" demand_e1_t1")]
    at.file_uploader(key="lp_file").set_value(("my plan.lp", cut.encode(), "text/plain")).run()
    assert not at.exception
    assert not at.metric
    assert any("my plan.lp ends without an End line" in e.value for e in at.error)


def test_upload_a_gzipped_model_or_a_gzip_bomb(monkeypatch, tmp_path):
    """A .lp.gz upload is read like the plain file; a bomb and a corrupt archive are errors naming the file."""
    import gzip

    import solvers.lp.analyze as analyze_module

    at, _db = _page(monkeypatch, tmp_path)
    packed = gzip.compress(INFEASIBLE_LP.encode())
    at.file_uploader(key="lp_file").set_value(("plan.lp.gz", packed, "application/gzip")).run()
    assert not at.exception
    assert any(m.value == "INFEASIBLE" for m in at.metric)
    at.button(key="lp_up_apply").click().run()
    assert any(b.proto.label == "Download the repaired model" for b in at.get("download_button"))
    monkeypatch.setattr(analyze_module, "MAX_BYTES", 100)
    at.file_uploader(key="lp_file").set_value(("bomb.lp.gz", gzip.compress(b" " * 10_000), "application/gzip")).run()
    assert not at.exception and not at.metric
    assert any("bomb.lp.gz decompresses to more than the limit" in e.value for e in at.error)
    at.file_uploader(key="lp_file").set_value(("cut.lp.gz", packed[:-9], "application/gzip")).run()
    assert any("cut.lp.gz is not a readable gzip file" in e.value for e in at.error)


def test_a_decoupled_plan_shows_both_verdicts_and_why_strict_refuses(monkeypatch, tmp_path):
    """The offline agent's ME-7 repair: the paper's checks accept it, the strict judge says which link broke."""
    at, _db = _page(monkeypatch, tmp_path)
    at.selectbox(key="lp_type").set_value("ME-7").run()
    at.button(key="lp_new").click().run()
    at.button(key="lp_run").click().run()
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["rational (paper checks)"] == "yes"
    assert shown["rational (strict: echelons linked and the plan replays)"] == "no"
    assert shown["exact repair"] == "no"
    assert any("strict judge refuses" in w.value and "not linked" in w.value for w in at.warning)
    card = _frame(at, "check").set_index("check")
    assert card.loc["Bullwhip ratio", "detail"].startswith(
        "Table 8 uses the bullwhip check for no error type"
    )
    assert "ME-7" in card.loc["Inventory allocation", "detail"]


def test_benchmark_view_shows_both_rrrs_and_exact(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.number_input(key="lp_bench_n").set_value(1).run()
    at.button(key="lp_bench_run").click().run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "runs" in d.value.columns)
    row = table.set_index("agent").iloc[0]
    assert row["runs"] == 10
    assert row["RRR rational (paper checks)"] > row["RRR rational (strict: echelons linked and the plan replays)"]
    assert "exact repair" in table.columns


def test_a_failed_episode_is_an_error_box(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.selectbox(key="lp_type").set_value("ME-4").run()
    at.selectbox(key="lp_agent").set_value("do-nothing").run()
    at.button(key="lp_new").click().run()
    at.button(key="lp_run").click().run()
    assert not at.exception
    assert not at.success
    assert any("not recovered" in e.value for e in at.error)


def test_upload_a_netlib_model(monkeypatch, tmp_path):
    """galenet (Netlib lp/infeas): the full IIS with its bounds, verified repairs, a repaired download."""
    data = Path(__file__).resolve().parents[2] / "data" / "lp" / "netlib_infeasible" / "galenet.mps"
    at, _db = _page(monkeypatch, tmp_path)
    at.file_uploader(key="lp_file").set_value(("galenet.mps", data.read_bytes(), "text/plain")).run()
    assert not at.exception
    assert len(_frame(at, "family")) == 3 and len(_frame(at, "bound")) == 3
    assert set(_frame(at, "verified status")["verified status"]) == {"OPTIMAL"}
    at.button(key="lp_up_apply").click().run()
    assert any("Repaired: HiGHS now reports OPTIMAL" in s.value for s in at.success)


def test_the_mip_hint_names_the_checkbox_by_its_real_label(monkeypatch, tmp_path):
    """Issue 31 item 5: the MIP message points to the relax-integrality option by the label the page shows."""
    at, _db = _page(monkeypatch, tmp_path)
    mip = INFEASIBLE_LP.replace("End", "General\n x\nEnd")
    at.file_uploader(key="lp_file").set_value(("plan.lp", mip.encode(), "text/plain")).run()
    label = at.checkbox(key="lp_relax").label
    assert any(f"\u201c{label}\u201d" in i.value and "MIP" in i.value for i in at.info)
    at.checkbox(key="lp_relax").check().run()
    assert not at.exception and not any("integer columns), analysed" in i.value for i in at.info)


def test_a_malformed_upload_names_the_users_file_not_the_temporary_one(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    broken = INFEASIBLE_LP.replace("x + y <= 10", "x + + <= ten")
    at.file_uploader(key="lp_file").set_value(("factory plan.lp", broken.encode(), "text/plain")).run()
    assert not at.exception and not at.metric
    errors = [e.value for e in at.error]
    assert errors and all("factory plan.lp" in e and "model.lp" not in e for e in errors), errors


def test_benchmark_track_real_runs_the_netlib_models(monkeypatch, tmp_path):
    at, _db = _page(monkeypatch, tmp_path)
    at.selectbox(key="lp_bench_track").set_value("real").run()
    at.selectbox(key="lp_bench_agent").set_value("do-nothing").run()
    assert "No real-track runs" in at.info[-1].value
    at.button(key="lp_bench_run").click().run()
    assert not at.exception
    table = _frame(at, "own-model tool's fewest")
    assert len(table) == 10 and not table["recovered (verified)"].any()
    assert set(table["model"]) >= {"galenet", "cplex1"}


def _student_episode(monkeypatch, tmp_path, etype: str) -> tuple[AppTest, Path]:
    at, db = _page(monkeypatch, tmp_path)
    at.selectbox(key="lp_type").set_value(etype).run()
    at.selectbox(key="lp_agent").set_value("student").run()
    at.button(key="lp_new").click().run()
    assert not at.exception
    assert at.metric[0].value == "INFEASIBLE"
    return at, db


def _play(at: AppTest, name: str, target: str = "", value: str = "") -> None:
    at.selectbox(key="lp_st_action").set_value(name)
    at.text_input(key="lp_st_target").set_value(target)
    at.text_input(key="lp_st_value").set_value(value)
    at.button(key="lp_st_play").click().run()
    assert not at.exception


def test_a_student_repairs_an_lp_step_by_step_and_recovers_rationally(monkeypatch, tmp_path):
    """Issue 31 item 3: the agents' actions typed by a student, checked first, judged by the same judges."""
    at, db = _student_episode(monkeypatch, tmp_path, "ME-4")
    assert not any(b.key in ("lp_step", "lp_run") for b in at.button)  # a student plays, no agent to step
    seen = next(e for e in at.expander if e.label.startswith("What the agent sees")).text[0].value
    assert "## IIS" in seen and "capacity_e1" in seen
    opening = next(e for e in at.expander if e.label.startswith("The opening observation")).text[0].value
    assert "## Problem" in opening and "## Model (LP format)" in opening
    run_id = Store(db).list_runs("lp_repair")["id"][0]
    assert at.query_params["run"] == run_id  # a reload reopens the episode
    _play(at, "UPDATE_RHS", "capacity_e1", "lots")  # malformed: refused before it costs a step
    assert any("Not played" in e.value and "value" in e.value for e in at.error)
    assert len(Store(db).transitions(run_id)) == 0
    _play(at, "DROP_CONSTRAINT", "inv_balance_e1_t1")  # protected: the env refuses it, as for any agent
    assert _frame(at, "action")["result"].iloc[1].startswith("error: target: cannot drop protected rows")
    _play(at, "UPDATE_RHS", "capacity_e1", "443.81")
    assert at.metric[0].value == "OPTIMAL"
    assert "rationally recovered" in at.success[0].value
    shown = {m.label: m.value for m in at.metric}
    assert shown["rational (paper checks)"] == shown["rational (strict: echelons linked and the plan replays)"]
    assert shown["rational (strict: echelons linked and the plan replays)"] == "yes"
    run = Store(db).get_run(run_id)
    assert run["status"] == "done" and run["config"]["agent"] == "student"
    assert run["metrics"]["rational_strict"] is True and len(Store(db).transitions(run_id)) == 2
    from core.rollout import replay_run
    from solvers.lp.env import LPRepairEnv, default_problems

    check = replay_run(Store(db), run_id, LPRepairEnv(list(default_problems())), options={"problem": run["config"]["problem"]})  # fmt: skip
    assert check.matches, check.mismatch  # a student's run replays like any agent's


def test_a_student_who_decouples_the_chain_is_refused_by_the_strict_judge(monkeypatch, tmp_path):
    at, db = _student_episode(monkeypatch, tmp_path, "ME-7")
    _play(at, "RELAX_CONSTRAINT", "capacity_e1", "4767")
    _play(at, "DROP_CONSTRAINT", "demand_prop_e2")
    shown = {m.label: m.value for m in at.metric}
    assert shown["rational (paper checks)"] == "yes"
    assert shown["rational (strict: echelons linked and the plan replays)"] == "no"
    assert any("strict judge refuses" in w.value and "not linked" in w.value for w in at.warning)
    card = _frame(at, "check").set_index("check")
    assert "ME-7" in card.loc["Inventory allocation", "detail"]  # the page's plain-words explanations
    run = Store(db).get_run(Store(db).list_runs("lp_repair")["id"][0])
    assert run["metrics"]["agent"] == "student" and run["metrics"]["rational_strict"] is False
    history = AppTest.from_file(str(Path(PAGE).with_name("run_history.py")), default_timeout=60).run()
    assert not history.exception
    listed = history.dataframe[0].value
    assert listed["id"].tolist() == [run["id"]] and "student" in listed["title"].iloc[0]


def test_a_students_open_episode_survives_a_reload(monkeypatch, tmp_path):
    at, db = _student_episode(monkeypatch, tmp_path, "ME-4")
    _play(at, "GET_IIS")
    run_id = Store(db).list_runs("lp_repair")["id"][0]
    again = AppTest.from_file(PAGE, default_timeout=180)
    again.query_params["run"] = run_id
    again.run()  # a new browser session: nothing in session state, the run comes back from the store
    assert not again.exception
    trace = _frame(again, "action")
    assert trace["action"].tolist() == ["(start)", "GET_IIS()"] and trace["note"].iloc[1] == "student"
    assert again.metric[0].value == "INFEASIBLE"
    _play(again, "UPDATE_RHS", "capacity_e1", "443.81")
    assert "rationally recovered" in again.success[0].value
    assert len(Store(db).list_runs("lp_repair")) == 1 and len(Store(db).transitions(run_id)) == 2
