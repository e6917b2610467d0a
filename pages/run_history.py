"""Run history: browse every stored run, replay its conversation and steps, download it."""

import json
from pathlib import Path

import streamlit as st

from core.catalog import by_key, title_of
from core.inventory.simulator.charts import comparison_figure
from core.inventory.simulator.session import stored_comparison
from core.runlog import transcript
from core.ui import (
    RUN_PARAM,
    get_store,
    guard,
    line_chart,
    number_columns,
    plotly_chart,
    setup_page,
    share_run_link,
)

TRANSITION_ROWS = 200
"""Transitions per page of the Transitions tab (a 180-day run has thousands; each row is JSON)."""
PAGES_PRESENT = {p.name for p in (Path(__file__).parent).glob("*.py")}

setup_page(
    "Run history",
    "Every workbench run is stored in the local DuckDB file named in Settings. "
    "Pick one to replay its conversation and steps, or download it.",
)

with guard():
    store = get_store()
    runs = store.list_runs(limit=500)
    if runs.empty:
        st.info("No runs yet. Chat with a copilot or run a simulation, and it will appear here.")
        st.stop()
    workbenches = ["all", *sorted(runs["workbench"].unique())]
    chosen = st.selectbox(
        "Workbench",
        workbenches,
        key="orca_history_workbench",
        format_func=lambda key: "All workbenches" if key == "all" else title_of(key),
    )
    shown = runs if chosen == "all" else runs[runs["workbench"] == chosen]
    st.dataframe(
        shown[["id", "workbench", "title", "status", "created_at", "n_messages", "n_steps"]].assign(
            workbench=lambda f: f["workbench"].map(lambda key: title_of(key)),
            title=lambda f: f["title"].fillna("—"),
        ),
        hide_index=True,
        width="stretch",
        column_config={"n_messages": "messages", "n_steps": "steps", "created_at": "created"},
    )
    run_id = st.selectbox(
        "Run",
        shown["id"].tolist(),
        key="orca_history_run",
        format_func=lambda rid: f"{rid} · {shown.set_index('id').loc[rid, 'title'] or '(untitled)'}",
    )
    run = store.get_run(run_id)
    left, right = st.columns(2)
    left.markdown(
        f"**Status:** {run['status']}  \n**Seed:** {run['seed']}  \n**Created:** {run['created_at']}"
    )
    workbench = by_key(run["workbench"])
    openable = workbench is not None and Path(workbench.page).name in PAGES_PRESENT
    if openable and left.button(f"Open in {workbench.title}", key="orca_history_open", icon=":material/open_in_new:"):
        st.switch_page(workbench.page, query_params={RUN_PARAM: run_id})
    if openable:
        with left:
            share_run_link(workbench.page, run_id)
    right.json({"config": run["config"], "metrics": run["metrics"]}, expanded=False)
    comparison = stored_comparison(store, run_id)
    if comparison is not None:
        st.markdown("**Policy comparison** (as the Policy Simulator showed it)")
        st.dataframe(
            comparison, hide_index=True, width="stretch", key="orca_history_comparison",
            column_config={**number_columns(comparison),
                           "fill_rate": st.column_config.NumberColumn("fill rate", format="percent")},  # fmt: skip
        )
        plotly_chart(comparison_figure(comparison), key="orca_history_comparison_chart")
    conversation, steps, transitions, artifacts = st.tabs(["Conversation", "Steps", "Transitions", "Artifacts"])
    with conversation:
        messages = store.messages(run_id)
        if messages.empty:
            st.caption("This run has no conversation.")
        for speaker, text, tool_calls in transcript(messages.to_dict("records")):
            if speaker == "app":
                st.caption(f"The app asked the agent: “{text}”")
            elif speaker == "tool":
                with st.expander("Tool result", icon=":material/build:"):
                    st.code(text, language="json", wrap_lines=True)
            else:
                with st.chat_message("user" if speaker == "user" else "assistant"):
                    if text:
                        st.markdown(text)
                    if tool_calls:
                        st.caption("Tool calls")
                        st.json(tool_calls, expanded=False)
    with steps:
        frame = store.steps(run_id)
        if frame.empty:
            st.caption("This run recorded no steps.")
        else:
            totals = frame[["input_tokens", "output_tokens", "latency_ms"]].sum()
            a, b, c = st.columns(3)
            a.metric("Input tokens", f"{int(totals['input_tokens']):,}")
            b.metric("Output tokens", f"{int(totals['output_tokens']):,}")
            c.metric("Total latency", f"{totals['latency_ms'] / 1000:.2f} s")
            view = frame.assign(payload=frame["payload"].map(lambda p: json.dumps(p, default=str)[:300]))
            shown_steps = view[["step", "kind", "payload", "input_tokens", "output_tokens", "latency_ms"]]
            st.dataframe(shown_steps, hide_index=True, width="stretch",
                         column_config=number_columns(shown_steps, latency_ms="%.0f ms"))  # fmt: skip
    with transitions:
        rewards = store.transition_rewards(run_id)
        if rewards.empty:
            st.caption("This run has no environment steps (only rollouts of an environment record them).")
        else:
            cumulative = rewards[["t"]].assign(**{"cumulative reward": rewards["reward"].cumsum()})
            line_chart(cumulative, "t", ["cumulative reward"], height=220, x_title="Step (t)",
                       y_title="Cumulative reward")  # fmt: skip
            pages = max(1, -(-len(rewards) // TRANSITION_ROWS))
            page = 1
            if pages > 1:
                page = int(st.number_input(
                    f"Page of {TRANSITION_ROWS} steps (1–{pages})", 1, pages, 1, key="orca_history_transition_page"
                ))  # fmt: skip
            first = int(rewards["t"].iloc[(page - 1) * TRANSITION_ROWS])
            last = int(rewards["t"].iloc[min(page * TRANSITION_ROWS, len(rewards)) - 1])
            moves = store.transitions(run_id, first, last + 1)
            view = moves.assign(
                action=moves["action"].map(lambda a: json.dumps(a, default=str)[:200]),
                observation=moves["observation"].map(lambda o: json.dumps(o, default=str)[:200]),
                info=moves["info"].map(lambda i: json.dumps(i, default=str)[:300]),
            )
            shown_moves = view[["t", "action", "reward", "observation", "info", "input_tokens", "output_tokens",
                                "latency_ms"]]  # fmt: skip
            st.dataframe(shown_moves, hide_index=True, width="stretch",
                         column_config=number_columns(shown_moves, latency_ms="%.0f ms"))  # fmt: skip
            st.caption(f"Steps {first:,}–{last:,} of {len(rewards):,}; the JSON download has them all.")
    with artifacts:
        files = store.artifacts(run_id)
        if files.empty:
            st.caption("This run saved no artifacts.")
        for row in files.itertuples():
            st.download_button(
                f"Download {row.name}",
                store.get_artifact(run_id, row.name),
                file_name=row.name,
                key=f"orca_history_art_{row.name}",
            )
    st.download_button(  # built on click: a long run's JSON took about 2 s of every visit
        "Download this run as JSON",
        lambda: json.dumps(store.export_run_json(run_id), indent=2, default=str),
        file_name=f"orca-run-{run_id}.json",
        mime="application/json",
        key="orca_history_json",
    )
