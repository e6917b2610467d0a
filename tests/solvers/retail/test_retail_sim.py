"""The simulator's day transition against hand-computed cases: FIFO, expiry, capacity, shelf, deliveries, rent."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import SpecError
from solvers.retail.config import preset
from solvers.retail.models import HISTORY_DAYS
from solvers.retail.sim import RetailSim


def make_sim(**overrides) -> RetailSim:
    base = {"enable_news": False}
    base.update(overrides)
    return RetailSim(preset("hard_v2", **base), seed=7)


def stock(sim: RetailSim, j: int, qty: int, buy: float, *, arrival: int | None = None, quality: float = 4.5) -> int:
    lot = sim._new_lot(j, 0, sim.day if arrival is None else arrival, buy, quality, "test")
    sim._receive(lot, qty)
    return lot


def test_history_is_loaded_and_initial_ratings_come_from_it():
    sim = make_sim()
    assert sim.day == HISTORY_DAYS and sim.m == 96
    assert sim.rec_move[:HISTORY_DAYS].sum() > 0
    assert sim.rec_move[HISTORY_DAYS:].sum() == 0
    assert np.all((sim.initial_rating >= 1) & (sim.initial_rating <= 5))
    assert sim.review_effect() == pytest.approx(np.zeros(sim.m))


def test_fifo_selling_uses_oldest_units_first():
    sim = make_sim(enable_review=False)
    stock(sim, 0, 3, 1.0)
    stock(sim, 0, 5, 2.0)
    sold, cogs, returned = sim._sell(0, 4)
    assert (sold, cogs, returned) == (4, 3 * 1.0 + 1 * 2.0, 0)
    assert [c for _, c in sim.onhand_chunks[0]] == [4]
    assert sim.onhand[0] == 4
    sold, cogs, _ = sim._sell(0, 10)  # demand above stock sells what is there
    assert (sold, cogs) == (4, 8.0)


def test_expiry_after_arrival_plus_shelf_life():
    sim = make_sim(enable_review=False)
    life = int(sim.shelf_life[0])
    lot = stock(sim, 0, 6, 1.0, arrival=sim.day - life)  # expiry == today: still sellable today
    assert sim._expire()[0] == 0
    sim.day += 1  # the next day, d > expired_time -> removed, worth nothing
    assert sim._expire()[0] == 6
    assert sim.onhand[0] == 0 and sim.lot_left[lot] == 0
    assert sim.expired_events[-1][1:] == (lot, 6)


def test_capacity_overflow_waits_fifo_and_is_admitted_when_space_frees():
    sim = make_sim(enable_review=False, inventory_capacity=10)
    stock(sim, 0, 8, 1.0)
    stock(sim, 1, 5, 1.0)
    assert sim.onhand[0] == 8 and sim.onhand[1] == 2 and sim.waiting_count[1] == 3
    sim._sell(0, 2)
    sim._admit_waiting()
    assert sim.onhand[1] == 4 and sim.waiting_count[1] == 1
    assert sim.onhand.sum() == 10


def test_only_shelved_skus_sell_under_the_shelf_constraint():
    sim = make_sim(enable_review=False)
    stock(sim, 0, 500, 1.0)
    stock(sim, 1, 500, 1.0)
    r = sim.end_day()
    assert r.sales.sum() == 0  # the shelf starts empty
    sim.set_shelf([1])
    r = sim.end_day()
    assert r.sales[0] == 0 and r.sales[1] > 0


def test_net_worth_rent_and_bankruptcy_after_five_negative_days():
    sim = make_sim(initial_funds=1000.0)
    for day in range(1, 7):
        r = sim.end_day()
        assert r.funds == pytest.approx(1000.0 - 600.0 * day)
        assert r.net_worth == pytest.approx(r.funds)
        if day < 6:
            assert not sim.bankrupt
    assert sim.negative_days == 5 and sim.bankrupt


def test_order_pays_now_counts_at_cost_and_arrives_within_transport_days():
    sim = make_sim()
    lo, hi = sim.transport[3, 2]
    price = float(sim.quotes()[3, 2])
    start, funds = sim.day, sim.funds
    out = sim.place_order([(3, 100)], 2)
    assert sim.funds == pytest.approx(funds - 100 * price)
    assert sim.net_worth() == pytest.approx(funds)  # open order at full cost
    arrival = sim.orders[out["order_id"]].arrival
    assert start + lo <= arrival <= start + hi
    while sim.day < arrival - 1:
        sim.end_day()
        assert sim.onhand[3] == 0 and sim.orders
    r = sim.end_day()  # the order is due on the new date
    assert sim.day == arrival and r.delivered_units == 100 and sim.onhand[3] == 100 and not sim.orders
    assert sim.lot_begin[0] == arrival and sim.lot_expiry[0] == arrival + sim.shelf_life[3]


def test_review_effect_follows_the_rating_window():
    sim = make_sim()
    d = sim.day
    sim.rec_rating_sum_sku[d - 10 : d, 0] = 0.0
    sim.rec_rating_cnt_sku[d - 61 : d + 1, 0] = 0
    sim.rec_rating_sum_sku[d - 61 : d + 1, 0] = 0.0
    sim.rec_rating_sum_sku[d - 5, 0], sim.rec_rating_cnt_sku[d - 5, 0] = 2.0, 1  # one 2-star review
    g = lambda r: np.polyval(sim.gain[0], r)  # noqa: E731
    assert sim.review_effect()[0] == pytest.approx(g(2.0) - g(sim.initial_rating[0]))
    assert sim.review_effect()[0] < 0


def test_news_effects_are_scaled_and_capped():
    sim = RetailSim(preset("hard_v2"), seed=3)
    news = sim.news
    cat = str(sim.category[0])
    news.today = [
        {"id": "a", "mode": "single_category", "impact_direction": "increase", "impact_strength": 0.5,
         "impact_factor": "need", "target_category": cat, "title": "", "content": ""},
        {"id": "b", "mode": "sku_level", "impact_direction": "increase", "impact_strength": 0.4,
         "impact_factor": "need", "target_sku_upc": sim.sku_ids[0], "title": "", "content": ""},
        {"id": "c", "mode": "macro_all", "impact_direction": "decrease", "impact_strength": 0.1,
         "impact_factor": "supply", "title": "", "content": ""},
    ]  # fmt: skip
    news._effects = None
    eff = news.effects()
    assert eff["need"][0] == pytest.approx(0.5)  # (0.5 + 0.4 x 1.2) x 0.8 = 0.784 -> cap 0.5
    other = int(np.flatnonzero(sim.category == cat)[1])
    assert eff["need"][other] == pytest.approx(0.4)
    assert eff["supply"] == pytest.approx(np.full(sim.m, -0.08))
    assert sim.quotes()[5] == pytest.approx(sim.catalog.quote_price[sim.day, sim.g[5]] * 1.08)


def test_business_news_rolls_for_four_to_six_days():
    sim = RetailSim(preset("hard_v2"), seed=11)
    seen: dict[int, list[int]] = {}
    alive = []  # keep the items referenced so their ids stay unique
    for day in range(40):
        for item in sim.news.today:
            if item.get("impact_direction"):
                alive.append(item)
                seen.setdefault(id(item), []).append(day)
        assert len(sim.news.today) == 20
        sim.news.advance()
    spans = [len(v) for v in seen.values() if v[0] < 30]
    assert spans and min(spans) >= 4 and max(spans) <= 6


def test_same_seed_same_run_and_different_seed_differs():
    def run(seed):
        sim = RetailSim(preset("hard_v2"), seed=seed)
        sim.set_shelf(list(range(10)))
        for j in range(10):
            sim.place_order([(j, 200)], 0)
        return [sim.end_day().sales.tolist() for _ in range(12)], sim.funds

    assert run(5) == run(5)
    assert run(5) != run(6)


@pytest.mark.parametrize("capacity", [15_000, 400])
def test_units_and_cash_are_conserved_over_a_run(capacity):
    from solvers.retail.policies import make_policy, run_policy

    sim = RetailSim(preset("hard_v2", inventory_capacity=capacity), seed=13)
    results = run_policy(sim, make_policy("oracle"), 40)
    ordered = sum(row[4] for row in sim.order_rows)
    sold = sum(int(r.sales.sum()) for r in results)
    expired = sum(int(r.expired.sum()) for r in results)
    in_transit = sum(q for o in sim.orders.values() for _, q, _, _ in o.lines)
    held = int(sim.onhand.sum() + sim.waiting_count.sum())
    assert ordered == sold + expired + in_transit + held
    assert sim.onhand.sum() <= capacity
    if capacity == 400:
        assert sum(1 for r in sim.daily if r["waiting_units"] > 0) > 0
    spent = sum(row[4] * row[5] for row in sim.order_rows)
    cash = 30_000 - spent + sum(r.revenue - r.refunds for r in results) - 600 * len(results)
    assert sim.funds == pytest.approx(cash)
    assert sum(int(r.returns.sum()) for r in results) == int(sim.rec_returns[HISTORY_DAYS:].sum())


def test_returns_and_reviews_follow_quality_per_unit():
    from solvers.retail.sim import DIMENSIONS

    sim = make_sim(review_ratio=0.2)
    n = 14_000
    stock(sim, 0, n, 1.0, quality=2.0)  # R(2) = 0.15; ratings tilted to mean 2.0
    sim.price[0] = 5.0
    sold, _, returned = sim._sell(0, n)
    sim._write_reviews()
    assert sold == n
    assert returned / n == pytest.approx(0.15, abs=4 * (0.15 * 0.85 / n) ** 0.5)
    rows = sim.review_rows()
    assert len(rows) / n == pytest.approx(0.2, abs=4 * (0.2 * 0.8 / n) ** 0.5)
    assert rows[:, 3].mean() == pytest.approx(2.0, abs=0.05)
    low = rows[rows[:, 3] < 3]
    share_quality = (low[:, 4] == DIMENSIONS.index("quality")).mean()
    assert share_quality == pytest.approx(0.8, abs=0.03)  # low star + low quality -> mostly "quality"
    assert sim.rec_rating_cnt_sku[sim.day, 0] == len(rows)


def test_horizon_sizes_the_records_and_ends_cleanly():
    sim = RetailSim(preset("hard_v2", enable_news=False), seed=1, horizon=2)
    assert sim.rec_move.shape[0] == HISTORY_DAYS + 4
    for _ in range(3):
        sim.end_day()
    with pytest.raises(SpecError, match="records end"):
        sim.end_day()
