"""ORCA's one server launcher: `python -m core.serve [streamlit flags]` (what `make run`, the browser tests and the
browser benchmarks start).

It warms the process up, then starts Streamlit in the same process exactly as `streamlit run app.py [flags]`
does (Streamlit's own command line, `streamlit.web.cli.main`). Streamlit binds its port only once the warm-up is
done, so the server is "up" (`/_stcore/health` answers) only when the first page a user opens no longer pays
for it. The warm-up:

1. imports every module `app.py` and the pages import (read from their `import` statements, so a new page is
   covered without a list to keep), with what those pages' first script run would otherwise import lazily
   (Streamlit's element modules, Plotly's figure validators, the Arrow conversion of a table);
2. fills the process-wide caches the pages fill lazily (`WARM_CALLS`): the fitted classifiers (and the unit
   registry) the chat pages read messages with, from the fit cache or fitted once, and the LP Repair Lab's
   built-in problems.

A page's script still runs per session; only what a process pays once moves before the first connection.
"""

from __future__ import annotations

import ast
import importlib
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
WARM_CALLS = (
    "core.inventory.copilot.extraction:warm_up",
    "core.schedule.language:intents",
    "solvers.lp.env:default_problems",
)
"""Process-wide caches the pages fill lazily (`module:function`, called without arguments): the Inventory
Copilot's dialogue-act and clause classifiers and unit registry (its conversation loads them when a session
starts), School Scheduling's request classifier and the LP Repair Lab's built-in problem set. Strings, as in
`core/catalog.py`: generic core imports no workbench package."""

CACHE_LOGGER = "streamlit.runtime.caching.cache_data_api"
"""Warns "No runtime found" when a module declaring an `st.cache_data` function is imported before Streamlit's
runtime exists, as here; harmless (the cache is made on the first call, under the runtime)."""


@dataclass(frozen=True)
class WarmUp:
    """What `warm_up` did: modules imported, caches filled, what failed (`name: error`; the server starts anyway
    and the page that needs it shows its own error), and the CPU and wall seconds it took."""

    modules: tuple[str, ...]
    calls: tuple[str, ...]
    cpu_s: float
    wall_s: float
    failed: tuple[str, ...] = ()


def script_imports(path: Path) -> tuple[str, ...]:
    """The absolute modules a script imports at any depth of its code (`from a.b import c` gives `a.b`; a
    relative import or `__future__` is skipped), in the order written."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and node.module != "__future__":
            out.append(node.module)
    return tuple(dict.fromkeys(out))


def page_modules(root: Path = ROOT) -> tuple[str, ...]:
    """Every module `app.py` and `pages/*.py` import."""
    scripts = [root / "app.py", *sorted((root / "pages").glob("*.py"))]
    return tuple(dict.fromkeys(m for script in scripts for m in script_imports(script)))


def _first_render() -> None:
    """What the first drawing of a chart or a table pays once per process, done off screen: the page icon and the navigation's icon names, Plotly's validators
    for the trace and layout types the pages use, its default template, and the Arrow conversion of a frame
    (`st.dataframe`, `st.data_editor` and charts send Arrow)."""
    import pandas as pd
    import plotly.graph_objects as go
    import streamlit.material_icon_names  # noqa: F401 - the navigation's `:material/...:` icons
    from PIL import Image
    from streamlit.dataframe_util import convert_anything_to_arrow_bytes

    with Image.open(ROOT / "assets" / "icon.png") as icon:  # the page icon `app.py` sets
        icon.load()
    figure = go.Figure([go.Bar(x=[1], y=[1]), go.Scatter(x=[1], y=[1]), go.Heatmap(z=[[1]])])
    figure.update_layout(title="warm-up", xaxis_title="x", yaxis_title="y", legend={"orientation": "h"})
    figure.to_json()
    convert_anything_to_arrow_bytes(pd.DataFrame({"a": [1.0], "b": ["x"]}))


def warm_up(root: Path = ROOT) -> WarmUp:
    """Import what the pages import and fill the lazy process-wide caches (see the module docstring)."""
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    modules, failed = page_modules(root), []
    importlib.import_module(CACHE_LOGGER)  # Streamlit sets its loggers' levels when it creates them
    quiet = logging.getLogger(CACHE_LOGGER)
    level, quiet.level = quiet.level, logging.ERROR
    steps = [(name, lambda name=name: importlib.import_module(name)) for name in modules]
    steps.append(("first render", _first_render))
    steps += [(call, lambda call=call: _call(call)) for call in WARM_CALLS]
    try:
        for name, step in steps:
            try:
                step()
            except Exception as err:  # noqa: BLE001 - a broken page must not keep the other pages from being served
                failed.append(f"{name}: {type(err).__name__}: {err}")
    finally:
        quiet.setLevel(level)
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    return WarmUp(modules, WARM_CALLS, cpu, wall, tuple(failed))


def _call(call: str) -> None:
    """Call `module:function` without arguments."""
    module, function = call.split(":")
    getattr(importlib.import_module(module), function)()


def main(argv: Sequence[str] | None = None) -> None:
    """Warm up, then serve `app.py` as `streamlit run app.py ARGV` would (ARGV: Streamlit's own flags)."""
    flags = list(sys.argv[1:] if argv is None else argv)
    done = warm_up()
    print(
        f"ORCA warm-up: {len(done.modules)} page imports and {len(done.calls)} caches in "
        f"{done.wall_s:.1f} s ({done.cpu_s:.1f} s CPU); starting the server",
        flush=True,
    )
    for failure in done.failed:
        print(f"ORCA warm-up could not load {failure} (the page that needs it will say so)", flush=True)
    from streamlit.web import cli

    cli.main(["run", str(APP), *flags], prog_name="streamlit")


if __name__ == "__main__":
    main()
