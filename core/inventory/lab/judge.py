"""The LLM judge of seed 000 Table 14: does a message hold a well-defined numerical ordering policy?

It answers Yes or No; it stops Treatment B's conversation and screens Treatment C's answer. A reply that is
neither word is recorded as `unreadable` and counts as No (the conversation goes on) — never a guess of Yes.
It needs an LLM; offline settings raise `ProviderError`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.config import Settings
from core.errors import ProviderError
from core.llm import Message, Usage, make_chat_model

JUDGE_PROMPT = (
    "Decide whether the text below contains a specific, actionable inventory ordering rule. A rule has clear "
    "numbers, says what to do in every situation, and translates directly into a formula. 'When stock falls "
    "below 20 units, order 80 units' is a rule. 'I recommend an (s, S) policy: when on-hand plus on-order "
    "stock drops below 35 units, order up to a total of 150 units' is a rule. 'Consider optimizing your "
    "inventory' or 'You need a better plan' are not rules. Answer with one word: Yes or No."
)


@dataclass(frozen=True)
class JudgeVerdict:
    is_policy: bool
    raw: str
    unreadable: bool = False
    usage: Usage = Usage()


class LLMJudge:
    """Table 14's judge on the configured LLM."""

    def __init__(self, settings: Settings) -> None:
        if settings.provider == "offline":
            raise ProviderError("the LLM judge needs an LLM provider (an API key); it is not run offline")
        self.model = make_chat_model(settings)
        self.calls = 0

    def verdict(self, text: str) -> JudgeVerdict:
        self.calls += 1
        reply = self.model.complete(JUDGE_PROMPT, [Message("user", text or "(empty)")])
        word = re.sub(r"[^a-z]", "", reply.text.strip().split()[0].lower()) if reply.text.strip() else ""
        if word in ("yes", "no"):
            return JudgeVerdict(word == "yes", reply.text, usage=reply.usage)
        return JudgeVerdict(False, reply.text, unreadable=True, usage=reply.usage)
