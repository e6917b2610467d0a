"""Issue 25, the CLI findings of the independent probe: `retail run --set`, the school lab CLI and
`repair generate --small`. Each hostile value is refused with exit 2 and an error naming the flag (never an
internal error, never a silent run). In-process through `core.cli.main`."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from core import cli
from core.retail.overrides import NOT_OVERRIDABLE, RULES, parse_overrides
from core.schedule.lab import report as lab_report_module
from core.store import Store
from solvers.retail.config import RetailConfig


def call(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object, dict]:
    """Exit code, parsed stdout (or None) and the parsed stderr error object (or {})."""
    try:
        code = cli.main(list(argv))
    except SystemExit as stop:  # argparse usage errors
        code = int(stop.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    out = json.loads(captured.out) if captured.out.strip() else None
    err = json.loads(captured.err.strip().splitlines()[-1]) if captured.err.strip() else {}
    return code, out, err


# --- retail run --set ---

HUGE = "9" * 100_000


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("initial_funds", "nan"),
        ("initial_funds", "NaN"),
        ("initial_funds", "Infinity"),
        ("initial_funds", "-Infinity"),
        ("initial_funds", "1e308"),
        ("initial_funds", "-5"),
        ("initial_funds", "lots"),
        ("initial_funds", '"30000"'),
        ("initial_funds", "{}"),
        ("initial_funds", '{"a": 1}'),
        ("initial_funds", "[1, 2]"),
        ("initial_funds", "null"),
        ("initial_funds", HUGE[:1_900]),
        ("everyday_rent", "true"),
        ("everyday_rent", "false"),
        ("inventory_capacity", "1.5"),
        ("inventory_capacity", "0"),
        ("inventory_capacity", "1e9"),
        ("enable_news", "1"),
        ("enable_news", "yes"),
        ("review_ratio", "2"),
        ("rho", "0"),
        ("news_daily_count", "1000000000"),
        ("shelf_sku_capacity", "-1"),
        ("aggregation", "fancy"),
        ("quality_first_mode", "1"),
        ("categories", '["Nope"]'),
        ("categories", "[]"),
        ("categories", '"Beer"'),
        ("categories", '["Beer", "Beer"]'),
        ("categories", "[" * 1_500),
        ("news_sample_ratios", '{"neutral": NaN}'),
        ("news_sample_ratios", '{"neutral": true}'),
        ("news_sample_ratios", '{"gossip": 0.5}'),
        ("news_impact_mode_weights", '{"neutral": 1e308}'),
        ("news_impact_mode_weights", "[1]"),
    ],
)
def test_retail_set_values_are_typed_and_range_checked(capsys, key: str, value: str) -> None:
    code, out, err = call(capsys, "retail", "run", "--no-store", "--days", "1", "--set", f"{key}={value}")
    assert code == 2 and out is None, (key, value[:40])
    assert err["field"] == f"--set {key}", err
    assert len(err["error"]) < 800


def test_retail_set_refuses_overlong_values_and_unknown_keys(capsys) -> None:
    code, _, err = call(capsys, "retail", "run", "--no-store", "--set", f"initial_funds={HUGE}")
    assert code == 2 and err["field"] == "--set" and "2,000 characters" in err["error"]
    code, _, err = call(capsys, "retail", "run", "--no-store", "--set", "initial_fund=5")
    assert code == 2 and err["field"] == "--set initial_fund"
    assert "initial_funds" in err["error"] and "everyday_rent" in err["error"]  # the valid keys are named
    code, _, err = call(capsys, "retail", "run", "--no-store", "--set", "name=evil")
    assert code == 2 and err["field"] == "--set name" and "--preset" in err["error"]
    code, _, err = call(capsys, "retail", "run", "--no-store", "--set", "no-equals-sign")
    assert code == 2 and err["field"] == "--set"


def test_retail_set_checks_the_whole_configuration_before_running(capsys) -> None:
    code, _, err = call(
        capsys, "retail", "run", "--no-store", "--days", "1",
        "--set", "quality_first_review_weight=0", "--set", "quality_first_return_weight=0",
    )  # fmt: skip
    assert code == 2 and err["field"] == "--set quality_first_review_weight" and "sum to 0" in err["error"]
    code, _, err = call(capsys, "retail", "run", "--no-store", "--preset", "bogus")
    assert code == 2 and err["field"] == "--preset" and "hard_v2" in err["error"]


def test_retail_set_valid_values_are_applied(capsys, tmp_path: Path) -> None:
    db = tmp_path / "retail.duckdb"
    code, out, err = call(
        capsys, "--db", str(db), "retail", "run", "--days", "1", "--set", "initial_funds=12345.5",
        "--set", "enable_news=false", "--set", "news_impact_abs_cap=null", "--set", "quality_first_mode=gate",
        "--set", 'categories=["Beer", "Cookies"]', "--set", 'news_sample_ratios={"neutral": 1}',
    )  # fmt: skip
    assert code == 0, err
    assert out["metrics"]["initial_funds"] == 12345.5
    assert Store(db).get_run(out["run_id"])["config"]["overrides"] == {
        "initial_funds": 12345.5,
        "enable_news": False,
        "news_impact_abs_cap": None,
        "quality_first_mode": "gate",
        "categories": ["Beer", "Cookies"],
        "news_sample_ratios": {"neutral": 1.0},
    }


def test_every_retail_setting_has_a_rule() -> None:
    """A new RetailConfig field must get a typed, ranged rule before `--set` accepts it."""
    assert set(RULES) | set(NOT_OVERRIDABLE) == set(RetailConfig.__dataclass_fields__)
    parsed = parse_overrides(
        ["inventory_capacity=20000", "rho=2.5", "enable_review=TRUE", "shelf_sku_capacity=none"]
    )
    assert parsed == {
        "inventory_capacity": 20_000,
        "rho": 2.5,
        "enable_review": True,
        "shelf_sku_capacity": None,
    }
    assert isinstance(parsed["inventory_capacity"], int)


# --- school lab ---


@pytest.mark.parametrize(
    ("command", "flag", "value"),
    [
        ("utilities", "--seed", "-1"),
        ("utilities", "--seed", "4294967296"),
        ("utilities", "--samples", "0"),
        ("utilities", "--samples", "1e9"),
        ("utilities", "--samples", "1000000000"),
        ("run", "--seed", "-1"),
        ("run", "--max-turns", "0"),
        ("run", "--max-turns", "1e9"),
        ("run", "--max-turns", "1000000000"),
        ("run", "--workers", "0"),
        ("run", "--workers", "100000"),
        ("run", "--utilities", "0"),
        ("run", "--utilities", "-3"),
        ("run", "--utilities", "1e9"),
        ("run", "--name", "a\x00b"),
    ],
)
def test_school_lab_ranges(capsys, tmp_path: Path, command: str, flag: str, value: str) -> None:
    code, out, err = call(
        capsys, "--db", str(tmp_path / "lab.duckdb"), "schedule", "lab", command, f"{flag}={value}"
    )
    assert code == 2 and out is None and err["field"] == flag, err
    assert not (tmp_path / "lab.duckdb").exists()  # refused before any work


def test_school_lab_report_of_an_unknown_experiment(capsys, tmp_path: Path) -> None:
    db = tmp_path / "lab.duckdb"
    Store(db)
    code, _, err = call(capsys, "--db", str(db), "schedule", "lab", "report", "no-such-id")
    assert code == 2 and err["field"] == "EXPERIMENT" and "no experiment 'no-such-id'" in err["error"]
    store = Store(db)
    store.create_experiment(
        "retail-exp", name="r", workbench="retailbench", spec={}, spec_hash="h", status="done"
    )  # fmt: skip
    code, _, err = call(capsys, "--db", str(db), "schedule", "lab", "report", "retail-exp")
    assert code == 2 and err["field"] == "EXPERIMENT" and "not a school scheduling lab" in err["error"]
    missing = tmp_path / "missing.duckdb"
    code, _, err = call(capsys, "--db", str(missing), "schedule", "lab", "report", "no-such-id")
    assert code == 2 and err["field"] == "--db" and not missing.exists()


def test_school_lab_report_without_finished_conversations(monkeypatch) -> None:
    """Every cell failed (e.g. LLM decision agents that never answered): the report says 0 conversations
    instead of failing on the empty table (the probe's KeyError after `--max-turns 0`)."""
    cells = pd.DataFrame(
        {"cell_key": ["c1"], "agent": ["tpp"], "instance": ["u001-precise-rich"], "status": ["failed"]}
    )
    monkeypatch.setattr(lab_report_module, "cell_frame", lambda store, experiment_id: cells)
    assert lab_report_module.lab_frame(None, "x").empty  # type: ignore[arg-type]


# --- repair generate --small ---


@pytest.mark.parametrize("value", ["-1", "0", "101", "1e3", "nan"])
def test_repair_generate_small_must_be_positive(capsys, tmp_path: Path, value: str) -> None:
    dataset = tmp_path / "set.json"
    code, _, err = call(capsys, "repair", "generate", "--small", value, "--dataset", str(dataset))
    assert code == 2 and err["field"] == "--small"
    assert not dataset.exists()  # no empty data set written
