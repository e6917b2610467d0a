"""LP Repair Lab: diagnose and repair infeasible supply-chain LPs, judge the repair, benchmark agents (seed 002)."""

import json
import tempfile
from pathlib import Path
from typing import Any

import streamlit as st

from core.repair.charts import iis_grid, rr_by_type, steps_vs_rrr
from core.repair.data import dataset_path, load_or_generate
from core.repair.lab import (
    AGENT_LABELS,
    RepairSession,
    TraceStep,
    benchmark_frame,
    judge_table,
    problem_rows,
    run_offline_batch,
)
from core.ui import guard, optional_store, setup_page
from solvers.lp.analyze import Analysis, analyze, apply_candidate, read_model
from solvers.lp.dataset import Problem
from solvers.lp.env import default_problems
from solvers.lp.model import LPModel

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


# --- Repair a problem ---


def dataset_notice(pool: list[Problem]) -> None:
    """While only the built-in sample exists: say so, with a button that generates the full data set."""
    if dataset_path(2).exists():
        return
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


def choose_problem(pool: list[Problem]) -> Problem | None:
    """The problem picked by error type, size and id (None, with a warning, when the filters match nothing)."""
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
        return None
    pid = right.selectbox("Problem", shown["id"].tolist(), key="lp_problem")
    return next(p for p in pool if p.id == pid)


def agent_controls() -> tuple[str, dict[str, Any]]:
    """The chosen agent and its session options (reply format, protected rows, extended actions)."""
    a1, a2, a3, a4 = st.columns([3, 1, 1, 1])
    agent_key = a1.selectbox(
        "Agent", list(AGENT_LABELS), format_func=AGENT_LABELS.__getitem__, key="lp_agent"
    )
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
    return agent_key, {"fmt": fmt, "protected": protected, "extended": extended}


def episode_controls(problem: Problem, agent_key: str, options: dict[str, Any]) -> RepairSession | None:
    """New episode, Step and Run to the end; the browser session's current episode (None before the first)."""
    b1, b2, b3 = st.columns(3)
    if b1.button("New episode", key="lp_new", icon=":material/restart_alt:"):
        st.session_state[SESSION] = RepairSession(
            problem, agent_key, settings=settings, store=store, **options
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
    return session


def verdict(metrics: dict[str, Any]) -> str:
    """A finished episode in words: rationally recovered, recovered but not rational, or not recovered."""
    if metrics.get("rational"):
        return "rationally recovered"
    return "recovered, not rational" if metrics.get("recovered") else "not recovered"


def episode_summary(session: RepairSession) -> None:
    """Status, step, phase and reward of the episode so far, its settings, and the verdict once it ended."""
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
        st.success(
            f"Episode complete: {verdict(session.metrics)} — {session.env.end_reason}.",
            icon=":material/flag:",
        )
        verdict_view(session)


def verdict_view(session: RepairSession) -> None:
    """The paper verdict, the strict verdict and exact repair side by side; why the strict judge refuses."""
    for col, v in zip(st.columns(3), session.verdicts(), strict=True):
        col.metric(v.label, "yes" if v.passed else "no", help=v.meaning)
    refusal = session.strict_refusal()
    if refusal:
        st.warning(refusal, icon=":material/link_off:")


def trace_view(session: RepairSession) -> int:
    """The trace table and the step chooser (it follows the newest step until the user picks one)."""
    st.subheader("Trace")
    trace = session.trace_frame()
    st.dataframe(trace, hide_index=True, width="stretch", key="lp_trace")
    if st.session_state.get("lp_trace_len") != len(trace):
        st.session_state["lp_trace_len"] = len(trace)
        st.session_state["lp_trace_step"] = len(trace) - 1
    return int(st.selectbox("Show step", trace["step"].tolist(), key="lp_trace_step"))


def step_view(session: RepairSession, k: int) -> None:
    """Step k: its IIS on the echelon x period grid and the Phase II card."""
    chosen = session.trace[k]
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
    card = session.oracle_frame(k)
    st.subheader("Phase II: rationality checks")
    if card.empty:
        st.caption("The oracle runs once the model is OPTIMAL.")
    else:
        st.dataframe(card, hide_index=True, width="stretch", key="lp_oracle")


def episode_files(session: RepairSession, chosen: TraceStep) -> None:
    """The repair's diff, the observation the agent saw at the chosen step, and the downloads."""
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


def repair_view() -> None:
    """Pick a problem and an agent, step through an episode, and inspect any step of its trace."""
    pool = problems()
    dataset_notice(pool)
    problem = choose_problem(pool)
    if problem is None:
        return
    agent_key, options = agent_controls()
    with st.expander("Problem statement", icon=":material/description:"):
        st.text(problem.description)
    session = episode_controls(problem, agent_key, options)
    if session is None:
        st.caption("Press **New episode** to start; then step through the repair or run it to the end.")
        return
    episode_summary(session)
    k = trace_view(session)
    step_view(session, k)
    episode_files(session, session.trace[k])


# --- Your own model ---


def uploaded_report(report: Analysis) -> None:
    """The uploaded model's status, summary, oracle checks and IIS grouped by constraint family."""
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
            [{"family": f, "rows in IIS": n, "examples": ", ".join(ex)} for f, n, ex in report.iis_groups],
            hide_index=True,
            key="lp_up_iis",
        )


def candidate_repairs(name: str, model: LPModel, report: Analysis, suffix: str) -> None:
    """Pick one of the smallest relaxations and apply it; the re-solved model is kept for download."""
    if report.candidates:
        pick = st.radio(
            "Candidate repairs (smallest weighted relaxation first)",
            list(range(len(report.candidates))),
            format_func=lambda i: (
                f"{report.candidates[i].label}: total {report.candidates[i].total:.4g} over {len(report.candidates[i].violations)} rows"
            ),
            key="lp_up_pick",
        )
        if st.button("Apply and re-solve", key="lp_up_apply"):
            status = apply_candidate(model, report.candidates[pick])
            st.session_state[UPLOAD] = (name, status.value, model.to_text(suffix.lstrip(".")))
    if st.session_state.get(UPLOAD) and st.session_state[UPLOAD][0] == name:
        _, status, text = st.session_state[UPLOAD]
        st.success(f"Applied; HiGHS now reports {status}.")
        st.download_button("Download the repaired model", text, f"repaired_{name}", key="lp_up_dl")


def upload_view() -> None:
    """Analyse the user's own .mps/.lp model and offer the smallest repairs."""
    uploaded = st.file_uploader("An .mps or .lp model", type=["mps", "lp"], key="lp_file")
    relax = st.checkbox("Analyse the LP relaxation if the model is a MIP", key="lp_relax")
    if uploaded is None:
        st.caption(
            "Upload a model to see its status, the conflicting constraints grouped by name, and the smallest relaxations that make it feasible."
        )
        return
    suffix = Path(uploaded.name).suffix.lower()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"model{suffix}"
        path.write_bytes(uploaded.getvalue())
        model = read_model(path, uploaded.name)
    if relax and model.is_mip():
        model.relax_integrality()
    report = analyze(model)
    uploaded_report(report)
    candidate_repairs(uploaded.name, model, report, suffix)


# --- Benchmark ---


def bench_sample(per_type: int) -> list[Problem]:
    """The first `per_type` test-split problems of each error type."""
    chosen: list[Problem] = []
    counts: dict = {}
    for p in [p for p in problems() if p.split == "test"]:
        if counts.get(p.error_type, 0) < per_type:
            counts[p.error_type] = counts.get(p.error_type, 0) + 1
            chosen.append(p)
    return chosen


def benchmark_view() -> None:
    """Run an offline agent on the test split and chart every stored LP Repair run by agent."""
    st.caption(
        "Every episode run on this page or with `python -m core.cli repair run` is stored; results by agent below."
    )
    bcol1, bcol2 = st.columns(2)
    per_type = bcol1.number_input("Problems per error type", 1, 30, 2, key="lp_bench_n")
    bench_agent = bcol2.selectbox(
        "Offline agent",
        ["offline", "diagnostician", "greedy", "do-nothing"],
        format_func=AGENT_LABELS.__getitem__,
        key="lp_bench_agent",
    )
    if st.button("Run on the test split", key="lp_bench_run", disabled=store is None):
        chosen = bench_sample(per_type)
        with st.spinner(f"Running {len(chosen)} episodes…"):
            run_offline_batch(chosen, bench_agent, store=store)
    results = benchmark_frame(store) if store is not None else None
    if results is None or results.empty:
        st.info("No LP Repair runs stored yet: run an episode or the batch above.")
        return
    st.subheader("Recovery by agent under both judges")
    st.dataframe(judge_table(results), hide_index=True, key="lp_bench_judges")
    st.plotly_chart(rr_by_type(results), key="lp_bench_rr")
    st.plotly_chart(steps_vs_rrr(results), key="lp_bench_steps")
    st.download_button(
        "Download results (JSON)",
        json.dumps(results.to_dict("records")),
        "lp_repair_results.json",
        key="lp_bench_dl",
    )


with repair_tab, guard():
    repair_view()

with upload_tab, guard():
    upload_view()

with bench_tab, guard():
    benchmark_view()
