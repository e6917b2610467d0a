"""The Problem Generator follows Table 11's rules on 1,000 seeded instances and reproduces under a seed."""

from __future__ import annotations

from collections import Counter

import pytest

from core.errors import SpecError
from core.inventory.lab.generator import Scenario, from_jsonl, generate, to_jsonl
from solvers.inventory.spec import read_params_csv


@pytest.fixture(scope="module")
def mixed() -> list[Scenario]:
    return generate(1000, seed=7, protocol="mixed")


def test_rules_hold_on_1000_instances(mixed: list[Scenario]) -> None:
    kinds = Counter()
    for s in mixed:
        p = s.problem
        kinds[p.demand.kind] += 1
        assert not p.perishable
        assert p.setup_cost <= 5
        assert 0.8 <= s.critical_ratio <= 0.9, s.key
        assert p.holding_cost == pytest.approx(0.3 * s.item_cost, abs=1e-9)
        assert p.max_inventory <= 100
        assert p.max_order <= 50 and p.max_order <= p.max_inventory
        assert p.lead_time < p.time_horizon
        assert -10 <= p.risk_tolerance <= 10 and float(p.risk_tolerance).is_integer()
        if p.demand.kind == "normal":
            mean, sd = p.demand.params
            assert abs(sd - mean / 3) <= 0.05 + 1e-9
        # lead-time demand fits in storage and one order can cover a day's demand
        assert (p.lead_time + 1) * p.demand.mean <= p.max_inventory
        assert p.max_order >= p.demand.mean
        assert "{" not in s.context and s.context.endswith(".")
    assert kinds["normal"] > 350 and kinds["poisson"] > 350 and 0 < kinds["deterministic"] < 120


def test_paper70_splits_follow_table5() -> None:
    scenarios = generate(seed=3)
    assert len(scenarios) == 70
    count = Counter(s.split for s in scenarios)
    assert count == {"normal_L7": 14, "poisson_L7": 11, "poisson_L1": 15, "other": 30}
    for s in scenarios:
        if s.split == "normal_L7":
            assert (s.problem.demand.kind, s.problem.lead_time) == ("normal", 7)
        if s.split == "poisson_L1":
            assert (s.problem.demand.kind, s.problem.lead_time) == ("poisson", 1)
        if s.split == "other":
            assert s.problem.demand.kind in ("normal", "poisson")


def test_seeded_and_subset_stable() -> None:
    a, b = generate(20, seed=11, protocol="mixed"), generate(20, seed=11, protocol="mixed")
    assert to_jsonl(a) == to_jsonl(b)
    assert to_jsonl(generate(5, seed=11, protocol="mixed")) == to_jsonl(a[:5])
    assert to_jsonl(generate(20, seed=12, protocol="mixed")) != to_jsonl(a)
    neutral = generate(10, seed=1, protocol="mixed", risk_neutral=True)
    assert {s.problem.risk_tolerance for s in neutral} == {10.0}


def test_risk_neutral_reuses_the_same_businesses() -> None:
    """`--risk-neutral` changes the risk tolerance only, so its runs pair with the default set scenario by scenario."""
    default, neutral = generate(seed=0), generate(seed=0, risk_neutral=True)
    assert len(default) == len(neutral) == 70
    for a, b in zip(default, neutral, strict=True):
        assert b.table == a.table | {"risk_tolerance": "10"}
        assert (b.key, b.split, b.context) == (a.key, a.split, a.context)


def test_round_trip_and_ground_truth_csv() -> None:
    scenarios = generate(8, seed=2, protocol="mixed")
    back = from_jsonl(to_jsonl(scenarios))
    assert [s.problem for s in back] == [s.problem for s in scenarios]
    for s in scenarios:
        assert read_params_csv(s.params_csv()) == s.problem
        assert s.knowledge_base["max_inventory"] == f"{s.problem.max_inventory} units"


def test_bad_input_names_the_field() -> None:
    with pytest.raises(SpecError) as err:
        generate(0, protocol="mixed")
    assert err.value.field == "n"
    with pytest.raises(SpecError) as err:
        generate(3, protocol="table9")
    assert err.value.field == "protocol"
    with pytest.raises(SpecError) as err:
        from_jsonl('{"key": "s1"}\n')
    assert err.value.field == "scenarios" and "line 1: table: is missing" in str(err.value)
