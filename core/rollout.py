"""The one agent–environment loop of every workbench, and replay of recorded runs.

`Episode` is the stepper: `reset()`, then `step()` per action (a page's button press or chat turn), each step
recorded, then `finish()`. `rollout` is a loop over it for batch runs: it resets the environment and the agent
with one seed, then asks the agent for an action per step until the episode ends, `max_steps` is reached
(truncated) or `should_stop()` says so (stopped). Each step is recorded through the one recorder as a
transition: the action, reward, a compact observation with the sha256 of the full one, info, tokens and
latency. Actions and observations are stored as JSON, and replay feeds the stored (JSON-decoded) actions to a
fresh environment: a deterministic environment reproduces the run exactly.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

import numpy as np

from core.agent import Agent
from core.errors import OrcaError, SpecError
from core.llm import Usage
from core.recorder import Recorder, RunStatus
from core.store import Store, TransitionRow

COMPACT_TEXT_CHARS = 4000
_ASK_AGENT: Any = object()  # Episode.step's default: ask the agent for the action


class RolloutStatus(StrEnum):
    """How a rollout ended."""

    DONE = "done"  # the environment terminated the episode
    TRUNCATED = "truncated"  # the environment truncated it, or max_steps was reached
    STOPPED = "stopped"  # the caller asked to stop (should_stop)
    FAILED = "failed"  # the agent or the environment raised an OrcaError


_RUN_STATUS = {
    RolloutStatus.DONE: RunStatus.DONE,
    RolloutStatus.TRUNCATED: RunStatus.DONE,
    RolloutStatus.STOPPED: RunStatus.STOPPED,
    RolloutStatus.FAILED: RunStatus.FAILED,
}


@dataclass(frozen=True)
class RolloutResult:
    """What one rollout produced; `metrics` holds `total_reward`, `steps` and the environment's episode metrics."""

    status: RolloutStatus
    steps: int
    total_reward: float
    metrics: dict[str, Any]
    run_id: str | None = None
    error: str | None = None
    actions: tuple[Any, ...] = field(default=(), repr=False)


def to_json(value: Any) -> Any:
    """`value` as plain JSON data: numpy arrays and scalars, tuples, enums and dataclasses become JSON types.

    A dict or list that already is JSON data is converted by the C encoder and decoder (tuples become lists,
    keys strings; a None or bool key becomes its JSON text) — a long run's tool results are megabytes, and the
    Python walk below dominated its time; anything else takes the walk."""
    if isinstance(value, dict | list):
        try:
            return json.loads(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError):
            pass
    return _to_json(value)


def _to_json(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return _to_json(value.tolist())
    if isinstance(value, np.generic):
        return _to_json(value.item())
    if isinstance(value, Enum):
        return _to_json(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _to_json(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_to_json(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _cut(value: Any) -> Any:
    if isinstance(value, str) and len(value) > COMPACT_TEXT_CHARS:
        return value[:COMPACT_TEXT_CHARS] + f"… [{len(value) - COMPACT_TEXT_CHARS} more characters]"
    if isinstance(value, dict):
        return {k: _cut(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut(v) for v in value]
    return value


def fingerprint(value: Any) -> str:
    """sha256 of `value`'s canonical JSON: equal for equal observations, whatever their size (plain JSON data is
    encoded as is: the same text as after `to_json`)."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        text = json.dumps(to_json(value), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def compact_observation(env: Any, observation: Any) -> Any:
    """What is stored of an observation: the environment's `compact_observation`, else long strings cut."""
    compact = getattr(env, "compact_observation", None)
    return to_json(compact(observation)) if callable(compact) else _cut(to_json(observation))


def episode_metrics(env: Any, total_reward: float, steps: int) -> dict[str, Any]:
    """The run's metrics: total reward, steps, and the environment's own `episode_metrics()` if it has one."""
    metrics: dict[str, Any] = {"total_reward": total_reward, "steps": steps}
    own = getattr(env, "episode_metrics", None)
    if callable(own):
        metrics.update(to_json(own()))
    return metrics


def _row(env: Any, t: int, step: tuple[Any, Any, Any, Any, Any, Any], **extra: Any) -> TransitionRow:
    """The stored form of one step `(action, observation, reward, terminated, truncated, info)`."""
    action, observation, reward, terminated, truncated, info = step
    return TransitionRow(
        t=t,
        action=to_json(action),
        reward=float(reward),
        observation=compact_observation(env, observation),
        obs_hash=fingerprint(observation),
        info=to_json(info),
        terminated=bool(terminated),
        truncated=bool(truncated),
        **extra,
    )


def _tokens(agent: Any) -> Usage:
    usage = getattr(agent, "usage", None)
    return usage if isinstance(usage, Usage) else Usage()


class Episode:
    """One episode of `agent` in `env`, advanced one action at a time: the stepper behind every run.

    A page calls `reset()` once and `step()` per button press or chat turn; `rollout` loops over it. Each step is
    recorded through `recorder` as a transition and appended to `trace`; `finish()` writes the run's status and
    metrics and returns the `RolloutResult`. Transition numbers continue the recorder's (`next_t` at reset)."""

    def __init__(
        self,
        env: Any,
        agent: Agent | None,
        *,
        seed: int | None,
        recorder: Recorder | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.env = env
        self.agent = agent
        self.seed = seed
        self.recorder = recorder
        self.options = options
        self.observation: Any = None
        self.info: dict[str, Any] = {}
        self.trace: list[TransitionRow] = []
        self.total_reward = 0.0
        self.ended: RolloutStatus | None = None
        """DONE or TRUNCATED once the environment ended the episode; None while it runs."""
        self.result: RolloutResult | None = None
        self._base = 0

    def reset(self) -> tuple[Any, dict[str, Any]]:
        """Reset the environment and the agent with the episode's seed; the first observation and info."""
        self.observation, self.info = self.env.reset(seed=self.seed, options=self.options)
        if self.agent is not None:
            self.agent.reset(self.seed)
        self.trace, self.total_reward, self.ended, self.result = [], 0.0, None, None
        self._base = self.recorder.next_t if self.recorder is not None else 0
        return self.observation, self.info

    @property
    def steps(self) -> int:
        return len(self.trace)

    def step(self, action: Any = _ASK_AGENT) -> TransitionRow:
        """Apply `action` (by default the agent's action for the current observation) and record the step.

        An `OrcaError` from the agent or the environment propagates and leaves the episode as it was."""
        if self.ended is not None or self.result is not None:
            raise SpecError("episode", "the episode has ended; reset it to start a new one")
        asked: dict[str, Any] = {}
        if action is _ASK_AGENT:
            action, asked = self._ask_agent()
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.observation, self.info = observation, info
        self.total_reward += float(reward)
        step = (action, observation, reward, terminated, truncated, info)
        row = _row(self.env, self._base + len(self.trace), step, **asked)
        self.trace.append(row)
        if terminated or truncated:
            self.ended = RolloutStatus.DONE if terminated else RolloutStatus.TRUNCATED
        if self.recorder is not None:
            self.recorder.transition(row)
        return row

    def _ask_agent(self) -> tuple[Any, dict[str, Any]]:
        """The agent's action for the current observation, with what it cost: tokens, latency and its note."""
        if self.agent is None:
            raise SpecError("episode", "this episode has no agent; pass the action")
        before = _tokens(self.agent)
        started = time.perf_counter()
        action = self.agent.act(self.observation)
        latency_ms = 1000.0 * (time.perf_counter() - started)
        used = _tokens(self.agent)
        return action, {
            "input_tokens": used.input_tokens - before.input_tokens,
            "output_tokens": used.output_tokens - before.output_tokens,
            "latency_ms": latency_ms,
            "note": getattr(self.agent, "last_note", None) or None,
        }

    def finish(
        self,
        status: RolloutStatus | None = None,
        *,
        error: str | None = None,
        extra_metrics: dict[str, Any] | None = None,
    ) -> RolloutResult:
        """End the run: its metrics (the episode's, then `extra_metrics`, then `error`) and status are recorded.

        `status` defaults to how the environment ended the episode, else TRUNCATED (stopped at a step limit)."""
        status = status or self.ended or RolloutStatus.TRUNCATED
        metrics = episode_metrics(self.env, self.total_reward, self.steps)
        metrics.update(extra_metrics or {})
        if error:
            metrics["error"] = error
        if self.recorder is not None:
            self.recorder.finish(_RUN_STATUS[status], metrics)
        self.result = RolloutResult(
            status,
            self.steps,
            self.total_reward,
            metrics,
            self.recorder.run_id if self.recorder else None,
            error,
            tuple(row.action for row in self.trace),
        )
        return self.result


def rollout(
    env: Any,
    agent: Agent,
    *,
    seed: int | None,
    recorder: Recorder | None = None,
    max_steps: int | None = None,
    options: dict[str, Any] | None = None,
    on_step: Callable[[TransitionRow], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> RolloutResult:
    """Run `agent` in `env` for one episode and record it: a loop over `Episode.step` (see the module docstring)."""
    episode = Episode(env, agent, seed=seed, recorder=recorder, options=options)
    episode.reset()
    status, error = None, None
    try:
        while episode.ended is None and (max_steps is None or episode.steps < max_steps):
            if should_stop is not None and should_stop():
                status = RolloutStatus.STOPPED
                break
            row = episode.step()
            if on_step is not None:
                on_step(row)
    except OrcaError as err:
        status, error = RolloutStatus.FAILED, str(err)
    return episode.finish(status, error=error)


def stored_actions(store: Store, run_id: str) -> list[Any]:
    """The actions of stored run `run_id`, in order, as the environment took them (JSON text decoded)."""
    return [json.loads(a) if isinstance(a, str) else a for a in store.transitions(run_id)["action"]]


def replay(
    env: Any, actions: Sequence[Any], *, seed: int | None, options: dict[str, Any] | None = None
) -> tuple[list[TransitionRow], dict[str, Any]]:
    """Re-run recorded (JSON) actions on `env` from `reset(seed)`: the transitions and episode metrics."""
    observation, _ = env.reset(seed=seed, options=options)
    rows, total = [], 0.0
    for t, action in enumerate(actions):
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        rows.append(_row(env, t, (action, observation, reward, terminated, truncated, info)))
        if terminated or truncated:
            break
    return rows, episode_metrics(env, total, len(rows))


@dataclass(frozen=True)
class ReplayCheck:
    """The outcome of replaying a stored run: `matches` is True when every step and metric agreed."""

    run_id: str
    steps: int
    matches: bool
    mismatch: str | None = None


def replay_run(store: Store, run_id: str, env: Any, *, options: dict[str, Any] | None = None) -> ReplayCheck:
    """Replay stored run `run_id` on a fresh `env` with its recorded seed and compare step by step."""
    run = store.get_run(run_id)
    recorded = store.transitions(run_id).to_dict("records")
    rows, metrics = replay(env, [r["action"] for r in recorded], seed=run.get("seed"), options=options)
    if len(rows) != len(recorded):
        return ReplayCheck(
            run_id, len(rows), False, f"replay took {len(rows)} steps, the run {len(recorded)}"
        )
    for old, new in zip(recorded, rows, strict=True):
        for name in ("obs_hash", "reward", "info", "terminated", "truncated"):
            if old[name] != getattr(new, name):
                return ReplayCheck(run_id, len(rows), False, f"step {old['t']}: {name} differs")
    stored = run.get("metrics") or {}
    for key, value in metrics.items():
        if key in stored and stored[key] != value:
            return ReplayCheck(run_id, len(rows), False, f"metric {key}: {stored[key]!r} != {value!r}")
    return ReplayCheck(run_id, len(rows), True)
