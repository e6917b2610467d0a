"""Ordering policies (seed 000 Appendix A.1 plus capped base-stock and (R,Q)).

Every policy is a frozen dataclass with a vectorised `orders(problem, t, on_hand, pipeline)` returning the
*desired* order per path (int64); the period then truncates it to the feasible range
(`period.truncate_orders`). `act(observation, problem)` is the single-path form used with `InventoryControlEnv`.
Inventory position IP = on-hand + all pipeline orders. With `cutoff=True` a policy places no order that
could not arrive before the horizon ends (`period.cut_off`: period t, 0-based, with t + L > T - 1), the cheap
fix for the finite-horizon end effect the exact DP reveals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.errors import SpecError
from solvers.inventory.period import counted_stock, cut_off, truncate_orders
from solvers.inventory.spec import InventoryProblem


def observation_parts(observation: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Split an `InventoryControlEnv` observation `[on_hand, t, x1..xL]` into (t, on_hand[1], pipeline[1, L])."""
    obs = np.asarray(observation, dtype=np.int64)
    return int(obs[1]), obs[:1], obs[None, 2:]


class _Policy:
    """Shared single-path `act` on top of the vectorised `orders`."""

    cutoff: bool = False

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:  # pragma: no cover - interface
        raise TypeError(f"{type(self).__name__} must define orders()")

    def act(self, observation: np.ndarray, problem: InventoryProblem) -> int:
        """Order for one `InventoryControlEnv` observation (already truncated to the feasible range)."""
        t, on_hand, pipeline = observation_parts(observation)
        counted = counted_stock(problem, on_hand, pipeline)
        return int(truncate_orders(problem, self.orders(problem, t, on_hand, pipeline), counted)[0])

    def _gate(self, problem: InventoryProblem, t: int, q: np.ndarray) -> np.ndarray:
        return np.zeros_like(q) if self.cutoff and cut_off(problem, t) else q


def _check(field: str, value: int, low: int = 0) -> None:
    if isinstance(value, bool) or int(value) != value or value < low:
        raise SpecError(field, f"must be a whole number >= {low}, got {value!r}")


@dataclass(frozen=True)
class SSPolicy(_Policy):
    """(s,S): order `(S - IP)` when `IP < s` (Appendix A.1), truncated by capacity and max order."""

    s: int
    S: int
    cutoff: bool = False

    def __post_init__(self) -> None:
        _check("s", self.s)
        _check("S", self.S)
        if self.s > self.S:
            raise SpecError(
                "s", f"the reorder point s ({self.s}) cannot exceed the order-up-to level S ({self.S})"
            )

    @property
    def name(self) -> str:
        return f"sS({self.s},{self.S})" + ("+cutoff" if self.cutoff else "")

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:
        ip = on_hand + pipeline.sum(axis=-1)
        return self._gate(problem, t, np.where(ip < self.s, self.S - ip, 0))


@dataclass(frozen=True)
class BaseStockPolicy(_Policy):
    """Capped base-stock: order `min((S - IP)+, cap)`; `cap=None` is plain order-up-to S."""

    S: int
    cap: int | None = None
    cutoff: bool = False

    def __post_init__(self) -> None:
        _check("S", self.S)
        if self.cap is not None:
            _check("cap", self.cap, 1)

    @property
    def name(self) -> str:
        cap = f",cap={self.cap}" if self.cap is not None else ""
        return f"base_stock({self.S}{cap})" + ("+cutoff" if self.cutoff else "")

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:
        q = np.maximum(self.S - on_hand - pipeline.sum(axis=-1), 0)
        if self.cap is not None:
            q = np.minimum(q, self.cap)
        return self._gate(problem, t, q)


@dataclass(frozen=True)
class ConstantPolicy(_Policy):
    """Constant order q every period (asymptotically optimal for lost sales as L grows)."""

    q: int
    cutoff: bool = False

    def __post_init__(self) -> None:
        _check("q", self.q)

    @property
    def name(self) -> str:
        return f"constant({self.q})" + ("+cutoff" if self.cutoff else "")

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:
        return self._gate(problem, t, np.full(on_hand.shape, self.q, dtype=np.int64))


@dataclass(frozen=True)
class RQPolicy(_Policy):
    """(R,Q): order a batch of Q units when `IP < R` (periodic review, same trigger as (s,S))."""

    R: int
    Q: int
    cutoff: bool = False

    def __post_init__(self) -> None:
        _check("R", self.R)
        _check("Q", self.Q, 1)

    @property
    def name(self) -> str:
        return f"rQ({self.R},{self.Q})" + ("+cutoff" if self.cutoff else "")

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:
        ip = on_hand + pipeline.sum(axis=-1)
        return self._gate(problem, t, np.where(ip < self.R, self.Q, 0))


@dataclass(frozen=True, eq=False)
class TablePolicy(_Policy):
    """A time-dependent lookup table `table[t, I, x1, ..., xL]` (the exact DP-optimal policy).

    On-hand is indexed from `offset` (0 for lost sales); states outside the table order nothing."""

    table: np.ndarray
    offset: int = 0
    label: str = "dp"

    @property
    def name(self) -> str:
        return self.label

    def orders(
        self, problem: InventoryProblem, t: int, on_hand: np.ndarray, pipeline: np.ndarray
    ) -> np.ndarray:
        idx = [np.asarray(on_hand) - self.offset] + [pipeline[..., i] for i in range(pipeline.shape[-1])]
        shape = self.table.shape[1:]
        inside = np.ones(np.shape(on_hand), dtype=bool)
        for axis, i in enumerate(idx):
            inside &= (i >= 0) & (i < shape[axis])
        clipped = [np.clip(i, 0, n - 1) for i, n in zip(idx, shape, strict=True)]
        return np.where(inside, self.table[min(t, self.table.shape[0] - 1)][tuple(clipped)], 0).astype(
            np.int64
        )
