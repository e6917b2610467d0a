"""RetailBench: run a supermarket for up to 180 days with a chosen agent, watch it live, stop it, open it in the replay."""

import streamlit as st

from core import ui_keys
from core.errors import SpecError
from core.llm.factory import make_chat_model
from core.retail.frameworks import FRAMEWORKS
from core.retail.live import LiveRun
from core.retail.paper import HARNESSES
from core.retail.run import OFFLINE_AGENTS, agent_kind
from core.ui import guard, optional_store, setup_page
from solvers.retail.config import PRESETS

LIVE = "orca_retail_live"
REPLAY_RUN = ui_keys.RETAIL_REPLAY_RUN
SHOWN = ("funds", "net_worth", "sales_units", "stockout_skus")

settings = setup_page(
    "RetailBench",
    "A single-store supermarket (seeds 004 and 001): 96 products, five suppliers each, news, reviews, returns, "
    "rent every day. Pick an agent and run it; the run is stored and opens in the replay. Offline agents are "
    "labelled offline everywhere; the LLM frameworks need an API key in Settings.",
)
store = optional_store()
llm_ready = settings.provider != "offline"

with guard():
    left, mid, right, last = st.columns([3, 2, 1, 1])
    choices = [*OFFLINE_AGENTS, *FRAMEWORKS]
    agent = left.selectbox(
        "Agent",
        choices,
        key="orca_retail_agent",
        format_func=lambda a: (
            f"{a} — {agent_kind(a)}" + ("" if a in OFFLINE_AGENTS or llm_ready else " (needs a key)")
        ),
    )
    preset = mid.selectbox(
        "Preset", list(PRESETS), index=list(PRESETS).index("hard_v2"), key="orca_retail_preset"
    )
    seed = right.number_input("Seed", 0, 10_000, 0, key="orca_retail_seed")
    days = last.number_input("Days", 1, 1500, 180, key="orca_retail_days")
    harness = "orca"
    if agent in FRAMEWORKS:
        harness = st.radio(
            "Harness", HARNESSES, horizontal=True, key="orca_retail_harness",
            help="orca: ORCA's tool loop (native tool calls, one action per reply). paper: the original runners' "
            "loop (text <tool_call> blocks, every call of a turn in order, 50 turns a day). docs/retailbench.md",
        )  # fmt: skip
    if agent in FRAMEWORKS and not llm_ready:
        st.info(
            f"{agent} is an LLM framework: choose a provider and key in Settings. No offline stand-in is used."
        )
    live: LiveRun | None = st.session_state.get(LIVE)
    running = live is not None and not live.done
    if st.button("Start run", type="primary", disabled=running, key="orca_retail_start"):
        if agent in FRAMEWORKS and not llm_ready:
            raise SpecError("agent", f"{agent} needs an LLM provider with a key (Settings)")
        model = make_chat_model(settings) if agent in FRAMEWORKS else None
        st.session_state[LIVE] = LiveRun(agent, preset=preset, days=int(days), seed=int(seed), model=model,
                                         store=store, harness=harness).start()  # fmt: skip
        st.rerun()


def progress() -> None:
    live: LiveRun | None = st.session_state.get(LIVE)
    if live is None:
        st.caption("No run yet: pick an agent and press Start run.")
        return
    state = live.state()
    st.progress(min(state["day"] / max(state["days"], 1), 1.0),
                text=f"{live.agent} ({agent_kind(live.agent, live.harness if live.model else None)}) · day {state['day']} of {state['days']} · "
                     f"{state['steps']} tool calls · {state['status']}")  # fmt: skip
    if state["series"]:
        last_day = state["series"][-1]
        cols = st.columns(4)
        cols[0].metric("Funds", f"{last_day['funds']:,.0f}")
        cols[1].metric("Net worth", f"{last_day['net_worth']:,.0f}")
        cols[2].metric("Units sold today", f"{last_day['sales_units']:,}")
        cols[3].metric("Stocked-out SKUs", f"{last_day['stockout_skus']}")
        st.line_chart({k: [row[k] for row in state["series"]] for k in ("funds", "net_worth")}, height=260)
    if not live.done:
        if st.button("Stop", key="orca_retail_stop"):
            live.stop()
        return
    if st.session_state.get("orca_retail_polling"):
        st.session_state["orca_retail_polling"] = False
        st.rerun()  # leave the polling fragment
    if state["error"]:
        st.warning(f"The run ended: {state['error']}")
    if state["run_id"]:
        st.session_state[REPLAY_RUN] = state["run_id"]
        st.success(f"Stored as run {state['run_id']} ({state['status']}).")
        if st.button("Open in the replay", key="orca_retail_open_replay", icon=":material/replay:"):
            st.switch_page("pages/retailbench_replay.py")
    elif store is None:
        st.caption("No run store is configured, so the run was not saved.")


current = st.session_state.get(LIVE)
polling = current is not None and not current.done
st.session_state["orca_retail_polling"] = polling
st.fragment(progress, run_every=1.0 if polling else None)()
