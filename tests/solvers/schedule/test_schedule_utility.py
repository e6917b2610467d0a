"""Utilities of seed 003 §4.3 and the Appendix 10.2 generator: exact enumeration and invariants."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from core.errors import SpecError
from solvers.schedule.data import sfusd_district
from solvers.schedule.model import evaluate
from solvers.schedule.utility import (
    Direction,
    GeneratorSpec,
    Utility,
    conditional_frontiers,
    enumerate_space,
    generate_utilities,
    sfusd_space,
    slot_values,
)


def test_space_matches_the_scalar_evaluator_on_every_schedule_sample() -> None:
    space = sfusd_space()
    district = sfusd_district()
    assert space.assignments.shape == (3**10, 10)
    rng = np.random.default_rng(0)
    for row in rng.integers(0, 3**10, size=200):
        assignment = tuple(int(a) for a in space.assignments[row])
        load, deviation = evaluate(district, assignment)
        assert space.load[row] == pytest.approx(load)
        assert space.deviation[row] == pytest.approx(deviation)
        assert space.index_of(assignment) == row


def test_slot_values_follow_the_direction() -> None:
    assert slot_values(Direction.EARLIER, 3) == (1.0, 0.5, 0.0)
    assert slot_values(Direction.LATER, 3) == (0.0, 0.5, 1.0)


def test_paper_example_utility_by_hand() -> None:
    """Appendix 10.3: Ortega parent, earlier, w=(0.252, 0.416, 0.332), L=25, R=11.5, U*=0.748."""
    district = sfusd_district()
    u = Utility("x", "Ortega (Jose) PK", Direction.EARLIER, 0.252, 0.332, 0.416, 25.0, 11.5)
    base = (2, 2, 2, 0, 1, 0, 0, 1, 1, 2)  # the base-model proposal of the paper's Section 9 table
    load, deviation = evaluate(district, base)
    assert (load, deviation) == (pytest.approx(25.65), pytest.approx(8.5))
    assert u.items(district, base) == (0.0, 0.0, 1.0)
    assert u.value(district, base) == pytest.approx(0.416)
    best, ties = u.optimum(sfusd_space())
    assert best == pytest.approx(0.748)  # the paper's stated maximum for this agent
    assert ties >= 1


def test_utility_validation_names_the_field() -> None:
    with pytest.raises(SpecError, match="w1"):
        Utility("x", "Everett MS", Direction.LATER, 0.5, 0.5, 0.5, 20.0, 10.0)
    with pytest.raises(SpecError, match="max_load"):
        Utility("x", "Everett MS", Direction.LATER, 0.2, 0.3, 0.5, -1.0, 10.0)
    with pytest.raises(SpecError, match="role"):
        Utility("x", "Everett MS", Direction.LATER, 0.2, 0.3, 0.5, 20.0, 10.0, role="mayor")


def test_conditional_frontiers_are_non_dominated_within_their_slot() -> None:
    space = sfusd_space()
    rows = conditional_frontiers(space, 6)
    assert 5 <= len(rows) <= 40
    for row in rows:
        slot = space.assignments[row, 6]
        same = space.assignments[:, 6] == slot
        better = same & (space.load <= space.load[row]) & (space.deviation <= space.deviation[row])
        better &= (space.load < space.load[row] - 1e-9) | (space.deviation < space.deviation[row] - 1e-9)
        assert not better.any()


@pytest.fixture(scope="module")
def generated() -> list[Utility]:
    return generate_utilities(sfusd_space(), GeneratorSpec(samples=2000))


def test_generator_targets_are_unique_maximisers(generated: list[Utility]) -> None:
    space = sfusd_space()
    assert 60 <= len(generated) <= 160
    for u in generated:
        values = u.values(space)
        best = values.max()
        assert u.u_star == pytest.approx(best, abs=1e-6)
        assert u.value(space.district, u.target) == pytest.approx(best)  # target attains U*
        q = space.district.school_index(u.school)
        candidates = conditional_frontiers(space, q)
        maxima = [r for r in candidates if values[r] >= best - 1e-9]
        assert maxima == [space.index_of(u.target)]  # unique among the school's candidates
        assert u.u_star > 0
        assert sum(u.weights) == pytest.approx(1.0)


def test_generator_is_reproducible_and_seed_sensitive(generated: list[Utility]) -> None:
    again = generate_utilities(sfusd_space(), GeneratorSpec(samples=2000))
    assert again == generated
    other = generate_utilities(sfusd_space(), GeneratorSpec(seed=4, samples=2000))
    assert other != generated


def test_enumeration_refuses_huge_spaces() -> None:
    with pytest.raises(SpecError, match="district"):
        enumerate_space(sfusd_district(), limit=1000)


def test_u_star_brute_force_on_a_small_slice() -> None:
    """U* from the vectorised max equals a plain Python loop over all 3^10 schedules for one utility."""
    district = sfusd_district()
    u = Utility("x", "Lick (James) MS", Direction.LATER, 0.3, 0.45, 0.25, 21.0, 14.0)
    best = max(u.value(district, a) for a in itertools.product(range(3), repeat=10))
    assert u.optimum(sfusd_space())[0] == pytest.approx(best)
