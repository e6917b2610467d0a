"""Cross-page session-state keys live in `core/ui_keys.py` only: each documented, unique, and never spelled
out as a literal by a page or by `core/`."""

import ast
from pathlib import Path

from core import ui_keys

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "core" / "ui_keys.py"


def documented_keys() -> dict[str, str]:
    """Constant name -> value, for each constant directly followed by its docstring."""
    body = ast.parse(MODULE.read_text()).body
    keys = {}
    for node, after in zip(body, body[1:], strict=False):
        if isinstance(node, ast.Assign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            keys[node.targets[0].id] = node.value.value
    return keys


def test_every_key_is_documented_unique_and_prefixed():
    constants = {k: v for k, v in vars(ui_keys).items() if k.isupper()}
    assert {"SETTINGS", "SIMULATOR_PARAMS_CSV", "SIMULATOR_POLICY", "RETAIL_REPLAY_RUN"} <= set(constants)
    assert documented_keys() == constants
    assert len(set(constants.values())) == len(constants)
    assert all(v.startswith("orca_") for v in constants.values())


def test_no_page_or_core_module_spells_a_cross_page_key():
    values = {v for k, v in vars(ui_keys).items() if k.isupper()}
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "core").rglob("*.py"))]
    offenders = [
        f"{path.relative_to(ROOT)}: {node.value}"
        for path in files
        if path != MODULE
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in values
    ]
    assert len(files) > 20 and offenders == []
