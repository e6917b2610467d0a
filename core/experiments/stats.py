"""Statistics of experiment results: per-agent and per-group summaries with bootstrap confidence intervals,
and paired comparisons against a baseline agent (mean difference with its CI, win rate, Wilcoxon and t tests).

Inputs are long frames with one row per finished cell (`instance, agent, seed, repetition` plus metric
columns). Bootstraps are seeded, so a report is reproducible. Undefined quantities (a std of one value, a test
on identical results) are NaN, shown as "—", never a made-up number.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

RESAMPLES = 2000
LEVEL = 0.95
PAIR_KEYS = ("instance", "seed", "repetition")
SUMMARY_COLUMNS = ["n", "mean", "std", "ci_low", "ci_high"]
PAIRED_COLUMNS = [
    "agent", "baseline", "n_pairs", "mean_diff", "ci_low", "ci_high", "win_rate", "strict_win_rate", "wilcoxon_p",
    "ttest_p",
]  # fmt: skip


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, *, seed: int = 0, resamples: int = RESAMPLES, level: float = LEVEL
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean (NaN for fewer than two values)."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < 2:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, len(x), size=(resamples, len(x)))].mean(axis=1)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return float(low), float(high)


def summarize(values: Sequence[float] | np.ndarray, *, seed: int = 0) -> dict[str, float]:
    """n, mean, sample std (ddof 1) and the bootstrap CI of the mean, of the finite values."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    low, high = bootstrap_ci(x, seed=seed)
    return {
        "n": int(len(x)),
        "mean": float(x.mean()) if len(x) else math.nan,
        "std": float(x.std(ddof=1)) if len(x) > 1 else math.nan,
        "ci_low": low,
        "ci_high": high,
    }


def summary_table(
    cells: pd.DataFrame, metric: str, *, by: Sequence[str] = ("agent",), seed: int = 0
) -> pd.DataFrame:
    """One row per group of `by` (in first-seen order) with `SUMMARY_COLUMNS` of `metric`."""
    by = list(by)
    if cells.empty or metric not in cells:
        return pd.DataFrame(columns=[*by, *SUMMARY_COLUMNS])
    rows = [
        {
            **dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True)),
            **summarize(group[metric], seed=seed),
        }
        for key, group in cells.groupby(by, sort=False)
    ]
    return pd.DataFrame(rows, columns=[*by, *SUMMARY_COLUMNS])


ALTERNATIVES = ("two-sided", "better")
"""`better`: one-sided tests of "the agent is better than the baseline" in the direction of `goal`."""


def _p_value(test, *args, **kwargs) -> float:  # noqa: ANN001 - a scipy test function
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            p = float(test(*args, **kwargs).pvalue)
        except ValueError:
            return math.nan
    return p if math.isfinite(p) else math.nan


def paired_comparison(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    goal: str = "max",
    seed: int = 0,
    alternative: str = "two-sided",
) -> dict[str, float]:
    """Compare paired results `a` (an agent) with `b` (the baseline): mean of `a - b` with its bootstrap CI, the
    share of pairs where `a` is better (ties count half; `strict_win_rate`: ties count as losses, as seed 000's
    Table 5 counts; `goal` says whether higher or lower is better), and
    the p-values of the Wilcoxon signed-rank test (on the differences, zero differences dropped) and the
    paired t test, two-sided or one-sided towards `a` being better (`alternative="better"`). Every report of
    paired results (experiments, both labs) calls this, so the same data gives the same numbers everywhere."""
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {ALTERNATIVES}, not {alternative!r}")
    side = "two-sided" if alternative == "two-sided" else ("less" if goal == "min" else "greater")
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    d = x - y
    low, high = bootstrap_ci(d, seed=seed)
    better = (d < 0) if goal == "min" else (d > 0)
    wins = float(better.sum() + 0.5 * (d == 0).sum())
    no_spread = len(d) < 2 or bool(np.all(d == d[0]))
    return {
        "n_pairs": int(len(d)),
        "mean_diff": float(d.mean()) if len(d) else math.nan,
        "ci_low": low,
        "ci_high": high,
        "win_rate": wins / len(d) if len(d) else math.nan,
        "strict_win_rate": float(better.sum()) / len(d) if len(d) else math.nan,
        "wilcoxon_p": math.nan
        if len(d) < 2 or not np.any(d)
        else _p_value(sps.wilcoxon, d, alternative=side),
        "ttest_p": math.nan if no_spread else _p_value(sps.ttest_rel, x, y, alternative=side),
    }


def paired_relative_difference(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, *, seed: int = 0
) -> tuple[float, float, float]:
    """(mean(a) − mean(b)) / mean(b) of paired results (seed 003 Table 5's %Δ) with a percentile bootstrap CI
    over the pairs (`RESAMPLES`, seeded); NaN where undefined (no pairs, mean(b) = 0)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if not len(x) or y.mean() == 0:
        return math.nan, math.nan, math.nan
    value = float((x.mean() - y.mean()) / y.mean())
    if len(x) < 2:
        return value, math.nan, math.nan
    idx = np.random.default_rng(seed).integers(0, len(x), size=(RESAMPLES, len(x)))
    xs, ys = x[idx].mean(axis=1), y[idx].mean(axis=1)
    ratios = (xs - ys)[ys != 0] / ys[ys != 0]
    tail = (1.0 - LEVEL) / 2.0
    low, high = np.quantile(ratios, [tail, 1.0 - tail])
    return value, float(low), float(high)


def mann_whitney_p(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Two-sided Mann-Whitney U p-value of two independent samples (NaN when undefined)."""
    return _p_value(sps.mannwhitneyu, np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def paired_table(
    cells: pd.DataFrame, metric: str, *, baseline: str, goal: str = "max", seed: int = 0
) -> pd.DataFrame:
    """Every other agent against `baseline`, paired on (instance, seed, repetition): `PAIRED_COLUMNS`."""
    if cells.empty or metric not in cells or baseline not in set(cells["agent"]):
        return pd.DataFrame(columns=PAIRED_COLUMNS)
    keys = list(PAIR_KEYS)
    base = cells.loc[cells["agent"] == baseline, [*keys, metric]]
    rows = []
    for agent in dict.fromkeys(cells["agent"]):
        if agent == baseline:
            continue
        mine = cells.loc[cells["agent"] == agent, [*keys, metric]]
        pairs = mine.merge(base, on=keys, suffixes=("_a", "_b"))
        result = paired_comparison(pairs[f"{metric}_a"], pairs[f"{metric}_b"], goal=goal, seed=seed)
        rows.append({"agent": agent, "baseline": baseline, **result})
    return pd.DataFrame(rows, columns=PAIRED_COLUMNS)
