"""A small verified data set (two train and one test problem per error type) shared by the LP tests."""

from __future__ import annotations

import pytest

from solvers.lp.dataset import Problem, generate
from solvers.lp.errortypes import ErrorType

SMALL_COUNTS = {e: (1, 1) for e in ErrorType}


@pytest.fixture(scope="session")
def small_problems() -> list[Problem]:
    problems, _stats = generate(seed=7, counts=SMALL_COUNTS)
    return problems
