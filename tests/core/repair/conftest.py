"""One verified test problem per error type, shared by the repair-agent tests."""

from __future__ import annotations

import pytest

from solvers.lp.dataset import Problem, generate
from solvers.lp.errortypes import ErrorType


@pytest.fixture(scope="session")
def repair_problems() -> list[Problem]:
    problems, _stats = generate(seed=5, counts={e: (0, 1) for e in ErrorType})
    return problems
