"""The Copilot's optimizer budget (`CopilotConfig`) and the DQN requests read from the chat (`dqn_request`).

Defaults: 1000 Monte Carlo paths for the policy search (the engine re-evaluates the finalists on
max(paths, 2000) fresh common paths), the exact DP whenever the engine deems the state space small enough, and
no DQN unless the user asks for one in the chat or the caller sets `use_dqn`; a DQN then trains for at most
`dqn_steps` vector steps or `dqn_seconds`. A chat turn thus stays within a few seconds on typical instances.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

from core.errors import SpecError
from core.inventory.copilot.order_query import check_day_numbering
from core.text.cues import WordCue
from core.text.mentions import parse
from core.text.negation import negation_scopes
from solvers.inventory.dqn import DQNConfig

DQN_CUE = WordCue(
    exact=frozenset(["dqn", "dqns", "dqn's"]),
    phrases=(("deep", "q"), ("reinforcement", "learning"), ("neural", "net"), ("neural", "network")),
)
"""The words that name a DQN ('DQN', 'deep Q', 'reinforcement learning', 'neural net')."""


@dataclass(frozen=True)
class CopilotConfig:
    """The optimizer budget of one conversation."""

    paths: int = 1000
    use_dqn: bool = False
    dqn_steps: int = 1500
    dqn_seconds: float = 30.0
    dqn_envs: int = 128
    dqn_hidden: int = 128
    use_dp: bool = True
    final_paths: int | None = None
    critic_paths: int = 200
    seed: int = 0
    day_numbering: str = "from_one"
    """How the user's "day d" maps to a time step in order queries (`order_query.DAY_NUMBERINGS`)."""

    def __post_init__(self) -> None:
        check_day_numbering(self.day_numbering)
        if self.paths < 1:
            raise SpecError("paths", "need at least 1 simulation path")
        if self.dqn_steps < 1:
            raise SpecError("dqn_steps", f"the DQN step budget must be at least 1, got {self.dqn_steps}")
        if not (self.dqn_seconds > 0 and math.isfinite(self.dqn_seconds)):
            raise SpecError(
                "dqn_seconds", f"the DQN time budget must be a positive number, got {self.dqn_seconds}"
            )

    def dqn_config(self) -> DQNConfig:
        return DQNConfig(
            steps=self.dqn_steps,
            seconds=self.dqn_seconds,
            envs=self.dqn_envs,
            hidden=self.dqn_hidden,
            eval_every=max(1, min(150, self.dqn_steps // 4)),
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def dqn_request(config: CopilotConfig, text: str) -> tuple[CopilotConfig, str]:
    """The budget after a message that asks for (or against) a DQN, and the note to append to the answer."""
    message = parse(text)
    words, spans = message.words(), message.word_spans()
    mentions = DQN_CUE.where(words)
    scopes = negation_scopes(message.text)
    refused = any(  # 'no DQN', 'without the DQN', "I don't want the DQN", 'skip the DQN'
        any(s.covers(spans[i][0]) for s in scopes) or _skipped(words, i) for i in mentions
    )
    if refused and config.use_dqn:
        return replace(config, use_dqn=False), " (Noted: I will not train a DQN.)"
    if mentions and not refused and not config.use_dqn:
        note = f" (Noted: I will also train a DQN when I optimize; that takes up to {config.dqn_seconds:g} seconds.)"
        return replace(config, use_dqn=True), note
    return config, ""


def _skipped(words: tuple[str, ...], i: int) -> bool:
    """'skip the DQN', 'skip a DQN': the word 'skip' right before the cue, an article between."""
    before = words[max(0, i - 2) : i]
    return before[-1:] == ("skip",) or (len(before) == 2 and before[0] == "skip" and before[1] in ("the", "a"))
