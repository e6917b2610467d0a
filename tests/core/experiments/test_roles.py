"""Models per role: a spec (or `--role`) names provider/model/temperature/seed per role, each role reaches its
own server (two fake servers), a role without a key is refused (never an offline stand-in), an adapter that
cannot take roles is refused up front, and reports label every role's model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.cli import main
from core.errors import SpecError
from core.experiments.driver import ExperimentStatus, role_settings, run_experiment
from core.experiments.engines import LocalEngine
from core.experiments.report import build_report
from core.experiments.spec import with_roles
from core.llm.prices import parse_prices
from core.llm.roles import RoleModel, parse_role, role_table
from core.store import Store
from tests.core.experiments.conftest import TOY, toy_spec
from tests.support.fake_llm import FakeLLMServer

ROLES = {
    "orderer": {"provider": "openai", "model": "model-a", "temperature": 0.0, "seed": 7},
    "judge": "anthropic:model-b",
}


@pytest.fixture
def second_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer()
    yield server
    server.close()


def test_role_text_and_tables_are_validated() -> None:
    assert parse_role("judge=openai:llama3:8b") == ("judge", RoleModel("openai", "llama3:8b"))
    assert parse_role("imitator=offline:rules")[1].label == "offline stand-in (rules)"
    for bad, field in [
        ("judge", "--role"),
        ("Judge=openai:m", "--role"),
        ("judge=gemini:m", "--role.provider"),
        ("judge=openai:", "--role.model"),
        ("judge=openai", "--role"),
        ("judge=openai:a\x00b", "--role.model"),
    ]:
        with pytest.raises(SpecError) as err:
            parse_role(bad)
        assert err.value.field == field, (bad, err.value.field)
    for raw, field in [
        ({"judge": {"provider": "openai", "model": "m", "temperature": 3}}, "r.judge.temperature"),
        ({"judge": {"provider": "openai", "model": "m", "temperature": float("nan")}}, "r.judge.temperature"),
        ({"judge": {"provider": "openai", "model": "m", "seed": -1}}, "r.judge.seed"),
        ({"judge": {"provider": "openai", "model": "m", "top_p": 1}}, "r.judge.top_p"),
        ({"judge": {"provider": "openai"}}, "r.judge"),
        ({"judge": 3}, "r.judge"),
        ("x", "r"),
    ]:
        with pytest.raises(SpecError) as err:
            role_table(raw, "r")
        assert err.value.field == field, (raw, err.value.field)


def test_a_role_without_a_key_is_refused_naming_the_variable() -> None:
    spec = toy_spec(agents=[{"name": "pair", "roles": ROLES}, {"name": "low"}])
    with pytest.raises(SpecError) as err:
        role_settings(spec, env={"OPENAI_API_KEY": "k"})
    assert err.value.field == "agents.pair.roles.judge" and "ANTHROPIC_API_KEY" in str(err.value)
    settings = role_settings(spec, env={"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"})["pair"]
    assert (settings["orderer"].model, settings["orderer"].temperature, settings["orderer"].llm_seed) == (
        "model-a",
        0.0,
        7,
    )


def test_each_role_reaches_its_own_server_and_reports_label_the_roles(
    fake_llm, second_server: FakeLLMServer, monkeypatch, store_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", second_server.anthropic_url)
    fake_llm.script([{"text": "12"} for _ in range(3)])
    second_server.script([{"text": "fine"} for _ in range(3)])
    spec = toy_spec(env={"horizons": [3]}, seeds=[0], agents=[{"name": "pair", "roles": ROLES}, {"name": "low"}])
    store = Store(store_path)
    assert run_experiment(spec, store, engine=LocalEngine(1), progress=False).status is ExperimentStatus.DONE
    orders, judged = fake_llm.requests, second_server.requests
    assert len(orders) == 3 and len(judged) == 3
    assert {r["body"]["model"] for r in orders} == {"model-a"} and {r["body"]["model"] for r in judged} == {"model-b"}
    assert all(r["path"].endswith("/chat/completions") for r in orders)
    assert all(r["path"].endswith("/messages") for r in judged)
    assert {(r["body"].get("temperature"), r["body"].get("seed")) for r in orders} == {(0.0, 7)}
    assert all("temperature" not in r["body"] for r in judged), "an unset temperature is not sent"
    kinds = dict(zip(*[build_report(store, spec.experiment_id).per_agent[c] for c in ("agent", "kind")], strict=True))
    assert kinds["pair"] == (
        "offline (built-in) · roles judge: LLM anthropic/model-b; orderer: LLM openai/model-a, temperature 0.0, seed 7"
    )
    # the run's tokens (6 requests × 11 in / 7 out) priced at the dearer role model: an upper bound, never $0
    both = parse_prices('[openai]\n"model-a" = { input = 1, output = 1 }\n[anthropic]\n"model-b" = { input = 10, output = 10 }\n')
    costs = build_report(store, spec.experiment_id, prices=both).costs.set_index("agent")
    assert costs.at["pair", "price"] == "upper bound (roles)"
    assert costs.at["pair", "cost_usd"] == pytest.approx((66 + 42) * 10 / 1e6)
    one = parse_prices('[openai]\n"model-a" = { input = 1, output = 1 }\n')
    assert build_report(store, spec.experiment_id, prices=one).costs.set_index("agent").at["pair", "price"] == (
        "price unknown"
    )


def test_an_adapter_without_roles_is_refused_before_anything_runs(store_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    spec = toy_spec(
        adapter="core.inventory.simulator.experiment",
        workbench="policy_simulator",
        agents=[{"name": "x", "roles": {"judge": "openai:m"}}],
    )
    with pytest.raises(SpecError, match="does not take per-role models"):
        run_experiment(spec, Store(store_path), progress=False)


def test_the_cli_role_flag_sets_the_role_of_every_agent(store_path: Path, capsys) -> None:
    spec_file = store_path.parent / "toy.toml"
    spec_file.write_text(
        f'name = "toy"\nworkbench = "policy_simulator"\nadapter = "{TOY}"\nseeds = [0]\n'
        'metric = "total_cost"\ngoal = "min"\n[env]\nhorizons = [2]\n'
        '[[agents]]\nname = "pair"\nroles = { orderer = "openai:model-a" }\n[[agents]]\nname = "low"\n'
    )
    # the spec's orderer needs OPENAI_API_KEY (unset here): refused, naming the role and the variable
    assert main(["--db", str(store_path), "experiment", "run", str(spec_file), "--quiet"]) == 2
    assert "agents.pair.roles.orderer" in capsys.readouterr().err
    # --role replaces it by an explicitly offline stand-in, which is allowed and labelled
    spec = with_roles(
        toy_spec(agents=[{"name": "pair", "roles": {"orderer": "openai:model-a"}}]),
        {"orderer": RoleModel("offline", "rules")},
    )
    assert spec.agents[0].roles["orderer"].label == "offline stand-in (rules)"
    with pytest.raises(SystemExit):
        main(["--db", str(store_path), "experiment", "run", str(spec_file), "--role", "orderer=nope:x"])
    assert json.loads(capsys.readouterr().err)["field"] == "--role"
