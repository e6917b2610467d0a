"""The one sandbox for model-written code: results, bridged tools, and hostile code that must fail safely."""

from __future__ import annotations

import json

import pytest

from core.sandbox import SandboxLimits, run_code, static_check

FAST = SandboxLimits(cpu_seconds=1, wall_seconds=3, memory_mb=256, max_stdout_chars=200)


def run(code: str, **kw):
    return run_code(code, kw.pop("variables", {"funds": 10.0}), kw.pop("tools", {}), kw.pop("call_tool", None), FAST)


def test_expression_value_statements_result_and_print():
    assert run("funds * 3")["result"] == 30.0
    out = run("total = 0\nfor i in range(4):\n    total += i\n    print(i)\nresult = {'total': total}")
    assert out["result"] == {"total": 6} and out["stdout"] == "0\n1\n2\n3\n" and out["error"] is None


def test_allowed_imports_and_item_augmented_assignment():
    code = (
        "from collections import defaultdict, Counter\nimport statistics\nd = defaultdict(int)\n"
        "for w in ['a', 'b', 'a']:\n    d[w] += 1\n"
        "result = [dict(d), statistics.mean([1, 2, 3]), str(datetime.strptime('1991-09-07', '%Y-%m-%d').date())]"
    )
    assert run(code)["result"] == [{"a": 2, "b": 1}, 2, "1991-09-07"]


def test_tools_are_bridged_and_each_call_is_logged():
    seen = []

    def call_tool(name, args):
        seen.append((name, args))
        return {"prices": {"x": 1.5}} if name == "view_sku_prices" else {"error": "bad"}

    tools = {"view_sku_prices": ["sku_ids"]}
    out = run("a = view_sku_prices(['x'])\nb = view_sku_prices(sku_ids=['y'])\nresult = a['prices']['x']",
              tools=tools, call_tool=call_tool)  # fmt: skip
    assert out["result"] == 1.5 and seen == [("view_sku_prices", {"sku_ids": ["x"]}), ("view_sku_prices", {"sku_ids": ["y"]})]
    assert [c["tool_name"] for c in out["tool_calls"]] == ["view_sku_prices"] * 2
    assert run("place_order([], 'supplier_1')", tools=tools, call_tool=call_tool)["error"].startswith("SecurityError")
    assert "NameError" in run("set_price = view_funds_and_date()", tools=tools, call_tool=call_tool)["error"]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("import os\nos.system('echo hi')", "ImportError"),
        ("import socket", "ImportError"),
        ("import subprocess", "ImportError"),
        ("from os import path", "ImportError"),
        ("from . import x", "ImportError"),
        ("__import__('os')", "SecurityError"),
        ("open('/etc/passwd').read()", "SecurityError"),
        ("eval('1')", "SecurityError"),
        ("().__class__.__bases__[0].__subclasses__()", "SecurityError"),
        ("f = lambda: 0\nf.__globals__", "SecurityError"),
        ("class A:\n    pass", "SecurityError"),
        ("raise ValueError('x')", "SecurityError"),
        ("with x:\n    pass", "SecurityError"),
        ("def f(:", "SyntaxError"),
    ],
)
def test_static_check_rejects_escapes_before_running(code, expected):
    assert static_check(code).startswith(expected)
    out = run(code)
    assert out["error"].startswith(expected) and out["result"] is None and "tool_calls" not in out


@pytest.mark.parametrize(
    "code",
    [
        "import statistics\nstatistics.sys.modules['os']",  # module attributes are not reachable
        "import json\njson.codecs.open('/etc/passwd')",
        "import operator\noperator.attrgetter('__globals__')",
        "'{0.__class__}'.format(1)",
        "import functools\nfunctools.reduce.__self__",
    ],
)
def test_runtime_guards_block_indirect_escapes(code):
    out = run(code)
    assert out["error"] is not None and out["result"] is None


def test_infinite_loop_is_stopped():
    out = run("while True:\n    pass")
    assert out["error"].startswith("TimeoutError")


def test_fork_bomb_and_process_spawning_cannot_start():
    assert run("import os\nwhile True:\n    os.fork()")["error"].startswith("ImportError")
    assert run("import multiprocessing")["error"].startswith("ImportError")


@pytest.mark.parametrize("code", ["x = 'a' * (10 ** 10)", "x = [0] * (10 ** 9)", "x = list(range(10 ** 9))"])
def test_huge_allocations_hit_the_memory_limit(code):
    out = run(code)
    assert out["error"].startswith(("MemoryError", "RuntimeError", "TimeoutError")) and out["result"] is None


def test_output_is_capped_and_deep_recursion_is_an_error():
    out = run("for i in range(10000):\n    print('spam spam spam')")
    assert len(out["stdout"]) < 300 and "output truncated" in out["stdout"]
    assert run("def f(n):\n    return f(n + 1)\nf(0)")["error"].startswith("RecursionError")


def test_unserialisable_results_come_back_as_text_and_code_size_is_capped():
    assert run("result = range(3)")["result"] == "range(0, 3)"
    assert "exceeds" in run("x = 1\n" * 5000)["error"]


def test_oversized_results_are_stopped_and_tool_call_budget_is_enforced():
    out = run("result = 'x' * (3 * 10 ** 6)")
    assert out["error"].startswith("ValueError") and "exceeded" in out["error"]
    limits = SandboxLimits(cpu_seconds=2, wall_seconds=4, max_tool_calls=3)
    out = run_code("for i in range(10):\n    view_notes()", {}, {"view_notes": []}, lambda n, a: {"notes": []}, limits)
    assert "tool call limit of 3" in out["error"] and len(out["tool_calls"]) == 3


def test_the_sandbox_process_has_no_network_and_cannot_write_files(tmp_path):
    """The OS-level limits alone (plain Python in the same forked child, without the import rules): no route
    to a listening local port, no file data written."""
    import os
    import socket

    from core.sandbox import _run_plain

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    probe = (f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
             "    result = 'connected'\nexcept OSError as err:\n    result = type(err).__name__")  # fmt: skip
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()  # the host can: the probe can fail
        boxed = _run_plain(probe, FAST)
    finally:
        server.close()
    if os.geteuid() != 0:
        pytest.skip("a private network namespace needs root (or user namespaces)")
    assert boxed["error"] is None and boxed["result"] != "connected"
    write = "f = open('x.txt', 'w')\ntry:\n    f.write('data')\n    f.close()\nexcept OSError as err:\n"
    write += "    result = err.errno\nimport os\nresult = [result, os.path.getsize('x.txt')]"
    assert _run_plain(write, FAST)["result"] == [27, 0]  # EFBIG: RLIMIT_FSIZE = 0


@pytest.mark.parametrize(
    ("code", "stdout"),
    [
        ("print(1)", "1\n"),  # a single expression is compiled in eval mode
        ("print('a', 'b', sep='-', end='!')", "a-b!"),
        ("x = 2\nprint(x)", "2\n"),
        ("def f(v):\n    print(v, end='')\n    return v\nresult = f(3)", "3"),
    ],
)
def test_print_works_in_every_form(code, stdout):
    out = run(code)
    assert out["error"] is None, out["error"]
    assert out["stdout"] == stdout


@pytest.mark.parametrize("code", ["result = '\\ud800'", "result = 1  # \\udcff", "print('\\ud83d')"])
def test_unencodable_code_is_an_error_result(code):
    code = code.encode().decode("unicode_escape")  # a lone surrogate in the code text itself
    out = run(code)
    assert out["result"] is None and out["error"].startswith("ValueError") and "surrogate" in out["error"]


def test_lone_surrogates_built_by_the_code_come_back_encodable():
    """Escapes in the (valid) code text make lone surrogates at run time; the caller gets U+FFFD."""
    calls = []
    out = run_code("print('\\udfff')\nview_notes('\\ud800')\nresult = ['\\ud83d' + 'a', '\u00e9\U0001F600']",
                   {}, {"view_notes": ["text"]}, lambda name, args: calls.append(args) or {}, FAST)  # fmt: skip
    assert out["error"] is None and out["stdout"] == "\ufffd\n" and out["result"] == ["\ufffda", "\u00e9\U0001F600"]
    assert calls == [{"text": "\ufffd"}]
    json.dumps(out, ensure_ascii=False).encode("utf-8")  # raised UnicodeEncodeError before


@pytest.mark.parametrize(
    "code", ["x = 1\x00", "-" * 15_000 + "1", "result = " + "+".join(["1"] * 9000), "a" + ".b" * 9000]
)
def test_unparsable_code_is_an_error_result(code):
    """Code the parser cannot nest (MemoryError, RecursionError) is a SyntaxError result, never an exception."""
    out = run(code)
    assert out["result"] is None and out["error"].startswith("SyntaxError"), out["error"]


def test_missing_attributes_raise_and_next_is_available():
    assert run("import math\nresult = math.pii")["error"] == "AttributeError: 'types.SimpleNamespace' object has no attribute 'pii'"
    assert run("d = {'a': 1}\nresult = d.nope")["error"].startswith("AttributeError")
    assert run("result = next(iter([4, 5]))")["result"] == 4
    assert run("result = next(v for v in range(9) if v > 6)")["result"] == 7


def test_a_result_nested_too_deeply_reports_the_recursion():
    out = run("x = []\nfor i in range(100000):\n    x = [x]\nresult = x")
    assert out["result"] is None and out["error"].startswith("RecursionError") and "memory" not in out["error"]


def test_tool_call_bytes_are_capped_across_one_run():
    """500 calls of 1.9 MB arguments used to be all kept in the host (10 calls made a 38 MB observation)."""
    limits = SandboxLimits()
    out = run_code(
        "big = 'x' * 1900000\nfor i in range(500):\n    view_notes(big)", {}, {"view_notes": ["text"]},
        lambda name, args: {"echo": args["text"]}, limits,
    )  # fmt: skip
    assert "tool call data limit" in out["error"] and str(limits.max_tool_bytes) in out["error"]
    kept = len(json.dumps(out["tool_calls"]))
    assert 0 < len(out["tool_calls"]) < 5 and kept <= limits.max_tool_bytes
    small = run_code("for i in range(50):\n    view_notes('n')\nresult = 1", {}, {"view_notes": ["text"]},
                     lambda name, args: {"echo": args["text"]}, limits)  # fmt: skip
    assert small["error"] is None and len(small["tool_calls"]) == 50


def test_a_sandbox_that_cannot_start_in_time_says_so():
    """A wall clock shorter than a fork: the code never ran, and the error does not blame it."""
    out = run_code("result = 1", limits=SandboxLimits(wall_seconds=1e-9))
    assert out["error"].startswith("TimeoutError: the sandbox did not start") and "not run" in out["error"]
    assert run("while True:\n    pass")["error"].startswith("TimeoutError: the code")
