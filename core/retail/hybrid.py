"""Offline RetailBench agents that see only the public tools: the solver-backed hybrid and a scripted manager.

Both are written as *day plans*: a generator that yields one tool call (`{"name", "arguments"}`) at a time and
receives the tool's result payload back, ending the day with `end_today`. The same plan runs

* as a rollout `Agent` (`ToolPlanAgent`): the rollout feeds each step's observation back in, so the agent
  holds no reference to the environment or its simulator and cannot read hidden state;
* on a tool function directly (`drive`), e.g. `RetailTools.call` — the fast path for benchmarks.

The hybrid (seed 000's thesis on RetailBench: the estimates come from data, the decisions from optimisation):

* demand response: per SKU, a log-linear fit  log(units) = a + b·price + weekday terms  on the pre-start sales
  history (whose prices alternate between a low and a high band, so b is identified), the level a then tracked
  by an exponentially weighted mean of our own uncensored sales (a day is censored when it sold out);
* supplier quality: per (SKU, supplier) return rate from `view_supplier_returns_avg_rate`, shrunk towards a
  pessimistic prior (an unproven supplier is assumed poor); the chosen supplier minimises the effective unit
  cost  quote + penalty·return_rate·price  (a return refunds the price and lowers ratings and demand);
* price: maximises estimated daily profit (p(1 − r) − c)·exp(a + b p)  ⇒  p* = c/(1 − r) − 1/b, kept inside a
  band around the observed prices (the fit is not trusted far outside its data);
* orders: a daily-review order-up-to policy, S = D·(L_max + 1) + z·sqrt(D·(L_max + 1)), capped so stock sells
  within the shelf life, grouped into one order per supplier, within the funds left after a rent reserve.
  z = 15 is far above a textbook service level: daily demand is much more variable than Poisson (traffic,
  attraction noise, review and news effects) and a stockout also loses the reviews a sale would bring; z was
  chosen on seeds 0-2 of the default catalog (`bench/retail_agents.py`: z 2.5 -> 15 raised the mean net worth
  from 176k to 222k) and is checked on held-out seeds and the five held-out catalogs (`bench/retail_catalogs.py`,
  docs/retailbench.md "Catalog variants");
* shelf: greedy by marginal expected category profit under the category's power aggregation
  (G = (Σ A^ρ)^(1/ρ), shares ∝ A), up to the shelf capacity.

Known in advance, not estimated: the demand model's log-linear form is the generator's own, ρ = 3 (hard_v2's
value) and the 15,000-unit capacity are constants, so the held-out catalogs (same generator family) test the
tuning, not a misspecified model.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import numpy as np

Action = dict[str, Any]
Plan = Generator[Action, Any, None]
SUPPLIERS = tuple(f"supplier_{k}" for k in range(1, 6))


def _result(obs: Any) -> Any:
    """The payload of a tool observation ({"result", "formatted"} -> result)."""
    if isinstance(obs, dict) and "result" in obs:
        return obs["result"]
    return obs


def _iso(day: date) -> str:
    return day.isoformat()


def _call(name: str, **arguments: Any) -> Action:
    return {"name": name, "arguments": arguments}


@dataclass
class SkuModel:
    """What the agent believes about one SKU (all from tool results)."""

    sku: str
    category: str
    shelf_life: int
    b: float = 0.0  # price slope of log demand (< 0)
    level: float = 0.0  # log demand intercept a (EWMA-tracked)
    price_lo: float = 0.0
    price_hi: float = 0.0
    fitted: bool = False
    hist_units: float = 0.0  # mean daily units in the history
    hist_price: float = 0.0  # best historical price by mean profit
    weekday: np.ndarray = field(default_factory=lambda: np.zeros(7))

    def demand(self, price: float, weekday: int | None = None) -> float:
        w = 0.0 if weekday is None else float(self.weekday[weekday])
        return math.exp(self.level + self.b * price + w)


class ToolPlanAgent(ABC):
    """Base of the offline tool-plan agents: a day plan driven one tool call per `act`."""

    name = "tool_plan"
    kind = "offline (not an LLM)"

    def __init__(self) -> None:
        self._plan: Plan | None = None
        self.last_note = ""
        self.calls = 0

    def reset(self, seed: int | None) -> None:
        self._plan = None
        self.calls = 0
        self.start(seed)

    def start(self, seed: int | None) -> None:  # noqa: B027 - an optional hook, empty by default
        """Forget the previous episode."""

    @abstractmethod
    def day(self, observation: Any) -> Plan:
        """One day's tool calls; each `yield` returns that call's result payload."""

    def act(self, observation: Any) -> Action:
        action = None
        if self._plan is not None:
            try:
                action = self._plan.send(_result(observation))
            except StopIteration:
                self._plan = None
        if action is None:
            self._plan = self.day(_result(observation))
            action = next(self._plan)
        self.calls += 1
        self.last_note = f"{self.name} (offline): {action['name']}"
        return action


def drive(agent: ToolPlanAgent, call: Callable[[str, dict], dict], first_observation: Any, *, days: int,
          seed: int | None = None, stop: Callable[[], bool] | None = None) -> list[dict]:  # fmt: skip
    """Run `agent` for `days` days on a tool function `call(name, arguments) -> {"result", ...}` (the fast path).

    Returns the end_today results. Stops early when the result says the run is bankrupt (`stop()` true).
    """
    agent.reset(seed)
    obs: Any = first_observation
    closed: list[dict] = []
    while len(closed) < days:
        action = agent.act(obs)
        obs = call(action["name"], action["arguments"])
        if action["name"] == "end_today" and not _result(obs).get("error"):
            closed.append(_result(obs))
            if stop is not None and stop():
                break
    return closed


class HybridAgent(ToolPlanAgent):
    """Solver-backed offline agent: estimate from the public records, optimise price, supplier, order, shelf."""

    name = "hybrid"

    def __init__(self, *, return_penalty: float = 8.0, prior_return: float = 0.2, prior_units: float = 20.0,
                 z: float = 15.0, level_halflife: float = 10.0, rent_reserve_days: float = 3.0,
                 price_stretch: float = 0.15, price_floor_stretch: float = 0.0,
                 censor_bump: float = 0.4) -> None:  # fmt: skip
        super().__init__()
        self.return_penalty = return_penalty
        self.prior_return = prior_return
        self.prior_units = prior_units
        self.z = z
        self.level_alpha = 1 - 0.5 ** (1 / level_halflife)
        self.rent_reserve_days = rent_reserve_days
        self.price_stretch = price_stretch
        self.price_floor_stretch = price_floor_stretch
        self.censor_bump = censor_bump

    def start(self, seed: int | None) -> None:
        self.models: dict[str, SkuModel] = {}
        self.active: list[str] = []
        self.rent = 0.0
        self.capacity = 15_000
        self.shelf_cap: int | None = None
        self.today: date | None = None
        self.returns: dict[tuple[str, int], tuple[int, int]] = {}  # (sku, supplier) -> (returns, sold)
        self.morning_stock: dict[str, int] = {}
        self.prices: dict[str, float] = {}
        self.supplier: dict[str, int] = {}
        self.day_count = 0

    # --- estimation ---

    def _fit(self, sku: str, daily: list[dict], unit_cost: float) -> None:
        m = self.models[sku]
        rows = [(r["selling_price"], r["units_sold"], date.fromisoformat(r["date"]).weekday())
                for r in daily if r["units_sold"] and r["selling_price"]]  # fmt: skip
        if not rows:
            return
        p = np.array([r[0] for r in rows])
        y = np.log(np.array([r[1] for r in rows], dtype=float))
        wd = np.array([r[2] for r in rows])
        m.price_lo, m.price_hi = float(p.min()), float(p.max())
        m.hist_units = float(np.exp(y).mean())
        by_price: dict[float, list[float]] = {}
        for pi, ui in zip(p, np.exp(y), strict=True):
            by_price.setdefault(round(float(pi), 4), []).append((pi - unit_cost) * ui)
        m.hist_price = max(by_price, key=lambda k: float(np.mean(by_price[k])))
        if p.max() - p.min() < 1e-6 or len(rows) < 8:
            m.level = float(y.mean())
            return
        cols = [np.ones_like(p), p] + [(wd == k).astype(float) for k in range(1, 7)]
        x = np.column_stack(cols)
        coef, *_ = np.linalg.lstsq(x, y, rcond=None)
        if coef[1] < -1e-6:
            m.b, m.fitted = float(coef[1]), True
            m.weekday = np.concatenate([[0.0], coef[2:]])
            m.weekday -= m.weekday.mean()
            m.level = float(np.mean(y - m.b * p - m.weekday[wd]))
        else:
            m.level = float(y.mean())

    def _return_rate(self, sku: str, k: int) -> float:
        ret, sold = self.returns.get((sku, k), (0, 0))
        return (ret + self.prior_return * self.prior_units) / (sold + self.prior_units)

    def _choose(self, sku: str, quotes: list[dict]) -> tuple[int, float, float, int]:
        """(supplier index, unit cost, return rate, max transport days) minimising the effective unit cost."""
        m = self.models[sku]
        ref_price = self.prices.get(sku) or m.hist_price or max(q["price"] for q in quotes) * 1.5
        best = None
        for q in quotes:
            k = SUPPLIERS.index(q["supplier_id"])
            r = self._return_rate(sku, k)
            score = q["price"] + self.return_penalty * r * ref_price
            if best is None or score < best[0]:
                best = (score, k, float(q["price"]), r, int(q["transport_days_max"]))
        assert best is not None
        return best[1], best[2], best[3], best[4]

    def _price(self, sku: str, cost: float, r: float) -> float:
        m = self.models[sku]
        if not m.fitted:
            return m.hist_price or cost * 1.5
        p = cost / max(1 - r, 0.5) - 1 / m.b
        lo = max(m.price_lo * (1 - self.price_floor_stretch), cost * 1.05)
        hi = m.price_hi * (1 + self.price_stretch)
        return round(float(min(max(p, lo), hi)), 2)

    def _profit(self, sku: str, cost: float, r: float) -> tuple[float, float, float]:
        """(price, daily demand, daily profit) at the optimal price."""
        p = self._price(sku, cost, r)
        d = self.models[sku].demand(p)
        return p, d, (p * (1 - r) - cost) * d

    def _shelf(self, values: dict[str, tuple[float, float]], rho: float = 3.0) -> list[str]:
        """Greedy shelf by marginal category profit; values: sku -> (demand A, unit margin)."""
        chosen: dict[str, list[str]] = {}
        out: list[str] = []
        cap = self.shelf_cap or len(values)

        def cat_value(skus: list[str]) -> float:
            a = np.array([values[s][0] for s in skus])
            if a.sum() <= 0:
                return 0.0
            g = float((a**rho).sum() ** (1 / rho))
            return g * float((a * np.array([values[s][1] for s in skus])).sum() / a.sum())

        while len(out) < cap:
            best, gain = None, 0.0
            for sku, (a, margin) in values.items():
                if sku in out or a <= 0 or margin <= 0:
                    continue
                cat = self.models[sku].category
                cur = chosen.get(cat, [])
                delta = cat_value(cur + [sku]) - cat_value(cur)
                if delta > gain:
                    best, gain = sku, delta
            if best is None:
                break
            out.append(best)
            chosen.setdefault(self.models[best].category, []).append(best)
        return out

    # --- the day plan ---

    def _first_day(self, welcome: dict) -> Plan:
        self.rent = float(welcome.get("rent") or 0.0)
        self.capacity = int(welcome.get("inventory_capacity") or self.capacity)
        self.shelf_cap = welcome.get("shelf_capacity")
        self.today = date.fromisoformat(welcome["current_date"])
        for p in welcome["products"]:
            self.models[p["sku_id"]] = SkuModel(p["sku_id"], p["category"], int(p["shelf_life_days"]))
            self.prices[p["sku_id"]] = float(p["price"])
        skus = list(self.models)
        start, end = _iso(self.today - timedelta(days=400)), _iso(self.today - timedelta(days=1))
        history = yield _call("view_sales_profit_history", sku_ids=skus, start_date=start, end_date=end)
        for k, sid in enumerate(SUPPLIERS):
            rates = yield _call("view_supplier_returns_avg_rate", supplier_id=sid, start_date=start, end_date=end,
                                sku_ids=skus)  # fmt: skip
            for sku, row in (rates.get("per_sku") or {}).items():
                self.returns[(sku, k)] = (int(row["return_count"]), int(row["sold_count"]))
        quotes = yield _call("view_current_date_supplier_prices", sku_ids=skus)
        values = {}
        for sku in skus:
            k, cost, r, _ = self._choose(sku, quotes[sku])
            self._fit(sku, history[sku]["daily"], cost)
            p, d, _ = self._profit(sku, cost, r)
            values[sku] = (d, p * (1 - r) - cost)
        self.active = self._shelf(values)
        yield _call("set_shelf_skus", sku_ids=self.active)

    def day(self, observation: Any) -> Plan:
        if isinstance(observation, dict) and "products" in observation:
            yield from self._first_day(observation)
        self.day_count += 1
        funds_now = yield _call("view_funds_and_date")
        funds = float(funds_now["funds"])
        self.today = date.fromisoformat(funds_now["current_date"])
        yesterday = _iso(self.today - timedelta(days=1))
        if self.day_count > 1:
            sales = yield _call("view_sales_profit_history", sku_ids=self.active, start_date=yesterday,
                                end_date=yesterday)  # fmt: skip
            self._learn(sales)
        if self.day_count % 7 == 0:
            for k, sid in enumerate(SUPPLIERS):
                rates = yield _call("view_supplier_returns_avg_rate", supplier_id=sid,
                                    start_date=_iso(self.today - timedelta(days=400)), end_date=yesterday,
                                    sku_ids=self.active)  # fmt: skip
                for sku, row in (rates.get("per_sku") or {}).items():
                    self.returns[(sku, k)] = (int(row["return_count"]), int(row["sold_count"]))
        inv = yield _call("view_inventory")
        quotes = yield _call("view_current_date_supplier_prices", sku_ids=self.active)
        stock = inv["inventory"]
        incoming = inv.get("incoming_by_sku", {})
        plans = []
        for sku in self.active:
            if sku not in self.supplier or self.day_count % 7 == 0:  # sticky: switching mixes lead times
                self.supplier[sku] = self._choose(sku, quotes[sku])[0]
            k = self.supplier[sku]
            q = next(q for q in quotes[sku] if q["supplier_id"] == SUPPLIERS[k])
            cost, r, lead = float(q["price"]), self._return_rate(sku, k), int(q["transport_days_max"])
            p, d, profit = self._profit(sku, cost, r)
            if abs(p - self.prices.get(sku, 0.0)) > 0.005:
                out = yield _call("modify_sku_price", sku_id=sku, new_price=p)
                if not (isinstance(out, dict) and out.get("error")):
                    self.prices[sku] = p
            s = stock.get(sku, {})
            on_hand = int(s.get("quantity", 0)) + int(s.get("waiting", 0))
            self.morning_stock[sku] = on_hand
            position = on_hand + int(incoming.get(sku, 0))
            horizon = lead + 1
            target = d * horizon + self.z * math.sqrt(max(d * horizon, 1.0))
            life = self.models[sku].shelf_life
            target = min(target, d * (lead + max(life * 0.8, 1.0)))
            qty = int(math.ceil(target - position))
            if qty > 0 and profit > 0:
                plans.append((profit, sku, k, qty, cost, d * lead))
        reserve = self.rent * self.rent_reserve_days
        budget = funds - reserve
        # capacity binds on units on hand: stock in transit sells down meanwhile, so allow the expected
        # sales over each SKU's lead time on top of the capacity
        in_lead = sum(plan[5] for plan in plans)
        room = self.capacity + int(in_lead) - int(inv.get("total_items", 0)) - int(inv.get("waiting_items", 0)) - int(
            inv.get("incoming_items", 0))  # fmt: skip
        by_supplier: dict[int, list[dict]] = {}
        for _, sku, k, qty, cost, _ in sorted(plans, reverse=True):
            qty = min(qty, max(room, 0))
            if budget < cost:
                continue
            qty = min(qty, int(budget // cost))
            if qty <= 0:
                continue
            budget -= qty * cost
            room -= qty
            by_supplier.setdefault(k, []).append({"sku_id": sku, "quantity": qty})
        for k, items in sorted(by_supplier.items()):
            yield _call("place_order", items=items, supplier_id=SUPPLIERS[k])
        yield _call("end_today")

    def _learn(self, sales: dict) -> None:
        """Update each SKU's demand level from yesterday's uncensored sales."""
        for sku, row in sales.items():
            m = self.models[sku]
            if not m.fitted:
                continue
            for r in row["daily"]:
                units, price = r["units_sold"], r["selling_price"]
                available = self.morning_stock.get(sku, 0)
                if units <= 0 or price is None:
                    continue  # nothing to sell
                wd = date.fromisoformat(r["date"]).weekday()
                obs = math.log(units) - m.b * price - float(m.weekday[wd])
                if units >= available:  # sold out: demand was at least this, so only ever raise the level
                    obs += self.censor_bump
                    if obs <= m.level:
                        continue
                m.level += self.level_alpha * (obs - m.level)


class ScriptedManager(ToolPlanAgent):
    """A careful store manager's routine, from the public tools only.

    Shelf: per category the two products that sold most in the history (by units × average price). Supplier:
    among suppliers with at least 30 units of history, the lowest return rate; ties to the cheaper quote.
    Price: keeps the price that earned most per day in the history. Orders: when stock plus incoming covers
    fewer than (lead time + 3) days of the 14-day average sales, order up to (lead time + 7) days of it, within
    the funds after a week of rent.
    """

    name = "store_manager"

    def start(self, seed: int | None) -> None:
        self.active: list[str] = []
        self.supplier: dict[str, int] = {}
        self.price: dict[str, float] = {}
        self.sales: dict[str, list[int]] = {}
        self.rent = 0.0
        self.day_count = 0

    def _setup(self, welcome: dict) -> Plan:
        self.rent = float(welcome.get("rent") or 0.0)
        today = date.fromisoformat(welcome["current_date"])
        cats = {p["sku_id"]: p["category"] for p in welcome["products"]}
        skus = list(cats)
        start, end = _iso(today - timedelta(days=400)), _iso(today - timedelta(days=1))
        hist = yield _call("view_sales_profit_history", sku_ids=skus, start_date=start, end_date=end)
        score, best_price = {}, {}
        for sku in skus:
            daily = [r for r in hist[sku]["daily"] if r["units_sold"]]
            score[sku] = sum(r["units_sold"] * r["selling_price"] for r in daily)
            by_p: dict[float, list[float]] = {}
            for r in daily:
                by_p.setdefault(r["selling_price"], []).append(r["net_profit"])
            best_price[sku] = max(by_p, key=lambda k: sum(by_p[k]) / len(by_p[k])) if by_p else None
            self.sales[sku] = [r["units_sold"] for r in hist[sku]["daily"]][-14:]
        evidence: dict[str, list[tuple[float, int]]] = {}
        for k, sid in enumerate(SUPPLIERS):
            rates = yield _call("view_supplier_returns_avg_rate", supplier_id=sid, start_date=start, end_date=end,
                                sku_ids=skus)  # fmt: skip
            for sku, row in (rates.get("per_sku") or {}).items():
                if row["sold_count"] >= 30 and row["return_rate"] is not None:
                    evidence.setdefault(sku, []).append((float(row["return_rate"]), k))
        cap = welcome.get("shelf_capacity") or len(skus)
        ranked: dict[str, list[str]] = {}
        for sku in sorted(skus, key=lambda s: -score[s]):
            ranked.setdefault(cats[sku], []).append(sku)
        for rank in range(2):
            for cat in sorted(ranked):
                if rank < len(ranked[cat]) and len(self.active) < cap:
                    self.active.append(ranked[cat][rank])
        quotes = yield _call("view_current_date_supplier_prices", sku_ids=self.active)
        for sku in self.active:
            price_of = {SUPPLIERS.index(q["supplier_id"]): q["price"] for q in quotes[sku]}
            options = sorted(evidence.get(sku, []), key=lambda e: (round(e[0], 2), price_of[e[1]]))
            self.supplier[sku] = options[0][1] if options else min(price_of, key=price_of.get)
            if best_price[sku]:
                self.price[sku] = float(best_price[sku])
        yield _call("set_shelf_skus", sku_ids=self.active)

    def day(self, observation: Any) -> Plan:
        if isinstance(observation, dict) and "products" in observation:
            yield from self._setup(observation)
        elif isinstance(observation, dict) and "sales_by_sku" in observation:
            for sku in self.active:
                self.sales[sku] = (self.sales.get(sku, []) + [int(observation["sales_by_sku"].get(sku, 0))])[
                    -14:
                ]
        self.day_count += 1
        funds = float((yield _call("view_funds_and_date"))["funds"])
        if self.day_count == 1:
            for sku, p in self.price.items():
                yield _call("modify_sku_price", sku_id=sku, new_price=p)
        inv = yield _call("view_inventory")
        quotes = yield _call("view_current_date_supplier_prices", sku_ids=self.active)
        budget = funds - 7 * self.rent
        orders: dict[int, list[dict]] = {}
        for sku in self.active:
            k = self.supplier[sku]
            q = next(q for q in quotes[sku] if q["supplier_id"] == SUPPLIERS[k])
            avg = max(sum(self.sales.get(sku, [])) / max(len(self.sales.get(sku, [])), 1), 1.0)
            s = inv["inventory"].get(sku, {})
            have = int(s.get("quantity", 0)) + int(s.get("waiting", 0)) + int(s.get("incoming", 0))
            lead = int(q["transport_days_max"])
            if have >= avg * (lead + 3):
                continue
            qty = min(int(avg * (lead + 7)) - have, int(max(budget, 0) // q["price"]))
            if qty > 0:
                budget -= qty * q["price"]
                orders.setdefault(k, []).append({"sku_id": sku, "quantity": qty})
        for k, items in sorted(orders.items()):
            yield _call("place_order", items=items, supplier_id=SUPPLIERS[k])
        yield _call("end_today")


OFFLINE_TOOL_AGENTS: dict[str, type[ToolPlanAgent]] = {
    "hybrid": HybridAgent,
    "store_manager": ScriptedManager,
}
