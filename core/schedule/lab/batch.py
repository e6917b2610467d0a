"""In-process batches for the page: a few conversations run one after another (the CLI and experiment specs
run the full set on the local or Ray engine)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from core.recorder import Recorder
from core.schedule.lab.conversation import ConversationResult, Paradigm, converse
from core.schedule.lab.decision_agents import DecisionProfile
from core.schedule.lab.optimization_agents import TPPAgent
from core.store import Store

WORKBENCH = "school_scheduling"


def run_one(
    profile: DecisionProfile,
    paradigm: Paradigm | str,
    *,
    store: Store | None = None,
    on_message: Callable | None = None,
) -> ConversationResult:
    """One offline T-P-P conversation, recorded in the store (Run history) when one is given."""
    paradigm = Paradigm(paradigm)
    recorder = None
    if store is not None:
        recorder = Recorder(
            store,
            WORKBENCH,
            config={"lab": True, "decision_agent": profile.key, "paradigm": paradigm.value, "offline": True},
            seed=0,
            title=f"Lab: T-P-P (offline) vs {profile.key} ({paradigm.value})",
        )
    return converse(profile, TPPAgent.offline(), paradigm=paradigm, recorder=recorder, on_message=on_message)


def run_batch(
    profiles: list[DecisionProfile],
    paradigms: list[Paradigm | str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Every profile under every paradigm; one row per conversation (see ConversationResult.row)."""
    rows = []
    total = len(profiles) * len(paradigms)
    for paradigm in paradigms:
        for profile in profiles:
            rows.append(run_one(profile, paradigm).row())
            if on_progress is not None:
                on_progress(len(rows), total)
    return pd.DataFrame(rows)
