"""Customer demand: the utility/attraction model and the two aggregation rules (notes §3.5, §3.9).

Vectorised over SKUs; every random draw comes from the `numpy.random.Generator` passed in.
"""

from __future__ import annotations

import numpy as np


def attractions(
    *,
    alpha: np.ndarray,
    beta: np.ndarray,
    beta_s: np.ndarray,
    beta_c: np.ndarray,
    sigma: np.ndarray,
    price: np.ndarray,
    season: tuple[float, float],
    external: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """A_j = exp(alpha + (beta + beta_s sin + beta_c cos) p + eps/5) (1 + e_j), eps ~ N(0, sigma), floored at 0.

    Noise is drawn for every SKU passed in (sigma <= 0 gives eps = 0), in order, as the original does for
    every stocked SKU, whether or not it is on the shelf.
    """
    s, c = season
    eps = rng.standard_normal(len(alpha)) * np.where(sigma > 0, sigma, 0.0)
    v = alpha + (beta + beta_s * s + beta_c * c) * price + eps / 5.0
    return np.maximum(np.exp(v) * (1.0 + external), 0.0)


def power_demand(
    attraction: np.ndarray, category: np.ndarray, customers: int, rho: float, rng: np.random.Generator
) -> np.ndarray:
    """hard_v2 aggregation: per category G = (sum A^rho)^(1/rho), P = G/(1+G), D ~ Bin(N, P), y ~ Mult(D, A/sum A).

    `attraction` holds only the visible SKUs with A > 0; categories are taken in order of first appearance.
    """
    if rho <= 0:
        raise ValueError("category_attraction_rho must be > 0")
    demand = np.zeros(len(attraction), dtype=np.int64)
    n = int(customers or 0)
    _, first = np.unique(category, return_index=True)
    for cat in category[np.sort(first)]:
        idx = np.flatnonzero(category == cat)
        a = attraction[idx]
        total = a.sum()
        if total <= 0:
            continue
        g = float((a**rho).sum() ** (1.0 / rho))
        d = int(rng.binomial(n, g / (1.0 + g))) if n > 0 else 0
        if d <= 0:
            continue
        demand[idx] = rng.multinomial(d, a / total)
    return demand


def legacy_demand(
    attraction: np.ndarray,
    category: np.ndarray,
    category_effect: np.ndarray,
    customers: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """easy/middle/hard aggregation: per-SKU binomial on the category total, fractional part rounded at random.

    A'_j = A_j + sum_{i in c, i != j} ce_i A_i (only when ce_j != 0), clipped at 0; T_j = A'_j + sum of the
    others' A'; E_j ~ Bin(N, T_j/(1+T_j)); raw = E_j A'_j / T_j; demand = floor(raw) + [u < frac(raw)].
    Zero traffic gives zero demand (the original stopped in a debugger).
    """
    n = int(customers or 0)
    k = len(attraction)
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    same = category[:, None] == category[None, :]
    others = same & ~np.eye(k, dtype=bool)
    adj = attraction + np.where(category_effect != 0, others @ (category_effect * attraction), 0.0)
    adj = np.maximum(adj, 0.0)
    total = same @ adj
    prob = np.where(total > 0, total / (1.0 + total), 0.0)
    draws = rng.binomial(n, prob) if n > 0 else np.zeros(k, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        raw = np.where(total > 0, draws * adj / np.where(total > 0, total, 1.0), 0.0)
    base = np.floor(raw)
    return (base + (rng.random(k) < raw - base)).astype(np.int64)
