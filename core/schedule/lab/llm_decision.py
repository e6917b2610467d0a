"""LLM decision agents (seed 003 §4.1, Appendix 10.3): the prompt structure in our words, three templates
(default, optimization-aware, C-N-R-adjusted), check_utility as their one tool, __END__ and the turn limit.

The agent keeps its own side of the conversation (the optimizer's messages are its "user" turns) and runs one
`run_tools` loop per reply. The best schedule it checked is what gets scored; a check that returns the maximum
ends the conversation (criterion i), __END__ ends it (ii), and the turn limit (iii).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from core.config import Settings
from core.errors import SpecError
from core.llm import ChatModel, Message, Toolbox, Usage, make_chat_model, run_tools
from core.schedule.lab.decision_agents import (
    END,
    MAX_TURNS,
    DecisionProfile,
    DecisionTurn,
    Feedback,
    OfflineDecisionAgent,
    StopReason,
    Style,
    assignment_of,
    check_utility,
)
from solvers.schedule.data import District, format_time, sfusd_district
from solvers.schedule.utility import slot_values

PROMPT_PATH = Path(__file__).with_name("decision_prompt.md")


class Template(StrEnum):
    DEFAULT = "default"
    AWARE = "optimization_aware"
    CNR = "cnr_adjusted"


STYLE_TEXT = {
    Style.VAGUE: "You talk loosely and kindly. You never give numbers or hard limits: you say things like "
    '"could we start on the later side?" or "that peak still feels a bit high to me".',
    Style.PRECISE: "You talk precisely. You give concrete targets and limits: for example "
    '"please start us at 9:30 AM" or "keep the peak under 2,100 students".',
}
FEEDBACK_TEXT = {
    Feedback.BINARY: "It answers only Y (this is the most points you can get) or N.",
    Feedback.RICH: "It answers with the points of the schedule, the most you can get, and which outcomes are met.",
}
TEMPLATE_TEXT = {
    Template.DEFAULT: "",
    Template.AWARE: "\nImportant: the assistant will answer only ONCE. Put everything you care about into your "
    "first message, in your own style.",
    Template.CNR: "\nImportant: the assistant knows nothing about the district. In your first message, explain "
    "the situation (the schools, the allowed start times, the data above) in your own words before giving "
    "feedback.",
}


def build_prompt(profile: DecisionProfile, template: Template, district: District | None = None) -> str:
    district = district or sfusd_district()
    u = profile.utility
    values = slot_values(u.direction, len(district.start_times))
    rows = [
        f"| {u.school} starts at {label} | {u.w1 * v:.3f} |"
        for label, v in zip(district.time_labels, values, strict=True)
    ]
    rows += [
        f"| Peak load at most {u.max_load * 100:,.0f} students | {u.w2:.3f} |",
        f"| Peak load above {u.max_load * 100:,.0f} students | 0.000 |",
        f"| Average change at most {u.max_deviation:g} minutes | {u.w3:.3f} |",
        f"| Average change above {u.max_deviation:g} minutes | 0.000 |",
    ]
    table = ["| School | Grade | Enrollment | Current start |", "| --- | --- | --- | --- |"]
    table += [
        f"| {s.name} | {s.grade} | {s.enrollment} | {format_time(s.current_start)} |"
        for s in district.schools
    ]
    first = (
        "Start by introducing the problem as described above, then give your thoughts."
        if template is Template.CNR
        else "Start with your thoughts on the proposed schedule."
    )
    return PROMPT_PATH.read_text(encoding="utf-8").format(
        district=district.name or "The district",
        school_count=len(district.schools),
        options=", ".join(district.time_labels),
        role=u.role,
        school=u.school,
        style_text=STYLE_TEXT[profile.style],
        school_table="\n".join(table),
        direction="as early as possible" if u.direction.value == "earlier" else "as late as possible",
        utility_table="\n".join(rows),
        u_star=f"{u.u_star:.3f}",
        feedback_text=FEEDBACK_TEXT[profile.feedback],
        first_step=first,
        template_text=TEMPLATE_TEXT[template],
    )


class LLMDecisionAgent:
    """An LLM role-playing one decision agent; same interface as OfflineDecisionAgent."""

    label = "LLM decision agent"

    def __init__(
        self,
        profile: DecisionProfile,
        model: ChatModel,
        *,
        template: Template | str = Template.DEFAULT,
        district: District | None = None,
        max_turns: int = MAX_TURNS,
        max_steps: int = 6,
    ) -> None:
        try:
            self.template = Template(template)
        except ValueError as err:
            raise SpecError("template", f"use one of {[t.value for t in Template]}") from err
        self.profile = profile
        self.model = model
        self.district = district or sfusd_district()
        self.max_turns = max_turns
        self.max_steps = max_steps
        self.name = f"llm-decision/{profile.style.value}/{profile.feedback.value}/{self.template.value}"
        self.label = f"LLM decision agent ({getattr(model, 'name', 'LLM')}, template {self.template.value})"
        self.system = build_prompt(profile, self.template, self.district)
        self.reset()

    def reset(self, seed: int | None = 0) -> None:
        self.messages: list[Message] = []
        self.turns = 0
        self.best: tuple[int, ...] | None = None
        self.best_value = -1.0
        self.stop: StopReason | None = None
        self.checks: list[dict[str, Any]] = []
        self.usage = Usage()  # tokens of every request of this conversation

    def check_utility(self, start_times: dict) -> dict:
        """Points of a full schedule for you (binary: Y/N only; rich: points, maximum and outcomes met).

        start_times: every school name mapped to "7:50 AM", "8:40 AM" or "9:30 AM".
        """
        result = check_utility(self.profile, start_times, self.district)
        if "error" not in result:
            assignment = assignment_of(self.district, start_times)
            value = self.profile.utility.value(self.district, assignment)
            if value > self.best_value + 1e-9:
                self.best, self.best_value = assignment, value
        self.checks.append(result)
        return result

    def see(self, text: str) -> tuple[list, list]:
        """One-shot scoring needs the model to check the answer: run one tool loop without replying."""
        before = len(self.checks)
        self._loop(text + "\n\n(Check this schedule with check_utility; do not reply.)")
        return [], self.checks[before:]

    def _loop(self, text: str) -> str:
        self.messages.append(Message("user", text))
        loop = run_tools(
            self.model, self.system, self.messages, Toolbox([self.check_utility]), self.max_steps
        )
        self.messages.extend(loop.messages)
        self.usage = self.usage + loop.usage
        return loop.text

    def respond(self, text: str, *, one_shot: bool = False, aware: bool = False) -> DecisionTurn:
        if self.turns >= self.max_turns:
            self.stop = StopReason.TURN_LIMIT
            return DecisionTurn("", [], [], StopReason.TURN_LIMIT)
        before = len(self.checks)
        reply = self._loop(text)
        checks = self.checks[before:]
        self.turns += 1
        if any(c.get("maximal") == "Y" for c in checks):
            self.stop = StopReason.SATISFIED
        elif END in reply:
            self.stop = StopReason.ENDED
        return DecisionTurn(reply, checks, [], self.stop)


KINDS = ("offline", "llm")
PROVIDERS = ("anthropic", "openai")
AUTO = "auto"


@dataclass(frozen=True)
class DecisionAgentSpec:
    """Which decision agents an experiment or the page uses: the offline stand-ins, or an LLM (provider +
    model) with a prompt template (`auto`: optimization-aware for the aware one-shot, C-N-R-adjusted for the
    C-N-R design, default otherwise). `field` prefixes the names in errors (e.g. `env.decision`)."""

    kind: str = "offline"
    provider: str | None = None
    model: str | None = None
    template: str = AUTO
    field: str = "decision"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SpecError(f"{self.field}.kind", f"use one of {', '.join(KINDS)}, got {self.kind!r}")
        if self.template != AUTO and self.template not in {t.value for t in Template}:
            raise SpecError(
                f"{self.field}.template",
                f"use {AUTO} or one of {[t.value for t in Template]}, got {self.template!r}",
            )
        if self.kind == "offline":
            if self.provider not in (None, "offline"):
                raise SpecError(
                    f"{self.field}.provider", 'offline decision agents have no provider (use kind = "llm")'
                )
            return
        if self.provider not in PROVIDERS:
            raise SpecError(
                f"{self.field}.provider", f"LLM decision agents need a provider ({', '.join(PROVIDERS)})"
            )
        if not isinstance(self.model, str) or not self.model.strip():
            raise SpecError(f"{self.field}.model", "LLM decision agents need a model name")

    @classmethod
    def from_config(cls, raw: Any, field: str = "env.decision") -> DecisionAgentSpec:
        """From an experiment's `[env.decision]` table (or "offline" / None for the stand-ins)."""
        if raw is None or raw == "offline":
            return cls(field=field)
        if not isinstance(raw, Mapping):
            raise SpecError(field, 'use a table {kind, provider, model, template} or "offline"')
        unknown = sorted(set(raw) - {"kind", "provider", "model", "template"})
        if unknown:
            raise SpecError(f"{field}.{unknown[0]}", "unknown field (use kind, provider, model, template)")
        return cls(
            kind=str(raw.get("kind", "offline")),
            provider=raw.get("provider"),
            model=raw.get("model"),
            template=str(raw.get("template", AUTO)),
            field=field,
        )

    def as_config(self) -> dict[str, Any]:
        if self.kind == "offline":
            return {"kind": "offline"}
        return {"kind": "llm", "provider": self.provider, "model": self.model, "template": self.template}

    @property
    def label(self) -> str:
        """How reports and the page name these decision agents (an offline stand-in is never an LLM)."""
        if self.kind == "offline":
            return OfflineDecisionAgent.label
        return f"LLM decision agent ({self.provider}/{self.model}, template {self.template})"

    def settings(self, env: Mapping[str, str] | None = None) -> Settings:
        """The LLM settings from the environment's key/URL; without them a SpecError (nothing is substituted)."""
        if self.kind == "offline":
            return Settings()
        settings = Settings.from_env(env, provider=self.provider).with_changes(model=self.model)
        require_key(settings, f"{self.field}.provider")
        return settings

    def template_for(self, paradigm: str, design: str | None) -> Template:
        if self.template != AUTO:
            return Template(self.template)
        if paradigm == "aware_one_shot":
            return Template.AWARE
        if design == "C-N-R":
            return Template.CNR
        return Template.DEFAULT


def require_key(settings: Settings, field: str = "decision.provider") -> None:
    """Refuse LLM settings that cannot reach a model (no key, and no local OpenAI-compatible URL)."""
    if settings.provider == "offline":
        raise SpecError(field, "LLM decision agents need an LLM provider (Anthropic or OpenAI), not offline")
    if settings.api_key or (settings.provider == "openai" and settings.base_url):
        return
    var = "ANTHROPIC_API_KEY" if settings.provider == "anthropic" else "OPENAI_API_KEY (or OPENAI_BASE_URL)"
    raise SpecError(
        field,
        f"LLM decision agents need {var}; set it, or use the offline decision agents "
        "(no offline stand-in is substituted for an LLM decision agent)",
    )


def make_decision_agent(
    profile: DecisionProfile,
    spec: DecisionAgentSpec,
    settings: Settings | None,
    *,
    paradigm: str = "conversation",
    design: str | None = None,
    district: District | None = None,
    max_turns: int = MAX_TURNS,
    seed: int = 0,
) -> OfflineDecisionAgent | LLMDecisionAgent:
    """The decision agent `spec` names for one profile (LLM agents need `settings` with a key)."""
    if spec.kind == "offline":
        return OfflineDecisionAgent(profile, district, max_turns=max_turns, seed=seed)
    if settings is None:
        raise SpecError(f"{spec.field}.provider", "LLM decision agents need LLM settings")
    require_key(settings, f"{spec.field}.provider")
    return LLMDecisionAgent(
        profile,
        make_chat_model(settings),
        template=spec.template_for(paradigm, design),
        district=district,
        max_turns=max_turns,
    )
