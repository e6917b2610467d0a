"""The server launcher (`core/serve.py`, `python -m core.serve`): it pays what a page's first script run would pay
once per process (the pages' imports, the fitted classifiers) before Streamlit starts serving."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core import serve

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("core", "solvers", "sklearn", "scipy", "pandas", "plotly", "numpy", "pint", "duckdb", "pyarrow", "gymnasium")
"""Packages whose first import a page visit must not pay once the launcher warmed the process up."""
FIRST_RUN = """
import os, sys
sys.path.insert(0, os.getcwd())
from streamlit.testing.v1 import AppTest
if {warm}:
    from core.serve import warm_up
    warm_up()
before = set(sys.modules)
at = AppTest.from_file(os.path.join(os.getcwd(), "app.py"), default_timeout=300).run()
at.switch_page("pages/{page}.py").run()
assert not at.exception, at.exception
print(" ".join(sorted(m for m in set(sys.modules) - before if m.split(".")[0] in {heavy})))
"""


def _first_run_imports(page: str, warm: bool, tmp_path: Path) -> list[str]:
    """The heavy modules a fresh process imports during its first script run of `page` (after `warm_up` if
    `warm`)."""
    code = FIRST_RUN.format(warm=warm, page=page, heavy=set(HEAVY))
    env = {**os.environ, "ORCA_DB": str(tmp_path / "orca.duckdb"), "ORCA_PROVIDER": "offline"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1].split() if out.stdout.strip() else []


def test_a_warmed_up_server_pays_no_import_on_the_copilots_first_visit(tmp_path: Path) -> None:
    assert "sklearn" in " ".join(_first_run_imports("inventory_copilot", False, tmp_path))  # what it saves
    assert _first_run_imports("inventory_copilot", True, tmp_path) == []


def test_the_warm_up_covers_every_page_and_the_app(tmp_path: Path) -> None:
    modules = serve.page_modules()
    for script in [ROOT / "app.py", *(ROOT / "pages").glob("*.py")]:
        assert set(serve.script_imports(script)) <= set(modules), script.name
    assert "core.inventory.copilot.session" in modules and "core.schedule.session" in modules


def test_script_imports_reads_absolute_imports_at_any_depth(tmp_path: Path) -> None:
    script = tmp_path / "page.py"
    script.write_text(
        "from __future__ import annotations\nimport json, os.path\nfrom core.ui import x\nfrom . import y\n"
        "def f():\n    import plotly.express as px\n"
    )
    assert serve.script_imports(script) == ("json", "os.path", "core.ui", "plotly.express")


def test_a_page_that_cannot_be_imported_does_not_stop_the_server(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.py").write_text("import json\n")
    (tmp_path / "pages" / "broken.py").write_text("import orca_no_such_module\n")
    done = serve.warm_up(tmp_path)
    assert done.modules == ("json", "orca_no_such_module")
    assert [f.split(":")[0] for f in done.failed] == ["orca_no_such_module"]


def test_the_warm_up_leaves_torch_unloaded() -> None:
    code = "from core.serve import warm_up\nwarm_up()\nimport sys\nprint('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_main_warms_up_before_streamlit_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.web import cli

    calls: list[object] = []
    monkeypatch.setattr(serve, "warm_up", lambda: calls.append("warm up") or serve.WarmUp((), (), 0.0, 0.0, ("x: y",)))
    monkeypatch.setattr(cli, "main", lambda args, prog_name: calls.append((prog_name, args)))
    serve.main(["--server.port", "8599"])
    assert calls == ["warm up", ("streamlit", ["run", str(ROOT / "app.py"), "--server.port", "8599"])]


def test_make_run_and_the_browser_servers_start_through_the_launcher() -> None:
    from tests.support import browser

    run = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/python -m core.serve " in run and "streamlit run" not in run
    assert [sys.executable, "-m", "core.serve"] == browser.LAUNCHER
