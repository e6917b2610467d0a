"""Reference and offline agents end to end in LPRepairEnv; metric identities (acceptance checks 9, 10)."""

from __future__ import annotations

import pytest

from core.repair.evaluate import run_offline
from core.repair.metrics import KS, summarize, summarize_rows
from solvers.lp.errortypes import IN_AGENT_GRAMMAR, ErrorType


def _by_type(rows):
    return {r["error_type"]: r for r in rows}


def test_ground_truth_replay_scores_100_percent(repair_problems) -> None:
    rows = run_offline(repair_problems, "ground-truth", extended=True)
    s = summarize(rows)["overall"]
    assert s["RR"] == 1.0 and s["RRR"] == 1.0 and s["reward"] == 150.0 and s["exact"] == 1.0
    assert all(r["extended_actions"] for r in rows)


def test_ground_truth_in_paper_grammar_only_covers_its_types(repair_problems) -> None:
    rows = _by_type(run_offline(repair_problems, "ground-truth", extended=False))
    for e in ErrorType:
        assert rows[e.value]["rational"] == (e in IN_AGENT_GRAMMAR), e


def test_do_nothing_recovers_only_me5_and_never_rationally(repair_problems) -> None:
    rows = _by_type(run_offline(repair_problems, "do-nothing"))
    for e in ErrorType:
        r = rows[e.value]
        assert r["recovered"] == (e is ErrorType.ME5) and not r["rational"]
        assert r["reward"] == (75.0 if e is ErrorType.ME5 else -50.0)


def test_offline_agent_repairs_every_type_with_the_extended_set(repair_problems) -> None:
    rows = run_offline(repair_problems, "offline", extended=True)
    s = summarize(rows)
    assert s["overall"]["RRR"] == 1.0, [(r["error_type"], r["end_reason"]) for r in rows if not r["rational"]]
    assert s["overall"]["steps"] <= 3
    assert s["overall"]["exact"] == 1.0  # the final model equals the ground-truth repair, not just "accepted"


def test_offline_agent_in_paper_grammar_repairs_the_in_grammar_types(repair_problems) -> None:
    rows = _by_type(run_offline(repair_problems, "offline", extended=False))
    for e in IN_AGENT_GRAMMAR:
        assert rows[e.value]["rational"] and rows[e.value]["exact_repair"], rows[e.value]
    for e in set(ErrorType) - IN_AGENT_GRAMMAR:  # coefficient errors: never exact without UPDATE_COEF
        assert not rows[e.value]["exact_repair"]
    assert all(not r["extended_actions"] and r["protected_rows"] for r in rows.values())


def test_offline_agent_is_deterministic(repair_problems) -> None:
    a = run_offline(repair_problems[:4], "offline")
    b = run_offline(repair_problems[:4], "offline")
    assert [r["actions"] for r in a] == [r["actions"] for r in b]


def test_metric_identities_on_mixed_results(repair_problems) -> None:
    rows = run_offline(repair_problems, "greedy") + run_offline(repair_problems, "do-nothing")
    for s in [summarize(rows)["overall"], *summarize(rows)["by_type"].values()]:
        assert s["RRR"] <= s["RR"]
        if s["RR"] > 0:
            assert s["P2Pass"] * s["RR"] == pytest.approx(s["RRR"], abs=1e-3)
        assert s["RR@20"] == s["RR"]
        assert [s[f"RR@{k}"] for k in KS] == sorted(s[f"RR@{k}"] for k in KS)
    assert {r["reward"] for r in rows} <= {150.0, 75.0, -50.0}


def test_diagnosis_recall_and_precision_use_prefix_expanded_deduplicated_targets(repair_problems) -> None:
    p = next(p for p in repair_problems if p.error_type is ErrorType.ME9)
    row = run_offline([p], "ground-truth")[0]  # DROP_CONSTRAINT(min_order): every min_order_t* row
    iis_rows = [m for m in p.iis0 if " " not in m]  # bound members carry "<=" / ">="
    hits = [m for m in iis_rows if m.startswith("min_order_t")]
    assert row["diagnosis_recall"] == pytest.approx(len(hits) / len(iis_rows))
    assert row["diagnosis_precision"] == pytest.approx(len(hits) / p.supply_chain.n_periods)


def test_summary_of_hand_made_rows() -> None:
    rows = [
        {
            "error_type": "ME-1",
            "recovered": True,
            "rational": True,
            "first_optimal_step": 3,
            "steps": 3,
            "reward": 150,
        },
        {
            "error_type": "ME-1",
            "recovered": True,
            "rational": False,
            "first_optimal_step": 12,
            "steps": 14,
            "reward": 75,
        },
        {
            "error_type": "ME-1",
            "recovered": False,
            "rational": False,
            "first_optimal_step": None,
            "steps": 20,
            "reward": -50,
        },
        {
            "error_type": "ME-1",
            "recovered": False,
            "rational": False,
            "first_optimal_step": None,
            "steps": 1,
            "reward": -50,
        },
    ]
    s = summarize_rows(rows)
    assert (s["RR"], s["RRR"], s["P2Pass"]) == (0.5, 0.25, 0.5)
    assert (s["RR@5"], s["RR@10"], s["RR@15"], s["RR@20"]) == (0.25, 0.25, 0.5, 0.5)
