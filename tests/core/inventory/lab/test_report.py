"""Report arithmetic against a hand-checked experiment, and a tiny real offline run checked by hand."""

from __future__ import annotations

import csv
import io

import pytest

from core.config import Settings
from core.errors import SpecError
from core.inventory.lab.assessment import ScenarioAssessment
from core.inventory.lab.generator import generate
from core.inventory.lab.lab import LabConfig, LabResult, TrialRecord, run_lab
from core.inventory.lab.report import (
    SPLITS,
    compare,
    extraction_accuracy,
    gap_summary,
    load_result,
    render_markdown,
    results_csv,
    write_report,
)
from core.inventory.lab.treatments import TrialOutcome
from solvers.inventory.montecarlo import evaluate_policies


def _hand_made() -> LabResult:
    scenarios = generate(4, seed=1)  # paper70 order: the first 4 are normal, L = 7
    cost_a = [90.0, 80.0, 100.0, 50.0]
    cost_b = [100.0, 100.0, 100.0, 100.0]
    records = []
    for s, a, b in zip(scenarios, cost_a, cost_b, strict=True):
        table = dict(s.table)
        if s.key == "s001":
            table["lead_time"] = "6"
        outcomes = {
            "A": TrialOutcome("A", s.key, "policy", table=table),
            "B": TrialOutcome("B", s.key, "policy"),
        }
        costs = {"reference": 50.0, "A": a, "B": b}
        gaps = {"A": (a - 50) / 50, "B": (b - 50) / 50}
        assessment = ScenarioAssessment(
            s.key, s.split, "dp: x", "exact DP optimum", 50.0, costs, {}, {}, gaps
        )
        records.append(TrialRecord(s, outcomes, assessment))
    return LabResult(LabConfig(n=4), {"provider": "test", "model": "hand"}, records)


def test_comparison_numbers_by_hand() -> None:
    result = _hand_made()
    c = compare(result.records, "A", "B")
    # reductions (100-90)/100, (100-80)/100, 0, (100-50)/100 = 0.1, 0.2, 0, 0.5
    assert c.n == 4 and c.mean_reduction == pytest.approx(0.2)
    assert c.sd_reduction == pytest.approx(0.21602469, rel=1e-6)
    assert c.win_rate == pytest.approx(0.75)
    assert c.ttest_p is not None and 0 < c.ttest_p < 1
    assert compare(result.records, "A", "B", "poisson_L1").n == 0
    g = gap_summary(result.records)["A"]
    # gaps 0.8, 0.6, 1.0, 0.0
    assert g["median"] == pytest.approx(0.7) and g["within_2pct"] == pytest.approx(0.25)
    acc = extraction_accuracy(result.records)
    assert acc["lead_time"] == pytest.approx(0.75) and acc["table"] == pytest.approx(0.75)
    assert acc["holding_cost"] == 1.0
    md = render_markdown(result)
    assert "20.0% ± 21.6%" in md and "75.0%" in md
    for words in (
        "**Capacity**: `capacity_basis = inventory_position` (default)",
        "**Optimizer families**: `families = full`",
        "**Fig. 4 day numbering**: `day_numbering = from_one` (default)",
    ):
        assert words in md


def test_tiny_offline_run_checked_by_hand(tmp_path) -> None:
    config = LabConfig(
        protocol="mixed", n=2, seed=3, noise=0.0, copilot_paths=50, critic_paths=20, assessment_paths=300
    )
    result = run_lab(config, Settings())
    assert set(result.not_run) == {"B", "C"} and "nothing is substituted" in result.not_run["B"]
    for record in result.records:
        out = record.outcomes["A"]
        assert set(record.outcomes) == {"A"}
        assert out.status == "policy" and all(out.table_matches(record.scenario.table).values())
        a = record.assessment
        # recompute A's cost and the reference's on the same paths, independently of the lab
        again = evaluate_policies(record.scenario.problem, [out.policy], 300, config.seed + 17)[0]
        assert a.costs["A"] == pytest.approx(again.mean)
        assert a.gaps["A"] == pytest.approx((a.costs["A"] - a.costs["reference"]) / a.costs["reference"])
        assert set(a.costs) >= {"rule:newsvendor_base_stock", "rule:textbook_sS", "rule:order_the_mean"}
        # Fig. 4's follow-up (default numbering: "day 5" is time step 4) through the Copilot's order tool
        oq = out.order_query
        assert "day 5," in oq["question"] and oq["step_passed"] == 4 and oq["order_ok"], oq
    md = render_markdown(result)
    assert "was not run" in md and "not LLM baselines" in md
    assert "rule of thumb" in md
    paths = write_report(result, tmp_path)
    rows = list(csv.DictReader(io.StringIO(paths["results.csv"].read_text())))
    assert len(rows) == 2 and rows[0]["B_status"] == "not run"
    assert "plotly" in paths["charts.html"].read_text()[:100000].lower()
    back = load_result(tmp_path)
    assert results_csv(back) == results_csv(result)
    assert render_markdown(back).split("## Paper-exact")[1] == md.split("## Paper-exact")[1]


def test_a_dp_table_for_a_misread_lead_time_is_not_evaluable() -> None:
    from core.inventory.lab.assessment import AssessmentConfig, assess
    from core.inventory.lab.lab import LabConfig
    from core.inventory.lab.treatments import CachedOptimizer
    from solvers.inventory.dp import solve_dp
    from solvers.inventory.spec import problem_from_table

    # The smallest such scenario (two DP solves, whose time grows with the size; the refusal does not depend on it)
    s = min(
        (x for x in generate(40, seed=2026, protocol="mixed") if x.problem.lead_time == 1),
        key=lambda x: x.problem.max_inventory * x.problem.max_order * x.problem.time_horizon,
    )
    wrong = dict(s.table) | {"lead_time": "2"}
    policy = solve_dp(problem_from_table(wrong)).policy
    outcome = TrialOutcome("A", s.key, "policy", policy=policy, policy_text="DP policy")
    a = assess(s, {"A": outcome}, CachedOptimizer(), AssessmentConfig(paths=100, optimizer_paths=30))
    assert "A" not in a.costs and "lead time of 2 days" in a.excluded["A"]
    record = TrialRecord(s, {"A": outcome}, a)
    result = LabResult(LabConfig(n=1), {"provider": "offline", "model": "x"}, [record])
    assert "cannot act on the true system" in render_markdown(result)
    assert compare(result.records, "A", "rule:order_the_mean").excluded == 1


def test_every_report_names_the_switches_with_their_values(tmp_path) -> None:
    result = _hand_made()
    result = LabResult(
        LabConfig(n=4, capacity_basis="on_hand", families="paper", day_numbering="fig4"),
        result.settings,
        result.records,
    )
    md = render_markdown(result)
    assert "`capacity_basis = on_hand` — counted on on-hand stock only (Appendix A.1)" in md
    assert "`families = paper`" in md and "`day_numbering = fig4` — Fig. 4's numbering" in md
    paths = write_report(result, tmp_path)
    rows = list(csv.DictReader(io.StringIO(paths["results.csv"].read_text())))
    assert {(r["capacity_basis"], r["families"], r["day_numbering"]) for r in rows} == {
        ("on_hand", "paper", "fig4")
    }
    html = paths["charts.html"].read_text()
    assert "Paper-exact switches" in html and "<code>capacity_basis = on_hand</code>" in html
    assert "<code>day_numbering = fig4</code>" in html
    back = load_result(tmp_path)
    assert back.config.capacity_basis == "on_hand" and back.config.day_numbering == "fig4"
    for bad in ({"capacity_basis": "shelf"}, {"day_numbering": "day_one"}):
        with pytest.raises(SpecError) as err:
            LabConfig(**bad)
        assert err.value.field == next(iter(bad))


def test_the_capacity_switch_reaches_the_assessment() -> None:
    """A constant order of the max order on a scenario with L >= 2: on the on-hand basis it is truncated by the
    shelf stock only, so its cost differs; each cost is the simulator's on the problem with that basis."""
    from dataclasses import replace

    from core.inventory.lab.assessment import AssessmentConfig, assess
    from core.inventory.lab.treatments import CachedOptimizer
    from solvers.inventory.montecarlo import demand_matrix, simulate_policy
    from solvers.inventory.policies import ConstantPolicy

    # The smallest such scenario: the assessment's reference is a DP solve whose time grows with the shelf, the
    # order size, the horizon and the lead time, and the switch's effect does not depend on the size.
    s = min(
        (x for x in generate(40, seed=2026, protocol="mixed") if x.problem.lead_time >= 2),
        key=lambda x: x.problem.max_inventory * x.problem.max_order**x.problem.lead_time * x.problem.time_horizon,
    )
    policy = ConstantPolicy(s.problem.max_order)
    outcome = TrialOutcome("A", s.key, "policy", policy=policy, policy_text="order the max every day")
    costs = {}
    for basis in ("inventory_position", "on_hand"):
        config = AssessmentConfig(paths=200, optimizer_paths=20, capacity_basis=basis)
        a = assess(s, {"A": outcome}, CachedOptimizer(capacity_basis=basis), config)
        truth = replace(s.problem, capacity_basis=basis)
        expected = simulate_policy(truth, policy, demand_matrix(truth, 200, config.seed + 17)).mean
        assert a.costs["A"] == pytest.approx(expected)
        costs[basis] = a.costs["A"]
    assert costs["on_hand"] != pytest.approx(costs["inventory_position"])


def test_every_csv_row_and_the_charts_say_who_played_each_role(tmp_path) -> None:
    """Issue 30: a shared results.csv says that A and the manager were offline stand-ins (or which LLM)."""
    hand = _hand_made()
    offline = LabResult(LabConfig(n=4), {"provider": "offline", "model": "rules"}, hand.records)
    paths = write_report(offline, tmp_path / "off")
    rows = list(csv.DictReader(io.StringIO(paths["results.csv"].read_text())))
    assert {(r["provider"], r["A_agent"], r["BC_model"], r["imitator"]) for r in rows} == {
        (
            "offline",
            "offline stand-in (rule-based Copilot extraction)",
            "not run (offline)",
            "offline stand-in (rule-based imitator)",
        )
    }
    assert "Who played each role" in paths["charts.html"].read_text()
    llm = LabResult(LabConfig(n=4, imitator="llm"), {"provider": "openai", "model": "gpt-x"}, hand.records)
    rows = list(csv.DictReader(io.StringIO(write_report(llm, tmp_path / "llm")["results.csv"].read_text())))
    assert {(r["model"], r["A_agent"], r["imitator"]) for r in rows} == {
        ("gpt-x", "Copilot with LLM openai/gpt-x", "LLM persona imitator openai/gpt-x")
    }


def test_table5_rows_have_the_papers_counts() -> None:
    """14 normal L7, 11 Poisson L7, 15 Poisson L1 (the paper's n): the two Poisson L = 1 scenarios among the
    30 "other" ones (s040, s054 at seed 0) are not in the L1 row; a mixed scenario counts by its attributes."""
    records = []
    for s in generate(seed=0):
        costs = {"reference": 50.0, "A": 60.0, "B": 100.0}
        a = ScenarioAssessment(s.key, s.split, "dp: x", "exact DP optimum", 50.0, costs, {}, {}, {})
        records.append(TrialRecord(s, {}, a))
    other_l1 = [
        r.scenario.key
        for r in records
        if r.scenario.split == "other"
        and (r.scenario.problem.demand.kind, r.scenario.problem.lead_time) == ("poisson", 1)
    ]
    assert other_l1 == ["s040", "s054"]
    counts = {split: compare(records, "A", "B", split).n for _, split in SPLITS}
    assert counts == {"all": 70, "normal_L7": 14, "poisson_L7": 11, "poisson_L1": 15}
    mixed = next(
        s
        for s in generate(40, seed=2026, protocol="mixed")
        if (s.problem.demand.kind, s.problem.lead_time) == ("poisson", 1)
    )
    a = ScenarioAssessment(
        mixed.key, mixed.split, "dp: x", "exact DP optimum", 50.0, {"A": 1.0, "B": 2.0}, {}, {}, {}
    )
    assert compare([TrialRecord(mixed, {}, a)], "A", "B", "poisson_L1").n == 1
