"""Offline repair agents for `LPRepairEnv` (no LLM; each labelled as such in every report).

* `OfflineRepairAgent` — the statement-diff **reference**: an upper bound of what the statement alone reveals,
  not a diagnostician (that is `core/repair/diagnostician.py`). It rebuilds the unbroken model with the
  generator's own code (`parse_description`, `build_tightened`), which an agent in the paper's setting does not
  have, from a statement that lists every parameter. From the first observation it reads the problem
  statement's parameters and the model text, rebuilds the model the statement specifies, and diffs the two:
  wrong cost coefficients -> UPDATE_OBJ, rows the statement does not contain -> DROP_CONSTRAINT, right-hand
  sides that differ from the statement -> UPDATE_RHS, and (extended action set only) wrong coefficients ->
  UPDATE_COEF. When the planned edits leave the model infeasible (coefficient errors it may not edit in
  the paper's grammar), it solves an elastic LP over the unprotected rows and relaxes or drops the
  families that carry the smallest total violation. Every planned action is first simulated on its own copy
  of the model with the same semantics the environment uses, so the plan is valid and short.
* The diagnostician (`core/repair/diagnostician.py: Diagnostician`, agent `diagnostician`) is the offline agent
  that reasons from the IIS, the Farkas ray, names and the stated numbers; it imports nothing of this module.
* `GroundTruthAgent` — replays a problem's stored ground-truth actions (privileged; needs the extended
  action set for ME-2/7/8/10): the ceiling, must score 100 %.
* `DoNothingAgent` — submits at once: the zero line.
* `GreedyDropAgent` — drops the first droppable IIS row until the model is feasible: the floor.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Any

from core.errors import SpecError
from solvers.lp.actions import RETARGETABLE_PREFIX, Action, ActionName, apply_action, is_protected
from solvers.lp.dataset import Problem, parse_description
from solvers.lp.diff import diff_models
from solvers.lp.elastic import elastic_repair
from solvers.lp.env import MODEL_HEADER
from solvers.lp.instance import SupplyChain
from solvers.lp.model import LPModel, LPStatus, family_of, period_of
from solvers.lp.oracle import LABELS, Check, evaluate
from solvers.lp.saboteur import build_tightened

_IIS_LINE = re.compile(r"- Conflicting Constraints: \[(.*?)\]")
SUBMIT = Action(ActionName.SUBMIT).to_dict()


def iis_rows(observation: str) -> list[str]:
    """The IIS constraint names listed in an observation (empty when none is shown)."""
    m = _IIS_LINE.search(observation)
    if not m:
        return []
    return [p.strip().strip("'\"") for p in m.group(1).split(",") if p.strip()]


def episode_over(observation: str) -> bool:
    return "## Episode complete" in observation


class DoNothingAgent:
    """Submits the model as handed over."""

    name = "do-nothing (offline reference)"
    last_note = ""

    def reset(self, seed: int | None) -> None:
        self.last_note = ""

    def act(self, observation: Any) -> dict:
        self.last_note = "submit unchanged"
        return SUBMIT


class GreedyDropAgent:
    """Drops the first IIS row it may drop, re-reads the IIS, repeats; submits when none is left."""

    name = "greedy drop-first-IIS-row (offline reference)"

    def __init__(self, protected: bool = True) -> None:
        self.protected = protected
        self.last_note = ""

    def reset(self, seed: int | None) -> None:
        self.last_note = ""

    def act(self, observation: Any) -> dict:
        rows = [r for r in iis_rows(str(observation)) if not (self.protected and is_protected(r))]
        if not rows or "Solver Status: OPTIMAL" in str(observation):
            self.last_note = "nothing droppable in the IIS: submit"
            return SUBMIT
        self.last_note = f"drop the first droppable IIS row {rows[0]}"
        return Action(ActionName.DROP_CONSTRAINT, rows[0]).to_dict()


class GroundTruthAgent:
    """Replays one problem's stored ground-truth actions, then submits (privileged reference)."""

    name = "ground-truth replay (offline reference, privileged)"

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.last_note = ""
        self.i = 0

    def reset(self, seed: int | None) -> None:
        self.i = 0

    def act(self, observation: Any) -> dict:
        actions = self.problem.gt_actions
        if self.i >= len(actions):
            self.last_note = "ground truth applied: submit"
            return SUBMIT
        self.i += 1
        self.last_note = "ground-truth edit"
        return actions[self.i - 1].to_dict()


def _uniform(values: list[float]) -> float | None:
    return values[0] if values and all(abs(v - values[0]) < 1e-9 for v in values) else None


class OfflineRepairAgent:
    """Statement-diff reference: rebuilds the stated model with the generator's code and diffs (module doc)."""

    def __init__(self, *, extended: bool = False, protected: bool = True) -> None:
        self.extended = extended
        self.protected = protected
        self.name = "statement-diff reference (upper bound of what the statement alone reveals)" + (
            " (extended actions)" if extended else ""
        )
        self.reset(None)

    def reset(self, seed: int | None) -> None:
        self.model: LPModel | None = None
        self.expected: LPModel | None = None
        self.sc: SupplyChain | None = None
        self.queue: list[tuple[Action, str]] = []
        self.last_note = ""
        self.replans = 0

    # --- acting ---

    def act(self, observation: Any) -> dict:
        text = str(observation)
        if self.model is None:
            self._read(text)
        if self.model is None and not episode_over(text):
            self.last_note = (
                "no problem statement in the observation: the statement-diff reference cannot work here "
                "(model-only track); submitting the model unchanged rather than guessing"
                if "## Problem" not in text
                else "the problem statement or the model could not be read: submitting unchanged"
            )
            return SUBMIT
        if episode_over(text) or self.model is None:
            return SUBMIT
        if not self.queue:
            self.replans += 1
            if self.replans <= 3:
                failed = [c for c, label in LABELS.items() if f"- {label} violated" in text]
                self.queue = self._plan()
                if not self.queue and failed:
                    self.queue = self._plan_rational(failed)
        if not self.queue:
            self.last_note = "no further repair found: submit"
            return SUBMIT
        action, note = self.queue.pop(0)
        self._simulate(self.model, action)
        self.last_note = note
        return action.to_dict()

    def _read(self, text: str) -> None:
        if MODEL_HEADER not in text or "## Problem" not in text:
            return
        statement = text.split("## Problem", 1)[1].split("## Current State", 1)[0]
        try:
            sc, tightening = parse_description(statement)
            self.model = LPModel.from_text(text.split(MODEL_HEADER, 1)[1].lstrip("\n"), "lp")
        except SpecError:
            self.model = None
            return
        self.sc = sc
        self.expected = build_tightened(sc, tightening)

    def _simulate(self, model: LPModel, action: Action) -> bool:
        try:
            apply_action(model, action, protected=self.protected, extended=self.extended)
            return True
        except SpecError:
            return False

    # --- planning ---

    def _plan(self) -> list[tuple[Action, str]]:
        assert self.model is not None and self.expected is not None
        scratch = self.model.copy()
        plan: list[tuple[Action, str]] = []
        for action, note in self._from_statement(scratch):
            if self._simulate(scratch, action):
                plan.append((action, note))
        if scratch.solve().status is LPStatus.INFEASIBLE:
            for action, note in self._from_elastic(scratch):
                if self._simulate(scratch, action):
                    plan.append((action, note))
        return plan

    def _plan_rational(self, failed: list[Check]) -> list[tuple[Action, str]]:
        """Phase II: the first unprotected family whose removal keeps the model OPTIMAL and clears `failed`.

        Candidates are the families that still differ from the statement (their coefficients could not
        be edited in the paper's grammar); each is simulated and judged by the deployable oracle.
        """
        assert self.model is not None and self.expected is not None and self.sc is not None
        d = diff_models(self.model, self.expected)
        families = sorted({family_of(r) for r, *_ in d.coefs} | {family_of(r) for r, *_ in d.row_bounds})
        for fam in families:
            if self.protected and any(is_protected(r) for r in self.model.rows_matching(fam)):
                continue
            action = Action(ActionName.DROP_CONSTRAINT, fam)
            scratch = self.model.copy()
            if not self._simulate(scratch, action):
                continue
            report = evaluate(scratch, self.sc, error_type=None)
            if report is None:
                continue
            passed = {r.check for r in report.results if r.passed}
            if set(failed) <= passed:
                return [
                    (
                        action,
                        f"Phase II: {fam} still departs from the statement; dropping it clears {', '.join(c.value for c in failed)}",
                    )
                ]
        return []

    def _from_statement(self, model: LPModel) -> list[tuple[Action, str]]:
        """Edits that bring the model back to what the problem statement specifies."""
        assert self.expected is not None
        d = diff_models(model, self.expected)
        out: list[tuple[Action, str]] = []
        by_family: dict[str, list[float]] = defaultdict(list)
        for col, _have, want in d.costs:
            by_family[family_of(col)].append(want)
        for fam, wants in sorted(by_family.items()):
            value = _uniform(wants)
            if value is not None:
                out.append(
                    (Action(ActionName.UPDATE_OBJ, fam, value), f"cost of {fam} differs from the statement")
                )
        if self.extended:
            groups: dict[tuple[str, str, int, float], int] = defaultdict(int)
            for row, col, _have, want in d.coefs:
                t_row, t_col = period_of(row), period_of(col)
                if t_row is None or t_col is None:
                    continue
                groups[(family_of(row), family_of(col), t_row - t_col, want)] += 1
            # set the stated (non-zero) coefficients before zeroing stray ones: zeroing first can leave a feasible
            # decoupled model at which Phase I ends early (ME-10, sc-test-me-10-01416 of seed 2)
            for (rfam, cfam, lag, want), _count in sorted(
                groups.items(), key=lambda kv: (kv[0][3] == 0.0, kv[0])
            ):
                out.append(
                    (
                        Action(ActionName.UPDATE_COEF, rfam, want, var=cfam, lag=lag),
                        f"{rfam}: coefficients of {cfam} differ",
                    )
                )
        extra = defaultdict(list)
        for row in d.removed_rows:
            extra[family_of(row)].append(row)
        for fam, rows in sorted(extra.items()):
            if self.protected and is_protected(rows[0]):
                continue
            target = rows[0] if len(rows) == 1 else fam
            out.append(
                (Action(ActionName.DROP_CONSTRAINT, target), f"{target}: not part of the stated model")
            )
        rhs: dict[str, list[tuple[str, tuple[float, float]]]] = defaultdict(list)
        for row, _have, want in d.row_bounds:
            if not (self.protected and is_protected(row)) or row.startswith(RETARGETABLE_PREFIX):
                rhs[family_of(row)].append((row, want))
        for fam, items in sorted(rhs.items()):
            wants = [w[1] if math.isfinite(w[1]) else w[0] for _r, w in items]
            value = _uniform(wants)
            family_rows = model.rows_matching(fam)
            whole = len(items) == len(family_rows) == len(self.expected.rows_matching(fam))
            if value is not None and whole and not fam.startswith(RETARGETABLE_PREFIX):
                out.append(
                    (
                        Action(ActionName.UPDATE_RHS, fam, value),
                        f"{fam}: right-hand side differs from the statement",
                    )
                )
            else:
                for (row, _w), v in zip(items, wants, strict=True):
                    out.append((Action(ActionName.UPDATE_RHS, row, v), f"{row}: right-hand side differs"))
        return out

    def _from_elastic(self, model: LPModel) -> list[tuple[Action, str]]:
        """Relax or drop the unprotected families an elastic LP says carry the conflict."""
        result = elastic_repair(model, lambda name: not (self.protected and is_protected(name)))
        if not result.feasible:
            return []
        worst: dict[str, float] = defaultdict(float)
        for v in result.violations:
            worst[family_of(v.row)] = max(worst[family_of(v.row)], v.amount)
        out: list[tuple[Action, str]] = []
        for fam, amount in sorted(worst.items(), key=lambda kv: -kv[1]):
            sample = model.rows_matching(fam)[0]
            lo, hi = model.row_bounds(sample)
            if lo == hi or fam.startswith("demand_prop"):
                out.append(
                    (
                        Action(ActionName.DROP_CONSTRAINT, fam),
                        f"elastic LP: {fam} cannot hold (violation {amount:.4g})",
                    )
                )
            else:
                step = math.ceil(amount * 1.01 + 1e-6)
                out.append(
                    (
                        Action(ActionName.RELAX_CONSTRAINT, fam, float(step)),
                        f"elastic LP: relax {fam} by {step}",
                    )
                )
        return out
