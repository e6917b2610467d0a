"""The evaluation conversation as an environment for the shared rollout loop (the agent under test is the
optimization agent; the environment holds the decision agent and its hidden utility). Registered as
`orca/SchoolSchedulingLab-v0` (core/catalog.py): by default the first shipped utility, precise style, rich
feedback, offline decision agent, conversation paradigm.

Spec sheet:
- decision agents: offline stand-ins (default) or LLM decision agents (`DecisionAgentSpec`, with settings
  that hold a key); the template follows the paradigm and the optimization agent's design (`design`). A
  caller with its own decision agent (a test's impatient stand-in, a scripted LLM one) passes
  `decision_agent(seed) -> agent` instead.
- reset(seed): a fresh decision agent; observation {"turn": 0, "message": ""} asks the optimizer to open.
- action: {"text": the optimization agent's message, "solver_calls": its cumulative solver calls}.
- step: the decision agent reads the message, checks every schedule in it with check_utility, and answers.
  Observation {"turn": k, "message": the decision agent's words}. The utility checks go in `info`, never in
  the observation (hidden state stays with the environment).
- paradigm: `conversation` ends on U* reached, __END__ or the turn limit; `one_shot` / `aware_one_shot` end
  after the optimizer's single answer; `default` ends after the opening proposal.
- reward: 0 on every step except the last, which pays pi_d = U_d(best seen) / U_d*.
- episode_metrics(): score, success, turns, solver_calls, utility, u_star, stop (as a code).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from core.config import Settings
from core.errors import SpecError
from core.llm.types import Usage
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import DecisionProfile, StopReason
from core.schedule.lab.llm_decision import DecisionAgentSpec, LLMDecisionAgent, make_decision_agent
from solvers.retail.env import JSONObject
from solvers.schedule.data import District, format_time, sfusd_district

STOP_CODES = {StopReason.SATISFIED: 0.0, StopReason.ENDED: 1.0, StopReason.TURN_LIMIT: 2.0}


class ConversationEnv(gym.Env):
    """One decision agent facing an optimization agent (`orca/SchoolSchedulingLab-v0`). The agent under test
    writes messages (`{"text": ..., "solver_calls": n}`); the decision agent, holding a hidden utility over the
    district's start-time schedules, checks every schedule in each message and answers. Observation: a JSON
    object `{"turn", "message"}` (plus `error` for a malformed action). Reward: 0 until the end, then the best
    utility seen over the maximum U*. The decision agent is `profile`, or the one named by `utility` (a shipped
    utility key; default the first), `style` and `feedback`. See the module docstring for the paradigms."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        profile: DecisionProfile | None = None,
        *,
        utility: str | None = None,
        style: str = "precise",
        feedback: str = "rich",
        paradigm: Paradigm | str = Paradigm.CONVERSATION,
        district: District | None = None,
        max_turns: int = 20,
        decision: DecisionAgentSpec | None = None,
        settings: Settings | None = None,
        design: str | None = None,
        decision_agent: Callable[[int], Any] | None = None,
    ) -> None:
        if profile is None:
            from core.schedule.lab.decision_agents import Feedback, Style
            from core.schedule.lab.utilities import load_utilities, utility_by_key

            chosen = utility_by_key(utility) if utility else load_utilities()[0]
            profile = DecisionProfile(chosen, Style(style), Feedback(feedback))
        self.profile = profile
        self.observation_space = JSONObject()
        self.action_space = JSONObject()
        self.paradigm = Paradigm(paradigm)
        self.district = district or sfusd_district()
        self.max_turns = max_turns
        self.decision_spec = decision or DecisionAgentSpec()
        self.settings = settings
        self.design = design
        self.decision_agent = decision_agent
        self.decision: Any = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        if options and "paradigm" in options:
            self.paradigm = Paradigm(options["paradigm"])
        if self.decision_agent is not None:
            self.decision = self.decision_agent(seed or 0)
        else:
            self.decision = self._make_decision(seed or 0)
        self.steps = 0
        self.solver_calls = 0
        self.stop: StopReason | None = None
        return {"turn": 0, "message": ""}, {"decision_agent": self.decision.label}

    def _make_decision(self, seed: int) -> Any:
        return make_decision_agent(
            self.profile,
            self.decision_spec,
            self.settings,
            paradigm=self.paradigm.value,
            design=self.design,
            district=self.district,
            max_turns=self.max_turns,
            seed=seed,
        )

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self.decision is None:
            raise SpecError("env", "call reset() before step()")
        if not isinstance(action, dict) or not isinstance(action.get("text"), str):
            return (
                {"turn": self.decision.turns, "message": "", "error": 'action must be {"text": str}'},
                0.0,
                False,
                False,
                {},
            )
        self.solver_calls = int(action.get("solver_calls", self.solver_calls) or 0)
        self.steps += 1
        text = action["text"]
        decision = self.decision
        if self.paradigm is Paradigm.DEFAULT:
            _, checks = decision.see(text)
            return self._finish(StopReason.ENDED, "", checks)
        if self.paradigm is not Paradigm.CONVERSATION and self.steps > 1:
            _, checks = decision.see(text)
            return self._finish(StopReason.ENDED, "", checks)
        one_shot = self.paradigm is not Paradigm.CONVERSATION
        turn = decision.respond(text, one_shot=one_shot, aware=self.paradigm is Paradigm.AWARE_ONE_SHOT)
        if turn.stop is not None:
            return self._finish(turn.stop, turn.text, turn.checks)
        return {"turn": decision.turns, "message": turn.text}, 0.0, False, False, {"checks": turn.checks}

    def _finish(self, stop: StopReason, text: str, checks: list) -> tuple[dict, float, bool, bool, dict]:
        self.stop = stop
        obs = {"turn": self.decision.turns if self.decision else 0, "message": text}
        return obs, self.score, True, False, {"checks": checks, "stop": stop.value}

    @property
    def best_value(self) -> float:
        return max(self.decision.best_value, 0.0) if self.decision else 0.0

    @property
    def score(self) -> float:
        return self.best_value / self.profile.utility.u_star

    def episode_metrics(self) -> dict[str, float]:
        u_star = self.profile.utility.u_star
        return {
            "score": self.score,
            "success": float(self.best_value >= u_star - 1e-9),
            "turns": float(self.decision.turns if self.decision else 0),
            "solver_calls": float(self.solver_calls),
            "utility": self.best_value,
            "u_star": u_star,
            "stop": STOP_CODES.get(self.stop, 1.0) if self.stop else 1.0,
            "llm_decision_agent": float(isinstance(self.decision, LLMDecisionAgent)),
            # the decision agent is the environment's role: its tokens are not in the optimizer's step tokens
            "decision_input_tokens": float(getattr(self.decision, "usage", Usage()).input_tokens),
            "decision_output_tokens": float(getattr(self.decision, "usage", Usage()).output_tokens),
        }


_PHRASES = (
    "Could you tell me which schools matter most to you?",
    "What would an ideal morning look like for your school?",
    "Here is another option; does it work better?",
    "",
)


def sample_actions(env: ConversationEnv, rng: np.random.Generator, n: int) -> list[dict[str, Any]]:
    """A plausible optimization agent for contract and replay tests: questions and full schedules (one line per
    school with a start time the district offers), in a random order."""
    district = env.district
    labels = [format_time(t) for t in district.start_times]
    actions: list[dict[str, Any]] = []
    for i in range(n):
        if rng.random() < 0.5:
            lines = [f"- {name}: {labels[int(rng.integers(len(labels)))]}" for name in district.names]
            text = "Proposed schedule:\n" + "\n".join(lines)
        else:
            text = _PHRASES[int(rng.integers(len(_PHRASES)))]
        actions.append({"text": text, "solver_calls": i})
    return actions


class OptimizerAgent:
    """Adapts an optimization agent (opening/respond) to the rollout's Agent protocol."""

    def __init__(self, factory: Any, name: str) -> None:
        self.factory = factory
        self.name = name
        self.optimizer: Any = None

    def reset(self, seed: int | None) -> None:
        self.optimizer = self.factory()

    @property
    def usage(self) -> Usage:
        """The optimization agent's tokens so far (an offline one has none), read by the rollout per step."""
        return getattr(self.optimizer, "usage", None) or Usage()

    def act(self, observation: dict) -> dict:
        if observation.get("turn", 0) == 0 and not observation.get("message"):
            text = self.optimizer.opening()
        else:
            text = self.optimizer.respond(observation.get("message", ""))
        return {"text": text, "solver_calls": self.optimizer.solver_calls}
