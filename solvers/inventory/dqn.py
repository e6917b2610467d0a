"""Deep Q-Network for the Appendix A MDP (seed 000 §2.3), in PyTorch, seeded and CPU-friendly.

State: on-hand, time period and pipeline (fed as scaled features plus the inventory position).
Action: an order 0..max_order; orders that would break `max_order` / `max_inventory`, and any positive
order in the last L periods (it could only arrive after the horizon), are masked out both when acting
and in the targets. Double DQN with a Polyak-averaged target network, a replay buffer
filled by a batch of vectorised numpy environments, epsilon-greedy exploration, a learning rate
decaying linearly in the budget used (`max(step/steps, elapsed/seconds)`, so it also decays when the time
budget binds), reward = -cost/scale with no discounting over the finite horizon, and half of the
episodes started from a random feasible state for coverage. The best checkpoint is kept by a validation
evaluation of the greedy policy on fixed validation paths (common random numbers across checkpoints).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from core.errors import SpecError
from solvers.inventory.demand import sample_demand
from solvers.inventory.montecarlo import Progress, check_simulation_size, demand_matrix, simulate_policy
from solvers.inventory.period import counted_stock, cut_off, period
from solvers.inventory.spec import InventoryProblem

if TYPE_CHECKING:
    import torch
    from torch import nn

REPORT_EVERY_S = 0.5
"""Between validations, training reports progress at most this often (the bar moves; results do not depend
on it)."""


@dataclass(frozen=True)
class DQNConfig:
    """Training budget and hyper-parameters; training stops at `steps` vector steps or `seconds`.

    Seeded determinism needs the step budget to bind: the learning rate follows the budget used,
    `max(step/steps, elapsed/seconds)`, so a run whose elapsed-time fraction ever overtakes its step
    fraction (in particular one stopped by `seconds`) depends on the machine's speed. Give `seconds`
    ample slack over the time `steps` take when runs must be reproducible."""

    steps: int = 3000
    seconds: float = 60.0
    envs: int = 128
    hidden: int = 128
    batch: int = 256
    updates_per_step: int = 2
    lr: float = 1e-3
    lr_final_fraction: float = 0.05
    tau: float = 0.005
    buffer: int = 200_000
    eps_start: float = 1.0
    eps_end: float = 0.05
    eps_fraction: float = 0.4
    random_start: float = 0.5
    eval_every: int = 150
    eval_paths: int = 500

    def __post_init__(self) -> None:
        for name in (
            "steps",
            "envs",
            "hidden",
            "batch",
            "updates_per_step",
            "buffer",
            "eval_every",
            "eval_paths",
        ):
            if int(getattr(self, name)) < 1:
                raise SpecError(name, "must be at least 1")
        for name in ("seconds", "lr"):
            if not getattr(self, name) > 0:  # also refuses NaN
                raise SpecError(name, f"must be positive, got {getattr(self, name)!r}")


MAX_ACTIONS = 10_001  # network outputs: orders 0..max_order
MAX_BUFFER_BYTES = 2_000_000_000  # the replay buffer's state arrays


def check_dqn_size(problem: InventoryProblem, config: DQNConfig) -> None:
    """`SpecError` naming `max_order` or `lead_time` when the network or its replay buffer would be too large."""
    if problem.action_dim > MAX_ACTIONS:
        raise SpecError(
            "max_order",
            f"the DQN has one output per order quantity 0..{problem.max_order}; at most {MAX_ACTIONS - 1:,} "
            "is supported (use the (s,S) search instead)",
        )
    if 8 * config.buffer * (problem.lead_time + 3) > MAX_BUFFER_BYTES:
        raise SpecError(
            "lead_time",
            f"a lead time of {problem.lead_time:,} periods makes the DQN's replay buffer too large; "
            "use the (s,S) search or a smaller DQN buffer",
        )
    check_simulation_size(problem, config.eval_paths)


def q_network(input_dim: int, actions: int, hidden: int) -> nn.Sequential:
    """The Q-network: an MLP with two hidden ReLU layers."""
    from torch import nn

    return nn.Sequential(
        nn.Linear(input_dim, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, actions),
    )


def features(
    problem: InventoryProblem, t: np.ndarray | int, on_hand: np.ndarray, pipeline: np.ndarray
) -> np.ndarray:
    """Network input: on-hand/cap, pipeline/max_order, position/cap, t/T (float32, one row per state)."""
    cap, qmax = problem.max_on_hand, max(problem.max_order, 1)
    on_hand = np.asarray(on_hand, dtype=np.float32)
    pipe = np.asarray(pipeline, dtype=np.float32).reshape(len(on_hand), problem.lead_time)
    tt = np.broadcast_to(np.asarray(t, dtype=np.float32), on_hand.shape)
    cols = [
        on_hand[:, None] / cap,
        pipe / qmax,
        (on_hand + pipe.sum(axis=1))[:, None] / cap,
        tt[:, None] / problem.time_horizon,
    ]
    return np.concatenate(cols, axis=1).astype(np.float32)


def max_feasible(
    problem: InventoryProblem, on_hand: np.ndarray, pipeline: np.ndarray, t: np.ndarray | int
) -> np.ndarray:
    """Largest sensible order per state in period t (0-based): 0 when an order placed now would arrive
    after the horizon (t + L > T - 1), so it would only cost the setup; otherwise the feasible cap."""
    pipe = np.asarray(pipeline).reshape(len(on_hand), problem.lead_time)
    counted = counted_stock(problem, np.asarray(on_hand), pipe)  # the capacity basis of `period`
    top = np.clip(problem.max_inventory - counted, 0, problem.max_order).astype(np.int64)
    return np.where(cut_off(problem, np.asarray(t)), 0, top)


def _masked(q: torch.Tensor, top: torch.Tensor) -> torch.Tensor:
    import torch

    actions = torch.arange(q.shape[1])
    return torch.where(actions[None, :] <= top[:, None], q, torch.tensor(-torch.inf))


@dataclass(frozen=True, eq=False)
class DQNPolicy:
    """Greedy policy of a trained Q-network; `scale` converts network values back to cost units."""

    net: nn.Module = field(repr=False)
    scale: float
    label: str = "dqn"

    @property
    def name(self) -> str:
        return self.label

    def q_values(self, problem: InventoryProblem, t, on_hand: np.ndarray, pipeline: np.ndarray) -> np.ndarray:
        """Masked Q-values in cost units (negative expected cost to go); infeasible orders are -inf."""
        import torch

        with torch.no_grad():
            q = self.net(torch.from_numpy(features(problem, t, on_hand, pipeline)))
            q = _masked(q, torch.from_numpy(max_feasible(problem, on_hand, pipeline, t)))
        return q.numpy() * self.scale

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:
        return self.q_values(problem, t, on_hand, pipeline).argmax(axis=1).astype(np.int64)


@dataclass(frozen=True, eq=False)
class DQNResult:
    """The best checkpoint's policy and the learning curve (one row per validation)."""

    policy: DQNPolicy
    best_validation: float
    curve: tuple[dict[str, float], ...]
    env_steps: int
    seconds: float
    hidden: int
    steps: int = 0
    steps_budget: int = 0
    stopped_by: str = "steps"
    """What ended training: "steps" (the step budget), "time" (the seconds budget) or "cancelled"."""


def reward_scale(problem: InventoryProblem) -> float:
    """Typical one-period cost, so rewards are O(1)."""
    return max(
        1e-6,
        problem.setup_cost + (problem.holding_cost + problem.penalty_cost) * max(problem.demand.mean, 1) / 2,
    )


def _random_states(
    problem: InventoryProblem, rng: np.random.Generator, n: int
) -> tuple[np.ndarray, np.ndarray]:
    p = problem
    on_hand = rng.integers(0, p.max_inventory + 1, n)
    pipe = np.zeros((n, p.lead_time), dtype=np.int64)
    for i in range(p.lead_time):
        room = np.clip(p.max_inventory - on_hand - pipe.sum(axis=1), 0, p.max_order)
        pipe[:, i] = rng.integers(0, room + 1)
    return on_hand, pipe


@dataclass(frozen=True, eq=False)
class _States:
    """The vectorised environments: on-hand and pipeline per environment, and their shared period t (0-based)."""

    on_hand: np.ndarray
    pipe: np.ndarray
    t: int


def _episode_start(
    problem: InventoryProblem, rng: np.random.Generator, n: int, random_start: float
) -> _States:
    """`n` fresh episodes: the initial state, or with probability `random_start` a random feasible one."""
    on_hand = np.full(n, problem.initial_inventory, dtype=np.int64)
    pipe = np.zeros((n, problem.lead_time), dtype=np.int64)
    rand = rng.random(n) < random_start
    ro, rp = _random_states(problem, rng, int(rand.sum()))
    on_hand[rand], pipe[rand] = ro, rp
    return _States(on_hand, pipe, 0)


class _Replay:
    """The replay buffer: a ring of transitions (features, order, reward, next features, next cap, episode end)."""

    def __init__(self, size: int, dim: int) -> None:
        self.size = size
        self.s, self.s2 = np.zeros((size, dim), np.float32), np.zeros((size, dim), np.float32)
        self.a, self.top2 = np.zeros(size, np.int64), np.zeros(size, np.int64)
        self.r, self.done = np.zeros(size, np.float32), np.zeros(size, np.float32)
        self.ptr, self.filled = 0, 0

    def add(
        self, s: np.ndarray, a: np.ndarray, r: np.ndarray, s2: np.ndarray, top2: np.ndarray, done: float
    ) -> None:
        """Store one transition per environment, overwriting the oldest once full."""
        n = len(a)
        idx = (self.ptr + np.arange(n)) % self.size
        self.s[idx], self.a[idx], self.r[idx] = s, a, r
        self.s2[idx], self.top2[idx] = s2, top2
        self.done[idx] = done
        self.ptr, self.filled = (self.ptr + n) % self.size, min(self.size, self.filled + n)


def _epsilon(cfg: DQNConfig, step: int) -> float:
    """The exploration rate: linear from `eps_start` to `eps_end` over the first `eps_fraction` of the steps."""
    return cfg.eps_end + (cfg.eps_start - cfg.eps_end) * max(0.0, 1 - step / (cfg.eps_fraction * cfg.steps))


def _collect(
    problem: InventoryProblem,
    net: nn.Module,
    states: _States,
    eps: float,
    rng: np.random.Generator,
    replay: _Replay,
    scale: float,
) -> _States:
    """One vector step: epsilon-greedy feasible orders, one period per environment, the transitions stored."""
    import torch

    p, t, on_hand, pipe = problem, states.t, states.on_hand, states.pipe
    n = len(on_hand)
    top = max_feasible(p, on_hand, pipe, t)
    s_feat = features(p, t, on_hand, pipe)
    with torch.no_grad():
        greedy = _masked(net(torch.from_numpy(s_feat)), torch.from_numpy(top)).argmax(1).numpy()
    explore = rng.random(n) < eps
    a = np.where(explore, rng.integers(0, top + 1), greedy)
    out = period(p, on_hand, pipe, a, sample_demand(p.demand, rng, n), t)
    nxt = _States(out.next_on_hand, out.next_pipeline, (t + 1) % p.time_horizon)
    s2, top2 = features(p, nxt.t, nxt.on_hand, nxt.pipe), max_feasible(p, nxt.on_hand, nxt.pipe, nxt.t)
    replay.add(s_feat, a, -out.cost / scale, s2, top2, float(nxt.t == 0))
    return nxt


def _learn(
    net: nn.Module,
    target: nn.Module,
    opt: torch.optim.Optimizer,
    replay: _Replay,
    rng: np.random.Generator,
    cfg: DQNConfig,
) -> None:
    """`updates_per_step` Double DQN updates on replayed batches, each followed by a Polyak step of the target."""
    import torch
    from torch import nn

    for _ in range(cfg.updates_per_step):
        j = rng.integers(0, replay.filled, cfg.batch)
        s2 = torch.from_numpy(replay.s2[j])
        with torch.no_grad():
            a2 = _masked(net(s2), torch.from_numpy(replay.top2[j])).argmax(1, keepdim=True)
            nxt = target(s2).gather(1, a2).squeeze(1)
            y = torch.from_numpy(replay.r[j]) + (1 - torch.from_numpy(replay.done[j])) * nxt
        q = net(torch.from_numpy(replay.s[j])).gather(1, torch.from_numpy(replay.a[j])[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(q, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for tp, op in zip(target.parameters(), net.parameters(), strict=True):
                tp.mul_(1 - cfg.tau).add_(op, alpha=cfg.tau)


class _Checkpoints:
    """The learning curve and the best network so far, by the greedy policy's cost on fixed validation paths."""

    def __init__(self, problem: InventoryProblem, policy: DQNPolicy, val_demand: np.ndarray) -> None:
        self.problem, self.policy, self.val_demand = problem, policy, val_demand
        self.best_state = copy.deepcopy(policy.net.state_dict())
        self.best_val = np.inf
        self.curve: list[dict[str, float]] = []

    def check(self, step: int, envs: int, start: float, lr: float) -> float:
        """Validate the current network on the common paths; keep it if it is the best so far."""
        val = simulate_policy(self.problem, self.policy, self.val_demand).mean
        self.curve.append(
            {
                "step": step,
                "env_steps": step * envs,
                "seconds": time.perf_counter() - start,
                "validation_cost": val,
                "lr": lr,
            }
        )
        if val < self.best_val:
            self.best_val, self.best_state = val, copy.deepcopy(self.policy.net.state_dict())
        return val

    def best_text(self) -> str:
        if np.isfinite(self.best_val):
            return f"best validation cost {self.best_val:.2f}"
        return "first validation pending"


def _status(cfg: DQNConfig, done: float, step: int, start: float, best: str) -> str:
    """The progress text, saying the same fraction as the bar (the step or time budget, whichever binds)."""
    return (
        f"DQN training {done:.0%} of its budget: step {step:,} of {cfg.steps:,}, "
        f"{time.perf_counter() - start:.0f} s of {cfg.seconds:.0f} s; {best}"
    )


def train_dqn(
    problem: InventoryProblem,
    config: DQNConfig | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> DQNResult:
    """Train a DQN on the problem; returns the best checkpoint by validation cost. `should_stop` (checked
    every step) cancels training early; the result then says so in `stopped_by`."""
    import torch

    cfg = config or DQNConfig()
    check_dqn_size(problem, cfg)
    p, n = problem, cfg.envs
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    scale = reward_scale(p)
    net = q_network(p.lead_time + 3, p.max_order + 1, cfg.hidden)
    target = copy.deepcopy(net)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    replay = _Replay(cfg.buffer, p.lead_time + 3)
    checkpoints = _Checkpoints(p, DQNPolicy(net, scale), demand_matrix(p, cfg.eval_paths, seed + 104_729))
    start = reported = time.perf_counter()
    states: _States | None = None
    step, cancelled = 0, False
    while step < cfg.steps and time.perf_counter() - start < cfg.seconds:
        if should_stop is not None and should_stop():
            cancelled = True
            break
        if states is None or states.t == 0:
            states = _episode_start(p, rng, n, cfg.random_start)
        states = _collect(p, net, states, _epsilon(cfg, step), rng, replay, scale)
        step += 1
        # budget used: the step or the time fraction, whichever binds (as the progress bar shows)
        done = min(1.0, max(step / cfg.steps, (time.perf_counter() - start) / cfg.seconds))
        for group in opt.param_groups:
            group["lr"] = cfg.lr * (1 - (1 - cfg.lr_final_fraction) * done)
        if replay.filled >= cfg.batch:
            _learn(net, target, opt, replay, rng, cfg)
        if step % cfg.eval_every == 0 or step == cfg.steps:
            val = checkpoints.check(step, n, start, opt.param_groups[0]["lr"])
            if progress:
                progress(done, _status(cfg, done, step, start, f"validation cost {val:.2f}"))
                reported = time.perf_counter()
        elif progress and time.perf_counter() - reported >= REPORT_EVERY_S:
            progress(done, _status(cfg, done, step, start, checkpoints.best_text()))
            reported = time.perf_counter()
    if not checkpoints.curve or checkpoints.curve[-1]["step"] != step:
        checkpoints.check(step, n, start, opt.param_groups[0]["lr"])
    net.load_state_dict(checkpoints.best_state)
    net.eval()
    return DQNResult(
        policy=DQNPolicy(net, scale),
        best_validation=float(checkpoints.best_val),
        curve=tuple(checkpoints.curve),
        env_steps=step * n,
        seconds=time.perf_counter() - start,
        hidden=cfg.hidden,
        steps=step,
        steps_budget=cfg.steps,
        stopped_by="cancelled" if cancelled else "steps" if step >= cfg.steps else "time",
    )
