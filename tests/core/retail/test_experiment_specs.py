"""The shipped RetailBench experiment specs: the offline one runs (shortened) and gives a Table 1 with the
oracle row; the paper protocol's LLM agents are refused without a key."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from core.errors import SpecError
from core.experiments.driver import agent_settings, run_experiment
from core.experiments.spec import load_spec
from core.retail.report import table1, to_markdown
from core.store import Store

SPECS = Path(__file__).resolve().parents[3] / "data" / "experiments"


def test_paper_spec_needs_keys_for_its_llm_agents():
    spec = load_spec(SPECS / "retail_paper.toml")
    llm = [a for a in spec.agents if a.kind == "llm"]
    assert {a.framework for a in llm} == {"react", "reflection", "plan_and_act", "evolving_strategy"}
    with pytest.raises(SpecError, match="needs ANTHROPIC_API_KEY"):
        agent_settings(spec, env={})


def test_harness_spec_runs_both_harnesses_and_the_report_names_them(tmp_path, fake_llm, monkeypatch):
    """The shipped two-harness spec, cut to ReAct under each harness for one day against the fake server: both
    cells run, their runs carry the harness, and Table 1 labels each agent with its harness."""
    from core.experiments.engines import make_engine

    spec = load_spec(SPECS / "retail_harnesses.toml")
    llm = [a for a in spec.agents if a.kind == "llm"]
    assert {(a.framework, a.params["harness"]) for a in llm} == {
        (f, h) for f in ("react", "reflection", "plan_and_act", "evolving_strategy") for h in ("orca", "paper")}
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    either = {"text": '<tool_call>{"name": "end_today", "arguments": {}}</tool_call>',
              "tool_calls": [{"name": "end_today", "arguments": {}}]}  # a native call (orca) and a text one (paper)
    fake_llm.script([either, either])
    short = dataclasses.replace(spec, name="retail_harness_short", seeds=(0,), env={"preset": "easy", "days": 1}, baseline=None,
                                agents=tuple(a for a in spec.agents if a.name in ("react-orca", "react-paper")))  # fmt: skip
    store = Store(tmp_path / "h.duckdb")
    summary = run_experiment(short, store, engine=make_engine("local", workers=1), progress=False)
    assert summary.failed == 0 and summary.done == 2
    frame = table1(store, short.experiment_id).set_index("agent")
    assert frame.loc["react-orca", "kind"].endswith("· react · orca harness")
    assert frame.loc["react-paper", "kind"].endswith("· react · paper harness")
    cells = store.cells(short.experiment_id).set_index("agent")
    assert store.get_run(cells.loc["react-paper", "run_id"])["config"]["agent"]["harness"] == "paper"


def test_offline_spec_runs_and_reports_table1(tmp_path):
    spec = load_spec(SPECS / "retail_offline.toml")
    assert [a.name for a in spec.agents][:3] == ["oracle", "hybrid", "store_manager"]
    short = dataclasses.replace(spec, name="retail_offline_short", seeds=(0,), env={"preset": "hard_v2", "days": 3},
                                agents=spec.agents[:3])  # fmt: skip
    store = Store(tmp_path / "e.duckdb")
    summary = run_experiment(short, store, progress=False)
    assert summary.failed == 0 and summary.done == 3
    frame = table1(store, short.experiment_id)
    assert list(frame["agent"]) == ["oracle", "hybrid", "store_manager"]
    assert all(k.startswith("offline") for k in frame["kind"])
    assert (frame["run_days_selected"] == 3).all()
    text = to_markdown(frame)
    assert text.splitlines()[2].startswith("| oracle | offline")


@pytest.mark.parametrize("engine_name", ["local", "ray"])
def test_experiment_cells_land_with_their_record_tables_and_open_in_the_replay(tmp_path, engine_name):
    """A tiny experiment (local pool, and a local Ray instance): each cell's run is committed with its retail
    tables, its evaluation ground truth and the day index, so the replay shows the daily series and the
    stage-3 diagnostics."""
    from core.experiments.engines import make_engine
    from core.retail import replay
    from core.store.retail import retail_records

    spec = load_spec(SPECS / "retail_offline.toml")
    tiny = dataclasses.replace(spec, name="retail_tiny", seeds=(1,), env={"preset": "hard_v2", "days": 3},
                               agents=spec.agents[:2])  # fmt: skip
    store = Store(tmp_path / "e.duckdb")
    if engine_name == "ray":
        pytest.importorskip("ray")
    summary = run_experiment(tiny, store, engine=make_engine(engine_name, workers=2), progress=False)
    assert summary.done == 2
    cells = store.cells(tiny.experiment_id)
    runs = replay.retail_runs(store)
    assert set(runs["id"]) == set(cells["run_id"])
    assert set(runs["agent"]) == {"oracle", "hybrid"} and runs["kind"].str.startswith("offline").all()
    for run_id in cells["run_id"]:
        daily = replay.daily(store, run_id)
        assert list(daily["day"]) == [1, 2, 3]
        assert len(json.loads(store.get_artifact(run_id, "day_index.json"))) == 3  # stored with the cell's run
        assert not retail_records(store, run_id, "eval_quality").empty
        diag = replay.diagnostics(store, run_id)
        assert diag["s3_place_order_eval_count"] > 0 and "stage3_note" not in diag
    oracle = cells.loc[cells["agent"] == "oracle", "run_id"].iloc[0]
    assert replay.diagnostics(store, oracle)["s3_supplier_quality_first_rate"] == 1.0


def test_retail_report_cli_has_table1_four_stage_and_says_when_the_judge_needs_a_key(tmp_path, capsys):
    from core.cli import main

    spec = load_spec(SPECS / "retail_offline.toml")
    tiny = dataclasses.replace(spec, name="retail_report", seeds=(2,), env={"preset": "hard_v2", "days": 3},
                               agents=spec.agents[:1])  # fmt: skip
    db = tmp_path / "r.duckdb"
    run_experiment(tiny, Store(db), progress=False)
    assert main(["--db", str(db), "retail", "report", tiny.experiment_id]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["table1"].splitlines()[2].startswith("| oracle | offline")
    four = out["four_stage"].splitlines()
    assert "QualityFirst" in four[0] and four[2].startswith("| oracle | offline")
    head = [c.strip() for c in four[0].strip("|").split("|")]
    row = [c.strip() for c in four[2].strip("|").split("|")]
    assert row[head.index("QualityFirst")] == "1" and row[head.index("SupplierQual")] == "1"
    assert "needs an LLM key" in out["macro_judge"]


def test_the_agent_role_names_the_framework_model_and_an_unknown_role_is_refused(tmp_path, fake_llm, monkeypatch):
    """Issue 30: per-role models reach RetailBench cells (`roles.agent`); an unknown role is refused, not ignored;
    a `judge` without a strategy log to judge makes no call."""
    from core.experiments.engines import make_engine
    from core.experiments.spec import with_roles
    from core.llm.roles import RoleModel

    spec = load_spec(SPECS / "retail_harnesses.toml")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"tool_calls": [{"name": "end_today", "arguments": {}}]}])
    short = dataclasses.replace(spec, name="retail_role", seeds=(0,), env={"preset": "easy", "days": 1}, baseline=None,
                                agents=tuple(a for a in spec.agents if a.name == "react-orca"))  # fmt: skip
    short = with_roles(short, {"agent": RoleModel("openai", "role-model")})
    store = Store(tmp_path / "r.duckdb")
    summary = run_experiment(short, store, engine=make_engine("local", workers=1), progress=False)
    assert summary.done == 1 and [r["body"]["model"] for r in fake_llm.requests] == ["role-model"]
    critic = with_roles(short, {"critic": RoleModel("openai", "j")})
    with pytest.raises(SpecError) as err:  # refused before any cell runs
        run_experiment(critic, store, engine=make_engine("local", workers=1), progress=False)
    assert err.value.field == "agents.react-orca.roles.critic"
    fake_llm.script([{"tool_calls": [{"name": "end_today", "arguments": {}}]}])
    judged = with_roles(short, {"judge": RoleModel("openai", "j")})
    assert run_experiment(judged, store, engine=make_engine("local", workers=1), progress=False).done == 1
    assert [r["body"]["model"] for r in fake_llm.requests] == ["role-model"]  # ReAct keeps no strategy log


def test_the_judge_role_scores_an_evolving_strategy_cell_and_its_tokens_are_the_cells(fake_llm) -> None:
    """Issue 30: RetailBench's macro-strategy judge is the environment-side role `judge`: at the cell's end it
    scores the strategy log's adjacent days on its own model; its tokens are the cell's metrics."""
    from types import SimpleNamespace

    from core.config import Settings
    from core.retail import experiment as adapter
    from tests.core.retail.test_judge import LOG

    fake_llm.script([{"text": '{"similarity": 0.4, "reason": "r"}', "usage": (30, 4)}, {"text": "0.5", "usage": (30, 4)}])
    judge = Settings(provider="openai", model="judge-m", api_key="k", base_url=fake_llm.openai_url)
    assert "judge" in adapter.ENV_ROLES and "judge" in adapter.ROLES
    out = adapter.judged(SimpleNamespace(strategy_log=LOG), judge)
    assert [r["body"]["model"] for r in fake_llm.requests] == ["judge-m", "judge-m"]  # day 1-2 identical: no call
    assert (out["judge_input_tokens"], out["judge_output_tokens"]) == (60.0, 8.0) and out["macro_unscored"] == 0
    assert out["macro_mac"] == pytest.approx((0.6 + 0.1) / 2)
    assert adapter.judged(SimpleNamespace(strategy_log=LOG), Settings()) == {}  # an offline judge is no judge
    assert adapter.judged(SimpleNamespace(), judge) == {}
