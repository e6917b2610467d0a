"""One lab run: generate (or take) scenarios, run the chosen treatments on each, assess on the ground truth.

`LabConfig` holds every knob (protocol, seed, treatments, imitator and its noise, budgets, paper-exact
switches). Without an LLM provider, treatments B and C are not run and `LabResult.not_run` says why; nothing
stands in for them. Trials are independent, so `workers > 1` runs them on a local process pool (the
Copilot's conversations are then not written to the store; run with one worker to open each in Run history).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.inventory.copilot.config import CopilotConfig
from core.inventory.copilot.order_query import check_day_numbering
from core.inventory.lab.assessment import AssessmentConfig, ScenarioAssessment, assess
from core.inventory.lab.generator import PROTOCOLS, Scenario, generate
from core.inventory.lab.imitator import ImitatorNoise, LLMImitator, OfflineImitator
from core.inventory.lab.judge import LLMJudge
from core.inventory.lab.treatments import (
    TREATMENTS,
    CachedOptimizer,
    TrialOutcome,
    run_treatment_a,
    run_treatment_b,
    run_treatment_c,
)
from core.store import Store

Progress = Callable[[float, str], None]
IMITATORS = ("offline", "llm")
FAMILIES = ("full", "paper")
OFFLINE_NOTE = (
    "needs an LLM provider (set ANTHROPIC_API_KEY or OPENAI_API_KEY); without one this treatment is not run "
    "and nothing is substituted for it"
)


@dataclass(frozen=True)
class LabConfig:
    """Everything that defines a lab run (recorded with it)."""

    protocol: str = "paper70"
    n: int | None = None
    seed: int = 0
    treatments: tuple[str, ...] = TREATMENTS
    imitator: str = "offline"
    noise: float = 1.0
    risk_neutral: bool = False
    copilot_paths: int = 200
    critic_paths: int = 100
    assessment_paths: int = 2000
    families: str = "full"
    capacity_basis: str = "inventory_position"
    day_numbering: str = "from_one"
    max_turns: int = 40
    workers: int = 1

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise SpecError("protocol", f"must be one of {', '.join(PROTOCOLS)}")
        object.__setattr__(self, "treatments", tuple(dict.fromkeys(str(t).upper() for t in self.treatments)))
        bad = [t for t in self.treatments if t not in TREATMENTS]
        if bad or not self.treatments:
            raise SpecError("treatments", f"choose from A, B, C (got {', '.join(bad) or 'none'})")
        if self.imitator not in IMITATORS:
            raise SpecError("imitator", f"must be one of {', '.join(IMITATORS)}")
        if self.families not in FAMILIES:
            raise SpecError("families", f"must be one of {', '.join(FAMILIES)}")
        ImitatorNoise.scaled(self.noise)
        check_day_numbering(self.day_numbering)
        if self.copilot_paths < 10 or self.critic_paths < 10:
            raise SpecError("copilot_paths", "the Copilot needs at least 10 simulation paths")
        if not 1 <= self.max_turns <= 200:
            raise SpecError("max_turns", "must lie between 1 and 200")
        if not 1 <= self.workers <= 16:
            raise SpecError("workers", "must lie between 1 and 16")
        self.assessment()

    def assessment(self) -> AssessmentConfig:
        return AssessmentConfig(
            paths=self.assessment_paths,
            seed=self.seed,
            optimizer_paths=self.copilot_paths,
            capacity_basis=self.capacity_basis,
        )

    def copilot(self) -> CopilotConfig:
        return CopilotConfig(
            paths=self.copilot_paths,
            critic_paths=self.critic_paths,
            seed=self.seed,
            day_numbering=self.day_numbering,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["treatments"] = list(self.treatments)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LabConfig:
        known = set(cls.__dataclass_fields__)
        unknown = [k for k in data if k not in known]
        if unknown:
            raise SpecError(unknown[0], f"unknown lab setting; expected one of {', '.join(sorted(known))}")
        values = dict(data)
        if "treatments" in values:
            t = values["treatments"]
            values["treatments"] = tuple(t.split(",") if isinstance(t, str) else t)
        return cls(**values)


@dataclass(frozen=True, eq=False)
class TrialRecord:
    """One scenario: the treatments' outcomes and the assessment."""

    scenario: Scenario
    outcomes: dict[str, TrialOutcome]
    assessment: ScenarioAssessment

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.to_dict(),
            "outcomes": {
                k: v.summary() | {"transcript": list(v.transcript)} for k, v in self.outcomes.items()
            },
            "assessment": self.assessment.to_dict(),
        }


@dataclass(frozen=True, eq=False)
class LabResult:
    config: LabConfig
    settings: dict[str, Any]
    records: list[TrialRecord]
    not_run: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


def runnable(config: LabConfig, settings: Settings) -> tuple[tuple[str, ...], dict[str, str]]:
    """The treatments that can run with these settings, and why the others cannot."""
    if settings.provider != "offline":
        return config.treatments, {}
    not_run = {t: OFFLINE_NOTE for t in config.treatments if t in ("B", "C")}
    return tuple(t for t in config.treatments if t not in not_run), not_run


def make_imitator(config: LabConfig, scenario: Scenario, index: int, settings: Settings):
    if config.imitator == "llm":
        return LLMImitator(scenario, settings)
    return OfflineImitator(scenario, ImitatorNoise.scaled(config.noise), seed=config.seed * 100_003 + index)


def run_scenario(
    scenario: Scenario,
    index: int,
    config: LabConfig,
    settings: Settings,
    *,
    optimizer: CachedOptimizer | None = None,
    store: Store | None = None,
) -> TrialRecord:
    """Run the runnable treatments on one scenario and assess them on its ground truth."""
    if config.imitator == "llm" and settings.provider == "offline":
        raise SpecError("imitator", "the LLM imitator needs an LLM provider; use the offline imitator")
    optimizer = optimizer or CachedOptimizer(config.families, config.capacity_basis)
    treatments, _ = runnable(config, settings)
    outcomes: dict[str, TrialOutcome] = {}
    judge = LLMJudge(settings) if {"B", "C"} & set(treatments) else None
    for t in treatments:
        if t == "A":
            outcomes[t] = run_treatment_a(
                scenario,
                make_imitator(config, scenario, index, settings),
                settings,
                config=config.copilot(),
                optimizer=optimizer,
                store=store,
                max_turns=config.max_turns,
            )
        elif t == "B":
            outcomes[t] = run_treatment_b(
                scenario,
                make_imitator(config, scenario, index, settings),
                settings,
                judge=judge,
                max_turns=config.max_turns,
            )
        else:
            outcomes[t] = run_treatment_c(scenario, settings, judge=judge)
    return TrialRecord(scenario, outcomes, assess(scenario, outcomes, optimizer, config.assessment()))


def _worker(args: tuple[Scenario, int, LabConfig, Settings]) -> TrialRecord:
    scenario, index, config, settings = args
    return run_scenario(scenario, index, config, settings)


def run_lab(
    config: LabConfig,
    settings: Settings,
    *,
    scenarios: list[Scenario] | None = None,
    store: Store | None = None,
    progress: Progress | None = None,
) -> LabResult:
    """The whole protocol; `progress(fraction, message)` after each scenario."""
    start = time.perf_counter()
    scenarios = scenarios or generate(
        config.n, config.seed, protocol=config.protocol, risk_neutral=config.risk_neutral
    )
    _, not_run = runnable(config, settings)
    records: list[TrialRecord] = []
    if config.workers > 1:
        with ProcessPoolExecutor(config.workers) as pool:
            jobs = [(s, i, config, settings) for i, s in enumerate(scenarios)]
            for i, record in enumerate(pool.map(_worker, jobs)):
                records.append(record)
                if progress:
                    progress((i + 1) / len(scenarios), f"scenario {record.scenario.key} done")
    else:
        optimizer = CachedOptimizer(config.families, config.capacity_basis)
        for i, s in enumerate(scenarios):
            records.append(run_scenario(s, i, config, settings, optimizer=optimizer, store=store))
            if progress:
                progress((i + 1) / len(scenarios), f"scenario {s.key} done")
    return LabResult(config, settings.public_dict(), records, not_run, time.perf_counter() - start)
