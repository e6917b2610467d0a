"""OptimizerSpec: which optimization agent a lab conversation uses (experiment cells and the page alike), the
paradigm / decision-agent combinations seed 003 defines, and the refusal of LLM designs without a key."""

from __future__ import annotations

import pytest

from core.config import Settings
from core.errors import SpecError
from core.schedule.lab import experiment
from core.schedule.lab.code_agents import CodeAgent
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import DecisionProfile, Feedback, Style
from core.schedule.lab.llm_decision import DecisionAgentSpec
from core.schedule.lab.optimization_agents import (
    FRONTIER_BUDGET,
    PAPER_MODE,
    OptimizerSpec,
    TPPAgent,
    llm_problem,
)
from core.schedule.lab.session import watch
from core.schedule.lab.utilities import utility_by_key

PROFILE = DecisionProfile(utility_by_key("u001"), Style.PRECISE, Feedback.RICH)


def test_designs_kinds_and_labels() -> None:
    assert OptimizerSpec().label == "T-P-P (offline)" and not OptimizerSpec().llm
    assert OptimizerSpec("t-p-p-paper", "llm").design == "T-P-P-paper"
    assert OptimizerSpec("T-P-P-paper", "llm").label == f"T-P-P (LLM, {PAPER_MODE})"
    assert OptimizerSpec("C-P-R", "llm").label == "C-P-R (LLM)"
    assert (
        OptimizerSpec.from_agent_spec({"kind": "llm", "design": "T-P-P", "paper": True}).design
        == "T-P-P-paper"
    )
    for bad, field in (
        (("C-P-P", "offline"), "design"),
        (("G-P-T", "llm"), "design"),
        (("T-P-P", "human"), "kind"),
    ):
        with pytest.raises(SpecError) as err:
            OptimizerSpec(*bad)
        assert err.value.field == field


def test_paradigms_follow_the_paper() -> None:
    for design in ("T-P-P", "T-P-P-paper", "C-P-P", "C-P-R"):
        assert OptimizerSpec(design, "llm").paradigms() == list(Paradigm)
    cnr = OptimizerSpec("C-N-R", "llm")
    assert cnr.paradigms() == [Paradigm.ONE_SHOT, Paradigm.CONVERSATION]
    assert "no default schedule" in cnr.paradigm_problem("default")
    assert "C-N-R-adjusted" in cnr.paradigm_problem("aware_one_shot")
    assert "offline stand-ins" in cnr.decision_problem("offline") and cnr.decision_problem("llm") is None
    assert OptimizerSpec("C-P-P", "llm").decision_problem("offline") is None


@pytest.mark.parametrize(
    "settings",
    [
        None,
        Settings(provider="offline"),
        Settings(provider="openai", model="m"),
        Settings(provider="anthropic"),
    ],
)
def test_llm_designs_without_a_key_are_refused_not_substituted(settings) -> None:
    assert llm_problem(settings) is not None
    assert isinstance(OptimizerSpec().factory(settings)(), TPPAgent)  # the offline T-P-P needs no key
    for design in ("T-P-P", "T-P-P-paper", "C-P-P", "C-P-R", "C-N-R"):
        build = OptimizerSpec(design, "llm").factory(settings)
        with pytest.raises(SpecError) as err:
            build()
        assert err.value.field == "agent.provider" and "LLM agent" in str(err.value)
    with pytest.raises(SpecError, match="LLM agent"):
        watch(PROFILE, "conversation", settings=settings, optimizer=OptimizerSpec("T-P-P", "llm"))


def test_factory_builds_the_named_design_with_a_local_url() -> None:
    settings = Settings(provider="openai", model="m", base_url="http://127.0.0.1:9/v1")
    assert llm_problem(settings) is None
    tpp = OptimizerSpec("T-P-P-paper", "llm").factory(settings)()
    assert isinstance(tpp, TPPAgent) and tpp.paper and PAPER_MODE in tpp.name
    assert (
        tpp.agent.session.frontier_budget
        == FRONTIER_BUDGET
        == OptimizerSpec().factory(None)().agent.session.frontier_budget
    )
    cpr = OptimizerSpec("C-P-R", "llm").factory(settings)()
    assert isinstance(cpr, CodeAgent) and cpr.design.value == "C-P-R"


def test_meaningless_combinations_are_refused_before_running() -> None:
    llm = DecisionAgentSpec(kind="llm", provider="openai", model="m")
    settings = Settings(provider="openai", model="m", base_url="http://127.0.0.1:9/v1")
    cnr = OptimizerSpec("C-N-R", "llm")
    with pytest.raises(SpecError, match="no default schedule"):
        watch(PROFILE, "default", decision=llm, settings=settings, optimizer=cnr)
    with pytest.raises(SpecError, match="offline stand-ins"):
        watch(PROFILE, "conversation", settings=settings, optimizer=cnr)
    config = dict(experiment.instances({"utilities": 1, "styles": ["precise"], "feedbacks": ["rich"]})[0][1])
    experiment.make_env(config)
    with pytest.raises(SpecError, match="offline stand-ins"):
        experiment.make_agent({"kind": "llm", "design": "C-N-R"}, config, settings)
    with pytest.raises(SpecError, match="no default schedule"):
        experiment.make_agent({"kind": "llm", "design": "C-N-R", "paradigm": "default"}, config, settings)


def test_offline_result_names_its_stand_ins() -> None:
    result = watch(PROFILE, "default")
    assert not result.optimizer_llm and not result.decision_llm
    assert result.agents_note.startswith("LLM agents: none. Offline stand-ins")
    row = result.row()
    assert row["optimization_agent_kind"] == row["decision_agent_kind"] == "offline stand-in"


def test_an_impossible_design_is_refused_before_any_cell_exists(tmp_path, monkeypatch) -> None:
    """C-N-R against the offline stand-ins is refused by the experiment driver up front (not cell by cell)."""
    from core.experiments.driver import run_experiment
    from core.experiments.spec import from_dict
    from core.store import Store

    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    spec = from_dict(
        {
            "name": "cnr_offline",
            "workbench": "school_scheduling",
            "metric": "score",
            "env": {"utilities": 2, "styles": ["precise"], "feedbacks": ["rich"]},
            "agents": [
                {"name": "tpp", "design": "T-P-P"},
                {"name": "cnr", "kind": "llm", "provider": "openai", "model": "m", "design": "C-N-R"},
            ],
        }
    )
    store = Store(tmp_path / "x.duckdb")
    with pytest.raises(SpecError, match="offline stand-ins") as err:
        run_experiment(spec, store, progress=False)
    assert err.value.field == "agents.cnr.design"
    assert store.list_experiments().empty
