"""Brute-force enumeration of every schedule (vectorised with numpy) as an optimality oracle."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from solvers.schedule.data import District, School
from solvers.schedule.model import ScheduleSpec


@dataclass
class Enumeration:
    assignments: np.ndarray  # (m, n) slot index per school
    load: np.ndarray
    deviation: np.ndarray

    def objective(self, spec: ScheduleSpec) -> np.ndarray:
        d = spec.district
        bonus = np.zeros(len(self.assignments))
        for school, minutes, weight in spec.gamma:
            bonus += weight * (self.assignments[:, d.school_index(school)] == d.time_index(minutes))
        return spec.alpha * self.load + spec.beta * self.deviation - bonus

    def feasible(self, spec: ScheduleSpec) -> np.ndarray:
        d = spec.district
        mask = np.ones(len(self.assignments), dtype=bool)
        for school, minutes in spec.fixed:
            mask &= self.assignments[:, d.school_index(school)] == d.time_index(minutes)
        for school, minutes in spec.forbidden:
            mask &= self.assignments[:, d.school_index(school)] != d.time_index(minutes)
        if spec.max_load is not None:
            mask &= self.load <= spec.max_load + 1e-9
        if spec.max_deviation is not None:
            mask &= self.deviation <= spec.max_deviation + 1e-9
        for cut in spec.excluded:
            mask &= ~(self.assignments == np.array(cut)).all(axis=1)
        return mask


def enumerate_schedules(district: District) -> Enumeration:
    n, k = len(district.schools), len(district.start_times)
    a = np.array(list(itertools.product(range(k), repeat=n)), dtype=np.int64)
    enrollment = np.array([s.enrollment for s in district.schools])
    current = np.array([s.current_start for s in district.schools])
    starts = np.array(district.start_times)
    loads = np.stack([(a == t).astype(np.int64) @ enrollment for t in range(k)], axis=1)
    return Enumeration(a, loads.max(axis=1) / 100.0, np.abs(starts[a] - current).sum(axis=1) / n)


def random_district(rng: np.random.Generator, n: int, k: int) -> District:
    starts = tuple(sorted(int(v) for v in rng.choice(np.arange(420, 600, 10), size=k, replace=False)))
    schools = tuple(
        School(f"School {i}", "ES", int(rng.integers(5, 2000)), int(rng.choice(np.arange(450, 580, 5))))
        for i in range(n)
    )
    return District(schools, starts)


@pytest.fixture
def brute():
    return enumerate_schedules


@pytest.fixture
def make_district():
    return random_district
