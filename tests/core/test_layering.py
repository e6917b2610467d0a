"""Imports point downward: solvers are a pure library; only app.py, pages/ and core/ui.py import streamlit."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI_ALLOWED = {"app.py", "core/ui.py"}
SOLVER_FORBIDDEN = ("streamlit", "anthropic", "openai", "core.llm", "core.store", "core.ui", "core.cli")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def test_solvers_import_no_ui_llm_or_store():
    offenders = {
        str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p) if m.startswith(SOLVER_FORBIDDEN))
        for p in python_files("solvers")
    }
    assert python_files("solvers"), "the scan found no solver files"
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
