"""Start the app as `make run` does (`python -m core.serve`: warm-up, then `streamlit run app.py`) on a free
loopback port, and find Debian's chromium for Playwright."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


LAUNCHER = [sys.executable, "-m", "core.serve"]
"""How `make run` starts the app (`core/serve.py`); every browser test and benchmark server starts the same way."""


def find_chromium() -> str | None:
    """`$CHROMIUM_PATH` if executable, else `chromium` on PATH."""
    candidate = os.environ.get("CHROMIUM_PATH")
    if candidate and os.access(candidate, os.X_OK):
        return candidate
    return shutil.which("chromium")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class StreamlitServer:
    """One server process (`python -m core.serve`, as `make run` starts it) in its own process group; `stop()`
    kills only that group. Healthy only once its warm-up is done (`core/serve.py`)."""

    def __init__(self, log_path: Path, env: dict[str, str]) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        cmd = [*LAUNCHER, "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(self.port),
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
               "--server.runOnSave", "false"]
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         env={**os.environ, **env, "PYTHONUNBUFFERED": "1"})

    def wait_healthy(self, timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early (rc={self.proc.returncode}):\n{self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response:
                    if response.status == 200 and response.read().strip() == b"ok":
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"streamlit not healthy after {timeout}s:\n{self.log_path.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)


def start_server(log_dir: Path, env: dict[str, str], attempts: int = 3) -> StreamlitServer:
    """Start and wait for a healthy server, retrying when the free port was taken in between."""
    for attempt in range(attempts):
        server = StreamlitServer(log_dir / f"server{attempt}.log", env)
        try:
            server.wait_healthy()
            return server
        except RuntimeError:
            server.stop()
            if attempt == attempts - 1 or "is not available" not in server.log_path.read_text():
                raise
    raise RuntimeError("unreachable")
