"""`python -m core.cli schedule lab ...`: utilities, a tiny hand-checked run, report, and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


def cli(*args: str, db: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), "schedule", "lab", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_utilities_lists_the_shipped_set(tmp_path: Path) -> None:
    out = cli("utilities", db=tmp_path / "s.duckdb")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["decision_agents"] == 4 * data["count"]
    assert len(data["utilities"]) == 5


def test_run_and_report_a_tiny_experiment(tmp_path: Path) -> None:
    db = tmp_path / "lab.duckdb"
    out = cli(
        "run",
        "--utilities",
        "1",
        "--paradigm",
        "default",
        "--paradigm",
        "conversation",
        "--style",
        "precise",
        "--quiet",
        "--workers",
        "1",
        db=db,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["summary"]["done"] == 4  # 1 utility x 1 style x 2 feedbacks x 2 paradigms
    report = data["report"]
    assert "offline" in report["note"] and report["llm_designs"].startswith("not run")
    rows = {r["agent"]: r for r in report["table2"]["rows"] if "style" not in r}
    # u001: Muir earlier (w1 .355), load <= 2,500 (w2 .558), change <= 21.5 min (w3 .087); the base schedule
    # misses Muir's slot and the load. Rich: both in one request, then __END__ = 2 turns. Binary: one concern
    # per turn (load first, the heavier weight), then Muir, then __END__ = 3 turns. Mean 2.5.
    assert rows["tpp_conversation"]["success_rate"] == 1.0
    assert rows["tpp_conversation"]["turns"] == pytest.approx(2.5)
    assert rows["tpp_default"]["success_rate"] == 0.0
    again = cli("report", data["summary"]["experiment_id"], db=db)
    assert again.returncode == 0 and json.loads(again.stdout)["conversations"] == 4


def test_bad_count_is_a_field_error(tmp_path: Path) -> None:
    out = cli("run", "--utilities", "many", db=tmp_path / "e.duckdb")
    assert out.returncode == 2
    assert "--utilities" in out.stderr


def test_llm_decision_agents_without_a_key_are_refused(tmp_path: Path, monkeypatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ORCA_PROVIDER", "ORCA_MODEL"):
        monkeypatch.delenv(var, raising=False)
    out = cli("run", "--utilities", "1", "--decision-provider", "anthropic", "--quiet", db=tmp_path / "k.duckdb")
    assert out.returncode == 2 and out.stdout == ""
    error = json.loads(out.stderr.strip().splitlines()[-1])
    assert error["field"] == "env.decision.provider" and "ANTHROPIC_API_KEY" in error["error"]
    assert "no offline stand-in is substituted" in error["error"]


def test_utilities_unique_is_the_papers_strict_set(tmp_path: Path) -> None:
    out = cli("utilities", "--unique", db=tmp_path / "s.duckdb")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["count"] == 92 and data["source"].endswith("schedule_utilities_unique.json")
    assert data["tie_rule"].startswith("unique") and data["utilities"][0]["key"] == "p001"
    default = json.loads(cli("utilities", db=tmp_path / "s.duckdb").stdout)
    assert default["count"] == 102 and "not the paper's rule" in default["tie_rule"]
