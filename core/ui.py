"""Shared Streamlit helpers: the Settings sidebar, page headers, error display and the store handle.

The only module outside `app.py` and `pages/` that imports streamlit. Session-state keys start with `orca_`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Collection, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core import timing, ui_keys
from core.catalog import title_of
from core.config import (
    DEFAULT_MODELS,
    MAX_LLM_RETRIES,
    MAX_LLM_TIMEOUT_S,
    MAX_LLM_WAIT_S,
    PROVIDER_LABELS,
    PROVIDERS,
    Settings,
)
from core.errors import OrcaError, SpecError, StoreError
from core.llm import check_connection
from core.llm.registry import PROVIDER_REGISTRY
from core.recorder import Lease
from core.runlog import first_typed, run_label
from core.store import Store

if TYPE_CHECKING:
    from core.experiments.background import BackgroundRun

T = TypeVar("T")

SETTINGS_KEY = ui_keys.SETTINGS
ENV_ERROR_KEY = ui_keys.ENV_ERROR

SCRIPT_TIMING_VAR = timing.TIMING_VAR
"""Opt-in server-side timing: when this variable names a file, every script run appends one JSON line to it."""
SCRIPT_PROFILE_VAR = "ORCA_SCRIPT_PROFILE"
"""Opt-in profiling (with `SCRIPT_TIMING_VAR`): when this names a folder, each script run's script thread is
profiled with cProfile into `<page>-<start>.prof` there (`bench/action_cpu.py --profile`)."""


def current_settings() -> Settings:
    """This session's settings, created from the environment on first use.

    A bad `ORCA_*`/provider variable must not break every page: the session falls back to the offline defaults
    and `settings_sidebar` shows what was wrong (`ENV_ERROR_KEY`).
    """
    if SETTINGS_KEY not in st.session_state:
        try:
            st.session_state[SETTINGS_KEY] = Settings.from_env()
        except SpecError as err:
            st.session_state[ENV_ERROR_KEY] = (
                f"Ignoring the environment: {err}. Using the offline defaults; fix the variable and restart, "
                "or choose the provider below."
            )
            st.session_state[SETTINGS_KEY] = Settings()
    return st.session_state[SETTINGS_KEY]


def provider_defaults(provider: str, current: Settings) -> Settings:
    """What the sidebar prefills when the user switches to `provider`: its model, base URL and key from the
    environment (never the previous provider's), with the current seed, store path and LLM timeout/retries."""
    try:
        fresh = Settings.from_env(provider=provider)
    except SpecError:
        fresh = Settings(provider=provider, model=DEFAULT_MODELS[provider])  # type: ignore[arg-type]
    return fresh.with_changes(
        seed=current.seed,
        store_path=current.store_path,
        timeout_s=current.timeout_s,
        max_retries=current.max_retries,
    )


def settings_sidebar() -> Settings:
    """Render the shared Settings panel in the sidebar and return the settings in effect."""
    settings = current_settings()
    if ENV_ERROR_KEY in st.session_state:
        st.sidebar.warning(st.session_state[ENV_ERROR_KEY], icon=":material/warning:")
    with st.sidebar.expander("Settings", expanded=False, icon=":material/settings:"):
        provider = st.selectbox(
            "LLM provider",
            PROVIDERS,
            index=PROVIDERS.index(settings.provider),
            format_func=PROVIDER_LABELS.__getitem__,
            key="orca_provider",
        )
        shown = settings if provider == settings.provider else provider_defaults(provider, settings)
        model = st.text_input(
            "Model", value=shown.model, key=f"orca_model_{provider}", disabled=provider == "offline"
        )
        base_url = st.text_input(
            "Base URL",
            value=shown.base_url or "",
            key=f"orca_base_url_{provider}",
            placeholder="default endpoint"
            if provider != "openai"
            else "e.g. http://127.0.0.1:11434/v1 for Ollama",
            disabled=provider == "offline",
        )
        api_key = st.text_input(
            "API key",
            value=shown.api_key or "",
            type="password",
            key=f"orca_api_key_{provider}",
            disabled=provider == "offline",
            help="Kept in this browser session only; never written to disk or the store.",
        )
        timeout_col, retries_col = st.columns(2)
        timeout_s = timeout_col.number_input(
            "LLM timeout (s)",
            min_value=1.0,
            max_value=MAX_LLM_TIMEOUT_S,
            value=float(shown.timeout_s),
            step=5.0,
            key="orca_llm_timeout",
            disabled=provider == "offline",
            help="How long to wait for one LLM answer before retrying.",
        )
        max_retries = retries_col.number_input(
            "LLM retries",
            min_value=0,
            max_value=MAX_LLM_RETRIES,
            value=int(shown.max_retries),
            step=1,
            key="orca_llm_retries",
            disabled=provider == "offline",
            help=f"Retries of a failed request; timeout × (retries + 1) is at most {MAX_LLM_WAIT_S:g} s.",
        )
        seed = st.number_input(
            "Random seed", min_value=0, max_value=2**32 - 1, value=shown.seed, step=1, key="orca_seed"
        )
        store_path = st.text_input("Run store (DuckDB file)", value=str(shown.store_path), key="orca_store")
        invalid: OrcaError | None = None
        try:
            settings = settings.with_changes(
                provider=provider,
                model=model.strip() or DEFAULT_MODELS[provider],
                base_url=base_url.strip() or None,
                api_key=api_key.strip() or None,
                seed=int(seed),
                store_path=Path(store_path.strip()),
                timeout_s=float(timeout_s),
                max_retries=int(max_retries),
            )
        except OrcaError as err:
            invalid = err
            st.error(str(err))
        else:
            st.session_state[SETTINGS_KEY] = settings
        if st.button("Test connection", key="orca_test_connection", icon=":material/wifi_tethering:"):
            if invalid is not None:
                st.error(f"Not tested: fix the settings first ({invalid}).")
            else:
                try:
                    st.success(check_connection(settings))
                except OrcaError as err:
                    st.error(f"Connection failed: {err}")
    if (missing := missing_key_warning(settings)) is not None:
        st.sidebar.warning(missing, icon=":material/key_off:")
    st.sidebar.caption(
        f"Agents: **{PROVIDER_LABELS[settings.provider]}**"
        + ("" if settings.provider == "offline" else f" · `{settings.model}`")
    )
    return settings


RUN_PARAM = "run"
"""The URL query parameter holding the open run's id, so a reload (or a shared link) resumes it."""


def url_run_id() -> str | None:
    """The run id in the page's URL (`?run=…`), or None."""
    value = st.query_params.get(RUN_PARAM)
    return value or None


def run_to_open(store: Store | None, tried_key: str, current: str | None = None) -> str | None:
    """The run id in the URL when a page should open it now (a reload, a shared link, a Run history link):
    there is a store, it is not the open run `current`, and this session has not tried it yet. It is marked
    tried under `tried_key`, so an id that fails to open is tried once, not on every rerun."""
    wanted = url_run_id()
    if not wanted or store is None or wanted == current or st.session_state.get(tried_key) == wanted:
        return None
    st.session_state[tried_key] = wanted
    return wanted


def run_link(page: str, run_id: str) -> str:
    """The shareable path that opens `run_id` in the page file `page` (`pages/x.py` -> `/x?run=<id>`)."""
    return f"/{Path(page).stem}?{RUN_PARAM}={run_id}"


def share_run_link(page: str, run_id: str) -> None:
    """Show the run's shareable link in a copyable code box."""
    st.caption("Link to this run (append to the app's address):")
    st.code(run_link(page, run_id), language=None)


def run_workbench(store: Store, run_id: str) -> str:
    """The workbench of a stored run (a `StoreError` when there is none): `open_url_run`'s default lookup."""
    return str(store.get_run(run_id).get("workbench"))


def open_url_run(
    store: Store | None,
    tried_key: str,
    workbenches: str | Collection[str],
    current: str | None = None,
    *,
    lookup: Callable[[Store, str], str] = run_workbench,
    noun: str = "run",
) -> str | None:
    """The run a shared link (`?run=ID`) asks this page to open now (see `run_to_open`), after checking that the
    store holds it and that it is a run of one of `workbenches`; otherwise a plain message says why it is not
    shown, and None. Every page that produces runs opens its links through this (the Experiments page's links
    name an experiment: `lookup` finds its kind, a `StoreError` when unknown; `noun` words the message)."""
    wanted = run_to_open(store, tried_key, current)
    if wanted is None or store is None:
        return None
    names = {workbenches} if isinstance(workbenches, str) else set(workbenches)
    try:
        workbench = lookup(store, wanted)
    except StoreError:
        st.warning(
            f"No such {noun}: the run store `{store.path}` has no {noun} `{wanted}`. The link may come from "
            "another server or store; Run history lists the runs this one holds.",
            icon=":material/link_off:",
        )
        return None
    if workbench not in names:
        st.warning(
            f"Run `{wanted}` is a {title_of(str(workbench))} run, which this page does not show; open it from "
            "Run history.",
            icon=":material/link_off:",
        )
        return None
    return wanted


def show_run_link(page: str, run_id: str | None, tried_key: str | None = None) -> None:
    """Keep the run a page just produced or opened in its URL and show its shareable link; `tried_key` (the
    page's `open_url_run` key) marks it as already open, so the next rerun does not open it again."""
    if not run_id:
        return
    if tried_key is not None:
        st.session_state[tried_key] = run_id
    keep_run_in_url(run_id)
    share_run_link(page, run_id)


def keep_run_in_url(run_id: str | None) -> None:
    """Put the open run's id in the URL (or take it out when none is open)."""
    if run_id:
        if st.query_params.get(RUN_PARAM) != run_id:
            st.query_params[RUN_PARAM] = run_id
    elif RUN_PARAM in st.query_params:
        del st.query_params[RUN_PARAM]


def store_stamp(path: Path) -> tuple[int, ...]:
    """(mtime in ns, size) of the store file and of its write-ahead log: every write changes it, from any
    process; reads do not."""
    stamp: list[int] = []
    for file in (path, path.with_name(path.name + ".wal")):
        try:
            info = file.stat()
            stamp += [info.st_mtime_ns, info.st_size]
        except OSError:
            stamp += [0, 0]
    return tuple(stamp)


def store_read(read: Callable[..., T], store: Store, *args: Hashable) -> T:
    """`read(store, *args)`, shared by every session of the server until the store changes (`store_stamp`): a
    page's rerun does not query the store again. For reads of the store alone (lists for pickers), whose result
    pickles; `read` is told apart by its qualified name."""
    name = f"{read.__module__}.{read.__qualname__}"
    return _shared_read(name, str(store.path), args, store_stamp(store.path), read, store)


@st.cache_data(max_entries=64, show_spinner=False)
def _shared_read(
    name: str,
    path: str,
    args: tuple[Hashable, ...],
    stamp: tuple[int, ...],
    _read: Callable[..., T],
    _store: Store,
) -> T:
    """`store_read`'s cache: `name`, `path`, `args` and `stamp` are the key (`_read` and `_store` are not hashed)."""
    return _read(_store, *args)


def resume_labels(store: Store | None, workbench: str, limit: int = 100) -> dict[str, str]:
    """`{run_id: human title}` of a workbench's stored conversations, newest first: the first message typed,
    the workbench, the date to the minute and the status (read once per store state, see `store_read`)."""
    if store is None:
        return {}
    return store_read(_labels, store, workbench, limit)


def _labels(store: Store, workbench: str, limit: int) -> dict[str, str]:
    runs = store.run_labels(workbench, limit)
    return {
        r.id: run_label(
            first_message=first_typed(r.first_user_messages) or (r.title if isinstance(r.title, str) else ""),
            workbench=title_of(workbench),
            created=r.created_at,
            status=r.status,
        )
        for r in runs.itertuples()
    }


def session_owner() -> str:
    """The lease owner id of this browser tab's session: "<pid>:<session id>"."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return f"{os.getpid()}:{ctx.session_id if ctx is not None else 'bare'}"


def lease_holder_alive(owner: str) -> bool:
    """Is the holder of a run lease still there? A session of this server is alive while its tab is connected
    (a reloaded tab's old session is not); holders in other processes keep their lease until it lapses."""
    from streamlit.runtime import Runtime

    pid, _, session = owner.partition(":")
    if pid != str(os.getpid()) or not session:
        return True
    return Runtime.exists() and Runtime.instance().is_active_session(session)


def resume_leased(resume: Callable[..., T], *args: object) -> T:
    """`resume(*args)` leased to this browser session: the run opens read-only while another live tab
    holds it."""
    return resume(*args, lease=Lease(session_owner(), lease_holder_alive))


RESUME_HELP = (
    "Your stored conversations, newest first (first message · workbench · started). The open one is also in "
    "the page's address, so a reload keeps it."
)
"""The help of a page's "Resume a conversation" picker."""

READ_ONLY_NOTE = (
    "This conversation is open in another tab or window, which is still writing to it. To keep the two "
    "transcripts from mixing in one run, this tab shows it read-only. Start a new conversation here, or close "
    "the other tab and reload this one to continue it."
)


def missing_key_warning(settings: Settings) -> str | None:
    """What to do when the chosen provider cannot work yet (no key, and no local server URL), or None."""
    entry = PROVIDER_REGISTRY[settings.provider]
    if entry.ready(api_key=settings.api_key, base_url=settings.base_url):
        return None
    where = " or the base URL of a local server" if entry.url_suffices else ""
    return (
        f"{entry.label} needs an API key{where}: enter it under Settings or set {entry.key_var} "
        "before starting the app. Until then, choose Offline built-in agents."
    )


def llm_ready(settings: Settings) -> bool:
    """Whether an LLM can answer now: a provider other than Offline that has its key (or local server URL).
    Pages pre-select LLM-only choices only then."""
    return settings.provider != "offline" and missing_key_warning(settings) is None


def switch_to_offline() -> Settings:
    """Switch this session to the offline built-in agents (the sidebar follows) and return the new settings."""
    offline = current_settings().with_changes(
        provider="offline", model=DEFAULT_MODELS["offline"], base_url=None, api_key=None
    )
    st.session_state[SETTINGS_KEY] = offline
    st.session_state["orca_provider"] = "offline"
    return offline


STORE_LINGER_S = 0.25
"""The app keeps its DuckDB connection open between store calls until idle this long (`Store(linger_s=)`): the
sessions of a class take turns on one connection instead of opening the file for every call."""
STORE_TIMEOUT_S = 30.0
"""How long an app session's store call may wait for the store (the CLI's default is 10 s): with 20 sessions on
a busy machine a write queued 10 s behind the others, failed, and the turn was shown but not saved."""


def get_store() -> Store:
    """The run store at the current settings' path (one handle per path per session)."""
    path = current_settings().store_path
    key = f"orca_store_{path}"
    if key not in st.session_state:
        st.session_state[key] = Store(path, timeout_s=STORE_TIMEOUT_S, linger_s=STORE_LINGER_S)
    return st.session_state[key]


def optional_store() -> Store | None:
    """The run store, or `None` after showing why it cannot be opened: the page keeps working, unsaved."""
    try:
        return get_store()
    except StoreError as err:
        st.error(
            f"{err}. Runs are not saved until the run-store path in Settings is fixed.",
            icon=":material/error:",
        )
        return None


def ensure_app_shell() -> None:
    """Make sure a page runs inside `app.py`'s navigation, with its sidebar and page config.

    Streamlit decides once per server whether the app is a legacy `pages/` folder app. When a deep link such as
    `/school_scheduling` is the very first request a fresh server sees, it runs that file on its own (no
    `app.py`, no Settings sidebar). Clearing the legacy flag and rerunning makes `app.py` run, whose
    `st.navigation` then opens the requested page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


LAYOUT_CSS = """
<style>
/* Columns wrap instead of squeezing: below a column's comfortable width it moves to the next line and
   stretches (laptop 1024 px, projector 1440 px). A split keyed "orca_split" stacks below 520 px per side. */
[data-testid="stHorizontalBlock"] { flex-wrap: wrap; row-gap: 0.75rem; }
[data-testid="stHorizontalBlock"] > [data-testid="stColumn"] { min-width: min(200px, 100%); flex-grow: 1; }
[class*="st-key-orca_split"] [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
  min-width: min(520px, 100%);
}
[class*="st-key-orca_split"] [data-testid="stColumn"] [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
  min-width: min(200px, 100%);
}
/* Metric values and labels wrap rather than end in an ellipsis. */
[data-testid="stMetricValue"], [data-testid="stMetricValue"] *,
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
}
[data-testid="stMetricValue"] { font-size: clamp(1.25rem, 1.6vw, 2rem); line-height: 1.2; }
/* Button and checkbox labels wrap too. */
[data-testid="stButton"] button *, [data-testid="stDownloadButton"] button *, [data-testid="stCheckbox"] label * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
}
</style>
"""


def layout_css() -> None:
    """The app's responsive layout rules (see `LAYOUT_CSS`); every page calls it through `setup_page`."""
    st.html(LAYOUT_CSS)


PRESENT_PARAM = "present"
"""The URL query parameter (`?present=1`) that opens a page in presentation mode."""

PRESENT_KEY = "orca_present"

PRESENT_CSS = """
<style>
/* Presentation mode (projectors, 1024 x 768): no sidebar, larger type, the main view starts at the top. */
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] { display: none !important; }
[data-testid="stMainBlockContainer"] {
  padding-top: 1rem !important; padding-left: 1.5rem !important; padding-right: 1.5rem !important;
  max-width: 100% !important;
}
[data-testid="stMain"] { font-size: 1.2rem; }
[data-testid="stMain"] h1 { font-size: 2rem; padding-top: 0; }
[data-testid="stMain"] [data-testid="stCaptionContainer"] { font-size: 1rem; }
/* The Inventory Copilot's chat and parameter table stay side by side at 1024 px (they stack elsewhere). */
[class*="st-key-orca_split_copilot"] [data-testid="stHorizontalBlock"] > [data-testid="stColumn"] {
  min-width: min(300px, 100%);
}
</style>
"""


def presenting() -> bool:
    """Whether this session is in presentation mode (after `setup_page`): pages that lay out differently for a
    projector ask this."""
    return bool(st.session_state.get(PRESENT_KEY))


def presentation_mode() -> bool:
    """Whether presentation mode is on: the sidebar toggle, seeded once from `?present=1`; kept in the URL."""
    if PRESENT_KEY not in st.session_state:
        st.session_state[PRESENT_KEY] = st.query_params.get(PRESENT_PARAM) == "1"
    on = bool(st.session_state[PRESENT_KEY])
    if on:
        st.html(PRESENT_CSS)
        st.button("Exit presentation mode", key="orca_present_exit", on_click=_set_present, args=(False,))
        if st.query_params.get(PRESENT_PARAM) != "1":
            st.query_params[PRESENT_PARAM] = "1"
    else:
        st.sidebar.button("Presentation mode", key="orca_present_enter", on_click=_set_present, args=(True,),
                          help="Hide the sidebar and enlarge type for a projector (or open the page with ?present=1).")
        st.query_params.pop(PRESENT_PARAM, None)
    return on


PRESENT_FONT_PX = 18
"""Chart type size in presentation mode (titles 4 px larger); Plotly's default is 12."""
PRESENT_HEIGHT_SCALE = 1.25
"""Chart heights in presentation mode: this many times the figure's own (Plotly's default 450 px when unset)."""
PRESENT_MAX_HEIGHT_PX = 620


def presented(figure: T) -> T:
    """A Plotly figure as presentation mode shows it (a copy with larger type and height), else `figure` itself."""
    if not st.session_state.get(PRESENT_KEY):
        return figure
    import plotly.graph_objects as go

    fig = go.Figure(figure)
    height = min(PRESENT_MAX_HEIGHT_PX, round((fig.layout.height or 450) * PRESENT_HEIGHT_SCALE))
    fig.update_layout(
        font={"size": PRESENT_FONT_PX},
        title_font={"size": PRESENT_FONT_PX + 4},
        legend_font={"size": PRESENT_FONT_PX - 2},
        height=max(height, fig.layout.height or 0),
    )
    fig.update_xaxes(title_font={"size": PRESENT_FONT_PX}, tickfont={"size": PRESENT_FONT_PX - 2})
    fig.update_yaxes(title_font={"size": PRESENT_FONT_PX}, tickfont={"size": PRESENT_FONT_PX - 2})
    return fig  # type: ignore[return-value]


def plotly_chart(figure: object, *, where: DeltaGenerator | None = None, **kwargs: object) -> object:
    """`st.plotly_chart` (or `where.plotly_chart`) through `presented`: every page's Plotly charts grow in
    presentation mode through this one call; returns what Streamlit returns (the selection event)."""
    return (where or st).plotly_chart(presented(figure), **kwargs)  # type: ignore[arg-type]


def presented_spec(spec: dict) -> dict:
    """A Vega-Lite spec as presentation mode shows it (a copy: larger axis, legend and title type, taller), else
    `spec` itself; the Vega-Lite counterpart of `presented`."""
    if not st.session_state.get(PRESENT_KEY):
        return spec
    small, big = {"labelFontSize": PRESENT_FONT_PX - 2}, {"titleFontSize": PRESENT_FONT_PX}
    config = dict(spec.get("config") or {})
    for part in ("axis", "legend"):
        config[part] = {**(config.get(part) or {}), **small, **big}
    config["title"] = {**(config.get("title") or {}), "fontSize": PRESENT_FONT_PX + 4}
    out = {**spec, "config": config}
    if isinstance(spec.get("height"), int | float):
        out["height"] = min(PRESENT_MAX_HEIGHT_PX, round(spec["height"] * PRESENT_HEIGHT_SCALE))
    return out


def vega_lite_chart(data: object, spec: dict, *, where: DeltaGenerator | None = None, **kwargs: object) -> object:
    """`st.vega_lite_chart` (or `where.vega_lite_chart`) through `presented_spec`."""
    return (where or st).vega_lite_chart(data, presented_spec(spec), **kwargs)  # type: ignore[arg-type]


def line_chart(frame: object, x: str, columns: list[str], *, height: int, x_title: str, y_title: str,
               y_format: str = "", temporal: bool = False, where: DeltaGenerator | None = None) -> None:  # fmt: skip
    """A multi-series line chart (one line per column of `frame`, against column `x`) from a plain Vega-Lite spec
    with axis titles, through `vega_lite_chart` so it grows in presentation mode. (`st.line_chart` builds and
    validates an Altair chart, ~0.5 s per chart on this machine, and takes no part in presentation mode.)"""
    if not columns:
        return
    long = frame[[x, *columns]].melt(id_vars=x, var_name="series", value_name="value")  # type: ignore[index]
    x_axis = {} if temporal else {"axis": {"format": "d", "tickMinStep": 1}}
    y_axis = {"axis": {"format": y_format}} if y_format else {}
    vega_lite_chart(long, {
        "mark": {"type": "line", "tooltip": True}, "height": height,
        "encoding": {"x": {"field": x, "type": "temporal" if temporal else "quantitative", "title": x_title, **x_axis},
                     "y": {"field": "value", "type": "quantitative", "title": y_title, **y_axis},
                     "color": {"field": "series", "type": "nominal"}},
    }, where=where, use_container_width=True)  # fmt: skip


def _set_present(on: bool) -> None:
    """Button callback: turn presentation mode on or off."""
    st.session_state[PRESENT_KEY] = on


def setup_page(title: str, intro: str) -> Settings:
    """The standard page header (inside the app shell, in presentation mode when asked); returns the settings."""
    ensure_app_shell()
    layout_css()
    presentation_mode()
    st.title(title)
    st.caption(intro)
    return current_settings()


class ScriptRunTimer:
    """The script run being timed; `app.py` names its page once navigation has picked it."""

    __slots__ = ("page",)

    def __init__(self) -> None:
        self.page = ""


def timing_record(
    page: str,
    session: str,
    started: float,
    seconds: float,
    cpu_s: float,
    outcome: str,
    store: timing.RunTally | None = None,
) -> str:
    """One line of the timing file (`kind` "script"): the page's url path, the session id, the wall-clock start
    (epoch seconds), the run's duration and the script thread's CPU time (seconds), how it ended, and its store
    calls (how many, seconds spent waiting for the store's lock and holding it; `core/timing.py`)."""
    return json.dumps(
        {
            "kind": "script",
            "page": page,
            "session": session,
            "start": round(started, 4),
            "seconds": round(seconds, 4),
            "cpu_s": round(cpu_s, 4),
            "outcome": outcome,
            "store_calls": store.calls if store else 0,
            "store_wait_s": round(store.wait_s, 4) if store else 0.0,
            "store_hold_s": round(store.hold_s, 4) if store else 0.0,
        }
    )


@contextmanager
def script_timing() -> Iterator[ScriptRunTimer]:
    """Time one script run into `$ORCA_SCRIPT_TIMING` (one JSON line, see `timing_record`, after the lines of
    its store calls); without the
    variable it costs one environment lookup. `outcome` is "finished", or the exception that ended the run
    (`RerunException` for `st.rerun`, `StopException` for `st.stop`, or an error)."""
    timer = ScriptRunTimer()
    path = timing.timing_path()
    if not path:
        yield timer
        return
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    tally = timing.begin_run(ctx.session_id if ctx is not None else "bare")
    profile_dir = os.environ.get(SCRIPT_PROFILE_VAR)
    profiler = None
    if profile_dir:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU of the script thread, not waits
        profiler.enable()
    started, t0, cpu0 = time.time(), time.perf_counter(), time.thread_time()
    outcome = "finished"
    try:
        yield timer
    except BaseException as err:
        outcome = type(err).__name__
        raise
    finally:
        timing.end_run()
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(Path(profile_dir) / f"{timer.page or 'home'}-{started:.4f}.prof")
        line = timing_record(
            timer.page,
            tally.session,
            started,
            time.perf_counter() - t0,
            time.thread_time() - cpu0,
            outcome,
            tally,
        )
        timing.append_line(path, line)


def experiment_progress(info: dict, unit: str) -> None:
    """An experiment's progress bar from the store's cells table (`Store.get_experiment`), so every session
    sees the same; `unit` names its cells (e.g. "conversations")."""
    finished = info["done"] + info["failed"]
    left = experiment_eta(info) if info["status"] == "running" else ""
    st.progress(
        finished / info["cells"] if info["cells"] else 0.0,
        text=f"{finished}/{info['cells']} {unit} · {info['done']} done · {info['failed']} failed · "
        f"{info['status']}" + (f" · {left}" if left else ""),
    )


def experiment_eta(info: dict, now: datetime | None = None) -> str:
    """A running experiment's time left at its pace since it was created (wall clock over the cells finished;
    blank before the first cell finishes)."""
    from core.eta import eta_text

    finished, created = info["done"] + info["failed"], info.get("created_at")
    if not finished or not isinstance(created, datetime) or finished >= info["cells"]:
        return ""
    elapsed = ((now or datetime.now(UTC).replace(tzinfo=None)) - created).total_seconds()
    return eta_text(max(elapsed, 0.0) / finished * (info["cells"] - finished))


def number_columns(frame: object, **overrides: str) -> dict:
    """Column configs that format every number column of `frame` by its name (`core.formats.column_formats`:
    money, percentages, shares, p-values, thousands); merge them into a table's `column_config`."""
    from core.formats import column_formats

    return {
        name: st.column_config.NumberColumn(name, format=fmt)  # type: ignore[arg-type]
        for name, fmt in column_formats(frame, **overrides).items()  # type: ignore[arg-type]
    }


def number_table(frame: object, *, where: DeltaGenerator | None = None, **kwargs: object) -> object:
    """`st.dataframe` (or `where.dataframe`) of `frame` without its index, every number column formatted by its
    name (`number_columns`); `kwargs` (width, height, key) go to `dataframe`."""
    return (where or st).dataframe(frame, hide_index=True, column_config=number_columns(frame), **kwargs)


def csv_download(
    label: str, text: str, file_name: str, *, key: str, icon: str = ":material/download:",
    where: DeltaGenerator | None = None,
) -> object:  # fmt: skip
    """A download button (`st`, or in `where`) that saves the CSV `text` as `file_name`."""
    return (where or st).download_button(label, text, file_name=file_name, mime="text/csv", icon=icon, key=key)


def progress_with_eta(text: str, *, where: DeltaGenerator | None = None) -> Callable[[float, str], None]:
    """A progress bar for a long task (`st.progress`, or in `where`) and its update callback `(fraction,
    message)`, which adds the time left at the pace so far (`core.eta.Pace`) to each message."""
    from core.eta import Pace

    bar, pace = (where or st).progress(0.0, text=text), Pace()

    def update(fraction: float, message: str) -> None:
        share = min(max(float(fraction), 0.0), 1.0)
        bar.progress(share, text=pace.text(message, share))

    return update


@dataclass(frozen=True)
class ExperimentState:
    """An experiment as its progress panel found it: its store row (`Store.get_experiment`), this server's
    background run of it (None when a driver elsewhere, e.g. the CLI, runs it, or none), whether it runs and
    whether it stalled (its driver stopped reporting, so a page may offer to resume it)."""

    info: dict
    run: BackgroundRun | None
    running: bool
    stalled: bool


@contextmanager
def experiment_panel(
    store: Store, exp_id: str, unit: str, key: str, stalled_note: str
) -> Iterator[ExperimentState]:
    """A background experiment's progress panel (the Experiments and School Scheduling Lab pages): the bar
    (`experiment_progress`, its cells named `unit`) and, once it no longer runs, its trouble (`experiment_ended`);
    the `with` body adds the page's own lines; then the page reruns once when the experiment stops running
    (`rerun_when_stopped` under `key`)."""
    from core.experiments import background

    info, run = store.get_experiment(exp_id), background.get(exp_id)
    running = background.is_live(exp_id, info["status"])
    experiment_progress(info, unit)
    stalled = not running and experiment_ended(info, run.error if run is not None else None, stalled_note)
    yield ExperimentState(info, run, running, stalled)
    rerun_when_stopped(key, running)


def experiment_ended(info: dict, error: str | None, stalled_note: str) -> bool:
    """A finished experiment's trouble: the background run's `error`, else (a stalled experiment: its driver
    stopped reporting) `stalled_note`; True when it is stalled (so a page may offer to resume it)."""
    if error:
        st.error(f"The run stopped: {error}", icon=":material/error:")
    elif info["status"] == "stalled":
        st.warning(stalled_note, icon=":material/warning:")
        return True
    return False


def rerun_when_stopped(key: str, running: bool) -> None:
    """Reruns the page once when what was `running` at the last call under `key` no longer is (a refreshing
    fragment's finished run then shows on the whole page)."""
    if st.session_state.get(key) and not running:
        st.session_state[key] = False
        st.rerun()
    st.session_state[key] = running


def show_error(err: Exception) -> None:
    """Show an expected error as a message, anything else as a traceback (it is a bug)."""
    if isinstance(err, OrcaError):
        st.error(str(err), icon=":material/error:")
    else:
        st.exception(err)


@contextmanager
def guard() -> Iterator[None]:
    """Run page logic; an `OrcaError` becomes an error message and the session carries on."""
    try:
        yield
    except OrcaError as err:
        show_error(err)
