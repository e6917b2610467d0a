"""The one sandbox for model-written Python (`execute_code`; reusable by any workbench's code-writing agent).

`run_code(code, variables, tools, call_tool)` runs `code` in a fresh child process and returns
``{"stdout", "result", "error", "tool_calls"}``; it never raises for anything the code does.

Processes: each host process has one *template* (`python -I`, empty environment, started on first use) that
has imported what the children need (RestrictedPython, the whitelisted modules) and does nothing else. Per
call it forks a *supervisor*, which forks the call's *child*: the child takes the call's two pipes as
stdin/stdout, closes every other descriptor, applies layer 3 to itself and runs the child program, so a call
costs a fork instead of an interpreter start (about 12 ms instead of 130 ms; `bench/sandbox_speed.py`). No
process is reused: child and supervisor exit with the call, and the supervisor keeps the dead child unreaped
(its pid and process group cannot be reused) until the host has killed what the call left. The template is
restarted when it dies (or when the host process is a fork of the one that started it) and exits when its
host does (its control socket closes or its parent changes); the supervisor and the child die with it
(`PR_SET_PDEATHSIG`). Calls from several threads at once are safe. Forked children share the template's
string-hash seed (set iteration order is the same in every call of one host process). Layers:

1. A static check in the parent (the original RetailBench rules): no `global`/`nonlocal`/`class`/`with`/
   `raise`/async, no dunder or private names or attributes, no `eval`/`exec`/`open`/... names, imports only
   from a small whitelist (collections, datetime, decimal, functools, itertools, json, math, operator,
   statistics). Code that is not encodable text (a lone surrogate) or that the parser cannot nest is an error
   result here.
2. RestrictedPython compilation and guards in the child, restricted builtins, and module *namespaces*
   holding only public non-module attributes (so `statistics.sys` or `json.codecs` are not reachable;
   `operator.attrgetter`/`methodcaller` are dropped, as they would reach dunder attributes by string).
3. Process limits the forked child sets on itself before it reads the request: CPU seconds (`RLIMIT_CPU`),
   address space (`RLIMIT_AS`), no file writes (`RLIMIT_FSIZE` = 0), few file descriptors, `max_processes` processes and threads
   (`RLIMIT_NPROC`: 1, i.e. no fork, by default), no-new-privileges (`PR_SET_NO_NEW_PRIVS`), killed with
   its parent (`PR_SET_PDEATHSIG`), a private network namespace with no interfaces (`unshare(CLONE_NEWNET)`,
   when permitted), an empty environment, a fresh private working directory (removed afterwards); plus a
   wall-clock timeout and caps on printed output, on the size of every message, on the number of tool calls
   and on the bytes of all tool calls (arguments + results) of one run.
4. Containment when the host runs as root (as CI does): the child (its imports inherited from the
   template) then, before compiling or running the code, enters a private mount namespace, builds a minimal root from read-only bind
   mounts (the interpreter prefix, the venv's site-packages, /usr, /lib*, /etc/ld.so.cache, /dev/null,
   /dev/zero, /dev/random, /dev/urandom) plus a private tmpfs working directory `/sandbox`, `chroot`s into
   it and drops to an unprivileged uid/gid of its own (`SANDBOX_UID_BASE` + its pid; no supplementary
   groups); a private IPC namespace hides the host's System V shared memory, semaphores and queues. So the code sees no /proc (no other process's environment), no /etc, no repository, no store,
   no $HOME; cannot write outside `/sandbox`; cannot signal host processes (another uid); and RLIMIT_NPROC
   applies (it does not to root). When the call ends, every process of that uid is killed (a descendant
   that left the process group with `setsid` included), then the working directory is removed. Without a
   mount namespace (a root container lacking CAP_SYS_ADMIN) the child still drops to its own uid, in its
   private working directory. When no such uid is mapped (a user namespace with a short uid map) the call
   fails with an error instead of running the code as root.
   Run as a normal user, layer 4 is skipped: the process limits above (where RLIMIT_NPROC counts all of the
   user's processes, so the code cannot fork), the empty environment and the private working directory hold.

Opt-in extension `pulp` (`run_code(..., extensions=("pulp",))`, used by the School Scheduling lab's
code-writing agents only): `import pulp` then gives a curated namespace (model classes, lpSum/lpDot/value,
status constants, and `HiGHS`, a subclass of pulp.HiGHS that always solves in-process through highspy with
logging off, one thread and a capped time limit). No other solver class is reachable and
`LpProblem.solve` refuses any solver but that one, so no solver process is started and no model/solution
file is written. On PuLP/highspy objects only an allowlist of attributes can be read (no `writeLP`,
`writeMPS`, `toJson`, `fromMPS`, `solverModel`, `solver`, ...) and none can be assigned; the static check
also rejects those names. Every other layer (RestrictedPython, rlimits, no network, empty environment)
is unchanged, and without the extension nothing differs from the default. With `export="prob"` the child
(not the code) returns the final `LpProblem` named `prob` as plain data (`LpProblem.toDict()`) in `model`,
so that a caller can solve it itself instead of trusting a status the code reports.

Tools are bridged: the child calls a proxy, the parent runs `call_tool(name, kwargs)` (the caller decides
which read-only tools exist and logs each call as an indirect one) and sends the JSON result back.
"""

from __future__ import annotations

import array
import ast
import contextlib
import functools
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import SpecError

ALLOWED_MODULES = ("collections", "datetime", "decimal", "functools", "itertools", "json", "math", "operator",
                   "statistics")  # fmt: skip
FORBIDDEN_NAMES = frozenset(
    {"__builtins__", "__import__", "eval", "exec", "compile", "open", "globals", "locals", "vars", "dir", "help",
     "input", "super", "breakpoint", "getattr", "setattr", "delattr", "type", "memoryview", "place_order",
     "modify_sku_price", "set_shelf_skus", "end_today", "add_note", "remove_note"}
)  # fmt: skip
EXTENSIONS = ("pulp",)
PULP_ATTRIBUTES = frozenset(
    {"solve", "status", "sol_status", "objective", "variables", "variablesDict", "constraints", "name", "sense",
     "addConstraint", "setObjective", "numVariables", "numConstraints", "extend", "isMIP", "varValue", "value",
     "valueOrDefault", "lowBound", "upBound", "cat", "dicts", "matrix", "dj", "pi", "slack", "isBinary",
     "isInteger", "isFree", "isConstant", "fixValue", "unfixValue", "setInitialValue", "items", "keys", "values",
     "get", "constant", "getLb", "getUb", "timeLimit", "gapRel", "mip"}
)  # fmt: skip
PULP_WRITABLE = frozenset({"lowBound", "upBound"})
PULP_FORBIDDEN_ATTRIBUTES = frozenset(
    {"writeLP", "writeMPS", "toJson", "to_json", "fromJson", "from_json", "fromMPS", "toDict", "to_dict",
     "fromDict", "from_dict", "solverModel", "solver", "actualSolve", "actualResolve", "getSolver",
     "getSolverFromDict", "getSolverFromJson", "listSolvers", "setSolver", "sequentialSolve", "resolve", "path",
     "keepFiles", "tmpDir", "optionsDict", "solverParams", "callbackTuple", "callbacksToActivate", "hscb", "msg",
     "threads", "create_tmp_files", "delete_tmp_files"}
)  # fmt: skip
PULP_MAX_SOLVE_SECONDS = 5.0
SANDBOX_UID_BASE = 1_600_000_000  # the child of pid P runs as uid/gid SANDBOX_UID_BASE + P (as root only)
FORBIDDEN_NODES = (ast.Global, ast.Nonlocal, ast.ClassDef, ast.AsyncFunctionDef, ast.With, ast.AsyncWith, ast.Raise,
                   ast.Await, ast.AsyncFor)  # fmt: skip


@dataclass(frozen=True)
class SandboxLimits:
    """Resource limits of one execution."""

    cpu_seconds: int = 5
    wall_seconds: float = 10.0
    memory_mb: int = 512
    max_code_chars: int = 20_000
    max_stdout_chars: int = 10_000
    max_message_bytes: int = 2_000_000
    max_tool_calls: int = 500
    max_tool_bytes: int = 5_000_000
    max_processes: int = 1

    def __post_init__(self) -> None:
        for name in ("cpu_seconds", "wall_seconds", "memory_mb", "max_code_chars", "max_stdout_chars",
                     "max_message_bytes", "max_tool_bytes", "max_processes"):  # fmt: skip
            if not getattr(self, name) > 0:
                raise SpecError(name, "must be positive")


def static_check(
    code: str, allowed: Sequence[str] = ALLOWED_MODULES, forbidden_attributes: frozenset[str] = frozenset()
) -> str | None:
    """The first rule `code` breaks as "<ExcType>: <message>", or None if it passes."""
    bad = _unencodable(code)
    if bad:
        return bad
    try:
        tree = ast.parse(code, mode="exec")
    except SyntaxError as err:
        return f"SyntaxError: {err.msg} (line {err.lineno})"
    except ValueError as err:  # null bytes (Python 3.11)
        return f"SyntaxError: {err}"
    except (MemoryError, RecursionError):
        return "SyntaxError: the code is nested too deeply to parse"
    for node in ast.walk(tree):
        if isinstance(node, FORBIDDEN_NODES):
            return f"SecurityError: {type(node).__name__} statements are not allowed"
        if isinstance(node, ast.Name) and (node.id in FORBIDDEN_NAMES or "__" in node.id):
            return f"SecurityError: name {node.id!r} is not allowed"
        if isinstance(node, ast.Attribute) and (node.attr.startswith("_") or "__" in node.attr):
            return f"SecurityError: attribute {node.attr!r} is not allowed"
        if isinstance(node, ast.Attribute) and node.attr in forbidden_attributes:
            return (
                f"SecurityError: attribute {node.attr!r} is not allowed here (no files, no solver processes)"
            )
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in allowed:
                    return f"ImportError: import of {alias.name!r} is not allowed"
        if isinstance(node, ast.ImportFrom):
            if node.level or not node.module or node.module.split(".")[0] not in allowed:
                return f"ImportError: import from {node.module!r} is not allowed"
            if any(a.name == "*" for a in node.names):
                return "ImportError: star imports are not allowed"
    return None


def _unencodable(code: str) -> str | None:
    """An error if `code` is not encodable as UTF-8 (lone surrogates), else None."""
    try:
        code.encode("utf-8")
    except UnicodeEncodeError as err:
        line = code.count("\n", 0, err.start) + 1
        return f"ValueError: the code is not valid Unicode text (a lone surrogate {code[err.start]!r} on line {line})"
    return None


_TEMPLATE = r'''
import ctypes, io, json, os, resource, select, signal, socket, sys
# What every child needs, imported once here; each call's child is a fork of this process (never reused).
from RestrictedPython import compile_restricted
from RestrictedPython.Guards import safer_getattr_raise, guarded_iter_unpack_sequence, guarded_unpack_sequence
import ast, builtins, copy, collections, datetime, decimal, functools, itertools, math, operator, statistics, types
import time, _strptime
CHILD = compile(sys.argv[1], "<sandbox>", "exec")
control = socket.socket(fileno=int(sys.argv[2]))
host = os.getppid()
libc = ctypes.CDLL(None, use_errno=True)
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # supervisors are reaped by the kernel


def limit(spec):
    """Layer 3 of core/sandbox.py, applied by the fresh child to itself before it reads the request."""
    os.setsid()
    mem = spec["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (spec["cpu_seconds"], spec["cpu_seconds"] + 1))
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    try:
        resource.setrlimit(resource.RLIMIT_NPROC, (spec["max_processes"], spec["max_processes"]))
    except (ValueError, OSError):
        pass
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: die with the supervisor
    libc.unshare(0x40000000)  # CLONE_NEWNET: no network interfaces (fails harmlessly when not permitted)


def child(spec, stdin, stdout):
    """The fresh child of one call: the call's pipes as stdin/stdout, nothing else open, then the program."""
    os.dup2(stdin, 0)
    os.dup2(stdout, 1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.closerange(3, 1 << 16)
    os.chdir(spec["root"])
    limit(spec)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    try:
        exec(CHILD, {"__name__": "__main__", "__builtins__": builtins})
    except SystemExit:
        pass
    sys.stdout.flush()


def supervise(spec, stdin, stdout, ctl):
    """Fork the call's child, report its pid, then its exit status; keep it unreaped (its pid and process
    group cannot be reused) until the host has killed what it left and says so."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    control.close()
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: die with the template
    report = socket.socket(fileno=ctl)
    try:
        pid = os.fork()
    except OSError as err:
        report.send(json.dumps({"error": str(err)}).encode())
        return
    if pid == 0:
        try:
            report.close()
            child(spec, stdin, stdout)
        finally:
            os._exit(0)
    os.close(stdin)
    os.close(stdout)
    report.send(json.dumps({"pid": pid}).encode())
    status = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    killed = status.si_code in (os.CLD_KILLED, os.CLD_DUMPED)
    report.send(json.dumps({"exit": -status.si_status if killed else status.si_status}).encode())
    report.recv(16)  # the host's go-ahead, or its end closed
    os.waitpid(pid, 0)


while True:
    if os.getppid() != host:
        os._exit(0)  # the host died (its socket may live on in a forked process of the host)
    if not select.select([control], [], [], 1.0)[0]:
        continue
    try:
        message, ancillary, _, _ = control.recvmsg(4096, socket.CMSG_SPACE(3 * 4))
    except OSError:
        os._exit(0)
    if not message:
        os._exit(0)  # the host closed its end
    fds = []
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.extend(int.from_bytes(data[i : i + 4], sys.byteorder) for i in range(0, len(data) - 3, 4))
    if len(fds) == 3:
        try:
            pid = os.fork()
        except OSError:
            pid = -1
        if pid == 0:
            try:
                supervise(json.loads(message), *fds)
            finally:
                os._exit(0)
    for fd in fds:
        os.close(fd)
'''


_CHILD = r'''
import io, json, os, sys, types
proto_in, proto_out = sys.stdin, sys.stdout
sys.stdout = sys.stderr = io.StringIO()
req = json.loads(proto_in.readline())
CAP = req["max_stdout"]


def finish(stdout, result, error, model=None):
    """Send the one `done` message; a result that cannot be encoded is an error, never a crash."""
    try:
        text = json.dumps(result)
    except RecursionError:
        text, error = "null", error or "RecursionError: the result is nested too deeply to send back"
    except MemoryError:
        text, error = "null", error or "MemoryError: the result is too large to send back"
    except (TypeError, ValueError):
        try:
            text = json.dumps(str(result))
        except RecursionError:
            text, error = "null", error or "RecursionError: the result is nested too deeply to send back"
        except Exception as err:
            text, error = "null", error or f"{type(err).__name__}: the result could not be sent back"
    try:
        extra = ', "model": ' + json.dumps(model) if model is not None else ""
    except (TypeError, ValueError, RecursionError) as err:
        extra, error = "", error or f"{type(err).__name__}: the model could not be exported"
    proto_out.write('{"done": {"stdout": ' + json.dumps(stdout) + ', "result": ' + text + ', "error": '
                    + json.dumps(error) + extra + "}}\n")
    proto_out.flush()


def confine(spec):
    """Layer 4, as root: a private mount namespace with a minimal read-only root and a private tmpfs
    /sandbox, chroot into it, then the call's own uid/gid without groups (see core/sandbox.py)."""
    uid = spec["uid"]
    if uid is None:
        return
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)

    def check(ret, what):
        if ret != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"{what}: {os.strerror(err)}")

    def mount(source, target, fstype, flags, data=None):
        enc = [None if v is None else v.encode() for v in (source, target, fstype, data)]
        check(libc.mount(enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3]), f"mount {target}")

    RDONLY, NOSUID, NODEV, REMOUNT, BIND, REC, PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
    root = spec["root"]
    libc.unshare(0x08000000)  # CLONE_NEWIPC: no System V IPC objects of the host
    isolated = libc.unshare(0x00020000) == 0  # CLONE_NEWNS; refused without CAP_SYS_ADMIN
    if isolated:
        mount(None, "/", None, REC | PRIVATE)  # nothing below propagates to the host
        mount("tmpfs", root, "tmpfs", NOSUID | NODEV, "size=1m,nr_inodes=1000,mode=0755")
        os.mkdir(root + "/sandbox", 0o700)
        covered = []

        def makedirs(path):
            parts = path.strip("/").split("/")
            for i in range(1, len(parts) + 1):
                step = root + "/" + "/".join(parts[:i])
                if not os.path.isdir(step):
                    os.mkdir(step, 0o711)  # traversable, not listable

        def bind(source, target, readonly=True):
            if not os.path.exists(source) or any(target == c or target.startswith(c + "/") for c in covered):
                return
            if os.path.isdir(source):
                makedirs(target)
            else:
                makedirs(os.path.dirname(target))
                os.close(os.open(root + target, os.O_CREAT | os.O_WRONLY, 0o644))
            mount(source, root + target, None, BIND)
            if readonly:
                mount(None, root + target, None, BIND | REMOUNT | RDONLY | NOSUID | NODEV)
            covered.append(target)

        bind(os.path.realpath(sys.base_prefix), sys.base_prefix)
        for entry in sys.path:  # the venv's site-packages, nothing else (not an editable checkout)
            if os.path.isdir(entry) and entry.startswith(sys.prefix + os.sep):
                bind(os.path.realpath(entry), entry)
        bind("/usr", "/usr")
        for path in ("/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(path):
                os.symlink(os.readlink(path), root + path)
            else:
                bind(path, path)
        bind("/etc/ld.so.cache", "/etc/ld.so.cache")
        for dev in ("null", "zero", "random", "urandom"):
            bind("/dev/" + dev, "/dev/" + dev, readonly=False)
        work = f"size=1m,nr_inodes=1000,mode=0700,uid={uid},gid={uid}"  # 1 MB and 1,000 files at most
        mount("tmpfs", root + "/sandbox", "tmpfs", NOSUID | NODEV, work)
        mount(None, root, None, REMOUNT | RDONLY | NOSUID | NODEV, "size=1m,nr_inodes=1000,mode=0755")
        os.chdir(root)
        os.chroot(".")
        os.chdir("/sandbox")
    else:
        os.chown(".", uid, uid)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    libc.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG again: a change of uid clears it
    if 0 in os.getresuid() or 0 in os.getresgid():
        raise OSError("the sandbox could not drop root")


from RestrictedPython import compile_restricted
from RestrictedPython.Guards import safer_getattr_raise, guarded_iter_unpack_sequence, guarded_unpack_sequence
import ast, copy, collections, datetime, decimal, functools, itertools, math, operator, statistics
import time, _strptime  # datetime imports these lazily (strftime/strptime); import them before confinement
DROP = {"operator": {"attrgetter", "methodcaller"}}

def namespace(mod):
    ns = types.SimpleNamespace()
    for k, v in vars(mod).items():
        if not k.startswith("_") and not isinstance(v, types.ModuleType) and k not in DROP.get(mod.__name__, ()):
            setattr(ns, k, v)
    return ns

SAFE = {m: namespace(sys.modules[m]) for m in req["allowed"]}
PULP_TYPES = ()
if "pulp" in req["extensions"]:
    import pulp

    class SandboxHiGHS(pulp.HiGHS):
        """pulp.HiGHS pinned to in-process highspy: no log, one thread, a capped time limit."""
        name = "HiGHS"
        def __init__(self, mip=True, timeLimit=None, gapRel=None):
            cap = req["pulp"]["max_solve_seconds"]
            limit = cap if timeLimit is None else min(float(timeLimit), cap)
            super().__init__(mip=bool(mip), msg=False, timeLimit=limit,
                             gapRel=None if gapRel is None else float(gapRel), threads=1)

    unguarded_solve = pulp.LpProblem.solve
    def guarded_solve(self, solver=None, **kwargs):
        if kwargs:
            raise TypeError("solve() takes only a solver here")
        if solver is None:
            solver = SandboxHiGHS()
        if type(solver) is not SandboxHiGHS:
            raise PermissionError("only pulp.HiGHS (in-process) may solve in the sandbox")
        return unguarded_solve(self, solver)
    pulp.LpProblem.solve = guarded_solve
    facade = types.SimpleNamespace(HiGHS=SandboxHiGHS)
    for k in ("LpProblem", "LpVariable", "LpAffineExpression", "LpConstraint", "lpSum", "lpDot", "value",
              "LpMinimize", "LpMaximize", "LpBinary", "LpInteger", "LpContinuous", "LpStatus", "LpStatusOptimal",
              "LpStatusNotSolved", "LpStatusInfeasible", "LpStatusUnbounded", "LpStatusUndefined",
              "LpConstraintLE", "LpConstraintGE", "LpConstraintEQ", "LpSolution", "LpSolutionOptimal",
              "LpSolutionIntegerFeasible", "LpSolutionInfeasible", "LpSolutionNoSolutionFound"):
        setattr(facade, k, getattr(pulp, k))
    SAFE["pulp"] = facade
    PULP_TYPES = (pulp.LpProblem, pulp.LpElement, pulp.LpAffineExpression, pulp.LpConstraint,
                  pulp.apis.LpSolver)
    PULP_ATTRIBUTES = frozenset(req["pulp"]["attributes"])
    PULP_WRITABLE = frozenset(req["pulp"]["writable"])

try:
    confine(req["confine"])
except BaseException as err:
    finish("", None, f"RuntimeError: the sandbox could not confine the code ({type(err).__name__}: {err}); "
                     "it was not run")
    sys.exit(0)
proto_out.write('{"ready": true}\n')  # confined; from here on the code may run
proto_out.flush()

if req.get("plain"):  # tests only: the same confined child without the language layer
    plain = {"__name__": "__main__"}
    try:
        exec(compile(req["code"], "<code>", "exec"), plain)
        finish(sys.stdout.getvalue()[:CAP], plain.get("result"), None)
    except BaseException as err:
        finish(sys.stdout.getvalue()[:CAP], None, f"{type(err).__name__}: {err}")
    sys.exit(0)

def pulp_object(obj):
    """A PuLP (or highspy) object or class: only allowlisted attributes may be read, none set."""
    if not PULP_TYPES:
        return False
    cls = obj if isinstance(obj, type) else type(obj)
    return issubclass(cls, PULP_TYPES) or any(
        (getattr(c, "__module__", "") or "").split(".")[0] in ("pulp", "highspy") for c in cls.__mro__)

def guarded_getattr(obj, name, *default):
    if obj is SAFE["pulp"] and not hasattr(obj, name):
        raise AttributeError(f"pulp.{name} is not available in the sandbox (solve with pulp.HiGHS, in-process)")
    if pulp_object(obj) and name not in PULP_ATTRIBUTES:
        raise AttributeError(f"{name!r} is not available on PuLP objects in the sandbox")
    return safer_getattr_raise(obj, name, *default)

class PulpWriteGuard:
    """What `_write_` hands back for a PuLP object: bounds of a variable may change, nothing else."""
    def __init__(self, obj):
        object.__setattr__(self, "target", obj)
    def __setattr__(self, name, value):
        if name in PULP_WRITABLE and isinstance(self.target, pulp.LpVariable):
            setattr(self.target, name, value)
        else:
            raise PermissionError(f"PuLP objects cannot be changed through attribute {name!r} in the sandbox")
    def __delattr__(self, name):
        raise PermissionError("PuLP objects cannot be changed in the sandbox")
    def __setitem__(self, key, value):
        raise PermissionError("PuLP objects cannot be changed in the sandbox")
    def __delitem__(self, key):
        raise PermissionError("PuLP objects cannot be changed in the sandbox")

def guarded_write(obj):
    return PulpWriteGuard(obj) if pulp_object(obj) else obj

INTERNAL = {"time", "_strptime"}  # datetime imports these itself (strftime/strptime); code cannot name them

def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    if not level and name in INTERNAL:
        return __import__(name, globals, locals, fromlist, level)
    if level or name not in SAFE:
        raise ImportError(f"import of {name!r} is not allowed")
    return SAFE[name]

OUT = []
SIZE = [0]

class Printer:
    def __init__(self, _getattr_=None):
        pass
    def write(self, text):
        if SIZE[0] < CAP:
            OUT.append(text[: CAP - SIZE[0]])
        SIZE[0] += len(text)
    def __call__(self):
        return "".join(OUT)
    def _call_print(self, *objects, **kwargs):
        kwargs["file"] = self
        print(*objects, **kwargs)

def make_proxy(name, params):
    def proxy(*args, **kwargs):
        if len(args) > len(params):
            raise TypeError(f"{name}() takes at most {len(params)} positional arguments")
        call = dict(zip(params, args))
        call.update(kwargs)
        proto_out.write(json.dumps({"call": name, "args": call}, default=str) + "\n")
        proto_out.flush()
        reply = json.loads(proto_in.readline())
        if "fatal" in reply:
            raise RuntimeError(reply["fatal"])
        return reply["result"]
    proxy.__name__ = name
    return proxy

names = ["abs", "all", "any", "bool", "dict", "enumerate", "filter", "float", "int", "isinstance", "iter", "len",
         "list", "map", "max", "min", "next", "print", "range", "round", "set", "sorted", "str", "sum", "tuple",
         "zip", "reversed", "ValueError", "TypeError", "KeyError", "IndexError", "ZeroDivisionError", "Exception",
         "None", "True", "False"]
import builtins
safe_builtins = {n: getattr(builtins, n) for n in names if hasattr(builtins, n)}
safe_builtins["__import__"] = guarded_import
glb = {
    "__builtins__": safe_builtins, "__name__": "sandbox",
    "_getattr_": guarded_getattr if PULP_TYPES else safer_getattr_raise, "_getitem_": lambda o, k: o[k],
    "_getiter_": iter,
    "_iter_unpack_sequence_": guarded_iter_unpack_sequence, "_unpack_sequence_": guarded_unpack_sequence,
    "_write_": guarded_write if PULP_TYPES else (lambda o: o), "_inplacevar_": None, "_print_": Printer,
    "_print": Printer(),  # what a single expression compiled in eval mode prints through
    "_apply_": lambda f, *a, **k: f(*a, **k),
    "json": SAFE.get("json"), "math": SAFE.get("math"),
    "datetime": datetime.datetime, "date": datetime.date, "timedelta": datetime.timedelta,
    "defaultdict": collections.defaultdict,
}
def inplace(op, x, y):
    ops = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
           "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow}
    if op not in ops:
        raise SyntaxError(f"operator {op} is not allowed")
    return ops[op](x, y)
glb["_inplacevar_"] = inplace
glb.update(req["variables"])
for tool, params in req["tools"].items():
    glb[tool] = make_proxy(tool, params)

class AugToAssign(ast.NodeTransformer):
    """x[k] += v -> x[k] = x[k] + v (RestrictedPython rejects augmented item assignment)."""
    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.target, (ast.Subscript, ast.Attribute)):
            load = copy.deepcopy(node.target)
            load.ctx = ast.Load()
            new = ast.Assign(targets=[node.target], value=ast.BinOp(left=load, op=node.op, right=node.value))
            return ast.copy_location(new, node)
        return node

result, error, model = None, None, None
try:
    source = req["code"]
    try:
        source = ast.unparse(ast.fix_missing_locations(AugToAssign().visit(ast.parse(source))))
    except SyntaxError:
        pass
    try:
        code = compile_restricted(source, "<code>", "eval")
        mode = "eval"
    except SyntaxError:
        code = compile_restricted(source, "<code>", "exec")
        mode = "exec"
    if mode == "eval":
        result = eval(code, glb)
    else:
        exec(code, glb)
        result = glb.get("result", glb.get("output"))
except MemoryError:
    OUT.clear()
    result, error = None, "MemoryError: the code exceeded the memory limit"
except RecursionError as err:
    result, error = None, f"RecursionError: {err}"
except BaseException as err:
    result, error = None, f"{type(err).__name__}: {err}"
if error is None and req.get("export") and PULP_TYPES:
    exported = glb.get(req["export"])
    if type(exported) is pulp.LpProblem:
        try:
            model = exported.toDict()
        except Exception as err:
            error = f"{type(err).__name__}: the model {req['export']!r} could not be exported ({err})"
stdout = "".join(OUT)
if SIZE[0] > CAP:
    stdout += f"\n[output truncated: {SIZE[0]} characters printed, {CAP} kept]"
finish(stdout, result, error, model)
'''


@functools.cache
def _id_maps() -> tuple[tuple[tuple[int, int], ...], ...]:
    """The (first id, count) ranges of this process's user namespace, for uids and for gids."""
    maps = []
    for path in ("/proc/self/uid_map", "/proc/self/gid_map"):
        try:
            with open(path) as f:
                maps.append(
                    tuple((int(p[0]), int(p[2])) for p in (line.split() for line in f) if len(p) == 3)
                )
        except OSError:
            maps.append(((0, 2**32 - 1),))
    return tuple(maps)


def _sandbox_uid(pid: int) -> int | None:
    """The uid/gid the child with `pid` drops to (distinct per live call), or None if it is not mapped."""
    uid = SANDBOX_UID_BASE + pid
    if all(any(first <= uid < first + count for first, count in ranges) for ranges in _id_maps()):
        return uid
    return None


_STATUS_UID = b"\nUid:\t"
_STATUS_STATE = b"\nState:\t"


def _kill_uid(uid: int) -> None:
    """SIGKILL every live process whose real uid is `uid` (one call's own uid), until none is left."""
    wanted = str(uid).encode()
    for _ in range(100):
        found = False
        with os.scandir("/proc") as entries:
            for entry in entries:
                if not entry.name.isdigit():
                    continue
                try:
                    with open(f"/proc/{entry.name}/status", "rb") as f:
                        status = f.read()
                except OSError:
                    continue
                at = status.find(_STATUS_UID)
                state = status.find(_STATUS_STATE)
                if at < 0 or status[at + 6 :].split(b"\t", 1)[0] != wanted:
                    continue
                if state >= 0 and status[state + 8 : state + 9] in (b"Z", b"X"):
                    continue  # a zombie: dead already, its parent (or init) reaps it
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(entry.name), signal.SIGKILL)
                found = True
        if not found:
            return


@dataclass
class _CallLog:
    """The tool calls of one execution and the bytes they used (mutable, internal)."""

    records: list[dict]
    used_bytes: int = 0
    stopped: str | None = None

    def stop(self, reason: str) -> bytes:
        self.stopped = self.stopped or reason
        return (json.dumps({"fatal": reason}) + "\n").encode()


def run_code(
    code: str,
    variables: Mapping[str, Any] | None = None,
    tools: Mapping[str, Sequence[str]] | None = None,
    call_tool: Callable[[str, dict], Any] | None = None,
    limits: SandboxLimits | None = None,
    *,
    extensions: Sequence[str] = (),
    export: str | None = None,
) -> dict[str, Any]:
    """Run `code`; `tools` maps each callable tool name to its positional parameter names; `extensions`
    opts into extra modules (only "pulp", see the module docstring); `export` (with "pulp") names the
    LpProblem global returned as data in `model`.

    Returns {stdout, result (JSON-safe or None), error ("<Type>: <message>" or None), tool_calls
    [{tool_name, args, result, success}]} (+ `model`: a dict or None, with `export`). A static-check failure
    returns without `tool_calls`, as the original does.
    """
    limits = limits or SandboxLimits()
    if not isinstance(code, str) or not code.strip():
        return {"stdout": "", "result": None, "error": "ValueError: code must be a non-empty string"}
    if len(code) > limits.max_code_chars:
        return {
            "stdout": "",
            "result": None,
            "error": f"ValueError: code exceeds {limits.max_code_chars} characters",
        }
    unknown = [e for e in extensions if e not in EXTENSIONS]
    if unknown:
        raise SpecError(
            "extensions", f"unknown sandbox extension {unknown[0]!r}; available: {', '.join(EXTENSIONS)}"
        )
    pulp = "pulp" in extensions
    if export is not None and (not pulp or not isinstance(export, str) or not export.isidentifier()):
        raise SpecError("export", "names a global LpProblem and needs the pulp extension")
    problem = (
        static_check(code, ALLOWED_MODULES + ("pulp",), PULP_FORBIDDEN_ATTRIBUTES)
        if pulp
        else static_check(code)
    )
    if problem:
        return {"stdout": "", "result": None, "error": problem}
    request: dict[str, Any] = {
        "code": code,
        "variables": json.loads(json.dumps(dict(variables or {}), default=str)),
        "tools": {k: list(v) for k, v in dict(tools or {}).items()},
        "allowed": list(ALLOWED_MODULES),
        "max_stdout": limits.max_stdout_chars,
        "extensions": list(extensions),
        "export": export,
    }
    if pulp:
        request["pulp"] = {
            "attributes": sorted(PULP_ATTRIBUTES),
            "writable": sorted(PULP_WRITABLE),
            "max_solve_seconds": min(PULP_MAX_SOLVE_SECONDS, float(limits.cpu_seconds)),
        }
    out = _execute(request, dict(tools or {}), call_tool, limits)
    if export is not None:
        out.setdefault("model", None)
    return out


def _run_plain(code: str, limits: SandboxLimits | None = None) -> dict[str, Any]:
    """Tests only: run plain Python (no static check, no RestrictedPython) in the very same confined child,
    to prove what the process layers alone contain. Never reachable from model-written code."""
    request = {"code": code, "plain": True, "variables": {}, "tools": {}, "allowed": [], "extensions": [],
               "max_stdout": (limits or SandboxLimits()).max_stdout_chars}  # fmt: skip
    return _execute(request, {}, None, limits or SandboxLimits())


class _Template:
    """The template process of this host process: `python -I` with the children's imports done, which forks
    one supervisor per call, which forks that call's child (module docstring, layer 3). Started on first use,
    restarted when it has died or when this process is a fork of the one that started it; it exits when its
    host does (its control socket closes, or its parent changes). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._socket: socket.socket | None = None
        self._owner = 0

    def pid(self) -> int | None:
        """The live template's pid (tests, bench), or None."""
        with self._lock:
            alive = self._proc is not None and self._owner == os.getpid() and self._proc.poll() is None
            return self._proc.pid if alive and self._proc is not None else None

    def _start(self) -> socket.socket:
        if self._proc is not None and self._owner == os.getpid():
            self._stop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._proc = subprocess.Popen(  # noqa: S603 - a fixed interpreter and program text
                [sys.executable, "-I", "-c", _TEMPLATE, _CHILD, str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={},
                cwd="/",
                pass_fds=(theirs.fileno(),),
                start_new_session=True,  # no terminal signal (Ctrl-C, hang-up) reaches it; it goes with its host
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._socket, self._owner = ours, os.getpid()
        return ours

    def _stop(self) -> None:
        if self._socket is not None:
            self._socket.close()
        if self._proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()
            self._proc.wait()
        self._proc = self._socket = None

    def fork(self, spec: dict[str, Any], wait: float) -> _Child:
        """A fresh child for one call (`spec`: its working directory and limits), its pid known; retried once
        on a new template if the template died. Raises OSError if none could be made within `wait` s."""
        for attempt in (0, 1):
            stdin_r, stdin_w = os.pipe()
            stdout_r, stdout_w = os.pipe()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                with self._lock:
                    alive = (
                        self._proc is not None and self._owner == os.getpid() and self._proc.poll() is None
                    )
                    control = self._socket if alive and self._socket is not None else self._start()
                    with contextlib.suppress(OSError):
                        fds = [stdin_r, stdout_w, theirs.fileno()]
                        control.sendmsg([json.dumps(spec).encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                                                        array.array("i", fds))])  # fmt: skip
            finally:
                for fd in (stdin_r, stdout_w):
                    os.close(fd)
                theirs.close()
            child = _Child(ours, stdin_w, stdout_r)
            message = child.receive(wait)
            if isinstance(message, dict) and isinstance(message.get("pid"), int):
                child.pid = message["pid"]
                return child
            child.release()
            with self._lock:
                dead = self._proc is None or self._proc.poll() is not None
                if dead and not attempt and not isinstance(message, dict) and self._owner == os.getpid():
                    self._stop()  # died under this call: start a new one and try once more
                    continue
            detail = (
                message.get("error")
                if isinstance(message, dict)
                else f"no answer from its template in {wait:g} s"
            )
            raise OSError(f"the sandbox process could not be forked ({detail})")
        raise AssertionError("unreachable")


class _Child:
    """One call's child as the host sees it: its pipes, its pid, and its supervisor's report socket."""

    def __init__(self, report: socket.socket, stdin: int, stdout: int) -> None:
        self.report, self.stdin, self.stdout = report, stdin, stdout
        self.pid = 0
        self.returncode: int | None = None

    def receive(self, wait: float) -> dict | None:
        """The supervisor's next message (None when it closed or sent nothing within `wait` s)."""
        if not select.select([self.report], [], [], max(wait, 0.0))[0]:
            return None
        with contextlib.suppress(OSError, ValueError):
            message = json.loads(self.report.recv(4096) or b"null")
            return message if isinstance(message, dict) else None
        return None

    def kill(self) -> None:
        """SIGKILL the child's process group (its pid stays reserved until `release`)."""
        if self.pid and self.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)

    def wait(self, wait: float = 10.0) -> int | None:
        """The child's exit status, as `Popen.returncode` (after `kill`, it comes at once)."""
        if self.returncode is None:
            message = self.receive(wait)
            code = message.get("exit") if message else None
            self.returncode = code if isinstance(code, int) else None
        return self.returncode

    def release(self) -> None:
        """Let the supervisor reap the child and exit; close the host's ends."""
        with contextlib.suppress(OSError):
            self.report.send(b"reap")
        for closing in (self.report.close, lambda: os.close(self.stdin), lambda: os.close(self.stdout)):
            with contextlib.suppress(OSError):
                closing()


_TEMPLATE_PROCESS = _Template()


def _execute(
    request: dict[str, Any],
    tools: Mapping[str, Sequence[str]],
    call_tool: Callable[[str, dict], Any] | None,
    limits: SandboxLimits,
) -> dict[str, Any]:
    """Fork a fresh child in a fresh working directory, converse with it, then kill every process it left
    and remove the directory."""
    log = _CallLog([])
    privileged = os.geteuid() == 0
    workdir = tempfile.mkdtemp(prefix="orca-sandbox-")
    spec = {"root": workdir, "cpu_seconds": limits.cpu_seconds, "memory_mb": limits.memory_mb,
            "max_processes": limits.max_processes}  # fmt: skip
    try:
        child = _TEMPLATE_PROCESS.fork(spec, max(limits.wall_seconds, 10.0))
    except OSError as err:
        shutil.rmtree(workdir, ignore_errors=True)
        return {"stdout": "", "result": None, "error": f"RuntimeError: the sandbox process could not start ({err})",
                "tool_calls": []}  # fmt: skip
    uid = _sandbox_uid(child.pid) if privileged else None
    try:
        if privileged and uid is None:
            return {"stdout": "", "result": None, "tool_calls": [],
                    "error": f"RuntimeError: no unprivileged uid is mapped for the sandbox (uid "
                             f"{SANDBOX_UID_BASE + child.pid} is outside this user namespace); the code was not run"}  # fmt: skip
        request["confine"] = {"root": workdir, "uid": uid}
        return _converse(child, request, tools, call_tool, limits, log)
    finally:
        child.kill()
        if uid is not None:
            _kill_uid(uid)
        child.release()
        shutil.rmtree(workdir, ignore_errors=True)


def _converse(
    child: _Child,
    request: dict[str, Any],
    tools: Mapping[str, Sequence[str]],
    call_tool: Callable[[str, dict], Any] | None,
    limits: SandboxLimits,
    log: _CallLog,
) -> dict[str, Any]:
    """Send the request, serve tool calls until the child's `done` message (or a limit), return the result."""
    deadline = time.monotonic() + limits.wall_seconds

    def fail(message: str) -> dict[str, Any]:
        return {"stdout": "", "result": None, "error": message, "tool_calls": log.records}

    ready = False

    def timeout() -> dict[str, Any]:
        if not ready:
            return fail(f"TimeoutError: the sandbox did not start within {limits.wall_seconds:g} s (an overloaded "
                        "machine?); the code was not run")  # fmt: skip
        return fail(f"TimeoutError: the code ran longer than {limits.wall_seconds:g} s and was stopped")

    stdin = child.stdin
    os.set_blocking(stdin, False)  # a child that stops reading cannot block the host past the deadline
    sent = _send(stdin, (json.dumps(request) + "\n").encode(), deadline)
    if not sent:
        return timeout() if sent is None else fail("RuntimeError: the sandbox process could not start")
    fd = child.stdout
    buf = b""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return timeout()
        readable, _, _ = select.select([fd], [], [], min(remaining, 0.5))
        if not readable:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buf += chunk
        if len(buf) > limits.max_message_bytes:
            return fail(
                f"ValueError: the code's output exceeded {limits.max_message_bytes} bytes and was stopped"
            )
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                message = _decode(line)
            except (ValueError, RecursionError):
                message = None
            if not isinstance(message, dict):
                return fail("RuntimeError: the sandbox sent a malformed message")
            if "done" in message:
                return _done(message["done"], log, request.get("export") is not None)
            if "ready" in message:
                ready = True
                continue
            reply = _serve(message, len(line), tools, call_tool, log, limits)
            sent = _send(stdin, reply, deadline)
            if sent is None:
                return timeout()
            if not sent:
                break
    child.kill()  # what is left of its group (its pid stays reserved until the call ends)
    code_ = child.wait()
    if code_ in (-signal.SIGXCPU, -signal.SIGKILL):
        return fail(
            f"TimeoutError: the code used more than {limits.cpu_seconds} s of CPU time and was stopped"
        )
    return fail(f"RuntimeError: the sandbox process ended without a result (exit {code_}; no message, possibly "
                f"the memory limit of {limits.memory_mb} MB)")  # fmt: skip


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _decode(line: bytes) -> Any:
    """One JSON message from the child, with lone surrogates (text built with `chr`) replaced by U+FFFD, so
    that what a caller gets is always encodable as UTF-8."""
    message = json.loads(line)
    if _SURROGATE_ESCAPE.search(line):
        message = json.loads(_LONE_SURROGATE.sub("\ufffd", json.dumps(message, ensure_ascii=False)))
    return message


def _send(fd: int, data: bytes, deadline: float) -> bool | None:
    """Write `data` to the child's stdin: True when sent, False when the child closed it, None on timeout."""
    while data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        _, ready, _ = select.select([], [fd], [], min(remaining, 0.5))
        if not ready:
            continue
        try:
            data = data[os.write(fd, data) :]
        except BlockingIOError:
            continue
        except (BrokenPipeError, OSError):
            return False
    return True


def _done(done: Any, log: _CallLog, export: bool) -> dict[str, Any]:
    """The result in the child's `done` message, checked (the child is not trusted to send the right shape)."""
    done = done if isinstance(done, dict) else {}
    stdout, error = done.get("stdout"), done.get("error")
    out: dict[str, Any] = {
        "stdout": stdout if isinstance(stdout, str) else "",
        "result": done.get("result"),
        "error": error if isinstance(error, str) or error is None else str(error),
        "tool_calls": log.records,
    }
    if out["error"] is None and log.stopped:  # the code caught the limit's exception: it still failed
        out["error"] = f"RuntimeError: {log.stopped}"
    if export:
        model = done.get("model")
        out["model"] = model if isinstance(model, dict) else None
    return out


def _serve(
    message: dict,
    size: int,
    tools: Mapping[str, Sequence[str]],
    call_tool: Callable[[str, dict], Any] | None,
    log: _CallLog,
    limits: SandboxLimits,
) -> bytes:
    """Run one bridged tool call of `size` bytes; the encoded reply (a `fatal` one past a limit)."""
    name, args = message.get("call"), message.get("args")
    args = args if isinstance(args, dict) else {}
    data_limit = (f"tool call data limit of {limits.max_tool_bytes} bytes reached (arguments and results of "
                  "the tool calls of one run)")  # fmt: skip
    if len(log.records) >= limits.max_tool_calls:
        return log.stop(f"tool call limit of {limits.max_tool_calls} reached")
    if log.used_bytes + size > limits.max_tool_bytes:
        return log.stop(data_limit)
    log.used_bytes += size
    if not isinstance(name, str) or name not in tools or call_tool is None:
        result: Any = {"error": f"unknown tool {name!r}"}
        ok = False
    else:
        try:
            result = call_tool(name, args)
        except Exception as err:  # the tool layer should not raise; if it does, the code sees an error value
            result = {"error": f"{type(err).__name__}: {err}"}
        ok = not (isinstance(result, dict) and result.get("error"))
    try:
        reply = (json.dumps({"result": result}, default=str) + "\n").encode()
    except (ValueError, RecursionError) as err:
        result, ok = {"error": f"the tool's result could not be encoded ({type(err).__name__})"}, False
        reply = (json.dumps({"result": result}) + "\n").encode()
    if log.used_bytes + len(reply) > limits.max_tool_bytes:
        log.records.append({"tool_name": name, "args": args, "success": False,
                            "result": {"error": f"result of {len(reply)} bytes withheld: {data_limit}"}})  # fmt: skip
        return log.stop(data_limit)
    log.used_bytes += len(reply)
    log.records.append({"tool_name": name, "args": args, "result": result, "success": ok})
    return reply
