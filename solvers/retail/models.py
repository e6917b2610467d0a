"""RetailBench's small closed-form models: calendar, return curve, tilted rating distribution, rating gain.

All formulas follow the public RetailBench code (notes `retailbench.md` §2.2, §2.4, §3.6, §3.7).
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

import numpy as np

DATA_BEGIN = date(1991, 6, 6)
STORE_BEGIN = date(1991, 9, 7)
DATA_END = date(1995, 12, 31)
SEASON_ORIGIN = date(1989, 9, 7)
HISTORY_DAYS = (STORE_BEGIN - DATA_BEGIN).days  # 93 days of pre-start history (06/06/91 .. 09/06/91)
CALENDAR_DAYS = (DATA_END - DATA_BEGIN).days + 1

BASE_STAR_COUNTS = np.array([21.0, 9.0, 6.0, 14.0, 50.0])
BASE_STAR_PROBS = BASE_STAR_COUNTS / BASE_STAR_COUNTS.sum()
_STARS = np.arange(1, 6, dtype=float)


def day_date(day: int) -> date:
    """The calendar date of day index `day` (0 = 1991-06-06, the first data day)."""
    return DATA_BEGIN + timedelta(days=int(day))


@lru_cache(maxsize=4096)
def day_iso(day: int) -> str:
    return day_date(day).isoformat()


def day_index(value: date) -> int:
    return (value - DATA_BEGIN).days


def week_of(day: int) -> int:
    """Seasonality week w = floor((date - 1989-09-07) / 7); 104 on the store's first day."""
    return (day_date(day) - SEASON_ORIGIN).days // 7


def season_terms(day: int) -> tuple[float, float]:
    w = week_of(day)
    return float(np.sin(2 * np.pi * w / 52)), float(np.cos(2 * np.pi * w / 52))


def return_probability(quality: float | np.ndarray | None) -> float | np.ndarray:
    """R(q): the quartic through (1,.30),(2,.15),(3,.10),(4,.05),(5,.02), q clipped to [1,5], R to [.02,.30]."""
    if quality is None:
        return 0.08
    q = np.clip(np.asarray(quality, dtype=float), 1.0, 5.0)
    r = 0.005 * q**4 - q**3 / 15 + 0.325 * q**2 - 11 * q / 15 + 0.77
    out = np.clip(r, 0.02, 0.30)
    return float(out) if np.ndim(out) == 0 else out


@lru_cache(maxsize=65536)
def _tilted(target_milli: int) -> tuple[float, ...]:
    m = min(5.0, max(1.0, target_milli / 1000.0))
    lo, hi = -10.0, 10.0
    probs = BASE_STAR_PROBS
    for _ in range(50):
        theta = (lo + hi) / 2
        w = BASE_STAR_PROBS * np.exp(theta * _STARS)
        probs = w / w.sum()
        mean = float((probs * _STARS).sum())
        if abs(mean - m) < 1e-4:
            break
        if mean < m:
            lo = theta
        else:
            hi = theta
    return tuple(float(p) for p in probs)


def tilted_probs(target: float | None) -> np.ndarray:
    """P(rating = 1..5): the base star mix exponentially tilted so its mean equals `target` (None -> 3.6).

    The bisection on theta in [-10, 10] stops when |mean - target| < 1e-4; targets are memoised at 0.001.
    """
    m = 3.6 if target is None else float(target)
    return np.array(_tilted(int(round(m * 1000))))


def rating_gain_piecewise(r: np.ndarray, begin: float, power_pct: float) -> np.ndarray:
    """G(r) = 0.04 (r-2)+ + 0.20 (r-3)+ + (X/100 - 0.24) (r-s)+ — the target of each category's polynomial."""
    r = np.asarray(r, dtype=float)
    return (
        0.04 * np.maximum(r - 2, 0)
        + 0.20 * np.maximum(r - 3, 0)
        + (power_pct / 100 - 0.24) * np.maximum(r - begin, 0)
    )


def fit_rating_gain(begin: float, power_pct: float) -> dict:
    """Degree-4 fit on 501 points of [0, 5], stored as poly_coeffs [c4..c0] with the original's fit stats."""
    r = np.linspace(0, 5, 501)
    target = rating_gain_piecewise(r, begin, power_pct)
    coeffs = np.polyfit(r, target, 4)
    pred = np.polyval(coeffs, r)
    err = np.abs(pred - target)
    i = int(err.argmax())
    mse = float(np.mean((pred - target) ** 2))
    ss_tot = float(np.sum((target - target.mean()) ** 2))
    return {
        "poly_coeffs": [float(c) for c in coeffs],
        "begin_effect_point": begin,
        "effect_power": power_pct,
        "max_err": float(err[i]),
        "max_err_r": float(r[i]),
        "max_err_true": float(target[i]),
        "max_err_pred": float(pred[i]),
        "mse": mse,
        "rmse": mse**0.5,
        "r2": 1 - float(np.sum((pred - target) ** 2)) / ss_tot if ss_tot else 1.0,
    }


def net_unit_value(buy_price: np.ndarray, begin: np.ndarray, expiry: np.ndarray, today: int) -> np.ndarray:
    """Depreciated unit value: buy x (expiry - today)/(expiry - begin); 0 when expired; buy if span <= 0."""
    span = expiry - begin
    remaining = expiry - today
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(remaining > 0, buy_price * remaining / np.where(span > 0, span, 1), 0.0)
    return np.where(span <= 0, buy_price, value)
