"""One lab run: generate (or take) scenarios, run the chosen treatments on each, assess on the ground truth.

`LabConfig` holds every knob (protocol, seed, treatments, imitator and its noise, budgets, paper-exact
switches). Without an LLM provider, treatments B and C are not run and `LabResult.not_run` says why; nothing
stands in for them (and a lab where nothing can run is refused up front). `run_lab` runs through the experiment
engine (`core/experiments`, adapter `core.inventory.lab.protocol`): one cell per scenario and treatment, on a
local pool of `workers` processes (or Ray), saved cell by cell and resumed by running the same lab again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.experiments.engines import Engine, LocalEngine
from core.experiments.spec import ExperimentSpec
from core.experiments.spec import from_dict as spec_from_dict
from core.experiments.worker import CellOutcome
from core.inventory.lab.assessment import ScenarioAssessment
from core.inventory.lab.config import FAMILIES, IMITATORS, LabConfig, make_imitator
from core.inventory.lab.generator import Scenario
from core.inventory.lab.treatments import (
    TrialOutcome,
)
from core.llm.roles import RoleModel
from core.store import Store

Progress = Callable[[float, str], None]
__all__ = [  # LabConfig and make_imitator live in core.inventory.lab.config (the protocol adapter needs them)
    "FAMILIES", "IMITATORS", "OFFLINE_NOTE", "LabConfig", "LabResult", "Progress", "TrialRecord", "lab_spec",
    "make_imitator", "run_lab", "runnable",
]  # fmt: skip
OFFLINE_NOTE = (
    "needs an LLM provider (set ANTHROPIC_API_KEY or OPENAI_API_KEY); without one this treatment is not run "
    "and nothing is substituted for it"
)


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
    experiment_id: str | None = None
    """The experiment (`core/experiments`) whose cells hold this run; `experiment report ID` reads it."""


def runnable(
    config: LabConfig, settings: Settings, roles: Mapping[str, RoleModel] | None = None
) -> tuple[tuple[str, ...], dict[str, str]]:
    """The treatments that can run with these settings (or an LLM `copilot` role), and why the others cannot."""
    copilot = (roles or {}).get("copilot")
    if settings.provider != "offline" or (copilot is not None and not copilot.offline):
        return config.treatments, {}
    not_run = {t: OFFLINE_NOTE for t in config.treatments if t in ("B", "C")}
    return tuple(t for t in config.treatments if t not in not_run), not_run


def lab_spec(
    config: LabConfig,
    settings: Settings,
    scenarios: list[Scenario] | None = None,
    roles: Mapping[str, RoleModel] | None = None,
) -> ExperimentSpec:
    """The experiment spec of a lab run: one agent per runnable treatment, one instance per scenario (the
    `core.inventory.lab.protocol` adapter), every agent with `roles` (copilot, judge, imitator; `--role`).
    Refused up front when no treatment can run or the LLM imitator has no provider (a role without its key is
    refused by the driver, naming the variable)."""
    from core.inventory.lab.protocol import ADAPTER

    roles = dict(roles or {})
    treatments, not_run = runnable(config, settings, roles)
    if not treatments:
        raise SpecError(
            "treatments", f"none of {', '.join(config.treatments)} can run: {OFFLINE_NOTE}; nothing was run"
        )
    if config.imitator == "llm" and settings.provider == "offline" and "imitator" not in roles:
        raise SpecError("imitator", "the LLM imitator needs an LLM provider; use the offline imitator")
    lab = config.to_dict()
    lab.pop("workers")  # how it runs, not what: the same lab on more workers resumes the same experiment
    env: dict[str, Any] = {"lab": lab}
    if scenarios is not None:
        env["scenarios"] = [s.to_dict() for s in scenarios]
    llm = {"kind": "llm", "provider": settings.provider, "model": settings.model}
    named = {"roles": {r: m.as_dict() for r, m in roles.items()}} if roles else {}
    own = {"kind": "offline"} if settings.provider == "offline" or "copilot" in roles else llm  # the role wins
    agents = [{"name": t, "treatment": t} | own | named for t in treatments]
    return spec_from_dict(
        {
            "name": f"inventory lab · {config.protocol} · seed {config.seed}",
            "workbench": "inventory_lab",
            "adapter": ADAPTER,
            "env": env,
            "agents": agents,
            "seeds": [config.seed],
            "metric": "gap",
            "goal": "min",
            "baseline": treatments[0],
        }
    )


def _records(store: Store, spec: ExperimentSpec) -> tuple[list[TrialRecord], dict[str, str]]:
    """The lab's trial records rebuilt from the experiment's cells (their `trial.json`), scenario by scenario;
    a failed cell is an `error` outcome of its treatment (a scenario without any done cell is listed apart)."""
    from core.inventory.lab.protocol import TRIAL_ARTIFACT, policy_of, scenarios_of

    cells = store.cells(spec.experiment_id)
    by_scenario: dict[str, list[Any]] = {}
    for row in cells.itertuples():
        by_scenario.setdefault(row.instance, []).append(row)
    records: list[TrialRecord] = []
    failed: dict[str, str] = {}
    for scenario in scenarios_of(dict(spec.env)):
        outcomes: dict[str, TrialOutcome] = {}
        merged: dict[str, Any] | None = None
        for row in by_scenario.get(scenario.key, []):
            if row.status != "done":
                outcomes[row.agent] = TrialOutcome(
                    row.agent,
                    scenario.key,
                    "error",
                    error=f"the cell {row.status}: {row.error or ''}".strip(),
                )
                continue
            trial = json.loads(store.get_artifact(row.run_id, TRIAL_ARTIFACT))
            outcome = TrialOutcome.from_dict(row.agent, trial["outcome"])
            policy = policy_of(trial["outcome"].get("policy_spec"))
            outcomes[row.agent] = dataclasses.replace(outcome, policy=policy, run_id=row.run_id)
            a = trial["assessment"]
            if merged is None:
                merged = a
            else:  # the reference and the rules of thumb are the same in every cell (common random numbers)
                for k in ("costs", "ses", "policies", "gaps", "excluded"):
                    merged[k] = merged[k] | a[k]
        if merged is None:
            failed |= {f"{scenario.key} · {t}": f"failed: {o.error}" for t, o in outcomes.items()}
            continue
        records.append(TrialRecord(scenario, dict(sorted(outcomes.items())), ScenarioAssessment(**merged)))
    return records, failed


def run_lab(
    config: LabConfig,
    settings: Settings,
    *,
    scenarios: list[Scenario] | None = None,
    store: Store | None = None,
    progress: Progress | None = None,
    engine: Engine | None = None,
    roles: Mapping[str, RoleModel] | None = None,
) -> LabResult:
    """The whole protocol through the experiment engine (default: a local pool of `config.workers`), saved
    cell by cell in `store` (a temporary one without it): rerunning the same lab resumes it, running only the
    cells not done. `progress(fraction, message)` after each cell. `roles`: the model of each role of every
    treatment (`copilot`, `judge`, `imitator`; `inventory lab run --role`), recorded in the result's settings."""
    from core.experiments.driver import run_experiment
    from core.inventory.lab.protocol import scenarios_of

    start = time.perf_counter()
    spec = lab_spec(config, settings, scenarios, roles)
    _, not_run = runnable(config, settings, roles)
    with contextlib.ExitStack() as stack:
        if store is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="orca-lab-"))
            store = Store(Path(folder) / "lab.duckdb")
        total = len(spec.agents) * len(scenarios_of(dict(spec.env)))
        finished = [int((store.cells(spec.experiment_id)["status"] == "done").sum())]
        news: list[str] = []

        def written(outcome: CellOutcome) -> None:  # on the driver's writer thread
            finished[0] += outcome.status == "done"
            news.append(f"cell {outcome.key}: {outcome.status}")

        def report_progress() -> bool:  # on the calling thread (a page may only draw from its own thread)
            if progress and news:
                progress(min(1.0, finished[0] / max(1, total)), news[-1])
                news.clear()
            return False

        run_experiment(
            spec,
            store,
            engine=engine or LocalEngine(config.workers),
            progress=False,
            on_outcome=written,
            should_stop=report_progress,
            settings={a.name: settings for a in spec.agents},
        )
        report_progress()
        records, failed = _records(store, spec)
    return LabResult(
        config,
        settings.public_dict() | ({"roles": {r: m.label for r, m in roles.items()}} if roles else {}),
        records,
        not_run | failed,
        time.perf_counter() - start,
        experiment_id=spec.experiment_id,
    )
