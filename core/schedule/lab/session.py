"""The School Scheduling lab's watched conversation: the environment `ConversationEnv` and an optimization agent
run by `core/rollout.rollout`, each step turned into transcript entries for the page as it happens.

Batches (from the page or the CLI) are experiments (`experiment.lab_spec` started on the engine), which roll out
the same environment cell by cell; this module is the page's one conversation. The optimization agent is any
`OptimizerSpec` (the offline T-P-P by default; LLM T-P-P in ORCA or paper mode, C-P-P, C-P-R, C-N-R with settings
that hold a key); the decision agents are the offline stand-ins or LLM decision agents (`DecisionAgentSpec`). An
LLM agent without a key, or a combination seed 003 does not define (see OptimizerSpec), is a SpecError before
anything runs; every result says which agents were LLMs and which were offline stand-ins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.config import Settings
from core.errors import OrcaError, SpecError
from core.recorder import Recorder
from core.rollout import RolloutStatus, rollout
from core.schedule.lab.conversation import ConversationResult, OptimizationAgent, Paradigm
from core.schedule.lab.decision_agents import DecisionProfile
from core.schedule.lab.env import ConversationEnv, OptimizerAgent
from core.schedule.lab.llm_decision import DecisionAgentSpec, make_decision_agent
from core.schedule.lab.optimization_agents import OptimizerSpec, llm_problem
from core.store import Store, TransitionRow

WORKBENCH = "school_scheduling"
OnMessage = Callable[[dict[str, Any]], None]


def _entries(env: ConversationEnv, row: TransitionRow, step: int) -> list[dict[str, Any]]:
    """The transcript entries of one step: the optimization agent's message, then what the decision agent did
    with it — a message (with its utility checks), or only the checks (it read the schedule without answering:
    `default`, the one-shot paradigms' second message, or the turn limit)."""
    said = {"role": "optimizer", "content": row.action["text"]}
    checks = row.info.get("checks", [])
    one_shot = env.paradigm in (Paradigm.ONE_SHOT, Paradigm.AWARE_ONE_SHOT)
    read_only = env.paradigm is Paradigm.DEFAULT or (one_shot and step > 1)
    if read_only or row.info.get("stop") == "turn_limit":
        return [said, {"role": "check", "content": "", "checks": checks}]
    answer = {"role": "decision", "content": row.observation.get("message", ""), "checks": checks}
    if env.paradigm is Paradigm.CONVERSATION:
        answer["best"] = round(env.best_value, 6)
    return [said, answer]


def run_conversation(
    env: ConversationEnv,
    optimizer: Callable[[], OptimizationAgent],
    *,
    recorder: Recorder | None = None,
    on_message: OnMessage | None = None,
    seed: int = 0,
    optimizer_llm: bool = False,
    decision_llm: bool = False,
) -> ConversationResult:
    """Roll out one conversation of `env` with the optimization agent `optimizer()` builds and score it. Each
    step's messages go to `on_message` as they happen and, with the utility checks, to the recorder (which
    `rollout` also gives the transitions, status and the environment's metrics). An `OrcaError` of either
    agent is raised once the failed run is recorded."""
    agent = OptimizerAgent(optimizer, "optimization agent")
    transcript: list[dict[str, Any]] = []

    def on_step(row: TransitionRow) -> None:
        for entry in _entries(env, row, len(transcript) // 2 + 1):
            transcript.append(entry)
            extra = {k: v for k, v in entry.items() if k not in ("role", "content")}
            if recorder is not None:
                if entry["role"] != "check":
                    recorder.message("user" if entry["role"] == "decision" else "assistant", entry["content"])
                if extra:
                    recorder.event("utility_check", {"role": entry["role"], **extra})
            if on_message is not None:
                on_message(entry)

    result = rollout(env, agent, seed=seed, recorder=recorder, on_step=on_step)
    if result.status is RolloutStatus.FAILED:
        raise OrcaError(result.error or "the conversation failed")
    decision = env.decision
    best = decision.best
    district = env.district
    return ConversationResult(
        key=env.profile.key,
        paradigm=env.paradigm,
        optimization_agent=agent.optimizer.name,
        decision_agent=getattr(decision, "name", "decision"),
        stop=env.stop,
        turns=decision.turns,
        solver_calls=agent.optimizer.solver_calls,
        best_value=env.best_value,
        u_star=env.profile.utility.u_star,
        best_schedule={}
        if best is None
        else dict(zip(district.names, (district.time_labels[a] for a in best), strict=True)),
        transcript=tuple(transcript),
        run_id=result.run_id,
        optimizer_llm=optimizer_llm,
        decision_llm=decision_llm,
    )


def watch(
    profile: DecisionProfile,
    paradigm: Paradigm | str,
    *,
    store: Store | None = None,
    on_message: OnMessage | None = None,
    decision: DecisionAgentSpec | None = None,
    settings: Settings | None = None,
    optimizer: OptimizerSpec | None = None,
) -> ConversationResult:
    """The page's one conversation (the offline T-P-P unless `optimizer` says otherwise), recorded in the store
    (Run history, replayable on `orca/SchoolSchedulingLab-v0`) when one is given.

    LLM agents (`decision.kind == "llm"`, `optimizer.kind == "llm"`) need `settings` with a key: without one
    this raises a SpecError before anything runs (no offline agent is substituted)."""
    try:
        paradigm = Paradigm(paradigm)
    except ValueError as err:
        raise SpecError("paradigm", f"use one of {[p.value for p in Paradigm]}") from err
    decision = decision or DecisionAgentSpec()
    optimizer = optimizer or OptimizerSpec()
    for problem in (optimizer.paradigm_problem(paradigm), optimizer.decision_problem(decision.kind)):
        if problem is not None:
            raise SpecError("optimizer", f"{optimizer.design} under {paradigm.value}: {problem}")
    if optimizer.llm and (missing := llm_problem(settings)) is not None:
        raise SpecError("agent.provider", f"{optimizer.label} is an LLM agent and {missing}")
    design = optimizer.design.upper()
    # the two agents are built here, once, so the run's title and config can name them before it starts;
    # the environment and the rollout take them over for this one episode
    opt = optimizer.factory(settings)()
    agent = make_decision_agent(profile, decision, settings, paradigm=paradigm.value, design=design)
    env = ConversationEnv(
        profile,
        paradigm=paradigm,
        decision=decision,
        settings=settings,
        design=design,
        decision_agent=lambda seed: agent,
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
            else f"LLM decision agent ({settings.model if settings else '?'})"
        )
        recorder = Recorder(
            store,
            WORKBENCH,
            config=config,
            seed=0,
            title=f"Lab: {opt.name} vs {profile.key} ({paradigm.value}, {who})",
        )
    return run_conversation(
        env,
        lambda: opt,
        recorder=recorder,
        on_message=on_message,
        optimizer_llm=optimizer.llm,
        decision_llm=decision.kind == "llm",
    )
