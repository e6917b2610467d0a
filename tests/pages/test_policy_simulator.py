"""The Policy Simulator page through AppTest: empty state, a default run, validation, and the problem hand-offs."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core import ui_keys
from core.inventory.simulator import inputs as sim_inputs
from core.inventory.simulator import session as sim
from core.store import Store
from solvers.inventory.spec import params_csv_text

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "policy_simulator.py")
SUBMIT = "FormSubmitter:orca_sim_form-Run simulation"


def fresh() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert at.title[0].value == "Policy Simulator"
    assert not at.exception
    return at


def small(at: AppTest) -> AppTest:
    at.number_input(key="orca_sim_paths").set_value(200)
    at.number_input(key="orca_sim_grid_paths").set_value(100)
    return at


def submit(at: AppTest) -> AppTest:
    return at.button(key=SUBMIT).click().run()


def test_empty_state_explains_what_to_do():
    at = fresh()
    assert "Run simulation" in at.info[0].value
    assert at.get("plotly_chart") == []
    assert at.text_input(key="orca_sim_demand_distribution").value == "poisson(8)"
    assert at.number_input(key="orca_sim_lead_time").value == 1
    assert at.number_input(key="orca_sim_penalty_cost").value == 2.83
    assert at.number_input(key="orca_sim_sS_s").value <= at.number_input(key="orca_sim_sS_S").value


def test_default_run_shows_table_charts_downloads_and_is_stored():
    at = submit(small(fresh()))
    assert not at.exception
    assert not at.error
    table = at.dataframe[0].value
    assert {"sS(15,20)", "base_stock(20)", "dp"} <= set(table["policy"])
    assert {"mean", "std", "ci95_low", "ci95_high", "fill_rate", "gap_to_dp_pct"} <= set(table.columns)
    assert table["recommended"].sum() == 1
    charts = at.get("plotly_chart")
    assert len(charts) == 4  # trajectories, cost distributions, risk scatter, (s,S) heatmap
    assert "On-hand" in charts[0].proto.spec and "sS(15,20)" in charts[0].proto.spec
    recommended = table.loc[table["recommended"], "policy"].iloc[0]
    assert f"(`{recommended}`)" in at.success[0].value
    assert len([sl for sl in at.slider if "λ" in sl.label]) == 1  # one λ control
    assert "(" not in table.loc[table["recommended"], "rule"].iloc[0]
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == [
        "Comparison table (CSV)",
        "Parameters (extracted_params.csv)",
        "deployment_artifacts.zip",
    ]
    runs = Store(os.environ["ORCA_DB"]).list_runs(sim.WORKBENCH)
    assert runs["status"].tolist() == ["done"]
    assert runs["metrics"][0]["recommended"] == recommended

    at.slider(key="orca_sim_risk_tolerance").set_value(-10.0).run()
    steady = at.dataframe[0].value
    least_std = steady.loc[steady["std"].idxmin(), "policy"]
    assert steady.loc[steady["recommended"], "policy"].tolist() == [least_std]
    assert f"(`{least_std}`)" in at.success[0].value


def test_bad_parameter_names_the_field_and_keeps_the_form():
    at = fresh()
    at.number_input(key="orca_sim_lead_time").set_value(5000)
    submit(at)
    assert not at.exception
    assert "lead_time" in at.error[0].value
    assert at.number_input(key="orca_sim_lead_time").value == 5000
    assert at.get("plotly_chart") == []
    at.number_input(key="orca_sim_lead_time").set_value(1)
    at.text_input(key="orca_sim_demand_distribution").set_value("poison(8)")
    submit(at)
    assert not at.exception
    assert "demand_distribution" in at.error[0].value
    assert at.text_input(key="orca_sim_demand_distribution").value == "poison(8)"
    assert Store(os.environ["ORCA_DB"]).list_runs(sim.WORKBENCH).empty


def test_absurd_sizes_name_the_field_and_the_session_stays_alive():
    at = fresh()
    at.number_input(key="orca_sim_time_horizon").set_value(10**8)
    submit(at)
    assert not at.exception
    assert at.error[0].value.startswith("time_horizon:")
    at.number_input(key="orca_sim_time_horizon").set_value(30)
    at.number_input(key="orca_sim_max_inventory").set_value(100_000)
    submit(at)
    assert not at.exception
    assert at.error[0].value.startswith("max_inventory:") and "(s,S) search" in at.error[0].value
    assert Store(os.environ["ORCA_DB"]).list_runs(sim.WORKBENCH).empty
    at.number_input(key="orca_sim_max_inventory").set_value(40)
    submit(small(at))
    assert not at.exception and not at.error and "Recommended" in at.success[0].value


def test_a_dqn_run_adds_its_row_learning_curve_and_weights():
    at = small(fresh())
    at.checkbox(key="orca_sim_grid").uncheck()
    at.checkbox(key="orca_sim_dqn").check()
    at.number_input(key="orca_sim_dqn_steps").set_value(20)
    submit(at)
    assert not at.exception
    # 20 steps of training: flagged loudly, shown, never recommended
    assert [e.value for e in at.error if e.value.startswith("Do not use this DQN")]
    table = at.dataframe[0].value
    assert "dqn" in set(table["policy"])
    assert table.loc[table["recommended"], "policy"].iloc[0] != "dqn"
    assert "**dqn**" not in at.success[0].value
    assert "DQN learning curve" in [t.label for t in at.tabs]
    charts = at.get("plotly_chart")
    assert len(charts) == 4 and "validation" in charts[-1].proto.spec.lower()
    runs = Store(os.environ["ORCA_DB"]).list_runs(sim.WORKBENCH)
    assert runs["metrics"][0]["policies"].keys() >= {"dqn", "dp"}


def test_copilot_handoff_loads_the_csv_into_the_form():
    problem = dataclasses.replace(
        sim_inputs.problem_from_form({**sim_inputs.PAPER_INSTANCE, "demand_distribution": "normal(30,10)"}),
        lead_time=2,
        lost_sales=False,
        max_inventory=120,
        max_order=60,
    )
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state[ui_keys.SIMULATOR_PARAMS_CSV] = params_csv_text(problem)
    at.run()
    assert not at.exception
    assert "Inventory Copilot" in at.success[0].value
    assert at.text_input(key="orca_sim_demand_distribution").value == "normal(30,10)"
    assert at.number_input(key="orca_sim_lead_time").value == 2
    assert at.number_input(key="orca_sim_max_inventory").value == 120
    assert at.selectbox(key="orca_sim_state_transition_model").value == "backlog"
    assert ui_keys.SIMULATOR_PARAMS_CSV not in at.session_state
    assert at.number_input(key="orca_sim_sS_S").value >= 30 * 3
    assert "the problem from the Inventory Copilot" in at.info[0].value and "paper" not in at.info[0].value


def test_copilot_handoff_carries_its_recommended_policy_and_evaluation_paths():
    handoff = sim_inputs.policy_handoff({"kind": "rQ", "R": 9, "Q": 17, "cutoff": True}, "rQ(9,17)", 700, 123)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state[ui_keys.SIMULATOR_PARAMS_CSV] = params_csv_text(sim_inputs.default_problem())
    at.session_state[ui_keys.SIMULATOR_POLICY] = handoff.to_dict()
    at.run()
    assert not at.exception
    assert "recommended policy" in at.success[0].value and "700 evaluation paths (seed 123)" in at.success[0].value
    ticked = {kind for kind in sim_inputs.POLICY_KINDS if at.checkbox(key=f"orca_sim_use_{kind}").value}
    assert ticked == {"rQ"}
    assert (at.number_input(key="orca_sim_rQ_R").value, at.number_input(key="orca_sim_rQ_Q").value) == (9, 17)
    assert at.checkbox(key="orca_sim_cutoff").value and not at.checkbox(key="orca_sim_grid").value
    assert at.number_input(key="orca_sim_paths").value == 700 and at.session_state["orca_sim_eval_seed"] == 123
    assert ui_keys.SIMULATOR_PARAMS_CSV not in at.session_state and ui_keys.SIMULATOR_POLICY not in at.session_state


def test_results_of_earlier_parameters_are_marked_after_a_failed_run():
    at = small(fresh())
    submit(at)
    assert not at.exception and not at.warning
    good = at.text_input(key="orca_sim_demand_distribution").value
    at.text_input(key="orca_sim_demand_distribution").set_value("poison(8)")
    submit(at)
    assert not at.exception and "demand_distribution" in at.error[0].value
    assert "previous parameters" in at.warning[0].value
    at.text_input(key="orca_sim_demand_distribution").set_value(good)
    submit(at)
    assert not at.exception and not at.warning


def test_a_stored_copilot_run_can_be_loaded():
    store = Store(os.environ["ORCA_DB"])
    problem = dataclasses.replace(sim_inputs.default_problem(), setup_cost=7.5, time_horizon=45)
    run_id = store.create_run(sim_inputs.COPILOT_WORKBENCH, {}, title="shop chat")
    store.add_artifact(run_id, sim_inputs.PARAMS_ARTIFACT, data=params_csv_text(problem).encode())
    at = fresh()
    assert at.selectbox(key="orca_sim_copilot_run").value == run_id
    at.button(key="orca_sim_load_run").click().run()
    assert not at.exception
    assert at.number_input(key="orca_sim_setup_cost").value == 7.5
    assert at.number_input(key="orca_sim_time_horizon").value == 45


def test_a_run_cut_short_by_a_cancel_is_marked_interrupted_and_said():
    store = Store(os.environ["ORCA_DB"])
    run_id = store.create_run(sim.WORKBENCH, {}, 0, "long DQN", "running")
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["orca_sim_running"] = run_id  # what a run leaves behind when a click stops it mid-way
    at.run()
    assert not at.exception
    assert "cancelled before it finished" in at.warning[0].value
    assert store.get_run(run_id)["status"] == "interrupted"
    at.run()
    assert not at.warning


def test_copilot_handoff_carries_the_recommended_policy_and_its_paths():
    from solvers.inventory.montecarlo import evaluate_policies
    from solvers.inventory.policies import BaseStockPolicy

    problem = sim_inputs.default_problem()
    handoff = sim_inputs.policy_handoff(
        {"kind": "base_stock", "S": 18, "cap": 12, "cutoff": True}, "base_stock(18,cap=12)+cutoff", 300, 2_000_003
    )
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state[ui_keys.SIMULATOR_PARAMS_CSV] = params_csv_text(problem)
    at.session_state["orca_sim_handoff_policy"] = handoff.to_dict()
    at.run()
    assert not at.exception
    assert "base_stock(18,cap=12)+cutoff" in at.success[0].value and "same 300 evaluation paths" in at.success[0].value
    assert at.checkbox(key="orca_sim_use_base_stock").value and not at.checkbox(key="orca_sim_use_sS").value
    assert at.checkbox(key="orca_sim_cutoff").value and not at.checkbox(key="orca_sim_grid").value
    assert (at.number_input(key="orca_sim_base_stock_S").value, at.number_input(key="orca_sim_base_stock_cap").value) == (18, 12)
    submit(at)
    assert not at.exception
    table = at.dataframe[0].value
    [want] = evaluate_policies(problem, [BaseStockPolicy(18, 12, True)], 300, 2_000_003)
    row = table[table["policy"] == "base_stock(18,cap=12)+cutoff"].iloc[0]
    assert row["mean"] == want.mean


def test_a_bad_upload_is_an_error_naming_the_users_file():
    at = fresh()
    at.file_uploader(key="orca_sim_upload").upload("shop demand.csv", b"demand\n4\nmany\n", "text/csv").run()
    at.button(key="orca_sim_load_file").click().run()
    assert not at.exception
    assert any("shop demand.csv: row 3: 'many' is not a number" in e.value for e in at.error), [
        e.value for e in at.error
    ]
