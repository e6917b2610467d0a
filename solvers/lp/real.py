"""The `real` track (issue 28): Netlib's infeasible LPs as repair episodes, with no ground truth.

Spec sheet
----------
Start state: `reset(options={"problem": NAME})` (or `{"index": k}`, else drawn with `self.np_random`) reads
one model of `data/lp/netlib_infeasible` (`REAL_MODELS`), solves it (INFEASIBLE) and computes its IIS with
the own-model tool's fallback chain (`solvers.lp.analyze.find_iis`).

Actions: the repair grammar of `solvers.lp.actions` without protected rows (the names are not the lab's):
GET_IIS, CHECK_SLACK, RELAX_CONSTRAINT, DROP_CONSTRAINT, UPDATE_RHS, UPDATE_OBJ, UPDATE_BOUNDS, SUBMIT,
RESET; an invalid action costs a step, changes nothing, and the next observation says why.

Episode: one phase. It ends when the model solves (OPTIMAL or UNBOUNDED), on SUBMIT, or after `max_steps`.
There is no statement, no ground truth and no rationality oracle: success is a **verified** feasible model
(the final model written as MPS, read back fresh and re-solved OPTIMAL or UNBOUNDED) with the fewest changes.
The reference is the own-model tool's fewest-changes repair (`reference`: proven, or best found under its
time limit). Changes (`count_changes`) are the rows removed, added, re-bounded or re-weighted plus the
columns whose bounds moved (objective edits are listed but never make a model feasible, so not counted).

Observation (text, ASCII): `## Current State`, the last action's result, `## IIS`, `## Model Structure`
(constraint families by name stem), recent actions, and at reset the model in CPLEX-LP text when it is at
most `MAX_MODEL_TEXT` characters (else a note: cplex1's 3,005 rows are not sent).

Reward (ours, eq. 5's shape): at the end +150 for a verified feasible model with at most the reference's
changes, +75 for a verified feasible model with more, -50 otherwise.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import SpecError
from solvers.lp.actions import Action, ActionName, apply_action
from solvers.lp.analyze import FEASIBLE, IISReport, analyze, find_iis, read_model, stem_of
from solvers.lp.diff import diff_models
from solvers.lp.env import (
    MODEL_HEADER,
    REWARD_FAILED,
    REWARD_IRRATIONAL,
    REWARD_RATIONAL,
    LPEnvBase,
    ascii_text,
    iis_lines,
)
from solvers.lp.model import LPModel, LPStatus

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "lp" / "netlib_infeasible"
REAL_MODELS = ("galenet", "woodinfe", "klein1", "forest6", "ex72a", "box1", "refinery", "vol1", "bgetam", "cplex1")
MAX_MODEL_TEXT = 60_000
REAL_SPLIT = "real"


def load_real(name: str) -> LPModel:
    """One Netlib infeasible model by name (a gzipped one, cplex1, is read as a user's .mps.gz: `read_model`)."""
    if name not in REAL_MODELS:
        raise SpecError("problem", f"no Netlib model {name!r}; use one of {', '.join(REAL_MODELS)}")
    plain = DATA_DIR / f"{name}.mps"
    if plain.exists():
        return LPModel.read(plain)
    return read_model(DATA_DIR / f"{name}.mps.gz")


@dataclass(frozen=True)
class Reference:
    """The own-model tool's fewest-changes repair of a model: `changes` (None: no verified repair)."""

    changes: int | None
    proven: bool
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"changes": self.changes, "proven": self.proven, "label": self.label}


@functools.lru_cache(maxsize=len(REAL_MODELS))
def reference(name: str) -> Reference:
    """The verified fewest-changes candidate of `analyze` (proven, or best found under its time limit)."""
    report = analyze(load_real(name))
    fewest = [c for c in report.candidates if c.goal == "fewest"]
    best = fewest[0] if fewest else report.best()
    if best is None:
        return Reference(None, False, "no verified repair")
    proven = best.goal == "fewest" and best.proven
    return Reference(len(best.changes), proven, best.label)


@dataclass(frozen=True)
class Changes:
    """What a repair changed: rows (removed, added, re-bounded, coefficients), column bounds, costs."""

    rows: tuple[str, ...]
    bounds: tuple[str, ...]
    costs: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.rows) + len(self.bounds)


def count_changes(before: LPModel, after: LPModel) -> Changes:
    """Name-keyed changes from `before` to `after`, counted per row and per column bound."""
    d = diff_models(before, after, tol=1e-9)
    rows = set(d.removed_rows) | set(d.added_rows) | {r for r, _a, _b in d.row_bounds} | {r for r, *_ in d.coefs}
    return Changes(
        tuple(sorted(rows)), tuple(sorted(c for c, _a, _b in d.col_bounds)), tuple(sorted(c for c, *_ in d.costs))
    )


def verified_status(model: LPModel) -> LPStatus:
    """The status of `model` written as MPS and read back fresh (no warm start, no in-place state)."""
    return LPModel.from_text(model.to_text("mps"), "mps").solve().status


class RealRepairEnv(LPEnvBase):
    __doc__ = __doc__

    metadata = {"render_modes": []}
    refused_by_name = True

    def __init__(self, problems: list[str] | tuple[str, ...] | None = None, *, max_steps: int = 20) -> None:
        if max_steps < 1:
            raise SpecError("max_steps", "must be >= 1")
        names = list(problems or REAL_MODELS)
        for n in names:
            if n not in REAL_MODELS:
                raise SpecError("problem", f"no Netlib model {n!r}; use one of {', '.join(REAL_MODELS)}")
        self.problems = names
        self.max_steps = max_steps
        super().__init__()
        self.name: str | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[str, dict]:
        super().reset(seed=seed)
        options = options or {}
        if isinstance(options.get("problem"), str):
            self.name = options["problem"]
            if self.name not in self.problems:
                raise SpecError("problem", f"no model {self.name!r} in this environment")
        elif "index" in options:
            k = int(options["index"])
            if not 0 <= k < len(self.problems):
                raise SpecError("index", f"must be in 0..{len(self.problems) - 1}")
            self.name = self.problems[k]
        else:
            self.name = self.problems[int(self.np_random.integers(len(self.problems)))]
        self.original = load_real(self.name)
        self.model = self.original.copy()
        self.t = 0
        self.done = False
        self.end_reason = ""
        self.final_reward: float | None = None
        self.first_feasible_step: int | None = None
        self.history: list[tuple[str, bool, str]] = []
        self._last: tuple[str, bool, str] | None = None
        self._iis: IISReport | None = None
        self._verified: LPStatus | None = None
        self._evaluate(changed=True)
        self.iis0 = tuple(m.name for m in self._iis.rows) if self._iis else ()
        return self._observation(first=True), self._info()

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if self.model is None:
            raise SpecError("env", "call reset() before step()")
        if self.done:
            return self._observation(), 0.0, True, False, self._info(error="the episode has ended; call reset()")
        self.t += 1
        error = self._play(action)
        if not self.done and self.t >= self.max_steps:
            self._finish("step budget used up")
        reward = float(self.final_reward or 0.0) if self.done else 0.0
        truncated = self.done and self.end_reason == "step budget used up"
        return self._observation(), reward, self.done and not truncated, truncated, self._info(error=error)

    def _apply(self, act: Action) -> tuple[bool, str]:
        assert self.model is not None
        if act.name is ActionName.GET_IIS:
            if self.model.solve().status is not LPStatus.INFEASIBLE:
                return False, "the model is not infeasible; there is no IIS"
            return False, f"IIS has {len(self._iis.rows) if self._iis else 0} constraints"
        if act.name is ActionName.CHECK_SLACK:
            rows = self.model.rows_matching(str(act.target))
            if not rows:
                raise SpecError("target", f"no constraint named {act.target!r} or starting with it")
            members = {m.name for m in self._iis.rows} if self._iis else set()
            parts = []
            for r in rows[:12]:
                s = self.model.slack(r)
                slack = "n/a (not optimal)" if s.slack is None else f"{s.slack:g}"
                parts.append(
                    f"{r}: sense {s.sense}, bounds [{s.lower:g}, {s.upper:g}], slack {slack}, "
                    f"in IIS: {'yes' if r in members else 'no'}"
                )
            return False, "; ".join(parts) + (f" (+{len(rows) - 12} more)" if len(rows) > 12 else "")
        if act.name is ActionName.SUBMIT:
            self._finish("submitted")
            return False, "submitted"
        if act.name is ActionName.RESET:
            self.model = self.original.copy()
            return True, "restored the model as it was handed over"
        if act.name is ActionName.UPDATE_COEF:
            raise SpecError("action", "UPDATE_COEF is not part of the real track's action set")
        outcome = apply_action(self.model, act, protected=False, extended=False)
        return outcome.changed, outcome.message

    def _evaluate(self, *, changed: bool) -> None:
        assert self.model is not None
        status = self.model.solve().status
        if status is LPStatus.INFEASIBLE:
            if changed or self._iis is None:
                self._iis = find_iis(self.model)
            return
        self._iis = None
        if status in FEASIBLE:
            self.first_feasible_step = self.t if self.first_feasible_step is None else self.first_feasible_step
            self._finish(f"the model solves ({status.value})")

    def _finish(self, reason: str) -> None:
        assert self.model is not None and self.name is not None
        self.done = True
        self.end_reason = reason
        self._verified = verified_status(self.model) if self.model.solve().status in FEASIBLE else None
        if self._verified in FEASIBLE:
            ref = reference(self.name).changes
            fewest = ref is not None and count_changes(self.original, self.model).count <= ref
            self.final_reward = REWARD_RATIONAL if fewest else REWARD_IRRATIONAL
        else:
            self.final_reward = REWARD_FAILED

    def _observation(self, *, first: bool = False) -> str:
        assert self.model is not None and self.name is not None
        result = self.model.solve()
        lines = [
            "## Current State",
            f"- Model: {self.name} (Netlib infeasible collection; no problem statement)",
            f"- Solver Status: {result.status.value}",
            f"- Step: {self.t} / {self.max_steps}",
        ]
        if result.status is LPStatus.OPTIMAL:
            lines.append(f"- Objective Value: {result.objective:.6g}")
        lines += self._last_action_lines()
        if self._iis is not None and not self._iis.empty:
            lines += iis_lines([m.name for m in self._iis.rows], [m.label() for m in self._iis.bounds])
            lines.append(f"- Found by: {self._iis.method}")
        families = Counter(stem_of(n) for n in self.model.row_names)
        fam_text = ", ".join(f"{f} ({k})" for f, k in families.most_common(40))
        lines += [
            "",
            "## Model Structure",
            f"- Total Constraints: {self.model.num_rows}",
            f"- Total Variables: {self.model.num_cols}",
            f"- Constraint Families: {fam_text}" + (" ..." if len(families) > 40 else ""),
            "- Goal: a feasible model with the fewest changed rows and bounds",
        ]
        if self.history:
            lines += ["", "## Recent Actions"]
            start = max(0, len(self.history) - 5)
            for k, (label, ok, _msg) in enumerate(self.history[start:], start=start + 1):
                lines.append(f"- {k}. {label}: {'ok' if ok else 'error'}")
        if self.done:
            lines += ["", f"## Episode complete: {self.end_reason} (reward {self.final_reward:+g})"]
        else:
            lines += ["", "What action should be taken next?"]
        if first:
            text = self.model.to_text("lp")
            lines += ["", MODEL_HEADER]
            lines.append(text if len(text) <= MAX_MODEL_TEXT else f"(omitted: {len(text):,} characters)")
        return ascii_text("\n".join(lines))

    def _info(self, error: str | None = None) -> dict[str, Any]:
        assert self.model is not None and self.name is not None
        result = self.model.solve()
        return {
            "problem_id": self.name,
            "status": result.status.value,
            "objective": result.objective,
            "step": self.t,
            "iis": [m.name for m in self._iis.rows] if self._iis else [],
            "error": error,
            "done": self.done,
            "switches": self.switches(),
        }

    def switches(self) -> dict[str, Any]:
        return {"protected_rows": False, "extended_actions": False, "track": REAL_SPLIT}

    def episode_metrics(self) -> dict[str, Any]:
        """Recovered (verified feasible), changes against the own-model tool's fewest, steps and reward."""
        assert self.model is not None and self.name is not None
        verified = self._verified
        if verified is None and self.model.solve().status in FEASIBLE:
            verified = verified_status(self.model)
        recovered = verified in FEASIBLE
        changes = count_changes(self.original, self.model)
        ref = reference(self.name)
        return {
            "problem_id": self.name,
            "error_type": REAL_SPLIT,
            "recovered": recovered,
            "verified_status": verified.value if verified is not None else self.model.solve().status.value,
            "changed": changes.count,
            "changed_rows": list(changes.rows),
            "changed_bounds": list(changes.bounds),
            "changed_costs": list(changes.costs),
            "reference_fewest": ref.changes,
            "reference_proven": ref.proven,
            "fewest": bool(recovered and ref.changes is not None and changes.count <= ref.changes),
            "steps": self.t,
            "first_optimal_step": self.first_feasible_step if recovered else None,
            "reward": self.final_reward if self.final_reward is not None else REWARD_FAILED,
            "end_reason": self.end_reason,
            **self.switches(),
        }


def sample_actions(env: RealRepairEnv, rng: np.random.Generator, n: int) -> list[dict]:
    """A mixed action sequence for contract tests."""
    pool: list[dict] = [
        Action(ActionName.GET_IIS).to_dict(),
        {"name": "DROP_CONSTRAINT", "arguments": {"target": "no_such_row"}},
        {"name": "NOT_AN_ACTION", "arguments": {}},
    ]
    return [pool[int(rng.integers(len(pool)))] for _ in range(n)]
