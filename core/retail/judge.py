"""The macro-level strategy judge of seed 001's instability analysis: an LLM rates how similar two adjacent
days' macro strategies are, from 0 to 1, through the one LLM interface (`core.llm`).

There is no offline stand-in: without a key there is no judge and the analysis says the macro level needs an LLM
key. Identical strategies score 1 without a call. A reply without a usable score is counted in `failures` and
left out (never guessed); provider errors propagate as the LLM layer's errors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.llm.types import ChatModel, Message, Usage
from core.retail.frameworks import prompt

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def parse_similarity(text: str) -> float | None:
    """The score in a judge's reply: `{"similarity": s}` (anywhere in the text) or a lone number; None if there
    is none or it is outside [0, 1]."""
    value = None
    for match in re.finditer(r"\{.*?\}", text, re.S):
        try:
            data = json.loads(match.group(0))
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("similarity"), int | float):
            value = float(data["similarity"])
            break
    if value is None:
        numbers = NUMBER.findall(text.strip())
        if len(numbers) == 1 and text.strip() == numbers[0]:
            value = float(numbers[0])
    return value if value is not None and 0.0 <= value <= 1.0 else None


@dataclass
class MacroJudge:
    """Callable (previous, current) macro strategies -> similarity in [0, 1], or None for an unusable reply."""

    model: ChatModel
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    failures: int = 0

    def __call__(self, previous: Sequence[str], current: Sequence[str]) -> float | None:
        a, b = [s.strip() for s in previous], [s.strip() for s in current]
        if a == b:
            return 1.0
        text = ("## Yesterday's macro strategy\n" + "\n".join(f"- {s}" for s in a) +
                "\n\n## Today's macro strategy\n" + "\n".join(f"- {s}" for s in b))  # fmt: skip
        reply = self.model.complete(prompt("judge"), [Message("user", text)])
        self.calls += 1
        self.usage = self.usage + reply.usage
        score = parse_similarity(reply.text)
        if score is None:
            self.failures += 1
        return score
