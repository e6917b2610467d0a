"""Live runs (thread, stop, store) and the replay page's day-by-day reads."""

from __future__ import annotations

import time

import pytest

from core.errors import SpecError
from core.recorder import RunStatus
from core.retail import replay
from core.retail.live import LiveRun
from core.retail.run import make_retail_agent, run_agent
from core.store import Store
from solvers.retail.env import RetailBenchEnv


def wait(live: LiveRun, timeout: float = 120.0) -> dict:
    end = time.time() + timeout
    while not live.done and time.time() < end:
        time.sleep(0.05)
    return live.state()


def test_live_run_stores_a_replayable_run(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    live = LiveRun("hybrid", preset="hard_v2", days=4, seed=5, store=store).start()
    state = wait(live)
    assert state["status"] == "done" and state["day"] == 4 and len(state["series"]) == 4
    rid = state["run_id"]
    runs = replay.retail_runs(store)
    assert runs.loc[0, "agent"] == "hybrid" and "offline" in runs.loc[0, "kind"]
    daily = replay.daily(store, rid)
    assert list(daily["day"]) == [1, 2, 3, 4]
    bounds = replay.day_bounds(store, rid)
    assert len(bounds) == 4
    day1 = replay.day_view(replay.day_steps(store, rid, 1, bounds))
    assert day1["shelf"] and not day1["orders"].empty and day1["close"]["current_date"]
    assert day1["calls"]["tool"].iloc[-1] == "end_today"
    day2 = replay.day_steps(store, rid, 2, bounds)
    assert day2[0]["t"] == bounds[0] + 1 and day2[-1]["t"] == bounds[1]
    sku = day1["orders"]["sku_id"].iloc[0]
    product = replay.product_view(store, rid, sku)
    assert not product["orders"].empty and "cheapest_supplier" in product["orders"]
    t1 = replay.table1(store, [rid])
    assert t1.loc[0, "run_days"] == 4 and "offline" in t1.loc[0, "kind"]
    diag = replay.diagnostics(store, rid)
    assert diag["action_events"] > 0 and diag["s1_avg_acted_skus_per_day"] > 0
    assert replay.run_json(store, rid).startswith(b"{") and replay.series_csv(daily).startswith(b"day,")


def test_live_run_stops(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    live = LiveRun("oracle", days=180, seed=1, store=store).start()
    while live.state()["day"] < 2:
        time.sleep(0.02)
    live.stop()
    state = wait(live)
    assert state["status"] == "stopped" and 2 <= state["day"] < 180 and state["error"] is None
    run = store.get_run(state["run_id"])
    assert run["status"] == RunStatus.STOPPED == "stopped"
    daily, metrics = replay.daily(store, state["run_id"]), run["metrics"]
    assert metrics["run_days"] == len(daily) == state["metrics"]["run_days"] >= 2
    assert metrics["survived"] is False and metrics["final_networth"] == pytest.approx(daily["net_worth"].iloc[-1])
    assert state["run_id"] in set(replay.retail_runs(store)["id"]), "the replay lists the stopped run"


def test_day_bounds_are_rebuilt_for_runs_without_the_index(tmp_path):
    store = Store(tmp_path / "s.duckdb")
    out = run_agent("store_manager", days=3, seed=0, store=store)
    assert replay.day_bounds(store, out["run_id"]) == replay.day_bounds(store, out["run_id"])
    assert out["metrics"]["run_days"] == 3


def test_llm_frameworks_are_refused_without_a_model():
    env = RetailBenchEnv("easy", max_days=2)
    with pytest.raises(SpecError, match="needs an API key"):
        make_retail_agent("react", env)


def test_instability_of_an_evolving_strategy_run(tmp_path):
    from core.recorder import Recorder

    store = Store(tmp_path / "s.duckdb")
    rec = Recorder(None, "retailbench", config={"agent": "evolving_strategy"}, seed=0)
    log = [{"day": d, "macro_strategy": ["m"], "execute_strategy": {"focus_skus": f}} for d, f in
           ((1, ["A", "B"]), (2, ["A"]), (3, ["A"]))]  # fmt: skip
    rec.artifact("strategy_log.json", __import__("json").dumps(log).encode())
    rid = store.write_record(rec.record)
    out = replay.instability(store, rid)
    assert out["execution_similarity"] == pytest.approx([0.875, 1.0])
    assert "LLM judge" in out["macro_note"]
    other = store.write_record(Recorder(None, "retailbench", config={}, seed=0).record)
    assert replay.instability(store, other) is None


def test_live_run_of_an_llm_framework_stores_tokens_and_strategy(tmp_path, fake_llm):
    from core.config import Settings
    from core.llm import make_chat_model

    def call(name, **arguments):
        return {"tool_calls": [{"name": name, "arguments": arguments}]}

    fake_llm.script(
        [
            call("set_macro_strategy", macro_strategy=["Keep it simple."]),
            call("end_strategy_phase"),
            call("view_funds_and_date"),
            call("end_today"),
        ]
    )
    model = make_chat_model(
        Settings(provider="anthropic", model="m", base_url=fake_llm.anthropic_url, api_key="k", max_retries=0)
    )
    store = Store(tmp_path / "s.duckdb")
    live = LiveRun("evolving_strategy", preset="easy", days=1, seed=0, model=model, store=store).start()
    state = wait(live)
    assert state["status"] == "done", state["error"]
    run = store.get_run(state["run_id"])
    assert run["config"]["agent_kind"] == "LLM · orca harness" and run["metrics"]["total_tokens"] > 0
    assert replay.instability(store, state["run_id"])["execution_similarity"] == []
    assert replay.table1(store, [state["run_id"]]).loc[0, "kind"] == "LLM · orca harness"  # the replay names it


def test_an_experiment_cell_names_its_harness():
    """The replay's run list labels an experiment cell of an LLM framework with the harness it ran under."""
    from core.retail.replay import describe

    cell = {"agent": {"name": "react", "harness": "paper", "model": "m"}, "env": {"preset": "standard"}}
    assert describe(cell)["kind"] == "LLM · paper harness"
    assert describe({"agent": {"name": "react", "model": "m"}, "env": {}})["kind"] == "LLM"


def test_table1_numbers_are_formatted_for_reading():
    import pandas as pd

    assert replay.format_value(213505.9679, "money") == "$213,505.97"
    assert replay.format_value(-1234.5, "money") == "-$1,234.50"
    assert replay.format_value(0.0321, "percent") == "3.2 %"
    assert replay.format_value(12345, "count") == "12,345" and replay.format_value(None, "money") == ""
    view = replay.table1_view(pd.DataFrame([{"run": "a", "model": None, "final_networth": 213505.9679,
                                             "return_ratio": 0.0321, "avg_tokens_per_day": 0}]))
    assert list(view.columns) == ["run", "Net worth", "Returns"]
    assert view.loc[0, "Net worth"] == "$213,505.97"
    sideways = replay.table1_side_by_side(replay.table1_view(pd.DataFrame([
        {"run": "r1", "agent": "human", "kind": "human (student)", "final_networth": 1.5},
        {"run": "r2", "agent": "oracle", "kind": "offline", "final_networth": 2.0}])))
    assert list(sideways.columns) == ["measure", "human · r1", "oracle · r2"]
    assert sideways.set_index("measure").loc["Net worth"].tolist() == ["$1.50", "$2.00"]


def test_the_timeline_axis_names_the_unit_of_the_series_shown():
    assert replay.value_axis(["funds", "net_worth"]) == ("Amount (US dollars)", "$,.0f")
    assert replay.value_axis(["sales_units", "expired_units"]) == ("Quantity (units)", ",.0f")
    title, _ = replay.value_axis(["funds", "stockout_skus"])
    assert title == "Value (funds in US dollars; stockout skus in SKUs)"
