"""LLM decision agents (seed 003 §4.1, Appendix 10.3): the prompt structure in our words, three templates
(default, optimization-aware, C-N-R-adjusted), check_utility as their one tool, __END__ and the turn limit.

The agent keeps its own side of the conversation (the optimizer's messages are its "user" turns) and runs one
`run_tools` loop per reply. The best schedule it checked is what gets scored; a check that returns the maximum
ends the conversation (criterion i), __END__ ends it (ii), and the turn limit (iii).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

from core.errors import SpecError
from core.llm import ChatModel, Message, Toolbox, run_tools
from core.schedule.lab.decision_agents import (
    END,
    MAX_TURNS,
    DecisionProfile,
    DecisionTurn,
    Feedback,
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
        self.system = build_prompt(profile, self.template, self.district)
        self.reset()

    def reset(self, seed: int | None = 0) -> None:
        self.messages: list[Message] = []
        self.turns = 0
        self.best: tuple[int, ...] | None = None
        self.best_value = -1.0
        self.stop: StopReason | None = None
        self.checks: list[dict[str, Any]] = []

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
