"""The Policy Simulator facade: problems from forms, uploads and copilot runs; runs, store records, downloads."""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import threading
import zipfile

import numpy as np
import pandas as pd
import pytest

from core.errors import SpecError
from core.inventory.simulator import inputs as sim_inputs
from core.inventory.simulator import session as sim
from core.store import Store
from solvers.inventory.dqn import DQNConfig
from solvers.inventory.spec import params_csv_text, read_params_csv

TINY = sim.SimulationOptions(paths=200, trajectories=2, grid_paths=100)


@pytest.fixture(scope="module")
def paper():
    return sim_inputs.default_problem()


@pytest.fixture(scope="module")
def run(tmp_path_factory, paper):
    """One stored run on the paper instance with (s,S), base-stock, the grid and DP, progress recorded."""
    store = Store(tmp_path_factory.mktemp("sim") / "runs.duckdb")
    calls: list[tuple[float, str, int]] = []
    result = sim.run_simulation(
        paper,
        sim_inputs.default_choices(paper),
        TINY,
        seed=5,
        progress=lambda f, msg: calls.append((f, msg, threading.get_ident())),
        store=store,
        title="paper instance",
    )
    return result, store, calls


def test_form_values_round_trip_through_problem_and_csv(paper):
    variants = [
        paper,
        dataclasses.replace(paper, lost_sales=False, perishable=True, initial_inventory=5),
        sim_inputs.problem_from_form(
            {**sim_inputs.PAPER_INSTANCE, "demand_distribution": "Normal(30, 10)", "max_inventory": 120}
        ),
        sim_inputs.problem_from_form({**sim_inputs.PAPER_INSTANCE, "demand_distribution": "8"}),
    ]
    for problem in variants:
        assert sim_inputs.problem_from_form(sim_inputs.form_values(problem)) == problem
        assert read_params_csv(params_csv_text(problem)) == problem
    assert variants[3].demand.kind == "deterministic"
    assert paper.demand.canonical() == "poisson(8)" and paper.lead_time == 1 and paper.max_order == 20


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"max_order": 0}, "max_order"),
        ({"demand_distribution": "poison(8)"}, "demand_distribution"),
        ({"holding_cost": -1}, "holding_cost"),
        ({"lead_time": 1.5}, "lead_time"),
        ({"risk_tolerance": 11}, "risk_tolerance"),
    ],
)
def test_bad_form_values_name_the_field(change, field):
    with pytest.raises(SpecError) as err:
        sim_inputs.problem_from_form({**sim_inputs.PAPER_INSTANCE, **change})
    assert err.value.field == field
    assert str(err.value).startswith(field)


def test_upload_of_a_parameter_table(paper):
    other = dataclasses.replace(paper, lead_time=2, lost_sales=False)
    loaded = sim_inputs.problem_from_upload(params_csv_text(other).encode(), paper)
    assert loaded.problem == other
    assert "parameter table" in loaded.source


def test_upload_of_a_demand_history_keeps_the_other_parameters(paper):
    history = [3, 9, 8, 12, 0, 7]
    loaded = sim_inputs.problem_from_upload(
        ("demand\n" + "\n".join(map(str, history)) + "\n").encode(), paper
    )
    assert loaded.problem.demand.kind == "empirical"
    assert list(loaded.problem.demand.history) == history
    assert dataclasses.replace(loaded.problem, demand=paper.demand) == paper
    assert f"{len(history)} days" in loaded.source
    no_header = sim_inputs.problem_from_upload("4\n6\n", paper).problem
    assert list(no_header.demand.history) == [4, 6]
    named = sim_inputs.read_demand_history("date,units_sold\n2024-01-01,5\n2024-01-02,7\n")
    assert named == [5.0, 7.0]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("demand\n4\nmany\n", "row 3"),
        ("", "empty"),
        ("a,b\n1,2\n", "several columns"),
        ("demand\n", "no daily demands"),
        ("demand\n4\n-3\n", "row 3: a daily demand cannot be negative"),
        ("demand\n4\nnan\n", "row 3"),
        ("demand\n4\ninf\n", "row 3"),
        ("date,demand\n2024-01-01,5\n2024-01-02,\n", "row 3"),
        ("PK\x03\x04\x14\x00\x06\x00", "no daily demands"),  # a spreadsheet's zip bytes
    ],
)
def test_bad_demand_history_is_explained(text, fragment, paper):
    with pytest.raises(SpecError) as err:
        sim_inputs.problem_from_upload(text.encode(), paper)
    assert err.value.field == "demand_history"
    assert fragment in str(err.value)


def test_copilot_runs_are_listed_and_loaded(tmp_path, paper):
    store = Store(tmp_path / "runs.duckdb")
    other = dataclasses.replace(paper, max_inventory=60, max_order=30)
    with_table = store.create_run(sim_inputs.COPILOT_WORKBENCH, {}, title="bakery chat")
    store.add_artifact(with_table, sim_inputs.PARAMS_ARTIFACT, data=params_csv_text(other).encode())
    store.create_run(sim_inputs.COPILOT_WORKBENCH, {}, title="unfinished chat")
    store.create_run(sim.WORKBENCH, {}, title="a simulation")
    runs = sim_inputs.copilot_runs(store)
    assert [rid for rid, _ in runs] == [with_table]
    assert "bakery chat" in runs[0][1]
    loaded = sim_inputs.problem_from_copilot_run(store, with_table)
    assert loaded.problem == other
    assert with_table in loaded.source


def test_suggested_parameters_are_feasible_policies():
    for lead_time, cap in ((0, 40), (1, 40), (4, 60)):
        problem = sim_inputs.problem_from_form(
            {**sim_inputs.PAPER_INSTANCE, "lead_time": lead_time, "max_inventory": cap}
        )
        params = sim_inputs.suggested_parameters(problem)
        assert 0 <= params["sS"]["s"] <= params["sS"]["S"] <= cap
        assert params["sS"]["S"] >= problem.demand.mean * (lead_time + 1)
        assert 1 <= params["rQ"]["Q"] <= problem.max_order
        for kind, values in params.items():
            assert sim_inputs.PolicyChoice(kind, values).build().name


@pytest.mark.parametrize(
    ("choice", "field"),
    [
        (sim_inputs.PolicyChoice("sS", {"s": 30, "S": 20}), "s"),
        (sim_inputs.PolicyChoice("rQ", {"R": 5, "Q": 0}), "Q"),
        (sim_inputs.PolicyChoice("constant", {"q": 2.5}), "q"),
        (sim_inputs.PolicyChoice("base_stock", {"cap": 4}), "S"),
        (sim_inputs.PolicyChoice("magic", {}), "policy"),
    ],
)
def test_bad_policy_choices_name_the_parameter(choice, field):
    with pytest.raises(SpecError) as err:
        choice.build()
    assert err.value.field == field


@pytest.mark.parametrize(
    ("change", "options", "field"),
    [
        ({"time_horizon": 10**8}, sim.SimulationOptions(grid=False, dp=False), "time_horizon"),
        ({}, sim.SimulationOptions(paths=2 * 10**6, grid=False, dp=False), "paths"),
        ({"max_inventory": 10**5}, sim.SimulationOptions(dp=False), "max_inventory"),
        (
            {"max_inventory": 50_000, "max_order": 20_000},
            sim.SimulationOptions(grid=False, dp=False, dqn=True),
            "max_order",
        ),
    ],
)
def test_absurd_sizes_are_refused_up_front_naming_the_field(tmp_path, paper, change, options, field):
    store = Store(tmp_path / "runs.duckdb")
    problem = dataclasses.replace(paper, **change)
    with pytest.raises(SpecError) as err:
        sim.run_simulation(problem, sim_inputs.default_choices(problem), options, store=store)
    assert err.value.field == field
    assert store.list_runs(sim.WORKBENCH).empty  # refused before anything ran


def test_options_are_validated():
    with pytest.raises(SpecError) as err:
        sim.SimulationOptions(paths=1)
    assert err.value.field == "paths"
    with pytest.raises(SpecError) as err:
        sim.SimulationOptions(paths=10, trajectories=11)
    assert err.value.field == "trajectories"


def test_run_compares_chosen_grid_and_dp_on_common_paths(run, paper):
    result, _, _ = run
    names = [e.policy for e in result.evaluations]
    assert names[:2] == ["sS(15,20)", "base_stock(20)"]
    assert result.sources[-1] == "DP optimal" and names[-1] == "dp"
    assert "(s,S) grid best" in ",".join(result.sources)
    assert result.dp_cost == pytest.approx(190.7357, abs=1e-3)
    assert all(len(e.costs) == TINY.paths for e in result.evaluations)
    demands = [t.demand for t in result.trajectories.values()]
    assert len(demands) == len(names) and all(np.array_equal(demands[0], d) for d in demands)
    assert demands[0].shape == (TINY.trajectories, paper.time_horizon)
    assert result.best_ss == (result.grid.best_policy.s, result.grid.best_policy.S)


def test_table_has_gap_ci_and_the_recommendation(run):
    result, _, _ = run
    for lam in (0.0, -10.0, 10.0):
        table = result.table(lam)
        objective = table["mean"] + math.exp(-lam) * table["std"]
        assert np.allclose(table["objective"], objective)
        assert table["objective"].is_monotonic_increasing
        assert table.loc[table["recommended"], "policy"].tolist() == [result.recommended(lam).policy]
        assert table.loc[0, "policy"] == result.recommended(lam).policy
    table = result.table()
    gap = 100 * (table["mean"] - result.dp_cost) / result.dp_cost
    assert np.allclose(table["gap_to_dp_pct"], gap)
    assert (table["ci95_low"] < table["mean"]).all() and (table["mean"] < table["ci95_high"]).all()
    assert table["fill_rate"].between(0, 1).all()
    back = pd.read_csv(io.StringIO(result.results_csv()))
    assert back["policy"].tolist() == table["policy"].tolist()
    assert np.allclose(back["mean"], table["mean"], rtol=1e-5)


def test_candidates_cover_the_grid_and_the_compared_policies(run, paper):
    result, _, _ = run
    cand = result.candidates()
    pairs = (paper.max_inventory + 1) * (paper.max_inventory + 2) // 2
    assert (cand["group"] == "(s,S) grid").sum() == pairs
    compared = cand[cand["group"] == "compared"]
    assert compared["policy"].tolist() == [e.policy for e in result.evaluations]
    assert np.isfinite(cand[["mean", "std"]].to_numpy()).all()


def test_run_is_saved_with_steps_metrics_and_downloads(run):
    result, store, _ = run
    record = store.get_run(result.run_id)
    assert record["workbench"] == sim.WORKBENCH and record["status"] == "done" and record["seed"] == 5
    assert record["title"] == "paper instance"
    assert record["config"]["options"]["paths"] == TINY.paths
    assert record["config"]["policies"][0] == {"kind": "sS", "params": {"s": 15, "S": 20}, "cutoff": False}
    assert record["metrics"]["recommended"] == result.recommended().policy
    assert record["metrics"]["dp_optimal_cost"] == pytest.approx(result.dp_cost)
    assert store.steps(result.run_id)["kind"].tolist() == ["grid", "dp", "evaluate"]
    names = set(store.artifacts(result.run_id)["name"])
    assert names == {sim.RESULTS_ARTIFACT, sim_inputs.PARAMS_ARTIFACT, sim.ZIP_ARTIFACT}
    assert store.get_artifact(result.run_id, sim.RESULTS_ARTIFACT).decode() == result.results_csv()
    assert read_params_csv(store.get_artifact(result.run_id, sim_inputs.PARAMS_ARTIFACT)) == result.problem
    assert store.get_artifact(result.run_id, sim.ZIP_ARTIFACT) == result.artifacts_zip


def test_artifacts_zip_holds_the_deployment_files(run):
    result, _, _ = run
    with zipfile.ZipFile(io.BytesIO(result.artifacts_zip)) as zf:
        assert sorted(zf.namelist()) == [
            "deployment_artifacts/config.json",
            "deployment_artifacts/policy_evaluation_results.csv",
        ]
        rows = list(
            csv.DictReader(
                io.StringIO(zf.read("deployment_artifacts/policy_evaluation_results.csv").decode())
            )
        )
    by_key = {r["policy"]: r for r in rows}
    assert (int(by_key["sS"]["s"]), int(by_key["sS"]["S"])) == result.best_ss
    assert "dp" in by_key
    assert [r["policy"] for r in rows if r["recommended"] == "true"] == [
        min(by_key, key=lambda k: float(by_key[k]["objective"]))
    ]


def test_progress_is_monotone_on_the_callers_thread_and_ends_at_one(run):
    _, _, calls = run
    fractions = [f for f, _, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert {tid for _, _, tid in calls} == {threading.get_ident()}
    assert any("best sS" in msg for _, msg, _ in calls)


def test_dp_refusal_is_reported_and_no_ss_means_no_zip(tmp_path):
    big = sim_inputs.problem_from_form(
        {**sim_inputs.PAPER_INSTANCE, "lead_time": 4, "max_inventory": 100, "max_order": 50}
    )
    store = Store(tmp_path / "runs.duckdb")
    options = sim.SimulationOptions(paths=50, trajectories=1, grid=False)
    result = sim.run_simulation(
        big, [sim_inputs.PolicyChoice("constant", {"q": 8})], options, seed=1, store=store
    )
    assert result.dp_cost is None and "too large" in result.dp_refusal
    assert [e.policy for e in result.evaluations] == ["constant(8)"]
    assert result.table()["gap_to_dp_pct"].isna().all()
    assert result.artifacts_zip is None and result.best_ss is None
    assert sim.ZIP_ARTIFACT not in set(store.artifacts(result.run_id)["name"])
    assert store.steps(result.run_id)["payload"][0]["refused"] == result.dp_refusal


def test_nothing_to_run_is_refused(paper):
    options = sim.SimulationOptions(paths=10, trajectories=0, grid=False, dp=False)
    with pytest.raises(SpecError) as err:
        sim.run_simulation(paper, [], options)
    assert err.value.field == "policies"


def test_a_failing_stage_marks_the_run_failed(tmp_path, paper, monkeypatch):
    def broken(problem):
        raise RuntimeError("solver crashed")

    monkeypatch.setattr(sim, "solve_dp", broken)
    store = Store(tmp_path / "runs.duckdb")
    options = sim.SimulationOptions(paths=10, trajectories=0, grid=False)
    with pytest.raises(RuntimeError, match="solver crashed"):
        sim.run_simulation(paper, sim_inputs.default_choices(paper), options, store=store)
    runs = store.list_runs(sim.WORKBENCH)
    assert runs["status"].tolist() == ["failed"]
    assert runs["metrics"][0] == {"error": "solver crashed"}


def test_same_seed_same_numbers(paper):
    options = sim.SimulationOptions(paths=100, trajectories=1, grid=False, dp=False)
    choices = sim_inputs.default_choices(paper)
    first, again = (sim.run_simulation(paper, choices, options, seed=9) for _ in range(2))
    other = sim.run_simulation(paper, choices, options, seed=10)
    assert first.table().equals(again.table())
    assert not np.array_equal(first.evaluations[0].costs, other.evaluations[0].costs)


def test_tiny_dqn_adds_a_policy_a_curve_and_weights(paper):
    config = DQNConfig(
        steps=6, envs=8, hidden=8, batch=16, buffer=256, eval_every=3, eval_paths=20, seconds=30
    )
    options = sim.SimulationOptions(
        paths=50, trajectories=1, grid=False, dp=False, dqn=True, dqn_config=config
    )
    result = sim.run_simulation(paper, [sim_inputs.PolicyChoice("sS", {"s": 15, "S": 20})], options, seed=2)
    assert result.sources[-1] == "DQN" and result.evaluations[-1].policy == "dqn"
    assert [row["step"] for row in result.dqn_curve] == [3, 6]
    with zipfile.ZipFile(io.BytesIO(result.artifacts_zip)) as zf:
        assert "deployment_artifacts/dqn_weights.pth" in zf.namelist()


def test_non_utf8_upload_is_a_spec_error(paper):
    data = params_csv_text(paper).replace("USD", "\u00a3").encode("latin-1")
    with pytest.raises(SpecError) as err:
        sim_inputs.problem_from_upload(data, paper)
    assert "UTF-8" in str(err.value)
    unquoted = (
        params_csv_text(paper).replace('"poisson(8)"', "poisson(8)").replace("poisson(8)", "normal(30,10)")
    )
    assert (
        sim_inputs.problem_from_upload(unquoted.encode(), paper).problem.demand.canonical() == "normal(30,10)"
    )


def test_conventions_count_periods_from_zero():
    text = " ".join(sim.MODEL_CONVENTIONS.split())
    assert "t = 0..T−1" in text and "0 = the first period" in text and "--step" in text


def test_an_undertrained_dqn_worse_than_a_trivial_rule_is_flagged_and_never_recommended(paper, tmp_path):
    """6 steps of a tiny network: far from its budget and worse than ordering the mean every day."""
    config = DQNConfig(steps=6, envs=8, hidden=8, batch=16, buffer=256, eval_every=3, eval_paths=20, seconds=30)
    options = sim.SimulationOptions(paths=50, trajectories=0, grid=False, dp=False, dqn=True, dqn_config=config)
    result = sim.run_simulation(paper, [], options, seed=2)  # the DQN alone
    assert result.dqn_warning is not None and result.dqn_warning.startswith("Do not use this DQN")
    assert "trivial rule" in result.dqn_warning or "fill rate 0%" in result.dqn_warning
    assert result.not_recommended == ("dqn",)
    assert result.recommended().policy == "dqn"  # nothing else to choose from: shown, with the warning


def test_a_cancelled_dqn_says_so_and_loses_to_the_chosen_rule(paper, tmp_path):
    store = Store(tmp_path / "runs.duckdb")
    config = DQNConfig(steps=5000, envs=8, hidden=8, batch=16, buffer=256, eval_every=50, eval_paths=20, seconds=60)
    options = sim.SimulationOptions(paths=50, trajectories=0, grid=False, dp=False, dqn=True, dqn_config=config)
    calls = iter(range(1_000_000))
    seen: list[tuple[float, str]] = []
    started: list[str | None] = []
    result = sim.run_simulation(
        paper,
        [sim_inputs.PolicyChoice("sS", {"s": 15, "S": 20})],
        options,
        seed=2,
        store=store,
        should_stop=lambda: next(calls) >= 20,
        progress=lambda f, m: seen.append((f, m)),
        on_start=started.append,
    )
    assert "training was cancelled after 20 of 5,000 steps" in result.dqn_warning
    assert result.recommended().policy == "sS(15,20)"
    assert started == [result.run_id]
    steps = store.steps(result.run_id)
    dqn = steps[steps["kind"] == "dqn"]["payload"].iloc[0]
    assert dqn["stopped_by"] == "cancelled" and dqn["steps"] == 20


def test_dqn_progress_text_states_the_bars_fraction(paper, monkeypatch):
    import re

    import solvers.inventory.dqn as dqn_module
    from solvers.inventory.dqn import train_dqn

    monkeypatch.setattr(dqn_module, "REPORT_EVERY_S", 0.0)
    config = DQNConfig(steps=30, envs=8, hidden=8, batch=16, buffer=256, eval_every=10, eval_paths=20, seconds=60)
    seen: list[tuple[float, str]] = []
    train_dqn(paper, config, 0, progress=lambda f, m: seen.append((f, m)))
    for fraction, text in seen:
        shown = int(re.search(r"(\d+)% of its budget", text).group(1))
        assert shown == round(100 * fraction), (fraction, text)


def test_an_interrupted_run_is_marked_interrupted(paper, tmp_path):
    store = Store(tmp_path / "runs.duckdb")
    run_id = store.create_run("policy_simulator", {}, 0, "cut short", "running")
    sim.mark_interrupted(store, run_id)
    assert store.get_run(run_id)["status"] == "interrupted"
