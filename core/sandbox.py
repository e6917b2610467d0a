"""The one sandbox for model-written Python (`execute_code`; reusable by any workbench's code-writing agent).

`run_code(code, variables, tools, call_tool)` runs `code` in a fresh interpreter (`python -I`) and returns
``{"stdout", "result", "error", "tool_calls"}``; it never raises for anything the code does. Layers:

1. A static check in the parent (the original RetailBench rules): no `global`/`nonlocal`/`class`/`with`/
   `raise`/async, no dunder or private names or attributes, no `eval`/`exec`/`open`/... names, imports only
   from a small whitelist (collections, datetime, decimal, functools, itertools, json, math, operator,
   statistics).
2. RestrictedPython compilation and guards in the child, restricted builtins, and module *namespaces*
   holding only public non-module attributes (so `statistics.sys` or `json.codecs` are not reachable;
   `operator.attrgetter`/`methodcaller` are dropped, as they would reach dunder attributes by string).
3. Process limits set before the child starts: CPU seconds (`RLIMIT_CPU`), address space (`RLIMIT_AS`),
   no file writes (`RLIMIT_FSIZE` = 0), few file descriptors, no new processes (`RLIMIT_NPROC`, where it
   applies), a private network namespace with no interfaces (`unshare(CLONE_NEWNET)`, when permitted), an
   empty environment; plus a wall-clock timeout and caps on printed output, on the size of every message,
   and on the number of tool calls.

Opt-in extension `pulp` (`run_code(..., extensions=("pulp",))`, used by the School Scheduling lab's
code-writing agents only): `import pulp` then gives a curated namespace (model classes, lpSum/lpDot/value,
status constants, and `HiGHS`, a subclass of pulp.HiGHS that always solves in-process through highspy with
logging off, one thread and a capped time limit). No other solver class is reachable and
`LpProblem.solve` refuses any solver but that one, so no solver process is started and no model/solution
file is written. On PuLP/highspy objects only an allowlist of attributes can be read (no `writeLP`,
`writeMPS`, `toJson`, `fromMPS`, `solverModel`, `solver`, ...) and none can be assigned; the static check
also rejects those names. Every other layer (RestrictedPython, rlimits, no network, empty environment)
is unchanged, and without the extension nothing differs from the default.

Tools are bridged: the child calls a proxy, the parent runs `call_tool(name, kwargs)` (the caller decides
which read-only tools exist and logs each call as an indirect one) and sends the JSON result back.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
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

    def __post_init__(self) -> None:
        for name in ("cpu_seconds", "wall_seconds", "memory_mb", "max_code_chars", "max_stdout_chars"):
            if not getattr(self, name) > 0:
                raise SpecError(name, "must be positive")


def static_check(
    code: str, allowed: Sequence[str] = ALLOWED_MODULES, forbidden_attributes: frozenset[str] = frozenset()
) -> str | None:
    """The first rule `code` breaks as "<ExcType>: <message>", or None if it passes."""
    try:
        tree = ast.parse(code, mode="exec")
    except SyntaxError as err:
        return f"SyntaxError: {err.msg} (line {err.lineno})"
    for node in ast.walk(tree):
        if isinstance(node, FORBIDDEN_NODES):
            return f"SecurityError: {type(node).__name__} statements are not allowed"
        if isinstance(node, ast.Name) and (node.id in FORBIDDEN_NAMES or "__" in node.id):
            return f"SecurityError: name {node.id!r} is not allowed"
        if isinstance(node, ast.Attribute) and (node.attr.startswith("_") or "__" in node.attr):
            return f"SecurityError: attribute {node.attr!r} is not allowed"
        if isinstance(node, ast.Attribute) and node.attr in forbidden_attributes:
            return f"SecurityError: attribute {node.attr!r} is not allowed here (no files, no solver processes)"
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


def _preexec(limits: SandboxLimits) -> Callable[[], None]:
    def apply() -> None:
        import ctypes
        import resource

        os.setsid()
        mem = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
        with contextlib.suppress(OSError):
            ctypes.CDLL(None, use_errno=True).unshare(0x40000000)  # CLONE_NEWNET: no network interfaces

    return apply


_CHILD = r'''
import io, json, sys, types
proto_in, proto_out = sys.stdin, sys.stdout
sys.stdout = sys.stderr = io.StringIO()
req = json.loads(proto_in.readline())
from RestrictedPython import compile_restricted
from RestrictedPython.Guards import safer_getattr, guarded_iter_unpack_sequence, guarded_unpack_sequence
import collections, datetime, decimal, functools, itertools, math, operator, statistics
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
    return safer_getattr(obj, name, *default)

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
CAP = req["max_stdout"]

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

names = ["abs", "all", "any", "bool", "dict", "enumerate", "filter", "float", "int", "isinstance", "len", "list",
         "map", "max", "min", "print", "range", "round", "set", "sorted", "str", "sum", "tuple", "zip", "reversed",
         "ValueError", "TypeError", "KeyError", "IndexError", "ZeroDivisionError", "Exception", "None", "True", "False"]
import builtins
safe_builtins = {n: getattr(builtins, n) for n in names if hasattr(builtins, n)}
safe_builtins["__import__"] = guarded_import
glb = {
    "__builtins__": safe_builtins, "__name__": "sandbox",
    "_getattr_": guarded_getattr if PULP_TYPES else safer_getattr, "_getitem_": lambda o, k: o[k],
    "_getiter_": iter,
    "_iter_unpack_sequence_": guarded_iter_unpack_sequence, "_unpack_sequence_": guarded_unpack_sequence,
    "_write_": guarded_write if PULP_TYPES else (lambda o: o), "_inplacevar_": None, "_print_": Printer, "_apply_": lambda f, *a, **k: f(*a, **k),
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

import ast, copy

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

result, error = None, None
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
try:
    text = json.dumps(result)
except (TypeError, ValueError):
    text = json.dumps(str(result)) if result is not None else "null"
stdout = "".join(OUT)
if SIZE[0] > CAP:
    stdout += f"\n[output truncated: {SIZE[0]} characters printed, {CAP} kept]"
proto_out.write('{"done": {"stdout": ' + json.dumps(stdout) + ', "result": ' + text + ', "error": '
                + json.dumps(error) + "}}\n")
proto_out.flush()
'''


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_code(
    code: str,
    variables: Mapping[str, Any] | None = None,
    tools: Mapping[str, Sequence[str]] | None = None,
    call_tool: Callable[[str, dict], Any] | None = None,
    limits: SandboxLimits | None = None,
    *,
    extensions: Sequence[str] = (),
) -> dict[str, Any]:
    """Run `code`; `tools` maps each callable tool name to its positional parameter names; `extensions`
    opts into extra modules (only "pulp", see the module docstring).

    Returns {stdout, result (JSON-safe or None), error ("<Type>: <message>" or None), tool_calls
    [{tool_name, args, result, success}]}. A static-check failure returns without `tool_calls`, as the
    original does.
    """
    limits = limits or SandboxLimits()
    if not isinstance(code, str) or not code.strip():
        return {"stdout": "", "result": None, "error": "ValueError: code must be a non-empty string"}
    if len(code) > limits.max_code_chars:
        return {"stdout": "", "result": None, "error": f"ValueError: code exceeds {limits.max_code_chars} characters"}
    unknown = [e for e in extensions if e not in EXTENSIONS]
    if unknown:
        raise SpecError("extensions", f"unknown sandbox extension {unknown[0]!r}; available: {', '.join(EXTENSIONS)}")
    pulp = "pulp" in extensions
    problem = (
        static_check(code, ALLOWED_MODULES + ("pulp",), PULP_FORBIDDEN_ATTRIBUTES) if pulp else static_check(code)
    )
    if problem:
        return {"stdout": "", "result": None, "error": problem}
    tools = dict(tools or {})
    request = {
        "code": code,
        "variables": json.loads(json.dumps(dict(variables or {}), default=str)),
        "tools": {k: list(v) for k, v in tools.items()},
        "allowed": list(ALLOWED_MODULES),
        "max_stdout": limits.max_stdout_chars,
        "extensions": list(extensions),
    }
    if pulp:
        request["pulp"] = {
            "attributes": sorted(PULP_ATTRIBUTES),
            "writable": sorted(PULP_WRITABLE),
            "max_solve_seconds": min(PULP_MAX_SOLVE_SECONDS, float(limits.cpu_seconds)),
        }
    calls: list[dict] = []
    proc = subprocess.Popen(  # noqa: S603 - a fixed interpreter and program text
        [sys.executable, "-I", "-c", _CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={},
        cwd="/",
        preexec_fn=_preexec(limits),  # noqa: PLW1509 - rlimits must be set in the child before exec
    )
    assert proc.stdin is not None and proc.stdout is not None
    deadline = time.monotonic() + limits.wall_seconds

    def fail(message: str) -> dict[str, Any]:
        _kill(proc)
        return {"stdout": "", "result": None, "error": message, "tool_calls": calls}

    try:
        proc.stdin.write((json.dumps(request) + "\n").encode())
        proc.stdin.flush()
    except BrokenPipeError:
        return fail("RuntimeError: the sandbox process could not start")
    fd = proc.stdout.fileno()
    buf = b""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return fail(f"TimeoutError: the code ran longer than {limits.wall_seconds:g} s and was stopped")
        ready, _, _ = select.select([fd], [], [], min(remaining, 0.5))
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buf += chunk
        if len(buf) > limits.max_message_bytes:
            return fail(f"ValueError: the code's output exceeded {limits.max_message_bytes} bytes and was stopped")
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                return fail("RuntimeError: the sandbox sent a malformed message")
            if "done" in message:
                _kill(proc)
                done = message["done"]
                return {"stdout": done.get("stdout", ""), "result": done.get("result"), "error": done.get("error"),
                        "tool_calls": calls}  # fmt: skip
            reply = _serve(message, tools, call_tool, calls, limits)
            try:
                proc.stdin.write((json.dumps(reply, default=str) + "\n").encode())
                proc.stdin.flush()
            except BrokenPipeError:
                break
    proc.wait()
    code_ = proc.returncode
    if code_ in (-signal.SIGXCPU, -signal.SIGKILL):
        return fail(f"TimeoutError: the code used more than {limits.cpu_seconds} s of CPU time and was stopped")
    return fail(f"RuntimeError: the sandbox process ended without a result (exit {code_}); memory limit?")


def _serve(
    message: dict,
    tools: Mapping[str, Sequence[str]],
    call_tool: Callable[[str, dict], Any] | None,
    calls: list[dict],
    limits: SandboxLimits,
) -> dict:
    name, args = message.get("call"), message.get("args") or {}
    if len(calls) >= limits.max_tool_calls:
        return {"fatal": f"tool call limit of {limits.max_tool_calls} reached"}
    if name not in tools or call_tool is None:
        result: Any = {"error": f"unknown tool {name!r}"}
        calls.append({"tool_name": name, "args": args, "result": result, "success": False})
        return {"result": result}
    try:
        result = call_tool(name, args)
    except Exception as err:  # the tool layer should not raise; if it does, the code sees an error value
        result = {"error": f"{type(err).__name__}: {err}"}
    ok = not (isinstance(result, dict) and result.get("error"))
    calls.append({"tool_name": name, "args": args, "result": result, "success": ok})
    return {"result": result}
