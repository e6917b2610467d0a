"""The app as `make run` serves it: no file watcher polling the source tree while idle (issue 11, item 10), no
full garbage collection after every script run (issue 31)."""

from __future__ import annotations

import re
import tomllib

from tests.support.browser import ROOT


def test_streamlit_config_turns_the_file_watcher_off() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
    assert config["server"]["runOnSave"] is False


def test_streamlit_config_skips_the_full_collection_after_each_script_run() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False


def test_make_run_does_not_turn_a_watcher_back_on() -> None:
    makefile = (ROOT / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "-m core.serve" in run  # the launcher: warm-up, then `streamlit run app.py` with these flags
    assert not re.search(r"fileWatcherType\s+(auto|poll|watchdog)", run)
    assert "postScriptGC" not in run
