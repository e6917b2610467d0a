"""Shareable run links (`?run=ID`, issue 31 item 4) on the pages that produce runs: the run's link is shown and
kept in the URL, opening it shows the run, and an unknown id says so plainly (`core/ui.py: open_url_run`,
`show_run_link`)."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.retail.run import run_agent
from core.store import Store

PAGES = Path(__file__).resolve().parents[2] / "pages"


def page(name: str, run: str | None = None) -> AppTest:
    at = AppTest.from_file(str(PAGES / name), default_timeout=180)
    if run is not None:
        at.query_params["run"] = run
    return at.run()


def link_shown(at: AppTest, path: str, run_id: str) -> bool:
    return any(f"/{path}?run={run_id}" in c.value for c in at.code)


def no_such_run(at: AppTest) -> bool:
    return any("No such run" in w.value and "`nope`" in w.value for w in at.warning)


def test_policy_simulator_links_its_run_and_opens_it(monkeypatch, tmp_path):
    db = tmp_path / "sim.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = page("policy_simulator.py")
    at.number_input(key="orca_sim_paths").set_value(200)
    at.number_input(key="orca_sim_grid_paths").set_value(100)
    at.button(key="FormSubmitter:orca_sim_form-Run simulation").click().run()
    assert not at.exception
    run_id = Store(db).list_runs("policy_simulator")["id"][0]
    assert at.query_params["run"] in (run_id, [run_id])
    assert link_shown(at, "policy_simulator", run_id)
    at.run()  # a rerun does not reopen the run it just made
    assert not any("Opened the stored run" in s.value for s in at.success)

    opened = page("policy_simulator.py", run_id)
    assert not opened.exception
    assert any(f"Opened the stored run `{run_id}`" in s.value for s in opened.success)
    assert no_such_run(page("policy_simulator.py", "nope"))


def test_a_link_to_another_workbenchs_run_says_so(monkeypatch, tmp_path):
    db = tmp_path / "other.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    run_id = run_agent("hybrid", days=2, seed=0, store=Store(db))["run_id"]
    at = page("policy_simulator.py", run_id)
    assert not at.exception
    assert any(f"Run `{run_id}` is a RetailBench run" in w.value for w in at.warning)


def test_retailbench_replay_opens_a_linked_run_and_keeps_it_in_the_url(monkeypatch, tmp_path):
    db = tmp_path / "retail.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    first = run_agent("hybrid", days=2, seed=0, store=Store(db))["run_id"]
    run_agent("hybrid", days=2, seed=1, store=Store(db))  # the newest, selected by default
    at = page("retailbench_replay.py", first)
    assert not at.exception
    assert at.multiselect(key="orca_retail_runs").value == [first]
    assert link_shown(at, "retailbench_replay", first)
    assert no_such_run(page("retailbench_replay.py", "nope"))


def test_retailbench_sends_a_run_link_to_the_replay(monkeypatch, tmp_path):
    db = tmp_path / "retail_link.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    run_id = run_agent("hybrid", days=2, seed=0, store=Store(db))["run_id"]
    at = AppTest.from_file(str(PAGES.parent / "app.py"), default_timeout=180)  # st.switch_page needs the app
    at.switch_page("pages/retailbench.py")
    at.query_params["run"] = run_id
    at.run()
    assert not at.exception
    assert at.title[0].value == "RetailBench replay"
    assert at.multiselect(key="orca_retail_runs").value == [run_id]
    assert no_such_run(page("retailbench.py", "nope"))


def test_lp_repair_lab_links_an_agents_episode_and_replays_it_read_only(monkeypatch, tmp_path):
    db = tmp_path / "lp.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    monkeypatch.setenv("ORCA_LP_DATA", str(tmp_path / "no-dataset"))
    at = page("lp_repair_lab.py")
    at.selectbox(key="lp_agent").set_value("greedy").run()
    at.button(key="lp_new").click().run()
    at.button(key="lp_run").click().run()
    assert not at.exception
    run_id = Store(db).list_runs("lp_repair")["id"][0]
    assert link_shown(at, "lp_repair_lab", run_id)
    assert at.query_params["run"] in (run_id, [run_id])

    opened = page("lp_repair_lab.py", run_id)
    assert not opened.exception
    assert any(f"read-only replay of run `{run_id}`" in i.value for i in opened.info)
    assert opened.button(key="lp_step").disabled and opened.button(key="lp_run").disabled
    assert opened.metric[0].value == at.metric[0].value
    assert no_such_run(page("lp_repair_lab.py", "nope"))


def test_inventory_lab_links_its_run_and_opens_it(monkeypatch, tmp_path):
    db = tmp_path / "lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = page("inventory_lab.py")
    at.number_input(key="orca_lab_n").set_value(1)
    at.selectbox(key="orca_lab_protocol").set_value("mixed")
    at.number_input(key="orca_lab_paths").set_value(30)
    at.number_input(key="orca_lab_assess_paths").set_value(200)
    at.button(key="FormSubmitter:orca_lab_form-Run the lab").click().run()
    assert not at.exception
    run_id = at.session_state["orca_lab_run_id"]
    assert link_shown(at, "inventory_lab", run_id)
    trial_run = next(r for r in Store(db).list_runs("inventory_lab")["id"] if r != run_id)

    opened = page("inventory_lab.py", run_id)
    assert not opened.exception
    assert opened.metric[0].value == "1"
    assert opened.dataframe[-1].value["scenario"].tolist() == at.dataframe[-1].value["scenario"].tolist()
    assert link_shown(opened, "inventory_lab", run_id)
    trial = page("inventory_lab.py", trial_run)
    assert any("one trial of a lab run" in e.value for e in trial.error)
    assert no_such_run(page("inventory_lab.py", "nope"))


def test_school_scheduling_lab_links_a_conversation_and_shows_it(monkeypatch, tmp_path):
    db = tmp_path / "sched_lab.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = page("school_scheduling_lab.py")
    at.button(key="orca_lab_run").click().run()
    assert not at.exception
    run_id = Store(db).list_runs("school_scheduling")["id"][0]
    assert link_shown(at, "school_scheduling_lab", run_id)

    opened = page("school_scheduling_lab.py", run_id)
    assert not opened.exception
    box = next(e for e in opened.expander if e.label.startswith("Recorded conversation"))
    assert len(box.chat_message) > 1
    assert link_shown(opened, "school_scheduling_lab", run_id)
    chat = page("school_scheduling.py", run_id)  # the chat page sends a lab run to the lab's page
    assert any(f"/school_scheduling_lab?run={run_id}" in e.value for e in chat.error)
    assert no_such_run(page("school_scheduling_lab.py", "nope"))
    assert no_such_run(page("school_scheduling.py", "nope"))


def test_experiments_link_selects_its_experiment(monkeypatch, tmp_path):
    from core.experiments import background
    from tests.pages.test_experiments import TINY

    db = tmp_path / "exp.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    at = page("experiments.py")
    ids = []
    for name in ("first", "second"):
        at.text_area(key="orca_exp_spec_text").set_value(TINY.replace('name = "tiny"', f'name = "{name}"'))
        at.button(key="orca_exp_start").click().run()
        assert not at.exception
        ids.append(at.session_state["orca_exp_selected"])
        background.get(ids[-1]).thread.join(timeout=120)
    at.run()
    assert link_shown(at, "experiments", ids[1])
    assert at.query_params["run"] in (ids[1], [ids[1]])

    opened = page("experiments.py", ids[0])  # not the newest: the link selects it
    assert not opened.exception
    assert opened.selectbox(key="orca_exp_selected").value == ids[0]
    assert link_shown(opened, "experiments", ids[0])
    unknown = page("experiments.py", "nope")
    assert any("No such experiment" in w.value and "`nope`" in w.value for w in unknown.warning)
