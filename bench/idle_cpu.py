"""Idle CPU of the app as `make run` serves it: start it with `make run`'s launcher (`python -m core.serve`; the
repo's `.streamlit/config.toml` applies), open the home page in headless chromium so a session exists, wait until it rendered, then measure the
server's CPU time over an idle window.

Run: .venv/bin/python bench/idle_cpu.py [--seconds 20] [--watcher auto|poll|none]
(`--watcher` overrides the config to compare; default: whatever config.toml says). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.browser import CHROMIUM_ARGS, StreamlitServer, find_chromium  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of `pid` and its reaped children, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return (utime + stime + cutime + cstime) / TICKS


class MakeRunServer(StreamlitServer):
    """The `make run` command line (no test-only watcher flags), optionally with a watcher override."""

    def __init__(self, log_path: Path, watcher: str | None) -> None:
        from tests.support import browser

        port = browser._free_port()
        self.port, self.url, self.log_path = port, f"http://127.0.0.1:{port}", log_path
        cmd = [*browser.LAUNCHER, "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"]
        if watcher:
            cmd += ["--server.fileWatcherType", watcher]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "ORCA_PROVIDER": "offline",
               "ORCA_DB": str(log_path.parent / "idle.duckdb")}
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True, env=env)


def measure(seconds: float, watcher: str | None) -> dict:
    import tempfile

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = MakeRunServer(Path(tmp) / "server.log", watcher)
        try:
            server.wait_healthy()
            with sync_playwright() as pw:
                chromium = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS, headless=True)
                page = chromium.new_page()
                page.goto(server.url, wait_until="domcontentloaded")
                page.get_by_role("heading", name="ORCA · Operations Research Copilot Arena").first.wait_for(timeout=60_000)
                time.sleep(3.0)  # let the first run's imports settle
                start_cpu, start = cpu_seconds(server.proc.pid), time.monotonic()
                time.sleep(seconds)
                used, wall = cpu_seconds(server.proc.pid) - start_cpu, time.monotonic() - start
                chromium.close()
        finally:
            server.stop()
    return {"watcher": watcher or "config.toml", "idle_seconds": round(wall, 1), "cpu_seconds": round(used, 2),
            "cpu_percent_of_one_core": round(100 * used / wall, 1), "load_average": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--watcher", choices=["auto", "poll", "watchdog", "none"], default=None)
    args = parser.parse_args()
    print(json.dumps(measure(args.seconds, args.watcher)))


if __name__ == "__main__":
    main()
