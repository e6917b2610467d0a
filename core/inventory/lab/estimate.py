"""The inventory lab's dry-run estimate for Treatment A (the Copilot as an LLM): the requests its extraction
agent and an LLM manager imitator would send, built by the real parts over a `DryRunModel`.

Treatment A's conversation (`CopilotAgent` in `ManagerEnv`) is stepped here with the real Copilot (its
`LLMExtractionAgent` speaking seed 000's Table 8 JSON protocol) and the cell's real manager (the offline
imitator, deterministic, or an `LLMImitator`), each model swapped for a `DryRunModel` before any request.
Assumed behaviour: every extraction reply is a valid Table 8 reply `DEFAULT_OUTPUT_TOKENS` long that asks the
next question and writes nothing (`EXTRACTION_REPLY`), every LLM-manager reply is as long and says nothing
(`MANAGER_REPLY`); so each turn is one extraction request (and one manager request before the next turn), the
table never completes and the conversation runs to the lab's turn limit — the most turns a trial can take —
without the optimizer, the Fig. 4 follow-up or the interpretation agent. `upper_bound`: every extraction round
to its retries, a manager reply each turn, and the two interpretation turns (Fig. 4's question and the
farewell) to their tool-loop limit.
"""

from __future__ import annotations

import json
from typing import Any

from core.config import Settings
from core.experiments.costs import (
    DEFAULT_OUTPUT_TOKENS,
    TOKEN_CHARS,
    CallEstimate,
    DryRunModel,
    assumed_reply,
)
from core.inventory.copilot.dialogue import ASK_NEXT
from core.inventory.copilot.session import Copilot
from core.inventory.lab.config import LabConfig, make_imitator
from core.inventory.lab.generator import Scenario
from core.inventory.lab.imitator import ImitatorNoise, LLMImitator, OfflineImitator

QUESTION = "Could you tell me more about your business, for example how many units you sell on a typical day?"
INTERPRETATION_TURNS = 2
"""After a policy, `ManagerEnv` asks Fig. 4's order question and says goodbye: two interpretation turns."""
INTERPRETATION_STEPS = 6
"""The interpretation agent's tool-loop limit (`InterpretationAgent(max_steps=6)`)."""


def extraction_reply(tokens: int = DEFAULT_OUTPUT_TOKENS) -> str:
    """A valid Table 8 reply of `tokens` tokens (by the estimate's rule) that asks `QUESTION` and writes no
    table cell."""
    data = {"reasoning": "", "updated_table": {}, "action": ASK_NEXT, "next_question": QUESTION}
    room = int(tokens * TOKEN_CHARS) - len(json.dumps(data))
    data["reasoning"] = ("Some items are still undefined, so I ask about the next one. " * 40)[: max(0, room)].strip()
    return json.dumps(data)


EXTRACTION_REPLY = extraction_reply()
MANAGER_REPLY = assumed_reply("Let me think about that for a moment.")
ASSUMPTION = (
    f"every reply {DEFAULT_OUTPUT_TOKENS} tokens: the Copilot asks the next question and writes nothing, so the trial "
    "runs to the turn limit; upper bound: every extraction round to its retries plus the Fig. 4 question and "
    "the farewell to the interpretation loop's limit"
)


def _manager(lab: LabConfig, scenario: Scenario, index: int, role: dict[str, Any] | None, settings: Settings) -> Any:
    """The cell's manager as the protocol's `make_env` chooses it, an LLM one over a `DryRunModel`."""
    if role is not None and role.get("provider") == "offline":
        return OfflineImitator(scenario, ImitatorNoise.scaled(lab.noise), seed=lab.seed * 100_003 + index)
    if role is not None:
        return LLMImitator(scenario, settings)
    return make_imitator(lab, scenario, index, settings)


def estimate_a(agent: dict[str, Any], config: dict[str, Any], lab: LabConfig) -> CallEstimate:
    """The estimate of one Treatment A cell (see the module docstring); an LLM Copilot's requests are the role
    `copilot`, an LLM manager's the role `imitator`, each priced at its own model."""
    scenario = Scenario.from_dict(config["scenario"])
    roles = dict(agent.get("roles") or {})
    copilot_role = roles.get("copilot")
    llm = (copilot_role or {}).get("provider", "offline") != "offline" or (
        copilot_role is None and agent.get("kind") == "llm"
    )
    dummy = Settings(provider="openai", model="dry-run", api_key="dry-run")  # never sent: the models are swapped
    copilot = Copilot(dummy if llm else Settings(), None, lab.copilot(), title=f"dry run {scenario.key}")
    copilot_model, manager_model = DryRunModel(EXTRACTION_REPLY), DryRunModel(MANAGER_REPLY)
    if llm:
        copilot.extraction.model = copilot_model  # type: ignore[attr-defined]
    manager = _manager(lab, scenario, int(config.get("index", 0)), roles.get("imitator"), dummy)
    if isinstance(manager, LLMImitator):
        manager.model = manager_model
    copilot.greeting()
    message = manager.opening()
    turns = 0
    while True:  # the trial's conversation up to the policy (`ManagerEnv`, `CopilotAgent`)
        turns += 1
        turn = copilot.respond(message)
        if copilot.phase != "extract" or turns >= lab.max_turns:
            break
        message = manager.reply(turn.assistant).text
    llm_manager = isinstance(manager, LLMImitator)
    calls = copilot_model.calls + manager_model.calls
    retries = int(getattr(copilot.extraction, "max_retries", 0))
    bound = lab.max_turns * (retries + 1) + INTERPRETATION_TURNS * INTERPRETATION_STEPS if llm else 0
    bound += lab.max_turns - 1 if llm_manager else 0
    roles = {"copilot": (copilot_model.calls, copilot_model.input_tokens)} if llm else {}
    if llm_manager:
        roles["imitator"] = (manager_model.calls, manager_model.input_tokens)
    return CallEstimate(
        calls,
        copilot_model.input_tokens + manager_model.input_tokens,
        DEFAULT_OUTPUT_TOKENS,
        roles,
        max(bound, calls),
        ASSUMPTION,
    )
