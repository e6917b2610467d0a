"""Four-stage diagnostics of a RetailBench run (seed 004 §5, notes §9.2) and strategy instability (seed 001, §9.4).

Input is a *trace*: the run's tool calls in order, each a `ToolRecord` (day, tool, arguments, ok, source, result);
`end_today` records carry their result (sales, stockouts, returns, expiries by SKU). Our runs give it from the
recorded transitions (`trace_from_transitions`), imported original runs from `tool_calls.jsonl`.

The original's tool→evidence mapping is unpublished; ours (`EVIDENCE`) is below. A query is *global* (relevant to
every SKU) when the tool takes no SKU argument (funds, inventory, shelf, notes, news) or when a SKU-list tool
is called without SKUs. Required evidence before an action (the paper's definition):
R(place_order) = {inventory, recent_sales, supplier_prices, quality_proxy};
R(modify_sku_price) = {current_price, cost, inventory, recent_sales}.

Stage 3 needs what the agent could not see (hidden supplier quality) and a reference price; it takes them as
arguments (`quotes`, `reference_price`), so the same code scores our runs and imported ones.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

FOLLOWUP_DAYS = 7
HIGH_DEMAND_LOOKBACK = 3
HIGH_DEMAND_TOP_K = 10
ACTIONS = ("place_order", "modify_sku_price")

EVIDENCE: dict[str, frozenset[str]] = {
    "view_inventory": frozenset({"inventory"}),
    "view_sku_inventory_cost": frozenset({"inventory", "cost"}),
    "view_shelf_status": frozenset({"inventory", "current_price"}),
    "view_sku_prices": frozenset({"current_price"}),
    "view_sales_profit_history": frozenset({"recent_sales"}),
    "view_current_date_supplier_prices": frozenset({"supplier_prices", "cost"}),
    "view_supplier_price_history": frozenset({"supplier_prices", "cost"}),
    "view_sku_avg_ratings": frozenset({"quality_proxy"}),
    "view_supplier_returns_avg_rate": frozenset({"quality_proxy"}),
    "view_today_news": frozenset({"news"}),
    "view_news_detail": frozenset({"news"}),
    "view_news_history": frozenset({"news"}),
    "view_funds_and_date": frozenset({"funds"}),
    "view_notes": frozenset({"memory"}),
}
GLOBAL_TOOLS = frozenset({"view_funds_and_date", "view_inventory", "view_shelf_status", "view_notes",
                          "view_today_news", "view_news_detail", "view_news_history"})  # fmt: skip
REQUIRED: dict[str, frozenset[str]] = {
    "place_order": frozenset({"inventory", "recent_sales", "supplier_prices", "quality_proxy"}),
    "modify_sku_price": frozenset({"current_price", "cost", "inventory", "recent_sales"}),
}


@dataclass(frozen=True)
class ToolRecord:
    """One tool call of a run."""

    day: int
    tool: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    ok: bool = True
    source: str = "direct"
    result: Any = None


def query_skus(record: ToolRecord) -> set[str] | None:
    """SKUs a query is about; None for a global query (relevant to every SKU)."""
    if record.tool in GLOBAL_TOOLS:
        return None
    args = record.arguments or {}
    skus: set[str] = set()
    if isinstance(args.get("sku_ids"), list):
        skus |= {str(s) for s in args["sku_ids"]}
    if isinstance(args.get("sku_id"), str):
        skus.add(args["sku_id"])
    return skus or None


def acted_skus(record: ToolRecord) -> list[str]:
    args = record.arguments or {}
    if record.tool == "place_order":
        return [
            str(it.get("sku_id"))
            for it in args.get("items") or []
            if isinstance(it, dict) and it.get("sku_id")
        ]
    if record.tool == "modify_sku_price" and isinstance(args.get("sku_id"), str):
        return [args["sku_id"]]
    return []


SKU_REPR = re.compile(r"SKU ID:\s*([^\s,]+)")


def stockout_skus(values: Any) -> list[str]:
    """SKU ids of an end_today `insufficient_skus` list: ids (ours) or the original's repr strings
    ("SKU Info:\n  SKU ID: <id>\n  Attributes: {...}")."""
    out = []
    for v in values or []:
        text = str(v)
        m = SKU_REPR.search(text)
        out.append(m.group(1) if m else text.strip())
    return [s for s in out if s]


def _day_outcomes(records: Sequence[ToolRecord]) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for r in records:
        if r.tool == "end_today" and r.ok and isinstance(r.result, dict):
            res = r.result
            out[r.day] = {
                "sales": {k: int(v) for k, v in (res.get("sales_by_sku") or {}).items() if int(v) > 0},
                "stockouts": stockout_skus(res.get("insufficient_skus")),
                "returns": [k for k, v in (res.get("returns_by_sku") or {}).items() if int(v) > 0],
                "expired": [k for k, v in (res.get("expired_discount_by_sku") or {}).items() if int(v) > 0],
            }
    return out


def _mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return sum(vals) / len(vals) if vals else None


def four_stage(
    records: Sequence[ToolRecord],
    *,
    quotes: Callable[[int, str], Sequence[Mapping[str, Any]]] | None = None,
    reference_price: Callable[[int, str], float | None] | None = None,
    proxy_best: Callable[[int, str], str | None] | None = None,
) -> dict[str, float | None]:
    """The four-stage metrics of one run (None where a metric has nothing to average).

    `quotes(day, sku)` -> [{supplier_id, price, quality}] (hidden quality: for QualityFirst, SupplierQual);
    `reference_price(day, sku)` -> the reference optimum p* for PriceCorr/price distance;
    `proxy_best(day, sku)` -> the supplier best by visible evidence, for OrderCorr.
    """
    outcomes = _day_outcomes(records)
    n_days = max([d for d, o in outcomes.items() if o["sales"]] + [len(outcomes), 1])
    trace = _trace(records)
    out: dict[str, float | None] = {"days": float(n_days), "action_events": float(len(trace.events))}
    out.update(_stage1(trace, outcomes, n_days))
    out.update(_stage2(trace))
    out.update(_stage3(trace.events, quotes, reference_price, proxy_best))
    out["s3_invalid_or_blocked_action_rate"] = (
        1 - trace.executed / trace.attempted if trace.attempted else None
    )
    out.update(_stage4(trace, outcomes, n_days))
    return out


@dataclass(frozen=True)
class _Trace:
    """A run's actions read against its queries: one event per executed action and SKU (with the evidence
    queried before it that day), the actions attempted and executed, and the SKUs acted on and queried per day."""

    events: list[dict]
    attempted: int
    executed: int
    acted: dict[int, set[str]]
    queried: dict[int, set[str]]


def _trace(records: Sequence[ToolRecord]) -> _Trace:
    """Walk the calls in order, pairing each executed action's SKUs with the same day's earlier queries."""
    queries_by_day: dict[int, list[tuple[int, ToolRecord]]] = {}
    events: list[dict] = []  # executed action x SKU
    attempted = executed = 0
    acted: dict[int, set[str]] = {}
    queried: dict[int, set[str]] = {}
    for idx, r in enumerate(records):
        if r.tool in EVIDENCE:
            queries_by_day.setdefault(r.day, []).append((idx, r))
            skus = query_skus(r)
            if skus:
                queried.setdefault(r.day, set()).update(skus)
        elif r.tool in ACTIONS:
            attempted += 1
            if not r.ok:
                continue
            executed += 1
            for sku in acted_skus(r):
                events.append(_event(idx, r, sku, queries_by_day.get(r.day, [])))
                acted.setdefault(r.day, set()).add(sku)
    return _Trace(events, attempted, executed, acted, queried)


def _event(idx: int, r: ToolRecord, sku: str, queries: list[tuple[int, ToolRecord]]) -> dict:
    """One action on one SKU: its evidence depth, whether any query backs it, the gap to the last one and the
    number of distinct tools queried before it."""
    relevant = [(i, q) for i, q in queries if query_skus(q) is None or sku in query_skus(q)]  # type: ignore[operator]
    cats = set().union(*(EVIDENCE[q.tool] for _, q in relevant)) if relevant else set()
    need = REQUIRED[r.tool]
    return {
        "day": r.day, "sku": sku, "tool": r.tool, "index": idx, "record": r,
        "depth": len(cats & need) / len(need), "matched": bool(relevant),
        "gap": idx - relevant[-1][0] if relevant else None,
        "diversity": len({q.tool for _, q in relevant}),
    }  # fmt: skip


def _stage1(trace: _Trace, outcomes: dict[int, dict], n_days: int) -> dict[str, float | None]:
    """Stage 1, attention: SKUs acted on, their later sales, high-demand SKUs missed, concentration."""
    events, acted = trace.events, trace.acted
    out: dict[str, float | None] = {}
    out["s1_avg_acted_skus_per_day"] = sum(len(v) for v in acted.values()) / n_days
    out["s1_total_distinct_acted_skus"] = float(len(set().union(*acted.values()))) if acted else 0.0
    sold_days: dict[str, set[int]] = {}
    for d, o in outcomes.items():
        for sku in o["sales"]:
            sold_days.setdefault(sku, set()).add(d)
    out["s1_action_to_sales_overlap_7d"] = _mean(
        float(any(e["day"] <= s <= e["day"] + FOLLOWUP_DAYS for s in sold_days.get(e["sku"], ())))
        for e in events
    )
    missed = total = 0
    for d, o in outcomes.items():
        top = sorted(o["sales"], key=lambda k: (-o["sales"][k], k))[:HIGH_DEMAND_TOP_K]
        high = set(top) | set(o["stockouts"])
        window = set().union(*(acted.get(t, set()) for t in range(max(1, d - HIGH_DEMAND_LOOKBACK), d + 1)))
        total += len(high)
        missed += len(high - window)
    out["s1_missed_high_demand_rate"] = missed / total if total else None
    out["high_demand_coverage"] = 1 - missed / total if total else None
    counts: dict[str, int] = {}
    for e in events:
        counts[e["sku"]] = counts.get(e["sku"], 0) + 1
    n = sum(counts.values())
    out["s1_action_concentration_hhi"] = sum((c / n) ** 2 for c in counts.values()) if n else None
    return out


def _stage2(trace: _Trace) -> dict[str, float | None]:
    """Stage 2, evidence: how much of the needed evidence was queried before each action, and how closely."""
    events = trace.events
    out: dict[str, float | None] = {"s2_query_depth": _mean(e["depth"] for e in events)}
    for tool, key in (
        ("place_order", "s2_place_order_query_depth"),
        ("modify_sku_price", "s2_modify_price_query_depth"),
    ):
        out[key] = _mean(e["depth"] for e in events if e["tool"] == tool)
    out["s2_evidence_action_match_rate"] = _mean(float(e["matched"]) for e in events)
    missing = _mean(float(e["depth"] < 1) for e in events)
    out["s2_missing_critical_evidence_rate"] = missing
    out["evidence_completeness"] = None if missing is None else 1 - missing
    out["s2_avg_evidence_call_gap"] = _mean(e["gap"] for e in events if e["gap"] is not None)
    out["s2_avg_pre_action_tool_diversity"] = _mean(e["diversity"] for e in events)
    q_total = sum(len(v) for v in trace.queried.values())
    out["s2_query_to_action_overlap_same_day"] = (
        sum(len(v & trace.acted.get(d, set())) for d, v in trace.queried.items()) / q_total
        if q_total
        else None
    )
    return out


def _stage4(trace: _Trace, outcomes: dict[int, dict], n_days: int) -> dict[str, float | None]:
    """Stage 4, follow-up: later actions on the same SKU, responses to stock-outs, returns and expiries within
    a week, and day-to-day focus."""
    events, acted = trace.events, trace.acted
    attention: dict[str, set[int]] = {}
    for d, skus in acted.items():
        for s in skus:
            attention.setdefault(s, set()).add(d)
    attention_q = {s: set(v) for s, v in attention.items()}
    for d, skus in trace.queried.items():
        for s in skus:
            attention_q.setdefault(s, set()).add(d)
    out: dict[str, float | None] = {}
    out["s4_followup_action_rate_7d"] = _mean(
        float(
            any(t in attention.get(e["sku"], ()) for t in range(e["day"] + 1, e["day"] + FOLLOWUP_DAYS + 1))
        )
        for e in events
    )
    delayed = [
        (d, s)
        for d, o in sorted(outcomes.items())
        for key in ("stockouts", "returns", "expired")
        for s in o[key]
    ]

    def attended(sku: str, lo: int, hi: int) -> int | None:
        for t in range(lo, hi + 1):
            if t in attention_q.get(sku, ()):
                return t
        return None

    firsts = [attended(s, d + 1, d + FOLLOWUP_DAYS) for d, s in delayed]
    unresolved = _mean(float(f is None) for f in firsts)
    out["s4_unresolved_event_rate_7d"] = unresolved
    out["resolved_event_rate"] = None if unresolved is None else 1 - unresolved
    out["s4_avg_response_latency_days"] = _mean(
        f - d for f, (d, _) in zip(firsts, delayed, strict=True) if f is not None
    )
    jac = [_jaccard(acted.get(t - 1, set()), acted.get(t, set())) for t in range(2, n_days + 1)
           if acted.get(t - 1) or acted.get(t)]  # fmt: skip
    out["s4_focus_continuity_jaccard"] = _mean(jac)
    return out


def _stage3(events, quotes, reference_price, proxy_best) -> dict[str, float | None]:
    orders = [e for e in events if e["tool"] == "place_order"]
    prices = [e for e in events if e["tool"] == "modify_sku_price"]
    q_first, p_first, q_rank, correct_o, eval_o = [], [], [], 0, 0
    if quotes is not None:
        for e in orders:
            rows = list(quotes(e["day"], e["sku"]))
            chosen = (e["record"].arguments or {}).get("supplier_id")
            if not rows or chosen not in {r["supplier_id"] for r in rows}:
                continue
            by_price = sorted(rows, key=lambda r: (r["price"], r["supplier_id"]))
            by_quality = sorted(rows, key=lambda r: (-r["quality"], r["price"], r["supplier_id"]))
            p_first.append(float(by_price[0]["supplier_id"] == chosen))
            q_first.append(float(by_quality[0]["supplier_id"] == chosen))
            q_rank.append(1 + [r["supplier_id"] for r in by_quality].index(chosen))
    if proxy_best is not None:
        for e in orders:
            best = proxy_best(e["day"], e["sku"])
            if best is not None:
                eval_o += 1
                correct_o += int(best == (e["record"].arguments or {}).get("supplier_id"))
    dist, correct_p, eval_p = [], 0, 0
    if reference_price is not None:
        for e in prices:
            ref = reference_price(e["day"], e["sku"])
            p = (e["record"].arguments or {}).get("new_price")
            if ref is None or ref <= 0 or not isinstance(p, int | float):
                continue
            eval_p += 1
            correct_p += int(0.9 * ref <= p <= 1.1 * ref)
            if p <= 50:
                dist.append(100 * abs(p - ref) / ref)
    k = 5
    rank = _mean(q_rank)
    return {
        "s3_supplier_quality_first_rate": _mean(q_first),
        "s3_supplier_price_first_rate": _mean(p_first),
        "s3_supplier_quality_rank_mean": rank,
        "supplier_quality_score": None if rank is None else min(max((k - rank) / (k - 1), 0.0), 1.0),
        "s3_modify_price_distance_pct_mean": _mean(dist),
        # the paper's ActionCorr pools OrderCorr and PriceCorr; with no order evaluated (no proxy-best supplier:
        # its definition is unpublished) it would hold price corrections only, so it is left empty then
        "s3_order_correction_rate": correct_o / eval_o if eval_o else None,
        "s3_price_correction_rate": correct_p / eval_p if eval_p else None,
        "s3_action_correction": (correct_o + correct_p) / (eval_o + eval_p) if eval_o else None,
        "s3_place_order_eval_count": float(len(q_first)),
        "s3_modify_price_eval_count": float(eval_p),
    }


def price_closeness(distances: Mapping[str, float | None]) -> dict[str, float | None]:
    """PriceClose per run: clip(1 - d / max d over the compared runs, 0, 1) (runs without prices: None)."""
    known = [d for d in distances.values() if d is not None]
    top = max(known) if known else 0.0
    return {
        k: (None if d is None else (1.0 if top == 0 else min(max(1 - d / top, 0.0), 1.0)))
        for k, d in distances.items()
    }


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def _items(value: Any) -> set[str]:
    return {json.dumps(v, sort_keys=True) if isinstance(v, dict | list) else str(v) for v in value or []}


def execution_similarity(prev: Mapping[str, Any], cur: Mapping[str, Any],
                         fields: Sequence[str] = ("focus_skus", "sku_supplier_mapping", "news_to_monitor",
                                                  "sku_to_monitor")) -> float:  # fmt: skip
    """Mean over the fields of the set Jaccard between two execution strategies (seed 001)."""
    return sum(_jaccard(_items(prev.get(f)), _items(cur.get(f))) for f in fields) / len(fields)


def instability(similarities: Sequence[float]) -> dict[str, float | None]:
    """Std_diff (population std of the first differences), MAC (mean |diff|), TV (sum |diff|)."""
    if len(similarities) < 2:
        return {"std_diff": None, "mac": None, "tv": None}
    diffs = [b - a for a, b in zip(similarities, similarities[1:], strict=False)]
    return {"std_diff": statistics.pstdev(diffs), "mac": sum(abs(d) for d in diffs) / len(diffs),
            "tv": sum(abs(d) for d in diffs)}  # fmt: skip


MACRO_NEEDS_KEY = (
    "macro level needs an LLM key: an LLM judge rates the similarity of adjacent days' macro "
    "strategies; not computed (no substitute is used)"
)


def strategy_instability(
    strategy_log: Sequence[Mapping[str, Any]],
    *,
    macro_judge: Callable[[list[str], list[str]], float | None] | None = None,
) -> dict[str, Any]:
    """Adjacent-day similarities and their instability at the execution level (Jaccard) and, with a judge
    (an LLM, when a key is present), the macro level. Without a judge the macro part says it needs a key; pairs
    the judge could not score are left out of the macro instability and counted."""
    log = sorted(strategy_log, key=lambda s: s["day"])
    ex = [
        execution_similarity(a["execute_strategy"], b["execute_strategy"])
        for a, b in zip(log, log[1:], strict=False)
    ]
    out: dict[str, Any] = {"execution_similarity": ex, "execution": instability(ex)}
    if macro_judge is None:
        out["macro"] = {"std_diff": None, "mac": None, "tv": None}
        out["macro_note"] = MACRO_NEEDS_KEY
    else:
        mac = [
            macro_judge(list(a["macro_strategy"]), list(b["macro_strategy"]))
            for a, b in zip(log, log[1:], strict=False)
        ]
        out["macro_similarity"] = mac
        out["macro"] = instability([float(m) for m in mac if m is not None])
        out["macro_unscored"] = sum(1 for m in mac if m is None)
    return out


def trace_from_transitions(rows: Iterable[Any]) -> list[ToolRecord]:
    """ToolRecords from recorded rollout transitions (`action` {name, arguments}, observation, info).

    The day of a call is the number of days closed before it, plus one; `end_today` belongs to the day it closes.
    The read tools an `execute_code` call ran (`info.code_calls`) come before it with source `execute_code`, as
    the original logs them, so they count as queries; an imported row keeps its `info.source`.
    """
    out: list[ToolRecord] = []
    day = 1
    for row in rows:
        action = _get(row, "action")
        obs = _get(row, "observation")
        info = _get(row, "info") if _has(row, "info") else None
        if isinstance(info, str):
            try:
                info = json.loads(info)
            except json.JSONDecodeError:
                info = None
        info = info if isinstance(info, dict) else {}
        for inner in info.get("code_calls") or []:
            if isinstance(inner, dict):
                inner_args = inner.get("arguments")
                out.append(ToolRecord(day, str(inner.get("tool")), inner_args if isinstance(inner_args, dict) else {},
                                      bool(inner.get("ok", True)), "execute_code"))  # fmt: skip
        if isinstance(action, str):
            try:
                action = json.loads(action)
            except json.JSONDecodeError:
                action = {"name": None}
        if isinstance(obs, str):
            try:
                obs = json.loads(obs)
            except json.JSONDecodeError:
                obs = {}
        name = action.get("name") if isinstance(action, dict) else None
        result = obs.get("result") if isinstance(obs, dict) else None
        ok = not (isinstance(result, dict) and result.get("error"))
        args = (
            action.get("arguments")
            if isinstance(action, dict) and isinstance(action.get("arguments"), dict)
            else {}
        )
        source = str(info.get("source") or "direct")
        out.append(ToolRecord(day, str(name), args, ok, source, result if name == "end_today" else None))
        if name == "end_today" and ok:
            day += 1
    return out


def ordered_lot_quality(rows: Iterable[Any]) -> dict[str, float | None]:
    """Stage 3 of an imported original run from the hidden `quality_score` (1-5) that the original's successful
    `place_order` results carry per order line: the mean quality of the lots bought, that mean on 0-1
    ((q - 1) / 4), and how many lines carried it. Only the ordered supplier's quality is known, so the
    paper's rank-based QualityFirst and SupplierQual stay for runs with every quote's quality (ours)."""
    scores = []
    for row in rows:
        action, obs = _get(row, "action"), _get(row, "observation")
        action = json.loads(action) if isinstance(action, str) else action
        obs = json.loads(obs) if isinstance(obs, str) else obs
        if not isinstance(action, dict) or action.get("name") != "place_order" or not isinstance(obs, dict):
            continue
        result = obs.get("result")
        if not isinstance(result, dict) or result.get("error") or not isinstance(result.get("lines"), list):
            continue
        for line in result["lines"]:
            q = line.get("quality_score") if isinstance(line, dict) else None
            if isinstance(q, int | float) and not isinstance(q, bool) and math.isfinite(q):
                scores.append(float(q))
    mean = _mean(scores)
    return {"s3_ordered_lot_quality_mean": mean,
            "s3_ordered_lot_quality_score": None if mean is None else min(max((mean - 1) / 4, 0.0), 1.0),
            "s3_ordered_lot_quality_eval_count": float(len(scores))}  # fmt: skip


def _has(row: Any, key: str) -> bool:
    return key in row if isinstance(row, Mapping) else hasattr(row, key)


def _get(row: Any, key: str) -> Any:
    return row[key] if isinstance(row, Mapping) else getattr(row, key)


def finite(metrics: Mapping[str, Any]) -> dict[str, float]:
    """Only the finite numbers (for stores and charts)."""
    return {k: float(v) for k, v in metrics.items() if isinstance(v, int | float) and math.isfinite(v)}
