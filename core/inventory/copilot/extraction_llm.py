"""The LLM Information Extraction Agent: seed 000's Table 8 JSON protocol through the LLM layer.

Each round sends the Table 8 system prompt, the conversation so far and the current table; the model answers
with `{"reasoning", "updated_table", "action", "next_question"}`. The reply is parsed and every cell goes
through the same validator as the offline agent (`ParameterTable.check`). Broken JSON, unknown keys, invalid
values (units included: a weekly holding cost is converted to per day) or a premature TERMINATE are sent back
to the model as an error, up to `max_retries` times; the table is only written when a reply passes. A passing
reply then goes through the offline agent's conflict rules: the user's reply may settle an open clarification
(`nlu.replies.resolve`), a defined value the model changed without a correction from the user opens the
Example 5 clarification instead of being written (`conflicts.changed`), and the Example 4 mismatches between the
transition model and the penalty's unit are asked about (`conflicts.semantic`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.inventory.copilot import conflicts as cf
from core.inventory.copilot.dialogue import (
    ACTIONS,
    ASK_CLARIFICATION,
    ASK_NEXT,
    TERMINATE,
    ExtractionBase,
    next_undefined,
    question_for,
)
from core.inventory.copilot.turn import CopilotTurn
from core.inventory.nlu.replies import resolve
from core.inventory.table import Cell, Conflict, ParameterTable
from core.llm import ChatModel, Message
from core.text.corrections import is_correction
from solvers.inventory.spec import PARAMETER_KEYS

SYSTEM_PROMPT = (Path(__file__).with_name("extraction_prompt.md")).read_text(encoding="utf-8")
_TABLE_KEYS = ("updated_table", "updated table", "table")
_NEXT_KEYS = (
    "next_question",
    "next_prompt",
    "next prompt to hf model",
    "next_prompt_to_hf_model",
    "next prompt",
)


@dataclass(frozen=True)
class ProtocolReply:
    """A parsed and validated Table 8 reply."""

    reasoning: str
    cells: tuple[Cell, ...]
    action: str
    next_question: str


def parse_reply(text: str, table: ParameterTable) -> ProtocolReply:
    """Parse and validate one model reply against `table`; `SpecError` says what is wrong."""
    data = _json_object(text)
    raw_table = next((data[k] for k in _TABLE_KEYS if k in data), None)
    if not isinstance(raw_table, dict):
        raise SpecError("updated_table", "the reply must contain an 'updated_table' JSON object")
    action = str(data.get("action", "")).strip().upper()
    if action not in ACTIONS:
        raise SpecError("action", f"must be one of {', '.join(ACTIONS)}, got {data.get('action')!r}")
    cells = []
    for raw_key, item in raw_table.items():
        key = re.sub(r"[\s-]+", "_", str(raw_key).strip().lower())
        if key not in PARAMETER_KEYS:
            raise SpecError(str(raw_key), f"is not a table parameter; use only {', '.join(PARAMETER_KEYS)}")
        value, unit, status = _cell_parts(item)
        if status == "defined" and value not in (None, "", "-", "–"):
            cells.append(Cell(key, str(value), "" if unit in (None, "-", "–") else str(unit)))
    canonical = table.check(tuple(cells))
    next_question = str(next((data[k] for k in _NEXT_KEYS if k in data), "") or "")
    if action == TERMINATE:
        merged = ParameterTable(rows=dict(table.rows))
        merged.set_many(canonical)
        missing = merged.undefined()
        if missing:
            raise SpecError(
                "action", f"TERMINATE needs every item defined; still undefined: {', '.join(missing)}"
            )
        merged.problem()
    elif not next_question.strip():
        raise SpecError("next_question", f"must hold the message to send to the user for {action}")
    return ProtocolReply(str(data.get("reasoning", "")), canonical, action, next_question.strip())


def _json_object(text: str) -> dict[str, Any]:
    body = re.sub(r"^\s*```(?:json)?\s*|\s*```\s*$", "", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        raise SpecError("reply", "is not a JSON object; answer with one JSON object and nothing else")
    try:
        data = json.loads(body[start : end + 1])
    except json.JSONDecodeError as err:
        raise SpecError(
            "reply", f"is not valid JSON ({err.msg} at line {err.lineno} column {err.colno})"
        ) from err
    if not isinstance(data, dict):
        raise SpecError("reply", "must be a JSON object")
    return data


def _cell_parts(item: object) -> tuple[object, object, str]:
    if isinstance(item, dict):
        lowered = {str(k).lower(): v for k, v in item.items()}
        value = lowered.get("value")
        status = str(
            lowered.get("status") or ("defined" if value not in (None, "", "-") else "undefined")
        ).lower()
        return value, lowered.get("unit"), status
    return item, None, "defined" if item not in (None, "", "-") else "undefined"


class LLMExtractionAgent(ExtractionBase):
    """The Information Extraction Agent driven by a `ChatModel` speaking the Table 8 JSON protocol."""

    def __init__(self, model: ChatModel, table: ParameterTable | None = None, max_retries: int = 2) -> None:
        super().__init__(table)
        self.model = model
        self.max_retries = max_retries
        self.reasoning: list[str] = []
        self.rejections: list[str] = []

    def respond(self, user_text: str) -> CopilotTurn:
        """One round: ask the model, validate its reply (retrying with the error), apply it, answer."""
        self.state.log.append(("user", user_text))
        messages = [Message("user", self._request())]
        for _attempt in range(self.max_retries + 1):
            reply = self.model.complete(SYSTEM_PROMPT, messages)
            try:
                parsed = parse_reply(reply.text, self.table)
            except SpecError as err:
                self.rejections.append(str(err))
                messages += [
                    Message("assistant", reply.text),
                    Message(
                        "user", f"Your reply was rejected: {err}. Answer again with one valid JSON object."
                    ),
                ]
                continue
            return self._apply(parsed)
        return self._give_up()

    def _request(self) -> str:
        history = "\n".join(f"{role}: {text}" for role, text in self.state.log if role != "edit")
        table = json.dumps(self.table.to_dict(), indent=1)
        open_questions = "\n".join(f"- {c.question}" for c in self.table.conflicts if c.kind != "llm")
        pending = (
            f"\n\nOpen clarifications (asked, not answered yet):\n{open_questions}" if open_questions else ""
        )
        return f"Conversation history:\n{history}\n\nCurrent table:\n{table}{pending}"

    def _settle(self, user_text: str, cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
        """The offline agent's conflict rules on a validated reply: settle clarifications the user answered,
        hold back values the model changed without the user correcting them; returns the cells to write."""
        answered = {k for c in self.table.conflicts if c.kind == "llm" for k in c.keys}
        self.table.conflicts = [c for c in self.table.conflicts if c.kind != "llm"]
        for conflict in list(self.table.conflicts):
            chosen = resolve(conflict, user_text)
            if chosen is not None:
                try:
                    self.table.set_many(chosen)
                except SpecError:
                    continue
                self.table.close(conflict)
                answered |= set(conflict.keys)
        correction = is_correction(user_text)
        held = {k for c in self.table.conflicts for k in c.keys}
        keep = []
        for cell in cells:
            conflict = None if correction or cell.key in answered else cf.changed(self.table, (cell,))
            if conflict is not None:
                self.table.open(conflict)
            elif cell.key not in held or cell.key in answered:
                keep.append(cell)
        return tuple(keep)

    def _apply(self, parsed: ProtocolReply) -> CopilotTurn:
        self.reasoning.append(parsed.reasoning)
        user_text = next((text for role, text in reversed(self.state.log) if role == "user"), "")
        cells = self._settle(user_text, parsed.cells)
        try:
            self.table.set_many(cells)
        except SpecError:
            for cell in cells:
                try:
                    self.table.set_many((cell,))
                except SpecError:
                    self.rejections.append(f"{cell.key}: {cell.value} no longer fits the table")
        for conflict in cf.semantic(self.table):
            self.table.open(conflict)
        if self.table.conflicts and parsed.action != ASK_CLARIFICATION:
            question = self.table.conflicts[0].question
            self._say(question)
            self.state.asked, self.last_action = None, ASK_CLARIFICATION
            return CopilotTurn.of(self.table, assistant=question, action=ASK_CLARIFICATION)
        if parsed.action == ASK_CLARIFICATION:
            keys = tuple(c.key for c in parsed.cells)
            self.table.open(Conflict("llm", keys, parsed.next_question))
            self.state.asked = None
        else:
            self.state.asked = next_undefined(self.table)
        text = (
            parsed.next_question if parsed.action != TERMINATE else (parsed.next_question or self._summary())
        )
        self._say(text)
        self.last_action = parsed.action
        return CopilotTurn.of(self.table, assistant=text, action=parsed.action)

    def _give_up(self) -> CopilotTurn:
        """After the retries, keep the table as it was and ask the current question again."""
        key = next_undefined(self.table)
        question = (
            question_for(key, self.table)
            if key
            else "Could you confirm that everything in the table is right?"
        )
        text = f"Sorry, I could not process that reliably. {question}"
        self._say(text)
        self.last_action = ASK_NEXT
        return CopilotTurn.of(self.table, assistant=text, action=ASK_NEXT)

    def _after_edit(self, note: str) -> CopilotTurn:
        self.table.conflicts = [c for c in self.table.conflicts if c.kind != "llm"]
        return self._finish([note], [])
