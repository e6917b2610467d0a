"""LP Repair Lab: diagnose and repair infeasible supply-chain LPs, judge the repair, benchmark agents (seed 002)."""

import json
import tempfile
from pathlib import Path
from typing import Any

import streamlit as st

from core.errors import OrcaError
from core.repair.charts import iis_grid, rr_by_type, steps_vs_rrr
from core.repair.data import dataset_path, load_or_generate
from core.repair.lab import (
    AGENT_LABELS,
    RELAX_LABEL,
    WORKBENCH,
    RepairSession,
    TraceStep,
    benchmark_frame,
    judge_table,
    mip_hint,
    problem_rows,
    real_frame,
    run_offline_batch,
    run_real_batch,
)
from core.repair.student import ACTION_HELP, STUDENT, student_action, student_actions
from core.ui import (
    guard,
    keep_run_in_url,
    number_columns,
    open_url_run,
    optional_store,
    plotly_chart,
    resume_leased,
    session_owner,
    setup_page,
    show_run_link,
)
from solvers.lp.analyze import (
    Analysis,
    RepairOptions,
    analyze,
    apply_candidate,
    iis_lp_text,
    model_suffix,
    parse_names,
    parse_weights,
    read_model,
    stem_of,
)
from solvers.lp.dataset import Problem
from solvers.lp.env import Track, default_problems
from solvers.lp.model import LPModel, LPStatus

SESSION, UPLOAD = "lp_session", "lp_upload_state"
PAGE, URL_TRIED = "pages/lp_repair_lab.py", "lp_student_tried"
TRACK_LABELS = {
    "standard": "standard (statement + model, the paper's)",
    "model-only": "model-only (the LP and the tools)",
    "real": "real (Netlib's infeasible models)",
}

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
        owner = session_owner() if agent_key == STUDENT else None  # a reload takes the student's run back
        st.session_state[SESSION] = RepairSession(
            problem, agent_key, settings=settings, store=store, lease_owner=owner, **options
        )
        keep_run_in_url(st.session_state[SESSION].run_id if agent_key == STUDENT else None)
    session: RepairSession | None = st.session_state.get(SESSION)
    if session is not None and session.agent_key == STUDENT and session.replay_of is None:
        return session  # the student's action form is below the observation (student_view)
    stopped = session is None or session.done or session.replay_of is not None
    if b2.button("Step", key="lp_step", icon=":material/skip_next:", disabled=stopped):
        session.step()
    if b3.button("Run to the end", key="lp_run", icon=":material/fast_forward:", disabled=stopped):
        session.run()
    return session


def resume_run() -> None:
    """Reopen the episode named in the URL (`?run=ID`: a reload, a shared link, Run history): a student's to go
    on playing, an agent's as a read-only replay."""
    current = st.session_state.get(SESSION)
    wanted = open_url_run(store, URL_TRIED, WORKBENCH, current.run_id if current is not None else None)
    if wanted is None or store is None:
        return
    try:
        st.session_state[SESSION] = resume_leased(RepairSession.resume, store, wanted)
    except OrcaError as err:
        st.info(f"Run {wanted} was not reopened here: {err}", icon=":material/info:")


def student_view(session: RepairSession) -> None:
    """A student's turn: the observation the agents get, and the action form (the agents' grammar)."""
    with st.expander("The opening observation (statement, IIS and the model as handed over)",
                     icon=":material/description:"):  # fmt: skip
        st.text(session.first_observation)
    if session.done:
        return
    st.subheader("Your action")
    with st.expander("What the agent sees now", expanded=True, icon=":material/visibility:"):
        st.text(session.trace[-1].observation)
    names = student_actions(session.env.extended)
    c1, c2, c3, c4 = st.columns([2, 3, 1, 1])
    name = c1.selectbox("Action", names, key="lp_st_action", help="\n".join(f"- {a.value}: {h}" for a, h in ACTION_HELP.items() if a.value in names))  # fmt: skip
    target = c2.text_input("Target (row, family prefix or variable)", key="lp_st_target",
                           placeholder="e.g. capacity_e1 or demand_prop_e2_t3")  # fmt: skip
    value = c3.text_input("Value", key="lp_st_value", placeholder="number")
    value2 = c4.text_input("Value 2", key="lp_st_value2", placeholder="upper bound",
                           help="UPDATE_BOUNDS only: the upper bound (blank = none)")  # fmt: skip
    var, lag = None, 0
    if session.env.extended:
        e1, e2 = st.columns([3, 1])
        var = e1.text_input("Variable (UPDATE_COEF)", key="lp_st_var", placeholder="e.g. x_e1")
        lag = int(e2.number_input("Lag (UPDATE_COEF)", -24, 24, 0, key="lp_st_lag"))
    st.caption(ACTION_HELP[next(a for a in ACTION_HELP if a.value == name)])
    if st.button("Play", key="lp_st_play", type="primary", icon=":material/play_arrow:"):
        try:
            session.play(student_action(name, target, value, value2, var, lag, extended=session.env.extended))
        except OrcaError as err:
            st.error(f"Not played (no step used): {err}", icon=":material/error:")
        else:
            st.rerun()


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
        text = f"Episode complete: {verdict(session.metrics)} — {session.env.end_reason}."
        if not session.metrics.get("recovered"):
            st.error(text, icon=":material/error:")  # a failed repair is never a green box
        elif session.metrics.get("rational") and session.metrics.get("rational_strict", True):
            st.success(text, icon=":material/flag:")
        else:
            st.warning(text, icon=":material/flag:")
        verdict_view(session)
        with st.expander("Before and after the repair", expanded=True, icon=":material/compare_arrows:"):
            before_after = session.before_after()
            st.dataframe(before_after, hide_index=True, width="stretch", key="lp_before_after",
                         column_config=number_columns(before_after))  # fmt: skip


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
    st.dataframe(trace, hide_index=True, width="stretch", key="lp_trace", column_config=number_columns(trace))
    if st.session_state.get("lp_trace_len") != len(trace):
        st.session_state["lp_trace_len"] = len(trace)
        st.session_state["lp_trace_step"] = len(trace) - 1
    return int(st.selectbox("Show step", trace["step"].tolist(), key="lp_trace_step"))


def step_view(session: RepairSession, k: int) -> None:
    """Step k: its IIS on the echelon x period grid and the Phase II card."""
    chosen = session.trace[k]
    sc = session.problem.supply_chain
    j = session.iis_step(k)
    if j is not None:
        shown = session.trace[j]
        title = f"IIS at step {shown.t} ({len(shown.iis)} rows)"
        if j != k:
            title += f", the state step {chosen.t} repaired (now {chosen.status})"
        plotly_chart(iis_grid(shown.iis, sc.n_echelons, sc.n_periods, title), key="lp_iis")
    else:
        st.caption(f"No IIS at step {chosen.t}: the model is {chosen.status}.")
    card = session.oracle_frame(k)
    st.subheader("Phase II: rationality checks")
    if card.empty:
        st.caption("The oracle runs once the model is OPTIMAL.")
    else:
        st.dataframe(card, hide_index=True, width="stretch", key="lp_oracle", column_config=number_columns(card))


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
    resume_run()
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
        st.caption(
            "Press **New episode** to start; then step through the repair or run it to the end (with the "
            "Student agent you choose each action yourself)."
        )
        return
    if session.replay_of is not None:
        st.info(
            f"A read-only replay of run `{session.replay_of}` ({session.replayed_agent}, problem "
            f"{session.problem.id}). Press **New episode** to run the chosen agent yourself.",
            icon=":material/replay:",
        )
    show_run_link(PAGE, session.run_id or session.replay_of, URL_TRIED)
    episode_summary(session)
    if session.agent_key == STUDENT and session.replay_of is None:
        student_view(session)
    k = trace_view(session)
    step_view(session, k)
    episode_files(session, session.trace[k])


# --- Your own model ---


def uploaded_report(report: Analysis) -> None:
    """The uploaded model's status, summary, pre-checks and oracle checks."""
    st.metric("Status", report.status.value)
    st.markdown(report.summary)
    if report.mip:
        st.caption(
            f"MIP with {report.mip['integer_columns']} integer columns: LP relaxation "
            f"{report.mip['relaxation_status']}, MIP {report.mip['mip_status']}."
        )
    if report.prechecks:
        st.warning("Pre-checks (before any IIS):\n" + "\n".join(f"- {f.words}" for f in report.prechecks))
    if report.oracle:
        checks = [
            {"check": c["label"], "value": c["value"], "threshold": c["threshold"], "pass": c["passed"]}
            for c in report.oracle["checks"]
        ]
        st.dataframe(checks, hide_index=True, key="lp_up_oracle", column_config=number_columns(checks))


def iis_view(name: str, model: LPModel, report: Analysis) -> None:
    """Every IIS row and bound, the LP-text download and the Farkas certificate in plain words."""
    iis = report.iis
    if iis is None:
        return
    if iis.empty:
        st.info("No IIS: " + "; ".join(iis.attempts))
        return
    checked = {True: "verified irreducible", False: "not irreducible", None: "not checked"}[iis.verified]
    st.subheader(f"Conflicting rows and bounds: {len(iis.rows)} rows, {len(iis.bounds)} bounds")
    st.caption(
        f"Found by {iis.method}; {checked}."
        + (" Earlier steps: " + "; ".join(iis.attempts) if iis.attempts else "")
    )
    rows = [{"row": m.name, "family": stem_of(m.name), "side": m.side, "value": m.value} for m in iis.rows]
    st.dataframe(rows, hide_index=True, key="lp_up_iis", column_config=number_columns(rows))
    if iis.bounds:
        bounds = [{"column": m.name, "bound": m.side, "value": m.value} for m in iis.bounds]
        st.dataframe(bounds, hide_index=True, key="lp_up_iis_bounds", column_config=number_columns(bounds))
    st.download_button(
        "Download the IIS (.lp)", iis_lp_text(model, iis), f"iis_{Path(name).stem}.lp", key="lp_up_iis_dl"
    )
    if iis.certificate is not None:
        st.markdown("**Why they conflict** (the Farkas certificate)")
        st.markdown("\n".join(f"- {line}" for line in iis.certificate.sentences()))


def repair_options() -> RepairOptions:
    """Hard rows or families, weights and whether bounds may move, typed by the user (validated)."""
    with st.expander("Repair options: hard rows, weights, bounds"):
        hard = st.text_input("Never relax (rows, columns or families, comma separated)", key="lp_up_hard")
        weights = st.text_input("Weights (name=weight, comma separated; default 1)", key="lp_up_weights")
        rows_only = st.checkbox("Rows only (never move a column bound)", key="lp_up_rows_only")
    return RepairOptions(hard=parse_names(hard), weights=parse_weights(weights), bounds=not rows_only)


def candidate_repairs(name: str, model: LPModel, report: Analysis, suffix: str) -> None:
    """Pick a verified repair and apply it; a model that does not then solve is an error, never offered."""
    if report.dropped:
        st.caption("Not listed: " + "; ".join(report.dropped))
    if not report.candidates:
        return
    candidates = [
        {
            "repair": c.label,
            "changes": len(c.changes),
            "total": c.total,
            "verified status": c.status.value,
            "objective after": c.objective,
            "what changes": "; ".join(
                f"{ch.name} {ch.side} {ch.old:.6g} -> {ch.new:.10g}" for ch in c.changes[:20]
            )
            + (f"; and {len(c.changes) - 20} more" if len(c.changes) > 20 else ""),
        }
        for c in report.candidates
    ]
    st.dataframe(candidates, hide_index=True, key="lp_up_candidates", column_config=number_columns(candidates))
    pick = st.radio(
        "Candidate repairs (each verified: applied and re-solved before it is listed)",
        list(range(len(report.candidates))),
        format_func=lambda i: (
            f"{report.candidates[i].label}: {len(report.candidates[i].changes)} changes, "
            f"HiGHS then reports {report.candidates[i].status.value}"
        ),
        key="lp_up_pick",
    )
    if st.button("Apply and re-solve", key="lp_up_apply"):
        status = apply_candidate(model, report.candidates[pick])
        st.session_state[UPLOAD] = (name, status.value, model.to_text(suffix.lstrip(".")))
    if st.session_state.get(UPLOAD) and st.session_state[UPLOAD][0] == name:
        _, status, text = st.session_state[UPLOAD]
        if status in (LPStatus.OPTIMAL.value, LPStatus.UNBOUNDED.value):
            st.success(f"Repaired: HiGHS now reports {status}.")
            plain = name[:-3] if name.lower().endswith(".gz") else name  # the repaired model is written unpacked
            st.download_button("Download the repaired model", text, f"repaired_{plain}", key="lp_up_dl")
        else:
            st.error(
                f"The repair failed: HiGHS reports {status}, so the model is not repaired (no download)."
            )


def upload_view() -> None:
    """Analyse the user's own .mps/.lp model (or .mps.gz/.lp.gz): status, full IIS, why it conflicts, repairs."""
    uploaded = st.file_uploader("An .mps or .lp model (or gzipped: .mps.gz, .lp.gz)", type=["mps", "lp", "gz"],
                                key="lp_file")  # fmt: skip
    relax = st.checkbox(RELAX_LABEL, key="lp_relax")
    options = repair_options()
    if uploaded is None:
        st.caption(
            "Upload a model to see its status, every conflicting row and bound with the reason they conflict, "
            "and verified repairs (fewest changes, smallest total relaxation)."
        )
        return
    suffix = model_suffix(uploaded.name) or Path(uploaded.name).suffix.lower()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"model{suffix}"
        path.write_bytes(uploaded.getvalue())
        model = read_model(path, uploaded.name)
    suffix = suffix.removesuffix(".gz")
    if relax and model.is_mip():
        model.relax_integrality()
    report = analyze(model, options)
    uploaded_report(report)
    hint = mip_hint(report.mip)
    if hint:
        st.info(hint, icon=":material/info:")
    iis_view(uploaded.name, model, report)
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
    bcol0, bcol1, bcol2 = st.columns(3)
    track = Track(
        bcol0.selectbox(
            "Track",
            [t.value for t in Track],
            format_func=TRACK_LABELS.__getitem__,
            key="lp_bench_track",
        )
    )
    real = track is Track.REAL
    per_type = bcol1.number_input(
        "Problems per error type", 1, 30, 2, key="lp_bench_n", disabled=real, help="not used on the real track"
    )
    bench_agent = bcol2.selectbox(
        "Offline agent",
        ["offline", "diagnostician", "greedy", "do-nothing"],
        format_func=AGENT_LABELS.__getitem__,
        key="lp_bench_agent",
    )
    label = "Run on Netlib's infeasible models" if real else "Run on the test split"
    if st.button(label, key="lp_bench_run", disabled=store is None):
        if real:
            with st.spinner("Running the ten Netlib models…"):
                run_real_batch(bench_agent, store=store)
        else:
            chosen = bench_sample(per_type)
            with st.spinner(f"Running {len(chosen)} episodes…"):
                run_offline_batch(chosen, bench_agent, store=store, track=track)
    if real:
        real_view()
        return
    results = benchmark_frame(store) if store is not None else None
    if results is None or results.empty:
        st.info("No LP Repair runs stored yet: run an episode or the batch above.")
        return
    st.subheader("Recovery by agent under both judges")
    judges = judge_table(results)
    st.dataframe(judges, hide_index=True, key="lp_bench_judges", column_config=number_columns(judges))
    plotly_chart(rr_by_type(results), key="lp_bench_rr")
    plotly_chart(steps_vs_rrr(results), key="lp_bench_steps")
    st.download_button(
        "Download results (JSON)",
        json.dumps(results.to_dict("records")),
        "lp_repair_results.json",
        key="lp_bench_dl",
    )


def real_view() -> None:
    """Real-track runs: per model and agent, recovered (verified), changes and the own-model tool's fewest."""
    frame = real_frame(store) if store is not None else None
    if frame is None or frame.empty:
        st.info("No real-track runs stored yet: run an agent on Netlib's infeasible models above.")
        return
    st.subheader("Real track: a verified feasible model with the fewest changes")
    st.caption(
        "No ground truth: success is a model that re-solves feasible from scratch; the reference is the "
        "own-model tool's fewest-changes repair (proven, or best found under its time limit)."
    )
    st.dataframe(frame, hide_index=True, key="lp_bench_real", column_config=number_columns(frame))


with repair_tab, guard():
    repair_view()

with upload_tab, guard():
    upload_view()

with bench_tab, guard():
    benchmark_view()
