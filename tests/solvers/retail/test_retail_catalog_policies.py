"""The shipped catalog's invariants, its generator's determinism, presets, policies and Table 1 metrics."""

from __future__ import annotations

import json

import numpy as np
import pytest

from core.errors import SpecError
from solvers.retail.catalog import load_catalog
from solvers.retail.catalog_gen import DEFAULT_SEED, generate
from solvers.retail.config import ALL_CATEGORIES, PRESETS, preset
from solvers.retail.metrics import run_metrics, select_run
from solvers.retail.models import CALENDAR_DAYS, HISTORY_DAYS
from solvers.retail.policies import make_policy, run_policy, select_skus
from solvers.retail.sim import RetailSim


@pytest.fixture(scope="module")
def cat():
    return load_catalog()


def test_catalog_has_96_products_in_the_20_categories_with_valid_demand(cat):
    assert cat.n == 96 and len(set(cat.sku_ids)) == 96
    assert set(cat.category) == set(ALL_CATEGORIES)
    counts = {c: int((cat.category == c).sum()) for c in ALL_CATEGORIES}
    assert min(counts.values()) >= 2 and max(counts.values()) <= 7
    assert (cat.beta < 0).all() and (cat.sigma > 0).all()
    assert (cat.price_min < cat.price_max).all() and (cat.shelf_life >= 7).all()
    assert cat.quote_price.shape == (CALENDAR_DAYS, 96, 5) and (cat.quote_price > 0).all()
    assert (cat.traffic > 500).all()
    assert len({p["description"] for p in cat.products}) == 96


def test_suppliers_follow_the_generator_recipe(cat):
    q = cat.quote_quality
    assert (q >= 1).all() and (q <= 5).all()
    lo, hi = cat.transport[..., 0], cat.transport[..., 1]
    assert (lo < hi).all() and (lo >= 1).all() and (hi <= 7).all()
    for p in cat.products:
        tiers = {(s["quality_tier"], s["price_tier"]) for s in p["suppliers"]}
        assert (7, 5) in tiers  # enforced "bad" supplier: worst quality, cheapest
        assert any(s["quality_tier"] == 1 for s in p["suppliers"])  # enforced best-quality supplier
    day = HISTORY_DAYS
    ratio = cat.quote_price[day].min(axis=1) / cat.quote_price[day].max(axis=1)
    assert 0.5 < ratio.mean() < 0.8  # cheapest ~ 0.6-0.7 x dearest
    cheapest_quality = q[day][np.arange(96), cat.quote_price[day].argmin(axis=1)]
    assert np.median(cheapest_quality) < 2.5 and np.median(q[day].max(axis=1)) > 4.5


def test_generator_is_deterministic(tmp_path, cat):
    generate(DEFAULT_SEED, tmp_path)
    shipped = json.loads((tmp_path / "catalog.json").read_text())
    again = load_catalog.__wrapped__(str(tmp_path))
    assert [p["sku_id"] for p in shipped["products"]] == list(cat.sku_ids)
    assert np.array_equal(again.quote_price, cat.quote_price)
    assert np.array_equal(again.history["move"], cat.history["move"])
    assert again.news == cat.news and again.reviews == cat.reviews


def test_presets_match_the_code_and_the_first_paper():
    v2 = preset("hard_v2")
    assert (v2.initial_funds, v2.everyday_rent, v2.inventory_capacity) == (30_000, 600, 15_000)
    assert (v2.review_ratio, v2.news_impact_base_scale, v2.news_impact_abs_cap, v2.rho) == (0.05, 0.8, 0.5, 3.0)
    assert v2.aggregation == "power" and v2.shelf_sku_capacity == 40 and v2.category_effect == 0
    assert preset("stress_hard") == v2 and preset("dynamic_middle").name == "middle"
    assert preset("easy").categories == ("Bathroom Tissues", "Soft Drinks", "Cigarettes")
    assert (PRESETS["hard"].news_impact_base_scale, PRESETS["hard"].aggregation) == (0.4, "legacy")
    v1 = preset("v1_easy")
    assert (v1.initial_funds, v1.everyday_rent, v1.inventory_capacity, v1.category_effect) == (10_000, 250, 10_000, -0.2)
    assert len(v1.categories) == 5 and preset("v1_middle").initial_funds == 50_000
    with pytest.raises(SpecError, match="preset"):
        preset("extreme")
    with pytest.raises(SpecError, match="rho"):
        preset("hard_v2", rho=0)


@pytest.mark.parametrize("name", ["easy", "middle", "hard", "v1_easy", "v1_hard"])
def test_legacy_presets_run_with_the_oracle(name):
    sim = RetailSim(preset(name), seed=1)
    results = run_policy(sim, make_policy("oracle", name), 12)
    assert len(results) == 12 and sum(int(r.sales.sum()) for r in results) > 0
    assert (sim.news is not None) == (name in ("hard", "v1_hard"))


def test_oracle_selection_fills_the_shelf_round_robin():
    sim = RetailSim(preset("hard_v2"), seed=0)
    chosen = select_skus(sim, 2)
    assert len(chosen) == 40 and len(set(chosen)) == 40
    cats = [str(sim.category[j]) for j in chosen]
    assert cats[:20] == sorted(ALL_CATEGORIES) and cats[20:] == sorted(ALL_CATEGORIES)


def test_oracle_beats_cheapest_on_returns_and_do_nothing_goes_bankrupt():
    out = {}
    for name in ("oracle", "cheapest", "do_nothing"):
        sim = RetailSim(preset("hard_v2"), seed=3)
        run_policy(sim, make_policy(name), 60)
        out[name] = (run_metrics(sim.daily), sim)
    oracle, cheapest, idle = (out[k][0] for k in ("oracle", "cheapest", "do_nothing"))
    assert oracle["run_days"] == 60 and oracle["final_networth"] > 30_000
    assert cheapest["return_ratio"] > 3 * oracle["return_ratio"]
    assert idle["run_days"] == 55 and out["do_nothing"][1].bankrupt


def test_metrics_and_survival_first_selection():
    daily = [
        {"net_worth": 100.0, "funds": 90.0, "sales_units": 10, "returned_units": 1, "expired_units": 0,
         "stockout_skus": 2, "sold_skus": 3},
        {"net_worth": 120.0, "funds": 80.0, "sales_units": 30, "returned_units": 1, "expired_units": 10,
         "stockout_skus": 0, "sold_skus": 5},
    ]  # fmt: skip
    m = run_metrics(daily, direct_calls=10, code_calls=4, memory_calls=1, total_tokens=500, token_days=2)
    assert m["return_ratio"] == pytest.approx(2 / 40) and m["expired_ratio"] == pytest.approx(10 / 50)
    assert (m["stockout_days"], m["avg_daily_sold_skus"], m["avg_all_tool_calls_per_day"]) == (1, 4, 7)
    assert m["avg_tokens_per_day"] == 250 and m["final_networth"] == 120
    runs = [{"run_days": 180, "final_networth": 5, "total_sales": 1}, {"run_days": 179, "final_networth": 9e9},
            {"run_days": 180, "final_networth": 5, "total_sales": 7}]  # fmt: skip
    assert select_run(runs) is runs[2]


def test_news_aware_explores_every_supplier_weekly():
    sim = RetailSim(preset("hard_v2"), seed=4, horizon=10)
    run_policy(sim, make_policy("news_aware"), 8)
    days = {row[1] for row in sim.order_rows}
    per_sku = {}
    for _, _, supplier, sku, *_ in sim.order_rows:
        per_sku.setdefault(sku, set()).add(supplier)
    assert len(per_sku) == 40 and all(len(v) == 5 for v in per_sku.values())  # main + 4 exploration orders
    assert sim.day - 8 in days and sim.day - 1 in days  # day 1 and day 8 explore
