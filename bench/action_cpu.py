"""CPU per action of the class (issue 31 item 1): what one student's actions cost the server in CPU seconds.

Wall times on a shared machine measure the other developers; CPU seconds hardly depend on them. This starts the
server as `bench/class_load.py` does (offline, a fresh store, `$ORCA_SCRIPT_TIMING` set), visits the three pages
once (the teacher's warm-up; the teacher's tab stays open), then runs `--students` students one after another through Streamlit's websocket
protocol (`bench/class_load.py: WsTab`), each doing the class's actions: open the Inventory Copilot, two chat
turns, switch to School Scheduling, one chat turn, switch to the Policy Simulator, a small simulation (two
heuristic policies, 100 paths, no grid, DP or DQN), switch back to the Copilot. Around each action it reads the
CPU time (utime + stime from /proc) of the server process and, separately, of its child processes (a process
pool's workers), waiting `--settle` seconds after the run finished so the server's trailing work is counted.
Beside them, the script threads' own CPU (the timing file's `cpu_s`, summed over the action's script runs).

Per action kind it prints the median over students of: server process CPU, child processes' CPU, script-thread
CPU, script runs; and the total per student. With `--profile DIR` the server writes one cProfile file per script
run there (`$ORCA_SCRIPT_PROFILE`, `core/ui.py: script_timing`).

Run: .venv/bin/python bench/action_cpu.py [--students 3] [--settle 0.3] [--profile DIR] (prints a table, then
one JSON line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from bench.class_load import WsTab, checkbox_state, tag_of, timing_lines  # noqa: E402
from core.config import ENV_VARS  # noqa: E402
from core.ui import SCRIPT_PROFILE_VAR, SCRIPT_TIMING_VAR  # noqa: E402
from tests.support.browser import start_server  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
KINDS = ("open", "chat_copilot", "switch_schedule", "chat_schedule", "switch_simulator", "simulate",
         "switch_copilot")


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of process `pid` and of its live descendants (plus the reaped children's, from cutime/cstime)."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    own_fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(own_fields[11]) + int(own_fields[12])) / TICK
    reaped = (int(own_fields[13]) + int(own_fields[14])) / TICK
    children, todo = 0.0, [p for p, pp in parent.items() if pp == pid]
    while todo:
        child = todo.pop()
        try:
            children += _cpu_of(child)
        except (OSError, ValueError, IndexError):
            continue
        todo.extend(p for p, pp in parent.items() if pp == child)
    return own, children + reaped


async def student(url: str, tag: str, server_pid: int, timing: Path, settle: float) -> list[dict]:
    """One student's actions, each with the server's CPU seconds it cost."""
    rows: list[dict] = []
    async with WsTab(url) as tab:

        async def measured(kind: str, action) -> None:  # noqa: ANN001
            own0, kids0 = tree_cpu(server_pid)
            started = time.time()
            await action()
            await asyncio.sleep(settle)
            own1, kids1 = tree_cpu(server_pid)
            runs = [r for r in timing_lines(timing, started, "script")]
            rows.append({
                "kind": kind,
                "server_cpu_s": round(own1 - own0, 3),
                "children_cpu_s": round(kids1 - kids0, 3),
                "script_cpu_s": round(sum(r["cpu_s"] for r in runs), 3),
                "script_runs": len(runs),
                "wall_s": round(time.time() - started - settle, 3),
            })

        async def chat(kind: str, text: str) -> None:
            box = tab.view.widget("chat_input")
            value = WidgetState(id=box.id)  # type: ignore[attr-defined]
            value.chat_input_value.data = text
            await measured(kind, lambda: tab.rerun(widgets=(value,)))

        await measured("open", lambda: tab.rerun(page_name="inventory_copilot"))
        await chat("chat_copilot", f"We sell phone cases at the {tag} shop. Daily demand is random, Poisson with "
                   "λ = 3 units a day.")
        await chat("chat_copilot", "Holding a case costs $0.50 per unit per day, and each lost sale costs us $4.")
        await measured("switch_schedule", lambda: tab.rerun(page_title="School Scheduling"))
        await chat("chat_schedule", f"Could Everett start at 9:30 AM? Asking for the {tag} team.")
        await measured("switch_simulator", lambda: tab.rerun(page_title="Policy Simulator"))
        view = tab.view
        form = (
            checkbox_state(view, "Search the full (s,S) grid", False),
            checkbox_state(view, "Exact DP optimum (when the state space is small enough)", False),
            checkbox_state(view, "Train a DQN", False),
            WidgetState(id=view.widget("number_input", "Simulation paths").id, int_value=100),  # type: ignore[attr-defined]
            WidgetState(id=view.widget("button", "Run simulation").id, trigger_value=True),  # type: ignore[attr-defined]
        )
        await measured("simulate", lambda: tab.rerun(widgets=form))
        if not any("Recommended for λ" in t for t in tab.view.texts()):
            raise RuntimeError("the simulation showed no recommendation")
        await measured("switch_copilot", lambda: tab.rerun(page_title="Inventory Copilot"))
        if tag not in tab.view.chat_text():
            raise RuntimeError(f"the Copilot lost {tag}'s conversation")
    return rows


async def drive(url: str, args: argparse.Namespace, pid: int, timing: Path) -> list[list[dict]]:
    """The teacher's warm-up visit (imports and process-wide caches paid once), then the students. The teacher's
    tab stays open as in class: Streamlit drops its compiled page scripts when the last session disconnects."""
    async with WsTab(url) as tab:
        await tab.rerun(page_name="inventory_copilot")
        for title in ("School Scheduling", "Policy Simulator"):
            await tab.rerun(page_title=title)
        await asyncio.sleep(1.0)
        return [await student(url, tag_of(i), pid, timing, args.settle) for i in range(args.students)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=3, help="students run one after another")
    ap.add_argument("--settle", type=float, default=0.3, help="seconds waited after each action before reading")
    ap.add_argument("--profile", type=Path, default=None, help="write one cProfile file per script run here")
    args = ap.parse_args()
    for name in ENV_VARS:
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory() as tmp:
        timing = Path(tmp) / "timing.jsonl"
        env = {"ORCA_DB": str(Path(tmp) / "class.duckdb"), "ORCA_PROVIDER": "offline", SCRIPT_TIMING_VAR: str(timing)}
        if args.profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
            env[SCRIPT_PROFILE_VAR] = str(args.profile.resolve())
        server = start_server(Path(tmp), env)
        try:
            own0, _ = tree_cpu(server.proc.pid)
            time.sleep(2.0)
            idle = (tree_cpu(server.proc.pid)[0] - own0) / 2.0
            students = asyncio.run(drive(server.url, args, server.proc.pid, timing))
        finally:
            server.stop()
    load = Path("/proc/loadavg").read_text().split()[0]
    table = {}
    for kind in KINDS:
        rows = [r for s in students for r in s if r["kind"] == kind]
        table[kind] = {
            key: round(statistics.median(r[key] for r in rows), 3)
            for key in ("server_cpu_s", "children_cpu_s", "script_cpu_s", "script_runs", "wall_s")
        } | {"n": len(rows)}
    totals = [sum(r["server_cpu_s"] + r["children_cpu_s"] for r in s) for s in students]
    print(f"{args.students} students one after another; idle server {idle:.3f} cores; load average {load}")
    print(f"{'action':18} {'n':>3} {'server CPU s':>13} {'children s':>11} {'script s':>9} {'runs':>5} {'wall s':>7}")
    for kind, row in table.items():
        print(f"{kind:18} {row['n']:>3} {row['server_cpu_s']:>13} {row['children_cpu_s']:>11} "
              f"{row['script_cpu_s']:>9} {row['script_runs']:>5} {row['wall_s']:>7}")
    print(f"per student (server + children): median {statistics.median(totals):.2f} s, all {[round(t, 2) for t in totals]}")
    print(json.dumps({"students": args.students, "idle_cores": round(idle, 4), "load1": float(load),
                      "actions": table, "per_student_cpu_s": [round(t, 3) for t in totals], "raw": students}))


if __name__ == "__main__":
    main()
