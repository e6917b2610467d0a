"""Statistics against small hand-checked data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from core.experiments.stats import bootstrap_ci, paired_comparison, paired_table, summarize, summary_table
from core.schedule.lab.report import paired_one_sided


def test_summary_of_hand_checked_values() -> None:
    s = summarize([1.0, 2.0, 3.0, 4.0])
    assert s["n"] == 4 and s["mean"] == 2.5
    assert s["std"] == pytest.approx(math.sqrt(5 / 3))  # sample std: sum of squares 5, / 3
    assert 1.0 <= s["ci_low"] < 2.5 < s["ci_high"] <= 4.0
    one = summarize([7.0, float("nan")])
    assert one["n"] == 1 and one["mean"] == 7.0 and math.isnan(one["std"]) and math.isnan(one["ci_low"])


def test_bootstrap_is_seeded_and_shrinks_with_more_data() -> None:
    rng = np.random.default_rng(1)
    small, big = rng.normal(10, 2, 10), rng.normal(10, 2, 1000)
    assert bootstrap_ci(small, seed=3) == bootstrap_ci(small, seed=3)
    lo_s, hi_s = bootstrap_ci(small)
    lo_b, hi_b = bootstrap_ci(big)
    assert hi_b - lo_b < (hi_s - lo_s) / 3
    assert lo_b < 10 < hi_b
    assert bootstrap_ci([5.0, 5.0, 5.0]) == (5.0, 5.0)


def test_paired_comparison_by_hand() -> None:
    agent = [10.0, 12.0, 9.0, 15.0, 11.0]
    base = [12.0, 12.0, 13.0, 14.0, 16.0]  # differences -2, 0, -4, +1, -5
    cmp_min = paired_comparison(agent, base, goal="min")
    assert cmp_min["n_pairs"] == 5 and cmp_min["mean_diff"] == pytest.approx(-2.0)
    assert cmp_min["win_rate"] == pytest.approx((3 + 0.5) / 5)  # three lower, one tie
    assert cmp_min["ci_low"] < -2.0 < cmp_min["ci_high"] <= 1.0
    assert cmp_min["ttest_p"] == pytest.approx(sps.ttest_rel(agent, base).pvalue)
    assert cmp_min["wilcoxon_p"] == pytest.approx(sps.wilcoxon(np.subtract(agent, base)).pvalue)
    assert paired_comparison(agent, base, goal="max")["win_rate"] == pytest.approx(1.5 / 5)


def test_identical_agents_have_no_p_value_rather_than_a_fake_one() -> None:
    same = paired_comparison([3.0, 4.0, 5.0], [3.0, 4.0, 5.0])
    assert same["mean_diff"] == 0 and same["win_rate"] == 0.5
    assert math.isnan(same["wilcoxon_p"]) and math.isnan(same["ttest_p"])


def test_tables_group_and_pair_on_instance_seed_and_repetition() -> None:
    cells = pd.DataFrame(
        {
            "instance": ["i1", "i1", "i2", "i2", "i1", "i1", "i2"],
            "agent": ["a", "a", "a", "a", "b", "b", "b"],
            "seed": [0, 1, 0, 1, 0, 1, 0],
            "repetition": [0] * 7,
            "cost": [1.0, 2.0, 3.0, 4.0, 2.0, 4.0, 6.0],
        }
    )
    per_agent = summary_table(cells, "cost")
    assert per_agent["agent"].tolist() == ["a", "b"] and per_agent["mean"].tolist() == [2.5, 4.0]
    per_group = summary_table(cells, "cost", by=("instance", "agent"))
    assert per_group[["instance", "agent", "n"]].values.tolist() == [
        ["i1", "a", 2],
        ["i2", "a", 2],
        ["i1", "b", 2],
        ["i2", "b", 1],
    ]
    paired = paired_table(cells, "cost", baseline="a", goal="min")
    row = paired.iloc[0]
    assert row["agent"] == "b" and row["n_pairs"] == 3  # i2/seed 1 has no b cell: unpaired, left out
    assert row["mean_diff"] == pytest.approx((1 + 2 + 3) / 3) and row["win_rate"] == 0.0


def test_one_statistics_module_serves_both_lab_reports() -> None:
    """The same paired data gives the same p-values, win rates and CIs from the experiment statistics, the
    School Scheduling lab report and the inventory lab report (issue 30: no second implementation)."""
    a = [0.9, 0.8, 0.95, 0.7, 0.85, 0.6]
    b = [0.5, 0.8, 0.6, 0.65, 0.4, 0.62]
    frame = pd.DataFrame(
        [{"agent": "x", "instance": i, "score": v} for i, v in enumerate(a)]
        + [{"agent": "y", "instance": i, "score": v} for i, v in enumerate(b)]
    )
    lab = paired_one_sided(frame, "x", "y")
    engine = paired_comparison(a, b, goal="max", alternative="better")
    assert lab["wilcoxon_p"] == engine["wilcoxon_p"] and lab["t_p"] == engine["ttest_p"]
    assert lab["win_rate"] == engine["win_rate"]
    assert lab["ci_low"] == round(engine["ci_low"], 4)
    d = [x - y for x, y in zip(a, b, strict=True)]
    assert engine["wilcoxon_p"] == pytest.approx(sps.wilcoxon(d, alternative="greater").pvalue)
    assert engine["ttest_p"] == pytest.approx(sps.ttest_rel(a, b, alternative="greater").pvalue)
    two = paired_comparison(a, b, goal="max")
    assert two["ttest_p"] == pytest.approx(sps.ttest_rel(a, b).pvalue)
    lower = paired_comparison(b, a, goal="min", alternative="better")  # lower is better: b "wins" here
    assert lower["ttest_p"] == pytest.approx(sps.ttest_rel(b, a, alternative="less").pvalue)
    assert engine["strict_win_rate"] == pytest.approx(4 / 6) and engine["win_rate"] == pytest.approx(4.5 / 6)
    with pytest.raises(ValueError, match="alternative"):
        paired_comparison(a, b, alternative="greater")
