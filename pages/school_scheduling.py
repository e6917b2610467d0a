"""School Scheduling: negotiate start times with the T-P-P agent over the start-time MILP (seed 003)."""

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.runlog import record_messages, step_recorder
from core.schedule.agent import ScheduleAgent, district_from_record, district_record
from core.schedule.processing import format_deviation, format_load, schedule_rows
from core.ui import get_store, guard, setup_page
from solvers.schedule.model import DEVIATION, LOAD

WORKBENCH = "school_scheduling"
AGENT, RUN, PROBLEMS = "sched_agent", "sched_run_id", "sched_replay_problems"

settings = setup_page(
    "School Scheduling",
    "Assign each school one of the standardized start times. The agent edits a MILP through fixed tools "
    "(fix/forbid a start, re-weight or bound an objective, remove a constraint) and re-solves with HiGHS.",
)


def start(district_csv: bytes | None = None, times_text: str = "", filename: str = "") -> None:
    times = [t.strip() for t in times_text.split(",") if t.strip()] or None
    name = f"{filename.rsplit('.', 1)[0]} school district" if filename else None
    record = district_record(district_csv, times, name)
    agent = ScheduleAgent.from_settings(settings, district_from_record(record))
    opening = agent.opening()
    store = get_store()
    run_id = store.create_run(
        WORKBENCH,
        {
            "settings": settings.public_dict(),
            "schools": len(agent.session.district.schools),
            "district": record,
        },
        settings.seed,
        "School scheduling chat",
    )
    record_messages(store, run_id, opening.messages)
    st.session_state[AGENT], st.session_state[RUN] = agent, run_id
    st.session_state.pop(PROBLEMS, None)


def record(turn) -> None:
    store, run_id = get_store(), st.session_state[RUN]
    record_messages(store, run_id, turn.messages)
    recorder = step_recorder(store, run_id)
    for step in turn.steps:
        recorder(step)
    store.update_run(run_id, status="active", metrics=turn.objectives)


with guard(), st.expander("District data and conversations", icon=":material/upload_file:"):
    upload = st.file_uploader(
        "District CSV (name, grade, enrollment, current_start)", type="csv", key="sched_upload"
    )
    times_text = st.text_input(
        "Start-time options (comma separated; empty = 7:50, 8:40, 9:30 AM)", key="sched_times"
    )
    if st.button("New conversation", key="sched_new", icon=":material/add_comment:"):
        start(upload.getvalue() if upload else None, times_text, upload.name if upload else "")
    runs = get_store().list_runs(WORKBENCH)
    if not runs.empty:
        chosen = st.selectbox(
            "Resume a stored conversation",
            runs["id"].tolist(),
            key="sched_resume_pick",
            format_func=lambda rid: f"{rid} · {runs.set_index('id').loc[rid, 'created_at']}",
        )
        if st.button("Resume", key="sched_resume", icon=":material/history:"):
            config = get_store().get_run(chosen)["config"] or {}
            agent = ScheduleAgent.from_settings(settings, district_from_record(config.get("district")))
            problems = agent.replay(get_store().messages(chosen).to_dict("records"))
            st.session_state[AGENT], st.session_state[RUN], st.session_state[PROBLEMS] = (
                agent,
                chosen,
                problems,
            )

with guard():
    if AGENT not in st.session_state:
        start()
if AGENT not in st.session_state:
    st.stop()
agent: ScheduleAgent = st.session_state[AGENT]
session = agent.session

for problem in st.session_state.get(PROBLEMS) or []:
    st.warning(f"Replaying the stored conversation: {problem}", icon=":material/warning:")

chat_col, model_col = st.columns([3, 2], gap="large")
with chat_col:
    for message in agent.messages[1:]:
        if message.role in ("user", "assistant") and message.content:
            with st.chat_message(message.role):
                st.markdown(message.content)
    prompt = st.chat_input("Tell the agent what you think of the schedule", key="sched_chat")
    if prompt:
        with guard(), st.spinner("Thinking and solving..."):
            record(agent.respond(prompt))
            st.rerun()

with model_col, guard():
    current, previous = session.current, session.previous
    load_card, dev_card = st.columns(2)
    load_card.metric(
        "Student load balancing",
        format_load(current.result.load),
        None if previous is None else round(current.result.load - previous.result.load, 2),
        delta_color="inverse",
    )
    dev_card.metric(
        "Schedule deviation",
        format_deviation(current.result.deviation),
        None if previous is None else round(current.result.deviation - previous.result.deviation, 1),
        delta_color="inverse",
    )
    rows = pd.DataFrame(
        schedule_rows(session.district, current.result.assignment, previous and previous.result.assignment)
    )
    st.dataframe(
        rows.style.apply(
            lambda r: ["background-color: #fff3bf" if r["changed_since_previous"] else ""] * len(r), axis=1
        ),
        hide_index=True,
        width="stretch",
        key="sched_table",
    )
    st.markdown("**Active constraints**")
    if not session.state.constraints:
        st.caption("None: this is the base model.")
    for i, constraint in enumerate(session.state.constraints):
        text_col, button_col = st.columns([4, 1])
        text_col.markdown(f"`{constraint.name}`  \n{constraint.meaning}")
        if button_col.button("Remove", key=f"sched_remove_{i}"):
            record(
                agent.act(
                    f"(removed {constraint.name} in the panel)",
                    [("remove_constraint", {"name": constraint.name}), ("call_solver", {})],
                )
            )
            st.rerun()

    frontier = session.frontier()
    figure = go.Figure()
    figure.add_scatter(
        x=[p[DEVIATION] for p in frontier],
        y=[p[LOAD] for p in frontier],
        mode="lines+markers",
        name="Pareto frontier",
    )
    for label, proposal, symbol in (("previous", previous, "circle-open"), ("current", current, "star")):
        if proposal is not None:
            figure.add_scatter(
                x=[proposal.result.deviation],
                y=[proposal.result.load],
                mode="markers",
                name=label,
                marker={"size": 16, "symbol": symbol},
            )
    figure.update_layout(
        xaxis_title="schedule_deviation (minutes)",
        yaxis_title="student_load_balancing (hundreds)",
        height=320,
        margin={"t": 20, "b": 10},
    )
    event = st.plotly_chart(figure, key="sched_frontier", on_select="rerun", selection_mode="points")
    if session.frontier_partial:
        st.caption("Partial frontier: the search stopped at its time budget.")
    choices = [i for i, p in enumerate(frontier) if not p["is_current"]]
    clicked = [
        p["point_index"]
        for p in (event or {}).get("selection", {}).get("points", [])
        if p.get("curve_number") == 0
    ]
    if clicked and clicked[0] in choices and clicked != st.session_state.get("sched_clicked"):
        st.session_state["sched_alt"] = clicked[0]
    st.session_state["sched_clicked"] = clicked
    if choices:
        pick = st.selectbox(
            "Alternative on the frontier (or click a point)",
            choices,
            key="sched_alt",
            format_func=lambda i: (
                f"peak {format_load(frontier[i][LOAD])}, change {format_deviation(frontier[i][DEVIATION])}"
            ),
        )
        if st.button("Adopt this alternative", key="sched_adopt"):
            point = frontier[pick]
            record(
                agent.act(
                    "(adopted a frontier alternative)",
                    [
                        ("add_objective_upper_bound", {"objective": LOAD, "value": point[LOAD]}),
                        ("add_objective_upper_bound", {"objective": DEVIATION, "value": point[DEVIATION]}),
                        ("call_solver", {}),
                    ],
                )
            )
            st.rerun()
    st.markdown("**Proposal history**")
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "proposal": p.number,
                    LOAD: p.result.load,
                    DEVIATION: p.result.deviation,
                    "constraints": ", ".join(p.state.names()) or "(base model)",
                }
                for p in session.proposals
            ]
        ),
        hide_index=True,
        width="stretch",
        key="sched_history",
    )
