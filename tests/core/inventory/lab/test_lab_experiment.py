"""The lab through the experiment layer: a tiny spec (2 scenarios × the offline Copilot and a rule of thumb) on
the local engine with its paired report; the shipped paper70 spec with LLM treatments is refused without a key."""

from __future__ import annotations

import io
from pathlib import Path

from core.experiments.driver import run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report
from core.experiments.spec import parse_spec
from core.store import Store

SPEC = """
name = "lab_tiny"
workbench = "inventory_lab"
seeds = [0]
repetitions = 1
max_steps = 60
metric = "gap"
goal = "min"
baseline = "A_copilot"
paired = true

[env]
protocol = "mixed"
n = 2
seed = 3
noise = 0.0
assessment_paths = 200
optimizer_paths = 30

[[agents]]
name = "A_copilot"
kind = "offline"
treatment = "A"

[[agents]]
name = "rule_newsvendor"
kind = "offline"
treatment = "rule"
rule = "newsvendor_base_stock"
"""


def test_tiny_lab_spec_on_the_local_engine(store_path: Path) -> None:
    spec = parse_spec(SPEC)
    store = Store(store_path)
    summary = run_experiment(spec, store, engine=LocalEngine(1), progress=io.StringIO())
    assert summary.cells == 4 and summary.done == 4
    report = build_report(store, spec.experiment_id)
    per_agent = report.per_agent.set_index("agent")
    assert per_agent.loc["A_copilot", "n"] == 2 and per_agent.loc["rule_newsvendor", "n"] == 2


def test_paper70_spec_without_a_key_is_refused(store_path: Path) -> None:
    import pytest

    from core.errors import SpecError
    from core.experiments.spec import load_spec

    spec = load_spec(
        Path(__file__).resolve().parents[4] / "data" / "experiments" / "inventory_lab_paper70.toml"
    )
    with pytest.raises(SpecError, match="no offline stand-in"):
        run_experiment(spec, Store(store_path), engine=LocalEngine(1), progress=io.StringIO())
