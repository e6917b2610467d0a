"""ORCA's entry point: page config, navigation over the working workbenches, and the shared Settings sidebar."""

from pathlib import Path

import streamlit as st

from core.catalog import available
from core.ui import script_timing, settings_sidebar

ROOT = Path(__file__).parent

with script_timing() as timer:  # opt-in ($ORCA_SCRIPT_TIMING): one line per script run
    st.set_page_config(
        page_title="ORCA · Operations Research Copilot Arena",
        page_icon=str(ROOT / "assets/icon.png"),
        layout="wide",
    )
    st.logo(str(ROOT / "assets/logo.svg"), size="large")

    present = {str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")}
    pages = [st.Page("pages/home.py", title="Home", icon=":material/home:", default=True)]
    pages += [st.Page(w.page, title=w.title, icon=w.icon) for w in available(present)]
    pages.append(st.Page("pages/experiments.py", title="Experiments", icon=":material/science:"))
    pages.append(st.Page("pages/run_history.py", title="Run history", icon=":material/history:"))
    navigation = st.navigation(pages)
    settings_sidebar()
    timer.page = navigation.url_path
    navigation.run()
