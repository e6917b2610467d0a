"""The shipped inventory spec end to end through the Policy Simulator's real adapter (skipped until
`core.inventory.simulator.experiment` is present)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from core.experiments.background import shipped_specs
from core.experiments.driver import ExperimentStatus, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report
from core.experiments.spec import load_spec
from core.store import Store

pytest.importorskip("core.inventory.simulator.experiment")


def test_the_inventory_spec_runs_and_reports_paired_statistics(store_path: Path) -> None:
    spec = load_spec(shipped_specs()["inventory_policies.toml"])
    store = Store(store_path)
    summary = run_experiment(spec, store, engine=LocalEngine(2), progress=io.StringIO())
    assert summary.status is ExperimentStatus.DONE and summary.done == summary.cells == 60
    report = build_report(store, spec.experiment_id)
    assert report.per_agent["n"].tolist() == [15] * 4
    assert report.paired["agent"].tolist() == ["sS_10_20", "sS_15_25", "constant_8"]
    assert (report.paired["n_pairs"] == 15).all() and report.paired["wilcoxon_p"].notna().all()
