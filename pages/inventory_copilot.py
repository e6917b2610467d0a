"""Inventory Copilot: chat on the left, the live parameter table on the right, the policy and its artifacts below.

A thin view over `core.inventory.copilot.session.Copilot`, which runs extraction, optimization, the critic and the
interpretation and records everything in the run store.
"""

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core import ui_keys
from core.errors import OrcaError
from core.eta import Pace
from core.inventory.copilot.session import WORKBENCH, Copilot, CopilotConfig
from core.inventory.policy_names import plain_name, plain_value
from core.inventory.simulator.charts import cost_bars, wrap_label
from core.inventory.simulator.inputs import policy_handoff
from core.ui import (
    READ_ONLY_NOTE,
    RESUME_HELP,
    guard,
    keep_run_in_url,
    optional_store,
    plotly_chart,
    presenting,
    resume_labels,
    resume_leased,
    run_to_open,
    session_owner,
    setup_page,
    show_error,
    switch_to_offline,
)
from solvers.inventory.agent import EVAL_SEED_OFFSET
from solvers.inventory.parameters import PARAMETER_LABELS

K = "orca_copilot_"
NEW = "__new__"
UNSENT, RESEND = f"{K}unsent", f"{K}resend"
SIMULATOR = "pages/policy_simulator.py"
STATUS_ICONS = {"defined": "✅ defined", "undefined": "⬜ undefined"}
CHAT_PX, TABLE_PX = 560, 460
# Presentation mode (1024 x 768): heading, the last turns, the chat box (in the chat column, not pinned to the
# window's bottom, which would scroll the page down to it) and the table's head all above the fold.
PRESENT_CHAT_PX, PRESENT_TABLE_PX = 300, 340

settings = setup_page(
    "Inventory Copilot",
    "Describe your stock problem in your own words. The copilot fills the parameter table, asks about what is "
    "missing or contradictory, then computes a policy and explains it. Edit a table cell directly if you prefer.",
)
store = optional_store()
use_dqn = st.sidebar.toggle(
    "Also train a DQN (slower)",
    key=f"{K}dqn",
    help="New conversations also train a Deep Q-Network (up to 30 s). You can also ask for it in the chat.",
)


def _config() -> CopilotConfig:
    return CopilotConfig(seed=settings.seed, use_dqn=use_dqn)


def _start_new() -> None:
    try:
        copilot = Copilot(settings, store, _config(), lease_owner=session_owner())
    except OrcaError as err:  # e.g. an LLM provider without a key: shown, the page stays usable
        st.session_state[f"{K}error"] = err
        st.session_state.pop(f"{K}session", None)
        return
    copilot.greeting()
    st.session_state[f"{K}session"] = copilot
    st.session_state[f"{K}version"] = st.session_state.get(f"{K}version", 0) + 1


def _on_pick() -> None:
    keep_run_in_url(None)  # the chosen conversation replaces the one in the URL (set again once it has a run)
    choice = st.session_state[f"{K}pick"]
    if choice == NEW:
        _start_new()
        return
    try:
        st.session_state[f"{K}session"] = resume_leased(Copilot.resume, store, choice, settings)
    except Exception as err:  # shown after the rerun; an unexpected error is still a traceback there
        st.session_state[f"{K}error"] = err
    st.session_state[f"{K}version"] = st.session_state.get(f"{K}version", 0) + 1


def _on_restart() -> None:
    keep_run_in_url(None)
    st.session_state[f"{K}pick"] = NEW
    _start_new()


def _resend(offline: bool) -> None:
    if offline:
        switch_to_offline()
    st.session_state[RESEND] = st.session_state.pop(UNSENT, "")


def _labels(keys) -> str:
    return ", ".join(PARAMETER_LABELS.get(k, k) for k in keys)


def _cell(value: object) -> str:
    return "" if value is None or pd.isna(value) else str(value).strip()


current = st.session_state.get(f"{K}session")
if wanted := run_to_open(store, f"{K}url_tried", current.run_id if current is not None else None):
    try:
        st.session_state[f"{K}session"] = resume_leased(Copilot.resume, store, wanted, settings)
        st.session_state[f"{K}pick"] = wanted
    except OrcaError as err:
        st.session_state[f"{K}error"] = err
    st.session_state[f"{K}version"] = st.session_state.get(f"{K}version", 0) + 1
if f"{K}session" not in st.session_state:
    _start_new()
if f"{K}session" not in st.session_state:
    show_error(st.session_state.pop(f"{K}error"))
    st.stop()
copilot: Copilot = st.session_state[f"{K}session"]

with guard():
    labels = resume_labels(store, WORKBENCH)
    if copilot.run_id and copilot.run_id not in labels:
        labels[copilot.run_id] = copilot.run_id
    if st.session_state.get(f"{K}pick", NEW) not in labels:
        st.session_state[f"{K}pick"] = NEW
    pick, restart = st.columns([4, 1], vertical_alignment="bottom")
    pick.selectbox(
        "Resume a conversation",
        [NEW, *labels],
        format_func=lambda rid: "New conversation" if rid == NEW else labels.get(rid, rid),
        key=f"{K}pick",
        on_change=_on_pick,
        help=RESUME_HELP,
    )
    restart.button("Restart", key=f"{K}restart", on_click=_on_restart, icon=":material/restart_alt:")

if (pending := st.session_state.pop(f"{K}error", None)) is not None:
    show_error(pending)

if copilot.read_only:
    st.warning(READ_ONLY_NOTE, icon=":material/lock:")
present = presenting()
chat_col, table_col = st.container(key="orca_split_copilot").columns([3, 2], gap="large")
status = chat_col.empty()
OPTIMIZING = Pace()  # this run's turn: the optimizer's time left at its pace so far
unsent_slot = chat_col.container() if present else chat_col
history = chat_col.container(height=PRESENT_CHAT_PX, border=True) if present else None
prompt = (chat_col if present else st).chat_input(
    "Describe your inventory, answer a question, or ask about the policy…",
    key=f"{K}input",
    disabled=copilot.read_only,
)


def _progress(fraction: float, message: str) -> None:
    share = min(max(fraction, 0.0), 1.0)
    status.progress(share, text=OPTIMIZING.text(f"Optimizing: {message}", share))


if (resend := st.session_state.pop(RESEND, None)) is not None:
    if copilot.settings != settings:  # switched provider: the same conversation, with the new agents
        with guard():
            if copilot.run_id and store is not None:
                copilot = resume_leased(Copilot.resume, store, copilot.run_id, settings)
                st.session_state[f"{K}session"] = copilot
            else:
                _start_new()
                copilot = st.session_state.get(f"{K}session", copilot)
    prompt = prompt or resend
if prompt:
    try:
        copilot.respond(prompt, progress=_progress)
    except OrcaError as err:  # e.g. the provider failed: the typed message is kept to send again
        st.session_state[UNSENT] = prompt
        show_error(err)
    else:
        st.session_state.pop(UNSENT, None)
    status.empty()
    st.session_state[f"{K}version"] = st.session_state.get(f"{K}version", 0) + 1
if (unsent := st.session_state.get(UNSENT)) is not None:
    with unsent_slot.container(border=True):
        st.markdown("**Not sent yet** (kept for you):")
        st.text(unsent)
        again, offline, drop = st.columns(3)
        again.button("Send again", key=f"{K}send_again", on_click=_resend, args=(False,), icon=":material/send:")
        offline.button(
            "Send with the Offline agents",
            key=f"{K}send_offline",
            on_click=_resend,
            args=(True,),
            icon=":material/cloud_off:",
            help="Switch to the built-in offline agents (Settings) and send this message with them.",
        )
        drop.button("Discard", key=f"{K}discard", on_click=lambda: st.session_state.pop(UNSENT, None))
keep_run_in_url(copilot.run_id)

with chat_col:
    history = history or st.container(height=CHAT_PX, border=True)
    for role, text in copilot.transcript():
        history.chat_message("user" if role == "user" else "assistant").markdown(text)

with table_col:
    st.subheader("Parameter table")
    table = copilot.table.to_dict()
    conflicts = copilot.table.conflicts
    for conflict in conflicts:
        if conflict.is_clarification:
            st.info(
                f"Needs your confirmation ({_labels(conflict.keys)}): {conflict.question}",
                icon=":material/help:",
            )
        else:
            st.warning(
                f"Open conflict ({_labels(conflict.keys)}): {conflict.question}", icon=":material/warning:"
            )
    in_conflict = {k for c in conflicts if not c.is_clarification for k in c.keys}
    to_confirm = {k for c in conflicts if c.is_clarification for k in c.keys} - in_conflict
    frame = pd.DataFrame(
        {
            "value": [plain_value(key, row["value"]) if row["value"] is not None else None for key, row in table.items()],
            "unit": [row["unit"] for row in table.values()],
            "status": [
                "⚠️ conflict"
                if key in in_conflict
                else "❓ needs confirmation"
                if key in to_confirm
                else STATUS_ICONS[row["status"] or "undefined"]
                for key, row in table.items()
            ],
            "assumption": [
                f"assumed: {copilot.assumptions[key]}" if key in copilot.assumptions else "" for key in table
            ],
        },
        index=pd.Index([PARAMETER_LABELS.get(key, key) for key in table], name="parameter"),
    )
    keys = dict(zip(frame.index, table, strict=True))
    editable = copilot.phase == "extract" and not copilot.read_only
    edited = st.data_editor(
        frame,
        key=f"{K}editor_{st.session_state.get(f'{K}version', 0)}",
        disabled=["unit", "status", "assumption"] if editable else True,
        column_config={"value": st.column_config.TextColumn("value", help="Edit a value to correct it")},
        width="stretch",
        height=PRESENT_TABLE_PX if present else TABLE_PX,
    )
    st.caption(
        f"{sum(r['status'] == 'defined' for r in table.values())} of {len(table)} defined"
        + ("" if editable else " · final (the policy is computed)")
    )
    with st.expander("Technical names and values", icon=":material/code:"):
        st.dataframe(
            pd.DataFrame({"parameter": list(table), "value": [row["value"] for row in table.values()]}),
            hide_index=True,
            width="stretch",
        )
    changes = [
        (keys[label], _cell(edited.at[label, "value"]))
        for label in frame.index
        if editable and _cell(edited.at[label, "value"]) not in ("", _cell(frame.at[label, "value"]))
    ]
    if changes:
        edit_status = st.empty()
        for key, value in changes:
            try:
                copilot.user_edit(
                    key,
                    value,
                    progress=lambda f, m: edit_status.progress(min(f, 1.0), text=OPTIMIZING.text(f"Optimizing: {m}", f)),
                )
            except Exception as err:  # kept for the rerun; an unexpected error is still a traceback there
                st.session_state[f"{K}error"] = err
                break
        st.session_state[f"{K}version"] = st.session_state.get(f"{K}version", 0) + 1
        st.rerun()

policy = copilot.policy
if policy is not None:
    st.divider()
    st.subheader("Recommended policy")
    a, b, c, d = st.columns(4)
    a.metric(
        "Policy",
        plain_name(policy["recommended_policy"], copilot.brief and copilot.brief.problem),
        help=f"technical name: {policy['recommended_policy']} (family {policy['recommended']})",
    )
    a.caption(policy["label"] + (" · ask me for each order" if policy["type"] == "dqn" else ""))
    b.metric("Expected cost", f"${policy['recommended_mean']:,.2f}")
    c.metric(
        "Simplest reorder rule",
        f"below {policy['s']}, top up to {policy['S']}",
        f"{policy['cost_diff_pct']:+.1f}% cost",
        delta_color="inverse",
        help=f"the (s,S) rule s={policy['s']}, S={policy['S']}, and how much more it costs than the recommendation",
    )
    critic = policy["critic"]
    d.metric(
        "Critic",
        ("passed" if all(c["ok"] for c in critic["checks"]) else "passed with warnings")
        if critic["ok"]
        else "issues",
        help="checks against capacity, max order, table",
    )
    costs = pd.DataFrame.from_dict(policy["policies"], orient="index").sort_values("mean")
    names = [plain_name(p, copilot.brief and copilot.brief.problem) for p in costs["policy"]]
    names = [n if names.count(n) == 1 else f"{n} ({k})" for n, k in zip(names, costs.index, strict=True)]
    names = [wrap_label(n) for n in names]
    figure = go.Figure(
        cost_bars(
            names,
            costs["mean"],
            [hi for _lo, hi in costs["ci95"]],
            None,
            [k == policy["recommended"] for k in costs.index],
            [f"{k}: {p}" for k, p in zip(costs.index, costs["policy"], strict=True)],
        )
    )
    figure.update_layout(
        title="Expected cost per policy (mean ± 95% CI)",
        yaxis_title="cost ($)",
        xaxis_title="policy (hover for the engine's name)",
        height=420,
        margin={"t": 50, "b": 30, "l": 60, "r": 10},
    )
    chart, checks = st.container(key="orca_split_policy").columns([3, 2])
    plotly_chart(figure, where=chart, key=f"{K}chart")
    with checks.expander("Critic checks and assumptions", expanded=False):
        for check in critic["checks"]:
            icon = "✅" if check["ok"] else ("❌" if check["severity"] == "error" else "⚠️")
            st.markdown(f"{icon} {check['message']}")
        st.markdown("**Assumptions**\n\n" + "\n".join(f"- {a}" for a in critic["assumptions"]))
    files = copilot.artifacts()
    cols = st.columns(5)
    for col, name in zip(
        cols, ("extracted_params.csv", "conversation_log.txt", "interpret.txt"), strict=False
    ):
        col.download_button(
            name,
            files.get(name, b""),
            file_name=name,
            key=f"{K}download_{name}",
            disabled=name not in files,
            help=None if name in files else "Saved when you finish the Q&A (say 'that's all').",
            icon=":material/download:",
        )
    cols[3].download_button(
        "deployment_artifacts.zip",
        copilot.deployment_zip(),
        file_name="deployment_artifacts.zip",
        key=f"{K}download_zip",
        icon=":material/folder_zip:",
    )
    if cols[4].button("Open in Policy Simulator", key=f"{K}simulator", icon=":material/monitoring:"):
        brief = copilot.brief
        st.session_state[ui_keys.SIMULATOR_PARAMS_CSV] = files["extracted_params.csv"].decode()
        st.session_state[ui_keys.SIMULATOR_POLICY] = policy_handoff(
            brief.rule, brief.recommended_policy, brief.paths, brief.seed + EVAL_SEED_OFFSET
        ).to_dict()
        st.switch_page(SIMULATOR)
