"""Non-LLM policies on the simulator: the privileged oracle (notes §6) and simple baselines.

`plan(sim)` returns one day's actions as tool calls (`set_shelf_skus` on the first day, `modify_sku_price`,
`place_order`), ending with `end_today`; the same plan runs directly on the simulator (`run_policy`, the
fast path) or step by step through the Gymnasium environment. Policies read the records the tools expose;
the oracle also reads hidden supplier quality and hidden news effects. `count` tallies the tool calls each
decision corresponds to in the original (view calls included), for Table 1's tool columns.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from core.errors import SpecError
from solvers.retail.sim import RetailSim


def select_skus(sim: RetailSim, per_category: int) -> list[int]:
    """Top `per_category` SKUs per category by historical gross profit (price - min quote) x move, then shelf
    order: round-robin over categories sorted by name, rank 1 first, up to the shelf capacity."""
    d = sim.day
    move = sim.rec_move[:d]
    price = np.nan_to_num(sim.rec_price[:d])
    quotes = sim.catalog.quote_price[:d][:, sim.g].min(axis=2)
    score = ((price - np.where(move > 0, quotes, 0)) * move).sum(axis=0)
    has = (move > 0).any(axis=0)
    ranked: dict[str, list[int]] = {}
    for cat in dict.fromkeys(sim.category.tolist()):
        members = np.flatnonzero(sim.category == cat)
        good = [int(j) for j in members[np.argsort(-score[members], kind="stable")] if has[j]]
        rest = [int(j) for j in members if int(j) not in good]
        ranked[cat] = (good + rest)[:per_category]
    cap = sim.config.shelf_sku_capacity if sim.config.enable_shelf_constraint else None
    order: list[int] = []
    for rank in range(per_category):
        for cat in sorted(ranked):
            if rank < len(ranked[cat]):
                order.append(ranked[cat][rank])
    return order[:cap] if cap is not None else order


def best_historical_price(move: np.ndarray, price: np.ndarray, unit_cost: float) -> tuple[float | None, float]:
    """Among the prices of the days with sales, the one with the best mean profit (p - c) x move, and the mean
    move at it (one price only: that price and the mean move); (None, 0) without sales."""
    sold = move > 0
    if not sold.any():
        return None, 0.0
    ps, ms = price[sold], move[sold]
    if ps.min() == ps.max():
        return float(ps[0]), float(ms.sum()) / len(ms)
    best_p, best_profit, best_move = None, -np.inf, 0.0
    for p in np.unique(price[sold]):
        at = sold & (price == p)
        profit = float(((p - unit_cost) * move[at]).mean())
        if profit > best_profit:
            best_p, best_profit, best_move = float(p), profit, float(move[at].mean())
    return best_p, best_move


def _price_and_demand(sim: RetailSim, j: int, unit_cost: float, window: int = 30) -> tuple[float | None, float]:
    """Best historical price by mean profit (p - c) x move over the last `window` days, and mean move there."""
    d = sim.day
    lo = max(d - window, 0)
    return best_historical_price(sim.rec_move[lo : d + 1, j], sim.rec_price[lo : d + 1, j], unit_cost)


@dataclass
class Policy(ABC):
    """Base: remembers the active (shelved) SKUs and counts the original's tool calls."""

    per_category: int = 2
    multiplier: float = 6.0
    active: list[int] = field(default_factory=list)
    count: int = 0
    name: str = "policy"

    _started: bool = False
    _actions: list[dict] = field(default_factory=list)
    _funds: float = 0.0

    def start(self, sim: RetailSim) -> None:
        self.active = select_skus(sim, self.per_category)
        if sim.config.enable_shelf_constraint:
            self._emit("set_shelf_skus", sku_ids=[sim.sku_ids[j] for j in self.active])

    def plan(self, sim: RetailSim) -> list[dict]:
        """Today's tool calls, ending with end_today."""
        self._actions = []
        self._funds = sim.funds
        if not self._started:
            self._started = True
            self.start(sim)
        self.act(sim)
        self._emit("end_today")
        return self._actions

    @abstractmethod
    def act(self, sim: RetailSim) -> None:
        """Emit today's tool calls (before the closing end_today)."""

    def _emit(self, name: str, **arguments: object) -> None:
        self._actions.append({"name": name, "arguments": arguments})
        self.count += 1

    def _set_price(self, sim: RetailSim, j: int, price: float) -> None:
        if price != sim.price[j]:
            self._emit("modify_sku_price", sku_id=sim.sku_ids[j], new_price=float(price))
        else:
            self.count += 1

    def _order(self, sim: RetailSim, j: int, qty: int, supplier: int, pending: np.ndarray, quotes: np.ndarray) -> None:
        if qty <= 0:
            return
        cost = float(quotes[j, supplier]) * qty
        if self._funds < cost:
            self.count += 1  # the original's call fails with "Insufficient funds"
            return
        self._funds -= cost
        self._emit(
            "place_order", items=[{"sku_id": sim.sku_ids[j], "quantity": int(qty)}], supplier_id=f"supplier_{supplier + 1}"
        )
        pending[j] += qty


@dataclass
class OraclePolicy(Policy):
    """The quality-based reference policy: best hidden quality supplier, best historical price, bulk reorder,
    news-adjusted demand (privileged: reads hidden quality and hidden news effects)."""

    name: str = "oracle"

    def _set_price(self, sim: RetailSim, j: int, price: float) -> None:
        """Every day for every active SKU with a best historical price, as the original (notes §6 step c): the
        unchanged-price calls change nothing in the simulation but are actions in the four-stage trace."""
        self._emit("modify_sku_price", sku_id=sim.sku_ids[j], new_price=float(price))

    def act(self, sim: RetailSim) -> None:
        cfg = sim.config
        self.count += 1 if sim.news is not None else 0  # view_today_news
        stock = sim.onhand + sim.waiting_count
        pending = sim.incoming()
        quotes, quality = sim.quotes(), sim.quality()
        need, supply = sim.need_effect(), sim.supply_effect()
        free = cfg.inventory_capacity - int(stock.sum())
        for j in self.active:
            self.count += 2  # view_sales_profit_history, view_current_date_supplier_prices
            k = int(np.lexsort((quotes[j], -quality[j]))[0])
            p_star, d_hat = _price_and_demand(sim, j, float(quotes[j, k]))
            base = d_hat if d_hat > 0 else 10.0
            target = base * min(max((1 + need[j]) * (1 + supply[j]), 0.5), 2.0)
            if p_star is not None and p_star > 0:
                self._set_price(sim, j, p_star)
            if stock[j] > self.multiplier * target:
                continue
            self.count += 1  # view_inventory
            q_pending = int(pending[j])
            o = max(1, int(self.multiplier * target))
            cap_q = max(0, free - 100)
            if o - q_pending > cap_q:
                o = max(0, cap_q + q_pending)
                if o <= q_pending:
                    continue
            if q_pending >= o:
                continue
            self._order(sim, j, o - q_pending, k, pending, quotes)


def _review_scores(sim: RetailSim, window: int = 60, prior_count: int = 5) -> np.ndarray:
    """Review rating per SKU and supplier over the last `window` days, Bayesian-smoothed towards the overall
    mean with `prior_count` pseudo-reviews."""
    d = sim.day
    lo = max(d - window, 0)
    sums = sim.rec_rating_sum[lo : d + 1].sum(axis=0)
    cnts = sim.rec_rating_cnt[lo : d + 1].sum(axis=0)
    prior = float(sums.sum() / max(cnts.sum(), 1))
    return (sums + prior_count * prior) / (cnts + prior_count)


def _best_rated(score: np.ndarray, quotes: np.ndarray, j: int) -> int:
    """The supplier of SKU `j` with the best score (rounded to 2 places), ties to the cheaper quote."""
    return int(np.lexsort((quotes[j], -np.round(score[j], 2)))[0])


@dataclass
class CheapestSupplierPolicy(Policy):
    """Non-privileged "simple logic" baseline: cheapest quote, best historical price, reorder 4x expected
    demand when stock <= 4x expected, never while an order for the SKU is pending."""

    multiplier: float = 4.0
    name: str = "cheapest"
    calls_per_sku: ClassVar[int] = 2
    """Tool calls the policy stands for per SKU and day (quotes, history; the review-aware one also reviews)."""

    def _supplier_choice(self, sim: RetailSim, quotes: np.ndarray) -> Callable[[int], int]:
        """Today's supplier for a SKU."""
        return lambda j: int(np.argmin(quotes[j]))

    def act(self, sim: RetailSim) -> None:
        stock = sim.onhand + sim.waiting_count
        pending = sim.incoming()
        quotes = sim.quotes()
        supplier = self._supplier_choice(sim, quotes)
        for j in self.active:
            self.count += self.calls_per_sku
            k = supplier(j)
            p_star, d_hat = _price_and_demand(sim, j, float(quotes[j, k]))
            expected = d_hat if d_hat > 0 else 10.0
            if p_star is not None and p_star > 0:
                self._set_price(sim, j, p_star)
            if stock[j] <= self.multiplier * expected and pending[j] == 0:
                self._order(sim, j, max(1, int(self.multiplier * expected)), k, pending, quotes)


@dataclass
class ReviewAwarePolicy(CheapestSupplierPolicy):
    """Non-privileged baseline: supplier chosen by Bayesian-smoothed review rating (prior = overall mean,
    prior count 5) over the last 60 days, ties to the cheaper; otherwise as the cheapest-supplier policy."""

    multiplier: float = 4.0
    name: str = "review_aware"
    calls_per_sku: ClassVar[int] = 3

    def _supplier_choice(self, sim: RetailSim, quotes: np.ndarray) -> Callable[[int], int]:
        score = _review_scores(sim)
        return lambda j: _best_rated(score, quotes, j)


@dataclass
class NewsAwarePolicy(Policy):
    """The original's news-aware baseline: review-rated supplier choice (60-day window), exploration orders
    every 7 days to every other supplier (max(1, avg30/5) units each, to gather reviews and returns), demand
    scaled by clamp((1+need)(1+supply), 0.5, 2) from the hidden news effects (privileged, like the oracle),
    topped up to 4x demand counting pending units (exploration orders must not block restocking)."""

    multiplier: float = 4.0
    name: str = "news_aware"
    _day: int = 0

    def act(self, sim: RetailSim) -> None:
        d = sim.day
        self._day += 1
        stock = sim.onhand + sim.waiting_count
        pending = sim.incoming()
        quotes = sim.quotes()
        need, supply = sim.need_effect(), sim.supply_effect()
        score = _review_scores(sim)
        explore = self._day % 7 == 1
        for j in self.active:
            self.count += 3
            k = _best_rated(score, quotes, j)
            p_star, d_hat = _price_and_demand(sim, j, float(quotes[j, k]))
            expected = (d_hat if d_hat > 0 else 10.0) * min(max((1 + need[j]) * (1 + supply[j]), 0.5), 2.0)
            if p_star is not None and p_star > 0:
                self._set_price(sim, j, p_star)
            target = max(1, int(self.multiplier * expected))
            if stock[j] + pending[j] <= target:
                self._order(sim, j, target - int(pending[j]), k, pending, quotes)
            if explore:
                avg30 = float(sim.rec_move[max(d - 30, 0) : d, j].mean()) if d else 0.0
                for other in range(quotes.shape[1]):
                    if other != k:
                        self._order(sim, j, max(1, int(avg30 / 5)), other, pending, quotes)


@dataclass
class DoNothingPolicy(Policy):
    """Never acts: pays rent until bankrupt."""

    name: str = "do_nothing"

    def start(self, sim: RetailSim) -> None:
        self.active = []

    def act(self, sim: RetailSim) -> None:
        return None


def default_oracle_parameters(config_name: str) -> tuple[int, float]:
    """(SKUs per category, bulk multiplier) as the original's defaults by config name."""
    name = config_name.lower()
    if name in ("hard_v2", "stress_hard"):
        return 2, 6.0
    if "hard" in name:
        return 5, 3.0
    if "middle" in name:
        return 4, 3.0
    return 6, 4.0


POLICIES = {
    "oracle": OraclePolicy,
    "cheapest": CheapestSupplierPolicy,
    "review_aware": ReviewAwarePolicy,
    "news_aware": NewsAwarePolicy,
    "do_nothing": DoNothingPolicy,
}


def make_policy(name: str, config_name: str = "hard_v2") -> Policy:
    if name not in POLICIES:
        raise SpecError("agent", f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}")
    n_cat, mult = default_oracle_parameters(config_name)
    policy = POLICIES[name](per_category=n_cat)
    if name == "oracle":
        policy.multiplier = mult
    return policy


def apply_action(sim: RetailSim, action: dict):
    """Apply one planned (valid) tool call directly to the simulator; returns the DayResult for end_today."""
    name, args = action["name"], action["arguments"]
    if name == "modify_sku_price":
        sim.set_price(sim.index[args["sku_id"]], args["new_price"])
    elif name == "set_shelf_skus":
        sim.set_shelf([sim.index[s] for s in args["sku_ids"]])
    elif name == "place_order":
        k = int(args["supplier_id"].split("_")[1]) - 1
        sim.place_order([(sim.index[it["sku_id"]], it["quantity"]) for it in args["items"]], k)
    elif name == "end_today":
        return sim.end_day()
    else:
        raise SpecError("action", f"policies do not emit {name}")
    return None


def run_policy(sim: RetailSim, policy: Policy, days: int) -> list:
    """Run `days` days directly on the simulator (stopping at bankruptcy); returns the DayResults."""
    results = []
    for _ in range(days):
        for action in policy.plan(sim):
            out = apply_action(sim, action)
        results.append(out)
        if sim.bankrupt:
            break
    return results

