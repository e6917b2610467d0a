"""Containment behind the language filter: PLAIN Python (no static check, no RestrictedPython, as if both were
bypassed) run in the very same child setup by `core.sandbox._run_plain` cannot read secrets, the store, the
repository or $HOME, cannot write or delete outside its own directory, cannot fork-bomb, reach the network or
signal the host, and leaves no process behind; the standard library stays readable."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from core.sandbox import SANDBOX_UID_BASE, SandboxLimits, _run_plain

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="layer 4 (namespace, chroot, own uid) needs root, as CI")

REPO = Path(__file__).resolve().parents[2]
LIMITS = SandboxLimits(cpu_seconds=3, wall_seconds=20.0)


def plain(code: str, limits: SandboxLimits = LIMITS) -> dict:
    out = _run_plain(code, limits)
    assert out["error"] is None, out["error"]
    return out["result"]


def attempt(code: str) -> str:
    """Plain code whose `result` is "ok: ..." if `code` (an expression) succeeds, else the exception's type."""
    return (
        "import os, socket, signal\n"
        f"try:\n    result = 'ok: ' + repr({code})[:200]\n"
        "except BaseException as err:\n    result = type(err).__name__ + ': ' + str(err)\n"
    )


def live_processes_of(uid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
            if fields.get("Uid", "").split("\t")[0] == str(uid) and not fields.get("State", "").startswith("Z"):
                pids.append(int(entry))
    return pids


def test_the_parents_environment_and_api_key_cannot_be_read() -> None:
    """The parent holds a (fake) API key in its environment; the child has none and cannot read the parent's."""
    probe = attempt("open(f'/proc/{os.getppid()}/environ', 'rb').read()") + "result = [result, dict(os.environ)]\n"
    host = (
        "import json, os, sys\nsys.path.insert(0, sys.argv[1])\nfrom core.sandbox import _run_plain, SandboxLimits\n"
        "own = open(f'/proc/{os.getpid()}/environ', 'rb').read()\n"
        "out = _run_plain(sys.argv[2], SandboxLimits(cpu_seconds=3, wall_seconds=20.0))\n"
        "print(json.dumps({'own': b'sk-ant-FAKE-4711' in own, 'out': out}))\n"
    )
    env = {"PATH": os.environ.get("PATH", ""), "ANTHROPIC_API_KEY": "sk-ant-FAKE-4711"}
    done = subprocess.run([sys.executable, "-c", host, str(REPO), probe], capture_output=True, text=True, env=env,
                          timeout=60, check=True)  # fmt: skip
    report = json.loads(done.stdout)
    assert report["own"]  # the key is really in the parent's environ: the probe can fail
    (environ, child_env), error = report["out"]["result"], report["out"]["error"]
    assert error is None and not environ.startswith("ok") and "sk-ant" not in environ
    assert "ANTHROPIC_API_KEY" not in child_env and "sk-ant" not in json.dumps(child_env)


def test_the_store_the_repository_home_and_system_files_cannot_be_read(tmp_path: Path) -> None:
    import duckdb

    store = tmp_path / "orca.duckdb"
    with duckdb.connect(str(store)) as con:
        con.execute("CREATE TABLE secrets AS SELECT 'sk-live' AS key")
    readme = REPO / "README.md"
    home = Path(os.path.expanduser("~"))
    assert store.read_bytes() and readme.read_text()  # the host can: the probes below can fail
    for path in (store, readme, "/etc/passwd", "/etc/shadow", home / ".bash_history"):
        assert not plain(attempt(f"open({str(path)!r}, 'rb').read(64)")).startswith("ok"), path
    for folder in (home, REPO, tmp_path, "/proc", "/etc"):
        assert not plain(attempt(f"os.listdir({str(folder)!r})")).startswith("ok"), folder


def test_the_standard_library_stays_readable_and_the_code_runs_as_its_own_user() -> None:
    assert plain(attempt("open(os.__file__).read(10)")).startswith("ok")
    ids = plain("import os\nresult = [os.getuid(), os.geteuid(), os.getgid(), os.getgroups(), os.getcwd()]")
    assert ids[0] == ids[1] == ids[2] > SANDBOX_UID_BASE and ids[3] == [] and ids[4] == "/sandbox"


def test_nothing_outside_its_directory_can_be_written_or_deleted(tmp_path: Path, monkeypatch) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the private working directory is made
    for code in (
        f"os.remove({str(victim)!r})",
        f"open({str(tmp_path / 'new.txt')!r}, 'x')",
        f"os.rename({str(victim)!r}, 'stolen')",
        "open('/usr/orca-probe', 'x')",
        f"open({os.__file__!r}, 'a')",
        "os.mkdir('/orca-probe')",
        "os.chmod('/sandbox', 0o777) or os.chroot('/')",
        "os.setuid(0)",
    ):
        assert not plain(attempt(code)).startswith("ok"), code
    assert victim.read_text() == "keep me" and not (tmp_path / "new.txt").exists()
    assert not Path("/usr/orca-probe").exists() and not Path("/orca-probe").exists()
    inside = plain(attempt("open('mine.txt', 'x').close() or os.listdir('.')"))
    assert inside == "ok: ['mine.txt']"  # its own directory is usable (empty files: RLIMIT_FSIZE is 0) ...
    assert [p.name for p in tmp_path.iterdir()] == ["victim.txt"]  # ... and removed afterwards
    flood = "n = 0\ntry:\n    while n < 100000:\n        open(str(n), 'x').close()\n        n += 1\n"
    flood += "except OSError as err:\n    result = [n, err.errno]"
    created, errno = plain(flood)
    assert created < 1000 and errno == 28  # ENOSPC: its tmpfs holds at most 1,000 files


def test_no_fork_bomb_and_no_process_survives_the_call() -> None:
    assert plain(attempt("os.fork()")).startswith("BlockingIOError")  # default: no process at all
    bomb = (
        "import os, time\nborn = 0\nfailed = None\n"
        "for i in range(200):\n"
        "    try:\n        pid = os.fork()\n    except OSError as err:\n        failed = type(err).__name__\n        break\n"
        "    if pid == 0:\n        os.setsid()\n        time.sleep(600)\n        os._exit(0)\n"
        "    born += 1\n"
        "result = [born, failed, os.getuid()]"
    )
    born, failed, uid = plain(bomb, SandboxLimits(cpu_seconds=3, wall_seconds=20.0, max_processes=4))
    assert born == 3 and failed == "BlockingIOError"  # RLIMIT_NPROC: 4 processes of its uid in all
    assert live_processes_of(uid) == []


def test_a_detached_sleeper_is_killed_when_the_call_ends() -> None:
    code = (
        "import os, time\nr, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n        time.sleep(600)\n"
        "    os.write(w, str(pid).encode())\n    os._exit(0)\n"
        "result = [int(os.read(r, 32)), os.getuid()]"
    )
    sleeper, uid = plain(code, SandboxLimits(cpu_seconds=3, wall_seconds=20.0, max_processes=3))
    assert sleeper > 0 and live_processes_of(uid) == []
    assert not Path(f"/proc/{sleeper}").exists() or sleeper not in live_processes_of(uid)


def test_no_network_and_no_host_socket(tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    unix_path = tmp_path / "host.sock"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(str(unix_path))
    unix.listen(1)
    port = server.getsockname()[1]
    try:
        tcp = plain(attempt(f"socket.create_connection(('127.0.0.1', {port}), timeout=2)"))
        local = plain(attempt(f"socket.socket(socket.AF_UNIX).connect({str(unix_path)!r})"))
        abstract = plain(attempt("socket.socket(socket.AF_UNIX).connect('\\0orca-probe')"))
    finally:
        server.close()
        unix.close()
    assert not tcp.startswith("ok") and not local.startswith("ok") and not abstract.startswith("ok")


def test_the_host_cannot_be_signalled() -> None:
    received = []
    previous = signal.signal(signal.SIGTERM, lambda *_: received.append(True))
    try:
        outcomes = [
            plain(attempt(f"os.kill({os.getpid()}, signal.SIGTERM)")),
            plain(attempt(f"os.killpg({os.getpgid(0)}, signal.SIGTERM)")),
            plain(attempt("os.kill(os.getppid(), signal.SIGTERM)")),  # the host process that runs run_code
        ]
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert all(o.startswith("PermissionError") for o in outcomes), outcomes
    assert received == []


def test_no_system_v_ipc_object_of_the_host_is_reachable() -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    key = 0x0AC0FFEE
    segment = libc.shmget(key, 4096, 0o1666)  # IPC_CREAT | 0666: any user of this IPC namespace could attach
    assert segment >= 0
    try:
        probe = f"import ctypes\nresult = ctypes.CDLL(None, use_errno=True).shmget({key}, 0, 0o666)"
        assert plain(probe) == -1  # not found: the child has its own IPC namespace
    finally:
        libc.shmctl(segment, 0, None)  # IPC_RMID
