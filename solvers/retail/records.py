"""A run's records as tables (sales, lifecycle, returns, reviews, supplier orders and prices, news, daily).

Pure: builds pandas DataFrames from a `RetailSim` for the simulated days (the pre-start history ships in
`data/retail/`). `core.store.retail` writes them to DuckDB under the run id. `evaluation_frames` is the
run's ground truth for the diagnostics (hidden quality, reference prices): stored, never shown to an agent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from solvers.retail.catalog import SUPPLIER_IDS
from solvers.retail.models import HISTORY_DAYS, day_iso
from solvers.retail.policies import best_historical_price
from solvers.retail.sim import DIMENSIONS, RetailSim

TABLES = ("sales", "lifecycle", "returns", "reviews", "supplier_orders", "supplier_prices", "news", "daily")
EVAL_TABLES = ("eval_quality", "eval_reference_price")
PRICE_WINDOW = 30


def _dates(days: np.ndarray) -> list[str]:
    return [day_iso(int(d)) for d in days]


def record_frames(sim: RetailSim) -> dict[str, pd.DataFrame]:
    """Every record table of the run so far (days from the store's first day to yesterday)."""
    lo, hi = HISTORY_DAYS, sim.day
    ids = np.array(sim.sku_ids)
    d, j = np.nonzero(sim.rec_move[lo:hi])
    sales = pd.DataFrame(
        {"date": _dates(d + lo), "sku_id": ids[j], "move": sim.rec_move[lo:hi][d, j],
         "price": sim.rec_price[lo:hi][d, j], "customer_count": sim.rec_customers[lo:hi][d]}
    )  # fmt: skip
    d, j, k = np.nonzero(sim.rec_returns[lo:hi])
    returns = pd.DataFrame(
        {"date": _dates(d + lo), "sku_id": ids[j], "supplier_id": np.array(SUPPLIER_IDS)[k],
         "returns": sim.rec_returns[lo:hi][d, j, k], "sold": sim.rec_sold[lo:hi][d, j, k]}
    )  # fmt: skip
    n = sim.n_lots
    sold = np.zeros(n, dtype=np.int64)
    expired = np.zeros(n, dtype=np.int64)
    for _, lot, qty, _ in sim.sold_events:
        sold[lot] += qty
    for _, lot, qty in sim.expired_events:
        expired[lot] += qty
    ordered = np.array([row[4] for row in sim.order_rows], dtype=np.int64)  # one order line per lot
    in_transit = {lot for o in sim.orders.values() for *_, lot in o.lines}
    lifecycle = pd.DataFrame(
        {
            "lot": np.arange(n),
            "order_id": sim.lot_order[:n],
            "sku_id": ids[sim.lot_sku[:n]],
            "supplier_id": np.array(SUPPLIER_IDS)[sim.lot_supplier[:n]],
            "quality_score": sim.lot_quality[:n],
            "buy_price": sim.lot_buy[:n],
            "arrival_date": _dates(sim.lot_begin[:n]),
            "expiry_date": _dates(sim.lot_expiry[:n]),
            "quantity": ordered,
            "sold": sold,
            "expired": expired,
            "in_stock": sim.lot_left[:n],
            "status": ["in_transit" if i in in_transit else "in_stock" if sim.lot_left[i] else
                       "expired" if expired[i] and not sold[i] else "sold" for i in range(n)],
        }
    )  # fmt: skip
    rows = sim.review_rows()
    reviews = pd.DataFrame(
        {"date": _dates(rows[:, 0]), "sku_id": ids[rows[:, 1]], "category": sim.category[rows[:, 1]],
         "supplier_id": np.array(SUPPLIER_IDS)[rows[:, 2]], "rating": rows[:, 3],
         "dimension": np.array(DIMENSIONS)[rows[:, 4]], "comment": [sim.comments[i] for i in rows[:, 5]],
         "lot": rows[:, 6]}
    )  # fmt: skip
    orders = pd.DataFrame(
        sim.order_rows,
        columns=["order_id", "day", "supplier", "sku", "quantity", "unit_price", "arrival", "quality_score"],
    )
    supplier_orders = pd.DataFrame(
        {"order_id": orders["order_id"], "date": _dates(orders["day"].to_numpy()),
         "supplier_id": np.array(SUPPLIER_IDS)[orders["supplier"].to_numpy(dtype=int)],
         "sku_id": ids[orders["sku"].to_numpy(dtype=int)], "quantity": orders["quantity"],
         "unit_price": orders["unit_price"], "arrival_date": _dates(orders["arrival"].to_numpy()),
         "quality_score": orders["quality_score"]}
    )  # fmt: skip
    days = np.arange(lo, hi)
    prices = np.stack([sim.quotes(int(x)) for x in days]) if len(days) else np.zeros((0, sim.m, 5))
    dd, jj, kk = np.meshgrid(np.arange(len(days)), np.arange(sim.m), np.arange(len(SUPPLIER_IDS)), indexing="ij")
    supplier_prices = pd.DataFrame(
        {"date": _dates(days[dd.ravel()]), "sku_id": ids[jj.ravel()],
         "supplier_id": np.array(SUPPLIER_IDS)[kk.ravel()], "price": prices.ravel()}
    )  # fmt: skip
    news = pd.DataFrame(
        [(day_iso(x), rid, nid, title, content) for x, rid, nid, title, content in sim.news_rows],
        columns=["date", "record_id", "news_id", "title", "content"],
    )
    return {
        "sales": sales,
        "lifecycle": lifecycle,
        "returns": returns,
        "reviews": reviews,
        "supplier_orders": supplier_orders,
        "supplier_prices": supplier_prices,
        "news": news,
        "daily": pd.DataFrame(sim.daily),
    }


def evaluation_frames(sim: RetailSim) -> dict[str, pd.DataFrame]:
    """The run's evaluation ground truth for each simulated day so far (privileged; for diagnostics only).

    `eval_quality`: the hidden quality of every supplier quote (date, sku_id, supplier_id, quality).
    `eval_reference_price`: per product and day the privileged oracle's price rule — the supplier with the best
    hidden quality (ties: cheaper), its quote as unit cost, and the price with the best mean profit
    (p - c) x units over the `PRICE_WINDOW` days before (`policies.best_historical_price`); products without
    sales in the window have no row.
    """
    lo, hi = HISTORY_DAYS, sim.day
    ids = np.array(sim.sku_ids)
    suppliers = np.array(SUPPLIER_IDS)
    days = np.arange(lo, hi)
    quality = sim.catalog.quote_quality[lo:hi][:, sim.g] if len(days) else np.zeros((0, sim.m, len(SUPPLIER_IDS)))
    dd, jj, kk = np.meshgrid(np.arange(len(days)), np.arange(sim.m), np.arange(len(SUPPLIER_IDS)), indexing="ij")
    eval_quality = pd.DataFrame(
        {"date": _dates(days[dd.ravel()]), "sku_id": ids[jj.ravel()], "supplier_id": suppliers[kk.ravel()],
         "quality": quality.ravel()}
    )  # fmt: skip
    rows = []
    for i, d in enumerate(days):
        quotes = sim.quotes(int(d))
        best = np.lexsort((quotes, -quality[i]), axis=1)[:, 0]
        start = max(int(d) - PRICE_WINDOW, 0)
        move, price = sim.rec_move[start:d], sim.rec_price[start:d]
        sold_any = (move > 0).any(axis=0)
        for j in np.flatnonzero(sold_any):
            cost = float(quotes[j, best[j]])
            p, _ = best_historical_price(move[:, j], price[:, j], cost)
            if p is not None:
                rows.append((day_iso(int(d)), ids[j], suppliers[best[j]], cost, p))
    eval_price = pd.DataFrame(rows, columns=["date", "sku_id", "supplier_id", "unit_cost", "reference_price"])
    return {"eval_quality": eval_quality, "eval_reference_price": eval_price}
