"""LP Repair Lab: diagnose and repair infeasible supply-chain LPs, judge the repair, benchmark agents (seed 002)."""

import json
import tempfile
from pathlib import Path

import streamlit as st

from core.repair.charts import iis_grid, rr_by_type, steps_vs_rrr
from core.repair.data import dataset_path, load_or_generate
from core.repair.lab import AGENT_LABELS, RepairSession, benchmark_frame, problem_rows, run_offline_batch
from core.ui import guard, optional_store, setup_page
from solvers.lp.analyze import analyze, apply_candidate, read_model
from solvers.lp.env import default_problems

SESSION, UPLOAD = "lp_session", "lp_upload_state"

settings = setup_page(
    "LP Repair Lab",
    "Infeasible serial supply-chain LPs (OptiRepair, seed 002): an agent reads the IIS, repairs the model, and a "
    "rationality oracle checks that the feasible plan is also sensible. Or upload your own .mps/.lp model.",
)
store = optional_store()


@st.cache_resource(show_spinner=False)
def full_dataset(seed: int):
    return load_or_generate(seed)


def problems():
    if "lp_full" in st.session_state or dataset_path(2).exists():
        st.session_state["lp_full"] = True
        return full_dataset(2)
    return list(default_problems())


repair_tab, upload_tab, bench_tab = st.tabs(["Repair a problem", "Your own model", "Benchmark"])


def repair_view() -> None:
    pool = problems()
    if not dataset_path(2).exists():
        st.info(
            f"Showing the built-in sample ({len(pool)} problems, one per error type). The full 976-problem set "
            "takes about a minute to generate.",
            icon=":material/info:",
        )
        if st.button("Generate the full data set", key="lp_generate", icon=":material/dataset:"):
            with st.spinner("Generating and verifying 976 problems…"):
                full_dataset(2)
            st.session_state["lp_full"] = True
            st.rerun()
    frame = problem_rows(pool)
    left, mid, right = st.columns(3)
    etype = left.selectbox(
        "Error type", ["any", *sorted(frame["error_type"].unique(), key=lambda e: int(e[3:]))], key="lp_type"
    )
    size = mid.selectbox("Size (echelons x periods)", ["any", *sorted(frame["size"].unique())], key="lp_size")
    shown = frame[
        ((frame["error_type"] == etype) | (etype == "any")) & ((frame["size"] == size) | (size == "any"))
    ]
    if shown.empty:
        st.warning("No problem of that type and size; widen the filters.")
        return
    pid = right.selectbox("Problem", shown["id"].tolist(), key="lp_problem")
    problem = next(p for p in pool if p.id == pid)
    a1, a2, a3, a4 = st.columns([3, 1, 1, 1])
    agent_keys = list(AGENT_LABELS)
    agent_key = a1.selectbox("Agent", agent_keys, format_func=AGENT_LABELS.__getitem__, key="lp_agent")
    fmt = a2.selectbox("Reply format", ["think", "json"], key="lp_format", disabled=agent_key != "llm")
    protected = a3.checkbox(
        "Protected rows",
        value=True,
        key="lp_protected",
        help="balance and cap rows cannot be dropped, relaxed or re-set",
    )
    extended = a4.checkbox(
        "Extended actions",
        value=False,
        key="lp_extended",
        help="adds UPDATE_COEF (off = the paper's grammar)",
    )
    if agent_key == "llm" and settings.provider == "offline":
        st.warning(
            "The LLM agent needs a provider: choose Anthropic or OpenAI in Settings (no offline stand-in is substituted)."
        )
    with st.expander("Problem statement", icon=":material/description:"):
        st.text(problem.description)
    b1, b2, b3 = st.columns(3)
    if b1.button("New episode", key="lp_new", icon=":material/restart_alt:"):
        st.session_state[SESSION] = RepairSession(
            problem,
            agent_key,
            protected=protected,
            extended=extended,
            fmt=fmt,
            settings=settings,
            store=store,
        )
    session: RepairSession | None = st.session_state.get(SESSION)
    if b2.button(
        "Step", key="lp_step", icon=":material/skip_next:", disabled=session is None or session.done
    ):
        session.step()
    if b3.button(
        "Run to the end",
        key="lp_run",
        icon=":material/fast_forward:",
        disabled=session is None or session.done,
    ):
        session.run()
    if session is None:
        st.caption("Press **New episode** to start; then step through the repair or run it to the end.")
        return
    last = session.trace[-1]
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Status", last.status)
    m2.metric("Step", f"{last.t} / {session.env.max_steps}")
    m3.metric("Phase / loops", f"{last.phase} · {last.loops}")
    m4.metric("Reward", f"{session.total:+g}" if session.done else "—")
    st.caption(
        f"Agent: {session.agent.name} · problem {session.problem.id} · protected rows "
        f"{'on' if session.env.protected else 'off'} · extended actions {'on' if session.env.extended else 'off'}"
    )
    if session.done:
        m = session.metrics
        verdict = (
            "rationally recovered"
            if m.get("rational")
            else "recovered, not rational"
            if m.get("recovered")
            else "not recovered"
        )
        st.success(f"Episode complete: {verdict} — {session.env.end_reason}.", icon=":material/flag:")
    st.subheader("Trace")
    trace = session.trace_frame()
    st.dataframe(trace, hide_index=True, width="stretch", key="lp_trace")
    if st.session_state.get("lp_trace_len") != len(trace):  # follow the newest step until the user picks one
        st.session_state["lp_trace_len"] = len(trace)
        st.session_state["lp_trace_step"] = len(trace) - 1
    k = st.selectbox("Show step", trace["step"].tolist(), key="lp_trace_step")
    chosen = session.trace[int(k)]
    sc = session.problem.supply_chain
    if chosen.iis:
        st.plotly_chart(
            iis_grid(
                chosen.iis, sc.n_echelons, sc.n_periods, f"IIS at step {chosen.t} ({len(chosen.iis)} rows)"
            ),
            key="lp_iis",
        )
    else:
        st.caption(f"No IIS at step {chosen.t}: the model is {chosen.status}.")
    card = session.oracle_frame(int(k))
    st.subheader("Phase II: rationality checks")
    if card.empty:
        st.caption("The oracle runs once the model is OPTIMAL.")
    else:
        st.dataframe(card, hide_index=True, width="stretch", key="lp_oracle")
    with st.expander(
        "What the repair changed (diff against the sabotaged model)", icon=":material/difference:"
    ):
        st.json(session.diff(), expanded=False)
    with st.expander("Observation the agent saw", icon=":material/visibility:"):
        st.text(chosen.observation)
    d1, d2 = st.columns(2)
    d1.download_button(
        "Download the trace (JSON)",
        session.trace_json(),
        f"{session.problem.id}_trace.json",
        key="lp_dl_trace",
    )
    d2.download_button(
        "Download the current model (.lp)",
        session.repaired_model_text(),
        f"{session.problem.id}.lp",
        key="lp_dl_model",
    )


with repair_tab, guard():
    repair_view()

with upload_tab, guard():
    uploaded = st.file_uploader("An .mps or .lp model", type=["mps", "lp"], key="lp_file")
    relax = st.checkbox("Analyse the LP relaxation if the model is a MIP", key="lp_relax")
    if uploaded is None:
        st.caption(
            "Upload a model to see its status, the conflicting constraints grouped by name, and the smallest relaxations that make it feasible."
        )
    else:
        suffix = Path(uploaded.name).suffix.lower()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"model{suffix}"
            path.write_bytes(uploaded.getvalue())
            model = read_model(path, uploaded.name)
        if relax and model.is_mip():
            model.relax_integrality()
        report = analyze(model)
        st.metric("Status", report.status.value)
        st.markdown(report.summary)
        if report.oracle:
            st.dataframe(
                [
                    {
                        "check": c["label"],
                        "value": c["value"],
                        "threshold": c["threshold"],
                        "pass": c["passed"],
                    }
                    for c in report.oracle["checks"]
                ],
                hide_index=True,
                key="lp_up_oracle",
            )
        if report.iis_groups:
            st.dataframe(
                [
                    {"family": f, "rows in IIS": n, "examples": ", ".join(ex)}
                    for f, n, ex in report.iis_groups
                ],
                hide_index=True,
                key="lp_up_iis",
            )
        if report.candidates:
            options = list(range(len(report.candidates)))
            pick = st.radio(
                "Candidate repairs (smallest weighted relaxation first)",
                options,
                format_func=lambda i: (
                    f"{report.candidates[i].label}: total {report.candidates[i].total:.4g} over {len(report.candidates[i].violations)} rows"
                ),
                key="lp_up_pick",
            )
            if st.button("Apply and re-solve", key="lp_up_apply"):
                status = apply_candidate(model, report.candidates[pick])
                st.session_state[UPLOAD] = (uploaded.name, status.value, model.to_text(suffix.lstrip(".")))
        if st.session_state.get(UPLOAD) and st.session_state[UPLOAD][0] == uploaded.name:
            name, status, text = st.session_state[UPLOAD]
            st.success(f"Applied; HiGHS now reports {status}.")
            st.download_button("Download the repaired model", text, f"repaired_{name}", key="lp_up_dl")

with bench_tab, guard():
    st.caption(
        "Every episode run on this page or with `python -m core.cli repair run` is stored; results by agent below."
    )
    bcol1, bcol2 = st.columns(2)
    per_type = bcol1.number_input("Problems per error type", 1, 30, 2, key="lp_bench_n")
    bench_agent = bcol2.selectbox(
        "Offline agent",
        ["offline", "greedy", "do-nothing"],
        format_func=AGENT_LABELS.__getitem__,
        key="lp_bench_agent",
    )
    if st.button("Run on the test split", key="lp_bench_run", disabled=store is None):
        chosen = []
        counts: dict = {}
        for p in [p for p in problems() if p.split == "test"]:
            if counts.get(p.error_type, 0) < per_type:
                counts[p.error_type] = counts.get(p.error_type, 0) + 1
                chosen.append(p)
        with st.spinner(f"Running {len(chosen)} episodes…"):
            run_offline_batch(chosen, bench_agent, store=store)
    results = benchmark_frame(store) if store is not None else None
    if results is None or results.empty:
        st.info("No LP Repair runs stored yet: run an episode or the batch above.")
    else:
        st.plotly_chart(rr_by_type(results), key="lp_bench_rr")
        st.plotly_chart(steps_vs_rrr(results), key="lp_bench_steps")
        st.download_button(
            "Download results (JSON)",
            json.dumps(results.to_dict("records")),
            "lp_repair_results.json",
            key="lp_bench_dl",
        )
