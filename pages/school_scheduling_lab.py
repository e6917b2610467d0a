"""School Scheduling Lab: decision agents with hidden utilities talk to the T-P-P optimization agent (seed 003)."""

import pandas as pd
import plotly.express as px
import streamlit as st

from core.schedule.lab.batch import run_batch, run_one
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import OFFLINE_LABEL, DecisionProfile, Feedback, Style
from core.schedule.lab.llm_decision import DecisionAgentSpec
from core.schedule.lab.report import OFFLINE_OPTIMIZER_NOTE, summary_rows
from core.schedule.lab.utilities import frontier_targets, load_utilities, new_utility
from core.ui import guard, missing_key_warning, optional_store, setup_page
from solvers.schedule.data import sfusd_district

P = "orca_lab_"
settings = setup_page(
    "School Scheduling Lab",
    "Evaluate optimization agents the way seed 003 does: simulated stakeholders with a hidden utility converse "
    "with the agent; the score is U(best schedule seen) / U*. Compare one-shot and conversational evaluation.",
)

utilities = load_utilities()
keys = [u.key for u in utilities]
by_key = {u.key: u for u in utilities}
PARADIGMS = [p.value for p in Paradigm]
KINDS = {
    "offline": "Offline stand-ins (built-in, not LLMs)",
    "llm": "LLM decision agents (Settings provider)",
}

kind = st.radio("Decision agents", list(KINDS), format_func=KINDS.get, key=P + "kind", horizontal=True)
if kind == "offline":
    decision = DecisionAgentSpec()
    problem = None
    st.info(
        f"Decision agents: {OFFLINE_LABEL}. {OFFLINE_OPTIMIZER_NOTE} The code-writing designs (C-P-P, C-P-R, "
        "C-N-R) run from experiment specs with an LLM key."
    )
elif settings.provider == "offline":
    decision, problem = (
        None,
        (
            "LLM decision agents need an LLM: choose Anthropic or OpenAI under Settings (with its API key). "
            "Nothing offline is substituted for them; pick the offline stand-ins to run without a key."
        ),
    )
else:
    decision = DecisionAgentSpec(kind="llm", provider=settings.provider, model=settings.model)
    problem = missing_key_warning(settings)
    if problem is None:
        st.info(
            f"Decision agents: {decision.label} (template chosen by paradigm). {OFFLINE_OPTIMIZER_NOTE} "
            "Each conversation calls the LLM once or more per decision-agent turn."
        )
if problem:
    st.warning(problem, icon=":material/key:")
    decision = None

watch, batch = st.tabs(["Watch a conversation", "Batch"])

with watch:
    source = st.radio(
        "Decision agent",
        ["shipped", "generate"],
        format_func={"shipped": "From the shipped set", "generate": "Generate a new one"}.get,
        key=P + "source",
        horizontal=True,
    )
    u = None
    if source == "shipped":
        u = by_key[st.selectbox("Decision agent utility", keys, key=P + "utility")]
    else:
        names = sfusd_district().names
        g1, g2, g3 = st.columns([2, 1, 3])
        school = g1.selectbox("School", names, key=P + "gen_school")
        seed = int(g2.number_input("Seed", 0, 2**31 - 1, 0, step=1, key=P + "gen_seed"))
        targets = frontier_targets(school)
        labels = ["any (seeded draw among the school's frontier schedules)"] + [label for _, label in targets]
        picked = g3.selectbox(
            "Target schedule", range(len(labels)), format_func=labels.__getitem__, key=P + "gen_target"
        )
        if st.button("Generate decision agent", key=P + "generate"):
            with guard(), st.spinner("Grid search over (L, R) and 10,000 simplex samples per cell…"):
                target = None if picked == 0 else targets[picked - 1][0]
                st.session_state[P + "generated"] = new_utility(school, seed, target)
        u = st.session_state.get(P + "generated")
        if u is None:
            st.caption(
                f"{len(targets)} candidate schedules on {school}'s conditional Pareto frontiers. Press Generate: "
                "the generator draws a direction and role, then searches thresholds and weights that make the "
                "target the unique maximiser (Appendix 10.2)."
            )
        else:
            st.success(
                f"Generated {u.key}: {u.role} at {u.school} who prefers it {u.direction.value}; the target schedule "
                "is the unique maximiser among the school's frontier schedules (checked by enumeration).",
                icon=":material/check_circle:",
            )
            district = sfusd_district()
            st.dataframe(
                pd.DataFrame(
                    {
                        "w1 (start time)": [u.w1],
                        "w2 (peak load)": [u.w2],
                        "w3 (change)": [u.w3],
                        "L (students)": [round(u.max_load * 100)],
                        "R (minutes)": [u.max_deviation],
                        "U*": [u.u_star],
                        "target": [", ".join(district.time_labels[a] for a in u.target)],
                    }
                ),
                hide_index=True,
                key=P + "gen_table",
            )
    c2, c3, c4 = st.columns(3)
    style = c2.radio("Style", [s.value for s in Style], key=P + "style", horizontal=True)
    feedback = c3.radio("check_utility", [f.value for f in Feedback], key=P + "feedback", horizontal=True)
    paradigm = c4.selectbox("Paradigm", PARADIGMS, index=PARADIGMS.index("conversation"), key=P + "paradigm")
    if u is not None:
        st.caption(
            f"Hidden utility {u.key} ({u.role}, {u.school}, prefers {u.direction.value}): w = ({u.w1}, {u.w2}, "
            f"{u.w3}), L = {u.max_load * 100:,.0f} students, R = {u.max_deviation:g} min, U* = {u.u_star:g}. "
            f"Optimization agent: T-P-P (offline)."
        )
    live = st.container(key=P + "live")

    def show(entry: dict, box=live) -> None:
        if entry["role"] == "check":
            return
        with box.chat_message("user" if entry["role"] == "decision" else "assistant"):
            st.markdown(entry["content"] or "_(no message)_")
            if entry["role"] == "decision" and u is not None:
                best = entry.get("best", 0.0)
                checked = ", ".join(
                    str(c.get("utility", c.get("maximal", c.get("error")))) for c in entry.get("checks", [])
                )
                st.caption(
                    f"check_utility: {checked or 'no schedule checked'} · best utility so far {best:.3f} of "
                    f"U* {u.u_star:g} (π = {best / u.u_star:.3f})"
                )

    run = st.button("Run conversation", type="primary", key=P + "run", disabled=decision is None or u is None)
    if run and decision is not None and u is not None:
        st.session_state.pop(P + "result", None)
        with guard(), st.spinner("Conversing…"):
            st.session_state[P + "result"] = run_one(
                DecisionProfile(u, Style(style), Feedback(feedback)),
                paradigm,
                store=optional_store(),
                on_message=show,
                decision=decision,
                settings=settings,
            )
    result = st.session_state.get(P + "result")
    if result is not None:
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("Score π", f"{result.score:.3f}")
        m2.metric("Turns", result.turns)
        m3.metric("Solver calls", result.solver_calls)
        m4.metric("Stopped", result.stop.value)
        st.caption(
            f"Decision agent: {result.decision_agent}; optimization agent: {result.optimization_agent}."
        )
        if not run:
            for entry in result.transcript:
                show(entry)
        checks = [c for e in result.transcript for c in e.get("checks", [])]
        if checks:
            st.caption("check_utility after each proposal (in order)")
            st.dataframe(pd.DataFrame(checks), hide_index=True)
        if result.run_id:
            st.caption(f"Recorded as run {result.run_id} (open it in Run history).")

with batch:
    count = st.slider("Utilities", 1, len(utilities), min(3, len(utilities)), key=P + "count")
    chosen = st.multiselect("Paradigms", PARADIGMS, default=["one_shot", "conversation"], key=P + "paradigms")
    st.caption(
        f"{count} utilities × 2 styles × 2 feedbacks × {len(chosen)} paradigms = {4 * count * len(chosen)} "
        "conversations. The full set runs from the CLI: python -m core.cli schedule lab run --paradigm conversation"
    )
    if st.button("Run batch", key=P + "batch", disabled=not chosen or decision is None):
        bar = st.progress(0.0, text="Starting…")
        with guard():
            profiles = [DecisionProfile(u, s, f) for u in utilities[:count] for s in Style for f in Feedback]
            frame = run_batch(
                profiles,
                chosen,
                on_progress=lambda i, n: bar.progress(i / n, text=f"{i}/{n} conversations"),
                decision=decision,
                settings=settings,
            )
            st.session_state[P + "frame"] = frame
    frame = st.session_state.get(P + "frame")
    if frame is not None and not frame.empty:
        st.dataframe(pd.DataFrame(summary_rows(frame, ["paradigm"])), hide_index=True)
        st.dataframe(pd.DataFrame(summary_rows(frame, ["paradigm", "style", "feedback"])), hide_index=True)
        st.plotly_chart(px.box(frame, x="paradigm", y="score", color="style", points="all"))
        st.download_button("Download conversations (CSV)", frame.to_csv(index=False), "lab.csv", "text/csv")
    else:
        st.caption("No batch yet: choose the size and press Run batch.")
