"""School Scheduling: negotiate start times with the T-P-P agent over the start-time MILP (seed 003).

A thin view: each part of the page is one function below, called in page order at the end of the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from core.config import Settings
from core.errors import OrcaError
from core.schedule.chart import (
    FrontierClick,
    adoptable,
    dominated,
    frontier_figure,
    frontier_key,
    option_labels,
)
from core.schedule.opening import OpeningJob, Progress, default_opening, frontier_in_background
from core.schedule.processing import (
    OBJECTIVE_LABELS,
    format_deviation,
    format_load,
    proposal_rows,
    proposals_csv,
    schedule_csv,
    schedule_rows,
)
from core.schedule.recording import WORKBENCH, DistrictChoice, RecordedChat, district_table, preview_district
from core.store import Store
from core.ui import (
    READ_ONLY_NOTE,
    RESUME_HELP,
    csv_download,
    guard,
    keep_run_in_url,
    open_url_run,
    optional_store,
    plotly_chart,
    resume_labels,
    resume_leased,
    session_owner,
    setup_page,
    switch_to_offline,
)
from solvers.schedule.model import DEVIATION, LOAD

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

    from core.schedule.session import ScheduleSession

CHAT, CLICK = "sched_session", "sched_click"
CHOSEN = "sched_chosen"  # (district, its opening job): a new chat waiting for its proposal, solved in the background
UNSENT, RESEND, REBUILD = "sched_unsent", "sched_resend", "sched_rebuild"
SCHEDULE_COLUMNS = {  # the key columns fit a laptop; rows that changed are highlighted
    "school": st.column_config.TextColumn("school", width="medium"),
    "enrollment": st.column_config.NumberColumn("students", width="small"),
    "current_start": st.column_config.TextColumn("current", width="small"),
    "proposed_start": st.column_config.TextColumn("proposed", width="small"),
    "shift_minutes": st.column_config.NumberColumn(
        "change", width="small", help="minutes later (+) or earlier (−) than today"
    ),
    "changed_since_previous": st.column_config.CheckboxColumn("changed"),
}
HISTORY_COLUMNS = {
    "proposal": st.column_config.NumberColumn("#", width="small"),
    OBJECTIVE_LABELS[LOAD]: st.column_config.NumberColumn(
        "peak", width="small", format="%.2f", help="Student load balancing: peak in hundreds of students"
    ),
    OBJECTIVE_LABELS[DEVIATION]: st.column_config.NumberColumn(
        "avg change", width="small", format="%.1f", help="Schedule deviation: mean change in minutes"
    ),
    "constraints": st.column_config.TextColumn("constraints", width="medium"),
}


def _resend(offline: bool) -> None:
    if offline:
        switch_to_offline()
        st.session_state[REBUILD] = True
    st.session_state[RESEND] = st.session_state.pop(UNSENT, "")


def begin(chat: RecordedChat) -> None:
    st.session_state[CHAT], st.session_state[CLICK] = chat, FrontierClick()
    st.session_state.pop(CHOSEN, None)


def start_chat(store: Store | None, settings: Settings, chosen: DistrictChoice | None) -> None:
    """A new conversation on the chosen district (None: the shipped one), its opening taken from its job."""
    chosen = chosen or DistrictChoice()
    begin(RecordedChat.start(store, settings, chosen.csv, chosen.start_times, chosen.filename,
                             lease_owner=session_owner()))  # fmt: skip


def pending_opening() -> tuple[OpeningJob, DistrictChoice | None]:
    """The opening a new chat waits for: the chosen district's (after the button), else the shipped one's."""
    chosen, job = st.session_state.get(CHOSEN) or (None, default_opening())
    return job, chosen


def district_and_conversations(store: Store | None, settings: Settings) -> None:
    """Upload a district (previewed), start a conversation with it or the default one, or resume a stored one."""
    upload = st.file_uploader(
        "District CSV (name, grade, enrollment, current_start)", type="csv", key="sched_upload"
    )
    times_text = st.text_input(
        "Start-time options (comma separated; empty = 7:50, 8:40, 9:30 AM)", key="sched_times"
    )
    if upload is not None:
        preview = preview_district(upload.getvalue(), times_text, upload.name)
        st.dataframe(preview, hide_index=True, width="stretch", height=220, key="sched_upload_preview")
        st.info(
            f"{upload.name}: {len(preview)} schools read. Nothing changes until you press **Start a conversation "
            "with this district**: the agent then solves it and proposes a first schedule.",
            icon=":material/arrow_downward:",
        )
    label = "Start a conversation with this district" if upload is not None else "New conversation"
    if st.button(
        label, key="sched_new", icon=":material/add_comment:", type="primary" if upload else "secondary"
    ):
        choice = DistrictChoice(upload.getvalue() if upload else None, times_text, upload.name if upload else "")
        choice.record()  # checked now: a bad file is an error here, not a waiting page
        keep_run_in_url(None)
        st.session_state[CHOSEN] = (choice, choice.opening())  # the page polls it like the default one
    labels = resume_labels(store, WORKBENCH)
    if labels:
        chosen = st.selectbox(
            "Resume a conversation",
            list(labels),
            key="sched_resume_pick",
            format_func=labels.get,
            help=RESUME_HELP,
        )
        if st.button("Resume", key="sched_resume", icon=":material/history:"):
            begin(resume_leased(RecordedChat.resume, store, settings, chosen))


def open_chat(store: Store | None, settings: Settings) -> RecordedChat | None:
    """The conversation named in the URL (a reload or a shared link), else this session's, else a new one once
    the opening proposal is solved (None before: the solve runs in the background); the page stops when none
    can be opened."""
    current = st.session_state.get(CHAT)
    open_run = current.recorder.run_id if current is not None else None
    if wanted := open_url_run(store, "sched_url_tried", WORKBENCH, open_run):
        with guard():
            begin(resume_leased(RecordedChat.resume, store, settings, wanted))
    if (pending := st.session_state.get(CHOSEN)) is not None:
        chosen, job = pending
        if not job.solved:
            return None
        st.session_state.pop(CHOSEN)
        with guard():
            job.base_result()  # a failed solve: its error, shown once (the previous chat stays)
            start_chat(store, settings, chosen)
    if CHAT not in st.session_state and not default_opening().solved:
        return None
    with guard():
        if CHAT not in st.session_state:
            start_chat(store, settings, None)
    if CHAT not in st.session_state:
        st.stop()
    chat: RecordedChat = st.session_state[CHAT]
    keep_run_in_url(chat.recorder.run_id)
    for problem in chat.problems:
        st.warning(f"Replaying the stored conversation: {problem}", icon=":material/warning:")
    return chat


def transcript(chat: RecordedChat, history: DeltaGenerator) -> None:
    """The conversation so far, into `history` (filled after this run's turn, so no second run shows it)."""
    for message in chat.agent.messages[1:]:
        if message.role in ("user", "assistant") and message.content:
            with history.chat_message(message.role):
                st.markdown(message.content)


def rebuilt(chat: RecordedChat, store: Store | None, settings: Settings) -> RecordedChat:
    """After a switch to the offline agents: the same conversation with a new agent (or `chat` on an error)."""
    with guard():
        run_id = chat.recorder.run_id
        begin(
            resume_leased(RecordedChat.resume, store, settings, run_id)
            if run_id and store is not None
            else RecordedChat.start(store, settings, lease_owner=session_owner())
        )
        chat = st.session_state[CHAT]
    return chat


def send(chat: RecordedChat, prompt: str) -> None:
    """One turn; on an error the typed message is kept to send again. The page shows the turn in the same run
    (the transcript and the model panel are drawn after it): no second script run per turn (issue 31)."""
    with guard(), st.spinner("Thinking and solving..."):
        try:
            chat.say(prompt)
        except OrcaError:  # e.g. the provider failed: keep the typed message to send again
            st.session_state[UNSENT] = prompt
            raise
        st.session_state.pop(UNSENT, None)
        keep_run_in_url(chat.recorder.run_id)


def unsent_box(unsent: str) -> None:
    with st.container(border=True):
        st.markdown("**Not sent yet** (kept for you):")
        st.text(unsent)
        again, offline, drop = st.columns(3)
        again.button(
            "Send again", key="sched_send_again", on_click=_resend, args=(False,), icon=":material/send:"
        )
        offline.button(
            "Send with the Offline agents",
            key="sched_send_offline",
            on_click=_resend,
            args=(True,),
            icon=":material/cloud_off:",
        )
        drop.button("Discard", key="sched_discard", on_click=lambda: st.session_state.pop(UNSENT, None))


def chat_panel(chat: RecordedChat, store: Store | None, settings: Settings) -> RecordedChat:
    """The transcript, the chat box and a kept unsent message; returns the chat (rebuilt after a switch)."""
    history = st.container(height=620, border=True)  # long chats scroll here; the panel stays in view
    if chat.recorder.read_only:
        st.warning(READ_ONLY_NOTE, icon=":material/lock:")
    prompt = st.chat_input(
        "Tell the agent what you think of the schedule", key="sched_chat", disabled=chat.recorder.read_only
    )
    if (resend := st.session_state.pop(RESEND, None)) is not None:
        if st.session_state.pop(REBUILD, False):
            chat = rebuilt(chat, store, settings)
        prompt = prompt or resend
    if prompt:
        send(chat, prompt)
    transcript(chat, history)
    if (unsent := st.session_state.get(UNSENT)) is not None:
        unsent_box(unsent)
    return chat


def change_card(
    column: DeltaGenerator, label: str, value: str, *, change: float | None, text: str, help_text: str
) -> None:
    """A metric with its change from the previous proposal: lower is better, no change is neutral."""
    column.metric(
        label,
        value,
        None if change is None else "no change" if change == 0 else text,
        delta_color="off" if change == 0 else "inverse",
        delta_arrow="off" if change == 0 else "auto",
        help=help_text,
    )


def objective_cards(session: ScheduleSession) -> None:
    current, previous = session.current, session.previous
    load_card, dev_card = st.columns(2)
    load_change = None if previous is None else round((current.result.load - previous.result.load) * 100)
    dev_change = None if previous is None else round(current.result.deviation - previous.result.deviation, 1)
    change_card(
        load_card,
        "Peak students at one start",
        f"{round(current.result.load * 100):,}",
        change=load_change,
        text=f"{load_change:+,}" if load_change else "",
        help_text=f"Student load balancing: {format_load(current.result.load)} (the peak in hundreds of students).",
    )
    change_card(
        dev_card,
        "Average change",
        format_deviation(current.result.deviation),
        change=dev_change,
        text=f"{dev_change:+.1f} min" if dev_change else "",
        help_text="Schedule deviation: the mean absolute change from today's start times.",
    )


def schedule_table(session: ScheduleSession) -> None:
    """The proposed start of every school (changes since the previous proposal highlighted) and its CSV."""
    current, previous = session.current, session.previous
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
        column_order=["school", "enrollment", "current_start", "proposed_start", "shift_minutes"],
        column_config=SCHEDULE_COLUMNS,
    )
    schedule = schedule_csv(session.district, current.result.assignment)
    name = f"schedule_proposal_{current.number}.csv"
    csv_download("Download this schedule (CSV)", schedule, name, key="sched_download")


def constraint_list(chat: RecordedChat, session: ScheduleSession) -> None:
    st.markdown("**Active constraints**")
    if not session.state.constraints:
        st.caption("None: this is the base model.")
    for i, constraint in enumerate(session.state.constraints):
        text_col, button_col = st.columns([4, 1])
        text_col.markdown(constraint.meaning)
        text_col.caption(constraint.name)
        if button_col.button("Remove", key=f"sched_remove_{i}"):
            chat.remove(constraint.name)
            st.rerun()


def progress_bar(progress: Progress) -> None:
    st.progress(progress.fraction, text=progress.text)


def opening_progress(job: OpeningJob) -> None:
    """Polled while the opening proposal is solved; the whole page reruns once it is there."""
    if job.solved:
        st.rerun()
    progress_bar(job.progress())


def frontier_progress(session: ScheduleSession) -> None:
    """Polled while the frontier is computed in the background; the whole page reruns once it is there."""
    if session.frontier_ready:
        st.rerun()
    progress_bar(frontier_in_background(session))
    st.caption(
        "The chat works meanwhile; a request for alternatives (\"show me options\") waits for the frontier."
    )


def waiting_view(job: OpeningJob, chosen: DistrictChoice | None, store: Store | None, settings: Settings) -> None:
    """The first paint (or a new district's): today's schedule and the opening's progress; a message typed now
    waits for the proposal."""
    chat_col, model_col = st.container(key="orca_split_schedule").columns([3, 2], gap="large")
    with chat_col:
        st.info(
            "The agent is solving the model for its first proposal (a second or two). You can type already: "
            "your message is answered as soon as the proposal is there.",
            icon=":material/hourglass_top:",
        )
        prompt = st.chat_input("Tell the agent what you think of the schedule", key="sched_chat")
    with model_col:
        st.fragment(opening_progress, run_every=0.5)(job)
        st.markdown("**Today's schedule**")
        st.dataframe(district_table(job.key.district), hide_index=True, width="stretch", key="sched_today")
    if prompt:
        with guard(), st.spinner("Waiting for the first proposal..."):
            job.base_result()
            start_chat(store, settings, chosen)
        if CHAT in st.session_state:
            send(st.session_state[CHAT], prompt)


def frontier_view(chat: RecordedChat, session: ScheduleSession) -> None:
    """The trade-off chart; a clicked point or the picker selects an alternative to adopt. While its frontier is
    still computing (in the background), a progress bar."""
    if not session.frontier_ready:
        st.fragment(frontier_progress, run_every=0.5)(session)
        return
    frontier = session.frontier()
    event = plotly_chart(
        frontier_figure(session, frontier), key="sched_frontier", on_select="rerun", selection_mode="points"
    )
    if session.frontier_partial:
        st.caption("Partial frontier: the search stopped at its time budget.")
    choices = adoptable(frontier)
    worse, names = dominated(frontier), option_labels(frontier)
    alt_key = (
        f"sched_alt_{frontier_key(frontier, session.district)}"  # a new district or frontier: a new picker
    )
    picked = st.session_state[CLICK].pick(event, choices)
    if picked is not None:
        st.session_state[alt_key] = picked
    if not choices:
        return
    pick = st.selectbox(
        "Alternative on the frontier (or click a point)",
        choices,
        key=alt_key,
        format_func=lambda i: (
            f"{names[i].capitalize()}: peak {format_load(frontier[i][LOAD])}, change "
            f"{format_deviation(frontier[i][DEVIATION])}"
            + (" · dominated: another option is better on both" if i in worse else "")
        ),
    )
    if st.button("Adopt this alternative", key="sched_adopt"):
        chat.adopt(frontier[pick])
        st.rerun()


def proposal_history(session: ScheduleSession) -> None:
    st.markdown("**Proposal history**")
    st.dataframe(
        pd.DataFrame(proposal_rows(session.proposals)).rename(columns=OBJECTIVE_LABELS),
        hide_index=True,
        width="stretch",
        key="sched_history",
        column_config=HISTORY_COLUMNS,
    )
    history = proposals_csv(session.proposals)
    csv_download(
        "Download the proposal history (CSV)", history, "schedule_proposals.csv", key="sched_history_download"
    )


def model_panel(chat: RecordedChat) -> None:
    """The current proposal's objectives and schedule, the constraints, the frontier and the history."""
    session = chat.agent.session
    objective_cards(session)
    schedule_table(session)
    constraint_list(chat, session)
    frontier_view(chat, session)
    proposal_history(session)


settings = setup_page(
    "School Scheduling",
    "Assign each school one of the standardized start times. The agent edits a MILP through fixed tools "
    "(fix/forbid a start, re-weight or bound an objective, remove a constraint) and re-solves with HiGHS.",
)
store = optional_store()
with guard(), st.expander("District data and conversations", icon=":material/upload_file:"):
    district_and_conversations(store, settings)
chat = open_chat(store, settings)
if chat is None:
    waiting_view(*pending_opening(), store, settings)
    st.stop()
chat_col, model_col = st.container(key="orca_split_schedule").columns([3, 2], gap="large")
with chat_col:
    chat = chat_panel(chat, store, settings)
with model_col, guard():
    model_panel(chat)
