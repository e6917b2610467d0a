"""In-process conversations for the page: one watched conversation or a few in a row (the CLI and experiment
specs run the full set on the local or Ray engine). The optimization agent is the offline T-P-P; the decision
agents are the offline stand-ins or LLM decision agents (`DecisionAgentSpec` + settings with a key)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from core.config import Settings
from core.recorder import Recorder
from core.schedule.lab.conversation import ConversationResult, Paradigm, converse
from core.schedule.lab.decision_agents import DecisionProfile
from core.schedule.lab.llm_decision import DecisionAgentSpec, make_decision_agent
from core.schedule.lab.optimization_agents import TPPAgent
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
) -> ConversationResult:
    """One offline T-P-P conversation, recorded in the store (Run history) when one is given.

    An LLM decision agent (`decision.kind == "llm"`) needs `settings` with a key: without one this raises a
    SpecError before anything runs (no offline agent is substituted)."""
    paradigm = Paradigm(paradigm)
    decision = decision or DecisionAgentSpec()
    agent = make_decision_agent(profile, decision, settings, paradigm=paradigm.value, design="T-P-P")
    recorder = None
    if store is not None:
        config = {
            "lab": True,
            "decision_agent": profile.key,
            "decision_agent_kind": decision.kind,
            "decision_agent_label": agent.label,
            "paradigm": paradigm.value,
            "optimization_agent": "T-P-P (offline)",
            "offline": decision.kind == "offline",
        }
        if settings is not None and decision.kind == "llm":
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
            title=f"Lab: T-P-P (offline) vs {profile.key} ({paradigm.value}, {who})",
        )
    return converse(
        profile,
        TPPAgent.offline(),
        paradigm=paradigm,
        decision=agent,
        recorder=recorder,
        on_message=on_message,
    )


def run_batch(
    profiles: list[DecisionProfile],
    paradigms: list[Paradigm | str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
    decision: DecisionAgentSpec | None = None,
    settings: Settings | None = None,
) -> pd.DataFrame:
    """Every profile under every paradigm; one row per conversation (see ConversationResult.row)."""
    rows = []
    total = len(profiles) * len(paradigms)
    for paradigm in paradigms:
        for profile in profiles:
            row = run_one(profile, paradigm, decision=decision, settings=settings).row()
            rows.append(row)
            if on_progress is not None:
                on_progress(len(rows), total)
    return pd.DataFrame(rows)
