"""Report statistics on a hand-made frame: group means and one-sided paired tests."""

from __future__ import annotations

import pandas as pd
import pytest
from scipy import stats

from core.schedule.lab.report import paired_one_sided, summary_rows


def frame() -> pd.DataFrame:
    rows = []
    for i, (conv, one) in enumerate([(1.0, 0.5), (1.0, 1.0), (0.9, 0.6), (1.0, 0.7), (1.0, 0.2)]):
        for agent, score in (("tpp_conversation", conv), ("tpp_one_shot", one)):
            rows.append(
                {"instance": f"u{i}-vague-rich", "agent": agent, "style": "vague", "feedback": "rich",
                 "score": score, "success": score == 1.0, "turns": 3 if agent.endswith("conversation") else 1,
                 "solver_calls": 2}
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_summary_rows_by_hand() -> None:
    rows = {r["agent"]: r for r in summary_rows(frame(), ["agent"])}
    assert rows["tpp_conversation"]["avg_score"] == pytest.approx(0.98)
    assert rows["tpp_conversation"]["success_rate"] == pytest.approx(0.8)
    assert rows["tpp_one_shot"]["avg_score"] == pytest.approx(0.6)
    assert rows["tpp_one_shot"]["success_rate"] == pytest.approx(0.2)
    assert rows["tpp_one_shot"]["turns"] == 1


def test_paired_one_sided_matches_scipy() -> None:
    out = paired_one_sided(frame(), "tpp_conversation", "tpp_one_shot")
    assert out["pairs"] == 5 and out["mean_difference"] == pytest.approx(0.38)
    a, b = [1.0, 1.0, 0.9, 1.0, 1.0], [0.5, 1.0, 0.6, 0.7, 0.2]
    assert out["t_p"] == pytest.approx(stats.ttest_rel(a, b, alternative="greater").pvalue)
    assert out["t_p"] < 0.05
    reverse = paired_one_sided(frame(), "tpp_one_shot", "tpp_conversation")
    assert reverse["t_p"] > 0.95
