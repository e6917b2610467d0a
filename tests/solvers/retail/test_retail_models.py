"""Closed-form RetailBench rules against hand-computed values: returns, ratings, gain, depreciation, demand."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.retail.demand import legacy_demand, power_demand
from solvers.retail.models import (
    HISTORY_DAYS,
    day_iso,
    fit_rating_gain,
    net_unit_value,
    rating_gain_piecewise,
    return_probability,
    season_terms,
    tilted_probs,
    week_of,
)


class RecordingRng:
    """Stands in for numpy's Generator: records binomial/multinomial parameters, returns fixed draws."""

    def __init__(self, binomial_value: int = 10, uniform: float = 0.5) -> None:
        self.binomials: list[tuple[int, float]] = []
        self.multinomials: list[tuple[int, np.ndarray]] = []
        self.binomial_value = binomial_value
        self.uniform = uniform

    def binomial(self, n, p):
        p_arr = np.asarray(p, dtype=float)
        self.binomials.append((n, p_arr.copy()))
        return np.full(p_arr.shape, self.binomial_value) if p_arr.ndim else self.binomial_value

    def multinomial(self, n, pvals):
        self.multinomials.append((n, np.asarray(pvals)))
        out = np.floor(np.asarray(pvals) * n).astype(int)
        out[0] += n - out.sum()
        return out

    def random(self, k):
        return np.full(k, self.uniform)


def test_calendar_starts_on_1991_09_07_with_week_104():
    assert day_iso(HISTORY_DAYS) == "1991-09-07"
    assert week_of(HISTORY_DAYS) == 104
    s, c = season_terms(HISTORY_DAYS)
    assert s == pytest.approx(0.0, abs=1e-12) and c == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("q", "expected"),
    [(1, 0.30), (2, 0.15), (3, 0.10), (4, 0.05), (5, 0.02), (1.5, 0.2016), (2.5, 0.1216), (4.5, 0.0266), (0.2, 0.30)],
)
def test_return_curve_through_the_five_anchor_points(q, expected):
    assert return_probability(q) == pytest.approx(expected, abs=1e-4)


def test_return_curve_is_clipped_at_two_percent_and_defaults_for_unknown_quality():
    assert return_probability(4.85) == 0.02  # the quartic dips below 0.02 here
    assert return_probability(None) == 0.08


@pytest.mark.parametrize("target", [1.8, 3.0, 4.0, 4.7])
def test_tilted_rating_distribution_has_the_target_mean(target):
    p = tilted_probs(target)
    assert p.sum() == pytest.approx(1.0)
    assert (p * np.arange(1, 6)).sum() == pytest.approx(target, abs=2e-4)


def test_tilted_distribution_matches_the_notes_example():
    assert tilted_probs(4.0) == pytest.approx([0.136, 0.068, 0.053, 0.144, 0.599], abs=1e-3)


def test_rating_gain_polynomial_fits_the_piecewise_target():
    fit = fit_rating_gain(3.5, 40.0)
    r = np.array([2.0, 3.0, 4.0, 4.6])
    target = rating_gain_piecewise(r, 3.5, 40.0)
    assert target[3] == pytest.approx(0.04 * 2.6 + 0.20 * 1.6 + 0.16 * 1.1)
    assert np.polyval(fit["poly_coeffs"], r) == pytest.approx(target, abs=fit["max_err"] + 1e-9)
    assert fit["r2"] > 0.99


def test_unit_value_depreciates_linearly_to_zero():
    buy = np.array([2.0, 2.0, 2.0, 3.0])
    begin = np.array([0, 0, 0, 5])
    expiry = np.array([10, 10, 10, 5])
    assert net_unit_value(buy, begin, expiry, 4).tolist() == pytest.approx([1.2, 1.2, 1.2, 3.0])
    assert net_unit_value(buy[:1], begin[:1], expiry[:1], 10).tolist() == [0.0]


def test_power_aggregation_uses_the_rho_mean_for_mass_and_plain_shares():
    rng = RecordingRng(binomial_value=100)
    a = np.array([0.02, 0.04, 0.05])
    cat = np.array(["A", "A", "B"])
    y = power_demand(a, cat, 2000, 3.0, rng)
    g = (0.02**3 + 0.04**3) ** (1 / 3)
    assert rng.binomials[0][0] == 2000
    assert float(rng.binomials[0][1]) == pytest.approx(g / (1 + g))
    assert float(rng.binomials[1][1]) == pytest.approx(0.05 / 1.05)
    assert rng.multinomials[0][1] == pytest.approx([1 / 3, 2 / 3])
    assert y.sum() == 200 and y[2] == 100


def test_power_aggregation_with_no_customers_sells_nothing():
    rng = RecordingRng()
    assert power_demand(np.array([0.1, 0.2]), np.array(["A", "A"]), 0, 3.0, rng).tolist() == [0, 0]
    assert rng.binomials == []


def test_legacy_aggregation_applies_category_effects_and_rounds_fractions():
    rng = RecordingRng(binomial_value=10, uniform=0.5)
    a = np.array([0.1, 0.3])
    y = legacy_demand(a, np.array(["A", "A"]), np.array([-0.1, -0.1]), 1000, rng)
    adj = np.array([0.1 - 0.03, 0.3 - 0.01])
    total = adj.sum()
    assert rng.binomials[0][1] == pytest.approx([total / (1 + total)] * 2)
    raw = 10 * adj / total  # 1.944.., 8.055..
    assert y.tolist() == [int(np.floor(raw[0])) + 1, int(np.floor(raw[1]))]
