"""The Experiments page: empty state, a bad spec named by field, a tiny spec started in the background and
its results (tables, chart, downloads) once the cells are in the store."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.experiments import background
from core.store import Store
from tests.core.experiments.conftest import TOY

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "experiments.py")
TINY = f"""
name = "tiny"
workbench = "policy_simulator"
adapter = "{TOY}"
seeds = [0, 1, 2]
metric = "total_cost"
goal = "min"
baseline = "low"
[env]
horizons = [5]
[[agents]]
name = "low"
S = 8
[[agents]]
name = "high"
S = 25
"""


def _page(db: Path, monkeypatch) -> AppTest:
    monkeypatch.setenv("ORCA_DB", str(db))
    return AppTest.from_file(PAGE, default_timeout=60).run()


def test_empty_store_shows_how_to_start(monkeypatch, tmp_path):
    at = _page(tmp_path / "e.duckdb", monkeypatch)
    assert not at.exception
    assert "No experiments yet" in at.info[0].value and "experiment run" in at.info[0].value
    assert "inventory_policies.toml" in at.selectbox(key="orca_exp_shipped").options


def test_a_bad_spec_names_the_field_and_keeps_the_page(monkeypatch, tmp_path):
    at = _page(tmp_path / "e.duckdb", monkeypatch)
    at.text_area(key="orca_exp_spec_text").set_value(TINY.replace("seeds = [0, 1, 2]", "seeds = [1, 1]"))
    at.button(key="orca_exp_start").click().run()
    assert not at.exception
    assert any("seeds" in e.value for e in at.error)


def test_start_a_tiny_spec_and_see_its_results(monkeypatch, tmp_path):
    db = tmp_path / "e.duckdb"
    at = _page(db, monkeypatch)
    at.text_area(key="orca_exp_spec_text").set_value(TINY)
    at.button(key="orca_exp_start").click().run()
    assert not at.exception
    exp_id = at.session_state["orca_exp_selected"]
    run = background.get(exp_id)
    assert run is not None
    run.thread.join(timeout=120)
    assert run.error is None and run.summary["done"] == 6
    assert Store(db).get_experiment(exp_id)["status"] == "done"
    at.run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    per_agent = next(f for f in frames if "ci_low" in f and "instance" not in f and "n_pairs" not in f)
    assert per_agent["agent"].tolist() == ["low", "high"] and per_agent["n"].tolist() == [3, 3]
    assert per_agent["kind"].eq("offline (built-in)").all()
    paired = next(f for f in frames if "n_pairs" in f)
    assert paired["agent"].tolist() == ["high"] and paired["n_pairs"].tolist() == [3]
    assert "6/6 cells" in at.get("progress")[0].proto.text
    assert len(at.get("plotly_chart")) == 1 and len(at.get("download_button")) == 3
    other = AppTest.from_file(PAGE, default_timeout=60).run()  # a second session sees the same experiment
    assert other.selectbox(key="orca_exp_selected").value == exp_id


def test_a_running_spec_is_not_started_twice(monkeypatch, tmp_path):
    text = TINY.replace("horizons = [5]", "horizons = [40]")
    first = background.start(text, tmp_path / "e.duckdb", workers=1)
    second = background.start(text, tmp_path / "e.duckdb", workers=1)
    assert second is first, "the driver process takes seconds to start: the first run is still alive"
    first.thread.join(timeout=120)
    assert first.error is None and first.summary["done"] == 6 and first.summary["skipped"] == 0


def test_a_stalled_experiment_is_named_and_resumes(monkeypatch, tmp_path):
    """An experiment left "running" by a killed driver shows as stalled, and Resume finishes only its rest."""
    import time

    from core.experiments.driver import ExperimentStatus, prepare
    from core.experiments.spec import parse_spec
    from core.store import experiments as store_experiments

    db = tmp_path / "e.duckdb"
    spec = parse_spec(TINY)
    prepare(spec, Store(db))
    Store(db).set_experiment_status(spec.experiment_id, ExperimentStatus.RUNNING)
    monkeypatch.setattr(store_experiments, "STALE_AFTER_S", 0.2)
    time.sleep(0.3)
    at = _page(db, monkeypatch)
    assert not at.exception
    assert any("stopped reporting" in w.value for w in at.warning)
    at.button(key="orca_exp_resume").click().run()
    assert not at.exception
    run = background.get(spec.experiment_id)
    run.thread.join(timeout=120)
    assert run.error is None and run.summary["status"] == "done" and run.summary["ran"] == 6
    assert Store(db).get_experiment(spec.experiment_id)["status"] == "done"
