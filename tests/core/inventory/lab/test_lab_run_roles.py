"""`inventory lab run --role`: each role's model reaches its own fake server (the consultant and judge on one,
the manager imitator on the other), the imitator's tokens are priced at its own model in the experiment's cost
tables, the report says who played each role, and a role without its key is refused before anything runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli import main
from core.experiments.report import build_report
from core.llm.prices import parse_prices
from core.store import Store
from tests.support.fake_llm import FakeLLMServer

ARGS = [
    "inventory", "lab", "run", "--protocol", "mixed", "--n", "1", "--seed", "4", "--treatments", "B",
    "--noise", "0", "--paths", "30", "--assessment-paths", "200", "--workers", "1",
]  # fmt: skip
ROLES = ["--role", "copilot=openai:model-c", "--role", "imitator=anthropic:model-i"]


@pytest.fixture
def second_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer()
    yield server
    server.close()


def test_each_lab_role_reaches_its_own_server_and_is_priced_at_its_model(
    fake_llm, second_server: FakeLLMServer, monkeypatch, tmp_path: Path, capsys
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", second_server.anthropic_url)
    fake_llm.script(
        [
            {"text": "How many units do you sell per day?"},  # the consultant (B)
            {"text": "No"},  # the judge (B's model: copilot)
            {"text": "When inventory drops below 10, order up to 30."},
            {"text": "Yes"},
        ]
    )
    second_server.script([{"text": "About 10 a day, give or take 3.", "usage": (100, 5)}])  # the imitator
    db = tmp_path / "orca.duckdb"
    code = main(["--db", str(db), *ARGS, *ROLES, "--out", str(tmp_path / "out")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    consultant, imitator = fake_llm.requests, second_server.requests
    assert len(consultant) == 4 and {r["body"]["model"] for r in consultant} == {"model-c"}
    assert all(r["path"].endswith("/chat/completions") for r in consultant)
    assert len(imitator) == 1 and imitator[0]["body"]["model"] == "model-i"
    assert imitator[0]["path"].endswith("/messages")
    # who played each role, on every row of results.csv
    csv = (tmp_path / "out" / "results.csv").read_text()
    assert "imitator LLM anthropic/model-i" in csv and "Copilot with LLM openai/model-c" in csv
    # the imitator's tokens (100 in / 5 out) are priced at model-i; the run's own (4 × 11 / 7) at model-c
    prices = parse_prices('[openai]\n"model-c" = { input = 1, output = 1 }\n[anthropic]\n"model-i" = { input = 10, output = 10 }\n')
    report = build_report(Store(db), out["experiment_id"], prices=prices)
    cell = report.cell_costs.iloc[0]
    assert (cell["input_tokens"], cell["output_tokens"]) == (44 + 100, 28 + 5)
    assert cell["cost_usd"] == pytest.approx((44 + 28) * 1 / 1e6 + (100 + 5) * 10 / 1e6)
    assert cell["role_tokens"] == "imitator: 100 in / 5 out"
    assert report.costs.set_index("agent").at["B", "price"] == "listed"
    # without the imitator's price the cell's cost is unknown, never $0
    only = parse_prices('[openai]\n"model-c" = { input = 1, output = 1 }\n')
    assert build_report(Store(db), out["experiment_id"], prices=only).costs.at[0, "price"] == "price unknown"


def test_a_lab_role_without_its_key_is_refused_naming_the_variable(
    fake_llm, monkeypatch, tmp_path: Path, capsys
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code = main(["--db", str(tmp_path / "orca.duckdb"), *ARGS, *ROLES, "--out", str(tmp_path / "out")])
    err = json.loads(capsys.readouterr().err)
    assert code == 2 and err["field"] == "agents.B.roles.imitator" and "ANTHROPIC_API_KEY" in err["error"]
    assert fake_llm.requests == []  # nothing ran, nothing was substituted
    with pytest.raises(SystemExit):
        main(["--db", str(tmp_path / "orca.duckdb"), *ARGS, "--role", "critic", "--out", str(tmp_path / "o")])


def test_the_consultant_and_the_judge_on_two_models_are_each_priced_at_their_own(
    fake_llm, second_server: FakeLLMServer, monkeypatch, tmp_path: Path, capsys
) -> None:
    """The cell records B's tokens per role (`copilot_*`, `judge_*`), so `experiment report` prices each at its
    own model ("per role"), not all at the dearer one (the upper bound it gives a cell without the split)."""
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", second_server.anthropic_url)
    fake_llm.script(
        [
            {"text": "How many units do you sell per day?", "usage": (200, 20)},  # the consultant (B)
            {"text": "When inventory drops below 10, order up to 30.", "usage": (200, 20)},
        ]
    )
    second_server.script([{"text": "No", "usage": (50, 1)}, {"text": "Yes", "usage": (50, 1)}])  # the judge
    table = '[openai]\n"model-c" = { input = 1, output = 2 }\n[anthropic]\n"model-j" = { input = 10, output = 50 }\n'
    (tmp_path / "prices.toml").write_text(table)
    monkeypatch.setenv("ORCA_LLM_PRICES", str(tmp_path / "prices.toml"))  # the lab report's price table
    db = tmp_path / "orca.duckdb"
    roles = ["--role", "copilot=openai:model-c", "--role", "judge=anthropic:model-j"]
    code = main(["--db", str(db), *ARGS, *roles, "--out", str(tmp_path / "out")])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    assert len(fake_llm.requests) == 2 and len(second_server.requests) == 2
    prices = parse_prices(table)
    report = build_report(Store(db), out["experiment_id"], prices=prices)
    cell = report.cell_costs.iloc[0]
    assert (cell["input_tokens"], cell["output_tokens"]) == (400 + 100, 40 + 2)
    # the consultant's 400 in / 40 out at model-c (1, 2) + the judge's 100 in / 2 out at model-j (10, 50)
    assert cell["cost_usd"] == pytest.approx((400 * 1 + 40 * 2) / 1e6 + (100 * 10 + 2 * 50) / 1e6)  # $0.00158
    assert cell["price"] == "per role"
    assert cell["agent_role_tokens"] == "copilot: 400 in / 40 out; judge: 100 in / 2 out"
    costs = report.costs.set_index("agent")
    assert costs.at["B", "price"] == "per role" and costs.at["B", "cost_usd"] == pytest.approx(0.00158)
    assert report.total_cost == pytest.approx(0.00158)
    # the lab's own report counts the same tokens per role
    text = (tmp_path / "out" / "report.md").read_text()
    assert "| B | copilot |" in text and "| 400 | 40 |" in text and "| 100 | 2 |" in text
    # ... and its $ are those of `experiment report` (its "Tokens and cost" table and the CLI's `costs`)
    assert "## Tokens and cost" in text and "| B | 1 | 500 | 42 | $0.0016 | per role |" in text
    assert out["costs"][0]["cost_usd"] == pytest.approx(0.00158) and out["costs"][0]["price"] == "per role"
