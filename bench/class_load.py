"""A class on one server (issue 31 item 1): N concurrent sessions against one `make run`-style server.

Starts the app as `make run` does (`python -m core.serve`, via `tests/support/browser.py: start_server`) offline
on a fresh store with `$ORCA_SCRIPT_TIMING` set, so the server logs its own duration and script-thread CPU time of every script run
(`core/ui.py: script_timing`) and the lock wait and hold of every store call (`core/timing.py`). The sessions are
driven by `--client ws` (default): Streamlit's own websocket protocol (`/_stcore/stream`, the BackMsg/ForwardMsg
protobufs shipped with streamlit, the `websockets` client streamlit depends on), one asyncio task per student, so
20 students cost the machine almost nothing; or `--client browser`: one headless Debian chromium, one Playwright
context per student (end to end, but 20 renderers compete with the server for the cores). The load generator
runs at `--nice` 10 and the server at normal priority. Each session, after a staggered start:

1. opens the Inventory Copilot (`open`) and sends two chat turns (`chat_copilot`);
2. switches to School Scheduling through the sidebar (`switch`) and sends one chat turn (`chat_schedule`);
3. switches to the Policy Simulator (`switch`) and runs a small simulation: two heuristic policies, no grid, no
   DP, no DQN, 100 paths (`simulate`);
4. switches back to the Inventory Copilot (`switch`) and checks its conversation is still there.

Every message carries the session's tag (a word such as "Kilo"): a session whose chat shows another session's tag
is a cross-session leak. Client time is from the action (Enter, a click; in ws mode the BackMsg) until the page
shows its result and no script run is in progress (browser: `data-test-script-state="notRunning"`; ws: a
`script_finished` that is not followed by a rerun). Beside it: the server's CPU (cores busy) and resident memory
sampled from /proc every 0.5 s, the load generator's CPU, the machine's load average, the server-side script-run
times per page, the store's lock waits (p50/p95/total and the call sites that waited longest), and afterwards the
store: each tag in exactly one Copilot run (two user messages) and one School Scheduling run (two: the recorded
opening request and the turn), no run with two tags, N Policy Simulator runs.

The server's `cpu_s` (the script thread's CPU time) hardly depends on how busy the machine is, its `seconds` do:
on a shared machine compare the two before blaming the app.

Run: .venv/bin/python bench/class_load.py [--sessions 20] [--client ws|browser] [--stagger 0.5] [--think 1.0]
[--no-warmup] (prints a summary, then one JSON line). Target (issue 31): p95 of `chat_*` and `switch` ≤ 3 s, no
errors, no leaks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402  (streamlit's own dependency, installed with it)
from playwright.async_api import Browser, Page  # noqa: E402
from streamlit.proto.Alert_pb2 import Alert  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from core.config import ENV_VARS  # noqa: E402
from core.store import Store  # noqa: E402
from core.store.runs import MAX_LIST_LIMIT  # noqa: E402
from core.ui import SCRIPT_TIMING_VAR  # noqa: E402
from tests.support.browser import CHROMIUM_ARGS, find_chromium, start_server  # noqa: E402

NATO = [
    "Alfa",
    "Bravo",
    "Charlie",
    "Delta",
    "Echo",
    "Foxtrot",
    "Golf",
    "Hotel",
    "India",
    "Juliett",
    "Kilo",
    "Lima",
    "Mike",
    "November",
    "Oscar",
    "Papa",
    "Quebec",
    "Romeo",
    "Sierra",
    "Tango",
    "Uniform",
    "Victor",
    "Whiskey",
    "Xray",
    "Yankee",
    "Zulu",
]
IDLE_JS = (
    "() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
    " return a && a.getAttribute('data-test-connection-state') === 'CONNECTED'"
    " && a.getAttribute('data-test-script-state') === 'notRunning'; }"
)
MORE_MESSAGES_JS = "(n) => document.querySelectorAll('[data-testid=\"stChatMessage\"]').length > n"
CHAT_MESSAGE = '[data-testid="stChatMessage"]'
EXCEPTION = '[data-testid="stException"]'
TIMEOUT_MS = 300_000
FINISHED, COMPILE_ERROR = ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR
TARGET_S = 3.0


def tag_of(i: int) -> str:
    """Session i's tag: a NATO word (a second one past 26 sessions), never a number the readers could parse."""
    return NATO[i % 26] + ("" if i < 26 else NATO[(i // 26) % 26].lower())


class Logged(Exception):
    """A session's step failed and `timed` has logged it."""


@dataclass
class SessionLog:
    """What one simulated student did and saw."""

    tag: str
    actions: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


class ProcSampler:
    """Samples the server's CPU (cores busy, from utime + stime) and resident memory from /proc, the load
    generator's CPU (this process and its descendants but the server: the Playwright driver and chromium), and
    the machine's 1-minute load average, every `interval` seconds on a thread."""

    def __init__(self, pid: int, interval: float = 0.5) -> None:
        self.pid, self.interval = pid, interval
        self.samples: list[dict] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._tick = os.sysconf("SC_CLK_TCK")

    def _cpu_s(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self._tick  # utime, stime (fields 14, 15 of stat)

    def _client_cpu_s(self) -> float:
        """CPU seconds of this process's tree without the server's subtree (processes gone since are lost)."""
        parent: dict[int, int] = {}
        cpu: dict[int, float] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid = int(stat.parent.name)
            parent[pid], cpu[pid] = int(fields[1]), (int(fields[11]) + int(fields[12])) / self._tick
        children: dict[int, list[int]] = {}
        for pid, ppid in parent.items():
            children.setdefault(ppid, []).append(pid)
        total, todo = 0.0, [os.getpid()]
        while todo:
            pid = todo.pop()
            if pid == self.pid:
                continue
            total += cpu.get(pid, 0.0)
            todo.extend(children.get(pid, []))
        return total

    def _rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def _run(self) -> None:
        last_t, last_cpu, last_client = time.monotonic(), self._cpu_s(), self._client_cpu_s()
        while not self._stop.wait(self.interval):
            try:
                now, cpu, client = time.monotonic(), self._cpu_s(), self._client_cpu_s()
                load = float(Path("/proc/loadavg").read_text().split()[0])
                self.samples.append(
                    {
                        "t": time.time(),
                        "cores": (cpu - last_cpu) / (now - last_t),
                        "client_cores": max(0.0, client - last_client) / (now - last_t),
                        "rss_mb": self._rss_mb(),
                        "load1": load,
                    }
                )
                last_t, last_cpu, last_client = now, cpu, client
            except (OSError, ValueError, IndexError):
                return  # the server is gone

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


async def wait_idle(page: Page) -> None:
    await page.wait_for_function(IDLE_JS, timeout=TIMEOUT_MS, polling=20)


async def timed(log: SessionLog, kind: str, detail: str, page: Page, action, done) -> None:  # noqa: ANN001
    """Run `action()`, then `done()` and wait for idle; log the seconds from the action, and any exception box."""
    start = time.perf_counter()
    wall = time.time()
    try:
        await action()
        await done()
        await wait_idle(page)
        seconds = time.perf_counter() - start
        log.actions.append({"kind": kind, "detail": detail, "start": wall, "seconds": round(seconds, 3)})
        if await page.locator(EXCEPTION).count():
            text = (await page.locator(EXCEPTION).first.inner_text())[:300]
            log.errors.append(f"{kind} {detail}: exception box: {text}")
    except Exception as err:  # noqa: BLE001 - a timeout or a lost page is a result, not a crash of the bench
        log.errors.append(f"{kind} {detail}: {type(err).__name__}: {str(err)[:300]}")
        raise Logged from err


async def chat(log: SessionLog, kind: str, page: Page, text: str) -> None:
    shown = await page.locator(CHAT_MESSAGE).count()
    box = page.locator('[data-testid="stChatInput"] textarea')
    await box.fill(text)

    async def done() -> None:
        await page.wait_for_function(MORE_MESSAGES_JS, arg=shown, timeout=TIMEOUT_MS, polling=20)

    await timed(log, kind, text[:40], page, lambda: box.press("Enter"), done)


async def switch(log: SessionLog, page: Page, title: str) -> None:
    link = page.locator('[data-testid="stSidebarNavLink"]').get_by_text(title, exact=True)

    async def done() -> None:
        await page.locator("h1").filter(has_text=title).first.wait_for(state="visible", timeout=TIMEOUT_MS)

    await timed(log, "switch", title, page, link.click, done)


async def check_leaks(log: SessionLog, page: Page, where: str, tags: list[str]) -> None:
    """The chat shows this session's tag and no other session's."""
    text = " ".join(await page.locator(CHAT_MESSAGE).all_inner_texts())
    if log.tag not in text:
        log.leaks.append(f"{where}: own tag {log.tag} missing")
    for other in tags:
        if other != log.tag and re.search(rf"\b{other}\b", text):
            log.leaks.append(f"{where}: shows {other}'s message")


async def set_checkbox(page: Page, label: str, on: bool) -> None:
    box = page.get_by_role("checkbox", name=label)
    if await box.is_checked() != on:
        await page.get_by_text(label, exact=True).click()


async def student(
    browser: Browser, base: str, i: int, tags: list[str], args: argparse.Namespace
) -> SessionLog:
    log = SessionLog(tags[i])
    await asyncio.sleep(i * args.stagger)
    context = await browser.new_context(viewport={"width": 1440, "height": 900}, base_url=base)
    context.set_default_timeout(TIMEOUT_MS)  # typing into a chat box that renders late is load, not an error
    page = await context.new_page()
    page.on("pageerror", lambda err: log.errors.append(f"javascript: {err}"))
    think = args.think
    try:

        async def goto() -> None:
            await page.goto("/inventory_copilot", wait_until="commit")

        async def heading() -> None:
            await page.locator("h1").filter(has_text="Inventory Copilot").first.wait_for(timeout=TIMEOUT_MS)

        await timed(log, "open", "Inventory Copilot", page, goto, heading)
        await asyncio.sleep(think)
        await chat(
            log,
            "chat_copilot",
            page,
            f"We sell phone cases at the {log.tag} shop. Daily demand is "
            "random, Poisson with λ = 3 units a day.",
        )
        await asyncio.sleep(think)
        await chat(
            log,
            "chat_copilot",
            page,
            "Holding a case costs $0.50 per unit per day, and each lost sale costs us $4.",
        )
        await check_leaks(log, page, "copilot", tags)
        await asyncio.sleep(think)
        await switch(log, page, "School Scheduling")
        await asyncio.sleep(think)
        await chat(
            log, "chat_schedule", page, f"Could Everett start at 9:30 AM? Asking for the {log.tag} team."
        )
        await check_leaks(log, page, "school scheduling", tags)
        await asyncio.sleep(think)
        await switch(log, page, "Policy Simulator")
        await set_checkbox(page, "Search the full (s,S) grid", False)
        await set_checkbox(page, "Exact DP optimum (when the state space is small enough)", False)
        await set_checkbox(page, "Train a DQN", False)
        await page.get_by_label("Simulation paths").fill("100")
        run = page.get_by_role("button", name="Run simulation")

        async def recommended() -> None:
            await page.get_by_text("Recommended for λ", exact=False).first.wait_for(timeout=TIMEOUT_MS)

        await timed(log, "simulate", "100 paths", page, run.click, recommended)
        await asyncio.sleep(think)
        await switch(log, page, "Inventory Copilot")
        await check_leaks(log, page, "copilot after switching back", tags)
    except Logged:
        pass  # `timed` logged it; the session stops here
    except Exception as err:  # noqa: BLE001 - a step outside `timed` (typing, a checkbox, a leak check) failed
        log.errors.append(f"between actions: {type(err).__name__}: {str(err)[:300]}")
    finally:
        await context.close()
    return log


# --- the websocket client: Streamlit's own protocol, no browser ----------------------------------------------


@dataclass
class RunView:
    """What one script run showed (the last, finished run after an action): elements by delta path, the
    chat-message blocks, the page, and any exception or error boxes."""

    elements: dict[tuple[int, ...], tuple[str, object]] = field(default_factory=dict)
    chat_blocks: set[tuple[int, ...]] = field(default_factory=set)
    page_hash: str = ""
    exceptions: list[str] = field(default_factory=list)

    def texts(self) -> list[str]:
        """The text (`body`) of every element, in delta-path order."""
        return [str(getattr(el, "body", "")) for _, (_, el) in sorted(self.elements.items())]

    def chat_text(self) -> str:
        """The text of every element inside a chat message."""
        return " ".join(
            str(getattr(el, "body", ""))
            for path, (_, el) in sorted(self.elements.items())
            if any(path[: len(b)] == b for b in self.chat_blocks)
        )

    def widget(self, kind: str, label: str | None = None) -> object:
        """The first element of type `kind` (with `label`, if given); KeyError when the page has none."""
        for _, (k, el) in sorted(self.elements.items()):
            if k == kind and (label is None or getattr(el, "label", None) == label):
                return el
        raise KeyError(f"no {kind} {label or ''} on the page")


class WsTab:
    """One student's browser tab, spoken through Streamlit's websocket protocol (`/_stcore/stream`, the
    `streamlit.proto` BackMsg/ForwardMsg messages): what the web frontend sends on navigation, a chat turn or a
    click, without a browser. Widget values set once are sent again with every later rerun of the page, as the
    frontend does; a page switch clears them and the query string."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http", "ws", 1) + "/_stcore/stream"
        self.ws: websockets.ClientConnection | None = None
        self.pages: dict[str, str] = {}  # page title -> page script hash (from the navigation message)
        self.query = ""
        self.values: dict[str, WidgetState] = {}
        self.view = RunView()

    async def __aenter__(self) -> WsTab:
        self.ws = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=None)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def rerun(
        self, *, page_name: str = "", page_title: str = "", widgets: tuple[WidgetState, ...] = ()
    ) -> RunView:
        """Ask for a script run (open a page by url path or title, or send widget values and a trigger) and read
        ForwardMsgs until a run finishes without another following it; the finished run's view."""
        assert self.ws is not None
        msg = BackMsg()
        state = msg.rerun_script
        if page_name or page_title:
            self.values.clear()
            self.query = ""
            state.page_name = page_name
            state.page_script_hash = self.pages.get(page_title, "")
        else:
            state.page_script_hash = self.view.page_hash
        state.query_string = self.query
        for w in widgets:
            if not (w.HasField("trigger_value") or w.HasField("chat_input_value")):
                self.values[w.id] = w
        sent = {w.id for w in widgets}
        state.widget_states.widgets.extend([*widgets, *(v for k, v in self.values.items() if k not in sent)])
        await self.ws.send(msg.SerializeToString())
        async with asyncio.timeout(TIMEOUT_MS / 1000):
            return await self._read_until_finished()

    async def _read_until_finished(self) -> RunView:
        assert self.ws is not None
        view = RunView()
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                view = RunView(page_hash=fwd.new_session.page_script_hash)
            elif kind == "navigation":  # the page `st.navigation` chose (new_session names app.py then)
                self.pages = {p.page_name: p.page_script_hash for p in fwd.navigation.app_pages}
                view.page_hash = fwd.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = fwd.page_info_changed.query_string
            elif kind == "delta":
                path = tuple(fwd.metadata.delta_path)
                delta = fwd.delta
                if delta.WhichOneof("type") == "add_block":
                    if delta.add_block.WhichOneof("type") == "chat_message":
                        view.chat_blocks.add(path)
                elif delta.WhichOneof("type") == "new_element":
                    el_kind = delta.new_element.WhichOneof("type") or ""
                    element = getattr(delta.new_element, el_kind) if el_kind else None
                    view.elements[path] = (el_kind, element)
                    if el_kind == "exception":
                        view.exceptions.append(f"{element.type}: {element.message}"[:300])
                    elif el_kind == "alert" and element.format == Alert.ERROR:  # st.error: a store that
                        view.exceptions.append(f"error box: {element.body}"[:300])  # timed out, a failed turn
            elif kind == "script_finished" and fwd.script_finished in (FINISHED, COMPILE_ERROR):
                self.view = view
                return view


def checkbox_state(view: RunView, label: str, on: bool) -> WidgetState:
    element = view.widget("checkbox", label)
    return WidgetState(id=element.id, bool_value=on)  # type: ignore[attr-defined]


async def ws_action(log: SessionLog, kind: str, detail: str, action, check) -> RunView:  # noqa: ANN001
    """Run `action()` (a rerun), log its seconds, then `check(view)`: a failed check is an error."""
    start, wall = time.perf_counter(), time.time()
    try:
        view = await action()
    except Exception as err:  # noqa: BLE001 - a lost connection or a timeout is a result, not a crash
        log.errors.append(f"{kind} {detail}: {type(err).__name__}: {str(err)[:300]}")
        raise Logged from err
    log.actions.append({"kind": kind, "detail": detail, "start": wall, "seconds": round(time.perf_counter() - start, 3)})
    for text in view.exceptions:
        log.errors.append(f"{kind} {detail}: {text}")
    problem = check(view)
    if problem:
        log.errors.append(f"{kind} {detail}: {problem}")
        raise Logged
    return view


def ws_leaks(log: SessionLog, view: RunView, where: str, tags: list[str]) -> None:
    """The chat shows this session's tag and no other session's."""
    text = view.chat_text()
    if log.tag not in text:
        log.leaks.append(f"{where}: own tag {log.tag} missing")
    for other in tags:
        if other != log.tag and re.search(rf"\b{other}\b", text):
            log.leaks.append(f"{where}: shows {other}'s message")


def heading_is(title: str):  # noqa: ANN201
    return lambda view: None if title in view.texts() else f"heading {title!r} not shown"


async def ws_student(base: str, i: int, tags: list[str], args: argparse.Namespace) -> SessionLog:
    """One student through the websocket protocol: the same actions and checks as `student`."""
    log = SessionLog(tags[i])
    await asyncio.sleep(i * args.stagger)
    think = args.think
    try:
        async with WsTab(base) as tab:

            async def chat(kind: str, text: str) -> None:
                before = len(tab.view.chat_blocks)
                box = tab.view.widget("chat_input")
                value = WidgetState(id=box.id)  # type: ignore[attr-defined]
                value.chat_input_value.data = text

                def answered(view: RunView) -> str | None:
                    return None if len(view.chat_blocks) > before else "no new chat message"

                await ws_action(log, kind, text[:40], lambda: tab.rerun(widgets=(value,)), answered)

            async def switch(title: str) -> RunView:
                return await ws_action(log, "switch", title, lambda: tab.rerun(page_title=title), heading_is(title))

            await ws_action(
                log, "open", "Inventory Copilot", lambda: tab.rerun(page_name="inventory_copilot"),
                heading_is("Inventory Copilot"),
            )
            await asyncio.sleep(think)
            await chat(
                "chat_copilot",
                f"We sell phone cases at the {log.tag} shop. Daily demand is random, Poisson with λ = 3 units a day.",
            )
            await asyncio.sleep(think)
            await chat("chat_copilot", "Holding a case costs $0.50 per unit per day, and each lost sale costs us $4.")
            ws_leaks(log, tab.view, "copilot", tags)
            await asyncio.sleep(think)
            await switch("School Scheduling")
            await asyncio.sleep(think)
            await chat("chat_schedule", f"Could Everett start at 9:30 AM? Asking for the {log.tag} team.")
            ws_leaks(log, tab.view, "school scheduling", tags)
            await asyncio.sleep(think)
            view = await switch("Policy Simulator")
            paths = WidgetState(id=view.widget("number_input", "Simulation paths").id, int_value=100)  # type: ignore[attr-defined]
            run = WidgetState(id=view.widget("button", "Run simulation").id, trigger_value=True)  # type: ignore[attr-defined]
            form = (
                checkbox_state(view, "Search the full (s,S) grid", False),
                checkbox_state(view, "Exact DP optimum (when the state space is small enough)", False),
                checkbox_state(view, "Train a DQN", False),
                paths,
                run,
            )

            def recommended(view: RunView) -> str | None:
                return None if any("Recommended for λ" in t for t in view.texts()) else "no recommendation shown"

            await ws_action(log, "simulate", "100 paths", lambda: tab.rerun(widgets=form), recommended)
            await asyncio.sleep(think)
            await switch("Inventory Copilot")
            ws_leaks(log, tab.view, "copilot after switching back", tags)
    except Logged:
        pass
    except Exception as err:  # noqa: BLE001 - a step outside an action (finding a widget, a leak check) failed
        log.errors.append(f"between actions: {type(err).__name__}: {str(err)[:300]}")
    return log


async def ws_drive(base: str, args: argparse.Namespace, tags: list[str]) -> list[SessionLog]:
    """The class through the websocket protocol: a warm-up visit of the three pages, then every student."""
    if args.warmup:
        async with WsTab(base) as tab:
            await tab.rerun(page_name="inventory_copilot")
            for title in ("School Scheduling", "Policy Simulator"):
                await tab.rerun(page_title=title)
    return await asyncio.gather(*(ws_student(base, i, tags, args) for i in range(args.sessions)))


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))], 3)


def user_text(messages: object) -> str:
    """A run's first user messages (a list, an array or None from the store) as one string."""
    return "" if messages is None else " ".join(str(m) for m in messages)  # type: ignore[union-attr]


def check_store(db: Path, tags: list[str]) -> dict:
    """Each tag in exactly one Copilot run (2 user messages) and one School Scheduling run (2: the recorded opening
    request and the turn), no run with two tags, one Policy Simulator run per session; plus every run's status by workbench."""
    store = Store(db)
    runs = store.list_runs(limit=MAX_LIST_LIMIT)
    problems: list[str] = []
    statuses = {wb: dict(Counter(group["status"])) for wb, group in runs.groupby("workbench")}
    for workbench, users in (("inventory_copilot", 2), ("school_scheduling", 2)):
        chosen = runs[runs["workbench"] == workbench]
        for row in chosen.itertuples():
            text = user_text(row.first_user_messages)
            found = [t for t in tags if re.search(rf"\b{t}\b", text)]
            if len(found) > 1:
                problems.append(f"{workbench} run {row.id} holds the messages of {found}")
        for tag in tags:
            holding = [
                r for r in chosen.itertuples() if re.search(rf"\b{tag}\b", user_text(r.first_user_messages))
            ]
            if len(holding) != 1:
                problems.append(f"{workbench}: {len(holding)} runs hold {tag}'s messages (expected 1)")
                continue
            n_user = sum(1 for m in store.messages(holding[0].id).itertuples() if m.role == "user")
            if n_user != users:
                problems.append(f"{workbench} run of {tag}: {n_user} user messages (expected {users})")
    simulations = int((runs["workbench"] == "policy_simulator").sum())
    if simulations != len(tags):
        problems.append(f"policy_simulator: {simulations} runs (expected {len(tags)})")
    return {"runs": len(runs), "statuses": statuses, "problems": problems}


def timing_lines(path: Path, since: float, kind: str) -> list[dict]:
    """The timing file's lines of one kind ("script" or "store") that started after `since`."""
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return [r for r in lines if r.get("kind", "script") == kind and r["start"] >= since]


def store_locks(path: Path, since: float, top: int = 8) -> dict:
    """The store calls after `since` (`core/timing.py`): lock wait p50/p95/max/total, hold total, DuckDB open
    total, and the call sites that waited longest in total (calls, wait total, wait p95, hold total)."""
    logged = timing_lines(path, since, "store")
    calls = [r for r in logged if not r.get("error")]
    waits = [r["wait_s"] for r in calls]
    sites: dict[str, list[dict]] = {}
    for r in calls:
        sites.setdefault(r["site"], []).append(r)
    ranked = sorted(sites.items(), key=lambda kv: -sum(r["wait_s"] for r in kv[1]))[:top]
    return {
        "calls": len(calls),
        "gave_up": len(logged) - len(calls),
        "wait_p50_s": percentile(waits, 0.5),
        "wait_p95_s": percentile(waits, 0.95),
        "wait_max_s": round(max(waits), 3) if waits else None,
        "wait_total_s": round(sum(waits), 2),
        "hold_total_s": round(sum(r["hold_s"] for r in calls), 2),
        "open_total_s": round(sum(r["open_s"] for r in calls), 2),
        "top_sites": [
            {
                "site": site,
                "calls": len(rows),
                "wait_total_s": round(sum(r["wait_s"] for r in rows), 2),
                "wait_p95_s": percentile([r["wait_s"] for r in rows], 0.95),
                "hold_total_s": round(sum(r["hold_s"] for r in rows), 2),
            }
            for site, rows in ranked
        ],
    }


def server_runs(path: Path, since: float) -> dict:
    """The server's script runs after `since` by page: count, p50/p95 seconds, CPU seconds, seconds waiting for
    the store's lock, outcomes."""
    lines = timing_lines(path, since, "script")
    summary = {}
    for page in sorted({r["page"] for r in lines}):
        mine = [r for r in lines if r["page"] == page]
        secs = [r["seconds"] for r in mine]
        summary[page or "home"] = {
            "runs": len(mine),
            "p50_s": percentile(secs, 0.5),
            "p95_s": percentile(secs, 0.95),
            "max_s": round(max(secs), 3),
            "cpu_s": round(sum(r["cpu_s"] for r in mine), 2),
            "cpu_p95_s": percentile([r["cpu_s"] for r in mine], 0.95),
            "store_calls": sum(r.get("store_calls", 0) for r in mine),
            "store_wait_p95_s": percentile([r.get("store_wait_s", 0.0) for r in mine], 0.95),
            "store_wait_s": round(sum(r.get("store_wait_s", 0.0) for r in mine), 2),
            "outcomes": dict(Counter(r["outcome"] for r in mine)),
        }
    return summary


async def drive(base: str, exe: str, args: argparse.Namespace, tags: list[str]) -> list[SessionLog]:
    """The class in one headless chromium, one Playwright context per student (`--client browser`)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        try:
            if args.warmup:  # the teacher opened each page once before class: imports and process caches paid
                context = await browser.new_context(base_url=base)
                page = await context.new_page()
                for path in ("/inventory_copilot", "/school_scheduling", "/policy_simulator"):
                    await page.goto(path, wait_until="commit")
                    await page.locator("h1").first.wait_for(timeout=TIMEOUT_MS)
                    await wait_idle(page)
                await context.close()
            return await asyncio.gather(
                *(student(browser, base, i, tags, args) for i in range(args.sessions))
            )
        finally:
            await browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--stagger", type=float, default=0.5, help="seconds between two sessions' starts")
    ap.add_argument("--think", type=float, default=1.0, help="seconds a student waits between actions")
    ap.add_argument("--no-warmup", dest="warmup", action="store_false")
    ap.add_argument(
        "--nice", type=int, default=10, help="niceness added to the load generator (chromium), not the server"
    )
    ap.add_argument(
        "--client",
        choices=("ws", "browser"),
        default="ws",
        help="ws: Streamlit's websocket protocol, no browser (light); browser: one chromium, a Playwright context "
        "per student (end to end, heavy)",
    )
    ap.add_argument("--keep", type=Path, default=None, help="copy the timing file and server log here")
    args = ap.parse_args()
    exe = find_chromium() if args.client == "browser" else ""
    if exe is None:
        sys.exit("Debian 'chromium' not found (apt-get install chromium, or set CHROMIUM_PATH)")
    tags = [tag_of(i) for i in range(args.sessions)]
    for name in ENV_VARS:  # offline: none of the developer's provider keys or URLs reach the server
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory() as tmp:
        db, timing = Path(tmp) / "class.duckdb", Path(tmp) / "timing.jsonl"
        server = start_server(
            Path(tmp), {"ORCA_DB": str(db), "ORCA_PROVIDER": "offline", SCRIPT_TIMING_VAR: str(timing)}
        )
        os.nice(args.nice)  # the browser and its driver start after this: the server keeps its priority
        sampler = ProcSampler(server.proc.pid)
        sampler.start()
        began = time.time()
        try:
            if args.client == "browser":
                logs = asyncio.run(drive(server.url, exe, args, tags))
            else:
                logs = asyncio.run(ws_drive(server.url, args, tags))
        finally:
            sampler.stop()
            server.stop()
        class_start = min((a["start"] for log in logs for a in log.actions), default=began)
        store = check_store(db, tags)
        server_summary = server_runs(timing, class_start)
        locks = store_locks(timing, class_start)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            for src in (timing, *Path(tmp).glob("server*.log")):
                if src.exists():
                    (args.keep / src.name).write_bytes(src.read_bytes())
    actions = [a for log in logs for a in log.actions]
    kinds = {}
    for kind in ("open", "chat_copilot", "chat_schedule", "switch", "simulate"):
        secs = [a["seconds"] for a in actions if a["kind"] == kind]
        kinds[kind] = {
            "n": len(secs),
            "p50_s": percentile(secs, 0.5),
            "p95_s": percentile(secs, 0.95),
            "max_s": max(secs) if secs else None,
        }
    during = [s for s in sampler.samples if s["t"] >= class_start]
    resources = {
        "server_cores_mean": round(statistics.fmean(s["cores"] for s in during), 2) if during else None,
        "server_cores_max": round(max(s["cores"] for s in during), 2) if during else None,
        "client_cores_mean": round(statistics.fmean(s["client_cores"] for s in during), 2)
        if during
        else None,
        "server_rss_mb_max": round(max(s["rss_mb"] for s in during), 1) if during else None,
        "load1_max": max(s["load1"] for s in during) if during else None,
    }
    errors = [f"{log.tag}: {e}" for log in logs for e in log.errors]
    leaks = [f"{log.tag}: {e}" for log in logs for e in log.leaks]
    chat_switch = [a["seconds"] for a in actions if a["kind"].startswith("chat") or a["kind"] == "switch"]
    p95 = percentile(chat_switch, 0.95)
    print(
        f"{args.sessions} sessions ({args.client}), stagger {args.stagger} s, think {args.think} s, "
        f"warm-up {args.warmup}"
    )
    print(f"{'action':14} {'n':>4} {'p50 s':>8} {'p95 s':>8} {'max s':>8}")
    for kind, row in kinds.items():
        print(f"{kind:14} {row['n']:>4} {row['p50_s']!s:>8} {row['p95_s']!s:>8} {row['max_s']!s:>8}")
    print(f"p95 chat turns and page switches: {p95} s (target ≤ {TARGET_S} s)")
    print("server script runs by page:")
    for page, row in server_summary.items():
        print(f"  {page:24} {row}")
    print(
        f"store calls: {locks['calls']} (gave up waiting: {locks['gave_up']}), lock wait p50/p95/max {locks['wait_p50_s']}/{locks['wait_p95_s']}/"
        f"{locks['wait_max_s']} s, total waited {locks['wait_total_s']} s, held {locks['hold_total_s']} s "
        f"(of which opening DuckDB {locks['open_total_s']} s); longest total waits by call site:"
    )
    for row in locks["top_sites"]:
        print(f"  {row['wait_total_s']:>8} s  {row['calls']:>5} calls  p95 {row['wait_p95_s']} s  {row['site']}")
    print(f"server: {resources}")
    print(f"errors: {len(errors)}, leaks: {len(leaks)}, store problems: {len(store['problems'])}")
    for line in (*errors, *leaks, *store["problems"]):
        print("  " + line)
    print(
        json.dumps(
            {
                "sessions": args.sessions,
                "client": args.client,
                "stagger_s": args.stagger,
                "think_s": args.think,
                "warmup": args.warmup,
                "actions": kinds,
                "p95_chat_and_switch_s": p95,
                "meets_target": p95 is not None
                and p95 <= TARGET_S
                and not errors
                and not leaks
                and not store["problems"],
                "server_runs": server_summary,
                "store_locks": locks,
                "server": resources,
                "errors": errors,
                "leaks": leaks,
                "store": store,
            }
        )
    )


if __name__ == "__main__":
    main()
