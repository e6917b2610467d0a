"""Inventory readers that take negation from core.text.negation: whether demand varies, and a DQN request."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.inventory.copilot.config import CopilotConfig, dqn_request
from core.inventory.nlu.demand import read_demand


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("demand is random", "random"),
        ("about 20 a day, it varies", "random"),
        ("not fixed, it varies a lot", "random"),
        ("I'm not sure if it varies", "random"),
        ("it doesn't really vary", "deterministic"),
        ("not random at all", "deterministic"),
        ("I don't think it's random", "deterministic"),
        ("it's not hard to predict", "deterministic"),
        ("it never changes", "deterministic"),
        ("sales don't change from day to day", "deterministic"),
        ("20 a day", None),
    ],
)
def test_denied_variation_means_fixed_demand(text: str, kind: str | None) -> None:
    assert read_demand(text).demand_type == kind


@pytest.mark.parametrize(
    ("text", "wants"),
    [
        ("no DQN please", False),
        ("without the dqn", False),
        ("skip the DQN", False),
        ("I don't want the DQN", False),
        ("don't use the dqn", False),
        ("use the DQN too", True),
        ("train a deep Q network as well", True),
        ("why not try the DQN?", True),
        ("no problem, train the DQN", True),
    ],
)
def test_a_dqn_request_and_its_refusal(text: str, wants: bool) -> None:
    for use_dqn in (False, True):
        config, note = dqn_request(replace(CopilotConfig(), use_dqn=use_dqn), text)
        assert config.use_dqn is wants
        assert bool(note) is (use_dqn is not wants)
