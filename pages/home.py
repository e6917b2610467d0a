"""Home: what ORCA is, and a card per workbench with a link to it."""

from pathlib import Path

import streamlit as st

from core.catalog import available
from core.ui import ensure_app_shell

ROOT = Path(__file__).resolve().parents[1]
ensure_app_shell()

st.title("ORCA · Operations Research Copilot Arena")
st.markdown(
    "ORCA puts conversational agents in front of **verified operations-research solvers**. The agent is the "
    "interface: it asks, clarifies and explains in plain words, while MILP, dynamic-programming, simulation and "
    "reinforcement-learning solvers do the computing. Everything works offline with deterministic built-in "
    "agents; add an Anthropic or OpenAI-compatible key under **Settings** in the sidebar to let a real LLM "
    "drive the same tools."
)
present = {str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")}
workbenches = available(present)
if not workbenches:
    st.info("No workbench is installed yet.")
columns = st.columns(max(1, min(3, len(workbenches))))
for i, bench in enumerate(workbenches):
    with columns[i % len(columns)].container(border=True):
        st.subheader(bench.title)
        st.caption(bench.seed)
        st.write(bench.summary)
        st.page_link(bench.page, label=f"Open {bench.title}", icon=bench.icon)
st.divider()
st.caption(
    "Runs are stored in a local DuckDB file (see Settings) and can be browsed or exported with "
    "`python -m core.cli runs`."
)
