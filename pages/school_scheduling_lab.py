"""School Scheduling Lab: decision agents with hidden utilities talk to the T-P-P optimization agent (seed 003)."""

import pandas as pd
import plotly.express as px
import streamlit as st

from core.schedule.lab.batch import run_batch, run_one
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import OFFLINE_LABEL, DecisionProfile, Feedback, Style
from core.schedule.lab.report import OFFLINE_NOTE, summary_rows
from core.schedule.lab.utilities import load_utilities
from core.ui import guard, optional_store, setup_page

P = "orca_lab_"
setup_page(
    "School Scheduling Lab",
    "Evaluate optimization agents the way seed 003 does: simulated stakeholders with a hidden utility converse "
    "with the agent; the score is U(best schedule seen) / U*. Compare one-shot and conversational evaluation.",
)
st.info(
    OFFLINE_NOTE + " LLM decision agents and the code-writing designs are not available on this page yet."
)

utilities = load_utilities()
keys = [u.key for u in utilities]
by_key = {u.key: u for u in utilities}
PARADIGMS = [p.value for p in Paradigm]

watch, batch = st.tabs(["Watch a conversation", "Batch"])

with watch:
    c1, c2, c3, c4 = st.columns(4)
    key = c1.selectbox("Decision agent utility", keys, key=P + "utility")
    style = c2.radio("Style", [s.value for s in Style], key=P + "style", horizontal=True)
    feedback = c3.radio("check_utility", [f.value for f in Feedback], key=P + "feedback", horizontal=True)
    paradigm = c4.selectbox("Paradigm", PARADIGMS, index=PARADIGMS.index("conversation"), key=P + "paradigm")
    u = by_key[key]
    st.caption(
        f"Hidden utility ({u.role}, {u.school}, prefers {u.direction.value}): w = ({u.w1}, {u.w2}, {u.w3}), "
        f"L = {u.max_load * 100:,.0f} students, R = {u.max_deviation:g} min, U* = {u.u_star:g}. "
        f"Decision agent: {OFFLINE_LABEL}."
    )
    if st.button("Run conversation", type="primary", key=P + "run"):
        with guard(), st.spinner("Conversing…"):
            result = run_one(
                DecisionProfile(u, Style(style), Feedback(feedback)), paradigm, store=optional_store()
            )
            st.session_state[P + "result"] = result
    result = st.session_state.get(P + "result")
    if result is not None:
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("Score π", f"{result.score:.3f}")
        m2.metric("Turns", result.turns)
        m3.metric("Solver calls", result.solver_calls)
        m4.metric("Stopped", result.stop.value)
        for entry in result.transcript:
            if entry["role"] == "check":
                continue
            who = "user" if entry["role"] == "decision" else "assistant"
            with st.chat_message(who):
                st.markdown(entry["content"] or "_(no message)_")
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
    if st.button("Run batch", key=P + "batch", disabled=not chosen):
        bar = st.progress(0.0, text="Starting…")
        with guard():
            profiles = [DecisionProfile(u, s, f) for u in utilities[:count] for s in Style for f in Feedback]
            frame = run_batch(
                profiles, chosen, on_progress=lambda i, n: bar.progress(i / n, text=f"{i}/{n} conversations")
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
