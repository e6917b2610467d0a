"""The RetailBench store simulator: state, orders, and the day transition of `end_today` (notes §3).

Units are tracked in *lots* (one per order line: same SKU, supplier, buy price, hidden quality, arrival and
expiry), split into FIFO chunks on hand and in the waiting area. Selling pops the oldest chunks first, so the
units sold are exactly those the original's per-unit FIFO would sell; per-unit Bernoulli draws for returns
and reviews become binomial draws per chunk (same distribution). Records live in dense per-day arrays (for
the tools and the oracle) plus event lists (for the store).

Randomness: one `numpy.random.Generator` per stream (initial prices, demand, sales, news, shipping), all
spawned from the seed, so the same seed and the same actions give the same run.
"""

from __future__ import annotations

import uuid
from collections import deque
from dataclasses import dataclass

import numpy as np

from core.errors import SpecError
from solvers.retail.catalog import N_SUPPLIERS, SUPPLIER_IDS, Catalog, load_catalog
from solvers.retail.config import RetailConfig
from solvers.retail.demand import attractions, legacy_demand, power_demand
from solvers.retail.models import (
    CALENDAR_DAYS,
    HISTORY_DAYS,
    day_iso,
    return_probability,
    season_terms,
    tilted_probs,
)
from solvers.retail.news import NewsManager

DIMENSIONS = ("price", "quality", "other")
_POW = np.array([4, 3, 2, 1, 0])


@dataclass
class Order:
    """An open supplier order: lines of (local SKU index, quantity, unit price, lot id)."""

    order_id: str
    supplier: int
    created: int
    arrival: int
    lines: list[tuple[int, int, float, int]]
    cost: float


@dataclass
class DayResult:
    """What one `end_today` produced (arrays indexed by local SKU)."""

    day: int  # the day that was simulated
    money_earned: float
    revenue: float
    refunds: float
    sales: np.ndarray
    returns: np.ndarray
    expired: np.ndarray
    stockout: np.ndarray  # demand exceeded stock
    cogs: float
    funds: float
    net_worth: float
    rent: float
    customers: int
    delivered_units: int


class RetailSim:
    """One store run. Public state: `day`, `funds`, `price`, `shelf`; records in the `rec_*` arrays."""

    def __init__(
        self, config: RetailConfig, seed: int | None = 0, catalog: Catalog | None = None, horizon: int | None = None
    ) -> None:
        """`horizon` (days) sizes the record arrays; None allows the whole calendar (up to 1,577 days)."""
        self.config = config
        if horizon is not None and horizon < 1:
            raise SpecError("horizon", "must be at least 1 day")
        self.days_alloc = CALENDAR_DAYS if horizon is None else min(CALENDAR_DAYS, HISTORY_DAYS + horizon + 2)
        self.catalog = catalog or load_catalog()
        cat = self.catalog
        wanted = set(config.categories)
        self.g = np.array([i for i in range(cat.n) if cat.category[i] in wanted], dtype=np.int64)
        if len(self.g) == 0:
            raise SpecError("categories", "no products in the selected categories")
        self.m = m = len(self.g)
        self.sku_ids: tuple[str, ...] = tuple(cat.sku_ids[i] for i in self.g)
        self.index = {s: i for i, s in enumerate(self.sku_ids)}
        self.category = cat.category[self.g]
        self.shelf_life = cat.shelf_life[self.g]
        self.gain = cat.gain_coeffs[self.g]
        self.transport = cat.transport[self.g]
        seeds = np.random.SeedSequence(seed).spawn(5)
        self.rng_init, self.rng_demand, self.rng_sales, self.rng_news, self.rng_ship = (
            np.random.default_rng(s) for s in seeds
        )
        self.day = HISTORY_DAYS
        self.funds = float(config.initial_funds)
        self.price = self.rng_init.uniform(cat.price_min[self.g], cat.price_max[self.g])
        self.shelf = np.zeros(m, dtype=bool)
        self.notes: list[dict] = []
        # lots
        self._lot_cap = 0
        self.n_lots = 0
        self.lot_sku = np.zeros(0, dtype=np.int64)
        self.lot_supplier = np.zeros(0, dtype=np.int64)
        self.lot_begin = np.zeros(0, dtype=np.int64)
        self.lot_expiry = np.zeros(0, dtype=np.int64)
        self.lot_buy = np.zeros(0)
        self.lot_quality = np.zeros(0)
        self.lot_left = np.zeros(0, dtype=np.int64)  # units on hand or waiting
        self.lot_return_p = np.zeros(0)
        self.lot_star_cdf = np.zeros((0, 5))
        self.lot_order: list[str] = []
        self.onhand_chunks: list[deque] = [deque() for _ in range(m)]
        self.waiting: deque = deque()  # [lot, count] FIFO across SKUs
        self.onhand = np.zeros(m, dtype=np.int64)
        self.waiting_count = np.zeros(m, dtype=np.int64)
        self.orders: dict[str, Order] = {}
        self.negative_days = 0
        self.bankrupt = False
        self._init_records()
        self.initial_rating = self._initial_ratings()
        self.news = (
            NewsManager(cat.news, config, self.sku_ids, self.category, self.rng_news) if config.enable_news else None
        )
        self._init_review_pool()
        self.daily: list[dict] = []
        self._review_batch: list[tuple] = []

    def _init_review_pool(self) -> None:
        """Flat comment list plus (category, dimension, star) -> (offset, length) tables for vector draws."""
        cats = sorted(set(self.category.tolist()))
        self.cat_id = np.array([cats.index(c) for c in self.category])
        groups: dict[tuple[int, int, int], list[str]] = {}
        for row in self.catalog.reviews:
            if row["category"] in cats and row["DIMENSION"] in DIMENSIONS:
                key = (cats.index(row["category"]), DIMENSIONS.index(row["DIMENSION"]), int(row["STAR"]) - 1)
                groups.setdefault(key, []).append(row["COMMENTS"])
        self.comments: list[str] = []
        self.pool_offset = np.zeros((len(cats), 3, 5), dtype=np.int64)
        self.pool_len = np.zeros((len(cats), 3, 5), dtype=np.int64)
        for key, texts in sorted(groups.items()):
            self.pool_offset[key], self.pool_len[key] = len(self.comments), len(texts)
            self.comments.extend(texts)
        if (self.pool_len == 0).any():
            raise SpecError("reviews", "the review pool lacks texts for some (category, dimension, star)")

    # --- records ---

    def _init_records(self) -> None:
        d, m, s = self.days_alloc, self.m, N_SUPPLIERS
        self.rec_move = np.zeros((d, m), dtype=np.int64)
        self.rec_price = np.full((d, m), np.nan)
        self.rec_customers = np.zeros(d, dtype=np.int64)
        self.rec_sold = np.zeros((d, m, s), dtype=np.int64)
        self.rec_cogs = np.zeros((d, m, s))
        self.rec_returns = np.zeros((d, m, s), dtype=np.int64)
        self.rec_rating_sum = np.zeros((d, m, s))
        self.rec_rating_cnt = np.zeros((d, m, s), dtype=np.int64)
        self.rec_rating_sum_sku = np.zeros((d, m))
        self.rec_rating_cnt_sku = np.zeros((d, m), dtype=np.int64)
        self.rec_ordered = np.zeros((d, m, s), dtype=np.int64)
        self.rec_expired = np.zeros((d, m), dtype=np.int64)
        self.rec_supply_effect = np.zeros((d, m))
        self.review_chunks: list[np.ndarray] = []  # rows (day, sku, supplier, rating, dimension, comment, lot)
        self.order_rows: list[tuple] = []  # (order_id, day, supplier, sku, qty, unit_price, arrival, quality)
        self.sold_events: list[tuple] = []  # (day, lot, qty, price)
        self.expired_events: list[tuple] = []  # (day, lot, qty)
        self.news_rows: list[tuple] = []  # (day, record_id, news_id, title, content)
        h = self.catalog.history
        days = HISTORY_DAYS
        g = self.g
        move = h["move"][:, g].astype(np.int64)
        sup = h["supplier"][:, g].astype(np.int64)
        self.rec_move[:days] = move
        self.rec_price[:days] = np.where(move > 0, h["price"][:, g], np.nan)
        self.rec_customers[:days] = self.catalog.traffic[:days]
        dd, jj = np.meshgrid(np.arange(days), np.arange(self.m), indexing="ij")
        buy = self.catalog.quote_price[:days][dd, g[jj], sup]
        self.rec_sold[dd, jj, sup] = move
        self.rec_cogs[dd, jj, sup] = move * buy
        self.rec_ordered[dd, jj, sup] = move
        self.rec_returns[dd, jj, sup] = h["returns"][:, g]
        hr = self.catalog.history_reviews
        hr = hr[hr["sku_id"].isin(self.index)]
        di = np.array([(np.datetime64(x) - np.datetime64("1991-06-06")).astype(int) for x in hr["date"]])
        ji = np.array([self.index[x] for x in hr["sku_id"]], dtype=np.int64)
        si = hr["supplier"].to_numpy(dtype=np.int64)
        if len(hr):
            np.add.at(self.rec_rating_sum, (di, ji, si), hr["rating"].to_numpy(dtype=float))
            np.add.at(self.rec_rating_cnt, (di, ji, si), 1)
        self.rec_rating_sum_sku[:] = self.rec_rating_sum.sum(axis=2)
        self.rec_rating_cnt_sku[:] = self.rec_rating_cnt.sum(axis=2)

    def _initial_ratings(self) -> np.ndarray:
        """r0: mean history rating in [start-60, start], widening the start back by 60 days up to 20 times."""
        r0 = self.mean_rating(self.day, widen=True)
        fallback = np.array([self.catalog.products[i]["target_rating"] for i in self.g])
        return np.where(np.isnan(r0), fallback, r0)

    def mean_rating(self, day: int, *, widen: bool, supplier: int | None = None) -> np.ndarray:
        """Mean review rating per SKU over [day-60, day], widened backwards (end fixed) while empty."""
        if supplier is None:
            sums, cnts = self.rec_rating_sum_sku, self.rec_rating_cnt_sku
        else:
            sums, cnts = self.rec_rating_sum[:, :, supplier], self.rec_rating_cnt[:, :, supplier]
        out = np.full(self.m, np.nan)
        todo = np.ones(self.m, dtype=bool)
        for k in range(1, 21 if widen else 2):
            lo = max(day - 60 * k, 0)
            c = cnts[lo : day + 1].sum(axis=0)
            s = sums[lo : day + 1].sum(axis=0)
            hit = todo & (c > 0)
            out[hit] = s[hit] / c[hit]
            todo &= ~hit
            if not todo.any() or lo == 0:
                break
        return out

    # --- quotes ---

    def supply_effect(self) -> np.ndarray:
        return self.news.effects()["supply"] if self.news is not None else np.zeros(self.m)

    def quotes(self, day: int | None = None) -> np.ndarray:
        """(m, 5) supplier prices on `day` (today: news-adjusted price x (1 - supply effect))."""
        d = self.day if day is None else day
        raw = self.catalog.quote_price[d, self.g]
        effect = self.supply_effect() if d == self.day else self.rec_supply_effect[d]
        return raw * (1.0 - effect)[:, None]

    def quality(self, day: int | None = None) -> np.ndarray:
        """(m, 5) hidden supplier qualities (privileged)."""
        return self.catalog.quote_quality[self.day if day is None else day, self.g]

    # --- state queries ---

    def incoming(self) -> np.ndarray:
        inc = np.zeros(self.m, dtype=np.int64)
        for order in self.orders.values():
            for j, q, _, _ in order.lines:
                inc[j] += q
        return inc

    def inventory_value(self, day: int | None = None) -> float:
        d = self.day if day is None else day
        n = self.n_lots
        left = self.lot_left[:n]
        if not left.any():
            return 0.0
        span = self.lot_expiry[:n] - self.lot_begin[:n]
        remaining = self.lot_expiry[:n] - d
        unit = np.where(
            span <= 0, self.lot_buy[:n], np.where(remaining > 0, self.lot_buy[:n] * remaining / np.maximum(span, 1), 0)
        )
        return float((unit * left).sum())

    def net_worth(self) -> float:
        """funds + depreciated on-hand and waiting units + open orders at full cost."""
        return self.funds + self.inventory_value() + sum(o.cost for o in self.orders.values())

    # --- actions ---

    def set_price(self, j: int, price: float) -> float:
        old = float(self.price[j])
        self.price[j] = float(price)
        return old

    def set_shelf(self, skus: list[int]) -> None:
        self.shelf[:] = False
        self.shelf[skus] = True

    def _new_lot(self, j: int, s: int, begin: int, buy: float, quality: float, order_id: str) -> int:
        if self.n_lots == self._lot_cap:
            cap = max(64, 2 * self._lot_cap)
            for name in (
                "lot_sku", "lot_supplier", "lot_begin", "lot_expiry", "lot_buy", "lot_quality", "lot_left",
                "lot_return_p", "lot_star_cdf",
            ):  # fmt: skip
                arr = getattr(self, name)
                grown = np.zeros((cap, *arr.shape[1:]), dtype=arr.dtype)
                grown[: len(arr)] = arr
                setattr(self, name, grown)
            self._lot_cap = cap
        k = self.n_lots
        self.lot_sku[k], self.lot_supplier[k], self.lot_begin[k] = j, s, begin
        self.lot_expiry[k] = begin + int(self.shelf_life[j])
        self.lot_buy[k], self.lot_quality[k], self.lot_left[k] = buy, quality, 0
        self.lot_return_p[k] = return_probability(quality)
        self.lot_star_cdf[k] = np.cumsum(tilted_probs(quality))
        self.lot_order.append(order_id)
        self.n_lots += 1
        return k

    def place_order(self, lines: list[tuple[int, int]], supplier: int) -> dict:
        """Buy validated (sku, quantity) lines from one supplier at today's quotes; returns the order payload.

        Raises nothing for lack of money: the caller checks funds (`order_cost`) first, as the tool does.
        """
        prices = self.quotes()[:, supplier]
        quality = self.quality()[:, supplier]
        order_id = uuid.UUID(int=int(self.rng_ship.integers(0, 2**63)) << 64 | self.n_lots).hex
        out_lines = []
        arrival = self.day
        shipping = []
        for j, _q in lines:
            lo, hi = self.transport[j, supplier]
            days = int(self.rng_ship.integers(lo, hi + 1))
            shipping.append(days)
            arrival = max(arrival, self.day + days)
        cost = 0.0
        stored = []
        for (j, q), days in zip(lines, shipping, strict=True):
            unit = float(prices[j])
            lot = self._new_lot(j, supplier, arrival, unit, float(quality[j]), order_id)
            stored.append((j, q, unit, lot))
            cost += unit * q
            self.rec_ordered[self.day, j, supplier] += q
            self.order_rows.append((order_id, self.day, supplier, j, q, unit, arrival, float(quality[j])))
            out_lines.append(
                {
                    "sku_id": self.sku_ids[j],
                    "quantity": q,
                    "unit_price": unit,
                    "supplier_id": SUPPLIER_IDS[supplier],
                    "line_cost": unit * q,
                    "quality_score": float(quality[j]),
                    "sampled_shipping_days": days,
                    "sampled_arrival_date": day_iso(self.day + days),
                    "shipping_days": arrival - self.day,
                    "arrival_date": day_iso(arrival),
                }
            )
        self.funds -= cost
        self.orders[order_id] = Order(order_id, supplier, self.day, arrival, stored, cost)
        return {
            "order_id": order_id,
            "arrival_date": day_iso(arrival),
            "supplier_id": SUPPLIER_IDS[supplier],
            "total_cost": cost,
            "funds_after": self.funds,
            "lines": out_lines,
        }

    # --- the day transition ---

    def _admit_waiting(self) -> None:
        space = self.config.inventory_capacity - int(self.onhand.sum())
        while self.waiting and space > 0:
            chunk = self.waiting[0]
            lot, count = chunk
            take = min(count, space)
            j = int(self.lot_sku[lot])
            self.onhand_chunks[j].append([lot, take])
            self.onhand[j] += take
            self.waiting_count[j] -= take
            space -= take
            if take == count:
                self.waiting.popleft()
            else:
                chunk[1] = count - take

    def _receive(self, lot: int, qty: int) -> None:
        j = int(self.lot_sku[lot])
        space = max(self.config.inventory_capacity - int(self.onhand.sum()), 0)
        take = min(space, qty)
        if take:
            self.onhand_chunks[j].append([lot, take])
            self.onhand[j] += take
        if qty - take:
            self.waiting.append([lot, qty - take])
            self.waiting_count[j] += qty - take
        self.lot_left[lot] += qty

    def review_effect(self) -> np.ndarray:
        """g_cat(mean rating over the widening 60-day window) - g_cat(r0); 0 with reviews off."""
        if not self.config.enable_review:
            return np.zeros(self.m)
        r = self.mean_rating(self.day, widen=True)
        r = np.where(np.isnan(r), self.initial_rating, r)
        g_now = (self.gain * r[:, None] ** _POW).sum(axis=1)
        g_0 = (self.gain * self.initial_rating[:, None] ** _POW).sum(axis=1)
        return g_now - g_0

    def need_effect(self) -> np.ndarray:
        return self.news.effects()["need"] if self.news is not None else np.zeros(self.m)

    def _demand(self, customers: int) -> np.ndarray:
        cat, cfg = self.catalog, self.config
        stocked = np.flatnonzero(self.onhand > 0)
        demand = np.zeros(self.m, dtype=np.int64)
        if len(stocked) == 0:
            return demand
        gi = self.g[stocked]
        external = (self.review_effect() + self.need_effect())[stocked]
        a = attractions(
            alpha=cat.alpha[gi], beta=cat.beta[gi], beta_s=cat.beta_s[gi], beta_c=cat.beta_c[gi],
            sigma=cat.sigma[gi], price=self.price[stocked], season=season_terms(self.day),
            external=external, rng=self.rng_demand,
        )  # fmt: skip
        if cfg.aggregation == "power":
            keep = a > 0
            if cfg.enable_shelf_constraint:
                keep &= self.shelf[stocked]
            idx = stocked[keep]
            demand[idx] = power_demand(a[keep], self.category[idx], customers, cfg.rho, self.rng_demand)
        else:
            effect = np.full(len(stocked), cfg.category_effect)
            demand[stocked] = legacy_demand(a, self.category[stocked], effect, customers, self.rng_demand)
        return demand

    def _sell(self, j: int, y: int) -> tuple[int, float, int]:
        """Sell min(y, on hand) units of SKU j FIFO; returns (sold, cogs, returned)."""
        rng = self.rng_sales
        d, p = self.day, float(self.price[j])
        actual = min(y, int(self.onhand[j]))
        chunks = self.onhand_chunks[j]
        left, cogs, returned = actual, 0.0, 0
        ratio = self.config.review_ratio if self.config.enable_review else 0.0
        while left > 0:
            chunk = chunks[0]
            lot, count = chunk
            k = min(count, left)
            if k == count:
                chunks.popleft()
            else:
                chunk[1] = count - k
            left -= k
            s, q, buy = int(self.lot_supplier[lot]), float(self.lot_quality[lot]), float(self.lot_buy[lot])
            self.lot_left[lot] -= k
            cogs += k * buy
            self.rec_sold[d, j, s] += k
            self.rec_cogs[d, j, s] += k * buy
            self.sold_events.append((d, lot, k, p))
            if not self.config.enable_review:
                continue
            r = int(rng.binomial(k, self.lot_return_p[lot]))
            returned += r
            self.rec_returns[d, j, s] += r
            n_rev = int(rng.binomial(k, ratio))
            if n_rev:
                self._review_batch.append((j, s, lot, n_rev, q, buy * 3 < p))
        self.onhand[j] -= actual
        if actual:
            self.rec_move[d, j] = actual
            self.rec_price[d, j] = p
        return actual, cogs, returned

    def _write_reviews(self) -> None:
        """Today's reviews in one vectorised pass: star from the lot's tilted distribution (mean = quality);
        dimension as the original (low star & low quality -> mostly quality; low star & buy x 3 < price ->
        mostly price; else uniform); comment drawn from the category pool for (dimension, star)."""
        batch, self._review_batch = self._review_batch, []
        if not batch:
            return
        d = self.day
        counts = np.array([b[3] for b in batch])
        rows = np.repeat(np.arange(len(batch)), counts)
        lots = np.array([b[2] for b in batch])[rows]
        q = np.array([b[4] for b in batch])[rows]
        cheap = np.array([b[5] for b in batch])[rows]
        u = self.rng_sales.random((len(rows), 3))
        cdf = self.lot_star_cdf[lots]
        stars = np.minimum((u[:, :1] >= cdf).sum(axis=1), 4) + 1
        low = stars < 3
        quality_case = low & (q < 3)
        price_case = low & ~quality_case & cheap
        dim = np.minimum((u[:, 1] * 3).astype(int), 2)
        dim = np.where(quality_case, np.searchsorted([0.1, 0.9], u[:, 1], side="right"), dim)
        dim = np.where(price_case, np.searchsorted([0.8, 0.9], u[:, 1], side="right"), dim)
        js = np.array([b[0] for b in batch])[rows]
        ss = np.array([b[1] for b in batch])[rows]
        np.add.at(self.rec_rating_sum[d], (js, ss), stars)
        np.add.at(self.rec_rating_cnt[d], (js, ss), 1)
        np.add.at(self.rec_rating_sum_sku[d], js, stars)
        np.add.at(self.rec_rating_cnt_sku[d], js, 1)
        key = (self.cat_id[js], dim, stars - 1)
        comment = self.pool_offset[key] + (u[:, 2] * self.pool_len[key]).astype(np.int64)
        self.review_chunks.append(np.column_stack([np.full(len(js), d), js, ss, stars, dim, comment, lots]))

    def review_rows(self) -> np.ndarray:
        """All simulated reviews as int rows (day, sku, supplier, rating, dimension, comment index, lot)."""
        if not self.review_chunks:
            return np.zeros((0, 7), dtype=np.int64)
        return np.concatenate(self.review_chunks).astype(np.int64)

    def _expire(self) -> np.ndarray:
        d = self.day
        expired = np.zeros(self.m, dtype=np.int64)
        for j in np.flatnonzero(self.onhand > 0):
            chunks = self.onhand_chunks[j]
            if not any(self.lot_expiry[lot] < d for lot, _ in chunks):
                continue
            keep = deque()
            for lot, count in chunks:
                if self.lot_expiry[lot] < d:
                    expired[j] += count
                    self.lot_left[lot] -= count
                    self.expired_events.append((d, lot, count))
                else:
                    keep.append([lot, count])
            self.onhand_chunks[j] = keep
            self.onhand[j] -= expired[j]
        if self.waiting and any(self.lot_expiry[lot] < d for lot, _ in self.waiting):
            keep = deque()
            for lot, count in self.waiting:
                if self.lot_expiry[lot] < d:
                    j = int(self.lot_sku[lot])
                    expired[j] += count
                    self.waiting_count[j] -= count
                    self.lot_left[lot] -= count
                    self.expired_events.append((d, lot, count))
                else:
                    keep.append([lot, count])
            self.waiting = keep
        self.rec_expired[d] = expired
        return expired

    def end_day(self) -> DayResult:
        """`end_today`: sell, return, review, expire, record prices and news, advance, deliver, pay rent."""
        d = self.day
        if d + 1 >= self.days_alloc:
            raise SpecError("days", f"this run's records end on {day_iso(self.days_alloc - 1)} (catalog or horizon)")
        customers = int(self.catalog.traffic[d])
        self.rec_customers[d] = customers
        self._admit_waiting()
        demand = self._demand(customers)
        sales = np.zeros(self.m, dtype=np.int64)
        returns = np.zeros(self.m, dtype=np.int64)
        stockout = demand > self.onhand
        revenue = refunds = cogs = 0.0
        for j in np.flatnonzero(demand):
            sold, c, r = self._sell(int(j), int(demand[j]))
            sales[j], returns[j] = sold, r
            cogs += c
            revenue += float(self.price[j]) * sold
            refunds += float(self.price[j]) * r
        self._write_reviews()
        expired = self._expire()
        self._admit_waiting()
        self.rec_supply_effect[d] = self.supply_effect()
        if self.news is not None:
            for item in self.news.advance():
                self.news_rows.append((d, f"{item['id']}_{day_iso(d)}", item["id"], item["title"], item["content"]))
        money = revenue - refunds
        self.funds += money
        self.day = d + 1
        delivered = 0
        for oid in [o.order_id for o in self.orders.values() if o.arrival <= self.day]:
            order = self.orders.pop(oid)
            for _, q, _, lot in order.lines:
                self._receive(lot, q)
                delivered += q
        self.funds -= self.config.everyday_rent
        self.negative_days = self.negative_days + 1 if self.funds < 0 else 0
        self.bankrupt = self.negative_days >= self.config.bankruptcy_days
        nw = self.net_worth()
        result = DayResult(
            day=d, money_earned=money, revenue=revenue, refunds=refunds, sales=sales, returns=returns,
            expired=expired, stockout=stockout, cogs=cogs, funds=self.funds, net_worth=nw,
            rent=self.config.everyday_rent, customers=customers, delivered_units=delivered,
        )  # fmt: skip
        self.daily.append(
            {
                "day": len(self.daily) + 1,
                "date": day_iso(d),
                "funds": self.funds,
                "net_worth": nw,
                "sales_units": int(sales.sum()),
                "revenue": revenue,
                "refunds": refunds,
                "money_earned": money,
                "cogs": cogs,
                "inventory_value": self.inventory_value(),
                "on_hand_units": int(self.onhand.sum()),
                "waiting_units": int(self.waiting_count.sum()),
                "stockout_skus": int(stockout.sum()),
                "expired_units": int(expired.sum()),
                "returned_units": int(returns.sum()),
                "sold_skus": int((sales > 0).sum()),
                "customers": customers,
            }
        )
        return result
