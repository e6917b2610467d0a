"""Four-stage diagnostics and strategy instability against hand-built traces with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from core.retail.diagnostics import (
    ToolRecord,
    execution_similarity,
    four_stage,
    price_closeness,
    strategy_instability,
    trace_from_transitions,
)


def order(day, sku, supplier, ok=True):
    return ToolRecord(
        day, "place_order", {"items": [{"sku_id": sku, "quantity": 10}], "supplier_id": supplier}, ok
    )


def end(day, sales, stockouts=(), returns=None, expired=None):
    return ToolRecord(day, "end_today", {}, True, result={"sales_by_sku": sales, "insufficient_skus": list(stockouts),
                                                          "returns_by_sku": returns or {}, "expired_discount_by_sku": expired or {}})  # fmt: skip


TRACE = [
    ToolRecord(1, "view_inventory"),  # global: inventory
    ToolRecord(1, "view_sales_profit_history", {"sku_ids": ["A"], "start_date": "x", "end_date": "y"}),
    order(1, "A", "supplier_2"),  # evidence {inventory, recent_sales} -> 2/4
    ToolRecord(1, "modify_sku_price", {"sku_id": "B", "new_price": 2.0}),  # evidence {inventory} -> 1/4
    order(1, "C", "supplier_1", ok=False),  # attempted, not executed
    end(1, {"A": 5, "B": 3}, stockouts=["B"], returns={"A": 1}),
    ToolRecord(2, "view_current_date_supplier_prices", {"sku_ids": ["A"]}),
    ToolRecord(2, "view_supplier_returns_avg_rate", {"supplier_id": "supplier_1", "sku_ids": ["A"]}),
    order(2, "A", "supplier_1"),  # evidence {supplier_prices, cost, quality_proxy} -> 2/4
    end(2, {"A": 4, "D": 10}, expired={"D": 2}),
]

QUOTES = [
    {"supplier_id": "supplier_1", "price": 1.0, "quality": 4.5},
    {"supplier_id": "supplier_2", "price": 0.8, "quality": 3.0},
    {"supplier_id": "supplier_3", "price": 0.9, "quality": 4.8},
]


def test_four_stage_known_answers():
    m = four_stage(
        TRACE,
        quotes=lambda day, sku: QUOTES,
        reference_price=lambda day, sku: 2.1 if sku == "B" else None,
        proxy_best=lambda day, sku: "supplier_1",
    )
    approx = pytest.approx
    assert m["days"] == 2 and m["action_events"] == 3
    # stage 1
    assert m["s1_avg_acted_skus_per_day"] == approx(1.5)
    assert m["s1_total_distinct_acted_skus"] == 2
    assert m["s1_action_to_sales_overlap_7d"] == approx(1.0)
    assert m["high_demand_coverage"] == approx(0.75)  # D (day 2's best seller) never acted on
    assert m["s1_action_concentration_hhi"] == approx(5 / 9)
    # stage 2
    assert m["s2_query_depth"] == approx((0.5 + 0.25 + 0.5) / 3)
    assert m["s2_place_order_query_depth"] == approx(0.5)
    assert m["s2_modify_price_query_depth"] == approx(0.25)
    assert m["s2_evidence_action_match_rate"] == approx(1.0)
    assert m["evidence_completeness"] == approx(0.0)
    assert m["s2_avg_evidence_call_gap"] == approx(5 / 3)
    assert m["s2_avg_pre_action_tool_diversity"] == approx(5 / 3)
    assert m["s2_query_to_action_overlap_same_day"] == approx(1.0)
    # stage 3
    assert m["s3_supplier_quality_first_rate"] == approx(0.0)
    assert m["s3_supplier_price_first_rate"] == approx(0.5)
    assert m["s3_supplier_quality_rank_mean"] == approx(2.5)
    assert m["supplier_quality_score"] == approx(0.625)
    assert m["s3_modify_price_distance_pct_mean"] == approx(100 * 0.1 / 2.1)
    assert m["s3_action_correction"] == approx(2 / 3)
    assert m["s3_invalid_or_blocked_action_rate"] == approx(0.25)
    # stage 4
    assert m["s4_followup_action_rate_7d"] == approx(1 / 3)
    assert m["resolved_event_rate"] == approx(
        1 / 3
    )  # A's returns answered on day 2; B's stockout, D's expiry not
    assert m["s4_avg_response_latency_days"] == approx(1.0)
    assert m["s4_focus_continuity_jaccard"] == approx(0.5)


def test_stage3_is_absent_without_references():
    m = four_stage(TRACE)
    assert m["s3_supplier_quality_first_rate"] is None and m["s3_action_correction"] is None


def test_price_closeness_scales_by_the_worst_run():
    assert price_closeness({"a": 10.0, "b": 5.0, "c": None}) == {"a": 0.0, "b": 0.5, "c": None}


def test_strategy_instability_known_answers():
    def day(d, focus):
        return {"day": d, "macro_strategy": ["m"], "execute_strategy": {"focus_skus": focus}}

    log = [day(1, ["A", "B"]), day(2, ["A"]), day(3, ["A"]), day(4, ["C"])]
    out = strategy_instability(log)
    assert out["execution_similarity"] == pytest.approx([0.875, 1.0, 0.75])
    assert out["execution"]["std_diff"] == pytest.approx(0.1875)
    assert out["execution"]["mac"] == pytest.approx(0.1875)
    assert out["execution"]["tv"] == pytest.approx(0.375)
    assert out["macro"]["tv"] is None and "LLM judge" in out["macro_note"]
    judged = strategy_instability(log, macro_judge=lambda a, b: 1.0 if a == b else 0.0)
    assert judged["macro_similarity"] == [1.0, 1.0, 1.0] and judged["macro"]["tv"] == 0.0


def test_execution_similarity_compares_mappings_as_items():
    a = {"sku_supplier_mapping": [{"sku_id": "A", "supplier_id": "supplier_1"}]}
    b = {"sku_supplier_mapping": [{"supplier_id": "supplier_1", "sku_id": "A"}]}
    assert execution_similarity(a, b) == 1.0
    c = {"sku_supplier_mapping": [{"sku_id": "A", "supplier_id": "supplier_2"}]}
    assert execution_similarity(a, c) == pytest.approx(0.75)


def test_trace_from_transitions_assigns_days():
    rows = [
        {"action": {"name": "view_inventory", "arguments": {}}, "observation": {"result": {}}},
        {
            "action": {"name": "end_today", "arguments": {}},
            "observation": {"result": {"sales_by_sku": {"A": 1}}},
        },
        {
            "action": {"name": "place_order", "arguments": {"items": []}},
            "observation": {"result": {"error": "x"}},
        },
    ]
    trace = trace_from_transitions(rows)
    assert [(r.day, r.tool, r.ok) for r in trace] == [
        (1, "view_inventory", True),
        (1, "end_today", True),
        (2, "place_order", False),
    ]
    assert trace[1].result == {"sales_by_sku": {"A": 1}}


def test_queries_inside_execute_code_count_as_evidence():
    """D1: four view_* calls inside execute_code, then an order: QDepth = Completeness = 1 (the paper's rule)."""
    from core.sandbox import SandboxLimits, run_code
    from solvers.retail.env import RetailBenchEnv

    def runner(code, variables, tools, call):
        return run_code(code, variables, tools, call, SandboxLimits(wall_seconds=30))

    env = RetailBenchEnv("hard_v2", max_days=2, code_runner=runner)
    obs, _ = env.reset(seed=0)
    sku = obs["products"][0]["sku_id"]
    code = (f"view_inventory()\nview_sales_profit_history(['{sku}'], '1991-08-01', '1991-09-06')\n"
            f"view_current_date_supplier_prices(['{sku}'])\nview_supplier_returns_avg_rate('supplier_1', ['{sku}'])\n")
    rows = []
    for action in (
        {"name": "execute_code", "arguments": {"code": code}},
        {"name": "set_shelf_skus", "arguments": {"sku_ids": [sku]}},
        {"name": "place_order", "arguments": {"items": [{"sku_id": sku, "quantity": 20}], "supplier_id": "supplier_1"}},
        {"name": "end_today", "arguments": {}},
    ):
        o, _, _, _, info = env.step(action)
        assert not info["error"], o
        rows.append({"action": action, "observation": env.compact_observation(o), "info": info})
    trace = trace_from_transitions(rows)
    assert [(r.tool, r.source) for r in trace[:5]] == [
        ("view_inventory", "execute_code"), ("view_sales_profit_history", "execute_code"),
        ("view_current_date_supplier_prices", "execute_code"), ("view_supplier_returns_avg_rate", "execute_code"),
        ("execute_code", "direct"),
    ]
    assert trace[1].arguments["sku_ids"] == [sku]
    m = four_stage(trace)
    assert m["s2_query_depth"] == 1.0 and m["evidence_completeness"] == 1.0
    assert m["s2_evidence_action_match_rate"] == 1.0


def test_original_stockout_repr_strings_are_parsed():
    """D2: the original's `insufficient_skus` repr strings name SKUs that were acted on (HighDemandCov 2/3 -> 1)."""
    def repr_of(sku):
        return f"SKU Info:\n  SKU ID: {sku}\n  Attributes: {{'category': 'x', 'price': 1.2}}\n"

    trace = [
        order(1, "3828111129", "supplier_1"),
        order(1, "1111", "supplier_1"),
        end(1, {"1111": 4}, stockouts=[repr_of("3828111129")]),
        ToolRecord(2, "view_sku_prices", {"sku_ids": ["3828111129"]}),
        end(2, {"1111": 2, "2222": 1}, stockouts=[repr_of("3828111129")]),
    ]
    m = four_stage(trace)
    # day 1: high {1111, 3828111129} both acted; day 2: {1111, 2222, 3828111129}: 2222 never acted -> 4/5
    assert m["high_demand_coverage"] == pytest.approx(4 / 5)
    # day 1's stockout of 3828111129 is attended on day 2 (a query), day 2's one is not (no day 3)
    assert m["resolved_event_rate"] == pytest.approx(1 / 2)


def test_action_correction_is_left_empty_without_order_correction():
    m = four_stage(TRACE, reference_price=lambda day, sku: 2.1 if sku == "B" else None)
    assert m["s3_price_correction_rate"] == 1.0
    assert m["s3_order_correction_rate"] is None and m["s3_action_correction"] is None


def test_oracle_row_reproduces_the_papers_on_a_short_run():
    """D3: the oracle sets the price of every active SKU every day (as the original), so its stage-1 row is the
    paper's (Acted/day 38.0, HighDemandCov 1.00), not 12.9 / 0.67."""
    from core.retail.agents import PolicyAgent
    from solvers.retail.env import RetailBenchEnv

    env = RetailBenchEnv("hard_v2", max_days=12)
    obs, _ = env.reset(seed=0)
    agent = PolicyAgent("oracle", env)
    agent.reset(0)
    rows, done = [], False
    while not done:
        action = agent.act(obs)
        obs, _, term, trunc, info = env.step(action)
        rows.append({"action": action, "observation": env.compact_observation(obs), "info": info})
        done = term or trunc
    m = four_stage(trace_from_transitions(rows))
    assert 36 <= m["s1_avg_acted_skus_per_day"] <= 42
    assert m["high_demand_coverage"] >= 0.95


def test_stored_run_keeps_code_queries_for_the_diagnostics(tmp_path):
    """D1 through the store: `retail diagnostics` of a stored run sees the execute_code queries."""
    from core.retail.replay import diagnostics
    from core.retail.run import run_agent
    from core.sandbox import SandboxLimits, run_code
    from core.store import Store
    from solvers.retail.env import RetailBenchEnv

    def runner(code, variables, tools, call):
        return run_code(code, variables, tools, call, SandboxLimits(wall_seconds=30))

    env = RetailBenchEnv("hard_v2", max_days=1, code_runner=runner)
    sku = env.catalog.sku_ids[int(np.flatnonzero(np.isin(env.catalog.category, env.config.categories))[0])]
    code = (f"view_inventory()\nview_sales_profit_history(['{sku}'], '1991-08-01', '1991-09-06')\n"
            f"view_current_date_supplier_prices(['{sku}'])\nview_sku_avg_ratings(['{sku}'])\n")
    script = [
        {"name": "execute_code", "arguments": {"code": code}},
        {"name": "set_shelf_skus", "arguments": {"sku_ids": [sku]}},
        {"name": "place_order", "arguments": {"items": [{"sku_id": sku, "quantity": 20}], "supplier_id": "supplier_2"}},
        {"name": "end_today", "arguments": {}},
    ]

    class Scripted:
        def reset(self, seed):
            self.queue = list(script)

        def act(self, observation):
            return self.queue.pop(0)

    store = Store(tmp_path / "d1.duckdb")
    out = run_agent("scripted", days=1, seed=0, store=store, env=env, actor=Scripted())
    d = diagnostics(store, out["run_id"])
    assert d["action_events"] == 1 and d["s2_query_depth"] == 1.0 and d["evidence_completeness"] == 1.0
