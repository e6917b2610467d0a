"""Imports point downward, by allow-list: solvers are a pure library, generic core never reaches into a
workbench, only app.py, pages/ and core/ui.py import streamlit, and core/ and solvers/ have no import circle.

The scan reads every import statement with `ast` (module level, inside functions and under TYPE_CHECKING);
`from package import submodule` counts as an import of the submodule. Module names in strings (the catalog's
`cli_module`, `experiment_adapter`) are not imports and are not checked.
"""

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI_ALLOWED = {"app.py", "core/ui.py", "core/serve.py"}  # serve: the launcher starts the Streamlit server
WORKBENCH_PACKAGES = ("core.inventory", "core.schedule", "core.repair", "core.retail")
SOLVER_ALLOWED_OWN = ("solvers", "core.errors")
SOLVER_FORBIDDEN_REQUIREMENTS = {"streamlit", "anthropic", "openai"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


OWN_MODULES = {module_name(p) for folder in ("core", "solvers") for p in python_files(folder)}


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module `path` imports (relative imports resolved)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & OWN_MODULES
            names.update(submodules)
            if len(submodules) < len(node.names):
                names.add(base)
    return names


def under(module: str, prefixes: tuple[str, ...] | set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def third_party_allowed_in_solvers() -> set[str]:
    """Top-level import names of the requirements.txt distributions, except the UI and LLM clients."""
    normal = {
        re.split(r"[=<>!~\[; ]", line.strip())[0].lower().replace("_", "-")
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith(("#", "-"))
    }
    allowed = normal - SOLVER_FORBIDDEN_REQUIREMENTS
    return {
        top
        for top, dists in packages_distributions().items()
        if any(d.lower().replace("_", "-") in allowed for d in dists)
    }


def test_solvers_import_only_solvers_the_standard_library_their_requirements_and_core_errors():
    third_party = third_party_allowed_in_solvers()
    assert {"numpy", "scipy", "pulp", "sklearn"} <= third_party and "streamlit" not in third_party

    def allowed(module: str) -> bool:
        top = module.split(".")[0]
        return under(module, SOLVER_ALLOWED_OWN) or top in sys.stdlib_module_names or top in third_party

    offenders = {
        str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p) if not allowed(m))
        for p in python_files("solvers")
    }
    assert python_files("solvers"), "the scan found no solver files"
    assert {k: v for k, v in offenders.items() if v} == {}


def test_generic_core_never_imports_a_workbench_package():
    generic = [p for p in python_files("core") if not under(module_name(p), WORKBENCH_PACKAGES)]
    assert ROOT / "core" / "catalog.py" in generic and ROOT / "core" / "llm" / "providers.py" in generic
    offenders = {
        str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p) if under(m, WORKBENCH_PACKAGES))
        for p in generic
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_core_and_solvers_never_import_pages_or_the_app():
    offenders = {
        str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p) if under(m, ("pages", "app")))
        for folder in ("core", "solvers")
        for p in python_files(folder)
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_only_views_and_core_ui_import_streamlit():
    offenders = []
    for folder in ("core", "solvers"):
        for path in python_files(folder):
            rel = str(path.relative_to(ROOT))
            if rel not in UI_ALLOWED and any(m.split(".")[0] == "streamlit" for m in imported_modules(path)):
                offenders.append(rel)
    assert offenders == []


def imported_names(path: Path) -> set[str]:
    """Imported modules plus `module.name` for each `from module import name` (so `from pkg import sub`)."""
    names = imported_modules(path)
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_policy_simulator_imports_nothing_from_the_copilot():
    simulator = python_files("core/inventory/simulator")
    offenders = {
        str(p.relative_to(ROOT)): sorted(
            m for m in imported_names(p) if m.startswith("core.inventory.copilot")
        )
        for p in simulator
    }
    assert simulator, "the scan found no simulator files"
    assert {k: v for k, v in offenders.items() if v} == {}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted; self-imports are ignored."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node] - {node}:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_the_cycle_finder_finds_a_circle_and_only_a_circle():
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b", "a"}, "b": set()}) == []


def test_core_and_solvers_have_no_import_cycle():
    graph = {
        module_name(p): imported_modules(p) & OWN_MODULES
        for folder in ("core", "solvers")
        for p in python_files(folder)
    }
    assert {"core.schedule.session", "core.schedule.frontier"} <= set(graph)
    assert import_cycles(graph) == []
