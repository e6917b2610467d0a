"""The School Scheduling lab's dry-run estimate for cells with an LLM optimization agent (T-P-P, T-P-P-paper,
C-P-P, C-P-R, C-N-R), facing offline or LLM decision agents, under every paradigm.

The estimate builds the requests the cell would send: the optimization agent's real system prompt, tool schemas
and opening (made once per design by the real agent over a `DryRunModel`), and the cell's real decision agent
(the offline stand-in, deterministic, or an `LLMDecisionAgent` over a `DryRunModel`), stepped through the
lab's environment (`ConversationEnv`) as the rollout steps it. Assumed behaviour: every model reply is
`DEFAULT_OUTPUT_TOKENS` long, calls no tool and says nothing either side can act on (`OPTIMIZER_REPLY`,
`DECISION_REPLY`: no schedule, no __END__), so each optimization-agent turn and each decision-agent turn is one
request; the conversation then ends as the protocol makes it end (the turn limit, or an offline decision agent
that runs out of patience). The calls are exact for that behaviour; `upper_bound` is the protocol's bound
whatever the models do: every tool loop to its step limit, a conversation to its turn limit.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any

from core.config import Settings
from core.experiments.costs import DEFAULT_OUTPUT_TOKENS, CallEstimate, DryRunModel, assumed_reply
from core.llm import Message, Toolbox, run_tools
from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import DecisionProfile, Feedback, Style
from core.schedule.lab.env import ConversationEnv, OptimizerAgent
from core.schedule.lab.llm_decision import DecisionAgentSpec, LLMDecisionAgent
from core.schedule.lab.optimization_agents import OptimizerSpec, TPPAgent
from core.schedule.lab.utilities import utility_by_key

DECISION_STEPS = int(inspect.signature(LLMDecisionAgent).parameters["max_steps"].default)
"""The LLM decision agent's tool-loop limit per turn (its check_utility calls)."""
OPTIMIZER_REPLY = assumed_reply("Thank you, let me think about how to weigh that against the other schools.")
DECISION_REPLY = assumed_reply("Hmm, I am not sure about that.")
ASSUMPTION = (
    f"every reply {DEFAULT_OUTPUT_TOKENS} tokens with no tool call, no schedule and no __END__ (one request per turn); "
    "upper bound: every tool loop to its step limit and the conversation to its turn limit"
)


@dataclass(frozen=True)
class Opening:
    """What a design's real agent holds after its opening, over a `DryRunModel`: its system prompt, toolbox
    (its schemas are sent; nothing calls it), history, opening text, the requests the opening made (calls, input tokens) and its tool-loop
    step limit."""

    system: str
    toolbox: Toolbox
    messages: tuple[Message, ...]
    text: str
    calls: int
    input_tokens: int
    max_steps: int


@functools.lru_cache(maxsize=8)
def opening(design: str) -> Opening:
    """The opening of `design`'s real LLM agent (T-P-P solves the base model offline; C-P-P and C-P-R ask the
    model once; C-N-R greets without a request), cached: it does not depend on the cell."""
    model = DryRunModel(OPTIMIZER_REPLY)
    settings = Settings(provider="openai", model="dry-run", api_key="dry-run")  # never used: the model is swapped
    agent = OptimizerSpec(design=design, kind="llm").factory(settings)()
    inner = agent.agent if isinstance(agent, TPPAgent) else agent
    inner.model = model
    text = agent.opening()
    toolbox = inner.toolbox if isinstance(agent, TPPAgent) else Toolbox([agent.execute_code])
    return Opening(
        inner.system, toolbox, tuple(inner.messages), text, model.calls, model.input_tokens, int(inner.max_steps)
    )


class StandInOptimizer:
    """An LLM optimization agent after its (cached) opening: each turn sends its system prompt, tools and history
    plus the decision agent's message through the same tool loop as the real agent (`run_tools` over a
    `DryRunModel`), so with a reply that calls no tool it sends exactly what the real agent would."""

    def __init__(self, start: Opening, model: DryRunModel) -> None:
        self.start = start
        self.model = model
        self.messages = list(start.messages)
        self.solver_calls = 0
        self.name = "dry-run"

    def opening(self) -> str:
        self.model.calls += self.start.calls
        self.model.input_tokens += self.start.input_tokens
        return self.start.text

    def respond(self, text: str) -> str:
        self.messages.append(Message("user", text))
        loop = run_tools(self.model, self.start.system, self.messages, self.start.toolbox, self.start.max_steps)
        self.messages.extend(loop.messages)
        return loop.text


@functools.lru_cache(maxsize=4)
def offline_messages(count: int) -> tuple[str, ...]:
    """What the offline T-P-P says in a cell whose decision agent answers `DECISION_REPLY`: its opening and its
    answers to `count - 1` such replies (it is deterministic, so once per process)."""
    agent = TPPAgent.offline()
    said = [agent.opening()]
    while len(said) < count:
        said.append(agent.respond(DECISION_REPLY))
    return tuple(said)


class OfflineReplay:
    """The offline T-P-P of a cell with LLM decision agents, replayed from `offline_messages`."""

    def __init__(self, said: tuple[str, ...]) -> None:
        self.said = said
        self.turn = 0
        self.solver_calls = 0
        self.name = "T-P-P (offline)"

    def opening(self) -> str:
        self.turn = 1
        return self.said[0]

    def respond(self, text: str) -> str:
        self.turn += 1
        return self.said[self.turn - 1]


def estimate_cell(
    agent_spec: dict[str, Any],
    config: dict[str, Any],
    max_steps: int | None,
    decision_llm: bool,
    *,
    optimizer_llm: bool = True,
) -> CallEstimate:
    """The estimate of one cell with an LLM optimization agent (see the module docstring), or with the offline
    T-P-P facing LLM decision agents (`optimizer_llm=False`: its real answers to `DECISION_REPLY`). Each role's
    part is its own (`CallEstimate.roles`, priced at that role's model): the LLM optimization agent's the role
    `optimizer`, the decision agents' the role `decision` when they are LLMs."""
    spec = OptimizerSpec.from_agent_spec({**agent_spec, "kind": "llm"})
    paradigm = Paradigm(agent_spec.get("paradigm", "conversation"))
    profile = DecisionProfile(
        utility_by_key(config["utility"]), Style(config["style"]), Feedback(config["feedback"])
    )
    turns = int(config.get("max_turns", 20))
    start = opening(spec.design) if optimizer_llm else None
    optimizer_model, decision_model = DryRunModel(OPTIMIZER_REPLY), DryRunModel(DECISION_REPLY)
    env = ConversationEnv(profile, paradigm=paradigm, max_turns=turns, design=spec.design.upper())
    observation, _ = env.reset(seed=0)
    decision_steps = 0
    if decision_llm:
        template = DecisionAgentSpec.from_config(config.get("decision")).template_for(
            paradigm.value, spec.design.upper()
        )
        env.decision = LLMDecisionAgent(
            profile, decision_model, template=template, district=env.district, max_turns=turns
        )
        decision_steps = env.decision.max_steps
    said = turns + 1 if paradigm is Paradigm.CONVERSATION else 2  # the opening and an answer to each turn
    stand_in: Any = StandInOptimizer(start, optimizer_model) if start is not None else OfflineReplay(offline_messages(said))
    agent = OptimizerAgent(lambda: stand_in, stand_in.name)
    agent.reset(0)
    actions = 0
    while max_steps is None or actions < max_steps:
        observation, _, terminated, truncated, _ = env.step(agent.act(observation))
        actions += 1
        if terminated or truncated:
            break
    calls = optimizer_model.calls + decision_model.calls
    sent = optimizer_model.input_tokens + decision_model.input_tokens
    roles = {"optimizer": (optimizer_model.calls, optimizer_model.input_tokens)} if optimizer_llm else {}
    if decision_llm:
        roles["decision"] = (decision_model.calls, decision_model.input_tokens)
    return CallEstimate(
        calls, sent, DEFAULT_OUTPUT_TOKENS, roles, upper_bound(start, paradigm, turns, max_steps, decision_steps),
        ASSUMPTION,
    )


def upper_bound(
    start: Opening | None, paradigm: Paradigm, turns: int, max_steps: int | None, decision_steps: int
) -> int:
    """The most requests a cell can make: the optimization agent's opening and each of its turns (`start` None:
    the offline T-P-P, none), and each decision-agent turn (`decision_steps` > 0: LLM decision agents), every
    tool loop to its step limit; a conversation to its turn limit (and the rollout's `max_steps` actions)."""
    opening_loops = 1 if start is not None and start.calls else 0
    if paradigm is Paradigm.DEFAULT:
        optimizer_turns, decision_loops = 0, 1
    elif paradigm is Paradigm.CONVERSATION:
        optimizer_turns, decision_loops = turns, turns
        if max_steps is not None:
            optimizer_turns, decision_loops = min(turns, max_steps - 1), min(turns, max_steps)
    else:  # one-shot: the decision agent's message, the answer, the decision agent's check of it
        optimizer_turns, decision_loops = 1, 2
    optimizer_steps = start.max_steps if start is not None else 0
    return (opening_loops + max(0, optimizer_turns)) * optimizer_steps + (decision_loops * decision_steps)
