"""The 21 hard_v2 RetailBench tools as typed functions for the one LLM tool loop (`core.llm.tools.Toolbox`).

Each function forwards to `solvers.retail.tools.RetailTools.call` (the original names, argument rules,
messages and payloads) and returns ``{"result": payload, "formatted": text}``; a failed call raises
`RetailToolError`, which the toolbox turns into ``{"error": message}`` for the model. Schema violations
(missing or mistyped arguments) are caught by the toolbox before the call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.errors import OrcaError
from core.llm.tools import Toolbox
from solvers.retail.tools import SCHEMAS, RetailTools


class RetailToolError(OrcaError):
    """A RetailBench tool call failed (its message is the tool's own)."""


Call = Callable[..., dict]


def _caller(tools: RetailTools) -> Call:
    """`call(name, **arguments)`: one tool call, None arguments dropped; a failed call raises `RetailToolError`."""

    def call(name: str, **arguments: Any) -> dict:
        out = tools.call(name, {k: v for k, v in arguments.items() if v is not None})
        result = out["result"]
        if isinstance(result, dict) and result.get("error"):
            raise RetailToolError(str(result["error"]))
        return out

    return call


def _state_views(call: Call) -> tuple[Call, ...]:
    """The views of today's state: funds and date, inventory, shelf, prices, stock costs, notes."""

    def view_funds_and_date() -> dict:
        """View the current funds balance and simulation date."""
        return call("view_funds_and_date")

    def view_inventory() -> dict:
        """View on-hand, waiting and incoming units per SKU, pending supplier orders and the shelf."""
        return call("view_inventory")

    def view_shelf_status() -> dict:
        """View which SKUs are on the shelf (only shelved SKUs can sell)."""
        return call("view_shelf_status")

    def view_sku_prices(sku_ids: list[str]) -> dict:
        """View current retail prices of SKUs.

        Args:
            sku_ids: SKU ids.
        """
        return call("view_sku_prices", sku_ids=sku_ids)

    def view_sku_inventory_cost(sku_ids: list[str]) -> dict:
        """View on-hand quantity, average/min/max unit buy cost and average days in stock per SKU.

        Args:
            sku_ids: SKU ids.
        """
        return call("view_sku_inventory_cost", sku_ids=sku_ids)

    def view_notes() -> dict:
        """View your saved notes."""
        return call("view_notes")

    return (
        view_funds_and_date,
        view_inventory,
        view_shelf_status,
        view_sku_prices,
        view_sku_inventory_cost,
        view_notes,
    )


def _history_views(call: Call) -> tuple[Call, ...]:
    """The views over dates: sales and profit, supplier quotes, ratings, supplier returns."""

    def view_sales_profit_history(
        sku_ids: list[str], start_date: str, end_date: str, supplier_id: str | None = None
    ) -> dict:
        """View daily units sold, selling price and net profit per SKU over a date range.

        Args:
            sku_ids: SKU ids.
            start_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            end_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            supplier_id: only units bought from this supplier.
        """
        return call("view_sales_profit_history", sku_ids=sku_ids, start_date=start_date, end_date=end_date,
                    supplier_id=supplier_id)  # fmt: skip

    def view_current_date_supplier_prices(sku_ids: list[str]) -> dict:
        """View today's supplier quotes (price, transport days) for SKUs.

        Args:
            sku_ids: SKU ids.
        """
        return call("view_current_date_supplier_prices", sku_ids=sku_ids)

    def view_supplier_price_history(
        sku_id: str, start_date: str, end_date: str, supplier_id: str | None = None
    ) -> dict:
        """View past supplier quotes of one SKU over a date range.

        Args:
            sku_id: the SKU id.
            start_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            end_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            supplier_id: only this supplier.
        """
        return call("view_supplier_price_history", sku_id=sku_id, start_date=start_date, end_date=end_date,
                    supplier_id=supplier_id)  # fmt: skip

    def view_sku_avg_ratings(sku_ids: list[str], start_date: str, end_date: str) -> dict:
        """View the average customer review rating per SKU over a date range.

        Args:
            sku_ids: SKU ids.
            start_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            end_date: YYYY-MM-DD or MM/DD/YY (inclusive).
        """
        return call("view_sku_avg_ratings", sku_ids=sku_ids, start_date=start_date, end_date=end_date)

    def view_supplier_returns_avg_rate(
        supplier_id: str, start_date: str, end_date: str, sku_ids: list[str] | None = None
    ) -> dict:
        """View a supplier's return rate (returns / units sold, else ordered) over a date range.

        Args:
            supplier_id: supplier_1 .. supplier_5.
            start_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            end_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            sku_ids: SKU ids (default: all).
        """
        return call("view_supplier_returns_avg_rate", supplier_id=supplier_id, start_date=start_date,
                    end_date=end_date, sku_ids=sku_ids)  # fmt: skip

    return (
        view_sales_profit_history,
        view_current_date_supplier_prices,
        view_supplier_price_history,
        view_sku_avg_ratings,
        view_supplier_returns_avg_rate,
    )


def _news_views(call: Call) -> tuple[Call, ...]:
    """The news tools (offered only when the preset enables news)."""

    def view_today_news() -> dict:
        """View today's news headlines."""
        return call("view_today_news")

    def view_news_detail(news_id: str) -> dict:
        """View one news item in full.

        Args:
            news_id: the id shown by view_today_news.
        """
        return call("view_news_detail", news_id=news_id)

    def view_news_history(start_date: str, end_date: str) -> dict:
        """View past news over a date range.

        Args:
            start_date: YYYY-MM-DD or MM/DD/YY (inclusive).
            end_date: YYYY-MM-DD or MM/DD/YY (inclusive).
        """
        return call("view_news_history", start_date=start_date, end_date=end_date)

    return view_today_news, view_news_detail, view_news_history


def _actions(call: Call) -> tuple[Call, ...]:
    """The tools that act: analysis code, orders, prices, the shelf, notes and ending the day."""

    def execute_code(code: str) -> dict:
        """Run Python analysis code in a sandbox; read-only view_* tools are callable inside.

        Args:
            code: Python source (at most 20,000 characters); the value of a single expression or the variable
                `result` is returned, print() output is captured.
        """
        return call("execute_code", code=code)

    def place_order(items: list[dict], supplier_id: str) -> dict:
        """Order SKUs from one supplier at today's quote; paid now, delivered after the transport days.

        Args:
            items: lines [{"sku_id": str, "quantity": int >= 1}].
            supplier_id: supplier_1 .. supplier_5.
        """
        return call("place_order", items=items, supplier_id=supplier_id)

    def modify_sku_price(sku_id: str, new_price: float) -> dict:
        """Set a SKU's retail price.

        Args:
            sku_id: the SKU id.
            new_price: the new price (> 0).
        """
        return call("modify_sku_price", sku_id=sku_id, new_price=new_price)

    def set_shelf_skus(sku_ids: list[str]) -> dict:
        """Replace the shelf with these SKUs (at most the shelf capacity; only shelved SKUs sell).

        Args:
            sku_ids: SKU ids (may be empty).
        """
        return call("set_shelf_skus", sku_ids=sku_ids)

    def add_note(content: str) -> dict:
        """Save a note for later days.

        Args:
            content: the note text.
        """
        return call("add_note", content=content)

    def remove_note(note_id: str) -> dict:
        """Delete a saved note.

        Args:
            note_id: the note's id.
        """
        return call("remove_note", note_id=note_id)

    def end_today() -> dict:
        """Close the store for today: customers buy, returns and expiries happen, deliveries arrive, rent is paid."""
        return call("end_today")

    return execute_code, place_order, modify_sku_price, set_shelf_skus, add_note, remove_note, end_today


def _with_contracts(functions: dict[str, Call]) -> None:
    """End each tool's description with the original's result contract (as the original's descriptions do)."""
    for name, func in functions.items():
        desc, _, contract = SCHEMAS[name]
        rest = (func.__doc__ or "").split("\n\n", 1)
        func.__doc__ = f"{desc} Returns result as: {contract}." + (f"\n\n{rest[1]}" if len(rest) > 1 else "")


def retail_toolbox(tools: RetailTools) -> Toolbox:
    """A Toolbox over one run's tools (news and review tools only when the preset enables them)."""
    call = _caller(tools)
    groups = (_state_views, _history_views, _news_views, _actions)
    functions = {f.__name__: f for group in groups for f in group(call)}
    _with_contracts(functions)
    return Toolbox([functions[name] for name in tools.names])


def retail_tool_specs(env_tools: RetailTools) -> list:
    """The environment's tools as `ToolSpec`s (for `core.llm_agent.LLMToolAgent(env_tools=...)`)."""
    return retail_toolbox(env_tools).specs
