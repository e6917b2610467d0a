"""The ground-truth reference is independent of the Copilot (issue 30): the exact DP wherever it runs, whatever
the `families` switch, else a search with more paths on another seed, labelled as no exact reference."""

from __future__ import annotations

from typing import Any

import pytest

from core.inventory.lab.assessment import (
    EXACT_REFERENCE,
    REFERENCE_PATHS_FACTOR,
    REFERENCE_SEED_OFFSET,
    AssessmentConfig,
    assess,
    reference_result,
)
from core.inventory.lab.generator import generate
from core.inventory.lab.treatments import CachedOptimizer


def test_paper_families_keep_the_exact_dp_reference_on_s029() -> None:
    s029 = generate(seed=0)[29]
    assert (s029.problem.lead_time, s029.problem.demand.kind) == (1, "poisson")
    optimizer = CachedOptimizer("paper")
    a = assess(s029, {}, optimizer, AssessmentConfig(paths=200, optimizer_paths=30))
    # the audit's independent DP: 318.4334; the paper menu used to score against an (s,S) policy at 321.97
    assert a.reference_kind == EXACT_REFERENCE and a.reference.startswith("dp:")
    assert a.dp_optimal_cost == pytest.approx(318.4334, abs=1e-3)
    # the Copilot's own call still gets the paper menu only
    copilot = optimizer(s029.problem, 30, 0, False, None, use_dp=True)
    assert set(copilot.evaluations) == {"sS"} and copilot.dp is None


class _Recording:
    """A stand-in optimizer that records its calls (paths, seed, keywords) and returns a cached real result."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, dict[str, Any]]] = []
        self.inner = CachedOptimizer()

    def __call__(self, problem, paths, seed, use_dqn, progress, **kw):
        self.calls.append((paths, seed, kw))
        return self.inner(problem, 30, 0, use_dqn, progress, **kw)


def test_the_reference_search_uses_more_paths_and_another_seed_than_the_copilot() -> None:
    scenario = generate(seed=0)[0]  # normal demand, lead time 7: the DP does not run
    config = AssessmentConfig(paths=100, optimizer_paths=40, seed=5)
    recording = _Recording()
    reference_result(scenario, recording, config)
    ((paths, seed, kw),) = recording.calls
    assert paths == 40 * REFERENCE_PATHS_FACTOR > 40 and seed == 5 + REFERENCE_SEED_OFFSET != 5
    assert kw == {"use_dp": True, "menu": "full"}
    a = assess(scenario, {}, recording, config)
    assert a.dp_optimal_cost is None
    assert a.reference_kind.startswith("no exact reference") and "not proven optimal" in a.reference_kind
    assert "80 paths, seed 1000008" in a.reference_kind and "40 paths, seed 5" in a.reference_kind
