"""RetailBench: run a supermarket for up to 180 days with a chosen agent, watch it live, stop it, open it in the
replay; or play it yourself through the same tools (core.retail.human)."""

import datetime as dt

import streamlit as st

from core import ui_keys
from core.errors import SpecError
from core.llm.factory import make_chat_model
from core.retail.frameworks import FRAMEWORKS
from core.retail.human import (
    HumanGame,
    catalogue,
    open_games,
    parse_order_items,
    result_table,
    status,
    view_fields,
    view_tools,
)
from core.retail.live import LiveRun, eta_text, money_chart
from core.retail.paper import HARNESSES
from core.retail.run import OFFLINE_AGENTS, agent_kind
from core.rollout import RolloutStatus
from core.ui import (
    guard,
    number_columns,
    open_url_run,
    optional_store,
    resume_leased,
    session_owner,
    setup_page,
    show_run_link,
    vega_lite_chart,
)
from core.ui import (
    llm_ready as core_llm_ready,
)
from solvers.retail.catalog import SUPPLIER_IDS
from solvers.retail.config import PRESETS

LIVE = "orca_retail_live"
REPLAY_RUN = ui_keys.RETAIL_REPLAY_RUN
SHOWN = ("funds", "net_worth", "sales_units", "stockout_skus")
GAME = "orca_retail_game"
MODES = ("Run an agent", "Play it yourself")
REPLAY_PAGE = "pages/retailbench_replay.py"
URL_TRIED = "orca_retail_url_tried"

settings = setup_page(
    "RetailBench",
    "A single-store supermarket (seeds 004 and 001): 96 products, five suppliers each, news, reviews, returns, "
    "rent every day. Pick an agent and run it; the run is stored and opens in the replay. Offline agents are "
    "labelled offline everywhere; the LLM frameworks need an API key in Settings.",
)
store = optional_store()
llm_ready = core_llm_ready(settings)  # an LLM provider with its key
if wanted := open_url_run(store, URL_TRIED, "retailbench"):  # a run's link (from Run history): the replay shows it
    st.switch_page(REPLAY_PAGE, query_params={"run": wanted})


def start_game() -> None:
    """The new-game form, or a button to pick up an open game of the store."""
    cols = st.columns([2, 1, 1, 2])
    preset = cols[0].selectbox("Preset", list(PRESETS), index=list(PRESETS).index("hard_v2"), key="orca_retail_h_preset")
    seed = cols[1].number_input("Seed", 0, 10_000, 0, key="orca_retail_h_seed")
    days = cols[2].number_input("Days", 1, 1500, 30, key="orca_retail_h_days")
    if cols[3].button("Start game", type="primary", key="orca_retail_h_start"):
        game = HumanGame.new(store, preset=preset, days=int(days), seed=int(seed), lease_owner=session_owner())
        st.session_state[GAME] = game
        if game.run_id:
            st.query_params["game"] = game.run_id
        st.rerun()
    if store is not None and (ids := open_games(store)):
        pick = st.selectbox("…or continue an open game", ids, key="orca_retail_h_open")
        if st.button("Continue", key="orca_retail_h_continue"):
            st.session_state[GAME] = resume_leased(HumanGame.resume, store, pick)
            st.query_params["game"] = pick
            st.rerun()


def play(game: HumanGame, name: str, arguments: dict | None = None) -> None:
    """Play one checked action and keep the page's view of it."""
    game.play(name, arguments)
    st.session_state["orca_retail_h_last"] = name
    st.rerun()


def last_result(game: HumanGame) -> None:
    if game.last is None or "orca_retail_h_last" not in st.session_state:
        return
    name, result = st.session_state["orca_retail_h_last"], game.last.get("result")
    if isinstance(result, dict) and result.get("error"):
        st.error(f"{name}: {result['error']}", icon=":material/error:")
    elif name == "end_today":
        st.success(f"Day closed: {game.last.get('formatted', '')[:400]}")
    else:
        st.success(f"{name}: {game.last.get('formatted', '')[:400]}")
        table = result_table(result)
        st.dataframe(table, hide_index=True, height=220, column_config=number_columns(table))


def action_forms(game: HumanGame) -> None:
    """Orders, prices, shelf and notes: one form each; every value is checked like the agents' calls."""
    products = catalogue(game)
    skus = list(products["sku_id"])
    label = dict(zip(products["sku_id"], products["sku_id"] + " · " + products["description"], strict=True))
    order, price, shelf, note = st.tabs(["Order", "Price", "Shelf", "Notes"])
    with order, st.form("orca_retail_h_order_form"):
        a, b, c = st.columns([3, 1, 1])
        sku = a.selectbox("SKU", skus, format_func=label.get, key="orca_retail_h_order_sku")
        qty = b.number_input("Quantity", 1, 100_000, 10, key="orca_retail_h_order_qty")
        supplier = c.selectbox("Supplier", SUPPLIER_IDS, key="orca_retail_h_order_supplier")
        more = st.text_input("More lines from the same supplier (SKU:QUANTITY, …)", key="orca_retail_h_order_more")
        if st.form_submit_button("Place order"):
            items = [{"sku_id": sku, "quantity": int(qty)}, *(parse_order_items(more) if more.strip() else [])]
            play(game, "place_order", {"items": items, "supplier_id": supplier})
    with price, st.form("orca_retail_h_price_form"):
        a, b = st.columns([3, 1])
        sku = a.selectbox("SKU", skus, format_func=label.get, key="orca_retail_h_price_sku")
        new = b.number_input("New price ($)", 0.01, 10_000.0, 1.0, step=0.05, format="%.2f", key="orca_retail_h_price")
        if st.form_submit_button("Set price"):
            play(game, "modify_sku_price", {"sku_id": sku, "new_price": float(new)})
    with shelf, st.form("orca_retail_h_shelf_form"):
        cap = game.env.config.shelf_sku_capacity if game.env.config.enable_shelf_constraint else None
        chosen = st.multiselect(f"SKUs on the shelf (at most {cap})" if cap else "SKUs on the shelf", skus,
                                default=list(products.loc[products["on_shelf"], "sku_id"]), format_func=label.get,
                                max_selections=cap, key="orca_retail_h_shelf")  # fmt: skip
        if st.form_submit_button("Set shelf"):
            play(game, "set_shelf_skus", {"sku_ids": chosen})
    with note, st.form("orca_retail_h_note_form"):
        text = st.text_input("Note", key="orca_retail_h_note")
        if st.form_submit_button("Add note"):
            play(game, "add_note", {"content": text})
    with st.expander("Products (price, on hand, shelf)"):
        st.dataframe(products, hide_index=True, height=260,
                     column_config={"price": st.column_config.NumberColumn("price", format="$%.2f")})  # fmt: skip


def view_form(game: HumanGame) -> None:
    """Any view tool with its arguments; the result is shown as a table."""
    skus = list(game.env.sim.sku_ids) if game.env.sim else []
    name = st.selectbox("View", view_tools(game.env), key="orca_retail_h_view")
    today = dt.date.fromisoformat(status(game)["date"])
    args: dict = {}
    with st.form("orca_retail_h_view_form"):
        for arg, required in view_fields(game.env, name):
            key = f"orca_retail_h_view_{arg}"
            if arg == "sku_ids":
                args[arg] = st.multiselect("SKUs", skus, default=skus[:3], key=key)
            elif arg == "sku_id":
                args[arg] = st.selectbox("SKU", skus, key=key)
            elif arg in ("start_date", "end_date"):
                back = 14 if arg == "start_date" else 1
                args[arg] = st.date_input(arg.replace("_", " "), today - dt.timedelta(days=back), key=key).isoformat()
            elif arg == "supplier_id":
                args[arg] = st.selectbox("Supplier", SUPPLIER_IDS if required else ("", *SUPPLIER_IDS), key=key)
            elif arg == "code":
                args[arg] = st.text_area("Python code", "funds", key=key)
            else:
                args[arg] = st.text_input(arg.replace("_", " "), key=key)
        if st.form_submit_button("View"):
            play(game, name, {k: v for k, v in args.items() if v not in ("", None)})


def play_view() -> None:
    """A student's game: status, the last result, the action forms, the view tools, End day."""
    game: HumanGame | None = st.session_state.get(GAME)
    wanted = st.query_params.get("game")
    if game is None and wanted and store is not None:  # a reload: the game is in the URL and the store
        game = st.session_state[GAME] = resume_leased(HumanGame.resume, store, wanted)
    if game is None:
        st.caption("Play the store yourself through the same 21 tools as the agents. The game is stored as a run "
                   "(agent human, labelled human (student)) and opens in the replay and in Table 1.")  # fmt: skip
        start_game()
        return
    now = status(game)
    st.progress(min(now["day"] / max(now["days"], 1), 1.0),
                text=f"human (student) · day {now['day']} of {now['days']} · {now['date']} · {now['steps']} tool calls")  # fmt: skip
    cols = st.columns(3)
    cols[0].metric("Funds", f"${now['funds']:,.2f}")
    cols[1].metric("Net worth", f"${now['net_worth']:,.2f}")
    cols[2].metric("Run", game.run_id or "not stored")
    if game.done:
        st.success(f"Game over ({game.result.status}); stored as run {game.run_id}." if game.run_id else "Game over.")
        if game.run_id:
            st.session_state[REPLAY_RUN] = game.run_id
            show_run_link(REPLAY_PAGE, game.run_id)
        if st.button("New game", key="orca_retail_h_new"):
            st.session_state.pop(GAME, None)
            st.query_params.pop("game", None)
            st.rerun()
        return
    last_result(game)
    action_forms(game)
    view_form(game)
    a, b = st.columns(2)
    if a.button("End day", type="primary", key="orca_retail_h_end"):
        play(game, "end_today")
    if b.button("Stop the game", key="orca_retail_h_stop"):
        game.finish(RolloutStatus.STOPPED)
        st.rerun()


mode = st.radio("Mode", MODES, index=1 if st.query_params.get("game") else 0, horizontal=True,
                key="orca_retail_mode", label_visibility="collapsed")  # a game in the URL opens in play mode
if mode == MODES[1]:
    with guard():
        play_view()
    st.stop()

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
    eta = eta_text(state["eta_s"])
    st.progress(min(state["day"] / max(state["days"], 1), 1.0),
                text=f"{live.agent} ({agent_kind(live.agent, live.harness if live.model else None)}) · day {state['day']} of {state['days']} · "
                     f"{state['steps']} tool calls · {state['status']}" + (f" · {eta}" if eta else ""))  # fmt: skip
    if state["series"]:
        last_day = state["series"][-1]
        cols = st.columns(4)
        cols[0].metric("Funds", f"${last_day['funds']:,.0f}")
        cols[1].metric("Net worth", f"${last_day['net_worth']:,.0f}")
        cols[2].metric("Units sold today", f"{last_day['sales_units']:,}")
        cols[3].metric("Stocked-out SKUs", f"{last_day['stockout_skus']}")
        data, spec = money_chart(state["series"])
        vega_lite_chart(data, spec, width="stretch")
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
        show_run_link(REPLAY_PAGE, state["run_id"], URL_TRIED)
        if st.button("Open in the replay", key="orca_retail_open_replay", icon=":material/replay:"):
            st.switch_page(REPLAY_PAGE)
    elif store is None:
        st.caption("No run store is configured, so the run was not saved.")


current = st.session_state.get(LIVE)
polling = current is not None and not current.done
st.session_state["orca_retail_polling"] = polling
st.fragment(progress, run_every=1.0 if polling else None)()
