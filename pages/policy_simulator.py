"""Policy Simulator: edit or load an inventory problem, pick policies, simulate them on common demand paths
and compare them with the (s,S) grid, the exact DP optimum and a DQN.

A thin view: each part of the page is one function below, called in page order at the end of the file.
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from core import ui_keys
from core.errors import OrcaError, SpecError
from core.inventory.policy_names import plain_name
from core.inventory.simulator import charts
from core.inventory.simulator import inputs as sim_inputs
from core.inventory.simulator import session as sim
from core.store import Store
from core.ui import (
    csv_download,
    guard,
    open_url_run,
    optional_store,
    plotly_chart,
    progress_with_eta,
    setup_page,
    show_error,
    show_run_link,
    store_read,
)
from solvers.inventory.dqn import DQNConfig
from solvers.inventory.spec import params_csv_text

P = "orca_sim_"
PAGE = "pages/policy_simulator.py"
RESULT = P + "result"
EVAL_SEED = P + "eval_seed"
SOURCE = P + "source"
STALE = P + "stale"
SAVED = P + "saved_form"
RUNNING = P + "running"
OPTIONS = {
    "use_sS": True,
    "use_base_stock": True,
    "use_constant": False,
    "use_rQ": False,
    "cutoff": False,
    "grid": True,
    "dp": True,
    "dqn": False,
    "dqn_seconds": 60,
    "dqn_steps": 3000,
    "paths": 1000,
    "grid_paths": 500,
    "trajectories": 3,
}
FORM_WIDGETS = [P + k for k in (*sim_inputs.FORM_KEYS, *OPTIONS)] + [
    f"{P}{kind}_{name}" for kind, names in sim_inputs.POLICY_KINDS.items() for name in names
]
SUMMARY_COLUMNS = {
    "rule": st.column_config.TextColumn(
        "rule (★ recommended)", help="the policy in plain words", width="medium"
    ),
    "policy": st.column_config.TextColumn("policy", help="the engine's name of the policy"),
    "mean": st.column_config.NumberColumn("mean", format="%.2f", width="small"),
    "std": st.column_config.NumberColumn("std", format="%.2f"),
    "ci95_low": st.column_config.NumberColumn("95% CI low", format="%.2f"),
    "ci95_high": st.column_config.NumberColumn("95% CI high", format="%.2f"),
    "objective": st.column_config.NumberColumn("L(π)", format="%.2f", width="small"),
    "fill_rate": st.column_config.NumberColumn("fill rate", format="percent", width="small"),
    "gap_to_dp_pct": st.column_config.NumberColumn("gap to DP", format="%.2f%%", width="small"),
}
ALL_COLUMNS = {
    "rule": st.column_config.TextColumn("rule", help="the policy in plain words"),
    "policy": st.column_config.TextColumn("policy", help="the engine's name of the policy"),
    "mean": st.column_config.NumberColumn("mean", format="%.2f"),
    "std": st.column_config.NumberColumn("std", format="%.2f"),
    "ci95_low": st.column_config.NumberColumn("95% CI low", format="%.2f"),
    "ci95_high": st.column_config.NumberColumn("95% CI high", format="%.2f"),
    "objective": st.column_config.NumberColumn("L(π)", format="%.2f"),
    "fill_rate": st.column_config.NumberColumn("fill rate", format="percent"),
    "gap_to_dp_pct": st.column_config.NumberColumn("gap to DP", format="%.2f%%"),
    "stockout_periods": st.column_config.NumberColumn("stockout periods", format="%.2f"),
    "avg_on_hand": st.column_config.NumberColumn("avg on-hand", format="%.2f"),
    "orders_placed": st.column_config.NumberColumn("orders", format="%.2f"),
    "setup_cost": st.column_config.NumberColumn("setup", format="%.2f"),
    "holding_cost": st.column_config.NumberColumn("holding", format="%.2f"),
    "penalty_cost": st.column_config.NumberColumn("penalty", format="%.2f"),
}


def load_problem(problem) -> None:
    """Put a problem and matching policy parameters into the form (before its widgets are drawn)."""
    for key, value in sim_inputs.form_values(problem).items():
        st.session_state[P + key] = float(value) if isinstance(value, float) else value
    for kind, params in sim_inputs.suggested_parameters(problem).items():
        for name, value in params.items():
            st.session_state[f"{P}{kind}_{name}"] = 0 if value is None else value


def put_choices(choices: Iterable[sim_inputs.PolicyChoice]) -> None:
    """Tick exactly the policies of `choices` and put their parameters and cutoff into the form."""
    choices = list(choices)
    ss = st.session_state
    for kind in sim_inputs.POLICY_KINDS:
        ss[f"{P}use_{kind}"] = any(choice.kind == kind for choice in choices)
    for choice in choices:
        for name, value in choice.params.items():
            ss[f"{P}{choice.kind}_{name}"] = 0 if value is None else int(value)
        ss[P + "cutoff"] = choice.cutoff


def restore_form() -> None:
    """On a first visit, or back from another page (widget state is dropped): the last submitted form, else
    the paper's instance with the default options."""
    if P + "time_horizon" in st.session_state:
        return
    if SAVED in st.session_state:
        st.session_state.update(st.session_state[SAVED])
    else:
        load_problem(sim_inputs.default_problem())
        st.session_state.update({P + k: v for k, v in OPTIONS.items()})


def take_copilot_handoff() -> None:
    """Load the problem (and, if sent, the recommended policy) that the Inventory Copilot handed over."""
    try:
        loaded = sim_inputs.problem_from_handoff(st.session_state.pop(ui_keys.SIMULATOR_PARAMS_CSV))
    except SpecError as err:
        show_error(err)
        return
    load_problem(loaded.problem)
    st.session_state[SOURCE] = loaded.source
    handoff = st.session_state.pop(ui_keys.SIMULATOR_POLICY, None)
    carried = (
        "" if handoff is None else carry_policy(sim_inputs.PolicyHandoff.from_dict(handoff), loaded.problem)
    )
    st.success(
        f"Loaded the problem from {loaded.source}{carried}. Check the parameters and run.",
        icon=":material/input:",
    )


def carry_policy(chosen: sim_inputs.PolicyHandoff, problem) -> str:
    """Set the form to reproduce the Copilot's comparison; return the words that say so."""
    put_choices([] if chosen.choice is None else [chosen.choice])
    ss = st.session_state
    ss.update({P + "grid": False, P + "dp": chosen.dp, P + "dqn": False, P + "paths": chosen.paths})
    ss[EVAL_SEED] = chosen.seed
    return (
        f", with its recommended policy ({plain_name(chosen.policy, problem)}, `{chosen.policy}`) "
        f"on the same {chosen.paths:,} evaluation paths (seed {chosen.seed}), so the numbers match"
    )


def open_stored_run(store: Store | None) -> None:
    """A run opened from Run history (its id in the URL): its problem, policies, options and seed, once."""
    wanted = open_url_run(store, P + "url_tried", "policy_simulator")
    if wanted is None:
        return
    with guard():
        stored = sim_inputs.stored_simulation(store, wanted)
        load_problem(stored.problem)
        put_choices(stored.choices)
        ss = st.session_state
        for name in ("grid", "dp", "dqn", "paths", "grid_paths", "trajectories"):
            if name in stored.options:
                ss[P + name] = stored.options[name]
        if stored.seed is not None:
            ss[EVAL_SEED] = int(stored.seed)
        ss[SOURCE] = f"stored run {wanted}"
        st.success(
            f"Opened the stored run `{wanted}`: its problem, policies and options are in the form; press **Run "
            f"simulation** to redo it (seed {stored.seed}).",
            icon=":material/history:",
        )


def mark_cut_short_run(store: Store | None) -> None:
    """The run of an earlier script pass never got to its end: a click cut it short. Record and say so."""
    if RUNNING not in st.session_state:
        return
    sim.mark_interrupted(store, st.session_state.pop(RUNNING) or None)
    st.warning(
        "The last run was cancelled before it finished (saved as interrupted). The results below, if any, are "
        "from the run before it.",
        icon=":material/stop_circle:",
    )


def problem_loaders(store: Store | None) -> None:
    """Load a problem from a CSV file or from a saved Inventory Copilot run."""
    left, right = st.columns(2)
    upload = left.file_uploader(
        "An `extracted_params.csv`, or a CSV with one column of daily demand (empirical demand)",
        type=["csv", "txt"],
        key=P + "upload",
    )
    if left.button("Load file", key=P + "load_file", disabled=upload is None):
        with guard():
            current = sim_inputs.problem_from_form({k: st.session_state[P + k] for k in sim_inputs.FORM_KEYS})
            loaded = sim_inputs.problem_from_upload(upload.getvalue(), current, name=upload.name)
            load_problem(loaded.problem)
            st.session_state[SOURCE] = loaded.source
            left.success(f"Loaded {loaded.source}.")
    with guard():
        runs = store_read(sim_inputs.copilot_runs, store) if store is not None else []
        if not runs:
            right.caption("No Inventory Copilot run with a parameter table is stored yet.")
            return
        labels = dict(runs)
        run_id = right.selectbox(
            "A saved Inventory Copilot run", list(labels), format_func=labels.get, key=P + "copilot_run"
        )
        if right.button("Load run", key=P + "load_run"):
            loaded = sim_inputs.problem_from_copilot_run(store, run_id)
            load_problem(loaded.problem)
            st.session_state[SOURCE] = loaded.source
            right.success(f"Loaded {loaded.source}.")


def risk_slider() -> None:
    """The page's one λ: it re-ranks shown results at once and steers the next grid search."""
    st.slider(
        "Risk tolerance λ: lower = prefer steadier costs, higher = accept swings for a lower average",
        -10.0,
        10.0,
        step=0.5,
        key=P + "risk_tolerance",
        help="The one λ of this page. Policies are ranked by L(π) = mean + exp(−λ)·std of the horizon cost; "
        "moving it re-ranks the results below at once, and the next run's (s,S) grid search uses it.",
    )


def problem_inputs() -> None:
    """The twelve problem parameters, in three columns."""
    st.markdown("**Problem**")
    a, b, c = st.columns(3)
    a.text_input(
        "Demand distribution",
        key=P + "demand_distribution",
        help="poisson(8), normal(30,10), uniform(10,20), a constant such as 8, or empirical(3,5,8,…)",
    )
    a.selectbox(
        "Unmet demand",
        ["lost_sale", "backlog"],
        key=P + "state_transition_model",
        format_func={"lost_sale": "is lost (lost sales)", "backlog": "is backordered (backlog)"}.get,
    )
    a.checkbox("Perishable (leftover stock is discarded each period)", key=P + "perishability")
    a.number_input("Time horizon T (periods)", min_value=1, step=1, key=P + "time_horizon")
    b.number_input("Holding cost h (per unit per period)", min_value=0.0, step=0.1, key=P + "holding_cost")
    b.number_input("Penalty cost b (per unit short)", min_value=0.0, step=0.1, key=P + "penalty_cost")
    b.number_input("Setup cost K (per order)", min_value=0.0, step=0.5, key=P + "setup_cost")
    c.number_input("Lead time L (periods)", min_value=0, step=1, key=P + "lead_time")
    c.number_input("Max inventory", min_value=1, step=1, key=P + "max_inventory")
    c.number_input("Max order", min_value=1, step=1, key=P + "max_order")
    c.number_input("Initial inventory", step=1, key=P + "initial_inventory")


def policy_and_option_inputs() -> None:
    """The heuristic policies with their parameters, then the grid, DP, DQN and path options."""
    st.markdown("**Policies to compare**")
    cols = st.columns(4)
    for col, (kind, names) in zip(cols, sim_inputs.POLICY_KINDS.items(), strict=True):
        col.checkbox(sim_inputs.POLICY_LABELS[kind], key=f"{P}use_{kind}")
        for name in names:
            label = "cap (0 = none)" if name == "cap" else name
            col.number_input(label, min_value=0, step=1, key=f"{P}{kind}_{name}")
    a, b, c = st.columns(3)
    a.checkbox("End-of-horizon cutoff (no orders that cannot arrive in time)", key=P + "cutoff")
    a.checkbox("Search the full (s,S) grid", key=P + "grid")
    a.checkbox("Exact DP optimum (when the state space is small enough)", key=P + "dp")
    b.checkbox("Train a DQN", key=P + "dqn")
    b.number_input("DQN training budget (seconds)", min_value=1, step=10, key=P + "dqn_seconds")
    b.number_input("DQN training steps", min_value=10, step=500, key=P + "dqn_steps")
    c.number_input("Simulation paths", min_value=2, step=100, key=P + "paths")
    c.number_input("Grid search paths", min_value=2, step=100, key=P + "grid_paths")
    c.number_input("Sample paths to plot", min_value=0, max_value=20, step=1, key=P + "trajectories")


def simulation_form() -> bool:
    """The problem, the policies and the options; True when submitted."""
    with st.form(P + "form", enter_to_submit=False):
        problem_inputs()
        policy_and_option_inputs()
        return st.form_submit_button("Run simulation", type="primary", icon=":material/play_arrow:")


def form_choices() -> list[sim_inputs.PolicyChoice]:
    """The ticked policies with their parameters (a cap of 0 means none)."""
    ss = st.session_state
    return [
        sim_inputs.PolicyChoice(
            kind,
            {n: (ss[f"{P}{kind}_{n}"] or None) if n == "cap" else ss[f"{P}{kind}_{n}"] for n in names},
            ss[P + "cutoff"],
        )
        for kind, names in sim_inputs.POLICY_KINDS.items()
        if ss[f"{P}use_{kind}"]
    ]


def form_options() -> sim.SimulationOptions:
    """The grid, DP, DQN and path options of the form."""
    ss = st.session_state
    return sim.SimulationOptions(
        paths=int(ss[P + "paths"]),
        trajectories=int(min(ss[P + "trajectories"], ss[P + "paths"])),
        grid=ss[P + "grid"],
        grid_paths=int(ss[P + "grid_paths"]),
        grid_cutoff=ss[P + "cutoff"],
        dp=ss[P + "dp"],
        dqn=ss[P + "dqn"],
        dqn_config=DQNConfig(steps=int(ss[P + "dqn_steps"]), seconds=float(ss[P + "dqn_seconds"])),
    )


def run_form(seed: int, store: Store | None) -> None:
    """Simulate the submitted form with a progress bar (and a cancel button while a DQN trains)."""
    ss = st.session_state
    ss[SAVED] = {k: ss[k] for k in FORM_WIDGETS}
    ss[STALE] = RESULT in ss  # until this run succeeds, shown results are for earlier parameters
    with guard():
        problem = sim_inputs.problem_from_form({k: ss[P + k] for k in sim_inputs.FORM_KEYS})
        choices, options = form_choices(), form_options()
        bar = st.empty()
        progress = progress_with_eta("Starting…", where=bar)
        cancel = st.empty()
        if options.dqn:
            # any click reruns the page, which stops this run at its next progress update
            cancel.button("Cancel the run", key=P + "cancel", icon=":material/stop_circle:")
        try:
            result = sim.run_simulation(
                problem,
                choices,
                options,
                ss.get(EVAL_SEED, seed),
                progress=progress,
                store=store,
                on_start=lambda run_id: ss.__setitem__(RUNNING, run_id or ""),
            )
        except OrcaError:  # a failed run is recorded as failed and shown; only a cut-short run stays marked
            ss.pop(RUNNING, None)
            raise
        bar.empty()
        cancel.empty()
        ss.pop(RUNNING, None)
        ss[RESULT], ss[STALE] = result, False


def explain_and_stop() -> None:
    """No result yet: say what the form holds and what a run shows, and end the page here."""
    loaded_from = st.session_state.get(SOURCE)
    st.info(
        (
            f"The form holds the problem from {loaded_from}; check it, choose the policies and press "
            if loaded_from
            else "Set the problem (the defaults are the paper's instance: Poisson(8) demand, h = 0.5, b = 2.83, "
            "K = 3, lost sales, L = 1, max inventory 40, max order 20, T = 30), choose the policies and press "
        )
        + "**Run simulation**. You will get sample-path trajectories, cost distributions, the (s,S) heatmap, "
        "a risk-versus-cost view and a comparison table with the gap to the DP optimum.",
        icon=":material/science:",
    )
    st.stop()


def result_summary(result: sim.SimulationResult, lam: float) -> None:
    """The run's size and seed, the recommendation for λ, and the DQN and DP notes."""
    st.divider()
    st.subheader("Results")
    if st.session_state.get(STALE):
        st.warning(
            "These results are for the previous parameters: the last run did not start (see the error above). "
            "Fix the parameters and run again.",
            icon=":material/history:",
        )
    st.caption(
        f"{result.paths:,} common demand paths · seed {result.seed} · {result.seconds:.1f} s"
        + (f" · saved as run `{result.run_id}`" if result.run_id else "")
    )
    show_run_link(PAGE, result.run_id, P + "url_tried")
    best = result.recommended(lam)
    st.success(
        f"Recommended for λ = {lam:g} (set above the form): **{plain_name(best.policy, result.problem)}** "
        f"(`{best.policy}`), mean cost {best.mean:.2f} ± {best.se * 1.96:.2f}, "
        f"std {best.std:.2f}, fill rate {best.fill_rate:.1%}.",
        icon=":material/recommend:",
    )
    if result.dqn_warning:
        st.error(result.dqn_warning, icon=":material/report:")
    if result.dp_cost is not None:
        st.caption(f"Exact DP optimum from the start state: **{result.dp_cost:.4f}** (expected total cost).")
    if result.dp_refusal:
        st.info(result.dp_refusal, icon=":material/info:")


def comparison_tables(result: sim.SimulationResult, lam: float) -> None:
    """The key columns (they fit a laptop), then every column in an expander."""
    table = result.table(lam)
    table.insert(
        0,
        "rule",
        [
            ("★ " if r else "") + plain_name(p, result.problem)
            for p, r in zip(table["policy"], table["recommended"], strict=True)
        ],
    )
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_order=["rule", "mean", "objective", "fill_rate", "gap_to_dp_pct"],
        column_config=SUMMARY_COLUMNS,
        key=P + "table",
    )
    with st.expander(
        "All columns: confidence intervals, cost breakdown, engine names", icon=":material/table:"
    ):
        st.dataframe(table, hide_index=True, width="stretch", column_config=ALL_COLUMNS, key=P + "table_all")


def trajectories_view(result: sim.SimulationResult) -> None:
    """One sample path of every policy, picked by number."""
    trajectories = result.trajectories
    if not trajectories:
        st.caption("No sample paths were recorded (set 'Sample paths to plot' above 0).")
        return
    count = next(iter(trajectories.values())).on_hand.shape[0]
    path = st.selectbox("Sample path", range(count), format_func=lambda i: f"path {i + 1}", key=P + "path")
    plotly_chart(
        charts.trajectory_figure(trajectories, path, result.problem.lost_sales), key=P + "traj_chart"
    )


def chart_tabs(result: sim.SimulationResult, lam: float) -> None:
    """Trajectories, cost distributions, risk versus cost, and (when computed) the heatmap and DQN curve."""
    tabs = ["Trajectories", "Cost distributions", "Risk vs cost"]
    tabs += ["(s,S) heatmap"] if result.grid is not None else []
    tabs += ["DQN learning curve"] if result.dqn_curve else []
    views = dict(zip(tabs, st.tabs(tabs), strict=True))
    with views["Trajectories"]:
        trajectories_view(result)
    with views["Cost distributions"]:
        kind = st.radio("Show as", ["violin", "histogram"], horizontal=True, key=P + "dist_kind")
        plotly_chart(
            charts.cost_distribution_figure(result.costs, kind, result.dp_cost), key=P + "dist_chart"
        )
    with views["Risk vs cost"]:
        plotly_chart(charts.risk_scatter_figure(result.candidates(), lam), key=P + "risk_chart")
        st.caption(
            "Grey: every (s,S) pair of the grid (in-sample). Coloured: the compared policies on common paths. "
            "The dashed line joins the points with the same L(π) as the choice; a lower λ tilts it and favours "
            "steadier policies."
        )
    if result.grid is not None:
        with views["(s,S) heatmap"]:
            plotly_chart(
                charts.grid_heatmap_figure(result.grid.mean, result.best_ss), key=P + "grid_chart"
            )
            st.caption(
                f"{len(result.grid.rules):,} pairs on {result.grid.paths:,} common paths; the top candidates were "
                "re-evaluated on fresh paths because the in-sample winner is biased low."
            )
    if result.dqn_curve:
        with views["DQN learning curve"]:
            refs = {"DP optimum": result.dp_cost} if result.dp_cost is not None else {}
            plotly_chart(charts.learning_curve_figure(result.dqn_curve, refs), key=P + "dqn_chart")


def downloads(result: sim.SimulationResult, lam: float) -> None:
    """The comparison table, the parameters and (with an (s,S) policy) the deployment artifacts."""
    st.markdown("**Downloads**")
    a, b, c = st.columns(3)
    csv_download("Comparison table (CSV)", result.results_csv(lam), "policy_comparison.csv", where=a,
                 key=P + "dl_csv", icon=":material/table:")  # fmt: skip
    csv_download("Parameters (extracted_params.csv)", params_csv_text(result.problem), "extracted_params.csv",
                 where=b, key=P + "dl_params", icon=":material/tune:")  # fmt: skip
    if result.artifacts_zip is None:
        c.caption("Deployment artifacts need an (s,S) policy: tick (s,S) or the grid search.")
        return
    c.download_button(
        "deployment_artifacts.zip",
        result.artifacts_zip,
        file_name="deployment_artifacts.zip",
        mime="application/zip",
        icon=":material/folder_zip:",
        key=P + "dl_zip",
    )


settings = setup_page(
    "Policy Simulator",
    "Simulate inventory policies on the same random demand paths and compare their cost, risk and service: "
    "(s,S), base-stock, constant order and (R,Q), the best (s,S) of a full grid search, the exact dynamic "
    "programming optimum and a deep Q-network. Every run is saved in the run store.",
)
store = optional_store()
restore_form()
if st.session_state.get(ui_keys.SIMULATOR_PARAMS_CSV):
    take_copilot_handoff()
open_stored_run(store)
mark_cut_short_run(store)
with st.expander("Model conventions", icon=":material/rule:"):
    st.markdown(sim.MODEL_CONVENTIONS)
with st.expander("Load a problem", icon=":material/upload_file:"):
    problem_loaders(store)
risk_slider()
if simulation_form():
    run_form(settings.seed, store)
result = st.session_state.get(RESULT)
if result is None:
    explain_and_stop()
lam = float(st.session_state[P + "risk_tolerance"])
result_summary(result, lam)
comparison_tables(result, lam)
chart_tabs(result, lam)
downloads(result, lam)
