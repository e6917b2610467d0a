"""The 21 tools' validation messages and payloads, and the Gymnasium environment's determinism and replay."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solvers.retail.config import preset
from solvers.retail.env import RetailBenchEnv, sample_actions
from solvers.retail.sim import RetailSim
from solvers.retail.tools import RetailTools


@pytest.fixture
def tools() -> RetailTools:
    return RetailTools(RetailSim(preset("hard_v2"), seed=2))


def err(out: dict) -> str:
    return out["result"]["error"]


def test_hard_v2_exposes_exactly_the_21_tools(tools):
    assert len(tools.names) == 21
    assert {"execute_code", "place_order", "view_news_detail", "view_supplier_returns_avg_rate"} <= set(tools.names)
    spec = {s["name"]: s for s in tools.specs()}
    assert spec["place_order"]["input_schema"]["required"] == ["items", "supplier_id"]
    assert "Returns result as:" in spec["view_inventory"]["description"]
    easy = RetailTools(RetailSim(preset("easy"), seed=1))
    assert len(easy.names) == 18  # no news tools when news is off


def test_sku_list_validation_messages(tools):
    call = tools.call
    assert err(call("view_sku_prices", {})) == "Error executing view_sku_prices: ToolError: sku_ids is required"
    assert err(call("view_sku_inventory_cost", {"sku_ids": "x"})).endswith("sku_ids must be an array")
    assert err(call("view_sku_inventory_cost", {"sku_ids": []})).endswith("sku_ids cannot be empty")
    assert err(call("view_sku_inventory_cost", {"sku_ids": [" "]})).endswith("sku_ids[0] is invalid")
    assert err(call("view_sku_inventory_cost", {"sku_ids": ["nope"]})).endswith("Unknown SKU: nope")
    assert err(call("view_sku_prices", {"sku_ids": []})).endswith("Unable to find legal sku")
    assert err(call("nope")).startswith("Unknown tool: nope")


def test_date_validation_messages(tools):
    sku = tools.sim.sku_ids[0]
    base = {"sku_ids": [sku]}
    out = tools.call("view_sales_profit_history", {**base, "start_date": "1991-13-01", "end_date": "1991-09-01"})
    assert err(out).endswith("Invalid start_date format; use YYYY-MM-DD or MM/DD/YY.")
    out = tools.call("view_sales_profit_history", {**base, "start_date": "09/05/91", "end_date": "1991-09-01"})
    assert err(out).endswith("start_date cannot be after end_date")
    out = tools.call("view_sales_profit_history", base)
    assert err(out).endswith("start_date and end_date are required")


def test_sales_history_payload_matches_the_records(tools):
    sim = tools.sim
    sku = sim.sku_ids[4]
    out = tools.call("view_sales_profit_history", {"sku_ids": [sku], "start_date": "08/30/91", "end_date": "1991-09-10"})
    body = out["result"][sku]
    assert body["days"] == 8  # clipped to yesterday (09/06/91)
    d0 = sim.day - 8
    assert body["total_units"] == int(sim.rec_move[d0 : sim.day, 4].sum())
    day = body["daily"][-1]
    k = sim.day - 1
    net = sim.rec_move[k, 4] * sim.rec_price[k, 4] - sim.rec_returns[k, 4].sum() * sim.rec_price[k, 4]
    net -= sim.rec_cogs[k, 4].sum()
    assert day["net_profit"] == pytest.approx(round(net, 4))
    assert set(body["records"]) == {d["date"] for d in body["daily"] if d["units_sold"]}


def test_place_order_rules_in_order(tools):
    sku = tools.sim.sku_ids[0]
    call = lambda **a: tools.call("place_order", a)  # noqa: E731
    assert err(call(items="x", supplier_id="supplier_1")).endswith("items must be an array")
    assert err(call(items=[], supplier_id="supplier_1")).endswith("items cannot be empty")
    assert err(call(items=[{"sku_id": sku, "quantity": 1}], supplier_id=" ")).endswith("supplier_id is required")
    assert err(call(items=[3], supplier_id="supplier_1")).endswith("items[0] must be an object")
    assert err(call(items=[{"sku_id": sku}], supplier_id="supplier_1")).endswith(
        "items[0] must include sku_id and quantity"
    )
    assert err(call(items=[{"sku_id": sku, "quantity": 5.0}], supplier_id="supplier_1")).endswith(
        "items[0].quantity must be an integer"
    )
    assert err(call(items=[{"sku_id": sku, "quantity": 0}], supplier_id="supplier_1")).endswith(
        "items[0].quantity must be a positive integer"
    )
    assert err(call(items=[{"sku_id": "x", "quantity": 1}], supplier_id="supplier_1")).endswith("Unknown SKU: x")
    assert err(call(items=[{"sku_id": sku, "quantity": 1}], supplier_id="supplier_9")).endswith(
        "Unknown supplier: supplier_9"
    )
    assert err(call(items=[{"sku_id": sku, "quantity": 15001}], supplier_id="supplier_1")).endswith(
        "Order quantity 15001 exceeds max_order_units_per_order 15000"
    )
    dear = tools.sim.sku_ids[int(np.argmax(tools.sim.quotes()[:, 0]))]
    rich = call(items=[{"sku_id": dear, "quantity": 15000}], supplier_id="supplier_1")
    assert rich["result"]["error"] == "Insufficient funds" and rich["result"]["available"] == 30000
    ok = call(items=[{"sku_id": sku, "quantity": 10}], supplier_id="supplier_2")["result"]
    assert ok["total_cost"] == pytest.approx(10 * tools.sim.quotes()[0, 1])
    assert ok["funds_after"] == pytest.approx(30000 - ok["total_cost"])
    assert "quality_score" not in ok["lines"][0], "hidden quality never reaches the agent"
    assert tools.sim.order_rows[-1][-1] == pytest.approx(tools.sim.quality()[0, 1]), "but the records keep it"
    inv = tools.call("view_inventory")["result"]
    assert inv["pending_order_count"] == 1 and inv["incoming_by_sku"] == {sku: 10}


def test_price_shelf_and_note_tools(tools):
    sim = tools.sim
    sku = sim.sku_ids[1]
    assert err(tools.call("modify_sku_price", {"sku_id": sku, "new_price": "3"})).endswith("new_price must be a number")
    assert err(tools.call("modify_sku_price", {"sku_id": sku, "new_price": 0})).endswith("new_price must be positive")
    assert err(tools.call("modify_sku_price", {"sku_id": "z", "new_price": 1})).endswith("SKU z does not exist")
    out = tools.call("modify_sku_price", {"sku_id": sku, "new_price": 3.25})["result"]
    assert out["new_price"] == 3.25 and sim.price[1] == 3.25
    too_many = list(sim.sku_ids[:41])
    assert err(tools.call("set_shelf_skus", {"sku_ids": too_many})).endswith("shelf accepts at most 40 SKUs")
    out = tools.call("set_shelf_skus", {"sku_ids": [sku, sku, sim.sku_ids[2]]})["result"]
    assert out["used"] == 2 and out["added"] == [sku, sim.sku_ids[2]]
    out = tools.call("set_shelf_skus", {"sku_ids": []})["result"]
    assert out["used"] == 0 and sorted(out["removed"]) == sorted([sku, sim.sku_ids[2]])
    assert err(tools.call("add_note", {"content": "  "})).endswith("Note content must be a non-empty string")
    note = tools.call("add_note", {"content": " buy tuna "})["result"]
    assert note["content"] == "buy tuna" and note["date"] == "1991-09-07"
    assert tools.call("view_notes")["result"]["total_notes"] == 1
    assert tools.call("remove_note", {"note_id": "unknown"})["result"]["removed"] == 0
    assert tools.call("remove_note", {"note_id": note["id"]})["result"] == {
        "note_id": note["id"], "removed": 1, "remaining_notes": 0,
    }  # fmt: skip


def test_news_tools_hide_the_effects(tools):
    today = tools.call("view_today_news")["result"]
    assert len(today) == 20 and set(today[0]) == {"id", "record_id", "title"}
    detail = tools.call("view_news_detail", {"news_id": today[0]["id"]})["result"]
    assert set(detail) == {"record_id", "id", "title", "content", "date"}
    assert err(tools.call("view_news_detail", {"news_id": "zzz"})).endswith("News id not found: zzz")
    tools.call("end_today")
    hist = tools.call("view_news_history", {"start_date": "1991-09-07", "end_date": "1991-09-07"})["result"]
    assert len(hist) == 20 and hist[0]["record_id"].endswith("_1991-09-07")


def test_supplier_returns_rate_uses_sold_then_ordered_denominators(tools):
    out = tools.call(
        "view_supplier_returns_avg_rate", {"supplier_id": "supplier_1", "start_date": "1991-06-06", "end_date": "1991-09-06"}
    )["result"]
    sim = tools.sim
    assert out["sold_count"] == int(sim.rec_sold[: sim.day, :, 0].sum())
    assert out["return_count"] == int(sim.rec_returns[: sim.day, :, 0].sum())
    if out["sold_count"]:
        assert out["average_return_rate"] == pytest.approx(out["return_count"] / out["denominator_count"])


def test_execute_code_without_a_runner_is_an_error_result(tools):
    assert "needs a sandbox" in err(tools.call("execute_code", {"code": "1+1"}))
    assert err(tools.call("execute_code", {"code": "x" * 20001})).endswith("at most 20000 characters")


def _run(env: RetailBenchEnv, actions: list, seed: int):
    obs, info = env.reset(seed=seed)
    trace = [json.dumps(obs, sort_keys=True)]
    for a in actions:
        obs, reward, term, trunc, info = env.step(a)
        trace.append(json.dumps([obs, reward, term, trunc, info], sort_keys=True))
    return trace


def test_env_is_deterministic_and_replays_json_actions():
    env = RetailBenchEnv(max_days=5)
    env.reset(seed=0)
    actions = sample_actions(env, np.random.default_rng(3), 40)
    first = _run(env, actions, seed=9)
    again = _run(RetailBenchEnv(max_days=5), json.loads(json.dumps(actions)), seed=9)
    assert first == again
    assert _run(env, actions, seed=10) != first


def test_env_invalid_actions_cost_a_step_and_episode_truncates():
    env = RetailBenchEnv(max_days=2)
    env.reset(seed=1)
    obs, reward, term, trunc, info = env.step("not json")
    assert "Invalid action" in obs["result"]["error"] and info["error"] and reward == 0
    obs, *_ = env.step({"name": "end_today", "arguments": "{}"})
    assert obs["result"]["current_date"] == "1991-09-08"
    obs, reward, term, trunc, info = env.step({"name": "end_today"})
    assert trunc and not term and reward == pytest.approx(-600.0)
    m = env.episode_metrics()
    assert m["run_days"] == 2 and m["direct_tool_calls"] == 3


def test_inventory_cost_shelf_ratings_and_price_history_payloads(tools):
    sim = tools.sim
    sku = sim.sku_ids[2]
    empty = tools.call("view_sku_inventory_cost", {"sku_ids": [sku]})["result"][sku]
    assert empty == {"quantity": 0, "avg_buy_cost": 0.0, "avg_days_in_stock": 0.0, "min_buy_cost": 0.0,
                     "max_buy_cost": 0.0}  # fmt: skip
    for qty, buy, age in ((3, 1.0, 4), (1, 2.0, 0)):
        lot = sim._new_lot(2, 0, sim.day - age, buy, 4.0, "t")
        sim._receive(lot, qty)
    cost = tools.call("view_sku_inventory_cost", {"sku_ids": [sku]})["result"][sku]
    assert cost == {"quantity": 4, "avg_buy_cost": 1.25, "avg_days_in_stock": 3.0, "min_buy_cost": 1.0,
                    "max_buy_cost": 2.0}  # fmt: skip
    tools.call("set_shelf_skus", {"sku_ids": [sku]})
    shelf = tools.call("view_shelf_status")["result"]
    assert (shelf["capacity"], shelf["used"], shelf["available"], shelf["shelf_skus"]) == (40, 1, 39, [sku])
    assert shelf["on_shelf"][sku]["in_stock"] and shelf["on_shelf"][sku]["category"] == str(sim.category[2])
    rating = tools.call("view_sku_avg_ratings", {"sku_ids": [sku], "start_date": "1991-06-06", "end_date": "1991-09-06"})
    d = sim.day
    expected = sim.rec_rating_sum_sku[:d, 2].sum() / sim.rec_rating_cnt_sku[:d, 2].sum()
    assert rating["result"][sku] == pytest.approx(expected)
    hist = tools.call("view_supplier_price_history",
                      {"sku_id": sku, "start_date": "1991-09-05", "end_date": "1991-09-30", "supplier_id": "supplier_3"})
    rows = hist["result"]
    assert [r["date"] for r in rows] == ["1991-09-05", "1991-09-06"]  # recorded days only
    assert rows[0]["price"] == pytest.approx(sim.catalog.quote_price[d - 2, sim.g[2], 2])
    quotes = tools.call("view_current_date_supplier_prices", {"sku_ids": [sku]})["result"][sku]
    assert [q["supplier_id"] for q in quotes] == [f"supplier_{i}" for i in range(1, 6)]
    assert set(quotes[0]) == {"supplier_id", "sku_id", "date", "price", "category", "transport_days_min",
                              "transport_days_max"}  # hidden quality never shown  # fmt: skip


def test_end_today_payload(tools):
    sim = tools.sim
    out = tools.call("end_today")["result"]
    assert out["current_date"] == "1991-09-08" and out["funds"] == pytest.approx(30000 - 600)
    assert out["net_worth"] == pytest.approx(out["funds"])
    assert set(out) >= {"money_earned", "insufficient_skus", "sales_by_sku", "returns_by_sku",
                        "expired_discount_by_sku", "waiting_items", "cost_of_goods_sold", "inventory",
                        "pending_order_count", "incoming_items", "incoming_by_sku", "pending_orders"}  # fmt: skip
    assert sim.day == tools.sim.day


def test_quality_first_gate_blocks_a_worse_supplier_once_per_day():
    sim = RetailSim(preset("hard_v2", quality_first_mode="gate"), seed=2)
    tools = RetailTools(sim)
    d = sim.day
    j = 0
    for arr in (sim.rec_rating_sum, sim.rec_rating_cnt, sim.rec_sold, sim.rec_returns, sim.rec_ordered):
        arr[: d + 1, j] = 0  # only the evidence below
    sim.rec_rating_sum[d - 5, j, :] = [25.0, 5.0, 15.0, 0.0, 0.0]
    sim.rec_rating_cnt[d - 5, j, :] = [5, 5, 5, 0, 0]
    sim.rec_sold[d - 5, j, :] = [100, 100, 100, 0, 0]
    sim.rec_returns[d - 5, j, :] = [2, 30, 10, 0, 0]
    args = {"items": [{"sku_id": sim.sku_ids[j], "quantity": 5}], "supplier_id": "supplier_2"}
    out = tools.call("place_order", args)["result"]
    assert out["status"] == "quality_first_supplier_reconsideration_required" and not out["action_executed"]
    assert out["best_suppliers_by_sku"] == {sim.sku_ids[j]: "supplier_1"}
    assert [r["supplier_id"] for r in out["per_sku_quality_table"]] == ["supplier_1", "supplier_3", "supplier_2"]
    assert out["per_sku_quality_table"][0]["quality_score"] == pytest.approx(0.5 * 1.0 + 0.5 * 0.98)
    assert not sim.orders and sim.funds == 30_000
    again = tools.call("place_order", args)["result"]  # the SKU is informed now: the order goes through
    assert again["supplier_id"] == "supplier_2" and sim.orders
    assert tools.call("place_order", {**args, "supplier_id": "supplier_1"})["result"]["order_id"]
