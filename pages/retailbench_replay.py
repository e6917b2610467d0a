"""RetailBench rollout replay: a run's day timeline, each day's tool calls and decisions, a product's history,
2-4 runs side by side with Table 1, the four-stage diagnostics, downloads, and the import of original runs."""

import pandas as pd
import streamlit as st

from core import ui_keys
from core.errors import OrcaError
from core.llm.factory import make_chat_model
from core.retail import replay
from core.retail.charts import DIAGNOSTIC_FORMATS, diagnostics_figure, units_sold_figure
from core.retail.export import export_zip
from core.retail.importer import import_run_dir, import_run_zip
from core.retail.judge import MacroJudge
from core.ui import (
    get_store,
    guard,
    number_columns,
    open_url_run,
    plotly_chart,
    setup_page,
    show_error,
    show_run_link,
)
from core.ui import line_chart as ui_line_chart
from core.ui import (
    llm_ready as core_llm_ready,
)

REPLAY_RUN = ui_keys.RETAIL_REPLAY_RUN
DIAG = "orca_retail_diag"
JUDGED = "orca_retail_judged"
TAB = "orca_retail_tab"
PAGE = "pages/retailbench_replay.py"
PICKED = "orca_retail_runs"
URL_TRIED = "orca_retail_replay_url_tried"
TABS = ("Timeline", "Day", "Product", "Compare · Table 1", "Diagnostics", "Downloads")


def line_chart(frame: pd.DataFrame, x: str, columns: list[str], *, height: int, y_title: str, y_format: str,
               container=st) -> None:  # fmt: skip
    """A run's series against its days (or dates), through the shared helper `core.ui.line_chart`."""
    temporal = x == "date"
    ui_line_chart(frame, x, columns, height=height, x_title="Date" if temporal else "Day of the run",
                  y_title=y_title, y_format=y_format, temporal=temporal, where=container)  # fmt: skip


settings = setup_page(
    "RetailBench replay",
    "Browse stored RetailBench runs (ours and imported originals) day by day. Each run is labelled LLM, "
    "offline or imported; offline agents are not LLM results.",
)

llm_ready = core_llm_ready(settings)  # an LLM provider with its key

with guard():
    store = get_store()
    with st.expander("Import an original RetailBench run directory"):
        upload = st.file_uploader("A zipped run directory (with tool_calls.jsonl; at most 100 MB)", type=["zip"],
                                  key="orca_retail_import_zip")  # fmt: skip
        if upload is not None and st.button("Import the upload", key="orca_retail_import_upload"):
            try:
                st.session_state[REPLAY_RUN] = import_run_zip(store, upload.getvalue(), upload.name)
                st.success(f"Imported {upload.name} as run {st.session_state[REPLAY_RUN]}.")
            except OrcaError as err:
                show_error(err)
        path = st.text_input("…or a run directory on this server", key="orca_retail_import_path")
        if st.button("Import", key="orca_retail_import") and path.strip():
            st.session_state[REPLAY_RUN] = import_run_dir(store, path.strip())
            st.success(f"Imported as run {st.session_state[REPLAY_RUN]}.")
    runs = replay.retail_runs(store)
    wanted = open_url_run(store, URL_TRIED, "retailbench")  # a shared link: that run, selected
    if runs.empty:
        st.info(
            "No RetailBench runs yet. Start one on the RetailBench page, or import an original run above."
        )
        if st.button("Go to RetailBench", key="orca_retail_goto_run", icon=":material/storefront:"):
            st.switch_page("pages/retailbench.py")
        st.stop()
    labels = {
        r["id"]: f"{r['id']} · {r['agent']} · {r['kind']} · {r['preset']} · {r['days']} d"
        for r in runs.to_dict("records")
    }
    if wanted is not None:
        if wanted in labels:
            st.session_state[PICKED] = [wanted]
        else:
            st.warning(f"Run `{wanted}` has no RetailBench days to replay yet.", icon=":material/link_off:")
    handoff = st.session_state.get(REPLAY_RUN)
    default = [handoff] if handoff in labels else [runs["id"].iloc[0]]
    chosen = st.multiselect("Runs (up to 4)", list(labels), default=default, max_selections=4,
                            format_func=labels.get, key=PICKED)  # fmt: skip
    if not chosen:
        st.info("Pick at least one run.")
        st.stop()
    run_id = chosen[0]
    show_run_link(PAGE, run_id, URL_TRIED)
    # Lazy tabs: only the open tab's reads run (the first paint is the run list and the daily series).
    timeline, day_tab, product_tab, compare_tab, diag_tab, download_tab = st.tabs(
        list(TABS), key=TAB, on_change="rerun"
    )
    if timeline.open:
        with timeline:
            daily = replay.daily(store, run_id)
            st.caption(f"Run {labels[run_id]}")
            if daily.empty:
                st.info("This run has no closed days.")
            else:
                series = st.multiselect(
                    "Series", list(replay.SERIES), default=["funds", "net_worth"], key="orca_retail_series"
                )
                y_title, y_format = replay.value_axis(series)
                line_chart(daily, "day", series, height=320, y_title=y_title, y_format=y_format)
                money = ("funds", "net_worth", "revenue", "refunds", "money_earned", "cogs", "inventory_value")
                st.dataframe(daily, hide_index=True, height=240, column_config={
                    "date": st.column_config.DateColumn("date", format="YYYY-MM-DD"),
                    **{c: st.column_config.NumberColumn(c, format="dollar") for c in money},
                })  # fmt: skip
    if day_tab.open:
        with day_tab:
            bounds = replay.day_bounds(store, run_id)
            n_days = max(len(bounds), 1)
            day = st.slider("Day", 1, n_days, 1, key="orca_retail_day") if n_days > 1 else 1
            view = replay.day_view(replay.day_steps(store, run_id, day, bounds))
            close = view["close"] or {}
            cols = st.columns(4)
            cols[0].metric("Funds after the day", f"{close.get('funds', float('nan')):,.0f}")
            cols[1].metric("Net worth", f"{close.get('net_worth', float('nan')):,.0f}")
            cols[2].metric("Units sold", f"{sum((close.get('sales_by_sku') or {}).values()):,}")
            cols[3].metric("Stocked out", f"{len(close.get('insufficient_skus') or [])}")
            st.markdown("**Tool calls and reasoning**")
            st.dataframe(view["calls"], hide_index=True, height=260, column_config=number_columns(view["calls"]))
            a, b = st.columns(2)
            a.markdown("**Orders**")
            a.dataframe(view["orders"], hide_index=True, column_config=number_columns(view["orders"]))
            b.markdown("**Price changes**")
            b.dataframe(view["prices"], hide_index=True, column_config=number_columns(view["prices"]))
            a.markdown("**News seen**")
            a.dataframe(view["news"], hide_index=True)
            b.markdown("**Shelf set today**")
            b.write(view["shelf"] if view["shelf"] is not None else "unchanged")
    if product_tab.open:
        with product_tab:
            skus = replay.products(store, run_id)
            if not skus:
                st.info("This run has no per-product records (an imported run keeps its daily series and tool "
                        "calls only).")  # fmt: skip
            else:
                sku = st.selectbox(
                    "Product", skus, index=None, placeholder="Pick a product", key="orca_retail_sku"
                )
                if sku is not None:
                    pv = replay.product_view(store, run_id, sku)
                    if not pv["sales"].empty:
                        cols = [c for c in ("price", "reference_price") if c in pv["sales"]]
                        a, b = st.columns(2)
                        a.caption("Units sold per day")
                        plotly_chart(units_sold_figure(pv["sales"]), where=a, key="orca_retail_units_sold")
                        b.caption("Price and the reference price (the paper reference policy's rule; evaluation only)")
                        line_chart(pv["sales"], "date", cols, height=240, y_title="Price (US dollars)",
                                   y_format="$,.2f", container=b)  # fmt: skip
                    st.markdown("**Orders: supplier chosen and its hidden quality, that day's cheapest quote and the "
                                "hidden-quality-best supplier** (hidden quality is evaluation data the agent never "
                                "saw)")  # fmt: skip
                    st.dataframe(pv["orders"], hide_index=True, column_config=number_columns(pv["orders"]))
    if compare_tab.open:
        with compare_tab:
            st.dataframe(replay.table1_side_by_side(replay.table1_view(replay.table1(store, chosen))),
                         hide_index=True)
            worth = pd.concat({labels[r].split(" · ")[0] + " " + labels[r].split(" · ")[1]:
                               replay.daily(store, r).set_index("day")["net_worth"] for r in chosen}, axis=1)  # fmt: skip
            line_chart(worth.reset_index(), "day", list(worth.columns), height=300,
                       y_title="Net worth (US dollars)", y_format="$,.0f")
    if diag_tab.open:
        with diag_tab:
            st.caption("Four-stage diagnostics from the recorded tool calls. Stage 3 (QualityFirst, PriceFirst, "
                       "SupplierQual, price distance) uses the hidden supplier quality and reference prices stored with "
                       "our runs as evaluation data; PriceClose scales the price distance by the worst of the runs "
                       "shown. Offline policies plan without view calls, so their evidence scores are low by "
                       "construction.")  # fmt: skip
            if st.button("Compute diagnostics", key="orca_retail_diag_go"):
                st.session_state[DIAG] = replay.diagnostics_of(store, chosen)
            diag = {r: v for r, v in (st.session_state.get(DIAG) or {}).items() if r in chosen}
            if diag:
                frame = pd.DataFrame({r: {replay.HEADLINE[k]: v.get(k) for k in replay.HEADLINE} for r, v in diag.items()}).T
                plotly_chart(diagnostics_figure(frame), key="orca_retail_diag_chart")
                st.dataframe(frame, column_config={
                    c: st.column_config.NumberColumn(c, format=DIAGNOSTIC_FORMATS.get(c, "percent")) for c in frame
                })  # fmt: skip
                for r, v in diag.items():
                    if v.get("stage3_note"):
                        st.caption(f"{r}: {v['stage3_note']}")
            for r in chosen:
                judged = st.session_state.get(JUDGED, {}).get(r)
                unstable = judged or replay.instability(store, r)
                if unstable is None:
                    continue
                st.markdown(f"**Strategy instability of {r}** (execution level: mean field Jaccard of adjacent days; "
                            "macro level: an LLM judge's similarity of adjacent macro strategies)")  # fmt: skip
                lines = {"execution similarity": pd.Series(unstable["execution_similarity"], dtype=float)}
                if "macro_similarity" in unstable:
                    lines["macro similarity (LLM judge)"] = pd.Series(unstable["macro_similarity"], dtype=float)
                pairs = pd.DataFrame(lines).rename_axis("pair").reset_index()
                ui_line_chart(pairs, "pair", list(lines), height=200, x_title="Pair of adjacent days",
                              y_title="Similarity (0 to 1)")  # fmt: skip
                st.json({"execution": unstable["execution"], "macro": unstable.get("macro_note", unstable["macro"]),
                         **({"unscored judge replies": unstable["macro_unscored"]} if "macro_unscored" in unstable else {})})  # fmt: skip
                if not llm_ready:
                    st.info("The macro-level similarity needs an LLM key (Settings): an LLM judge rates it. "
                            "Nothing is substituted without one.")  # fmt: skip
                elif judged is None and st.button(f"Judge the macro strategies with {settings.model}",
                                                  key=f"orca_retail_judge_{r}"):  # fmt: skip
                    judge = MacroJudge(make_chat_model(settings))
                    st.session_state.setdefault(JUDGED, {})[r] = replay.instability(store, r, judge=judge)
                    st.rerun()
    if download_tab.open:
        with download_tab:
            daily = replay.daily(store, run_id)
            st.download_button("Daily series (CSV)", replay.series_csv(daily), f"{run_id}_daily.csv", "text/csv")
            st.download_button("Daily series (Parquet)", replay.series_parquet(daily), f"{run_id}_daily.parquet")
            if st.button("Prepare the run as JSON (all tool calls)", key="orca_retail_prepare_json"):
                st.session_state["orca_retail_json"] = (run_id, replay.run_json(store, run_id))
            ready = st.session_state.get("orca_retail_json")
            if ready and ready[0] == run_id:
                st.download_button("Run (JSON)", ready[1], f"{run_id}.json", "application/json")
            if st.button("Prepare the run in the original layout (zip: tool_calls.jsonl, run log, tokens)",
                         key="orca_retail_prepare_original"):  # fmt: skip
                st.session_state["orca_retail_original"] = (run_id, export_zip(store, run_id))
            original = st.session_state.get("orca_retail_original")
            if original and original[0] == run_id:
                st.download_button("Run (original layout, zip)", original[1], f"orca_{run_id}.zip", "application/zip")
