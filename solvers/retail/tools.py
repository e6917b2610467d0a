"""The 21 hard_v2 tools over a `RetailSim` (notes §5): names, argument rules, messages and payloads.

`RetailTools.call(name, arguments)` never raises: it returns ``{"result": payload, "formatted": text}``;
a failure is ``{"result": {"error": ...}, "formatted": ...}`` as in the original's `exec_tools`. Argument
checks follow the original's order and wording (in English). `execute_code` runs through an injected
`code_runner` (the sandbox lives in `core.sandbox`; this module stays pure).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

import numpy as np

from solvers.retail.catalog import SUPPLIER_IDS
from solvers.retail.models import day_index, day_iso
from solvers.retail.sim import RetailSim

READ_TOOLS = (
    "view_funds_and_date", "view_inventory", "view_shelf_status", "view_sku_prices", "view_sku_inventory_cost",
    "view_sales_profit_history", "view_current_date_supplier_prices", "view_supplier_price_history",
    "view_notes",
)  # fmt: skip
REVIEW_TOOLS = ("view_sku_avg_ratings", "view_supplier_returns_avg_rate")
NEWS_TOOLS = ("view_today_news", "view_news_detail", "view_news_history")
ACTION_TOOLS = ("place_order", "modify_sku_price", "set_shelf_skus", "add_note", "remove_note", "end_today")
MEMORY_TOOLS = ("view_notes", "add_note")
MAX_CODE_CHARS = 20_000

_SKUS = {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "SKU ids"}
_DATE = {"type": "string", "description": "YYYY-MM-DD or MM/DD/YY (inclusive)"}
_NONE: dict[str, Any] = {"type": "object", "properties": {}, "required": []}


def _obj(required: list[str], **props: dict) -> dict:
    return {"type": "object", "properties": props, "required": required}


SCHEMAS: dict[str, tuple[str, dict, str]] = {
    "view_funds_and_date": ("View the current funds balance and simulation date.", _NONE, "{funds, current_date}"),
    "view_inventory": (
        "View on-hand, waiting and incoming units per SKU, pending supplier orders and the shelf.", _NONE,
        "{inventory: {sku: {quantity, waiting, incoming, on_shelf}}, total_items, total_skus, waiting_items, "
        "pending_order_count, incoming_items, incoming_by_sku, pending_orders, shelf}",
    ),
    "view_shelf_status": ("View which SKUs are on the shelf (only shelved SKUs can sell).", _NONE,
                          "{enabled, capacity, used, available, shelf_skus, on_shelf}"),
    "view_sku_prices": ("View current retail prices of SKUs.", _obj(["sku_ids"], sku_ids=_SKUS), "{sku: price}"),
    "view_sku_inventory_cost": (
        "View on-hand quantity, average/min/max unit buy cost and average days in stock per SKU.",
        _obj(["sku_ids"], sku_ids=_SKUS),
        "{sku: {quantity, avg_buy_cost, avg_days_in_stock, min_buy_cost, max_buy_cost}}",
    ),
    "view_sales_profit_history": (
        "View daily units sold, selling price and net profit (after refunds and cost) per SKU over a date range.",
        _obj(["sku_ids", "start_date", "end_date"], sku_ids=_SKUS, start_date=_DATE, end_date=_DATE,
             supplier_id={"type": "string", "description": "only units bought from this supplier"}),
        "{sku: {daily: [...], records: {date: [...]}, total_units, days, net_profit, avg_selling_price}}",
    ),
    "view_current_date_supplier_prices": (
        "View today's supplier quotes (price, transport days) for SKUs.", _obj(["sku_ids"], sku_ids=_SKUS),
        "{sku: [{supplier_id, sku_id, date, price, category, transport_days_min, transport_days_max}]}",
    ),
    "view_supplier_price_history": (
        "View past supplier quotes of one SKU over a date range.",
        _obj(["sku_id", "start_date", "end_date"], sku_id={"type": "string"}, start_date=_DATE, end_date=_DATE,
             supplier_id={"type": "string"}),
        "[{supplier_id, sku_id, date, price}]",
    ),
    "view_notes": ("View your saved notes.", _NONE, "{total_notes, notes: [{id, content, date, timestamp}]}"),
    "view_sku_avg_ratings": (
        "View the average customer review rating per SKU over a date range.",
        _obj(["sku_ids", "start_date", "end_date"], sku_ids=_SKUS, start_date=_DATE, end_date=_DATE),
        "{sku: average rating or null}",
    ),
    "view_supplier_returns_avg_rate": (
        "View a supplier's return rate (returns / units sold, else ordered) over a date range.",
        _obj(["supplier_id", "start_date", "end_date"], supplier_id={"type": "string"}, start_date=_DATE,
             end_date=_DATE, sku_ids=_SKUS),
        "{supplier_id, sku_ids, start_date, end_date, sold_count, ordered_count, denominator_count, "
        "denominator_source, return_count, average_return_rate, sold_based_return_rate, "
        "order_based_return_rate, average_sku_return_rate, per_sku}",
    ),
    "view_today_news": ("View today's news headlines.", _NONE, "[{id, record_id, title}]"),
    "view_news_detail": ("View one news item in full.", _obj(["news_id"], news_id={"type": "string"}),
                         "{record_id, id, title, content, date}"),
    "view_news_history": ("View past news over a date range.", _obj(["start_date", "end_date"], start_date=_DATE,
                          end_date=_DATE), "[{record_id, id, title, content, date}]"),
    "execute_code": (
        "Run Python analysis code in a sandbox. Read-only helpers (view_* tools) are callable as functions and "
        "return their raw result; variables funds, current_date, rent, sku_ids are set; allowed imports: "
        "collections, datetime, decimal, functools, itertools, json, math, operator, statistics. The value of "
        "a single expression, or the variable `result`, is returned; print() output is captured. No state "
        "persists between calls and no action tool is reachable.",
        _obj(["code"], code={"type": "string", "description": "Python source, at most 20,000 characters"}),
        "{stdout, result, error, tool_calls: [{tool_name, args, result, success}]}",
    ),
    "place_order": (
        "Order SKUs from one supplier at today's quote; paid now, delivered after the supplier's transport days.",
        _obj(["items", "supplier_id"], items={"type": "array", "items": _obj(
            ["sku_id", "quantity"], sku_id={"type": "string"}, quantity={"type": "integer", "minimum": 1})},
             supplier_id={"type": "string"}),
        "{order_id, arrival_date, supplier_id, total_cost, funds_after, lines}",
    ),
    "modify_sku_price": ("Set a SKU's retail price.", _obj(["sku_id", "new_price"], sku_id={"type": "string"},
                         new_price={"type": "number"}), "{sku_id, old_price, new_price}"),
    "set_shelf_skus": (
        "Replace the shelf with these SKUs (at most the shelf capacity; only shelved SKUs sell).",
        _obj(["sku_ids"], sku_ids={"type": "array", "items": {"type": "string"}}),
        "{capacity, used, shelf_skus, added, removed}",
    ),
    "add_note": ("Save a note for later days.", _obj(["content"], content={"type": "string"}),
                 "{id, content, date, timestamp}"),
    "remove_note": ("Delete a saved note.", _obj(["note_id"], note_id={"type": "string"}),
                    "{note_id, removed, remaining_notes}"),
    "end_today": (
        "Close the store for today: customers buy, returns and expiries happen, deliveries arrive, rent is paid.",
        _NONE,
        "{funds, net_worth, current_date, money_earned, insufficient_skus, sales_by_sku, returns_by_sku, "
        "expired_discount_by_sku, waiting_items, cost_of_goods_sold, inventory, pending_order_count, "
        "incoming_items, incoming_by_sku, pending_orders}",
    ),
}  # fmt: skip


class ToolError(ValueError):
    """A tool argument or state rule was violated; the message is the original's (in English)."""


def json_safe(value: Any) -> Any:
    """Dates -> ISO strings, keys -> str, sets/tuples -> lists, numpy -> Python, non-finite -> None."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [json_safe(v) for v in value]
    if isinstance(value, np.ndarray):
        return [json_safe(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, date):
        return value.isoformat()
    if value is None or isinstance(value, str | int | bool):
        return value
    return str(value)


def parse_date(value: Any, name: str) -> int:
    """Day index of a `YYYY-MM-DD` or `MM/DD/YY` string; raises ToolError with the original's message."""
    if isinstance(value, str):
        text = value.strip()
        for fmt in ("%Y-%m-%d", "%m/%d/%y"):
            try:
                return day_index(datetime.strptime(text, fmt).date())
            except ValueError:
                continue
    raise ToolError(f"Invalid {name} format; use YYYY-MM-DD or MM/DD/YY.")


class RetailTools:
    """The tool layer of one run; counts direct and indirect (code) calls per simulated day."""

    def __init__(self, sim: RetailSim, code_runner: Callable[..., dict] | None = None) -> None:
        self.sim = sim
        self.code_runner = code_runner
        names = list(READ_TOOLS)
        if sim.config.enable_review:
            names += REVIEW_TOOLS
        if sim.news is not None:
            names += NEWS_TOOLS
        self.names: tuple[str, ...] = (*names, "execute_code", *ACTION_TOOLS)
        self.calls: list[dict] = []  # {day, tool, source, success}
        self.last_day: Any = None
        self._informed: tuple[int, set[int]] = (-1, set())  # quality-first guard: (day, SKUs checked today)

    # --- catalog ---

    def specs(self) -> list[dict]:
        """Tool definitions: name, description (+ result contract), input_schema/parameters."""
        out = []
        for name in self.names:
            desc, schema, contract = SCHEMAS[name]
            out.append(
                {
                    "name": name,
                    "description": f"{desc} Returns result as: {contract}.",
                    "input_schema": schema,
                    "parameters": schema,
                }
            )
        return out

    # --- dispatch ---

    def call(self, name: Any, arguments: Any = None, *, source: str = "direct") -> dict:
        """Run one tool call; every problem is an error result, never an exception."""
        day = self.sim.day
        if not isinstance(name, str) or name not in self.names:
            msg = f"Unknown tool: {name}; available tools: {', '.join(self.names)}"
            self._log(day, str(name), source, False)
            return {"result": {"error": msg}, "formatted": msg}
        if source != "direct" and (name in ACTION_TOOLS or name == "execute_code"):
            msg = f"{name} is not available inside execute_code (read-only helpers only)"
            self._log(day, name, source, False)
            return {"result": {"error": msg}, "formatted": msg}
        args = arguments if arguments is not None else {}
        try:
            if not isinstance(args, dict):
                raise ToolError("arguments must be a JSON object")
            handler = getattr(self, "_" + name)
            result, text = handler(**args)
        except (ToolError, TypeError, ValueError, KeyError) as err:
            msg = f"Error executing {name}: {type(err).__name__}: {err}"
            self._log(day, name, source, False)
            return {"result": {"error": msg}, "formatted": msg}
        result = json_safe(result)
        ok = not (isinstance(result, dict) and result.get("error"))
        self._log(day, name, source, ok, args if source != "direct" else None)
        return {"result": result, "formatted": text}

    def _log(self, day: int, name: str, source: str, ok: bool, arguments: dict | None = None) -> None:
        """One line of the call log; calls made inside execute_code keep their arguments (as the original's
        `tool_calls.jsonl` does), so the diagnostics can count them as queries."""
        entry: dict[str, Any] = {"day": day, "tool": name, "source": source, "success": ok}
        if arguments is not None:
            entry["arguments"] = json_safe(arguments)
        self.calls.append(entry)

    # --- validation helpers ---

    def _sku_list(self, sku_ids: Any, *, allow_empty: bool = False) -> list[int]:
        if sku_ids is None:
            raise ToolError("sku_ids is required")
        if not isinstance(sku_ids, list):
            raise ToolError("sku_ids must be an array")
        if not sku_ids and not allow_empty:
            raise ToolError("sku_ids cannot be empty")
        out: list[int] = []
        for i, s in enumerate(sku_ids):
            if not isinstance(s, str) or not s.strip():
                raise ToolError(f"sku_ids[{i}] is invalid")
            if s.strip() not in self.sim.index:
                raise ToolError(f"Unknown SKU: {s}")
            j = self.sim.index[s.strip()]
            if j not in out:
                out.append(j)
        return out

    def _range(self, start_date: Any, end_date: Any, *, required: bool = True) -> tuple[int, int]:
        if start_date is None or end_date is None:
            if required:
                raise ToolError("start_date and end_date are required")
            lo = 0 if start_date is None else parse_date(start_date, "start_date")
            hi = self.sim.day if end_date is None else parse_date(end_date, "end_date")
            return lo, hi
        lo, hi = parse_date(start_date, "start_date"), parse_date(end_date, "end_date")
        if lo > hi:
            raise ToolError("start_date cannot be after end_date")
        return lo, hi

    def _supplier(self, supplier_id: Any) -> int:
        if not isinstance(supplier_id, str) or not supplier_id.strip():
            raise ToolError("supplier_id is required")
        sid = supplier_id.strip()
        if sid not in SUPPLIER_IDS:
            raise ToolError(f"Unknown supplier: {sid}")
        return SUPPLIER_IDS.index(sid)

    def _clip(self, lo: int, hi: int) -> tuple[int, int]:
        """Clamp a day range to recorded days (the data start .. yesterday)."""
        return max(lo, 0), min(hi, self.sim.day - 1)

    # --- read tools ---

    def _view_funds_and_date(self) -> tuple[Any, str]:
        s = self.sim
        return {"funds": s.funds, "current_date": day_iso(s.day)}, (
            f"Current date: {day_iso(s.day)}, funds balance: {s.funds:.2f}"
        )

    def pending_orders(self) -> list[dict]:
        s = self.sim
        rows = []
        for o in sorted(s.orders.values(), key=lambda o: (o.arrival, o.supplier, o.order_id)):
            items: dict[str, int] = {}
            for j, q, _, _ in o.lines:
                items[s.sku_ids[j]] = items.get(s.sku_ids[j], 0) + q
            rows.append(
                {
                    "order_id": o.order_id,
                    "supplier_id": SUPPLIER_IDS[o.supplier],
                    "customer_id": SUPPLIER_IDS[o.supplier],
                    "ordered_sku": items,
                    "created_at": day_iso(o.created),
                    "delivery_time": o.arrival - o.created,
                    "expected_delivery_date": day_iso(o.arrival),
                    "days_until_arrival": o.arrival - s.day,
                    "cost": o.cost,
                    "total_items": sum(items.values()),
                    "items": [{"sku_id": k, "count": v} for k, v in items.items()],
                }
            )
        return rows

    def inventory_payload(self, *, all_skus: bool = True) -> dict:
        """view_inventory's payload; `all_skus=False` (end_today) lists only SKUs with stock, orders or shelf."""
        s = self.sim
        incoming = s.incoming()
        rows = range(s.m) if all_skus else np.flatnonzero(s.onhand + s.waiting_count + incoming + s.shelf)
        inv = {
            s.sku_ids[j]: {
                "quantity": int(s.onhand[j]),
                "waiting": int(s.waiting_count[j]),
                "incoming": int(incoming[j]),
                "on_shelf": bool(s.shelf[j]),
            }
            for j in rows
        }
        return {
            "inventory": inv,
            "total_items": int(s.onhand.sum()),
            "total_skus": int((s.onhand > 0).sum()),
            "waiting_items": int(s.waiting_count.sum()),
            "pending_order_count": len(s.orders),
            "incoming_items": int(incoming.sum()),
            "incoming_by_sku": {s.sku_ids[j]: int(incoming[j]) for j in np.flatnonzero(incoming)},
            "pending_orders": self.pending_orders(),
            "shelf": {
                "enabled": s.config.enable_shelf_constraint,
                "capacity": s.config.shelf_sku_capacity,
                "used": int(s.shelf.sum()),
                "sku_ids": [s.sku_ids[j] for j in np.flatnonzero(s.shelf)],
            },
        }

    def _view_inventory(self) -> tuple[Any, str]:
        p = self.inventory_payload()
        lines = [f"Inventory: {p['total_items']} units on hand, {p['waiting_items']} waiting, "
                 f"{p['incoming_items']} incoming in {p['pending_order_count']} orders"]  # fmt: skip
        for sku, v in p["inventory"].items():
            if v["quantity"] or v["waiting"] or v["incoming"]:
                lines.append(f"- {sku}: on hand {v['quantity']}, waiting {v['waiting']}, incoming {v['incoming']}"
                             f"{' (on shelf)' if v['on_shelf'] else ''}")  # fmt: skip
        for o in p["pending_orders"][:8]:
            lines.append(f"- order {o['order_id'][:8]} from {o['supplier_id']}: {o['total_items']} units, "
                         f"arrives {o['expected_delivery_date']}")  # fmt: skip
        return p, "\n".join(lines)

    def _view_shelf_status(self) -> tuple[Any, str]:
        s = self.sim
        cap = s.config.shelf_sku_capacity if s.config.enable_shelf_constraint else None
        used = int(s.shelf.sum())
        shelf = sorted(s.sku_ids[j] for j in np.flatnonzero(s.shelf))
        on = {
            sku: {
                "quantity": int(s.onhand[s.index[sku]]),
                "category": str(s.category[s.index[sku]]),
                "price": float(s.price[s.index[sku]]),
                "in_stock": bool(s.onhand[s.index[sku]] > 0),
            }
            for sku in shelf
        }
        payload = {
            "enabled": s.config.enable_shelf_constraint,
            "capacity": cap,
            "used": used,
            "available": max(cap - used, 0) if cap is not None else None,
            "shelf_skus": shelf,
            "on_shelf": on,
        }
        return payload, f"Shelf: {used}/{cap} SKUs: " + (", ".join(shelf) or "(empty)")

    def _view_sku_prices(self, sku_ids: Any = None) -> tuple[Any, str]:
        js = self._sku_list(sku_ids, allow_empty=True)
        if not js:
            raise ToolError("Unable to find legal sku")
        out = {self.sim.sku_ids[j]: float(self.sim.price[j]) for j in js}
        return out, "\n".join(f"{k}: {v:.2f}" for k, v in out.items())

    def _view_sku_inventory_cost(self, sku_ids: Any = None) -> tuple[Any, str]:
        s = self.sim
        out = {}
        for j in self._sku_list(sku_ids):
            chunks = list(s.onhand_chunks[j])
            qty = sum(c for _, c in chunks)
            if qty == 0:
                out[s.sku_ids[j]] = {"quantity": 0, "avg_buy_cost": 0.0, "avg_days_in_stock": 0.0,
                                     "min_buy_cost": 0.0, "max_buy_cost": 0.0}  # fmt: skip
                continue
            buys = np.array([s.lot_buy[lot] for lot, _ in chunks])
            ages = np.array([s.day - s.lot_begin[lot] for lot, _ in chunks], dtype=float)
            w = np.array([c for _, c in chunks], dtype=float)
            out[s.sku_ids[j]] = {
                "quantity": qty,
                "avg_buy_cost": round(float((buys * w).sum() / qty), 4),
                "avg_days_in_stock": round(float((ages * w).sum() / qty), 1),
                "min_buy_cost": float(buys.min()),
                "max_buy_cost": float(buys.max()),
            }
        text = "\n".join(f"{k}: {v['quantity']} units, avg cost {v['avg_buy_cost']}" for k, v in out.items())
        return out, text

    def _view_sales_profit_history(
        self, sku_ids: Any = None, start_date: Any = None, end_date: Any = None, supplier_id: Any = None
    ) -> tuple[Any, str]:
        s = self.sim
        js = self._sku_list(sku_ids)
        lo, hi = self._range(start_date, end_date)
        sup = None if supplier_id in (None, "") else self._supplier(supplier_id)
        lo, hi = self._clip(lo, hi)
        out: dict[str, Any] = {}
        for j in js:
            sl = slice(lo, hi + 1) if hi >= lo else slice(0, 0)
            sold = s.rec_sold[sl, j] if sup is None else s.rec_sold[sl, j, sup : sup + 1]
            cogs = s.rec_cogs[sl, j] if sup is None else s.rec_cogs[sl, j, sup : sup + 1]
            ret = s.rec_returns[sl, j] if sup is None else s.rec_returns[sl, j, sup : sup + 1]
            units = sold.sum(axis=1)
            price = s.rec_price[sl, j]
            gross = np.nan_to_num(price) * units
            avg_price = float(gross.sum() / units.sum()) if units.sum() else None
            refund_price = np.where(np.isnan(price), avg_price or 0.0, price)
            net = gross - ret.sum(axis=1) * refund_price - cogs.sum(axis=1)
            daily, records = [], {}
            for k in range(len(units)):
                iso = day_iso(lo + k)
                n = int(units[k])
                sp = float(price[k]) if n and not np.isnan(price[k]) else None
                daily.append({"date": iso, "selling_price": sp, "units_sold": n, "net_profit": round(float(net[k]), 4)})
                if n:
                    records[iso] = [{"sku_id": s.sku_ids[j], "date": iso, "price": sp, "move": n,
                                     "net_profit": round(float(net[k]), 4)}]  # fmt: skip
            out[s.sku_ids[j]] = {
                "daily": daily,
                "records": records,
                "total_units": int(units.sum()),
                "days": len(daily),
                "net_profit": round(float(net.sum()), 4),
                "avg_selling_price": avg_price,
            }
        text = "\n".join(f"{k}: {v['total_units']} units, net profit {v['net_profit']:.2f}" for k, v in out.items())
        return out, text

    def quote_rows(self, j: int) -> list[dict]:
        s = self.sim
        prices = s.quotes()[j]
        return [
            {
                "supplier_id": SUPPLIER_IDS[k],
                "sku_id": s.sku_ids[j],
                "date": day_iso(s.day),
                "price": float(prices[k]),
                "category": str(s.category[j]),
                "transport_days_min": int(s.transport[j, k, 0]),
                "transport_days_max": int(s.transport[j, k, 1]),
            }
            for k in range(len(SUPPLIER_IDS))
        ]

    def _view_current_date_supplier_prices(self, sku_ids: Any = None) -> tuple[Any, str]:
        out = {self.sim.sku_ids[j]: self.quote_rows(j) for j in self._sku_list(sku_ids)}
        lines = ["| Supplier | SKU | Price |", "|---|---|---|"]
        lines += [f"| {q['supplier_id']} | {q['sku_id']} | {q['price']:.4f} |" for rows in out.values() for q in rows]
        return out, "\n".join(lines)

    def _view_supplier_price_history(
        self, sku_id: Any = None, start_date: Any = None, end_date: Any = None, supplier_id: Any = None
    ) -> tuple[Any, str]:
        s = self.sim
        if not isinstance(sku_id, str) or sku_id.strip() not in s.index:
            raise ToolError(f"Unknown SKU: {sku_id}")
        j = s.index[sku_id.strip()]
        lo, hi = self._clip(*self._range(start_date, end_date))
        sups = range(len(SUPPLIER_IDS)) if supplier_id in (None, "") else [self._supplier(supplier_id)]
        rows = []
        for d in range(lo, hi + 1):
            q = s.quotes(d)[j]
            rows += [{"supplier_id": SUPPLIER_IDS[k], "sku_id": s.sku_ids[j], "date": day_iso(d), "price": float(q[k])}
                     for k in sups]  # fmt: skip
        return rows, f"{len(rows)} supplier price rows for {s.sku_ids[j]}"

    def _view_notes(self) -> tuple[Any, str]:
        notes = self.sim.notes
        text = "\n".join(f"- [{n['id'][:8]}] {n['date']}: {n['content']}" for n in notes) or "(no notes)"
        return {"total_notes": len(notes), "notes": list(notes)}, text

    def _view_sku_avg_ratings(self, sku_ids: Any = None, start_date: Any = None, end_date: Any = None) -> tuple[Any, str]:
        s = self.sim
        js = self._sku_list(sku_ids)
        lo, hi = self._range(start_date, end_date, required=False)
        lo, hi = max(lo, 0), min(hi, s.day)
        out = {}
        for j in js:
            c = int(s.rec_rating_cnt_sku[lo : hi + 1, j].sum()) if hi >= lo else 0
            out[s.sku_ids[j]] = float(s.rec_rating_sum_sku[lo : hi + 1, j].sum() / c) if c else None
        return out, "\n".join(f"{k}: {'n/a' if v is None else f'{v:.2f}'}" for k, v in out.items())

    def _view_supplier_returns_avg_rate(
        self, supplier_id: Any = None, start_date: Any = None, end_date: Any = None, sku_ids: Any = None
    ) -> tuple[Any, str]:
        s = self.sim
        k = self._supplier(supplier_id)
        lo, hi = self._range(start_date, end_date)
        js = list(range(s.m)) if sku_ids is None else self._sku_list(sku_ids)
        lo_c, hi_c = max(lo, 0), min(hi, s.day)
        sl = slice(lo_c, hi_c + 1) if hi_c >= lo_c else slice(0, 0)
        per, rates = {}, []
        tot = {"sold": 0, "ordered": 0, "den": 0, "ret": 0}
        sources = set()
        for j in js:
            sold = int(s.rec_sold[sl, j, k].sum())
            ordered = int(s.rec_ordered[sl, j, k].sum())
            ret = int(s.rec_returns[sl, j, k].sum())
            den, src = (sold, "sold_count") if sold > 0 else ((ordered, "ordered_count_fallback") if ordered else (0, "none"))
            rate = ret / den if den else None
            if rate is not None:
                rates.append(rate)
                sources.add(src)
            tot["sold"] += sold
            tot["ordered"] += ordered
            tot["den"] += den
            tot["ret"] += ret
            per[s.sku_ids[j]] = {"sku_id": s.sku_ids[j], "sold_count": sold, "ordered_count": ordered,
                                 "denominator_count": den, "denominator_source": src, "return_count": ret,
                                 "return_rate": rate}  # fmt: skip
        overall = "none" if not sources else (sources.pop() if len(sources) == 1 else "mixed_sold_and_ordered")
        payload = {
            "supplier_id": SUPPLIER_IDS[k],
            "sku_ids": [s.sku_ids[j] for j in js],
            "start_date": day_iso(lo),
            "end_date": day_iso(hi),
            "sold_count": tot["sold"],
            "ordered_count": tot["ordered"],
            "denominator_count": tot["den"],
            "denominator_source": overall,
            "return_count": tot["ret"],
            "average_return_rate": tot["ret"] / tot["den"] if tot["den"] else None,
            "sold_based_return_rate": tot["ret"] / tot["sold"] if tot["sold"] else None,
            "order_based_return_rate": tot["ret"] / tot["ordered"] if tot["ordered"] else None,
            "average_sku_return_rate": float(np.mean(rates)) if rates else None,
            "per_sku": per,
        }
        rate = payload["average_return_rate"]
        return payload, f"{SUPPLIER_IDS[k]}: {tot['ret']} returns / {tot['den']} units" + (
            f" = {rate:.4f}" if rate is not None else " (no data)"
        )

    def _news_off(self, name: str) -> dict:
        return {"error": f"{name} is unavailable: news is disabled", "status": "unavailable", "tool": name}

    def _view_today_news(self) -> tuple[Any, str]:
        if self.sim.news is None:
            return self._news_off("view_today_news"), "news disabled"
        rows = [{"id": n["id"], "record_id": None, "title": n["title"]} for n in self.sim.news.today]
        return rows, "\n".join(f"- [{r['id']}] {r['title']}" for r in rows) or "(no news)"

    def _view_news_detail(self, news_id: Any = None) -> tuple[Any, str]:
        s = self.sim
        if s.news is None:
            return self._news_off("view_news_detail"), "news disabled"
        if not isinstance(news_id, str) or not news_id.strip():
            raise ToolError("news_id is required")
        nid = news_id.strip()
        for n in s.news.today:
            if n["id"] == nid:
                row = {"record_id": f"{nid}_{day_iso(s.day)}", "id": nid, "title": n["title"],
                       "content": n["content"], "date": day_iso(s.day)}  # fmt: skip
                return row, f"{row['title']}\n{row['content']}"
        for d, rid, i, title, content in s.news_rows:
            if nid in (i, rid):
                row = {"record_id": rid, "id": i, "title": title, "content": content, "date": day_iso(d)}
                return row, f"{title}\n{content}"
        raise ToolError(f"News id not found: {nid}")

    def _view_news_history(self, start_date: Any = None, end_date: Any = None) -> tuple[Any, str]:
        s = self.sim
        if s.news is None:
            return self._news_off("view_news_history"), "news disabled"
        lo, hi = self._range(start_date, end_date)
        rows = [{"record_id": rid, "id": i, "title": t, "content": c, "date": day_iso(d)}
                for d, rid, i, t, c in s.news_rows if lo <= d <= hi]  # fmt: skip
        return rows, f"{len(rows)} news items"

    # --- analysis ---

    def code_globals(self) -> dict:
        s = self.sim
        return {
            "funds": s.funds,
            "current_date": day_iso(s.day),
            "rent": s.config.everyday_rent,
            "sku_ids": list(s.sku_ids),
        }

    def readonly_tools(self) -> dict[str, list[str]]:
        """Read-only tools callable from execute_code, with their positional parameter names."""
        return {
            n: list(SCHEMAS[n][1]["properties"]) for n in self.names if n not in ACTION_TOOLS and n != "execute_code"
        }

    def _execute_code(self, code: Any = None) -> tuple[Any, str]:
        if not isinstance(code, str) or not code.strip():
            raise ToolError("code must be a non-empty string")
        if len(code) > MAX_CODE_CHARS:
            raise ToolError(f"code must be at most {MAX_CODE_CHARS} characters")
        if self.code_runner is None:
            raise ToolError("execute_code needs a sandbox; this environment was built without a code runner")

        def bridge(name: str, kwargs: dict) -> Any:
            out = self.call(name, kwargs, source="execute_code")
            return out["result"]

        payload = self.code_runner(code, self.code_globals(), self.readonly_tools(), bridge)
        parts = ["## Code Execution Result"]
        if payload.get("stdout"):
            parts.append("### Output\n" + str(payload["stdout"])[:10_000])
        if payload.get("result") is not None:
            parts.append("### Return Value\n" + json.dumps(payload["result"], default=str)[:5_000])
        if payload.get("error"):
            parts.append("### Error\n" + str(payload["error"]))
        if len(parts) == 1:
            parts.append("(No output)")
        return payload, "\n".join(parts)

    # --- actions ---

    def _place_order(self, items: Any = None, supplier_id: Any = None) -> tuple[Any, str]:
        s = self.sim
        if not isinstance(items, list):
            raise ToolError("items must be an array")
        if not items:
            raise ToolError("items cannot be empty")
        if not isinstance(supplier_id, str) or not supplier_id.strip():
            raise ToolError("supplier_id is required")
        lines: list[tuple[int, int]] = []
        for i, it in enumerate(items):
            if not isinstance(it, dict):
                raise ToolError(f"items[{i}] must be an object")
            if "sku_id" not in it or "quantity" not in it:
                raise ToolError(f"items[{i}] must include sku_id and quantity")
            sku, q = it["sku_id"], it["quantity"]
            if not isinstance(sku, str) or not sku.strip():
                raise ToolError(f"items[{i}].sku_id is invalid")
            if not isinstance(q, int) or isinstance(q, bool):
                raise ToolError(f"items[{i}].quantity must be an integer")
            if q <= 0:
                raise ToolError(f"items[{i}].quantity must be a positive integer")
            if sku.strip() not in s.index:
                raise ToolError(f"Unknown SKU: {sku}")
            lines.append((s.index[sku.strip()], q))
        k = self._supplier(supplier_id)
        quotes = s.quotes()
        total_units = sum(q for _, q in lines)
        if total_units > s.config.order_limit:
            raise ToolError(f"Order quantity {total_units} exceeds max_order_units_per_order {s.config.order_limit}")
        cost = float(sum(quotes[j, k] * q for j, q in lines))
        if s.funds < cost:
            return {"error": "Insufficient funds", "required": cost, "available": s.funds}, (
                f"Insufficient funds: need {cost:.2f}, have {s.funds:.2f}"
            )
        if s.config.quality_first_mode == "gate":
            blocked = self._quality_gate([j for j, _ in lines], k, {"items": items, "supplier_id": supplier_id})
            if blocked is not None:
                return blocked, blocked["diagnostic_reason"] + " " + blocked["next_step"]
        out = s.place_order(lines, k)
        for line in out["lines"]:  # the original logs the hidden quality here; an agent must never see it
            line.pop("quality_score", None)
        text = f"Order {out['order_id'][:8]} from {out['supplier_id']}: cost {out['total_cost']:.2f}, arrives {out['arrival_date']}"
        return out, text

    def _quality_gate(self, skus: list[int], chosen: int, arguments: dict) -> dict | None:
        """The optional quality-first supplier guard (notes §5.6): block an order whose supplier is not the
        best by review rating and return rate for some SKU with evidence; None lets the order through."""
        s, cfg = self.sim, self.sim.config
        day, informed = self._informed
        if day != s.day:
            informed = set()
            self._informed = (s.day, informed)
        if all(j in informed for j in skus):
            return None
        d = s.day
        r_lo, t_lo = max(d - cfg.quality_first_review_window_days, 0), max(d - cfg.quality_first_return_window_days, 0)
        w_rev, w_ret = cfg.quality_first_review_weight, cfg.quality_first_return_weight
        table, best, violations = [], {}, []
        for j in dict.fromkeys(skus):
            rows = []
            for k in range(len(SUPPLIER_IDS)):
                cnt = int(s.rec_rating_cnt[r_lo : d + 1, j, k].sum())
                sold = int(s.rec_sold[t_lo : d + 1, j, k].sum())
                den = sold if sold else int(s.rec_ordered[t_lo : d + 1, j, k].sum())
                ret = int(s.rec_returns[t_lo : d + 1, j, k].sum())
                if not cnt or not den:
                    continue
                avg = float(s.rec_rating_sum[r_lo : d + 1, j, k].sum()) / cnt
                rate = ret / den
                review_score = min(max(avg / 5, 0.0), 1.0)
                return_score = min(max(1 - rate, 0.0), 1.0)
                score = (w_rev * review_score + w_ret * return_score) / (w_rev + w_ret)
                rows.append({"sku_id": s.sku_ids[j], "supplier_id": SUPPLIER_IDS[k], "review_count": cnt,
                             "average_review_rating": avg, "review_score": review_score, "return_count": ret,
                             "return_denominator": den, "return_rate": rate, "return_quality_score": return_score,
                             "quality_score": score, "selected": k == chosen})  # fmt: skip
            if not rows:
                continue
            informed.add(j)
            rows.sort(key=lambda r: (-r["quality_score"], -r["average_review_rating"], r["return_rate"], r["supplier_id"]))
            for rank, r in enumerate(rows, 1):
                r["rank"] = rank
            table += rows
            best[s.sku_ids[j]] = rows[0]["supplier_id"]
            if rows[0]["supplier_id"] != SUPPLIER_IDS[chosen]:
                mine = next((r for r in rows if r["selected"]), None)
                violations.append({
                    "sku_id": s.sku_ids[j], "selected_supplier_id": SUPPLIER_IDS[chosen],
                    "selected_rank": mine["rank"] if mine else None,
                    "selected_quality_score": mine["quality_score"] if mine else None,
                    "best_supplier_id": rows[0]["supplier_id"], "best_quality_score": rows[0]["quality_score"],
                    "reason": "selected supplier is not the best by review rating and return rate",
                })  # fmt: skip
        if not violations:
            return None
        return {
            "status": "quality_first_supplier_reconsideration_required",
            "action_executed": False,
            "action_name": "place_order",
            "attempted_action": {"name": "place_order", "arguments": arguments, "action_executed": False},
            "selected_supplier_id": SUPPLIER_IDS[chosen],
            "best_suppliers_by_sku": best,
            "diagnostic_reason": f"{SUPPLIER_IDS[chosen]} is not the best-evidenced supplier for "
            f"{', '.join(v['sku_id'] for v in violations)}.",
            "quality_score_scope": "per SKU, suppliers with both review and return evidence",
            "formula": "(w_review * clamp(avg_rating/5) + w_return * clamp(1 - return_rate)) / (w_review + w_return)",
            "review_window_days": cfg.quality_first_review_window_days,
            "return_window_days": cfg.quality_first_return_window_days,
            "per_sku_quality_table": table,
            "violations": violations,
            "next_step": "Order from the best supplier, or repeat the order: these SKUs are now informed for today.",
        }

    def _modify_sku_price(self, sku_id: Any = None, new_price: Any = None) -> tuple[Any, str]:
        s = self.sim
        if not isinstance(new_price, int | float) or isinstance(new_price, bool):
            raise ToolError("new_price must be a number")
        if not math.isfinite(new_price) or new_price <= 0:
            raise ToolError("new_price must be positive")
        if not isinstance(sku_id, str) or sku_id.strip() not in s.index:
            raise ToolError(f"SKU {sku_id} does not exist")
        j = s.index[sku_id.strip()]
        old = s.set_price(j, float(new_price))
        return {"sku_id": s.sku_ids[j], "old_price": old, "new_price": float(new_price)}, (
            f"{s.sku_ids[j]}: price {old:.2f} -> {float(new_price):.2f}"
        )

    def _set_shelf_skus(self, sku_ids: Any = None) -> tuple[Any, str]:
        s = self.sim
        js = self._sku_list(sku_ids, allow_empty=True)
        cap = s.config.shelf_sku_capacity
        if cap is not None and len(js) > cap:
            raise ToolError(f"shelf accepts at most {cap} SKUs")
        before = {s.sku_ids[j] for j in np.flatnonzero(s.shelf)}
        s.set_shelf(js)
        after = [s.sku_ids[j] for j in js]
        payload = {
            "capacity": cap,
            "used": len(js),
            "shelf_skus": after,
            "added": [x for x in after if x not in before],
            "removed": sorted(before - set(after)),
        }
        return payload, f"Shelf now holds {len(js)}/{cap} SKUs"

    def _add_note(self, content: Any = None) -> tuple[Any, str]:
        if not isinstance(content, str) or not content.strip():
            raise ToolError("Note content must be a non-empty string")
        s = self.sim
        note = {
            "id": f"{int(s.rng_init.integers(0, 2**63)):016x}",
            "content": content.strip(),
            "date": day_iso(s.day),
            "timestamp": f"{day_iso(s.day)}T00:00:{len(s.notes) % 60:02d}",  # simulated, so replays match
        }
        s.notes.append(note)
        return note, f"Note saved ({note['id'][:8]})"

    def _remove_note(self, note_id: Any = None) -> tuple[Any, str]:
        if not isinstance(note_id, str) or not note_id.strip():
            raise ToolError("note_id is required")
        s = self.sim
        before = len(s.notes)
        s.notes[:] = [n for n in s.notes if n["id"] != note_id.strip()]
        removed = before - len(s.notes)
        return {"note_id": note_id.strip(), "removed": removed, "remaining_notes": len(s.notes)}, (
            f"Removed {removed} note(s)"
        )

    def _end_today(self) -> tuple[Any, str]:
        s = self.sim
        r = s.end_day()
        self.last_day = r
        inv = self.inventory_payload(all_skus=False)
        nz = lambda arr: {s.sku_ids[j]: int(arr[j]) for j in np.flatnonzero(arr)}  # noqa: E731
        payload = {
            "funds": r.funds,
            "net_worth": r.net_worth,
            "current_date": day_iso(s.day),
            "money_earned": r.money_earned,
            "insufficient_skus": [s.sku_ids[j] for j in np.flatnonzero(r.stockout)],
            "sales_by_sku": nz(r.sales),
            "returns_by_sku": nz(r.returns),
            "expired_discount_by_sku": nz(r.expired),
            "waiting_items": int(s.waiting_count.sum()),
            "cost_of_goods_sold": r.cogs,
            "inventory": inv,
            "pending_order_count": inv["pending_order_count"],
            "incoming_items": inv["incoming_items"],
            "incoming_by_sku": inv["incoming_by_sku"],
            "pending_orders": inv["pending_orders"],
        }
        text = (
            f"Day {day_iso(r.day)} closed. Sold {int(r.sales.sum())} units, earned {r.money_earned:.2f} "
            f"(refunds {r.refunds:.2f}); returns {int(r.returns.sum())}, expired {int(r.expired.sum())}, "
            f"stockouts {int(r.stockout.sum())} SKUs. Rent {r.rent:.2f}. Funds {r.funds:.2f}, net worth "
            f"{r.net_worth:.2f}. Today is {day_iso(s.day)}."
        )
        return payload, text

