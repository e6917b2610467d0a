"""Seed 003's Tables 2-5 in `experiment report`: a tiny offline run through the CLI, and Table 5's %Δ / Δ(pp)
on hand-made LLM cells (two models x T-P-P / C-N-R), checked by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from core.experiments.report import ExperimentReport
from core.experiments.spec import from_dict
from core.schedule.lab.tables import paper_tables

ROOT = Path(__file__).resolve().parents[4]


def cli(*args: str, db: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_offline_tables_2_3_4_from_one_spec(tmp_path: Path) -> None:
    spec = (ROOT / "data" / "experiments" / "paper003_table2_offline.toml").read_text()
    spec = spec.replace('utilities = "all"', "utilities = 1").replace(
        'name = "paper003_table2_offline"', 'name = "t"'
    )
    path = tmp_path / "t.toml"
    path.write_text(spec)
    db = tmp_path / "x.duckdb"
    run = cli("experiment", "run", str(path), "--quiet", "--workers", "1", "--report", db=db)
    assert run["done"] == 16  # 1 utility x 2 styles x 2 feedbacks x 4 paradigms
    md = cli("experiment", "report", run["experiment_id"], db=db)["markdown"]
    assert run["markdown"] == md  # one command: `experiment run SPEC --report`
    for title in ("Table 2 (seed 003)", "Table 2 notes", "Table 3 (seed 003)", "Table 4 (seed 003)"):
        assert f"## {title}" in md
    assert "Table 5" not in md  # no LLM models to compare
    table2 = md.split("## Table 2 (seed 003)")[1].split("## Table 2 notes")[0]
    assert (
        "| Comm. style | Default Schedule · Avg. score |" in table2
        and "Conversation · Success rate" in table2
    )
    # u001 (Muir earlier, load <= 2,500, change <= 21.5 min): the default schedule scores 0.087 for all four
    # decision agents; the offline conversation reaches U* for each (docs/schedule_lab.md, test_lab_cli)
    assert "| All | 0.087 [0.087, 0.087] | 0.0% [0.0%, 0.0%] |" in table2
    assert "oracles" in table2 and "| 0 / 0 | $0.0000 |" in table2
    table4 = md.split("## Table 4 (seed 003)")[1].split("## Per agent")[0]
    # turns: precise rich 2, precise binary 3 (test_lab_cli); one conversation per row, so no CI there
    assert "| Precise | Rich | 2.000 | 0 / 0 | $0.0000 |" in table4
    assert "| Precise | Binary (Y/N) | 3.000 | 0 / 0 | $0.0000 |" in table4


def _llm_report() -> ExperimentReport:
    agents = [
        {
            "name": f"{d}_{m}",
            "kind": "llm",
            "provider": "openai",
            "model": m,
            "design": d,
            "paradigm": "conversation",
        }
        for m in ("gpt-a", "gpt-b")
        for d in ("T-P-P-paper", "C-N-R")
    ]
    spec = from_dict(
        {
            "name": "t5",
            "workbench": "school_scheduling",
            "metric": "score",
            "env": {"utilities": 2, "decision": {"kind": "llm", "provider": "openai", "model": "gpt-4.1"}},
            "agents": agents,
        }
    )
    # gpt-a: T-P-P scores 1, 1, 0.8, 0.6 (success 1, 1, 0, 0); C-N-R 0.5 everywhere (success 0)
    # gpt-b: T-P-P 1 everywhere; C-N-R 1, 1, 1, 0.5 (success 1, 1, 1, 0)
    scores = {
        "T-P-P-paper_gpt-a": [1.0, 1.0, 0.8, 0.6],
        "C-N-R_gpt-a": [0.5, 0.5, 0.5, 0.5],
        "T-P-P-paper_gpt-b": [1.0, 1.0, 1.0, 1.0],
        "C-N-R_gpt-b": [1.0, 1.0, 1.0, 0.5],
    }
    instances = ["u001-vague-binary", "u001-vague-rich", "u001-precise-binary", "u001-precise-rich"]
    rows, costs = [], []
    for agent, values in scores.items():
        for i, (instance, score) in enumerate(zip(instances, values, strict=True)):
            key = f"{instance}|{agent}|s0|r0"
            rows.append(
                {"cell_key": key, "instance": instance, "agent": agent, "seed": 0, "repetition": 0,
                 "status": "done", "run_id": key, "score": score, "success": float(score == 1.0),
                 "turns": 4.0 + i, "solver_calls": 2.0, "decision_input_tokens": 1000.0,
                 "decision_output_tokens": 0.0}
            )  # fmt: skip
            costs.append(  # as `cell_costs` has it: the optimizer's 1M tokens plus the decision role's 1,000
                {
                    "cell_key": key,
                    "input_tokens": 1_001_000,
                    "output_tokens": 0,
                    "cost_usd": 2.002,
                    "price": "listed",
                }
            )
    empty = pd.DataFrame()
    return ExperimentReport(
        {}, spec, pd.DataFrame(rows), empty, empty, empty, empty, empty, pd.DataFrame(costs)
    )


def test_table5_relative_and_pp_differences_by_hand() -> None:
    tables = {t.key: t for t in paper_tables(_llm_report())}
    assert "paper_table2" not in tables  # one paradigm only
    t5 = tables["paper_table5"].frame.set_index("Model")
    a, b = t5.loc["gpt-a"], t5.loc["gpt-b"]
    # gpt-a: mean T-P-P 0.85, C-N-R 0.5: %Δ = 0.35 / 0.5 = 70 %; success 50 % vs 0 %: Δ = 50 pp
    assert a["Avg. score · T-P-P"].startswith("0.850 [") and a["Avg. score · C-N-R"] == "0.500 [0.500, 0.500]"
    assert a["%Δ"].startswith("70.0% [") and a["Δ(pp)"].startswith("50.0 [")
    # gpt-b: 1.0 vs 0.875: %Δ = 0.125 / 0.875 = 14.3 %; success 100 % vs 75 %: 25 pp
    assert b["%Δ"].startswith("14.3% [") and b["Δ(pp)"].startswith("25.0 [")
    assert a["T-P-P behavior · Number of Turns"].startswith("5.500 [")  # turns 4..7
    assert a["Pairs"] == 4
    # tokens and $: 8 cells x 1M optimizer input tokens ($2 each, listed) + 8 x 1,000 decision-agent tokens
    # (gpt-4.1 at the shipped price of $2 / M input: $0.002 each)
    assert a["Tokens (in / out)"] == "8,008,000 / 0"
    assert a["$"] == "$16.0160"
    t3 = tables["paper_table3"].frame
    assert "T-P-P (gpt-a) · Avg. Score" in t3.columns and "C-N-R (gpt-b) · Success rate" in t3.columns
    tests = tables["paper_table3_tests"].frame
    assert set(tests["Comparison (one-sided)"]) >= {"T-P-P (gpt-a) > C-N-R (gpt-a)"}
    assert "oracles" not in tables["paper_table5"].note  # LLM decision agents: no oracle note


def test_shipped_llm_table_specs_are_refused_without_a_key(tmp_path: Path, monkeypatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    for name in ("paper003_table2.toml", "paper003_tables3_4.toml", "paper003_table5.toml"):
        out = subprocess.run(
            [sys.executable, "-m", "core.cli", "--db", str(tmp_path / "k.duckdb"), "experiment", "run",
             str(ROOT / "data" / "experiments" / name), "--quiet"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert out.returncode == 2, (name, out.stderr)
        assert "OPENAI_API_KEY" in out.stderr and "substituted" in out.stderr, (name, out.stderr)


def test_paired_relative_difference_matches_the_definition() -> None:
    from core.experiments.stats import paired_relative_difference

    rel, low, high = paired_relative_difference([1.0, 0.5, 1.0, 0.5], [0.5, 0.5, 0.5, 0.5])
    assert rel == pytest.approx((0.75 - 0.5) / 0.5) and low <= rel <= high


LLM_SPEC = """
name = "t5_fake"
workbench = "school_scheduling"
metric = "score"
[env]
utilities = ["u001"]
styles = ["precise"]
feedbacks = ["rich"]
decision = {kind = "llm", provider = "openai", model = "gpt-4.1"}
[[agents]]
name = "tpp"
kind = "llm"
provider = "openai"
model = "gpt-4.1"
design = "T-P-P-paper"
paradigm = "conversation"
[[agents]]
name = "cnr"
kind = "llm"
provider = "openai"
model = "gpt-4.1"
design = "C-N-R"
paradigm = "conversation"
"""


def test_table5_from_llm_cells_against_the_fake_server(monkeypatch, fake_llm, tmp_path: Path) -> None:
    """Both designs and the decision agents talk to the fake OpenAI server (every reply ends the conversation);
    the report's Table 5 row carries the pair, and the tokens and $ of every request the cells sent."""
    from core.experiments.driver import prepare
    from core.experiments.report import build_report
    from core.experiments.spec import parse_spec
    from core.experiments.worker import CellStatus, run_cell
    from core.store import Store

    for var in ("ANTHROPIC_API_KEY", "ORCA_PROVIDER", "ORCA_MODEL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script([{"text": "Thank you, that is all. __END__"}] * 40)
    store = Store(tmp_path / "t5.duckdb")
    spec = parse_spec(LLM_SPEC)
    for task in prepare(spec, store):
        outcome = run_cell(task)
        assert outcome.status is CellStatus.DONE, outcome.error
        store.finish_cell(
            spec.experiment_id, outcome.key, status=outcome.status, record=outcome.record, metrics=outcome.metrics
        )
    sent = len(fake_llm.requests)
    assert sent >= 2
    report = build_report(store, spec.experiment_id)
    t5 = next(t for t in report.paper if t.key == "paper_table5").frame
    row = t5.set_index("Model").loc["gpt-4.1"]
    assert row["Pairs"] == 1
    # the fake server counts 11 input and 7 output tokens per request; gpt-4.1 is $2 / $8 per million
    assert row["Tokens (in / out)"] == f"{11 * sent:,} / {7 * sent:,}"
    assert row["$"] == f"${(11 * sent * 2 + 7 * sent * 8) / 1e6:,.4f}"
