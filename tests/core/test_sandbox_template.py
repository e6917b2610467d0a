"""The fast sandbox: every call forks one fresh child from a pre-imported template process; no process is ever
reused, the template dies with its host and is restarted when it dies, concurrent calls are safe, and the
containment of a child is that of `test_sandbox_containment.py` (which runs through the same fork)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.sandbox import _TEMPLATE_PROCESS, SANDBOX_UID_BASE, SandboxLimits, _run_plain, run_code

REPO = Path(__file__).resolve().parents[2]
LIMITS = SandboxLimits(cpu_seconds=3, wall_seconds=20.0)
IDENTITY = "import os, sys\nresult = [os.getpid(), os.getppid(), os.getuid(), 'RestrictedPython' in sys.modules]"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def wait_until(check, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_each_call_is_a_fresh_fork_of_the_pre_imported_template_and_none_is_reused() -> None:
    seen = []
    for _ in range(3):
        out = _run_plain(IDENTITY, LIMITS)
        assert out["error"] is None, out["error"]
        seen.append(out["result"])
        assert not alive(out["result"][0])  # the child is gone when the call returns ...
        supervisor = out["result"][1]
        assert wait_until(lambda s=supervisor: not alive(s), 5.0)  # ... its supervisor right after (it reaps it)
    template = _TEMPLATE_PROCESS.pid()
    assert template is not None and alive(template)
    assert all(imported for *_, imported in seen)  # imports come from the template, not a fresh interpreter
    assert len({pid for pid, *_ in seen}) == 3 and len({parent for _, parent, *_ in seen}) == 3
    assert all(pid != template and parent != template for pid, parent, *_ in seen)
    if os.geteuid() == 0:
        assert all(uid == SANDBOX_UID_BASE + pid for pid, _, uid, _ in seen)  # a uid of its own per call
    assert _TEMPLATE_PROCESS.pid() == template  # the template is the one long-lived process


def test_a_child_inherits_no_descriptor_of_the_template_or_the_host() -> None:
    code = ("import os\nopen_fds = []\nfor fd in range(3, 64):\n    try:\n        os.fstat(fd)\n"
            "        open_fds.append(fd)\n    except OSError:\n        pass\nresult = open_fds")  # fmt: skip
    out = _run_plain(code, LIMITS)
    assert out["error"] is None and out["result"] == []  # not the template's control socket, not another call's pipe


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid of its own per call needs root")
def test_the_template_and_its_supervisors_cannot_be_signalled_by_the_code() -> None:
    out = _run_plain(IDENTITY, LIMITS)
    template = _TEMPLATE_PROCESS.pid()
    code = (f"import os, signal\nresult = []\nfor pid in ({template}, os.getppid()):\n    try:\n"
            "        os.kill(pid, signal.SIGKILL)\n        result.append('ok')\n"
            "    except OSError as err:\n        result.append(type(err).__name__)")  # fmt: skip
    assert out["error"] is None
    assert _run_plain(code, LIMITS)["result"] == ["PermissionError", "PermissionError"]
    assert alive(template) and _TEMPLATE_PROCESS.pid() == template


def test_a_dead_template_is_restarted() -> None:
    assert run_code("1+1")["result"] == 2
    first = _TEMPLATE_PROCESS.pid()
    assert first is not None
    os.kill(first, signal.SIGKILL)
    assert wait_until(lambda: not alive(first))
    assert run_code("2+2")["result"] == 4
    second = _TEMPLATE_PROCESS.pid()
    assert second is not None and second != first


def test_concurrent_calls_are_safe() -> None:
    """Two sessions calling at once, with bridged tools: each gets its own answer and its own calls."""
    results: dict[int, list] = {0: [], 1: []}

    def session(n: int) -> None:
        for i in range(8):
            out = run_code(f"x = echo({n} * 100 + {i})\nresult = [x['v'], {n}]", {}, {"echo": ["v"]},
                           lambda name, args: {"v": args["v"]}, LIMITS)  # fmt: skip
            results[n].append((out["result"], [c["args"] for c in out["tool_calls"]], out["error"]))

    threads = [threading.Thread(target=session, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for n in (0, 1):
        assert results[n] == [([n * 100 + i, n], [{"v": n * 100 + i}], None) for i in range(8)]


def test_the_template_dies_with_its_host() -> None:
    host = (
        "import json, sys, time\nsys.path.insert(0, sys.argv[1])\nfrom core.sandbox import run_code, _TEMPLATE_PROCESS\n"
        "assert run_code('1+1')['result'] == 2\nprint(json.dumps(_TEMPLATE_PROCESS.pid()), flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", host, str(REPO)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        template = json.loads(proc.stdout.readline())
        assert isinstance(template, int) and alive(template)
    finally:
        proc.kill()
        proc.wait()
    assert wait_until(lambda: not alive(template), 10.0)


def test_the_template_dies_with_its_host_even_when_a_fork_of_the_host_keeps_its_socket() -> None:
    """A forked worker of the host inherits the template's control socket; the template still goes when the
    host goes (it watches its parent)."""
    host = (
        "import json, os, sys, time\nsys.path.insert(0, sys.argv[1])\n"
        "from core.sandbox import run_code, _TEMPLATE_PROCESS\n"
        "assert run_code('1+1')['result'] == 2\n"
        "if os.fork() == 0:\n    time.sleep(30)\n    os._exit(0)\n"
        "print(json.dumps(_TEMPLATE_PROCESS.pid()), flush=True)\ntime.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", host, str(REPO)], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        template = json.loads(proc.stdout.readline())
        assert alive(template)
        proc.kill()
        proc.wait()
        assert wait_until(lambda: not alive(template), 10.0)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)


def test_the_template_holds_no_secret_of_its_host() -> None:
    """Every child is a copy of the template's memory: the template starts with an empty environment, so an API
    key in the host's environment is in neither the template's environment nor its command line."""
    host = (
        "import json, sys, time\nsys.path.insert(0, sys.argv[1])\nfrom core.sandbox import run_code, _TEMPLATE_PROCESS\n"
        "assert run_code('1+1')['result'] == 2\nprint(json.dumps(_TEMPLATE_PROCESS.pid()), flush=True)\n"
        "time.sleep(600)\n"
    )
    env = {"PATH": os.environ.get("PATH", ""), "ANTHROPIC_API_KEY": "sk-ant-FAKE-4711"}
    proc = subprocess.Popen([sys.executable, "-c", host, str(REPO)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        template = json.loads(proc.stdout.readline())
        assert b"sk-ant-FAKE-4711" in Path(f"/proc/{proc.pid}/environ").read_bytes()  # the probe can fail
        assert Path(f"/proc/{template}/environ").read_bytes() == b""
        assert b"sk-ant" not in Path(f"/proc/{template}/cmdline").read_bytes()
    finally:
        proc.kill()
        proc.wait()
