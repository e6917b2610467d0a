"""Benchmark metrics for repair runs (the shape of OptiRepair Tables 4, 5 and 9).

Per problem (from `LPRepairEnv.episode_metrics`): recovered (OPTIMAL at the end), rational (recovered and
every applicable check passes), first_optimal_step, steps, loops, reward, diagnosis recall/precision of the
rows the repair actions touched against the initial IIS (None for ME-5, which has no IIS), tokens.

RR = mean(recovered); RRR = mean(rational); P2Pass = RRR / RR (None when RR = 0); RR@k = share recovered
with first_optimal_step <= k (a step budget, not pass@k; RR@20 = RR under the 20-step budget).
By construction RRR <= RR and P2Pass * RR = RRR. `exact` (ours) = share whose final model equals the
ground-truth repair (same rows, bounds, coefficients, costs): it separates true repairs from edits the
oracle merely accepts. Per judge (`solvers.lp.oracle.Judge`): `rrr_paper` (= RRR, Table 8's checks) and
`rrr_strict` (those plus the demand link between echelons, from the row's `rational_strict`).
"""

from __future__ import annotations

from collections import defaultdict
from statistics import mean
from typing import Any

from solvers.lp.oracle import Judge

KS = (5, 10, 15, 20)


def _mean(values: list[float]) -> float | None:
    return round(mean(values), 4) if values else None


JUDGE_KEY: dict[Judge, str] = {Judge.PAPER: "rational", Judge.STRICT: "rational_strict"}
BOTH = (Judge.PAPER, Judge.STRICT)


def summarize_rows(rows: list[dict[str, Any]], judges: tuple[Judge, ...] = BOTH) -> dict[str, Any]:
    """RR, RRR, rrr_<judge> per judge, P2Pass, RR@k, diagnosis P/R, steps, reward and tokens over `rows`."""
    n = len(rows)
    if n == 0:
        return {"n": 0}
    rr = sum(bool(r["recovered"]) for r in rows) / n
    rrr = sum(bool(r["rational"]) for r in rows) / n
    out: dict[str, Any] = {
        "n": n,
        "RR": round(rr, 4),
        "RRR": round(rrr, 4),
        **{f"rrr_{j.value}": round(sum(bool(r.get(JUDGE_KEY[j])) for r in rows) / n, 4) for j in judges},
        "P2Pass": round(rrr / rr, 4) if rr > 0 else None,
        "exact": round(sum(bool(r.get("exact_repair")) for r in rows) / n, 4),
    }
    for k in KS:
        hits = sum(
            bool(r["recovered"]) and r.get("first_optimal_step") is not None and r["first_optimal_step"] <= k
            for r in rows
        )
        out[f"RR@{k}"] = round(hits / n, 4)
    out["diagnosis_recall"] = _mean(
        [r["diagnosis_recall"] for r in rows if r.get("diagnosis_recall") is not None]
    )
    out["diagnosis_precision"] = _mean(
        [r["diagnosis_precision"] for r in rows if r.get("diagnosis_precision") is not None]
    )
    out["steps"] = _mean([float(r["steps"]) for r in rows])
    out["reward"] = _mean([float(r["reward"]) for r in rows])
    out["tokens"] = _mean([float(r.get("tokens", 0) or 0) for r in rows])
    return out


def summarize(rows: list[dict[str, Any]], judges: tuple[Judge, ...] = BOTH) -> dict[str, Any]:
    """Overall and per-error-type summaries."""
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_type[r["error_type"]].append(r)
    order = sorted(by_type, key=lambda k: int(k.split("-")[1]))
    return {
        "overall": summarize_rows(rows, judges),
        "by_type": {k: summarize_rows(by_type[k], judges) for k in order},
    }


REAL_FIELDS = (
    "problem_id",
    "size",
    "recovered",
    "verified_status",
    "changed",
    "changed_rows",
    "changed_bounds",
    "reference_fewest",
    "reference_proven",
    "fewest",
    "steps",
    "seconds",
)


def summarize_real(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The real track: share recovered (verified feasible), share with at most the reference's changes, and
    per model recovered, changes and the own-model tool's fewest (proven or best found)."""
    n = len(rows)
    return {
        "overall": {
            "n": n,
            "recovered": round(sum(bool(r["recovered"]) for r in rows) / n, 4) if n else None,
            "fewest": round(sum(bool(r["fewest"]) for r in rows) / n, 4) if n else None,
            "steps": _mean([float(r["steps"]) for r in rows]),
        },
        "models": [{k: r.get(k) for k in REAL_FIELDS} for r in rows],
    }
