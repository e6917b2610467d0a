"""Experiments: start a spec on the local engine, watch its progress, browse and download the results of any
experiment in the store."""

import streamlit as st

from core.errors import OrcaError
from core.experiments import background
from core.experiments.charts import mean_ci_figure
from core.experiments.report import PRICE_NOTE, archive, build_report, markdown_table, to_markdown
from core.llm.prices import format_cost
from core.store import Store
from core.ui import (
    experiment_panel,
    get_store,
    guard,
    number_table,
    open_url_run,
    plotly_chart,
    setup_page,
    show_error,
    show_run_link,
)

P = "orca_exp_"
SPEC_TEXT = P + "spec_text"
SELECTED = P + "selected"
UPLOAD_ERROR = P + "upload_error"
CLI = "python -m core.cli experiment run data/experiments/inventory_policies.toml"
PAGE, URL_TRIED = "pages/experiments.py", P + "url_tried"

settings = setup_page(
    "Experiments",
    "Run agents × instances × seeds as a batch on this machine, then compare them with confidence intervals "
    "and paired tests. Runs keep going when you leave the page; every browser session sees the same progress.",
)


def use_shipped() -> None:
    name = st.session_state.get(P + "shipped")
    if name:
        st.session_state[SPEC_TEXT] = background.shipped_specs()[name].read_text(encoding="utf-8")


def use_upload() -> None:
    """Load an uploaded spec into the editor once it passes the checks every spec passes (nothing imported)."""
    upload = st.session_state.get(P + "upload")
    st.session_state.pop(UPLOAD_ERROR, None)
    if upload is None:
        return
    try:
        st.session_state[SPEC_TEXT] = background.read_upload(upload.getvalue(), upload.name)
    except OrcaError as err:
        st.session_state[UPLOAD_ERROR] = str(err)


def experiment_kind(store: Store, experiment_id: str) -> str:
    """What a link's id names, for `open_url_run`: "experiment" (a `StoreError` when the store has none)."""
    store.get_experiment(experiment_id)
    return "experiment"


shipped = background.shipped_specs()
if SPEC_TEXT not in st.session_state:
    st.session_state[SPEC_TEXT] = next(iter(shipped.values())).read_text(encoding="utf-8") if shipped else ""

try:
    store = get_store()
    experiments = store.list_experiments()
except OrcaError as err:
    show_error(err)
    st.stop()

with st.expander("Start an experiment", expanded=experiments.empty, icon=":material/play_arrow:"):
    left, right = st.columns(2)
    left.selectbox(
        "Shipped spec", list(shipped), key=P + "shipped", on_change=use_shipped, index=None,
        placeholder="Choose an example spec",
    )  # fmt: skip
    right.file_uploader("…or upload a spec (TOML)", type=["toml"], key=P + "upload", on_change=use_upload)
    if st.session_state.get(UPLOAD_ERROR):
        st.error(
            f"The uploaded spec was not loaded: {st.session_state[UPLOAD_ERROR]}", icon=":material/error:"
        )
    st.text_area("Spec (TOML) — edit before starting if you like", key=SPEC_TEXT, height=260)
    workers = st.number_input("Worker processes", min_value=1, max_value=8, value=2, key=P + "workers")
    if st.button("Start experiment", type="primary", icon=":material/rocket_launch:", key=P + "start"):
        with guard():
            run = background.start(st.session_state[SPEC_TEXT], settings.store_path, workers=int(workers))
            st.session_state[SELECTED] = run.experiment_id
            st.toast(f"Experiment {run.spec.name} started ({run.experiment_id}).")

with guard():
    experiments = store.list_experiments()
    if experiments.empty:
        st.info(
            "No experiments yet. Pick a shipped spec above and press **Start experiment**, or run one from a "
            f"terminal: `{CLI}`. Results appear here as cells finish.",
            icon=":material/science:",
        )
        st.stop()
    ids = experiments["id"].tolist()
    linked = open_url_run(
        store, URL_TRIED, "experiment", st.session_state.get(SELECTED), lookup=experiment_kind, noun="experiment"
    )
    if linked in ids:  # a shared link: that experiment, selected
        st.session_state[SELECTED] = linked
    if st.session_state.get(SELECTED) not in ids:
        st.session_state[SELECTED] = ids[0]
    names = dict(zip(experiments["id"], experiments["name"], strict=True))
    exp_id = st.selectbox(
        "Experiment", ids, key=SELECTED, format_func=lambda i: f"{names[i]} · {i}",
    )  # fmt: skip
    show_run_link(PAGE, exp_id, URL_TRIED)
    with st.expander(f"All experiments ({len(experiments)})"):
        number_table(experiments, width="stretch")


def live() -> bool:
    """Refresh while this server runs the experiment or the store says it runs (e.g. from the CLI)."""
    return background.is_live(exp_id, store.get_experiment(exp_id)["status"])


@st.fragment(run_every=1.5 if live() else None)
def progress_panel() -> None:
    """Progress from the store's cells table (so every session sees the same); reruns the page when done."""
    with experiment_panel(
        store,
        exp_id,
        "cells",
        P + "was_running",
        "This experiment's driver stopped reporting (its process was killed, or the machine restarted). "
        "The cells finished so far are stored; resuming runs only the rest.",
    ) as state:
        if state.running and (state.run is None or not state.run.alive):
            st.caption("Running outside this app (e.g. from the CLI); this view refreshes by itself.")
        elif state.running:
            st.caption(f"Running on {state.run.workers} local worker process(es); this view refreshes by itself.")
            if st.button("Stop (rerun the spec later to finish it)", key=P + "stop", icon=":material/stop:"):
                background.stop(exp_id)
        elif state.stalled and st.button("Resume", key=P + "resume", icon=":material/play_arrow:"):
            with guard():
                background.resume(exp_id, settings.store_path, workers=int(st.session_state[P + "workers"]))
                st.rerun()


with guard():
    progress_panel()
    report = build_report(store, exp_id)
    spec = report.spec
    if report.per_agent.empty:
        st.info(
            "No finished cells yet: results appear here as cells complete.", icon=":material/hourglass_top:"
        )
        st.stop()
    better = "lower" if spec.goal == "min" else "higher"
    st.subheader(f"Per agent · {spec.metric} ({better} is better)")
    if any(a.kind == "offline" for a in spec.agents):
        st.caption("Agents marked *offline (built-in)* are deterministic built-in policies, not LLMs.")
    number_table(report.per_agent, width="stretch", key=P + "per_agent")
    plotly_chart(mean_ci_figure(report.per_agent, metric=spec.metric, goal=spec.goal), key=P + "chart")
    if spec.paired and not report.paired.empty:
        st.subheader(f"Paired against {spec.baseline_agent}")
        st.caption(
            "Pairs share instance, seed and repetition. mean_diff = agent − baseline; win_rate counts ties as "
            "half; p-values from the Wilcoxon signed-rank and paired t tests (empty when undefined)."
        )
        number_table(report.paired, width="stretch", key=P + "paired")
    with st.expander("Per instance and agent"):
        number_table(report.per_group, width="stretch")
    total = report.total_tokens
    if total.input_tokens or total.output_tokens:  # tokens and $ of every role, when the runs used a model
        st.subheader("Tokens and cost")
        st.caption(
            f"{total.input_tokens:,} input and {total.output_tokens:,} output tokens, "
            f"{format_cost(report.total_cost)} at list price (the price table, `data/llm_prices.toml`; a reply "
            "served from the cache is counted as if sent; *price unknown* means the model has no price, not free). "
            + PRICE_NOTE
        )
        number_table(report.costs, width="stretch", key=P + "costs")
        with st.expander("Tokens and cost per cell (run)"):
            number_table(report.cell_costs, width="stretch", key=P + "cell_costs")
    failed = report.cells[report.cells["status"] == "failed"]
    if not failed.empty:
        with st.expander(
            f"Failed cells ({len(failed)}) — rerun the spec to retry them", icon=":material/error:"
        ):
            st.markdown(markdown_table(failed[["cell_key", "attempts", "error"]]))
    a, b, c = st.columns(3)
    a.download_button(
        "Report (markdown)", to_markdown(report), f"experiment-{exp_id}.md", "text/markdown",
        icon=":material/download:",
    )  # fmt: skip
    b.download_button(
        "Tables (CSV, zip)", archive(report, "csv"), f"experiment-{exp_id}-csv.zip", "application/zip",
        icon=":material/download:",
    )  # fmt: skip
    c.download_button(
        "Tables (Parquet, zip)", archive(report, "parquet"), f"experiment-{exp_id}-parquet.zip",
        "application/zip", icon=":material/download:",
    )  # fmt: skip
