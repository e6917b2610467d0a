"""The LLM repair agent: one model request per environment step through the one tool loop (`run_tools`).

The system prompt restates OptiRepair's D.1 prompt in our words. Two reply formats, as in the paper:
"think" (trained-model style: `<think>…</think>` then `Action: NAME(args)`) and "json" (API-model style:
`{"reasoning", "action", "target", "value"}`). A reply that cannot be parsed becomes a PARSE_ERROR action:
it costs a step, changes nothing, and the next observation quotes the problem.

History: the first observation (problem statement and model text) is always kept; after it, the last
`history_turns` exchanges (default 4) — the observation itself repeats the recent actions.
"""

from __future__ import annotations

from core.config import Settings
from core.llm.factory import make_chat_model
from core.llm.runner import run_tools
from core.llm.types import ChatModel, Message, Usage
from core.repair.parsing import ReplyError, parse_error_action, parse_reply

FORMATS = ("think", "json")

_ROLE = """You debug infeasible linear programs of serial multi-echelon supply chains (echelon 1 is the retailer,
echelon N the factory), in two phases.

Phase 1 - restore feasibility: read the conflicting constraints the solver reports (the IIS), find the
constraint or parameter that departs from the problem statement, and repair it.
Phase 2 - validate: once the model solves, an automated rationality oracle checks the plan. A feasible plan
can still be a bad supply-chain policy. The checks are: (1) base-stock structure (inventory should not
swing wildly), (2) bullwhip control (order variance within bounds), (3) inventory allocation (the retailer
should not hold all the stock while upstream holds none), (4) cost consistency (objective coefficients
must equal the stated holding and backorder costs), (5) order smoothing (no extreme order oscillation).
If a check fails you receive feedback naming it, its measured value and its threshold; fix the structural
cause and the model is checked again (at most 3 feedback loops). You have 20 actions in total.

Actions (a name may be a prefix: capacity_e1 acts on every capacity_e1_t* row):
- GET_IIS(): recompute the irreducible infeasible subsystem
- CHECK_SLACK(name): sense, right-hand side, slack and IIS membership of a constraint
- DROP_CONSTRAINT(name): remove a constraint
- RELAX_CONSTRAINT(name, amount): loosen a constraint by amount
- UPDATE_RHS(name, value): set a right-hand side
- UPDATE_OBJ(var_prefix, value): set objective coefficients (e.g. I_e2 for echelon 2 holding)
- UPDATE_BOUNDS(var, lb, ub): set variable bounds (None for no bound)
- SUBMIT(): stop and submit the model as it is
Inventory-balance rows and the operational limits (backorder_cap_*, supply_cap_*) may be protected; the
observation says so."""

_REAL = """You debug an infeasible linear program from a public test collection. There is no problem statement
and no ground truth: make the model feasible with the fewest changed constraints and variable bounds.
Read the conflicting constraints and bounds the solver reports (the IIS), check slacks, and change as few of
them as you can (relax a constraint, set a right-hand side or a variable bound, or drop a constraint). The
episode ends as soon as the model solves; the final model is re-solved from scratch to verify it. You have 20
actions in total.

Actions (a name may be a prefix: c1 acts on every c1_* row):
- GET_IIS(): recompute the irreducible infeasible subsystem
- CHECK_SLACK(name): sense, bounds, slack and IIS membership of a constraint
- DROP_CONSTRAINT(name): remove a constraint
- RELAX_CONSTRAINT(name, amount): loosen a constraint by amount
- UPDATE_RHS(name, value): set a right-hand side
- UPDATE_BOUNDS(var, lb, ub): set variable bounds (None for no bound)
- SUBMIT(): stop and submit the model as it is"""

_EXTENDED = """- UPDATE_COEF(row, var, value, lag): in every matched row ..._t{t}, set the coefficient of {var}_t{t-lag}"""

_THINK = """Reply format: first your reasoning inside <think> and </think>, then exactly one line
Action: ACTION_NAME(arguments)"""

_JSON = """Reply format: one JSON object and nothing else:
{"reasoning": "...", "action": "ACTION_NAME", "target": "name or prefix", "value": number, "value2": number}
(value2 only for UPDATE_BOUNDS' upper bound; omit what an action does not take)."""


def system_prompt(fmt: str = "think", *, extended: bool = False, real: bool = False) -> str:
    """The agent's system prompt (D.1 in our words) for reply format `fmt`."""
    if fmt not in FORMATS:
        from core.errors import SpecError

        raise SpecError("format", f"reply format must be one of {', '.join(FORMATS)}")
    role = _REAL if real else _ROLE + ("\n" + _EXTENDED if extended else "")
    parts = [role, _THINK if fmt == "think" else _JSON]
    return "\n\n".join(parts)


class LLMRepairAgent:
    """Asks a chat model for one action per step; parse failures become PARSE_ERROR actions."""

    def __init__(
        self,
        model: ChatModel,
        *,
        fmt: str = "think",
        extended: bool = False,
        history_turns: int = 4,
        real: bool = False,
    ) -> None:
        self.model = model
        self.fmt = fmt
        self.system = system_prompt(fmt, extended=extended, real=real)
        self.history_turns = history_turns
        self.name = f"LLM {model.name} ({fmt} format)"
        self.reset(None)

    def reset(self, seed: int | None) -> None:
        self.first: list[Message] = []
        self.turns: list[list[Message]] = []
        self.usage = Usage()
        self.last_note = ""
        self.parse_errors = 0

    def _history(self, observation: str) -> list[Message]:
        msgs = list(self.first)
        for turn in self.turns[-self.history_turns :]:
            msgs += turn
        msgs.append(Message("user", observation))
        return msgs

    def act(self, observation: object) -> dict:
        text = str(observation)
        history = self._history(text)
        result = run_tools(self.model, self.system, history, toolbox=None, max_steps=1)
        self.usage = self.usage + result.usage
        reply = result.text or ""
        exchange = [Message("user", text), Message("assistant", reply or "(empty reply)")]
        if not self.first:
            self.first = exchange
        else:
            self.turns.append(exchange)
        try:
            parsed = parse_reply(reply)
        except ReplyError as err:
            self.parse_errors += 1
            self.last_note = f"unparseable reply: {err}"
            return parse_error_action(err)
        self.last_note = parsed.reasoning[:2000]
        return parsed.action.to_dict()


def make_llm_agent(
    settings: Settings, *, fmt: str = "think", extended: bool = False, real: bool = False
) -> LLMRepairAgent:
    """An LLM agent for `settings` (`real`: the real track's prompt, no supply chain); offline settings raise a
    ProviderError (no silent stand-in)."""
    model = make_chat_model(settings, offline_policy=None)
    return LLMRepairAgent(model, fmt=fmt, extended=extended, real=real)
