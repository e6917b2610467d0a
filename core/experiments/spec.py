"""Experiment specifications: a TOML file → a validated, frozen `ExperimentSpec` and its cells.

A spec names a workbench of the catalog (whose `experiment_adapter` module builds environments and agents),
the environment config the adapter expands into instances, the agents, seeds and repetitions. A cell is one
instance × agent × seed × repetition; its key is stable (`instance|agent|s<seed>|r<rep>`), so rerunning the
same spec finds the cells it already finished. Repetitions rerun a cell with the same seed (the same demand,
for a paired design): they measure an agent's own randomness (an LLM's sampling), while seeds vary the
environment. The spec hash covers everything that changes results — not the concurrency caps.

Specs are untrusted input (the Experiments page accepts uploads), so reading one never runs code: the
`adapter` it names must be an allowed adapter (a catalog workbench's `experiment_adapter`, one registered with
`register_adapter`, or one listed in `$ORCA_EXPERIMENT_ADAPTERS`), checked before anything is imported. A spec
text is at most `MAX_SPEC_CHARS` characters nested at most `MAX_SPEC_DEPTH` levels, and `expand` refuses more
than `max_cells()` cells before building any of them.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from core.catalog import WORKBENCHES, by_key
from core.errors import SpecError
from core.llm.roles import RoleModel, role_table

AGENT_KINDS = ("offline", "llm")
LLM_PROVIDERS = ("anthropic", "openai")
ADAPTER_FUNCTIONS = ("instances", "make_env", "make_agent", "metrics")
_AGENT_FIELDS = ("name", "kind", "provider", "model", "framework", "params", "roles")
MAX_SPEC_CHARS = 1_000_000
"""The longest spec text read (a spec is a few dozen lines; a megabyte is far beyond any real one)."""
MAX_SPEC_DEPTH = 32
MAX_NAME_CHARS = 200  # an experiment's name: a label in lists, reports and file names
MAX_DESCRIPTION_CHARS = 10_000
"""The deepest nesting of tables and arrays in a spec (TOML allows any depth; the reader and JSON need a bound)."""
ADAPTERS_ENV = "ORCA_EXPERIMENT_ADAPTERS"
"""Extra allowed adapter modules, comma-separated: set by whoever runs ORCA (never by a spec), and inherited by
the driver processes the Experiments page starts."""
MAX_CELLS_ENV = "ORCA_MAX_CELLS"
DEFAULT_MAX_CELLS = 10_000
CEILING_MAX_CELLS = 1_000_000
_MODULE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
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
    roles: Mapping[str, RoleModel] = field(default_factory=dict)  # per-role models (core.llm.roles)

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
        for role, model in dict(self.roles).items():
            if not isinstance(model, RoleModel):
                raise SpecError(f"{where}.roles.{role}", "must be a role model")
            model.check(f"{where}.roles.{role}")

    @property
    def label(self) -> str:
        """How reports name the agent's kind (and its roles' models): offline stand-ins are never mistaken for
        an LLM."""
        if self.kind == "offline":
            base = "offline (built-in)"
        else:
            base = f"LLM {self.provider}/{self.model}" + (f" · {self.framework}" if self.framework else "")
        roles = "; ".join(f"{role}: {model.label}" for role, model in sorted(self.roles.items()))
        return f"{base} · roles {roles}" if roles else base

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
        if self.roles:
            out["roles"] = {role: model.as_dict() for role, model in self.roles.items()}
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
        if len(self.name) > MAX_NAME_CHARS or len(self.description) > MAX_DESCRIPTION_CHARS:
            field = "name" if len(self.name) > MAX_NAME_CHARS else "description"
            limit = MAX_NAME_CHARS if field == "name" else MAX_DESCRIPTION_CHARS
            raise SpecError(field, f"an experiment {field} may have at most {limit:,} characters")
        bench = by_key(self.workbench) if isinstance(self.workbench, str) else None
        if bench is None:
            known = ", ".join(w.key for w in WORKBENCHES if w.experiment_adapter)
            raise SpecError("workbench", f"unknown workbench {self.workbench!r}; with experiments: {known}")
        if self.adapter is None and bench.experiment_adapter is None:
            raise SpecError("workbench", f"the workbench {self.workbench!r} has no experiment adapter yet")
        if self.adapter is not None:
            check_adapter(self.adapter)
        if not isinstance(self.env, Mapping):
            raise SpecError("env", "must be a table")
        check_depth(self.env, "env")
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
                {
                    k: ({r: m.as_dict() for r, m in a.roles.items()} if k == "roles" else _plain(getattr(a, k)))
                    for k in _AGENT_FIELDS
                    if getattr(a, k) not in (None, {})
                }
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
        roles=role_table(raw["roles"], f"agents.{raw['name']}.roles") if "roles" in raw else {},
    )


def from_dict(data: Mapping[str, Any]) -> ExperimentSpec:
    """Validate a parsed spec (a TOML document or `ExperimentSpec.to_dict()` output)."""
    if not isinstance(data, Mapping):
        raise SpecError("spec", "an experiment spec is a TOML table")
    check_depth(data)
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
    """Parse and validate TOML text; a syntax error names the line (field `spec`). Text longer than
    `MAX_SPEC_CHARS` or nested deeper than `MAX_SPEC_DEPTH` is refused before (or while) it is parsed."""
    if len(text) > MAX_SPEC_CHARS:
        raise SpecError("spec", f"the spec has {len(text):,} characters; at most {MAX_SPEC_CHARS:,} are read")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError("spec", f"not valid TOML: {err}") from None
    except RecursionError:
        raise SpecError(
            "spec", f"nested too deeply (at most {MAX_SPEC_DEPTH} levels of tables and arrays)"
        ) from None
    return from_dict(data)


def check_depth(data: Any, field: str = "spec", limit: int = MAX_SPEC_DEPTH) -> None:
    """Refuse tables and arrays nested deeper than `limit` (checked without recursion, so any depth is safe)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping | list | tuple):
            if depth >= limit:
                raise SpecError(field, f"nested too deeply (at most {limit} levels of tables and arrays)")
            children = value.values() if isinstance(value, Mapping) else value
            stack.extend((child, depth + 1) for child in children)


def load_spec(path: str | Path) -> ExperimentSpec:
    """Read and validate the TOML spec at `path` (a regular file of at most `MAX_SPEC_CHARS` bytes)."""
    p = Path(path)
    try:
        if not p.is_file():
            raise SpecError("SPEC", f"{p} is not a regular file")
        with p.open("rb") as f:
            raw = f.read(MAX_SPEC_CHARS + 1)
    except OSError as err:
        raise SpecError("SPEC", f"cannot read {p}: {err.strerror or err}") from None
    if len(raw) > MAX_SPEC_CHARS:
        raise SpecError("SPEC", f"{p} is larger than {MAX_SPEC_CHARS:,} bytes; a spec is a short TOML file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError("SPEC", f"{p} is not UTF-8 text") from None
    return parse_spec(text)


_REGISTERED: set[str] = set()


def register_adapter(module: str) -> None:
    """Allow the adapter `module` (e.g. a test's own) in specs, in this process and the drivers and workers it
    starts (it is added to `$ORCA_EXPERIMENT_ADAPTERS`). Nothing is imported here."""
    if not isinstance(module, str) or not _MODULE_RE.match(module):
        raise SpecError("adapter", f"not a module name: {module!r}")
    _REGISTERED.add(module)
    listed = [m for m in os.environ.get(ADAPTERS_ENV, "").split(",") if m.strip()]
    if module not in listed:
        os.environ[ADAPTERS_ENV] = ",".join([*listed, module])


def allowed_adapters(env: Mapping[str, str] | None = None) -> set[str]:
    """The adapter modules a spec may name: the catalog's, the registered ones and `$ORCA_EXPERIMENT_ADAPTERS`."""
    listed = [m.strip() for m in (os.environ if env is None else env).get(ADAPTERS_ENV, "").split(",")]
    bad = [m for m in listed if m and not _MODULE_RE.match(m)]
    if bad:
        raise SpecError(
            ADAPTERS_ENV, f"not a module name: {bad[0]!r} (give module names separated by commas)"
        )
    catalog = {w.experiment_adapter for w in WORKBENCHES if w.experiment_adapter}
    catalog |= {m for w in WORKBENCHES for m in w.other_adapters}
    return catalog | _REGISTERED | {m for m in listed if m}


def check_adapter(module: Any) -> str:
    """`module` if it is an allowed adapter; a `SpecError` naming `adapter` otherwise (nothing is imported)."""
    if not isinstance(module, str) or not module.strip():
        raise SpecError("adapter", "must be a module name such as core.inventory.simulator.experiment")
    allowed = allowed_adapters()
    if module not in allowed:
        raise SpecError(
            "adapter",
            f"{module[:200]!r} is not an experiment adapter; allowed: {', '.join(sorted(allowed))} (leave it out "
            f"to use the workbench's own; others must be registered by whoever runs ORCA, see {ADAPTERS_ENV})",
        )
    return module


def load_adapter(module: str) -> ModuleType:
    """Import an allowed experiment adapter (checked before the import) and check it has the four functions."""
    return import_adapter(check_adapter(module))


def import_adapter(module: str) -> ModuleType:
    """Import the adapter `module` and check its functions. Only for a module already allowed: workers run the
    driver's tasks, whose adapter the driver checked with `load_adapter`."""
    try:
        adapter = importlib.import_module(module)
    except ModuleNotFoundError as err:
        raise SpecError("adapter", f"cannot import the experiment adapter {module!r}: {err}") from None
    missing = [f for f in ADAPTER_FUNCTIONS if not callable(getattr(adapter, f, None))]
    if missing:
        raise SpecError("adapter", f"{module} lacks {', '.join(missing)}")
    return adapter


def max_cells(env: Mapping[str, str] | None = None) -> int:
    """The most cells one experiment may have: `$ORCA_MAX_CELLS` (1 to 1,000,000), else 10,000."""
    text = (os.environ if env is None else env).get(MAX_CELLS_ENV, "").strip().replace("_", "")
    if not text:
        return DEFAULT_MAX_CELLS
    if not re.fullmatch(r"\d{1,9}", text) or not 1 <= int(text) <= CEILING_MAX_CELLS:
        raise SpecError(
            MAX_CELLS_ENV, f"must be a whole number from 1 to {CEILING_MAX_CELLS:,}, got {text[:40]!r}"
        )
    return int(text)


def _check_cells(count: int, what: str) -> None:
    cap = max_cells()
    if count > cap:
        raise SpecError(
            "spec",
            f"{what} make {count:,} cells, more than the cap of {cap:,} per experiment; use fewer seeds, "
            f"repetitions, agents or instances (or raise {MAX_CELLS_ENV}, at most {CEILING_MAX_CELLS:,})",
        )


def expand(spec: ExperimentSpec, adapter: ModuleType) -> tuple[dict[str, dict[str, Any]], list[Cell]]:
    """The instances (key → config) the adapter builds from `spec.env`, and every cell in a stable order.

    The cell count is checked against `max_cells()` arithmetically: once before the adapter builds instances
    (agents × seeds × repetitions) and once with the instances, before any cell is built. An adapter's optional
    `check_agents(agents, env_config)` refuses an agent that cannot run in this set-up before any cell exists."""
    per_instance = len(spec.agents) * len(spec.seeds) * spec.repetitions
    _check_cells(
        per_instance, f"{len(spec.agents)} agents × {len(spec.seeds)} seeds × {spec.repetitions} repetitions"
    )
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
    check_agents = getattr(adapter, "check_agents", None)
    if callable(check_agents):  # an impossible agent is refused now, not cell by cell
        check_agents([a.as_dict() for a in spec.agents], dict(spec.env))
    _check_cells(
        len(instances) * per_instance,
        f"{len(instances)} instances × {len(spec.agents)} agents × {len(spec.seeds)} seeds × "
        f"{spec.repetitions} repetitions",
    )
    cells = [
        Cell(inst, agent.name, seed, rep)
        for inst in instances
        for seed in spec.seeds
        for rep in range(spec.repetitions)
        for agent in spec.agents
    ]
    return instances, cells


def with_roles(spec: ExperimentSpec, overrides: Mapping[str, RoleModel]) -> ExperimentSpec:
    """`spec` with every agent's roles set (or replaced) by `overrides` (the CLI's `--role`): another
    experiment id, since the models change the results."""
    if not overrides:
        return spec
    agents = tuple(replace(a, roles={**a.roles, **overrides}) for a in spec.agents)
    return replace(spec, agents=agents)
