"""`LPRepairEnv`: OptiRepair's closed-loop repair MDP (§3.3) as a gymnasium text environment.

Spec sheet
----------
Start state: `reset(seed, options)` picks a problem (`options["problem"]`: a `Problem`, its dict, or its id;
`options["index"]`; otherwise drawn with `self.np_random` from the env's problem list), builds the sabotaged
LP, solves it and, when infeasible, computes the IIS. ME-5 problems start OPTIMAL and go straight to
Phase II (the oracle runs at reset).

Actions: a tool call `{"name": NAME, "arguments": {"target", "value", "value2", "var", "lag"}}` (an
`Action.to_dict()`), NAME one of GET_IIS, CHECK_SLACK, RELAX_CONSTRAINT, DROP_CONSTRAINT, UPDATE_RHS,
UPDATE_OBJ, UPDATE_BOUNDS, SUBMIT, RESET, and UPDATE_COEF when the extended action set is switched on.
Targets may be prefixes (see `solvers.lp.actions`). Anything else — an unknown name, missing arguments,
an unknown target, a protected row, or `{"name": "PARSE_ERROR", "arguments": {"error": ...}}` sent by an
agent whose reply could not be parsed — is an invalid action: it costs a step, changes nothing, and the
next observation says what was wrong.

Event order per step: apply the action -> re-solve (warm) -> if INFEASIBLE recompute the IIS; if OPTIMAL
and the model changed (or at reset) run the oracle. Phase I ends as soon as the model is OPTIMAL (no SUBMIT
needed). Phase II: if an applicable check fails, its feedback is shown and the agent acts again (one
feedback loop); at most `max_loops` (3) loops: a failing verdict after that ends the episode. A repair that
makes the model infeasible during Phase II ends it (the paper's "a repair breaks feasibility").
SUBMIT ends the episode as it stands; RESET restores the sabotaged model (loops are kept). Phase I and
Phase II share one step counter: after `max_steps` (20) actions the episode is truncated.

Observation (text, ASCII): the problem description (first observation only), `## Current State`
(status, step, objective), the last action's result, `## IIS` (constraints and bounds), `## Model
Structure` (counts and constraint families), recent actions, in Phase II `## Rationality Feedback` and
`## Closed-Loop Status`, and with `show_model` the model in CPLEX-LP text at reset (the "code" part of
the paper's state).

Reward (eq. 5): 0 on every step but the last; at the end +150 if OPTIMAL and every applicable check
passes, +75 if OPTIMAL but irrational, -50 otherwise.

Switches, reported in `info["switches"]`: `protected` (default True: inventory-balance rows and the
tightening rows `backorder_cap_*`, `supply_cap_*` cannot be dropped, relaxed or have their RHS changed, except
UPDATE_RHS on one exactly named `inv_balance` row)
and `extended` (default False = paper-faithful; True adds UPDATE_COEF). `oracle_mode` "typed" applies
Table 8 by error type (privileged, the paper's protocol), "all" applies every check (deployable). `track`
(issue 28): `standard` shows the problem statement with the first observation (the paper's setting),
`model-only` withholds it (the agent has the LP text and the tools only); `real` is not this environment
(Netlib's models: `solvers.lp.real.RealRepairEnv`). `feedback_judge` (issue 28): `paper` (default, the paper's
protocol) runs Phase II's feedback loops and the reward on Table 8's checks; `strict` on the strict judge (those
checks plus the demand link and the plan replay), so a plan the strict judge refuses gets its one-sentence
reason as feedback and another loop. The episode metrics report both judges either way.
"""

from __future__ import annotations

import functools
import hashlib
import string
from collections import Counter
from enum import StrEnum
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from core.errors import SpecError
from solvers.lp.actions import Action, ActionName, apply_action, is_protected
from solvers.lp.dataset import Problem, generate
from solvers.lp.diff import diff_models
from solvers.lp.edits import apply_edits
from solvers.lp.errortypes import ErrorType
from solvers.lp.model import IIS, LPModel, LPStatus, family_of
from solvers.lp.oracle import Judge, OracleReport, evaluate, strict_refusal

REWARD_RATIONAL = 150.0
REWARD_IRRATIONAL = 75.0
REWARD_FAILED = -50.0
MAX_TEXT = 400_000
CHARSET = frozenset(string.printable)
MODEL_HEADER = "## Model (LP format)"


class Track(StrEnum):
    """What the agent is shown: the paper's statement + model, or the model alone (Phase I "applies to any LP");
    `real` is Netlib's infeasible models (`solvers.lp.real.RealRepairEnv`, no statement, no ground truth)."""

    STANDARD = "standard"
    MODEL_ONLY = "model-only"
    REAL = "real"


@functools.lru_cache(maxsize=4)
def default_problems(seed: int = 2, per_type: int = 1) -> tuple[Problem, ...]:
    """A small built-in set (`per_type` test problems per error type) for the registry's default instance."""
    problems, _ = generate(seed=seed, counts={e: (0, per_type) for e in ErrorType})
    return tuple(problems)


def ascii_text(text: str) -> str:
    """`text` with every character outside the observation's charset replaced by `?`."""
    return "".join(ch if ch in CHARSET else "?" for ch in text)


class LPEnvBase(gym.Env):
    """What both LP repair environments share: the model as it stands and the recorder's compact observation."""

    model: LPModel | None
    done: bool
    history: list[tuple[str, bool, str]]
    _last: tuple[str, bool, str] | None
    refused_by_name: ClassVar[bool] = False
    """Label every refused action by its name alone (the real track's history lines; stored runs replay them)."""

    def __init__(self) -> None:
        self.observation_space = spaces.Text(max_length=MAX_TEXT, min_length=0, charset=CHARSET)
        self.action_space = spaces.Text(max_length=2000, min_length=0, charset=CHARSET)
        self.model = None

    def _coerce(self, action: Any) -> Action:
        return Action.from_dict(action) if not isinstance(action, Action) else action

    def _apply(self, act: Action) -> tuple[bool, str]:
        raise NotImplementedError

    def _evaluate(self, *, changed: bool) -> None:
        raise NotImplementedError

    def _play(self, action: Any) -> str | None:
        """Apply one action and add its line to the history; the error when it was refused, else None."""
        error = None
        changed = False
        label = "?"
        try:
            act = self._coerce(action)
            label = act.signature()
            changed, message = self._apply(act)
            ok = True
        except SpecError as err:
            ok, message, error = False, str(err), str(err)
            named = isinstance(action, dict) and isinstance(action.get("name"), str)
            if named and (label == "?" or self.refused_by_name):
                label = str(action["name"])[:60]
        self._last = (label, ok, ascii_text(message))
        self.history.append(self._last)
        if not self.done:
            self._evaluate(changed=changed)
        return error

    def _last_action_lines(self) -> list[str]:
        """The observation's "Last Action" section (none before the first action)."""
        if self._last is None:
            return []
        label, ok, message = self._last
        return ["", "## Last Action", f"- {label}: {'ok' if ok else 'ERROR'} - {message}"]

    def compact_observation(self, obs: str) -> dict[str, Any]:
        """What the recorder keeps per step: the observation without the model text, plus its hash."""
        return compact_observation(obs)

    def current_model(self) -> LPModel:
        """The model as it stands (for viewers and downloads; agents get the text observation)."""
        assert self.model is not None
        return self.model


class LPRepairEnv(LPEnvBase):
    __doc__ = __doc__

    metadata = {"render_modes": []}

    def __init__(
        self,
        problems: list[Problem] | list[dict] | None = None,
        *,
        max_steps: int = 20,
        max_loops: int = 3,
        protected: bool = True,
        extended: bool = False,
        oracle_mode: str = "typed",
        show_model: bool = True,
        track: Track = Track.STANDARD,
        feedback_judge: Judge = Judge.PAPER,
    ) -> None:
        if max_steps < 1:
            raise SpecError("max_steps", "must be >= 1")
        if max_loops < 0:
            raise SpecError("max_loops", "must be >= 0")
        if oracle_mode not in ("typed", "all"):
            raise SpecError("oracle_mode", "use 'typed' (Table 8 by error type) or 'all' (every check)")
        loaded = [p if isinstance(p, Problem) else Problem.from_dict(p) for p in (problems or [])]
        self.problems: list[Problem] = loaded or list(default_problems())
        self._by_id = {p.id: p for p in self.problems}
        self.max_steps = max_steps
        self.max_loops = max_loops
        self.protected = protected
        self.extended = extended
        self.oracle_mode = oracle_mode
        self.show_model = show_model
        self.track = Track(track)
        if self.track is Track.REAL:
            raise SpecError("track", "the real track runs Netlib's models in solvers.lp.real.RealRepairEnv")
        try:
            self.feedback_judge = Judge(feedback_judge)
        except ValueError:
            raise SpecError("feedback_judge", f"use paper or strict; got {feedback_judge!r}") from None
        super().__init__()
        self.problem: Problem | None = None

    # --- gymnasium API ---

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[str, dict]:
        super().reset(seed=seed)
        options = options or {}
        self.problem = self._choose(options)
        self.model = self.problem.build()
        self.t = 0
        self.loops = 0
        self.phase = "DEBUG"
        self.done = False
        self.history: list[tuple[str, bool, str]] = []
        self.targets: set[str] = set()
        self.first_optimal_step: int | None = None
        self.report: OracleReport | None = None
        self.refusal: str | None = None
        self.final_reward: float | None = None
        self.end_reason = ""
        self._iis: IIS | None = None
        self._last: tuple[str, bool, str] | None = None
        self._evaluate(changed=True)
        self.iis0 = self._iis.row_names if self._iis else ()
        return self._observation(first=True), self._info()

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if self.model is None or self.problem is None:
            raise SpecError("env", "call reset() before step()")
        if self.done:
            return (
                self._observation(),
                0.0,
                True,
                False,
                self._info(error="the episode has ended; call reset()"),
            )
        self.t += 1
        error = self._play(action)
        if not self.done and self.t >= self.max_steps:
            self._finish("step budget used up", truncate=True)
        reward = self.final_reward if self.done else 0.0
        truncated = self.done and self.end_reason == "step budget used up"
        terminated = self.done and not truncated
        return self._observation(), float(reward or 0.0), terminated, truncated, self._info(error=error)

    # --- problem choice and actions ---

    def _choose(self, options: dict) -> Problem:
        chosen = options.get("problem")
        if isinstance(chosen, Problem):
            return chosen
        if isinstance(chosen, dict):
            return Problem.from_dict(chosen)
        if isinstance(chosen, str):
            if chosen not in self._by_id:
                raise SpecError("problem", f"no problem with id {chosen!r} in this environment")
            return self._by_id[chosen]
        if "index" in options:
            k = int(options["index"])
            if not 0 <= k < len(self.problems):
                raise SpecError("index", f"must be in 0..{len(self.problems) - 1}")
            return self.problems[k]
        return self.problems[int(self.np_random.integers(len(self.problems)))]

    def _coerce(self, action: Any) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            import json

            try:
                action = json.loads(action)
            except json.JSONDecodeError:
                raise SpecError(
                    "action", "send a tool call {'name': NAME, 'arguments': {...}}, not free text"
                ) from None
        if isinstance(action, dict) and str(action.get("name", "")).upper() == "PARSE_ERROR":
            detail = (action.get("arguments") or {}).get("error", "the reply could not be parsed")
            raise SpecError("reply", f"could not read an action from the reply: {detail}")
        return Action.from_dict(action)

    def _apply(self, act: Action) -> tuple[bool, str]:
        assert self.model is not None and self.problem is not None
        name = act.name
        if name is ActionName.GET_IIS:
            if self.model.solve().status is not LPStatus.INFEASIBLE:
                return False, "the model is not infeasible; there is no IIS"
            self._iis = self.model.iis()
            return False, f"IIS has {len(self._iis.rows)} constraints and {len(self._iis.bounds)} bounds"
        if name is ActionName.CHECK_SLACK:
            rows = self.model.rows_matching(str(act.target))
            if not rows:
                raise SpecError("target", f"no constraint named {act.target!r} or starting with it")
            iis_rows = set(self._iis.row_names) if self._iis else set()
            parts = []
            for r in rows[:12]:
                s = self.model.slack(r)
                rhs = s.upper if s.sense == "<=" else s.lower
                slack = "n/a (not optimal)" if s.slack is None else f"{s.slack:g}"
                parts.append(
                    f"{r}: sense {s.sense}, rhs {rhs:g}, slack {slack}, in IIS: {'yes' if r in iis_rows else 'no'}"
                    + (", protected" if self.protected and is_protected(r) else "")
                )
            more = f" (+{len(rows) - 12} more)" if len(rows) > 12 else ""
            return False, "; ".join(parts) + more
        if name is ActionName.SUBMIT:
            self._finish("submitted")
            return False, "submitted"
        if name is ActionName.RESET:
            self.model = self.problem.build()
            self._iis = None
            self.phase = "DEBUG"
            return True, "restored the model as it was handed over"
        outcome = apply_action(self.model, act, protected=self.protected, extended=self.extended)
        if (
            name in (ActionName.RELAX_CONSTRAINT, ActionName.DROP_CONSTRAINT, ActionName.UPDATE_RHS)
            or name is ActionName.UPDATE_COEF
        ):
            self.targets.update(outcome.rows)
        return outcome.changed, outcome.message

    # --- the closed loop ---

    def _oracle(self) -> OracleReport | None:
        assert self.model is not None and self.problem is not None
        etype = self.problem.error_type if self.oracle_mode == "typed" else None
        return evaluate(self.model, self.problem.supply_chain, error_type=etype)

    def _evaluate(self, *, changed: bool) -> None:
        assert self.model is not None
        status = self.model.solve().status
        if status is LPStatus.INFEASIBLE:
            if changed or self._iis is None:
                self._iis = self.model.iis()
            if self.phase == "VALIDATE":
                self._finish("a repair made the model infeasible again during Phase II")
            return
        self._iis = None
        if status is not LPStatus.OPTIMAL:
            if self.phase == "VALIDATE":
                self._finish(f"a repair left the model {status.value} during Phase II")
            return
        if self.first_optimal_step is None:
            self.first_optimal_step = self.t
        if not changed and self.report is not None:
            return
        self.report = self._oracle()
        self.refusal = self._strict_refusal()
        if self._passes():
            self._finish("OPTIMAL and every applicable rationality check passes")
            return
        if self.loops >= self.max_loops:
            self._finish("the rationality checks still fail after the last feedback loop")
            return
        self.loops += 1
        self.phase = "VALIDATE"

    def _strict_refusal(self) -> str | None:
        """The strict judge's own reason to refuse the plan (only asked when it runs the feedback loop)."""
        if self.feedback_judge is not Judge.STRICT or self.report is None or not self.report.passed:
            return None
        assert self.model is not None and self.problem is not None
        return strict_refusal(self.model, self.problem.supply_chain, self.problem.limits)

    def _passes(self) -> bool:
        """The verdict the feedback loop and the reward follow (`feedback_judge`)."""
        return self.report is not None and self.report.passed and self.refusal is None

    def _finish(self, reason: str, *, truncate: bool = False) -> None:
        assert self.model is not None
        self.done = True
        self.end_reason = reason
        status = self.model.solve().status
        if status is LPStatus.OPTIMAL:
            if self.report is None:
                self.report = self._oracle()
                self.refusal = self._strict_refusal()
            rational = self._passes()
            self.final_reward = REWARD_RATIONAL if rational else REWARD_IRRATIONAL
        else:
            self.final_reward = REWARD_FAILED

    # --- observation, info, metrics ---

    def _status(self) -> LPStatus:
        assert self.model is not None
        return self.model.solve().status

    def _observation(self, *, first: bool = False) -> str:
        assert self.model is not None and self.problem is not None
        status = self._status()
        lines: list[str] = []
        if first and self.track is Track.STANDARD:
            lines += ["## Problem", self.problem.description, ""]
        lines += [
            "## Current State",
            f"- Solver Status: {status.value}",
            f"- Step: {self.t} / {self.max_steps}",
        ]
        if status is LPStatus.OPTIMAL:
            lines.append(f"- Objective Value: {self.model.solve().objective:.2f}")
        lines += self._last_action_lines()
        if self._iis is not None and not self._iis.empty:
            lines += iis_lines(list(self._iis.row_names), [m.label() for m in self._iis.bounds])
        families = Counter(family_of(n) for n in self.model.row_names)
        fam_text = ", ".join(f"{f} ({k})" for f, k in families.items())
        lines += [
            "",
            "## Model Structure",
            f"- Total Constraints: {self.model.num_rows}",
            f"- Total Variables: {self.model.num_cols}",
            f"- Constraint Families: {fam_text}",
        ]
        if self.protected:
            lines.append(
                "- Protected (cannot be dropped, relaxed or re-set): inv_balance_*, backorder_cap_*, supply_cap_*;"
                " UPDATE_RHS on one inv_balance row named exactly may re-set its target"
            )
        if self.history:
            lines += ["", "## Recent Actions"]
            start = max(0, len(self.history) - 5)
            for k, (label, ok, _msg) in enumerate(self.history[start:], start=start + 1):
                lines.append(f"- {k}. {label}: {'ok' if ok else 'error'}")
        if self.report is not None and (self.phase == "VALIDATE" or self.done):
            feedback = self.report.feedback()
            if self.refusal is not None:
                feedback = f"- Strict judge refuses the plan: {self.refusal}"
            lines += ["", "## Rationality Feedback (from Phase 2 Oracle)", feedback]
            lines += [
                "",
                "## Closed-Loop Status",
                f"- Phase: {'VALIDATE -> DEBUG (loop-back)' if not self.done and self.phase == 'VALIDATE' else self.phase}",
                f"- Debug-Validate Loop: {self.loops} / {self.max_loops}",
            ]
        if self.done:
            lines += ["", f"## Episode complete: {self.end_reason} (reward {self.final_reward:+g})"]
        else:
            lines += ["", "What action should be taken next?"]
        if first and self.show_model:
            lines += ["", MODEL_HEADER, self.model.to_text("lp")]
        return ascii_text("\n".join(lines))

    def _info(self, error: str | None = None) -> dict[str, Any]:
        assert self.model is not None and self.problem is not None
        result = self.model.solve()
        return {
            "problem_id": self.problem.id,
            "error_type": self.problem.error_type.value,
            "status": result.status.value,
            "objective": result.objective,
            "step": self.t,
            "phase": self.phase,
            "loops": self.loops,
            "iis": list(self._iis.row_names) if self._iis else [],
            "error": error,
            "oracle": self.report.to_dict() if self.report is not None else None,
            "done": self.done,
            "switches": self.switches(),
        }

    def switches(self) -> dict[str, Any]:
        return {
            "protected_rows": self.protected,
            "extended_actions": self.extended,
            "oracle_mode": self.oracle_mode,
            "track": self.track.value,
            "feedback_judge": self.feedback_judge.value,
        }

    def episode_metrics(self) -> dict[str, Any]:
        """RR/RRR ingredients of this episode (final state), steps, loops, reward and diagnosis P/R."""
        assert self.model is not None and self.problem is not None
        recovered = self._status() is LPStatus.OPTIMAL
        report = self.report if recovered else None
        if recovered and report is None:
            report = self._oracle()
        rational = bool(recovered and report is not None and report.passed)
        refusal = (
            strict_refusal(self.model, self.problem.supply_chain, self.problem.limits) if rational else "irrational"
        )
        iis0 = set(self.iis0)
        hits = len(self.targets & iis0)
        fixed = self.problem.build()
        apply_edits(fixed, self.problem.gt_edits)
        exact = recovered and diff_models(fixed, self.model, tol=1e-6).empty
        return {
            "problem_id": self.problem.id,
            "error_type": self.problem.error_type.value,
            "recovered": recovered,
            "rational": rational,
            "rational_strict": bool(rational and refusal is None),
            "steps": self.t,
            "first_optimal_step": self.first_optimal_step if recovered else None,
            "loops": self.loops,
            "reward": self.final_reward
            if self.final_reward is not None
            else (REWARD_RATIONAL if rational else REWARD_IRRATIONAL if recovered else REWARD_FAILED),
            "diagnosis_recall": hits / len(iis0) if iis0 else None,
            "diagnosis_precision": (hits / len(self.targets)) if (iis0 and self.targets) else None,
            "exact_repair": bool(exact),
            "end_reason": self.end_reason,
            **{k: v for k, v in self.switches().items()},
        }



def iis_lines(rows: list[str], bounds: list[str]) -> list[str]:
    """The observation's IIS section: the conflicting constraints' and bounds' names."""
    return [
        "",
        "## IIS (Irreducible Infeasible Subsystem)",
        f"- Conflicting Constraints: {rows}",
        f"- Conflicting Bounds: {bounds}",
    ]


def compact_observation(obs: str) -> dict[str, Any]:
    """An observation without its model text (first 8,000 characters), plus the whole text's sha256: what the
    recorder keeps per step of either LP environment."""
    head = obs.split(MODEL_HEADER)[0].rstrip()
    return {"text": head[:8000], "sha256": hashlib.sha256(obs.encode()).hexdigest()}


def sample_actions(env: LPRepairEnv, rng: np.random.Generator, n: int) -> list[dict]:
    """A plausible mixed action sequence (valid and invalid) for contract and replay tests."""
    pool: list[dict] = [
        Action(ActionName.GET_IIS).to_dict(),
        Action(ActionName.CHECK_SLACK, "inv_balance_e1_t1").to_dict(),
        Action(ActionName.RELAX_CONSTRAINT, "demand_prop_e2", 10.0).to_dict(),
        Action(ActionName.UPDATE_RHS, "capacity_e1", 500.0).to_dict(),
        Action(ActionName.DROP_CONSTRAINT, "min_order").to_dict(),
        Action(ActionName.UPDATE_OBJ, "I_e2", 1.0).to_dict(),
        {"name": "DROP_CONSTRAINT", "arguments": {"target": "inv_balance_e1_t1"}},
        {"name": "NOT_AN_ACTION", "arguments": {}},
        {"name": "PARSE_ERROR", "arguments": {"error": "no Action: line"}},
        {"name": "UPDATE_RHS", "arguments": {"target": "no_such_row", "value": 1}},
    ]
    return [pool[int(rng.integers(len(pool)))] for _ in range(n)]
