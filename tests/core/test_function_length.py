"""The function-length ratchet (issue 26: no new function over 100 lines).

Every function and method outside `tests/` and `bench/` (hidden folders such as `.venv/` left out) is measured
with `ast` as `end_lineno - lineno + 1` (from its `def` line, decorators not counted, nested functions
included in their parent and also measured on their own). A function over `LIMIT` lines must be named in
`function_length_allowlist.toml` with its length and the reason it stays; a listed length may only go down,
and a listed function that shrank must have its entry lowered (or removed, once it is within the limit) in the
same commit, so the list always says which long functions are left."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWLIST = Path(__file__).with_name("function_length_allowlist.toml")
LIMIT = 100
SKIPPED = frozenset({"tests", "bench"})


def function_lengths(source: str) -> dict[str, int]:
    """Length in lines of every function of a module, by qualified name (`Class.method`, `outer.inner`)."""
    lengths: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    length = child.end_lineno - child.lineno + 1
                    lengths[name] = max(length, lengths.get(name, 0))  # a redefinition keeps the longest
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return lengths


def python_files() -> list[Path]:
    """The measured modules: every `.py` file of the repository outside tests/, bench/ and hidden folders."""
    files = []
    for entry in sorted(ROOT.iterdir()):
        if entry.name.startswith(".") or entry.name in SKIPPED:
            continue
        if entry.is_dir():
            files += sorted(entry.rglob("*.py"))
        elif entry.suffix == ".py":
            files.append(entry)
    return files


def long_functions() -> dict[str, int]:
    """`path::qualified.name` -> length of every measured function over `LIMIT` lines."""
    found = {}
    for path in python_files():
        rel = path.relative_to(ROOT).as_posix()
        for name, length in function_lengths(path.read_text(encoding="utf-8")).items():
            if length > LIMIT:
                found[f"{rel}::{name}"] = length
    return found


def allowed() -> dict[str, dict]:
    return dict(tomllib.loads(ALLOWLIST.read_text(encoding="utf-8"))["functions"])


def test_the_measure_counts_def_to_last_line_for_nested_functions_and_methods() -> None:
    source = (
        "@decorator\n"
        "def outer(x):\n"  # lines 2-6: 5 lines, the decorator not counted
        "    def inner():\n"
        "        return x\n"
        "\n"
        "    return inner\n"
        "class C:\n"
        "    async def method(self):\n"
        "        pass\n"
    )
    assert function_lengths(source) == {"outer": 5, "outer.inner": 2, "C.method": 2}


def test_the_scan_covers_the_application_but_not_tests_or_bench() -> None:
    rels = {p.relative_to(ROOT).as_posix() for p in python_files()}
    assert {"app.py", "core/llm/runner.py", "solvers/lp/model.py"} <= rels
    assert not any(r.startswith(("tests/", "bench/", ".")) for r in rels)


def test_no_function_is_longer_than_its_allowance() -> None:
    allowance = {name: entry["lines"] for name, entry in allowed().items()}
    over = {
        name: f"{length} lines, {allowance.get(name, LIMIT)} allowed"
        for name, length in long_functions().items()
        if length > allowance.get(name, LIMIT)
    }
    assert not over, f"split these into small named functions (at most {LIMIT} lines each): {over}"


def test_the_allowlist_is_lowered_when_a_function_shrinks() -> None:
    lengths = long_functions()
    stale = {
        name: f"allowed {entry['lines']}, now {lengths.get(name, 'at most ' + str(LIMIT))}: "
        f"lower or remove it in {ALLOWLIST.name}"
        for name, entry in allowed().items()
        if lengths.get(name, 0) < entry["lines"]
    }
    assert not stale, stale


def test_every_allowed_function_says_why_it_stays() -> None:
    for name, entry in allowed().items():
        assert entry["lines"] > LIMIT, name
        assert len(entry.get("reason", "").strip()) > 20, f"{name}: give the reason it stays"
