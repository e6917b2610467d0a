"""A tiny experiment adapter for the tests and benchmarks: the inventory environment with order-up-to agents.

Agent params: `S` (order-up-to level); `kill_seed` (the worker SIGKILLs itself at t = 2 on that seed);
`fail_seed` (act raises an `OrcaError` on that seed); `crash_seed` (make_agent raises a bug on that seed —
checked in act, since make_agent has no seed); `spin` (CPU work per step, for the speed-up benchmark);
`hold_gil` (a C loop of that many additions at the first step, which holds the GIL: ~1.3 s per 10^8; with
`hold_flag`, only while the file it names exists); `gate_file` with `gate_from_seed` (the cells of seeds from
that one wait at their first step while the file exists: a test decides when they may go on, not the clock).
Env config: `horizons` (list of time horizons, one instance each; default [10]).
An agent of kind "llm" asks its model for each order quantity (one request per step, through the real SDK)
and appends "start end" wall times of each request to the file named by its `log` param.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from core.catalog import make
from core.config import Settings
from core.errors import SpecError
from core.experiments.costs import CallEstimate, estimate_tokens
from core.llm import Message, Usage, make_chat_model
from core.rollout import RolloutResult
from solvers.inventory.env import DEFAULT_TABLE

ENV_ID = "orca/InventoryControl-v0"


def instances(env_config: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    horizons = env_config.get("horizons", [10])
    if not isinstance(horizons, list) or not horizons:
        raise SpecError("env.horizons", "give a list of horizons")
    return [(f"T{h}", {"table": {**DEFAULT_TABLE, "time_horizon": str(h)}}) for h in horizons]


def make_env(config: dict[str, Any]) -> Any:
    return make(ENV_ID, table=config["table"])


class OrderUpTo:
    def __init__(self, name: str, params: dict[str, Any]) -> None:
        self.name = name
        self.level = int(params.get("S", 20))
        self.params = params
        self.seed: int | None = None

    def reset(self, seed: int | None) -> None:
        self.seed = seed

    def act(self, observation: Any) -> int:
        p, t = self.params, int(observation[1])
        if p.get("kill_seed") == self.seed and t == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        if p.get("fail_seed") == self.seed and t == 1:
            raise SpecError("action", "the agent gave up")
        if p.get("crash_seed") == self.seed:
            raise ZeroDivisionError("a bug in the agent")
        if p.get("hold_gil") and t == 0 and (not p.get("hold_flag") or os.path.exists(p["hold_flag"])):
            sum(range(int(p["hold_gil"])))
        if p.get("gate_file") and t == 0 and self.seed >= int(p.get("gate_from_seed", 0)):
            while os.path.exists(p["gate_file"]):
                time.sleep(0.02)
        spin = int(p.get("spin", 0))
        acc = 0
        for i in range(spin):
            acc += i * i
        return max(0, self.level - int(observation[0]) - int(sum(observation[2:])))


SYSTEM = "You manage stock. Answer with the order quantity only."


def llm_calls(agent_spec: dict[str, Any], config: dict[str, Any], max_steps: int | None) -> CallEstimate:
    """The dry-run estimate of an "llm" agent's cell: one request per period, each the system prompt and one
    short observation message (a typical one stands for all), output tokens assumed 3 (a number)."""
    steps = int(config["table"]["time_horizon"])
    steps = min(steps, max_steps) if max_steps else steps
    per_call = estimate_tokens(SYSTEM) + estimate_tokens("on hand 10, period 1")
    return CallEstimate(calls=steps, input_tokens=steps * per_call, output_tokens_per_call=3)


class AskModel:
    """An LLM agent: the model answers each period's order quantity as a number."""

    def __init__(self, name: str, settings: Settings, log: str | None) -> None:
        self.name = name
        self.model = make_chat_model(settings)
        self.log = log
        self.usage = Usage()

    def reset(self, seed: int | None) -> None:
        self.usage = Usage()

    def act(self, observation: Any) -> int:
        started = time.time()
        reply = self.model.complete(
            SYSTEM,
            [Message("user", f"on hand {int(observation[0])}, period {int(observation[1])}")],
        )
        if self.log:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(f"{started} {time.time()}\n")
        self.usage = self.usage + reply.usage
        try:
            return int(reply.text.strip())
        except ValueError:
            raise SpecError("action", f"the model did not answer a number: {reply.text!r}") from None


class RoleAgent:
    """An agent with per-role models: role `orderer` answers each period's order quantity, role `judge` is
    asked once per period whether it agrees (its answer is kept as the step's note)."""

    def __init__(self, name: str, roles: dict[str, Settings]) -> None:
        self.name = name
        self.orderer = AskModel(name, roles["orderer"], None)
        self.judge = make_chat_model(roles["judge"]) if "judge" in roles else None
        self.judged = Usage()
        self.last_note: str | None = None

    @property
    def usage(self) -> Usage:
        return self.orderer.usage + self.judged

    def reset(self, seed: int | None) -> None:
        self.orderer.reset(seed)
        self.judged = Usage()

    def act(self, observation: Any) -> int:
        action = self.orderer.act(observation)
        if self.judge is not None:
            reply = self.judge.complete("Judge the order.", [Message("user", f"order {action}?")])
            self.judged = self.judged + reply.usage
            self.last_note = reply.text
        return action


def make_agent(
    agent_spec: dict[str, Any], config: dict[str, Any], settings: Settings, roles: dict[str, Settings] | None = None
) -> Any:
    if roles:
        return RoleAgent(agent_spec["name"], roles)
    if agent_spec.get("kind") == "llm":
        return AskModel(agent_spec["name"], settings, agent_spec.get("log"))
    return OrderUpTo(agent_spec["name"], agent_spec)


def metrics(result: RolloutResult, env: Any) -> dict[str, float]:
    return {
        "total_cost": float(env.total_cost),
        "total_reward": float(result.total_reward),
        "steps": float(result.steps),
    }
