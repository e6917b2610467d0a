"""Experiment specifications: a TOML file → a validated, frozen `ExperimentSpec` and its cells.

A spec names a workbench of the catalog (whose `experiment_adapter` module builds environments and agents),
the environment config the adapter expands into instances, the agents, seeds and repetitions. A cell is one
instance × agent × seed × repetition; its key is stable (`instance|agent|s<seed>|r<rep>`), so rerunning the
same spec finds the cells it already finished. Repetitions rerun a cell with the same seed (the same demand,
for a paired design): they measure an agent's own randomness (an LLM's sampling), while seeds vary the
environment. The spec hash covers everything that changes results — not the concurrency caps.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from core.catalog import WORKBENCHES, by_key
from core.errors import SpecError

AGENT_KINDS = ("offline", "llm")
LLM_PROVIDERS = ("anthropic", "openai")
ADAPTER_FUNCTIONS = ("instances", "make_env", "make_agent", "metrics")
_AGENT_FIELDS = ("name", "kind", "provider", "model", "framework", "params")
_TOP_FIELDS = (
    "name", "description", "workbench", "adapter", "env", "agents", "seeds", "repetitions", "max_steps",
    "paired", "baseline", "metric", "goal", "concurrency",
)  # fmt: skip


@dataclass(frozen=True)
class AgentSpec:
    """One agent of an experiment: offline (a built-in policy) or an LLM (provider + model + framework)."""

    name: str
    kind: str = "offline"
    provider: str | None = None
    model: str | None = None
    framework: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        where = f"agents.{self.name or '?'}"
        if not isinstance(self.name, str) or not self.name.strip() or "|" in self.name:
            raise SpecError(f"{where}.name", "every agent needs a name (text without '|')")
        if self.kind not in AGENT_KINDS:
            raise SpecError(f"{where}.kind", f"must be one of {', '.join(AGENT_KINDS)}, got {self.kind!r}")
        if self.kind == "llm":
            if self.provider not in LLM_PROVIDERS:
                raise SpecError(
                    f"{where}.provider", f"an LLM agent needs a provider ({', '.join(LLM_PROVIDERS)})"
                )
            if not isinstance(self.model, str) or not self.model.strip():
                raise SpecError(f"{where}.model", "an LLM agent needs a model name")
        elif self.provider not in (None, "offline"):
            raise SpecError(f"{where}.provider", 'an offline agent has no provider (use kind = "llm")')
        if not isinstance(self.params, Mapping):
            raise SpecError(f"{where}.params", "must be a table")

    @property
    def label(self) -> str:
        """How reports name the agent's kind: offline stand-ins are never mistaken for an LLM."""
        if self.kind == "offline":
            return "offline (built-in)"
        return f"LLM {self.provider}/{self.model}" + (f" · {self.framework}" if self.framework else "")

    def as_dict(self) -> dict[str, Any]:
        """The dict the adapter's `make_agent` receives: the named fields plus `params` (also flattened)."""
        out: dict[str, Any] = dict(self.params)
        out.update(
            name=self.name,
            kind=self.kind,
            provider=self.provider,
            model=self.model,
            framework=self.framework,
            params=dict(self.params),
        )
        return out


@dataclass(frozen=True)
class Cell:
    """One unit of work: an agent on an instance with a seed, repetition `repetition`."""

    instance: str
    agent: str
    seed: int
    repetition: int

    @property
    def key(self) -> str:
        return f"{self.instance}|{self.agent}|s{self.seed}|r{self.repetition}"


@dataclass(frozen=True)
class ExperimentSpec:
    """A validated experiment. `env` is the adapter's environment table; `concurrency` caps LLM cells in
    flight per provider (missing provider: no cap beyond the worker count)."""

    name: str
    workbench: str
    agents: tuple[AgentSpec, ...]
    seeds: tuple[int, ...] = (0,)
    env: Mapping[str, Any] = field(default_factory=dict)
    repetitions: int = 1
    max_steps: int | None = None
    paired: bool = True
    baseline: str | None = None
    metric: str = "total_reward"
    goal: str = "max"
    concurrency: Mapping[str, int] = field(default_factory=dict)
    adapter: str | None = None
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise SpecError("name", "the experiment needs a name")
        bench = by_key(self.workbench) if isinstance(self.workbench, str) else None
        if bench is None:
            known = ", ".join(w.key for w in WORKBENCHES if w.experiment_adapter)
            raise SpecError("workbench", f"unknown workbench {self.workbench!r}; with experiments: {known}")
        if self.adapter is None and bench.experiment_adapter is None:
            raise SpecError("workbench", f"the workbench {self.workbench!r} has no experiment adapter yet")
        if self.adapter is not None and (not isinstance(self.adapter, str) or not self.adapter.strip()):
            raise SpecError("adapter", "must be a module name such as core.inventory.experiment")
        if not isinstance(self.env, Mapping):
            raise SpecError("env", "must be a table")
        if not self.agents:
            raise SpecError("agents", "name at least one agent ([[agents]] tables)")
        names = [a.name for a in self.agents]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise SpecError("agents", f"agent names must be unique; repeated: {', '.join(dupes)}")
        if not self.seeds or any(not _is_int(s) or not 0 <= s < 2**32 for s in self.seeds):
            raise SpecError("seeds", "give a list of whole numbers between 0 and 4294967295, or a count")
        if len(set(self.seeds)) != len(self.seeds):
            raise SpecError("seeds", "seeds must be distinct")
        if not _is_int(self.repetitions) or not 1 <= self.repetitions <= 10_000:
            raise SpecError("repetitions", "must be a whole number from 1 to 10000")
        if self.max_steps is not None and (not _is_int(self.max_steps) or self.max_steps < 1):
            raise SpecError("max_steps", "must be a positive whole number")
        if not isinstance(self.paired, bool):
            raise SpecError("paired", "must be true or false")
        if self.baseline is not None and self.baseline not in names:
            raise SpecError("baseline", f"{self.baseline!r} is not one of the agents ({', '.join(names)})")
        if not isinstance(self.metric, str) or not self.metric.strip():
            raise SpecError("metric", "name the metric to compare agents on (e.g. total_cost)")
        if self.goal not in ("min", "max"):
            raise SpecError("goal", 'must be "min" (lower is better) or "max"')
        if not isinstance(self.concurrency, Mapping):
            raise SpecError("concurrency", "must be a table of provider = cap")
        for provider, cap in self.concurrency.items():
            if provider not in LLM_PROVIDERS:
                raise SpecError(
                    f"concurrency.{provider}", f"unknown provider; use {', '.join(LLM_PROVIDERS)}"
                )
            if not _is_int(cap) or cap < 1:
                raise SpecError(f"concurrency.{provider}", "must be a whole number of at least 1")

    @property
    def adapter_module(self) -> str:
        """The module string of the adapter: the spec's override, else the catalog entry's."""
        bench = by_key(self.workbench)
        return self.adapter or (bench.experiment_adapter if bench else None) or ""

    @property
    def baseline_agent(self) -> str:
        """The agent paired differences are taken against (the first agent unless `baseline` says)."""
        return self.baseline or self.agents[0].name

    def agent(self, name: str) -> AgentSpec:
        return next(a for a in self.agents if a.name == name)

    def to_dict(self) -> dict[str, Any]:
        """The spec as plain JSON-able data (what the store keeps; `from_dict` reads it back)."""
        return {
            "name": self.name,
            "description": self.description,
            "workbench": self.workbench,
            "adapter": self.adapter,
            "env": _plain(self.env),
            "agents": [
                {k: _plain(getattr(a, k)) for k in _AGENT_FIELDS if getattr(a, k) not in (None, {})}
                for a in self.agents
            ],
            "seeds": list(self.seeds),
            "repetitions": self.repetitions,
            "max_steps": self.max_steps,
            "paired": self.paired,
            "baseline": self.baseline,
            "metric": self.metric,
            "goal": self.goal,
            "concurrency": dict(self.concurrency),
        }

    @property
    def spec_hash(self) -> str:
        """sha256 of the canonical spec without the concurrency caps (they do not change results)."""
        data = {k: v for k, v in self.to_dict().items() if k != "concurrency"}
        return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    @property
    def experiment_id(self) -> str:
        """The stored experiment's id: the spec hash's first 12 digits (the same spec resumes it)."""
        return self.spec_hash[:12]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _agent(i: int, raw: Any) -> AgentSpec:
    """An agent table: the named fields, and every other key (or a `params` table) as parameters."""
    if not isinstance(raw, Mapping):
        raise SpecError(f"agents[{i}]", "each agent is a table with at least a name")
    if not isinstance(raw.get("name"), str):
        raise SpecError(f"agents[{i}].name", "every agent needs a name")
    params = raw.get("params", {})
    if not isinstance(params, Mapping):
        raise SpecError(f"agents.{raw['name']}.params", "must be a table")
    merged = {**params, **{k: v for k, v in raw.items() if k not in _AGENT_FIELDS}}
    return AgentSpec(
        name=raw["name"],
        kind=raw.get("kind", "offline"),
        provider=raw.get("provider"),
        model=raw.get("model"),
        framework=raw.get("framework"),
        params=merged,
    )


def from_dict(data: Mapping[str, Any]) -> ExperimentSpec:
    """Validate a parsed spec (a TOML document or `ExperimentSpec.to_dict()` output)."""
    if not isinstance(data, Mapping):
        raise SpecError("spec", "an experiment spec is a TOML table")
    unknown = sorted(set(data) - set(_TOP_FIELDS))
    if unknown:
        raise SpecError(unknown[0], f"unknown field; known fields: {', '.join(_TOP_FIELDS)}")
    for required in ("name", "workbench", "agents"):
        if required not in data:
            raise SpecError(required, "is required")
    agents = data["agents"]
    if not isinstance(agents, list):
        raise SpecError("agents", "give the agents as [[agents]] tables")
    seeds = data.get("seeds", [0])
    if _is_int(seeds):
        if not 1 <= seeds <= 100_000:
            raise SpecError("seeds", "a seed count must be from 1 to 100000")
        seeds = list(range(seeds))
    if not isinstance(seeds, list):
        raise SpecError("seeds", "give a list of seeds or a count")
    return ExperimentSpec(
        name=data["name"],
        description=str(data.get("description", "")),
        workbench=data["workbench"],
        adapter=data.get("adapter"),
        env=dict(data.get("env") or {}) if isinstance(data.get("env", {}), Mapping) else data["env"],
        agents=tuple(_agent(i, a) for i, a in enumerate(agents)),
        seeds=tuple(seeds),
        repetitions=data.get("repetitions", 1),
        max_steps=data.get("max_steps"),
        paired=data.get("paired", True),
        baseline=data.get("baseline"),
        metric=data.get("metric", "total_reward"),
        goal=data.get("goal", "max"),
        concurrency=dict(data.get("concurrency") or {}),
    )


def parse_spec(text: str) -> ExperimentSpec:
    """Parse and validate TOML text; a syntax error names the line (field `spec`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError("spec", f"not valid TOML: {err}") from None
    return from_dict(data)


def load_spec(path: str | Path) -> ExperimentSpec:
    """Read and validate the TOML spec at `path`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise SpecError("SPEC", f"cannot read {p}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise SpecError("SPEC", f"{p} is not UTF-8 text") from None
    return parse_spec(text)


def load_adapter(module: str) -> ModuleType:
    """Import an experiment adapter by module string and check it has the four functions."""
    try:
        adapter = importlib.import_module(module)
    except ModuleNotFoundError as err:
        raise SpecError("adapter", f"cannot import the experiment adapter {module!r}: {err}") from None
    missing = [f for f in ADAPTER_FUNCTIONS if not callable(getattr(adapter, f, None))]
    if missing:
        raise SpecError("adapter", f"{module} lacks {', '.join(missing)}")
    return adapter


def expand(spec: ExperimentSpec, adapter: ModuleType) -> tuple[dict[str, dict[str, Any]], list[Cell]]:
    """The instances (key → config) the adapter builds from `spec.env`, and every cell in a stable order."""
    pairs = adapter.instances(dict(spec.env))
    instances: dict[str, dict[str, Any]] = {}
    for key, config in pairs:
        if not isinstance(key, str) or not key or "|" in key:
            raise SpecError("env", f"the adapter produced an invalid instance key {key!r}")
        if key in instances:
            raise SpecError("env", f"the adapter produced the instance {key!r} twice")
        instances[key] = dict(config)
    if not instances:
        raise SpecError("env", "the environment config produced no instances")
    cells = [
        Cell(inst, agent.name, seed, rep)
        for inst in instances
        for seed in spec.seeds
        for rep in range(spec.repetitions)
        for agent in spec.agents
    ]
    return instances, cells
