"""Seed 000's Tables 5 and 6 and the Fig. 4 query in `experiment report`: the shipped offline spec on a tiny
design through the CLI (the same numbers as the lab report's arithmetic), Table 6 on hand-made records, the LLM
spec refused without a key, and impossible agents refused before any cell exists."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from core.errors import SpecError
from core.experiments.report import ExperimentReport
from core.experiments.spec import from_dict
from core.inventory.lab import protocol
from core.inventory.lab.assessment import ScenarioAssessment
from core.inventory.lab.generator import generate
from core.inventory.lab.lab import TrialRecord
from core.inventory.lab.tables import table6

ROOT = Path(__file__).resolve().parents[4]
SPECS = ROOT / "data" / "experiments"


def cli(*args: str, db: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_offline_spec_gives_table5_and_fig4_on_a_tiny_design(tmp_path: Path) -> None:
    text = (SPECS / "paper000_tables5_6_offline.toml").read_text()
    for old, new in (
        ('protocol = "paper70"', 'protocol = "mixed"\nn = 2'),
        ("seed = 0\ntreatments", "seed = 3\ntreatments"),
        ("noise = 1.0", "noise = 0.0"),
        ("copilot_paths = 200", "copilot_paths = 50"),
        ("critic_paths = 100", "critic_paths = 20"),
        ("assessment_paths = 2000", "assessment_paths = 300"),
    ):
        assert old in text
        text = text.replace(old, new)
    spec = tmp_path / "tiny.toml"
    spec.write_text(text)
    db = tmp_path / "x.duckdb"
    run = cli("experiment", "run", str(spec), "--quiet", "--workers", "1", db=db)
    assert run.returncode == 0, run.stderr
    exp = json.loads(run.stdout)["experiment_id"]
    out = cli("experiment", "report", exp, db=db)
    assert out.returncode == 0, out.stderr
    md = json.loads(out.stdout)["markdown"]
    t5 = md.split("## Table 5 (seed 000)")[1].split("## ")[0]
    # offline: A against the three rules of thumb, labelled privileged and not LLM baselines; no B or C rows
    assert t5.count("| Overall Performance | 2 |") == 3 and "not an LLM baseline" in t5
    assert "vs. B ·" not in t5 and "offline rule-based imitator" in t5
    assert "independent reference" in t5
    assert "## Fig. 4 (seed 000)" in md and "| 2 | 2 | 2 |" in md  # asked, right step, right order
    assert "## Table 6" not in md  # fewer than 8 scenarios: no quartiles
    # the same numbers as the lab report's arithmetic on the same cells
    from core.experiments.report import build_report
    from core.inventory.lab.lab import _records
    from core.inventory.lab.report import compare
    from core.store import Store

    store = Store(db)
    report = build_report(store, exp)
    records, _ = _records(store, report.spec)
    c = compare(records, "A", "rule:newsvendor_base_stock")
    frame = next(t.frame for t in report.paper if t.key == "paper_table5")
    row = frame[(frame["Scenario"] == "Overall Performance") & frame["Benchmark"].str.contains("newsvendor")]
    sd = f"{100 * c.sd_reduction:.1f}%"
    assert row["Avg. Cost Red. (Mean & Std. Dev.)"].item() == f"{100 * c.mean_reduction:.1f}% ± {sd}"
    assert row["Tokens (in / out)"].item() == "0 / 0" and row["$"].item() == "$0.0000"


def test_table6_quartiles_on_hand_made_records() -> None:
    scenarios = generate(8, seed=0)
    records = []
    for i, s in enumerate(scenarios):  # reductions of A over the rule: 0.0, 0.1, ..., 0.7
        costs = {"reference": 50.0, "A": 100.0 * (1 - i / 10), "rule:newsvendor_base_stock": 100.0}
        a = ScenarioAssessment(s.key, s.split, "dp: x", "exact DP optimum", 50.0, costs, {}, {}, {})
        records.append(TrialRecord(s, {"A": None}, a))  # type: ignore[dict-item]
    spec = from_dict({"name": "t", "workbench": "inventory_lab", "adapter": protocol.ADAPTER, "metric": "gap",
                      "env": {"lab": {"n": 8}}, "agents": [{"name": "A", "treatment": "A"}]})  # fmt: skip
    empty = pd.DataFrame()
    report = ExperimentReport({}, spec, empty, empty, empty, empty, empty, empty, empty)
    t6 = table6(report, records)
    assert t6 is not None and "newsvendor rule of thumb" in t6.note
    holding = t6.frame.set_index("Structural Parameter").loc["Holding cost"]
    top = sum(float(s.problem.holding_cost) for s in scenarios[6:]) / 2  # the two largest reductions
    bottom = sum(float(s.problem.holding_cost) for s in scenarios[:2]) / 2
    assert holding["Top Quartile (High Gain)"] == pytest.approx(top)
    assert holding["Bottom Quartile (Low Gain)"] == pytest.approx(bottom) and holding["n each"] == 2


def test_llm_spec_is_refused_without_a_key(tmp_path: Path, monkeypatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    out = cli(
        "experiment", "run", str(SPECS / "paper000_tables5_6.toml"), "--quiet", db=tmp_path / "k.duckdb"
    )
    assert out.returncode == 2 and "OPENAI_API_KEY" in out.stderr and "substituted" in out.stderr


def test_impossible_agents_are_refused_up_front() -> None:
    with pytest.raises(SpecError, match=r"agents\.B\.kind"):
        protocol.check_agents([{"name": "B", "kind": "offline", "treatment": "B"}], {})
    with pytest.raises(SpecError, match=r"agents\.copilot\.treatment"):
        protocol.check_agents([{"name": "copilot", "kind": "offline", "treatment": "A"}], {})
    protocol.check_agents([{"name": "A", "kind": "offline", "treatment": "A"}], {})


def test_table5_blocks_with_llm_treatments_on_hand_made_records() -> None:
    """With B and C (LLM agents), Table 5 has the paper's blocks A vs B and A vs C, plus C vs B, each with the
    paper's rows; costs by hand: A 60, B 100, C 80 on every scenario; tokens and $ of the cells of each pair."""
    from core.inventory.lab.tables import table5
    from core.inventory.lab.treatments import TrialOutcome

    scenarios = generate(seed=0)
    records, cells, costs = [], [], []
    for s in scenarios:
        c = {"reference": 50.0, "A": 60.0, "B": 100.0, "C": 80.0}
        a = ScenarioAssessment(s.key, s.split, "dp: x", "exact DP optimum", 50.0, c, {}, {}, {})
        records.append(TrialRecord(s, {t: TrialOutcome(t, s.key, "policy") for t in "ABC"}, a))
        for t in "ABC":
            key = f"{s.key}|{t}|s0|r0"
            cells.append({"cell_key": key, "instance": s.key, "agent": t, "status": "done"})
            costs.append({"cell_key": key, "input_tokens": 1000, "output_tokens": 100, "cost_usd": 0.01,
                          "price": "listed"})  # fmt: skip
    agents = [
        {"name": t, "kind": "llm", "provider": "openai", "model": "gpt-4o", "treatment": t} for t in "ABC"
    ]
    spec = from_dict({"name": "t", "workbench": "inventory_lab", "adapter": protocol.ADAPTER, "metric": "gap",
                      "env": {"lab": {}}, "agents": agents})  # fmt: skip
    empty = pd.DataFrame()
    report = ExperimentReport(
        {}, spec, pd.DataFrame(cells), empty, empty, empty, empty, empty, pd.DataFrame(costs)
    )
    frame = table5(report, records).frame
    blocks = list(dict.fromkeys(frame["Benchmark"]))
    assert blocks[0].startswith("Baseline 1: vs. B · LLM alone, interactive") and "openai/gpt-4o" in blocks[0]
    assert blocks[1].startswith("Baseline 2: vs. C") and blocks[2].startswith("C over B")
    overall = frame[frame["Scenario"] == "Overall Performance"].set_index("Benchmark")
    assert overall.loc[blocks[0], "Avg. Cost Red. (Mean & Std. Dev.)"] == "40.0% ± 0.0%"  # (100 - 60) / 100
    assert overall.loc[blocks[1], "Avg. Cost Red. (Mean & Std. Dev.)"] == "25.0% ± 0.0%"  # (80 - 60) / 80
    assert overall.loc[blocks[2], "Avg. Cost Red. (Mean & Std. Dev.)"] == "20.0% ± 0.0%"  # (100 - 80) / 100
    assert overall.loc[blocks[0], "Win Rate (%)"] == "100.0%" and overall.loc[blocks[0], "Count (n)"] == 70
    # two treatments x 70 cells x (1,000 in, 100 out, $0.01)
    assert (
        overall.loc[blocks[0], "Tokens (in / out)"] == "140,000 / 14,000"
        and overall.loc[blocks[0], "$"] == "$1.4000"
    )
    short = frame[frame["Scenario"].str.contains("Short Lead Time")].set_index("Benchmark")
    assert (
        short.loc[blocks[0], "Count (n)"] == 15
        and short.loc[blocks[0], "Tokens (in / out)"] == "30,000 / 3,000"
    )
