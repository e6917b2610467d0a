"""Money in experiments: the cost of a finished cell, the `--budget` guard, and the `--dry-run` estimate.

A cell's tokens are those its run recorded (per column the larger of the transitions' and the steps' sums, as
`Store.run_tokens` reads them back), priced with the price table (`core.llm.prices`): where the cell's metrics
split them by agent-side role (the adapter's `AGENT_ROLES`), each role's at its own model ("per role"), else
at the dearest agent-side model ("upper bound (roles)"); environment-side roles (`ENV_ROLES`) at theirs. The
budget counts what the cells finished in this driver call cost at list price, by the same rule (a reply
served from the cache costs nothing, see `Budget`). An estimate asks each LLM agent's adapter for
`llm_calls(agent, env_config, max_steps) -> CallEstimate` per cell; an adapter without it leaves the calls "unknown". Adapters
build the requests a cell would send with `DryRunModel` (a `ChatModel` that sends nothing, answers an assumed
reply and counts each request's tokens), so no prompt length is guessed.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from core.errors import SpecError
from core.experiments.spec import AgentSpec, ExperimentSpec
from core.llm.prices import PriceTable
from core.llm.roles import RoleModel
from core.llm.types import Message, Reply, ToolCall, ToolSpec, Usage
from core.store.rollouts import RunRecord

TOKEN_CHARS = 4.0
"""Characters per token of the estimate (a common rule of thumb for English text and JSON)."""
DEFAULT_OUTPUT_TOKENS = 200
"""The estimate's assumption of output tokens per call when the adapter states none."""


def estimate_tokens(text: str) -> int:
    """Tokens of `text` by the rule of thumb `TOKEN_CHARS` characters per token (at least 1 for non-empty)."""
    return math.ceil(len(text) / TOKEN_CHARS) if text else 0


def record_usage(record: RunRecord | None) -> Usage:
    """The tokens a run record holds: per column the larger of its transitions' and its steps' sums."""
    if record is None:
        return Usage()
    t_in = sum(t.input_tokens for t in record.transitions)
    t_out = sum(t.output_tokens for t in record.transitions)
    s_in = sum(int(s[2]) for s in record.steps)
    s_out = sum(int(s[3]) for s in record.steps)
    return Usage(max(t_in, s_in), max(t_out, s_out))


def agent_provider(agent: AgentSpec) -> str:
    """The provider an agent's cost is priced under ("offline" for built-in agents)."""
    return str(agent.provider) if agent.kind == "llm" else "offline"


def env_roles(adapter: object) -> tuple[str, ...]:
    """The adapter's environment-side roles (`ENV_ROLES`): their tokens are cell metrics, not run tokens."""
    return tuple(getattr(adapter, "ENV_ROLES", ()) or ())


def agent_roles(adapter: object) -> tuple[str, ...]:
    """The adapter's agent-side roles whose tokens its cells record apart (`AGENT_ROLES`: the metrics
    `<role>_input_tokens`/`<role>_output_tokens`, part of the run's tokens), so each is priced at its own model."""
    return tuple(getattr(adapter, "AGENT_ROLES", ()) or ())


def role_defaults(adapter: object) -> dict[str, str]:
    """The adapter's `ROLE_DEFAULTS`: role -> the role whose model plays it when the spec names none (the
    inventory lab's judge is the consultant's model), else the agent's own model."""
    return dict(getattr(adapter, "ROLE_DEFAULTS", {}) or {})


def role_models(spec: ExperimentSpec, adapter: object = None) -> dict[str, dict[str, RoleModel]]:
    """Per agent, the model of each role: the roles the spec's `[env]` names by the adapter's alias (its optional
    `env_roles(env_config)`, e.g. the inventory lab's `[env] imitator = "provider:model"`), then the agent's
    own `roles`, which win."""
    hook = getattr(adapter, "env_roles", None)
    aliases: dict[str, RoleModel] = dict(hook(dict(spec.env))) if callable(hook) else {}
    return {agent.name: {**aliases, **agent.roles} for agent in spec.agents}


def agent_models(agent: AgentSpec, exclude: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Every LLM (provider, model) an agent uses: its own (kind "llm") and its LLM roles' (but the roles in
    `exclude`, the environment-side ones, priced on their own)."""
    models = [(str(agent.provider), str(agent.model))] if agent.kind == "llm" else []
    models += [(m.provider, m.model) for r, m in agent.roles.items() if not m.offline and r not in exclude]
    return list(dict.fromkeys(models))


def agent_cost(agent: AgentSpec, usage: Usage, prices: PriceTable, exclude: tuple[str, ...] = ()) -> float | None:
    """USD of `usage` by `agent`: 0 without an LLM; None when one of its models has no price; with several
    models (roles) the cost at the dearest one, an upper bound (for tokens the cell does not split by role).
    `exclude`: environment-side roles, which are priced on their own (`cell_cost`)."""
    costs = [prices.cost(p, m, usage) for p, m in agent_models(agent, exclude)]
    if not costs:
        return 0.0
    if any(c is None for c in costs):
        return None
    return max(c for c in costs if c is not None)


def role_usage(metrics: Any, role: str) -> Usage:
    """The tokens of environment-side role `role` in a cell's metrics (`<role>_input_tokens`, ...)."""
    def number(key: str) -> int:
        try:
            value = float((metrics or {}).get(key) or 0)
        except (TypeError, ValueError):
            return 0
        return int(value) if math.isfinite(value) else 0

    return Usage(number(f"{role}_input_tokens"), number(f"{role}_output_tokens"))


def role_token_metrics(role: str, usage: Usage) -> dict[str, float]:
    """The cell metrics `<role>_input_tokens`/`<role>_output_tokens` of `usage` (what `role_usage` reads back):
    the one shape in which an adapter records a role's tokens. An adapter records them only for a role an LLM
    played (an LLM that made no request records zeros), so offline cells carry no token fields."""
    return {f"{role}_input_tokens": float(usage.input_tokens), f"{role}_output_tokens": float(usage.output_tokens)}


PER_ROLE = "per role"
UPPER_BOUND = "upper bound (roles)"


@dataclass(frozen=True)
class CellCost:
    """A cell's tokens (every role) and USD (None: a model without a price); `roles` is the tokens of each
    environment-side role that used any, `agent_roles` those of each agent-side role the cell records apart.
    `basis`: how the agent side was priced — `PER_ROLE` (each recorded role at its own model, more than one
    model), "listed" (the split, all on one model), `UPPER_BOUND` (no split: at the dearest agent-side model),
    or "" (no split, at most one agent-side model)."""

    usage: Usage
    cost_usd: float | None
    roles: dict[str, Usage]
    agent_roles: dict[str, Usage] = field(default_factory=dict)
    basis: str = ""


def env_role_model(
    agent: AgentSpec, models: dict[str, RoleModel], role: str, defaults: Mapping[str, str] | None = None
) -> RoleModel | None:
    """The model playing `role` for `agent`: its role (or the `[env]` alias), else that of the role `defaults`
    names for it (followed in turn), else the agent's own model (a lab whose LLM imitator is the treatment's
    model); None when nothing names one."""
    seen: set[str] = set()
    while role not in models and role in (defaults or {}) and role not in seen:
        seen.add(role)
        role = (defaults or {})[role]
    if role in models:
        return models[role]
    if agent.kind == "llm":
        return RoleModel(str(agent.provider), str(agent.model))
    return None


def recorded_split(metrics: Any, roles: tuple[str, ...]) -> bool:
    """Whether a cell's metrics record the tokens of any of the agent-side `roles` (a finite
    `<role>_input_tokens` and `<role>_output_tokens`); a role with no such metrics then used none."""

    def finite(key: str) -> bool:
        try:
            return math.isfinite(float((metrics or {})[key]))
        except (KeyError, TypeError, ValueError):
            return False

    return any(finite(f"{r}_input_tokens") and finite(f"{r}_output_tokens") for r in roles)


def _role_cost(model: RoleModel | None, tokens: Usage, prices: PriceTable) -> float | None:
    """USD of `tokens` at `model` (offline or no tokens: 0; no model or no price: None)."""
    if not (tokens.input_tokens or tokens.output_tokens) or (model is not None and model.offline):
        return 0.0
    return None if model is None else prices.cost(model.provider, model.model, tokens)


def _add(cost: float | None, part: float | None) -> float | None:
    return None if cost is None or part is None else cost + part


def cell_cost(
    agent: AgentSpec,
    usage: Usage,
    metrics: Any,
    prices: PriceTable,
    *,
    roles: tuple[str, ...] = (),
    models: dict[str, RoleModel] | None = None,
    agent_side: tuple[str, ...] = (),
    defaults: Mapping[str, str] | None = None,
) -> CellCost:
    """The tokens and USD of one cell of `agent`. The run's tokens `usage`: where `metrics` split them by the
    agent-side roles `agent_side` (`recorded_split`), each role's tokens at that role's model (`env_role_model`
    with `defaults`) and any rest of the run's tokens at the agent's models (`agent_cost`); else all of them by
    `agent_cost` (at the dearest: an upper bound). Plus each environment-side role's tokens (from `metrics`) at
    that role's model in `models` (offline: $0; no model or no price: unknown)."""
    mine = dict(models or {})
    split: dict[str, Usage] = {}
    basis = UPPER_BOUND if len(agent_models(agent, roles)) > 1 else ""
    if recorded_split(metrics, agent_side):
        split = {r: role_usage(metrics, r) for r in agent_side}
        split = {r: u for r, u in split.items() if u.input_tokens or u.output_tokens}
        parts = Usage(sum(u.input_tokens for u in split.values()), sum(u.output_tokens for u in split.values()))
        rest = Usage(max(0, usage.input_tokens - parts.input_tokens), max(0, usage.output_tokens - parts.output_tokens))
        cost = agent_cost(agent, rest, prices, roles) if rest.input_tokens or rest.output_tokens else 0.0
        played = {r: env_role_model(agent, mine, r, defaults) for r in agent_side}
        for role, tokens in split.items():
            cost = _add(cost, _role_cost(played[role], tokens, prices))
        usage = parts + rest
        llms = {(m.provider, m.model) for m in played.values() if m is not None and not m.offline}
        if rest.input_tokens or rest.output_tokens:  # tokens the split does not account for: the agent's
            llms |= set(agent_models(agent, roles))
        if basis != UPPER_BOUND or not (rest.input_tokens or rest.output_tokens):
            basis = PER_ROLE if len(llms) > 1 else "listed" if llms else ""
    else:
        cost = agent_cost(agent, usage, prices, roles)
    total = usage
    used: dict[str, Usage] = {}
    for role in roles:
        tokens = role_usage(metrics, role)
        if not (tokens.input_tokens or tokens.output_tokens):
            continue
        used[role] = tokens
        total = total + tokens
        cost = _add(cost, _role_cost(env_role_model(agent, mine, role, defaults), tokens, prices))
    return CellCost(total, cost, used, split, basis)


def check_prices(
    spec: ExperimentSpec, prices: PriceTable, field: str, models: dict[str, dict[str, RoleModel]] | None = None
) -> None:
    """Refuse (naming `field`) when an LLM model of an agent (or of a role the `[env]` names) has no price: a
    budget cannot use it."""
    for agent in spec.agents:
        named = [(m.provider, m.model) for m in (models or {}).get(agent.name, {}).values() if not m.offline]
        for provider, model in dict.fromkeys([*agent_models(agent), *named]):
            if prices.price(provider, model) is None:
                raise SpecError(
                    field,
                    f"agent {agent.name!r} uses {provider}/{model}, which has no price in {prices.source}; "
                    "add it there (USD per million input/output tokens)",
                )


class Budget:
    """Spent USD of the cells finished so far against a limit; `reached` once spent >= limit. A reply served
    from the reply cache costs nothing: its tokens (the worker's `CellOutcome.cached`) are taken off at their
    model's price and counted in `cached_usd` instead."""

    def __init__(self, limit_usd: float, spec: ExperimentSpec, prices: PriceTable, adapter: object = None) -> None:
        if isinstance(limit_usd, bool) or not math.isfinite(limit_usd) or limit_usd <= 0:
            raise SpecError("--budget", f"must be a positive number of USD, got {limit_usd!r}")
        self.models = role_models(spec, adapter)
        check_prices(spec, prices, "--budget", self.models)
        self.roles = env_roles(adapter)
        self.agent_side, self.defaults = agent_roles(adapter), role_defaults(adapter)
        self.limit_usd = float(limit_usd)
        self.spec = spec
        self.prices = prices
        self.spent_usd = 0.0
        self.cached_usd = 0.0
        self._lock = threading.Lock()

    def charge(
        self, agent_name: str, record: RunRecord | None, cached: dict[tuple[str, str], tuple[int, int]] | None = None
    ) -> float:
        """Add the cost of one finished cell of `agent_name` (less its `cached` tokens, per (provider, model));
        return it."""
        agent = self.spec.agent(agent_name)
        metrics = record.metrics if record is not None else {}
        full = cell_cost(
            agent, record_usage(record), metrics, self.prices, roles=self.roles, models=self.models[agent_name],
            agent_side=self.agent_side, defaults=self.defaults,
        ).cost_usd or 0.0  # fmt: skip
        saved = sum(self.prices.cost(p, m, Usage(i, o)) or 0.0 for (p, m), (i, o) in (cached or {}).items())
        cost = max(0.0, full - saved)
        with self._lock:
            self.spent_usd += cost
            self.cached_usd += min(saved, full)
        return cost

    @property
    def reached(self) -> bool:
        return self.spent_usd >= self.limit_usd


@dataclass(frozen=True)
class CallEstimate:
    """An adapter's estimate for one cell: model calls, input tokens (all calls) and output tokens per call;
    `roles` is the part of them made by named roles, role -> (calls, input tokens), each priced at that role's
    model (`env_role_model`: environment-side roles such as a lab's decision agents, and agent-side ones such as
    the School Scheduling lab's `optimizer` or RetailBench's `agent`); the rest at the agent's models (the
    dearest when it has several: an upper bound). When the calls depend on what the model does (its tool calls,
    when it ends), `calls` are those of the behaviour `assumption` states and `max_calls` is the protocol's upper
    bound on calls (every tool loop to its step limit, every conversation to its turn limit); None: `calls` is
    already the bound without an `assumption`, no bound stated with one ("calls_upper_bound" is then None)."""

    calls: int
    input_tokens: int
    output_tokens_per_call: int = DEFAULT_OUTPUT_TOKENS
    roles: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    max_calls: int | None = None
    assumption: str = ""


def assumed_reply(sentence: str, tokens: int = DEFAULT_OUTPUT_TOKENS) -> str:
    """`sentence` repeated and cut to `tokens` tokens by the estimate's rule (`TOKEN_CHARS` characters a
    token): a stand-in reply of the assumed output length."""
    size = int(tokens * TOKEN_CHARS)
    unit = sentence.strip() + " "
    return (unit * (size // len(unit) + 1))[:size].strip()


def request_tokens(system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> int:
    """Input tokens of one request by `estimate_tokens`: the system prompt, each message (its text and any tool
    call's arguments) and each tool's schema (name, description, parameters as JSON)."""
    sent = estimate_tokens(system) + sum(estimate_tokens(m.content or "") for m in messages)
    sent += sum(
        estimate_tokens(json.dumps({"name": c.name, "arguments": c.arguments})) for m in messages for c in m.tool_calls
    )
    return sent + sum(
        estimate_tokens(json.dumps({"name": t.name, "description": t.description, "parameters": t.parameters}))
        for t in tools
    )


class DryRunModel:
    """A `ChatModel` that sends nothing: it answers every request with `reply` (and the native `tool_calls`, none
    by default) and counts the requests and their input tokens (`request_tokens`), so an adapter can build the
    real requests of a cell under that assumed reply without a key."""

    def __init__(self, reply: str, name: str = "dry-run", tool_calls: Sequence[ToolCall] = ()) -> None:
        self.reply = reply
        self.name = name
        self.tool_calls = tuple(tool_calls)
        self.calls = 0
        self.input_tokens = 0

    def complete(self, system: str, messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> Reply:
        sent = request_tokens(system, messages, tools)
        self.calls += 1
        self.input_tokens += sent
        calls = tuple(
            ToolCall(f"dry{self.calls}_{i}", c.name, dict(c.arguments)) for i, c in enumerate(self.tool_calls)
        )
        return Reply(self.reply, calls, Usage(sent, estimate_tokens(self.reply)), stop_reason="dry-run")


def _guess_cost(
    agent: AgentSpec,
    guess: CallEstimate,
    prices: PriceTable,
    roles: tuple[str, ...],
    models: dict[str, RoleModel],
    defaults: Mapping[str, str] | None = None,
) -> float | None:
    """USD of one cell's estimate: each named role's calls (`guess.roles`) at that role's model, the rest at the
    agent's (`agent_cost`)."""
    out = guess.output_tokens_per_call
    role_calls = sum(c for c, _ in guess.roles.values())
    role_input = sum(i for _, i in guess.roles.values())
    side = Usage(guess.input_tokens - role_input, (guess.calls - role_calls) * out)
    cost = agent_cost(agent, side, prices, roles) if side.input_tokens or side.output_tokens else 0.0
    for role, (calls, tokens) in guess.roles.items():
        model = env_role_model(agent, models, role, defaults)
        part = None if model is None else (0.0 if model.offline else prices.cost(model.provider, model.model, Usage(tokens, calls * out)))
        cost = None if cost is None or part is None else cost + part
    return cost


def estimate_cells(
    spec: ExperimentSpec, adapter: ModuleType, cells: list[Any], instances: dict[str, dict[str, Any]],
    prices: PriceTable,
) -> dict[str, Any]:
    """The dry-run estimate of `cells` (pending `Cell`s): calls, tokens and USD per agent and in total. The
    adapter's `llm_calls(agent, env_config, max_steps)` gets the agent with every role it plays (its `[env]`
    aliases included) and may answer None: calls unknown for that cell."""
    hook = getattr(adapter, "llm_calls", None)
    roles, models = env_roles(adapter), role_models(spec, adapter)
    rows: dict[str, dict[str, Any]] = {}
    for cell in cells:
        agent = spec.agent(cell.agent)
        mine = models[agent.name]
        row = rows.setdefault(
            agent.name,
            {
                "agent": agent.name,
                "provider": agent_provider(agent),
                "model": agent.model if agent.kind == "llm" else "built-in",
                "cells": 0,
                "calls": 0,
                "input_tokens": 0,
                "output_tokens": 0,
                "cost_usd": 0.0,
                "calls_upper_bound": 0,
                "note": "",
            },
        )
        row["cells"] += 1
        if not agent_models(agent) and all(m.offline for m in mine.values()):
            continue
        if row["calls"] is None:
            continue
        played = {**agent.as_dict(), "roles": {r: m.as_dict() for r, m in mine.items()}}
        guess: CallEstimate | None = (
            hook(played, dict(instances[cell.instance]), spec.max_steps) if callable(hook) else None
        )
        if guess is None:
            row["calls"] = row["cost_usd"] = row["calls_upper_bound"] = None
            row["note"] = "calls unknown: " + (
                "the adapter has no llm_calls estimate" if not callable(hook) else "the adapter cannot estimate this agent"
            )
            continue
        row["calls"] += guess.calls
        bound = guess.max_calls if guess.max_calls is not None else (None if guess.assumption else guess.calls)
        if bound is None or row["calls_upper_bound"] is None:
            row["calls_upper_bound"] = None  # an estimate that claims no bound: the agent's bound is unknown
        else:
            row["calls_upper_bound"] += bound
        row["input_tokens"] += guess.input_tokens
        row["output_tokens"] += guess.calls * guess.output_tokens_per_call
        cost = _guess_cost(agent, guess, prices, roles, mine, role_defaults(adapter))
        if cost is None:
            row["cost_usd"] = None
            row["note"] = "price unknown"
        elif row["cost_usd"] is not None:
            row["cost_usd"] += cost
            row["note"] = f"output tokens assumed: {guess.output_tokens_per_call} per call"
        if guess.assumption and guess.assumption not in row["note"]:
            row["note"] = "; ".join(x for x in (row["note"], f"calls assumed: {guess.assumption}") if x)
    agents = list(rows.values())
    known = all(r["calls"] is not None for r in agents)
    priced = all(r["cost_usd"] is not None for r in agents)
    return {
        "experiment_id": spec.experiment_id,
        "pending_cells": len(cells),
        "calls": sum(r["calls"] for r in agents) if known else None,
        "calls_upper_bound": (
            sum(r["calls_upper_bound"] for r in agents)
            if all(r["calls_upper_bound"] is not None for r in agents)
            else None
        ),
        "input_tokens": sum(r["input_tokens"] for r in agents),
        "output_tokens": sum(r["output_tokens"] for r in agents),
        "cost_usd": round(sum(r["cost_usd"] for r in agents), 6) if priced else None,
        "cost": (
            "unknown (calls unknown)"
            if not known
            else "price unknown"
            if not priced
            else f"${sum(r['cost_usd'] for r in agents):.4f}"
        ),
        "token_rule": f"input tokens = characters / {TOKEN_CHARS:g}",
        "agents": agents,
    }
