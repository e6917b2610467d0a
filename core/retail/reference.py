"""The full-information reference policy of RetailBench (issue 29): it reads the simulator's true model.

Privileged on everything the simulator knows in advance: the true demand parameters (alpha, beta, the season
terms, sigma), tomorrow's customer traffic, the power aggregation (rho), the true (hidden) supplier quality, the
return curve R(q) and the news effects on demand and supplier prices. It does not know the random draws
(demand noise, binomial and multinomial sales, returns, lead times, future news).

Rules, each day: every shelved SKU buys from its best-quality supplier (ties: cheapest); prices maximise the
expected category profit sum (p (1 - R(q)) - c) d(p) under the true model, one coordinate pass a day over a
5 % price grid; stock follows an order-up-to level d (L + cover) + z sqrt(d (L + cover)) (L: the supplier's
longest lead time, cover: half the shelf life, at most 3 days, z = 2), all levels scaled down together when
they exceed the inventory capacity. On day 1 it
shelves greedily the SKUs with the largest marginal expected profit (the shelf never changes afterwards).

**Not an upper bound.** It is a myopic plan with the true model, not an optimal policy of the stochastic
control problem: it ignores rating dynamics, future news and the option value of the shelf, so another
policy can beat it (docs/retailbench.md reports every agent's gap to it, sign included). Its constants were
set on the default catalog only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.retail.models import return_probability, season_terms
from solvers.retail.policies import Policy
from solvers.retail.sim import RetailSim

PRICE_GRID = 1.0 + 0.05 * np.arange(1, 61)  # multiples of the unit cost: 1.05 .. 4.0
SAFETY_Z = 2.0
MAX_COVER_DAYS = 3
LABEL = "full-information reference (true demand, quality, news; not an upper bound)"


@dataclass
class FullInformationPolicy(Policy):
    """Plans from the simulator's true model (see the module docstring); privileged on every hidden quantity."""

    name: str = "full_info"

    def _model(self, sim: RetailSim) -> dict[str, np.ndarray]:
        """Today's true per-SKU model terms: attraction scale, price slope, supplier, unit cost, return rate."""
        cat, g = sim.catalog, sim.g
        s, c = season_terms(sim.day)
        quality, quotes = sim.quality(), sim.quotes()
        k = np.array([int(np.lexsort((quotes[j], -quality[j]))[0]) for j in range(sim.m)])
        external = sim.review_effect() + sim.need_effect()
        return {
            "scale": np.exp(cat.alpha[g] + cat.sigma[g] ** 2 / 50.0) * np.maximum(1.0 + external, 0.0),
            "slope": cat.beta[g] + cat.beta_s[g] * s + cat.beta_c[g] * c,
            "supplier": k,
            "cost": quotes[np.arange(sim.m), k],
            "returns": np.asarray(return_probability(quality[np.arange(sim.m), k]), dtype=float),
            "lead": sim.transport[np.arange(sim.m), k, 1].astype(float),
        }

    @staticmethod
    def _demand(model: dict[str, np.ndarray], members: np.ndarray, price: np.ndarray, customers: float,
                rho: float) -> np.ndarray:  # fmt: skip
        """Expected units of each SKU of one category (`members`) at `price` (the power aggregation's mean);
        `price` may be (k, n): k price vectors at once."""
        a = model["scale"][members] * np.exp(model["slope"][members] * price)
        total = a.sum(axis=-1, keepdims=True)
        g = (a**rho).sum(axis=-1, keepdims=True) ** (1.0 / rho)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(total > 0, customers * g / (1.0 + g) * a / np.where(total > 0, total, 1.0), 0.0)
        return out

    def _profit(self, model: dict, members: np.ndarray, price: np.ndarray, customers: float,
                rho: float) -> np.ndarray:  # fmt: skip
        """The category's expected profit at `price` ((n,) -> scalar array, (k, n) -> (k,))."""
        d = self._demand(model, members, price, customers, rho)
        margin = price * (1 - model["returns"][members]) - model["cost"][members]
        return (margin * d).sum(axis=-1)

    def _best_prices(self, model: dict, members: np.ndarray, start: np.ndarray, customers: float,
                     rho: float) -> np.ndarray:  # fmt: skip
        """One coordinate pass over the price grid, each SKU in turn, maximising the category's profit."""
        price = np.array(start, dtype=float)
        for i in range(len(members)):
            trials = np.repeat(price[None, :], len(PRICE_GRID) + 1, axis=0)
            trials[1:, i] = model["cost"][members[i]] * PRICE_GRID  # row 0: keep the current price
            values = self._profit(model, members, trials, customers, rho)
            price[i] = trials[int(np.argmax(values)), i]
        return price

    def start(self, sim: RetailSim) -> None:
        model = self._model(sim)
        customers, rho = float(sim.catalog.traffic[sim.day]), float(sim.config.rho)
        cap = sim.config.shelf_sku_capacity if sim.config.enable_shelf_constraint else None
        standalone = {}
        for j in range(sim.m):
            members = np.array([j])
            price = self._best_prices(model, members, np.array([model["cost"][j] * 2.0]), customers, rho)
            standalone[j] = float(price[0])
        chosen: list[int] = []
        value: dict[str, float] = {}
        limit = cap if cap is not None else sim.m
        while len(chosen) < limit:
            best_j, best_gain = None, 0.0
            for j in range(sim.m):
                if j in chosen:
                    continue
                cat = str(sim.category[j])
                members = np.array([i for i in chosen if str(sim.category[i]) == cat] + [j])
                price = np.array([standalone[i] for i in members])
                gain = float(self._profit(model, members, price, customers, rho)) - value.get(cat, 0.0)
                if gain > best_gain:
                    best_j, best_gain = j, gain
            if best_j is None:
                break
            chosen.append(best_j)
            cat = str(sim.category[best_j])
            members = np.array([i for i in chosen if str(sim.category[i]) == cat])
            value[cat] = float(self._profit(model, members, np.array([standalone[i] for i in members]), customers,
                                            rho))  # fmt: skip
        self.active = chosen
        if sim.config.enable_shelf_constraint:
            self._emit("set_shelf_skus", sku_ids=[sim.sku_ids[j] for j in self.active])

    def act(self, sim: RetailSim) -> None:
        model = self._model(sim)
        customers, rho = float(sim.catalog.traffic[sim.day]), float(sim.config.rho)
        stock = sim.onhand + sim.waiting_count
        pending = sim.incoming()
        free = sim.config.inventory_capacity - int(stock.sum()) - int(pending.sum()) - 100
        expected = np.zeros(sim.m)
        prices = np.array(sim.price, dtype=float)
        for cat in dict.fromkeys(str(sim.category[j]) for j in self.active):
            members = np.array([j for j in self.active if str(sim.category[j]) == cat])
            prices[members] = self._best_prices(model, members, prices[members], customers, rho)
            expected[members] = self._demand(model, members, prices[members], customers, rho)
        for j in self.active:
            self._emit("modify_sku_price", sku_id=sim.sku_ids[j], new_price=round(float(prices[j]), 2))
        target = np.zeros(sim.m)
        for j in self.active:
            cover = min(MAX_COVER_DAYS, max(1, int(sim.shelf_life[j]) // 2))
            horizon = expected[j] * (model["lead"][j] + cover)
            target[j] = horizon + SAFETY_Z * np.sqrt(max(horizon, 0.0))
        room = sim.config.inventory_capacity - 100
        if target.sum() > room:
            target *= room / target.sum()
        for j in self.active:
            position = int(stock[j] + pending[j])
            qty = int(np.ceil(target[j] - position))
            if qty < max(1.0, expected[j]):  # at least a day's worth
                continue
            qty = min(qty, max(0, free))
            if qty <= 0:
                continue
            before = int(pending[j])
            self._order(sim, j, qty, int(model["supplier"][j]), pending, sim.quotes())
            free -= int(pending[j]) - before
