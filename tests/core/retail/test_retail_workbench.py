"""RetailBench in the app layer: offline agents through the rollout loop, stored records, CLI, experiment
adapter, the LLM toolbox, and execute_code through the sandbox inside a running simulation."""

from __future__ import annotations

import functools
import json

import pytest

from core.cli import main
from core.recorder import Recorder
from core.retail import experiment
from core.retail.run import run_agent
from core.retail.tools import retail_toolbox
from core.rollout import replay_run, rollout
from core.sandbox import SandboxLimits, run_code
from core.store import Store
from core.store.retail import retail_records
from solvers.retail.env import RetailBenchEnv


def test_offline_run_is_stored_with_records_and_replays(tmp_path):
    store = Store(tmp_path / "r.duckdb")
    out = run_agent("oracle", days=6, seed=4, store=store)
    m = out["metrics"]
    assert m["run_days"] == 6 and m["survived"] and out["run_id"]
    daily = retail_records(store, out["run_id"], "daily")
    assert len(daily) == 6 and daily["net_worth"].iloc[-1] == pytest.approx(m["final_networth"])
    orders = retail_records(store, out["run_id"], "supplier_orders")
    lifecycle = retail_records(store, out["run_id"], "lifecycle")
    assert len(orders) > 0 and lifecycle["quantity"].sum() == orders["quantity"].sum()
    sales = retail_records(store, out["run_id"], "sales")
    assert sales["move"].sum() == m["total_sales"]
    assert len(retail_records(store, out["run_id"], "news")) == 6 * 20
    env = RetailBenchEnv("hard_v2", max_days=6)
    check = replay_run(store, out["run_id"], env)
    assert check.matches, check.mismatch
    assert check.steps > 6


def test_cli_run_metrics_tools_and_errors(tmp_path, capsys):
    db = str(tmp_path / "c.duckdb")
    assert main(["--db", db, "retail", "run", "--agent", "do_nothing", "--days", "8", "--seed", "1"]) == 0
    run = json.loads(capsys.readouterr().out)
    assert run["metrics"]["final_networth"] == pytest.approx(30000 - 8 * 600)
    assert main(["--db", db, "retail", "metrics", run["run_id"], "--series"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["from_daily_series"]["run_days"] == 8 and len(shown["daily"]) == 8
    assert main(["--db", db, "retail", "tools"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 21
    assert main(["--db", db, "retail", "run", "--preset", "bogus", "--days", "2"]) == 2
    assert json.loads(capsys.readouterr().err)["field"] == "--preset"
    args = ["--db", db, "retail", "run", "--agent", "do_nothing", "--days", "3", "--set", "everyday_rent=100", "--no-store"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["final_networth"] == pytest.approx(29_700)
    assert main(["--db", db, "retail", "run", "--days", "2", "--set", "rho=0"]) == 2
    assert json.loads(capsys.readouterr().err)["field"] == "--set rho"


def test_experiment_adapter_runs_a_cell():
    [(key, config)] = experiment.instances({"preset": "stress_hard", "days": 3})
    assert key == "hard_v2-3d"
    env = experiment.make_env(config)
    agent = experiment.make_agent({"name": "cheapest"}, config, None)
    result = rollout(env, agent, seed=2, recorder=Recorder(None, "retailbench", config=config, seed=2))
    values = experiment.metrics(result, env)
    assert values["run_days"] == 3 and values["total_sales"] >= 0
    with pytest.raises(Exception, match="offline agents"):
        experiment.make_agent({"name": "gpt"}, config, None)


def test_toolbox_exposes_the_21_tools_and_returns_errors_as_results():
    env = RetailBenchEnv("hard_v2", max_days=3)
    env.reset(seed=1)
    box = retail_toolbox(env.tools)
    assert len(box.names) == 21
    spec = {s.name: s for s in box.specs}
    assert spec["place_order"].parameters["required"] == ["items", "supplier_id"]
    assert spec["view_funds_and_date"].description.endswith("Returns result as: {funds, current_date}.")
    assert "YYYY-MM-DD" in spec["view_news_history"].parameters["properties"]["start_date"]["description"]
    assert "error" in box.call("place_order", {"items": [], "supplier_id": "supplier_1"})
    assert "error" in box.call("place_order", {"items": "x"})  # schema: missing supplier_id
    ok = box.call("view_funds_and_date", {})
    assert ok["result"]["funds"] == 30000


def test_execute_code_runs_sandboxed_and_hostile_code_leaves_the_run_going():
    runner = functools.partial(run_code, limits=SandboxLimits(cpu_seconds=1, wall_seconds=2, memory_mb=256))
    env = RetailBenchEnv("hard_v2", max_days=3, code_runner=runner)
    env.reset(seed=5)
    sku = env.sim.sku_ids[0]
    code = f"q = view_current_date_supplier_prices(['{sku}'])\nresult = min(r['price'] for r in q['{sku}'])"
    obs, *_ = env.step({"name": "execute_code", "arguments": {"code": code}})
    assert obs["result"]["result"] == pytest.approx(float(env.sim.quotes()[0].min()))
    assert [c["source"] for c in env.tools.calls[-2:]] == ["execute_code", "direct"]
    for hostile in ("import os\nos.fork()", "while True:\n    pass", "x = 'a' * 10**10",
                    "place_order([{'sku_id': 'x', 'quantity': 1}], 'supplier_1')", "open('/etc/passwd').read()"):
        obs, reward, term, trunc, info = env.step({"name": "execute_code", "arguments": {"code": hostile}})
        assert obs["result"]["error"] and info["error"] and not term
    obs, reward, term, trunc, info = env.step({"name": "end_today", "arguments": {}})
    assert obs["result"]["current_date"] == "1991-09-08" and not term
    metrics = env.episode_metrics()
    assert metrics["code_tool_calls"] == 1 and metrics["direct_tool_calls"] == 7


def test_an_llm_tool_agent_drives_the_environment_through_the_rollout_loop():
    from core.llm import OfflineModel, OfflineTurn
    from core.llm_agent import LLMToolAgent
    from core.retail.tools import retail_tool_specs

    env = RetailBenchEnv("hard_v2", max_days=2)
    env.reset(seed=0)
    sku = env.sim.sku_ids[0]
    script = [("view_funds_and_date", {}), ("place_order", {"items": [], "supplier_id": "supplier_1"}),
              ("set_shelf_skus", {"sku_ids": [sku]}), ("end_today", {}), ("end_today", {})]  # fmt: skip

    def policy(system, messages, tools):
        return OfflineTurn("", [script[min(len(messages) // 2, len(script) - 1)]])

    agent = LLMToolAgent(OfflineModel(policy), system="Run the store.", env_tools=retail_tool_specs(env.tools))
    result = rollout(env, agent, seed=0, max_steps=20)
    assert result.metrics["run_days"] == 2 and str(result.status) == "truncated", result.error
    names = [a["name"] for a in result.actions]
    assert names[0] == "view_funds_and_date" and names.count("end_today") == 2


def test_the_shipped_spec_runs_through_the_experiment_layer(tmp_path, store_path):
    import io
    from pathlib import Path

    from core.experiments.driver import ExperimentStatus, run_experiment
    from core.experiments.engines import LocalEngine
    from core.experiments.spec import load_spec

    root = Path(__file__).resolve().parents[3]
    raw = (root / "data/retail/experiments/oracle_baselines.toml").read_text()
    short = raw.replace("days = 180", "days = 4").replace("seeds = [0, 1, 2, 3, 4]", "seeds = [0, 1]")
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(short)
    spec = load_spec(spec_path)
    store = Store(store_path)
    summary = run_experiment(spec, store, engine=LocalEngine(1), progress=io.StringIO())
    assert summary.status is ExperimentStatus.DONE and summary.done == summary.cells == 10
    cells = store.cells(spec.experiment_id)
    oracle = cells[cells["agent"] == "oracle"]
    assert len(oracle) == 2 and all(m["run_days"] == 4 for m in oracle["metrics"])
    idle = cells[cells["agent"] == "do_nothing"]
    assert all(m["final_networth"] == 30_000 - 4 * 600 for m in idle["metrics"])
    with pytest.raises(Exception, match="LLM agents"):
        experiment.make_agent({"name": "x", "kind": "llm"}, {"preset": "hard_v2", "days": 2}, None)


def test_cli_runs_an_llm_framework_and_refuses_one_without_a_provider(tmp_path, capsys, fake_llm, monkeypatch):
    """`retail run --agent react --provider openai` drives the real SDK against the fake server for one day and
    stores the run as an LLM run; without a provider the framework is refused, naming --provider."""
    from core.retail.cli import FRAMEWORK_CHOICES
    from core.retail.frameworks import FRAMEWORKS

    assert set(FRAMEWORK_CHOICES) == set(FRAMEWORKS)
    db = str(tmp_path / "r.duckdb")
    assert main(["--db", db, "retail", "run", "--agent", "react", "--days", "1"]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["field"] == "--provider" and "no offline stand-in" in err["error"]
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    fake_llm.script([{"text": "Let me look.", "tool_calls": [{"name": "view_funds_and_date", "arguments": {}}]},
                     {"tool_calls": [{"name": "end_today", "arguments": {}}]}])  # fmt: skip
    args = ["--db", db, "retail", "run", "--agent", "react", "--preset", "easy", "--days", "1",
            "--provider", "openai", "--model", "m", "--base-url", fake_llm.openai_url, "--llm-retries", "0"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "done" and out["metrics"]["run_days"] == 1 and out["metrics"]["total_tokens"] > 0
    assert len(fake_llm.queue) == 0
    run = Store(db).get_run(out["run_id"])
    assert run["config"]["agent_kind"] == "LLM · orca harness" and run["config"]["model"] == "m"
    assert run["config"]["harness"] == "orca" and "(orca harness)" in run["title"]
