"""LLM decision agents in experiment specs: refused without a key (nothing substituted), templates chosen by
paradigm and design, and one experiment cell run by the worker against the fake OpenAI server."""

from __future__ import annotations

import json

import pytest

from core.errors import SpecError
from core.experiments.driver import prepare
from core.experiments.spec import parse_spec
from core.experiments.worker import CellStatus, run_cell
from core.schedule.lab import experiment
from core.schedule.lab.llm_decision import DecisionAgentSpec, LLMDecisionAgent, Template
from core.schedule.lab.report import decision_note
from core.schedule.lab.utilities import utility_by_key
from core.store import Store
from solvers.schedule.data import sfusd_district
from solvers.schedule.utility import sfusd_space

DISTRICT = sfusd_district()
SPEC = """
name = "lab_llm_decision"
workbench = "school_scheduling"
metric = "score"
[env]
utilities = ["u001"]
styles = ["precise"]
feedbacks = ["rich"]
decision = {kind = "llm", provider = "openai", model = "decider-1"}
[[agents]]
name = "tpp"
kind = "offline"
design = "T-P-P"
paradigm = "conversation"
"""


def times(assignment):
    return {n: DISTRICT.time_labels[a] for n, a in zip(DISTRICT.names, assignment, strict=True)}


def no_keys(monkeypatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ORCA_PROVIDER", "ORCA_MODEL"):
        monkeypatch.delenv(var, raising=False)


def test_spec_without_a_key_is_refused_before_any_cell(monkeypatch, tmp_path) -> None:
    no_keys(monkeypatch)
    store = Store(tmp_path / "lab.duckdb")
    with pytest.raises(SpecError, match="OPENAI_API_KEY") as err:
        prepare(parse_spec(SPEC), store)
    assert err.value.field == "env.decision.provider"
    assert store.list_experiments().empty  # nothing recorded, nothing substituted
    with pytest.raises(SpecError, match="env.decision.model"):
        experiment.instances({"decision": {"kind": "llm", "provider": "openai"}})
    with pytest.raises(SpecError, match="env.decision.kind"):
        experiment.instances({"decision": {"kind": "human"}})


def test_templates_follow_paradigm_and_design(monkeypatch, fake_llm) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    config = dict(experiment.instances(parse_spec(SPEC).env)[0][1])
    cases = [
        ({"kind": "offline", "design": "T-P-P", "paradigm": "aware_one_shot"}, Template.AWARE),
        ({"kind": "offline", "design": "T-P-P", "paradigm": "conversation"}, Template.DEFAULT),
        ({"kind": "llm", "design": "C-N-R", "paradigm": "conversation"}, Template.CNR),
    ]
    for agent_spec, template in cases:
        env = experiment.make_env(config)
        experiment.make_agent(agent_spec, config, None)
        env.reset(seed=0)
        assert isinstance(env.decision, LLMDecisionAgent) and env.decision.template is template


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_llm_decision_cell_against_the_fake_server(provider, monkeypatch, fake_llm, tmp_path) -> None:
    no_keys(monkeypatch)
    if provider == "openai":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    else:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_llm.anthropic_url)
    u = utility_by_key("u001")
    space = sfusd_space()
    best = tuple(int(a) for a in space.assignments[int(u.values(space).argmax())])
    base = (2, 2, 2, 0, 1, 0, 0, 1, 1, 2)
    fake_llm.script(
        [
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times(base)}}]},
            {"text": "Please keep the peak under 2,000 students."},
            {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times(best)}}]},
            {"text": "That works for me. __END__"},
        ]
    )
    spec = parse_spec(SPEC.replace('provider = "openai"', f'provider = "{provider}"'))
    tasks = prepare(spec, Store(tmp_path / "lab.duckdb"))
    assert len(tasks) == 1 and tasks[0].env_config["decision"]["kind"] == "llm"
    outcome = run_cell(tasks[0])
    assert outcome.status is CellStatus.DONE, outcome.error
    m = outcome.metrics
    assert m["llm_decision_agent"] == 1.0
    assert m["success"] == 1.0 and m["score"] == pytest.approx(1.0)
    assert m["turns"] == 2.0 and m["stop"] == 0.0  # criterion (i): check_utility returned U*
    # issue 30: the decision agent's tokens are recorded (4 requests × the fake server's 11 in / 7 out)
    assert (m["decision_input_tokens"], m["decision_output_tokens"]) == (44.0, 28.0)
    first = fake_llm.requests[0]["body"]
    assert first["model"] == "decider-1"
    system = first["system"] if provider == "anthropic" else first["messages"][0]["content"]
    assert u.school in str(system) and "check_utility" in str(first["tools"])
    assert len(fake_llm.requests) == 4
    note = decision_note(spec.to_dict())
    assert f"LLM decision agent ({provider}/decider-1" in note and "stand-in" not in note.split(".")[0]


def test_decision_spec_validation() -> None:
    assert DecisionAgentSpec.from_config(None).kind == "offline"
    assert DecisionAgentSpec.from_config("offline").label.startswith("offline decision agent")
    with pytest.raises(SpecError, match="env.decision.temperature"):
        DecisionAgentSpec.from_config({"kind": "llm", "temperature": 1})
    with pytest.raises(SpecError, match="template"):
        DecisionAgentSpec(kind="llm", provider="openai", model="m", template="chatty")


def test_shipped_llm_decision_spec_parses_and_is_refused_without_a_key(monkeypatch, tmp_path) -> None:
    from pathlib import Path

    from core.experiments.spec import load_spec
    from core.schedule.lab.report import agent_design

    no_keys(monkeypatch)
    spec = load_spec(
        Path(__file__).resolve().parents[4] / "data" / "experiments" / "schedule_lab_llm_decision.toml"
    )
    assert spec.env["decision"]["kind"] == "llm"
    designs = {a["name"]: agent_design(a) for a in spec.to_dict()["agents"]}
    assert "no automatic rollback" in designs["tpp_llm_paper"] and designs["tpp_llm"] == "T-P-P"
    with pytest.raises(SpecError, match="OPENAI_API_KEY"):
        prepare(spec, Store(tmp_path / "s.duckdb"))


def test_the_optimizer_role_names_the_llm_agents_model(monkeypatch, fake_llm) -> None:
    """Issue 30: `roles.optimizer` sets an LLM optimization agent's model; on an offline agent it is refused."""
    from core.config import Settings

    no_keys(monkeypatch)
    (_, config), *_ = experiment.instances({"utilities": ["u001"], "styles": ["precise"], "feedbacks": ["rich"]})
    experiment.make_env(config)
    role = Settings(provider="openai", model="opt-m", api_key="k", base_url=fake_llm.openai_url)
    llm = {"name": "cpp", "kind": "llm", "design": "C-P-P", "provider": "anthropic", "model": "other"}
    agent = experiment.make_agent(llm, config, Settings(), roles={"optimizer": role})
    agent.reset(0)
    assert agent.optimizer.model.name == "opt-m"
    with pytest.raises(SpecError) as err:
        experiment.make_agent({"name": "tpp", "kind": "offline", "design": "T-P-P"}, config, None, roles={"optimizer": role})
    assert err.value.field == "agents.tpp.roles.optimizer"


def test_the_decision_role_plays_the_decision_agents(monkeypatch, fake_llm, tmp_path, capsys) -> None:
    """Issue 30: the decision agents are the role `decision` (`schedule lab run --role`, or a spec's roles with
    temperature and seed); `[env] decision` is its alias, an agent's own role wins, a role without its key is
    refused naming the variable, and their tokens are priced at their model in the cost tables."""
    import json

    from core.cli import main
    from core.experiments.report import build_report
    from core.llm.prices import parse_prices

    no_keys(monkeypatch)
    u = utility_by_key("u001")
    space = sfusd_space()
    best = tuple(int(a) for a in space.assignments[int(u.values(space).argmax())])
    script = [
        {"tool_calls": [{"name": "check_utility", "arguments": {"start_times": times(best)}}]},
        {"text": "That works for me. __END__"},
    ]
    db = tmp_path / "lab.duckdb"
    args = ["--db", str(db), "schedule", "lab", "run", "--utilities", "1", "--style", "precise", "--feedback",
            "rich", "--workers", "1", "--quiet", "--role", "decision=openai:decider-r"]  # fmt: skip
    assert main(args) == 2  # no OPENAI_API_KEY: refused before anything runs, naming the role and the variable
    err = json.loads(capsys.readouterr().err)
    assert err["field"] == "agents.tpp_conversation.roles.decision" and "OPENAI_API_KEY" in err["error"]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    fake_llm.script(script)
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["body"]["model"] for r in fake_llm.requests] == ["decider-r", "decider-r"]
    prices = parse_prices('[openai]\n"decider-r" = { input = 2, output = 4 }\n')
    report = build_report(Store(db), out["summary"]["experiment_id"], prices=prices)
    cell = report.cell_costs.iloc[0]
    assert (cell["input_tokens"], cell["output_tokens"]) == (22, 14)  # 2 requests × 11 in / 7 out
    assert cell["cost_usd"] == pytest.approx((22 * 2 + 14 * 4) / 1e6) and cell["role_tokens"] == "decision: 22 in / 14 out"
    # a spec's role with temperature and seed; an agent's offline role wins over the [env] alias
    roles = 'roles = { decision = { provider = "openai", model = "decider-t", temperature = 0, seed = 5 } }\n'
    spec = parse_spec(SPEC + roles + '[[agents]]\nname = "off"\nkind = "offline"\ndesign = "T-P-P"\n'
                      'roles = { decision = "offline:rules" }\n')
    fake_llm.script(script)
    for task in prepare(spec, Store(tmp_path / "spec.duckdb")):
        outcome = run_cell(task)
        assert outcome.status is CellStatus.DONE, outcome.error
        assert outcome.metrics["llm_decision_agent"] == (1.0 if task.agent["name"] == "tpp" else 0.0)
    bodies = [r["body"] for r in fake_llm.requests]
    assert [b["model"] for b in bodies] == ["decider-t", "decider-t"]
    assert {(b.get("temperature"), b.get("seed")) for b in bodies} == {(0, 5)}


def test_the_dry_run_counts_the_decision_agents_calls_exactly(monkeypatch, fake_llm, tmp_path) -> None:
    """Issue 30: `llm_calls` of the School Scheduling lab gives the exact number of model calls a scripted
    fake-server run makes (a conversation to its turn limit) and their input tokens within 10 %."""
    from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, estimate_tokens
    from core.experiments.driver import estimate, run_experiment
    from core.experiments.engines import LocalEngine
    from core.llm.prices import parse_prices

    no_keys(monkeypatch)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_url)
    spec = parse_spec(SPEC.replace("[[agents]]", "max_turns = 4\n[[agents]]") + '[[agents]]\nname = "off"\n'
                      'kind = "offline"\ndesign = "T-P-P"\nroles = { decision = "offline:rules" }\n')
    store = Store(tmp_path / "lab.duckdb")
    guess = estimate(spec, store, parse_prices('[openai]\n"decider-1" = { input = 1, output = 2 }\n'))
    by_agent = {a["agent"]: a for a in guess["agents"]}
    assert guess["calls"] == 4 and by_agent["off"]["calls"] == 0 and guess["cost"].startswith("$")
    reply = "No, that is not it. " * 40  # about as long as assumed; never __END__, never a check
    assert abs(len(reply) - 4 * DEFAULT_OUTPUT_TOKENS) <= 0.05 * len(reply)
    fake_llm.script([{"text": reply} for _ in range(8)])
    run_experiment(spec, store, engine=LocalEngine(1), progress=False)
    assert len(fake_llm.requests) == guess["calls"]
    sent = sum(estimate_tokens(m["content"] or "") for r in fake_llm.requests for m in r["body"]["messages"])
    sent += sum(estimate_tokens(json.dumps(t["function"])) for r in fake_llm.requests for t in r["body"]["tools"])
    assert abs(guess["input_tokens"] - sent) <= 0.1 * sent, (guess["input_tokens"], sent)  # the tool schema too
