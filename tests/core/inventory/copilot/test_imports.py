"""The Copilot page's first paint does not pay for PyTorch (about 1.7 s of imports on the project VM): torch
loads only when a DQN is trained, saved or read back (`solvers/inventory/dqn.py`, `artifacts.py`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
PAGE_IMPORTS = (
    "core.ui",
    "core.inventory.copilot.session",
    "core.inventory.simulator.charts",
    "core.inventory.simulator.inputs",
    "solvers.inventory.agent",
    "solvers.inventory.artifacts",
)


def _loads_torch(code: str) -> bool:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint('torch' in sys.modules)"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip().splitlines()[-1] == "True"


def test_the_copilot_pages_imports_leave_torch_unloaded() -> None:
    assert not _loads_torch("\n".join(f"import {m}" for m in PAGE_IMPORTS))


def test_training_a_dqn_still_loads_torch_when_it_is_needed() -> None:
    assert _loads_torch("from solvers.inventory.dqn import q_network\nq_network(4, 3, 8)")
