"""The lab's settings: `LabConfig` (every knob of a lab run, recorded with it) and the imitator it makes."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.inventory.copilot.config import CopilotConfig
from core.inventory.copilot.order_query import check_day_numbering
from core.inventory.lab.assessment import AssessmentConfig
from core.inventory.lab.generator import PROTOCOLS, Scenario
from core.inventory.lab.imitator import ImitatorNoise, LLMImitator, OfflineImitator
from core.inventory.lab.treatments import TREATMENTS

IMITATORS = ("offline", "llm")
FAMILIES = ("full", "paper")


@dataclass(frozen=True)
class LabConfig:
    """Everything that defines a lab run (recorded with it)."""

    protocol: str = "paper70"
    n: int | None = None
    seed: int = 0
    treatments: tuple[str, ...] = TREATMENTS
    imitator: str = "offline"
    noise: float = 1.0
    risk_neutral: bool = False
    copilot_paths: int = 200
    critic_paths: int = 100
    assessment_paths: int = 2000
    families: str = "full"
    capacity_basis: str = "inventory_position"
    day_numbering: str = "from_one"
    max_turns: int = 40
    workers: int = 1

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise SpecError("protocol", f"must be one of {', '.join(PROTOCOLS)}")
        object.__setattr__(self, "treatments", tuple(dict.fromkeys(str(t).upper() for t in self.treatments)))
        bad = [t for t in self.treatments if t not in TREATMENTS]
        if bad or not self.treatments:
            raise SpecError("treatments", f"choose from A, B, C (got {', '.join(bad) or 'none'})")
        if self.imitator not in IMITATORS:
            raise SpecError("imitator", f"must be one of {', '.join(IMITATORS)}")
        if self.families not in FAMILIES:
            raise SpecError("families", f"must be one of {', '.join(FAMILIES)}")
        ImitatorNoise.scaled(self.noise)
        check_day_numbering(self.day_numbering)
        if self.copilot_paths < 10 or self.critic_paths < 10:
            raise SpecError("copilot_paths", "the Copilot needs at least 10 simulation paths")
        if not 1 <= self.max_turns <= 200:
            raise SpecError("max_turns", "must lie between 1 and 200")
        if not 1 <= self.workers <= 16:
            raise SpecError("workers", "must lie between 1 and 16")
        self.assessment()

    def assessment(self) -> AssessmentConfig:
        return AssessmentConfig(
            paths=self.assessment_paths,
            seed=self.seed,
            optimizer_paths=self.copilot_paths,
            capacity_basis=self.capacity_basis,
        )

    def copilot(self) -> CopilotConfig:
        return CopilotConfig(
            paths=self.copilot_paths,
            critic_paths=self.critic_paths,
            seed=self.seed,
            day_numbering=self.day_numbering,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["treatments"] = list(self.treatments)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LabConfig:
        known = set(cls.__dataclass_fields__)
        unknown = [k for k in data if k not in known]
        if unknown:
            raise SpecError(unknown[0], f"unknown lab setting; expected one of {', '.join(sorted(known))}")
        values = dict(data)
        if "treatments" in values:
            t = values["treatments"]
            values["treatments"] = tuple(t.split(",") if isinstance(t, str) else t)
        return cls(**values)


def make_imitator(config: LabConfig, scenario: Scenario, index: int, settings: Settings):
    if config.imitator == "llm":
        return LLMImitator(scenario, settings)
    return OfflineImitator(scenario, ImitatorNoise.scaled(config.noise), seed=config.seed * 100_003 + index)
