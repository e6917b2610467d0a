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
    assert "Tokens and cost" not in [h.value for h in at.subheader], "no tokens: no cost section"
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


def test_tokens_and_cost_are_shown_when_the_runs_used_a_model(monkeypatch, tmp_path, fake_llm):
    """Issue 30: an experiment whose cells used an LLM shows its tokens and $ per agent and per cell (run); one
    without tokens shows no cost section."""
    from core.experiments.driver import run_experiment
    from core.experiments.engines import LocalEngine
    from core.experiments.spec import parse_spec

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    prices = tmp_path / "prices.toml"
    prices.write_text('[openai]\n"fake-model" = { input = 2.0, output = 10.0 }\n')
    monkeypatch.setenv("ORCA_LLM_PRICES", str(prices))
    db = tmp_path / "e.duckdb"
    spec = parse_spec(TINY.replace('seeds = [0, 1, 2]', "seeds = [0]").replace(
        'name = "high"\nS = 25', 'name = "high"\nkind = "llm"\nprovider = "openai"\nmodel = "fake-model"'))
    fake_llm.script([{"text": "12"} for _ in range(5)])  # 5 steps × 11 in / 7 out
    run_experiment(spec, Store(db), engine=LocalEngine(1), progress=False)
    at = _page(db, monkeypatch)
    assert not at.exception
    assert "Tokens and cost" in [h.value for h in at.subheader]
    frames = [d.value for d in at.dataframe]
    costs = next(f for f in frames if "cost_usd" in f and "cell_key" not in f).set_index("agent")
    assert (costs.at["high", "input_tokens"], costs.at["high", "output_tokens"]) == (55, 35)
    assert costs.at["high", "cost_usd"] == (55 * 2 + 35 * 10) / 1e6 and costs.at["low", "price"] == "offline"
    cells = next(f for f in frames if "cost_usd" in f and "cell_key" in f)
    assert len(cells) == 2
    assert any("55 input and 35 output tokens, $0.0005" in c.value for c in at.caption)
