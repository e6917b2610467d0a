"""The School Scheduling Lab page headless (AppTest): watch one recorded conversation, run a tiny batch as a
background experiment (progress, results, reload, a second session)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.experiments import background
from core.store import Store

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "school_scheduling_lab.py")


def test_watch_a_conversation(monkeypatch, tmp_path):
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert not at.exception
    assert "offline" in at.info[0].value.lower()
    at.radio(key="orca_lab_style").set_value("precise")
    at.radio(key="orca_lab_feedback").set_value("rich")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000"  # u001, precise + rich: reaches U* (hand-checked in the CLI test)
    assert metrics["Turns"] == "2" and metrics["Stopped"] == "satisfied"
    assert at.chat_message[0].markdown[0].value.startswith("### Proposed schedule")
    assert any("__END__" in m.markdown[0].value for m in at.chat_message)
    runs = Store(db).list_runs()
    assert len(runs) == 1 and "Lab: T-P-P (offline)" in runs.iloc[0]["title"]


def _start_batch(at: AppTest, count: int, paradigms: list[str], key: str = "orca_lab_paradigms") -> str:
    """Press Run batch with these choices (one worker process); the started experiment's id."""
    at.slider(key="orca_lab_count").set_value(count)
    at.multiselect(key=key).set_value(paradigms)
    at.number_input(key="orca_lab_workers").set_value(1)
    at.button(key="orca_lab_batch").click().run()
    assert not at.exception
    return at.session_state["orca_lab_experiment"]


def _frame(at: AppTest, column: str, without: str = "feedback"):
    """The first table with `column` and without `without` (Table 2: avg_score; the tests: better)."""
    return next(d.value for d in at.dataframe if column in d.value and without not in d.value)


def _finish(exp_id: str) -> None:
    run = background.get(exp_id)
    assert run is not None
    run.thread.join(timeout=240)
    assert run.error is None and run.summary["status"] == "done"


def test_batch_runs_as_an_experiment_and_shows_the_lab_report(monkeypatch, tmp_path):
    """Issue 30: Run batch builds the `schedule lab run` spec and starts it on the engine in the background;
    progress comes from the store's cells; the results are the finished experiment's lab report, which a
    second session sees too."""
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert not at.exception
    assert any("No batch yet" in c.value for c in at.caption)
    exp_id = _start_batch(at, 1, ["default", "conversation"])
    info = Store(db).get_experiment(exp_id)
    assert info["workbench"] == "school_scheduling" and info["cells"] == 8
    assert [a["name"] for a in info["spec"]["agents"]] == ["tpp_default", "tpp_conversation"]
    assert "/8 conversations" in at.get("progress")[0].proto.text
    _finish(exp_id)
    at.run()
    assert not at.exception
    assert "8/8 conversations · 8 done" in at.get("progress")[0].proto.text
    table2 = _frame(at, "avg_score")
    overall = (
        table2[table2["style"].isna()].set_index("agent") if "style" in table2 else table2.set_index("agent")
    )
    assert overall.loc["tpp_conversation", "n"] == 4
    assert overall.loc["tpp_conversation", "success_rate"] == 1.0
    assert overall.loc["tpp_default", "success_rate"] == 0.0
    tests = _frame(at, "better")
    assert set(tests["better"]) == {"tpp_conversation"} and set(tests["worse"]) == {"tpp_default"}
    assert any("Decision agents: offline" in c.value for c in at.caption)
    assert len(at.get("plotly_chart")) == 1
    other = AppTest.from_file(PAGE, default_timeout=180).run()  # a second session sees the same batch
    assert not other.exception
    assert other.selectbox(key="orca_lab_experiment").value == exp_id
    assert _frame(other, "avg_score").equals(table2)


def test_a_reload_mid_run_shows_the_running_batch(monkeypatch, tmp_path):
    """A batch keeps running when the page is reloaded: a fresh session finds it and its progress."""
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    exp_id = _start_batch(at, 60, ["conversation"])  # 240 conversations: still running after the reload
    try:
        reloaded = AppTest.from_file(PAGE, default_timeout=180).run()
        assert not reloaded.exception
        assert reloaded.selectbox(key="orca_lab_experiment").value == exp_id
        assert "/240 conversations" in reloaded.get("progress")[0].proto.text
        assert any("Running in the background" in c.value for c in reloaded.caption)
        assert background.get(exp_id).alive
    finally:
        background.stop(exp_id)
        background.get(exp_id).thread.join(timeout=60)


def _no_keys(monkeypatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ORCA_PROVIDER", "ORCA_MODEL"):
        monkeypatch.delenv(var, raising=False)


def test_llm_decision_agents_need_a_key(monkeypatch, tmp_path):
    _no_keys(monkeypatch)
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "lab.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key="orca_lab_kind").set_value("llm").run()
    assert not at.exception
    assert "need an LLM" in at.warning[0].value and "Nothing offline is substituted" in at.warning[0].value
    assert at.button(key="orca_lab_run").disabled and at.button(key="orca_lab_batch").disabled


def test_llm_decision_agent_conversation_against_the_fake_server(monkeypatch, tmp_path, fake_llm):
    from core.schedule.lab.utilities import utility_by_key
    from solvers.schedule.data import sfusd_district
    from solvers.schedule.utility import sfusd_space

    _no_keys(monkeypatch)
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    monkeypatch.setenv("ORCA_PROVIDER", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    district, space, u = sfusd_district(), sfusd_space(), utility_by_key("u001")
    best = space.assignments[int(u.values(space).argmax())]
    times = {n: district.time_labels[int(a)] for n, a in zip(district.names, best, strict=True)}
    fake_llm.script(
        [
            {"text": "Hmm, I would like the peak a bit lower, if that is possible."},
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times}}]},
            {"text": "Lovely, thank you. __END__"},
        ]
    )
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.radio(key="orca_lab_kind").set_value("llm").run()
    assert "LLM decision agent (openai/" in at.info[0].value
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000" and metrics["Stopped"] == "satisfied" and metrics["Turns"] == "2"
    assert any("llm-decision/" in c.value for c in at.caption)
    assert any("Lovely" in m.markdown[0].value for m in at.chat_message)
    runs = Store(db).list_runs()
    assert len(runs) == 1 and "LLM decision agent" in runs.iloc[0]["title"]


def test_generate_a_decision_agent_and_converse(monkeypatch, tmp_path):
    _no_keys(monkeypatch)
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "lab.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.radio(key="orca_lab_source").set_value("generate").run()
    assert at.button(key="orca_lab_run").disabled  # nothing generated yet
    at.selectbox(key="orca_lab_gen_school").set_value("Everett MS")
    at.number_input(key="orca_lab_gen_seed").set_value(7)
    at.button(key="orca_lab_generate").click().run()
    assert not at.exception
    assert "unique maximiser" in at.success[0].value and "g07s7" in at.success[0].value
    params = at.dataframe[0].value.iloc[0]
    assert params["w1 (start time)"] + params["w2 (peak load)"] + params["w3 (change)"] == pytest.approx(1.0)
    at.radio(key="orca_lab_feedback").set_value("rich")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    assert any("Hidden utility g07s7" in c.value for c in at.caption)
    assert {m.label for m in at.metric} >= {"Score π", "Turns"}


def _openai_env(monkeypatch, tmp_path, fake_llm):
    _no_keys(monkeypatch)
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    monkeypatch.setenv("ORCA_PROVIDER", "openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    return db


def _u001_best():
    from core.schedule.lab.utilities import utility_by_key
    from solvers.schedule.data import sfusd_district
    from solvers.schedule.utility import sfusd_space

    district, space, u = sfusd_district(), sfusd_space(), utility_by_key("u001")
    best = tuple(int(a) for a in space.assignments[int(u.values(space).argmax())])
    return district, best


def test_llm_tpp_conversation_and_paper_mode_batch_against_the_fake_server(monkeypatch, tmp_path, fake_llm):
    from core.schedule.processing import markdown_schedule

    db = _openai_env(monkeypatch, tmp_path, fake_llm)
    district, best = _u001_best()
    fixes = [
        {"name": "fix_start_time", "arguments": {"school": n, "time": district.time_labels[a]}}
        for n, a in zip(district.names, best, strict=True)
    ]
    fake_llm.script(
        [
            {"tool_calls": [*fixes, {"name": "call_solver", "arguments": {}}]},
            {"text": "### Proposed schedule\n\n" + markdown_schedule(district, best)},
        ]
    )
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.selectbox(key="orca_lab_optimizer").set_value("T-P-P (LLM)").run()
    assert not at.exception and not at.warning
    assert "Optimization agent: T-P-P (LLM) over openai/" in at.info[0].value
    assert "offline decision agent" in at.info[0].value
    at.radio(key="orca_lab_style").set_value("precise")
    at.radio(key="orca_lab_feedback").set_value("rich")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000" and metrics["Stopped"] == "satisfied"
    assert metrics["Solver calls"] == "2"  # the base solve and the LLM's call_solver
    note = next(c.value for c in at.caption if "LLM agents:" in c.value)
    assert "LLM agents: T-P-P (LLM openai/" in note and "ORCA mode" in note
    assert "Offline stand-ins (built-in, not LLMs): offline-decision/precise/rich" in note
    assert len(fake_llm.requests) == 2
    runs = Store(db).list_runs()
    assert len(runs) == 1 and runs.iloc[0]["title"].startswith("Lab: T-P-P (LLM openai/")

    fake_llm.script([{"text": "I kept the base schedule; it balances the load well."}] * 4)
    at.selectbox(key="orca_lab_optimizer").set_value("T-P-P-paper (LLM)").run()
    exp_id = _start_batch(at, 1, ["one_shot"])
    agent = Store(db).get_experiment(exp_id)["spec"]["agents"][0]
    assert (agent["kind"], agent["provider"]) == ("llm", "openai")  # the page's Settings LLM
    _finish(exp_id)  # the driver process reaches the fake server with the page's key and URL
    at.run()
    assert not at.exception
    summary = _frame(at, "avg_score")
    assert summary[summary["style"].isna()].set_index("agent").loc["tpppaper_one_shot", "n"] == 4
    assert len(fake_llm.requests) == 4  # one LLM answer per one-shot conversation (script() cleared the log)
    tools = {t["function"]["name"] for t in fake_llm.requests[-1]["body"]["tools"]}
    assert "show_alternatives" not in tools  # paper mode's tool set
    agents = next(c.value for c in at.caption if "LLM optimization agents: included" in c.value)
    assert (
        "tpppaper_one_shot (T-P-P (paper mode" in agents
        and "), llm)" in agents
        and "Decision agents: offline" in agents
    )


def test_code_design_conversation_against_the_fake_server(monkeypatch, tmp_path, fake_llm):
    from core.schedule.processing import markdown_schedule

    _openai_env(monkeypatch, tmp_path, fake_llm)
    district, best = _u001_best()
    fix = "\n".join(f"prob += x[{q}, {t}] == 1" for q, t in enumerate(best))
    fake_llm.script(
        [
            {"tool_calls": [{"name": "execute_code", "arguments": {"code": "pass"}}]},
            {"text": "I solved the base model; tell me what matters to you."},
            {"tool_calls": [{"name": "execute_code", "arguments": {"code": fix}}]},
            {"text": "Here is the new schedule:\n\n" + markdown_schedule(district, best)},
        ]
    )
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.selectbox(key="orca_lab_optimizer").set_value("C-P-P (LLM)").run()
    assert not at.exception and not at.warning
    assert any("reports C-P-P under conversation only" in c.value for c in at.caption)
    assert at.selectbox(key="orca_lab_paradigm").options == [
        "default",
        "one_shot",
        "aware_one_shot",
        "conversation",
    ]
    at.radio(key="orca_lab_style").set_value("precise")
    at.radio(key="orca_lab_feedback").set_value("rich")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000" and metrics["Stopped"] == "satisfied"
    assert metrics["Solver calls"] == "2"  # two error-free sandbox executions of the pipeline
    note = next(c.value for c in at.caption if "LLM agents:" in c.value)
    assert (
        "LLM agents: C-P-P (LLM" in note
        and "Offline stand-ins (built-in, not LLMs): offline-decision" in note
    )
    assert "import pulp" in fake_llm.requests[0]["body"]["messages"][0]["content"]  # the C-P-P problem prompt


def test_llm_optimization_agents_need_a_key_and_cnr_needs_llm_decision_agents(monkeypatch, tmp_path):
    _no_keys(monkeypatch)
    monkeypatch.setenv("ORCA_DB", str(tmp_path / "lab.duckdb"))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    for choice in ("T-P-P (LLM)", "T-P-P-paper (LLM)", "C-P-P (LLM)", "C-P-R (LLM)"):
        at.selectbox(key="orca_lab_optimizer").set_value(choice).run()
        assert not at.exception
        assert len(at.warning) == 1 and "needs an LLM" in at.warning[0].value
        assert "Nothing offline is substituted" in at.warning[0].value and not at.info
        assert at.button(key="orca_lab_run").disabled and at.button(key="orca_lab_batch").disabled
    at.selectbox(key="orca_lab_optimizer").set_value("C-N-R (LLM)").run()
    warnings = [w.value for w in at.warning]
    assert any("needs an LLM" in w for w in warnings) and any(
        "offline stand-ins cannot" in w for w in warnings
    )
    assert at.selectbox(key="orca_lab_paradigm_c-n-r").options == ["one_shot", "conversation"]
    assert any("not offered for C-N-R" in c.value and "no default schedule" in c.value for c in at.caption)
    assert at.button(key="orca_lab_run").disabled
    at.selectbox(key="orca_lab_optimizer").set_value("T-P-P (offline)").run()
    assert not at.warning and not at.button(key="orca_lab_run").disabled


def test_cnr_one_shot_with_llm_decision_agents_against_the_fake_server(monkeypatch, tmp_path, fake_llm):
    from core.schedule.processing import markdown_schedule

    db = _openai_env(monkeypatch, tmp_path, fake_llm)
    district, best = _u001_best()
    times = {n: district.time_labels[a] for n, a in zip(district.names, best, strict=True)}
    code = (
        "import pulp\nprob = pulp.LpProblem('s', pulp.LpMinimize)\ny = pulp.LpVariable('y', lowBound=0)\n"
        "prob += y\nprob.solve(pulp.HiGHS())\nresult = pulp.value(y)"
    )
    fake_llm.script(
        [
            {"text": "Our district has ten schools and three start times... and I care about the peak load."},
            {"tool_calls": [{"name": "execute_code", "arguments": {"code": code}}]},
            {"text": "Here is a schedule:\n\n" + markdown_schedule(district, best)},
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times}}]},
            {"text": "Checked."},
        ]
    )
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.radio(key="orca_lab_kind").set_value("llm").run()
    at.selectbox(key="orca_lab_optimizer").set_value("C-N-R (LLM)").run()
    assert not at.exception and not at.warning
    at.selectbox(key="orca_lab_paradigm_c-n-r").set_value("one_shot")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Score π"] == "1.000" and metrics["Turns"] == "1" and metrics["Solver calls"] == "1"
    note = next(c.value for c in at.caption if "LLM agents:" in c.value)
    assert "C-N-R (LLM" in note and "llm-decision/vague/binary/cnr_adjusted" in note
    assert "Offline stand-ins (built-in, not LLMs): none" in note
    first = fake_llm.requests[0]["body"]["messages"][0]["content"]
    assert "knows nothing about the district" in first  # the C-N-R-adjusted decision template
    system = fake_llm.requests[1]["body"]["messages"][0]["content"]
    assert (
        system.startswith("You are a helpful assistant") and "Everett" not in system
    )  # C-N-R: no problem prompt
    runs = Store(db).list_runs()
    assert len(runs) == 1 and "C-N-R (LLM" in runs.iloc[0]["title"]
