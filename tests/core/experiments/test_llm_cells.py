"""LLM agents in an experiment: real SDK calls from worker processes to the fake server, the per-provider
concurrency cap across workers, tokens recorded, and reports that label the agent as an LLM."""

from __future__ import annotations

from pathlib import Path

from core.experiments.driver import ExperimentStatus, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report
from core.store import Store
from tests.core.experiments.conftest import toy_spec


def _max_overlap(intervals: list[tuple[float, float]]) -> int:
    events = sorted([(s, 1) for s, _ in intervals] + [(e, -1) for _, e in intervals])
    level = peak = 0
    for _, step in events:
        level += step
        peak = max(peak, level)
    return peak


def test_llm_cells_respect_the_provider_cap_and_are_labelled(fake_llm, monkeypatch, store_path: Path) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_llm.anthropic_url)
    fake_llm.script([{"hang": 0.25, "text": "15"} for _ in range(12)])
    log = store_path.parent / "calls.log"
    spec = toy_spec(
        env={"horizons": [3]},
        seeds=[0, 1, 2, 3],
        agents=[
            {
                "name": "claude",
                "kind": "llm",
                "provider": "anthropic",
                "model": "fake-model",
                "log": str(log),
            },
            {"name": "low", "S": 10, "spin": 200_000},
        ],
        concurrency={"anthropic": 1},
        baseline="low",
    )
    store = Store(store_path)
    summary = run_experiment(spec, store, engine=LocalEngine(2), progress=False)
    assert summary.status is ExperimentStatus.DONE and summary.done == 8
    calls = [tuple(map(float, line.split())) for line in log.read_text().splitlines()]
    assert len(calls) == 12 == len(fake_llm.requests)
    assert _max_overlap(calls) == 1, "at most one anthropic cell in flight (cap 1) although 2 workers ran"
    cells = store.cells(spec.experiment_id)
    llm_run = cells.loc[cells["agent"] == "claude", "run_id"].iloc[0]
    steps = store.transitions(llm_run)
    assert steps["action"].tolist() == [15, 15, 15] and (steps["input_tokens"] > 0).all()
    report = build_report(store, spec.experiment_id)
    kinds = dict(zip(report.per_agent["agent"], report.per_agent["kind"], strict=True))
    assert kinds == {"claude": "LLM anthropic/fake-model", "low": "offline (built-in)"}
