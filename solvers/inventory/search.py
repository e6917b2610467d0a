"""Policy search by simulation: the full (s,S) grid (seed 000 §2.3) and the other heuristic families.

All four heuristic families are one generalised rule, so one vectorised kernel evaluates them all:
`q = min((S - IP)+ · 1{IP < s}, cap)`, then truncated to `counted + q <= max_inventory` (the capacity basis
of `period.counted_stock`): (s,S) is `(s, S, max_order)`, capped base-stock `(S, S, cap)`, constant q
`(top + 1, top, q)` and (R,Q) `(R, top, Q)`, where `top` is `max_inventory` on the position basis (the rule's
own `S - IP` is then the capacity room) and `max_on_hand + max_order` on the on-hand basis (the rule never
binds; the on-hand room does). Every candidate sees the same demand matrix (common random numbers); the
state is a small-integer array of shape (candidates, paths) processed in cache-sized chunks on two threads.
The in-sample winner is biased low (winner's curse), so the top candidates are re-evaluated on fresh
paths and the winner is picked there by `L(π) = E + exp(-λ)·Std`.
The kernel is a specialised, in-place form of `period.period` (same truncation, cutoff, event order,
transitions and costs), pinned to it by a property test over random start states, rules and demands.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

import numpy as np

from core.errors import SpecError
from solvers.inventory.montecarlo import PolicyEvaluation, Progress, demand_matrix, evaluate_policies
from solvers.inventory.period import cut_off
from solvers.inventory.policies import BaseStockPolicy, ConstantPolicy, RQPolicy, SSPolicy
from solvers.inventory.spec import CapacityBasis, InventoryProblem

CHUNK = 96
MAX_RULES = 5_000_000  # candidates of one family (the (s,S) grid of max_inventory 3,160)
MAX_GRID_WORK = 30_000_000_000  # candidates × paths × periods simulated; about 45 s on 2 idle cores
MAX_CHUNK_BYTES = 2_000_000_000  # the state arrays of the chunks in flight
FAMILY_LABELS = {
    "sS": "(s,S)",
    "base_stock": "capped base-stock",
    "constant": "constant-order",
    "rQ": "(R,Q)",
}


def _dtype(problem: InventoryProblem, demand: np.ndarray) -> type:
    d_max = int(demand.max(initial=0))
    state = _top(problem) + d_max + (0 if problem.lost_sales else problem.time_horizon * d_max)
    bound = problem.time_horizon * state
    return np.int16 if bound < 32_000 else np.int32 if bound < 2**31 - 1 else np.int64


def _chunk(
    problem: InventoryProblem,
    demand: np.ndarray,
    s,
    S,
    cap,
    cutoff: bool,
    dtype,
    start: tuple[int, tuple[int, ...]] | None = None,
) -> np.ndarray:
    """Per-candidate, per-path total cost for one chunk of (s, S, cap) columns `(P, 1)`, from the start state
    `(initial_inventory, empty pipeline)` or `start = (on_hand, (x1..xL))`."""
    p = problem
    n, horizon = demand.shape
    P, L = len(s), p.lead_time
    d_all = demand.astype(dtype)
    on_hand = np.full((P, n), p.initial_inventory if start is None else start[0], dtype=dtype)
    ip = on_hand.copy()
    ring = np.zeros((max(L, 1), P, n), dtype=dtype)
    if start is not None and L:
        ring[:] = np.asarray(start[1], dtype=dtype)[:, None, None]  # ring[t % L] arrives in period t
        ip += ring.sum(axis=0, dtype=dtype)
    orders, held, short = (np.zeros((P, n), dtype=dtype) for _ in range(3))
    q, avail, tmp = (np.empty((P, n), dtype=dtype) for _ in range(3))
    trig = np.empty((P, n), dtype=bool)
    on_hand_basis = p.capacity_basis is CapacityBasis.ON_HAND and L >= 1
    # with S <= max_inventory the rule alone keeps `counted + q <= IP + q <= S` within the capacity
    room_binds = bool((p.max_inventory < S).any())
    for t in range(horizon):
        if cutoff and cut_off(p, t):
            q.fill(0)
        else:
            np.less(ip, s, out=trig)
            np.subtract(S, ip, out=q)
            if room_binds and on_hand_basis:
                np.add(on_hand, ring[t % L], out=tmp)  # on-hand after this period's delivery
                np.subtract(p.max_inventory, tmp, out=tmp)
                np.minimum(q, tmp, out=q)
            elif room_binds:
                np.minimum(q, p.max_inventory - ip, out=q)
            np.minimum(q, cap, out=q)
            np.maximum(q, 0, out=q)
            np.multiply(q, trig, out=q)
            orders += q > 0
        if L == 0:
            np.add(on_hand, q, out=avail)
        else:
            np.add(on_hand, ring[t % L], out=avail)
            ring[t % L] = q
        ip += q
        d = d_all[:, t]
        if p.lost_sales:
            np.minimum(avail, d, out=tmp)  # units sold
            np.subtract(avail, tmp, out=on_hand)
            np.subtract(d, tmp, out=tmp)  # units lost
            short += tmp
            held += on_hand
            if p.perishable:
                ip -= on_hand
                on_hand.fill(0)
            ip -= d
            ip += tmp
        else:
            np.subtract(avail, d, out=tmp)
            np.maximum(tmp, 0, out=on_hand)
            held += on_hand
            np.minimum(tmp, 0, out=on_hand)
            short -= on_hand
            if not p.perishable:
                np.copyto(on_hand, tmp)
            ip -= avail
            ip += on_hand
    return p.setup_cost * orders + p.holding_cost * held.astype(float) + p.penalty_cost * short.astype(float)


def evaluate_rules(
    problem: InventoryProblem,
    s: np.ndarray,
    S: np.ndarray,
    cap: np.ndarray,
    demand: np.ndarray,
    *,
    cutoff: bool = False,
    progress: Progress | None = None,
    threads: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and std (across paths) of the total horizon cost for each rule `(s[i], S[i], cap[i])`."""
    s, S, cap = (np.asarray(x, dtype=np.int64).reshape(-1) for x in (s, S, cap))
    dtype = _dtype(problem, demand)
    means, stds = np.empty(len(s)), np.empty(len(s))
    starts = list(range(0, len(s), CHUNK))

    def run(i: int) -> None:
        j = slice(i, i + CHUNK)
        cols = [x[j, None].astype(dtype) for x in (s, S, cap)]
        costs = _chunk(problem, demand, *cols, cutoff, dtype)
        means[j] = costs.mean(axis=1)
        stds[j] = costs.std(axis=1, ddof=1) if costs.shape[1] > 1 else 0.0

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        futures = [pool.submit(run, i) for i in starts]
        for done, future in enumerate(as_completed(futures), start=1):
            future.result()
            if progress:  # reported from the caller's thread, so UI callbacks may touch their session
                progress(done / len(starts), f"simulated {min(done * CHUNK, len(s))} of {len(s)} policies")
    return means, stds


@dataclass(frozen=True, eq=False)
class SearchResult:
    """A policy family searched on common paths, then its top candidates re-evaluated on fresh paths.

    For the (s,S) family `mean`/`std` are `(max_inventory+1)²` matrices indexed `[s, S]` (NaN where s > S);
    otherwise they are 1-D over `rules` (rows `(s, S, cap)`)."""

    family: str
    rules: np.ndarray = field(repr=False)
    mean: np.ndarray = field(repr=False)
    std: np.ndarray = field(repr=False)
    best: PolicyEvaluation
    best_policy: object
    candidates: tuple[PolicyEvaluation, ...]
    in_sample_best: tuple[int, ...]
    paths: int
    seconds: float

    def summary(self) -> dict[str, object]:
        return {
            "family": self.family,
            "best": self.best.summary(),
            "in_sample_best": list(self.in_sample_best),
            "candidates": len(self.rules),
            "paths": self.paths,
            "seconds": self.seconds,
        }


def _policy(family: str, rule: np.ndarray, problem: InventoryProblem, cutoff: bool):
    s, S, cap = (int(x) for x in rule)
    if family == "sS":
        return SSPolicy(s, S, cutoff)
    if family == "base_stock":
        return BaseStockPolicy(S, None if cap >= problem.max_order else cap, cutoff)
    if family == "constant":
        return ConstantPolicy(cap, cutoff)
    return RQPolicy(s, cap, cutoff)


def family_size(problem: InventoryProblem, family: str) -> int:
    """How many candidate rules `family_rules` returns (at most, for base_stock), without building them."""
    m, qmax = problem.max_inventory, problem.max_order
    sizes = {
        "sS": (m + 1) * (m + 2) // 2,
        "base_stock": min(12, qmax) * (m + 1),
        "constant": qmax + 1,
        "rQ": qmax * (m + 1),
    }
    if family not in sizes:
        raise SpecError("policy", f"unknown policy family {family!r}; use sS, base_stock, constant or rQ")
    return sizes[family]


def check_search_size(problem: InventoryProblem, family: str, paths: int) -> None:
    """`SpecError` naming `max_inventory` or `lead_time` when a family's search is too large to build,
    to hold in memory (two threads' chunks of `CHUNK` candidates with L pipeline slots) or to simulate."""
    n = family_size(problem, family)
    work = n * paths * problem.time_horizon
    if 2 * CHUNK * paths * (problem.lead_time + 8) * 8 > MAX_CHUNK_BYTES:
        raise SpecError(
            "lead_time",
            f"simulating {FAMILY_LABELS[family]} policies on {paths:,} paths with a lead time of "
            f"{problem.lead_time:,} periods needs too much memory; use fewer paths or a shorter lead time",
        )
    if n > MAX_RULES or work > MAX_GRID_WORK:
        raise SpecError(
            "max_inventory",
            f"the {FAMILY_LABELS[family]} search has {n:,} candidate policies × {paths:,} paths × {problem.time_horizon:,} "
            f"periods (limits {MAX_RULES:,} candidates and {MAX_GRID_WORK:,} simulated periods); lower the "
            "max inventory (it sets the grid), the paths or the horizon",
        )


def _top(problem: InventoryProblem) -> int:
    """The S of the constant-order and (R,Q) rules: see the module docstring."""
    if problem.capacity_basis is CapacityBasis.ON_HAND and problem.lead_time >= 1:
        return problem.max_on_hand + problem.max_order
    return problem.max_inventory


def family_rules(problem: InventoryProblem, family: str) -> np.ndarray:
    """All candidate rules `(s, S, cap)` of a family on this instance."""
    m, qmax, top = problem.max_inventory, problem.max_order, _top(problem)
    if family == "sS":
        S, s = np.triu_indices(m + 1)[::-1]
        order = np.lexsort((s, S))
        return np.stack([s[order], S[order], np.full(len(s), qmax)], axis=1)
    if family == "base_stock":
        lo = max(1, int(np.ceil(problem.demand.mean)))
        caps = np.unique(np.linspace(min(lo, qmax), qmax, min(12, qmax)).round().astype(int))
        grid = np.array([(S, S, c) for c in caps for S in range(m + 1)])
        return grid
    if family == "constant":
        return np.array([(top + 1, top, q) for q in range(qmax + 1)])
    if family == "rQ":
        return np.array([(r, top, q) for q in range(1, qmax + 1) for r in range(m + 1)])
    raise SpecError("policy", f"unknown policy family {family!r}; use sS, base_stock, constant or rQ")


REFINE_SEEDS = 3
"""How many of the best rules so far each finer level of a coarse-to-fine search looks around."""


def _on_stride(rules: np.ndarray, varying: list[int], stride: int) -> np.ndarray:
    return np.all([rules[:, c] % stride == 0 for c in varying], axis=0)


def _coarse_stride(rules: np.ndarray, max_candidates: int | None) -> tuple[int, list[int]]:
    """The smallest stride whose sub-grid has at most `max_candidates` rules (1: search every rule)."""
    varying = [c for c in range(3) if len(np.unique(rules[:, c])) > 1]
    if max_candidates is None or len(rules) <= max_candidates:
        return 1, varying
    stride = 2
    while _on_stride(rules, varying, stride).sum() > max_candidates:
        stride += 1
    return stride, varying


def _finer(rules: np.ndarray, score: np.ndarray, varying: list[int], stride: int, finer: int) -> np.ndarray:
    """Unevaluated rules on the `finer` sub-grid within `stride` (per coordinate) of the best rules so far."""
    best = rules[np.argsort(np.where(np.isnan(score), np.inf, score), kind="stable")[:REFINE_SEEDS]]
    near = np.zeros(len(rules), dtype=bool)
    for rule in best:
        near |= np.all(np.abs(rules - rule) <= stride, axis=1)
    return np.nonzero(near & _on_stride(rules, varying, finer) & np.isnan(score))[0]


def search_policies(
    problem: InventoryProblem,
    family: str = "sS",
    paths: int = 1000,
    seed: int | None = 0,
    *,
    cutoff: bool = False,
    top_k: int = 10,
    reeval_paths: int | None = None,
    progress: Progress | None = None,
    max_candidates: int | None = None,
) -> SearchResult:
    """Search a family on `paths` common paths, re-evaluate the `top_k` best on fresh paths, pick by L(π).

    With `max_candidates`, a family with more rules is searched coarse to fine: a strided sub-grid of at
    most that many rules first, then, halving the stride down to 1, the rules near the `REFINE_SEEDS` best
    so far (all on the same paths); unevaluated rules keep NaN costs. Without it every rule is simulated."""
    start = time.perf_counter()
    check_search_size(problem, family, paths)
    rules = family_rules(problem, family)
    demand = demand_matrix(problem, paths, seed)
    lam = problem.risk_tolerance
    mean, std = np.full(len(rules), np.nan), np.full(len(rules), np.nan)
    stride, varying = _coarse_stride(rules, max_candidates)
    pick = np.nonzero(_on_stride(rules, varying, stride) | (np.arange(len(rules)) == len(rules) - 1))[0]
    levels = max(1, int(np.ceil(np.log2(stride))) + 1)
    level = 0
    while True:
        lo, hi = level / levels, (level + 1) / levels
        mean[pick], std[pick] = evaluate_rules(
            problem,
            rules[pick, 0],
            rules[pick, 1],
            rules[pick, 2],
            demand,
            cutoff=cutoff,
            progress=(lambda f, msg, lo=lo, hi=hi: progress(0.9 * min(1.0, lo + (hi - lo) * f), msg))
            if progress
            else None,
        )
        if stride == 1:
            break
        finer = max(1, stride // 2)
        pick = _finer(rules, mean + np.exp(-lam) * std, varying, stride, finer)
        stride, level = finer, level + 1
    score = np.where(np.isnan(mean), np.inf, mean + np.exp(-lam) * std)
    top = np.argsort(score, kind="stable")[: min(top_k, int(np.isfinite(score).sum()))]
    policies = [_policy(family, rules[i], problem, cutoff) for i in top]
    fresh_seed = None if seed is None else seed + 7919
    evals = evaluate_policies(problem, policies, reeval_paths or max(paths, 2000), fresh_seed)
    k = int(np.argmin([e.objective(lam) for e in evals]))
    if progress:
        progress(1.0, f"best {family}: {evals[k].policy}")
    if family == "sS":
        m = problem.max_inventory + 1
        mean_m, std_m = np.full((m, m), np.nan), np.full((m, m), np.nan)
        mean_m[rules[:, 0], rules[:, 1]] = mean
        std_m[rules[:, 0], rules[:, 1]] = std
        mean, std = mean_m, std_m
    return SearchResult(
        family=family,
        rules=rules,
        mean=mean,
        std=std,
        best=evals[k],
        best_policy=policies[k],
        candidates=tuple(evals),
        in_sample_best=tuple(int(x) for x in rules[top[0]]),
        paths=paths,
        seconds=time.perf_counter() - start,
    )
