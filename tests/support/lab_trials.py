"""One inventory-lab protocol cell run without the experiment engine: the protocol adapter's `ManagerEnv` and
treatment agent, turn by turn through the one rollout loop, and the trial record its `trial.json` holds."""

from __future__ import annotations

from typing import Any

from core.config import Settings
from core.inventory.lab import protocol
from core.inventory.lab.config import LabConfig
from core.inventory.lab.treatments import TrialOutcome
from core.recorder import Recorder
from core.rollout import RolloutResult, rollout


def lab_env(lab: LabConfig, index: int = 0) -> dict[str, Any]:
    """The protocol's instance config of scenario `index` of `lab`."""
    data = lab.to_dict()
    data.pop("workers")
    return protocol.instances({"lab": data})[index][1]


def protocol_trial(
    treatment: str, lab: LabConfig, settings: Settings, *, index: int = 0, roles: dict[str, Settings] | None = None
) -> tuple[TrialOutcome, dict[str, Any], RolloutResult, Recorder]:
    """Run one cell: (the outcome read back from the record, the record, the rollout, its recorder)."""
    config = lab_env(lab, index)
    env = protocol.make_env(config, roles=roles, settings=settings)
    agent = protocol.make_agent({"name": treatment, "treatment": treatment}, config, settings, roles=roles)
    recorder = Recorder(None, "inventory_lab")
    result = rollout(env, agent, seed=lab.seed, recorder=recorder, max_steps=500)
    record = protocol.trial_record(env, treatment, agent)
    return TrialOutcome.from_dict(treatment, record["outcome"]), record, result, recorder
