"""The Run history page: empty state, and a stored run replayed with steps and downloads."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.runlog import SCHEDULE_OPENING
from core.store import Store

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "run_history.py")


def test_empty_store_shows_a_hint():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert "No runs yet" in at.info[0].value


def test_a_run_is_listed_and_replayed(monkeypatch, tmp_path):
    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    store = Store(db)
    run_id = store.create_run("school_scheduling", {"alpha": 1}, seed=3, title="principal chat")
    store.add_message(run_id, "user", "start Everett later")
    store.add_message(run_id, "assistant", "Done: Everett now starts at 9:30 AM.")
    store.add_step(run_id, "llm", {"text": "hi"}, input_tokens=120, output_tokens=30, latency_ms=250.0)
    store.add_artifact(run_id, "schedule.csv", b"school,start\nEverett,9:30 AM\n")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert at.dataframe[0].value["id"].tolist() == [run_id]
    assert [m.markdown[0].value for m in at.chat_message] == [
        "start Everett later",
        "Done: Everett now starts at 9:30 AM.",
    ]
    assert [m.value for m in at.metric][:2] == ["120", "30"]


def test_app_requests_and_tool_results_are_not_shown_as_typed_messages(monkeypatch, tmp_path):
    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    store = Store(db)
    run_id = store.create_run("school_scheduling", {}, seed=1, title="principal chat")
    store.add_message(run_id, "user", SCHEDULE_OPENING)
    store.add_message(run_id, "assistant", "", [{"id": "c1", "name": "call_solver", "arguments": {}}])
    store.add_message(run_id, "tool", '{"status": "optimal"}')
    store.add_message(run_id, "assistant", "Here is the schedule.")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    shown = [m.markdown[0].value for m in at.chat_message if m.markdown]
    assert SCHEDULE_OPENING not in shown and shown[-1] == "Here is the schedule."
    assert all(m.name == "assistant" for m in at.chat_message)
    assert any(SCHEDULE_OPENING in c.value for c in at.caption)
    assert [e.label for e in at.expander] == ["Tool result"]
    assert at.dataframe[0].value["workbench"].tolist() == ["School Scheduling"]


def test_an_unusable_store_path_is_an_error_not_a_crash(monkeypatch):
    monkeypatch.setenv("ORCA_DB", "/proc/nope/runs.duckdb")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert "/proc/nope/runs.duckdb" in at.error[0].value


def test_a_simulator_run_shows_its_comparison_and_opens_back_in_the_simulator(monkeypatch, tmp_path):
    from core.inventory.simulator import inputs as sim_inputs
    from core.inventory.simulator import session as sim

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    store = Store(db)
    problem = sim_inputs.default_problem()
    options = sim.SimulationOptions(paths=100, trajectories=0, grid=False, dp=False)
    result = sim.run_simulation(problem, sim_inputs.default_choices(problem), options, seed=4, store=store)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    comparison = next(d.value for d in at.dataframe if "policy" in d.value.columns)
    assert set(comparison["policy"]) == {e.policy for e in result.evaluations}
    chart = next(c for c in at.get("plotly_chart") if "Expected total cost per policy" in c.proto.spec)
    assert "top up to" in chart.proto.spec  # plain policy names on the axis
    assert [b.label for b in at.button if b.label == "Open in Policy Simulator"]
    assert f"/policy_simulator?run={result.run_id}" in [c.value for c in at.code]

    simulator = AppTest.from_file(
        str(Path(__file__).resolve().parents[2] / "pages" / "policy_simulator.py"), default_timeout=120
    )
    simulator.query_params["run"] = result.run_id
    simulator.run()
    assert not simulator.exception
    assert "Opened the stored run" in simulator.success[0].value
    assert simulator.checkbox(key="orca_sim_use_sS").value and not simulator.checkbox(key="orca_sim_dp").value
    assert simulator.number_input(key="orca_sim_paths").value == 100


def test_cumulative_reward_chart_has_axis_titles_and_grows_in_presentation_mode(monkeypatch, tmp_path):
    import json

    from core.store.rollouts import TransitionRow
    from core.ui import PRESENT_FONT_PX

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    store = Store(db)
    run_id = store.create_run("inventory_simulator", {}, seed=0, title="rollout")
    store.add_transitions(run_id, [TransitionRow(t, {"order": t}, 1.5, {}, f"h{t}", {}) for t in range(3)])

    def chart(present: bool) -> dict:
        at = AppTest.from_file(PAGE, default_timeout=60)
        if present:
            at.query_params["present"] = "1"
        at.run()
        assert not at.exception
        (shown,) = at.get("vega_lite_chart")
        return json.loads(shown.proto.spec)

    plain = chart(False)
    assert plain["height"] == 220 and "axis" not in plain.get("config", {})
    assert plain["encoding"]["y"]["title"] == "Cumulative reward"
    presented = chart(True)
    assert presented["height"] == 275 and presented["config"]["axis"]["titleFontSize"] == PRESENT_FONT_PX


def test_a_long_run_shows_its_transitions_a_page_at_a_time_and_the_whole_reward_curve(monkeypatch, tmp_path):
    import pyarrow as pa

    from core.store.rollouts import TransitionRow

    db = tmp_path / "runs.duckdb"
    monkeypatch.setenv("ORCA_DB", str(db))
    store = Store(db)
    run_id = store.create_run("retailbench", {}, seed=0, title="long rollout")
    rows = [TransitionRow(t, {"order": t}, float(t % 3), {}, f"h{t}", {}) for t in range(450)]
    store.add_transitions(run_id, rows)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    (chart,) = at.get("vega_lite_chart")
    points = pa.ipc.open_stream(chart.proto.data.data).read_pandas()
    table = at.dataframe[-1].value
    assert table["t"].tolist() == list(range(200))
    assert any("Steps 0–199 of 450" in c.value for c in at.caption)
    (pager,) = at.number_input
    pager.set_value(3).run()
    assert not at.exception
    assert at.dataframe[-1].value["t"].tolist() == list(range(400, 450))
    assert any("Steps 400–449 of 450" in c.value for c in at.caption)
    assert len(points) == 450  # the curve is drawn from every step's reward, not only the page's
    assert points["value"].iloc[-1] == sum(t % 3 for t in range(450))
