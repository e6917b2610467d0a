"""One in-process conversation for the page to watch live (batches, from the page or the CLI, are experiments:
`experiment.lab_spec` started on the engine). The optimization agent is any `OptimizerSpec` (the offline
T-P-P by default; LLM T-P-P in ORCA or paper mode, C-P-P, C-P-R, C-N-R with settings that hold a key); the decision
agents are the offline stand-ins or LLM decision agents (`DecisionAgentSpec`). An LLM agent without a key, or a
combination seed 003 does not define (see OptimizerSpec), is a SpecError before anything runs; every result
says which agents were LLMs and which were offline stand-ins."""

from __future__ import annotations

from collections.abc import Callable

from core.config import Settings
from core.errors import SpecError
from core.recorder import Recorder
from core.schedule.lab.conversation import ConversationResult, Paradigm, converse
from core.schedule.lab.decision_agents import DecisionProfile
from core.schedule.lab.llm_decision import DecisionAgentSpec, make_decision_agent
from core.schedule.lab.optimization_agents import OptimizerSpec
from core.store import Store

WORKBENCH = "school_scheduling"


def run_one(
    profile: DecisionProfile,
    paradigm: Paradigm | str,
    *,
    store: Store | None = None,
    on_message: Callable | None = None,
    decision: DecisionAgentSpec | None = None,
    settings: Settings | None = None,
    optimizer: OptimizerSpec | None = None,
) -> ConversationResult:
    """One conversation (the offline T-P-P unless `optimizer` says otherwise), recorded in the store (Run
    history) when one is given.

    LLM agents (`decision.kind == "llm"`, `optimizer.kind == "llm"`) need `settings` with a key: without one
    this raises a SpecError before anything runs (no offline agent is substituted)."""
    paradigm = Paradigm(paradigm)
    decision = decision or DecisionAgentSpec()
    optimizer = optimizer or OptimizerSpec()
    for problem in (optimizer.paradigm_problem(paradigm), optimizer.decision_problem(decision.kind)):
        if problem is not None:
            raise SpecError("optimizer", f"{optimizer.design} under {paradigm.value}: {problem}")
    opt = optimizer.factory(settings)()
    agent = make_decision_agent(
        profile, decision, settings, paradigm=paradigm.value, design=optimizer.design.upper()
    )
    recorder = None
    if store is not None:
        config = {
            "lab": True,
            "decision_agent": profile.key,
            "decision_agent_kind": decision.kind,
            "decision_agent_label": agent.label,
            "paradigm": paradigm.value,
            "optimization_agent": opt.name,
            "optimization_agent_design": optimizer.design,
            "optimization_agent_kind": optimizer.kind,
            "offline": decision.kind == "offline" and not optimizer.llm,
        }
        if settings is not None and (decision.kind == "llm" or optimizer.llm):
            config.update(provider=settings.provider, model=settings.model)
        who = (
            "offline decision agent"
            if decision.kind == "offline"
            else f"LLM decision agent ({settings.model})"
        )
        recorder = Recorder(
            store,
            WORKBENCH,
            config=config,
            seed=0,
            title=f"Lab: {opt.name} vs {profile.key} ({paradigm.value}, {who})",
        )
    result = converse(
        profile,
        opt,
        paradigm=paradigm,
        decision=agent,
        recorder=recorder,
        on_message=on_message,
    )
    result.optimizer_llm = optimizer.llm
    result.decision_llm = decision.kind == "llm"
    return result

