"""The two harnesses of the RetailBench LLM frameworks and the pieces of the `paper` one (`docs/retailbench.md`,
"LLM harnesses").

`orca` is ORCA's tool loop (native tool calls, one environment action per reply, a 24-turn history window whose
opening message — status, catalogue, framework memory — is always resent). `paper` follows the original
runners (`shared/notes/retailbench.md` §7): `<tool_call>` blocks parsed from plain text, every call of a turn
run in order, a day of at most 50 turns, the day's status message appended at the end of every request, history
trimmed only once a request passed `max_input_tokens`, five invalid turns in a row close the day, the
multi-line `end_today` report, and one token file per day. The loop itself is `frameworks.RetailLLMAgent`'s.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from core.errors import SpecError
from core.llm.types import ToolSpec

MAX_INPUT_TOKENS = 50_000  # the original runners' CLI default
INVALID_TURN_LIMIT = 5
NO_VALID_CALL = "No valid tool call detected. Continue, or call end_today."
STATUS_TOOLS = ("view_funds_and_date", "view_shelf_status")


class Harness(StrEnum):
    """How an LLM framework talks to the model; stored in every run's config."""

    ORCA = "orca"
    PAPER = "paper"


HARNESSES = tuple(h.value for h in Harness)


def harness_of(value: Any) -> Harness:
    """`value` as a `Harness` (None: orca); an unknown name is a `SpecError` naming the choices."""
    if value is None:
        return Harness.ORCA
    try:
        return Harness(str(value).strip().lower())
    except ValueError:
        raise SpecError("harness", f"choose {' or '.join(HARNESSES)}; got {value!r}") from None


def tools_block(specs: Sequence[ToolSpec]) -> str:
    """The tool list and call format of the system prompt: one JSON schema per line inside <tools>."""
    lines = [json.dumps({"type": "function", "function": {"name": s.name, "description": s.description,
                                                           "parameters": s.parameters}}) for s in specs]  # fmt: skip
    return (
        "# Tools\n\nYou may call one or more of these tools in a reply. Their signatures:\n<tools>\n"
        + "\n".join(lines)
        + "\n</tools>\n\nWrite each call as a JSON object with the tool's name and arguments inside tags:\n"
        '<tool_call>\n{"name": <tool name>, "arguments": <JSON object>}\n</tool_call>\n'
        "Several calls in one reply run in the order written; their results come back in the next message."
    )


def catalogue(products: Sequence[dict]) -> str:
    """The SKU block of the day message: per category, one line per SKU with id, shelf life and description."""
    by_cat: dict[str, list[str]] = {}
    for p in products:
        by_cat.setdefault(p["category"], []).append(
            f"SKU_id: {p['sku_id']}, Expiration_Days: {p['shelf_life_days']}, Desc: {p['description']}, "
            f"Category: {p['category']}"
        )
    head = "The store's products (shelf life in days):"
    return head + "\n" + "\n".join(f"## Category: {c}\n" + "\n".join(rows) for c, rows in by_cat.items())


def _pairs(values: Any) -> str:
    if not isinstance(values, dict) or not values:
        return "none"
    return ", ".join(f"{k}={v}" for k, v in values.items())


def end_today_report(result: dict) -> str:
    """The original's multi-line `end_today` report, built from our `end_today` payload."""
    inv = result.get("inventory") if isinstance(result.get("inventory"), dict) else {}
    items = inv.get("inventory") if isinstance(inv.get("inventory"), dict) else {}
    stockouts = result.get("insufficient_skus") or []
    orders = result.get("pending_orders") or []
    lines = [
        f"Current Date: {result.get('current_date')}",
        f"Current Funds: {float(result.get('funds', 0.0)):.2f}",
        f"Current Networth: {float(result.get('net_worth', 0.0)):.2f}",
        f"Money earned yesterday: {float(result.get('money_earned', 0.0)):.2f}",
        f"Inventory: {inv.get('total_items', 0)} units of {inv.get('total_skus', 0)} SKUs on hand",
        f"Insufficient SKUs: {', '.join(map(str, stockouts))}" if stockouts else "No stockouts today.",
        f"Sales by SKU: {_pairs(result.get('sales_by_sku'))}",
        f"Returns by SKU: {_pairs(result.get('returns_by_sku'))}",
        f"Expired clearance sold: {_pairs(result.get('expired_discount_by_sku'))}",
        f"Capacity-waiting SKU Items: {result.get('waiting_items', 0)}",
        f"Pending supplier orders: {len(orders)}"
        + "".join(
            f"\n  - {o.get('order_id')} from {o.get('supplier_id')}: {_pairs(o.get('ordered_sku'))}, "
            f"arrives {o.get('expected_delivery_date')}"
            for o in orders[:10]
        ),  # fmt: skip
        "Inventory details:"
        + "".join(
            f"\n  - {sku}: quantity {v.get('quantity')}, waiting {v.get('waiting')}, incoming "
            f"{v.get('incoming')}, on shelf {v.get('on_shelf')}"
            for sku, v in list(items.items())[:10]
        ),  # fmt: skip
    ]
    return "\n".join(lines)


def token_file(day: int, current_date: str | None, prompt_tokens: int, completion_tokens: int) -> dict:
    """One `day_<d>_token_usage.json` in the original's fields (cached tokens: not reported by our adapters)."""
    return {"day": day, "current_date": current_date, "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens,
            "cached_prompt_tokens": 0, "uncached_prompt_tokens": prompt_tokens,
            "timestamp": datetime.now(UTC).isoformat()}  # fmt: skip
