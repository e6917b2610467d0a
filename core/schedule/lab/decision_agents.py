"""Decision agents of seed 003 §4.1: a hidden utility, a style (vague/precise), a feedback tool (binary/rich).

`check_utility` is the tool every decision agent (offline or LLM) uses on a proposed schedule. The OFFLINE
decision agent here is a deterministic stand-in, labelled as such in every report: it reads the schedules in
the optimization agent's message, checks them, and pursues the outcome its utility table says is worth U*
(the paper's prompt gives the table and U*, so an in-character LLM can reason the same way). Binary agents
see only Y/N and raise one concern per turn (most heavily weighted first, judged from the numbers they read);
rich agents see the satisfied items and raise every unmet one at once. Phrasings come from phrasings.toml.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import SpecError
from solvers.schedule.data import District, format_time, sfusd_district
from solvers.schedule.model import evaluate
from solvers.schedule.utility import TOL, Utility, slot_values

PHRASINGS_PATH = Path(__file__).with_name("phrasings.toml")
END = "__END__"
MAX_TURNS = 20
OFFLINE_LABEL = "offline decision agent (deterministic stand-in, not an LLM)"


class Style(StrEnum):
    VAGUE = "vague"
    PRECISE = "precise"


class Feedback(StrEnum):
    BINARY = "binary"
    RICH = "rich"


class StopReason(StrEnum):
    """Why a conversation ended (seed 003 §4.1): U* reached, the agent said __END__, or the turn limit."""

    SATISFIED = "satisfied"
    ENDED = "ended"
    TURN_LIMIT = "turn_limit"


@dataclass(frozen=True)
class DecisionProfile:
    """One of the 4 x |utilities| decision agents."""

    utility: Utility
    style: Style
    feedback: Feedback

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "style", Style(self.style))
        except ValueError as err:
            raise SpecError("style", f"use 'vague' or 'precise', got {self.style!r}") from err
        try:
            object.__setattr__(self, "feedback", Feedback(self.feedback))
        except ValueError as err:
            raise SpecError("feedback", f"use 'binary' or 'rich', got {self.feedback!r}") from err

    @property
    def key(self) -> str:
        return f"{self.utility.key}-{self.style.value}-{self.feedback.value}"


def profiles(utilities: tuple[Utility, ...]) -> list[DecisionProfile]:
    """utilities x {vague, precise} x {binary, rich} (436 for the paper's 109)."""
    return [DecisionProfile(u, s, f) for u in utilities for s in Style for f in Feedback]


def assignment_of(district: District, start_times: dict[str, str]) -> tuple[int, ...]:
    """Slot index per school from a {school: "7:50 AM"} dict; a missing school or unknown time names the field."""
    if not isinstance(start_times, dict):
        raise SpecError("start_times", "expected an object mapping school names to start times")
    labels = {label.lower().replace(" ", ""): i for i, label in enumerate(district.time_labels)}
    out = []
    for school in district.names:
        if school not in start_times:
            raise SpecError("start_times", f"missing {school}; give every school a start time")
        value = str(start_times[school]).lower().replace(" ", "")
        if value not in labels:
            raise SpecError(
                "start_times", f"{school}: {start_times[school]!r} is not one of {district.time_labels}"
            )
        out.append(labels[value])
    return tuple(out)


def item_lines(utility: Utility, district: District) -> list[str]:
    """The utility table's items in words (what rich feedback reports as satisfied or not)."""
    return [
        f"{utility.school} starts at the preferred time ({district.time_labels[_preferred(utility, district)]})",
        f"peak load at most {utility.max_load * 100:,.0f} students",
        f"average change at most {utility.max_deviation:g} minutes",
    ]


def _preferred(utility: Utility, district: District) -> int:
    values = slot_values(utility.direction, len(district.start_times))
    return int(np.argmax(values))


def check_utility(
    profile: DecisionProfile, start_times: dict[str, str], district: District | None = None
) -> dict[str, Any]:
    """The decision agent's tool: binary -> {"maximal": "Y"|"N"}; rich -> value, U*, satisfied items, hint.

    Bad input is an error result ({"error": ..., "field": ...}), never an exception.
    """
    district = district or sfusd_district()
    try:
        assignment = assignment_of(district, start_times)
    except SpecError as err:
        return {"error": str(err), "field": err.field}
    utility = profile.utility
    value = utility.value(district, assignment)
    maximal = value >= utility.u_star - 1e-9
    if profile.feedback is Feedback.BINARY:
        return {"maximal": "Y" if maximal else "N"}
    items = utility.items(district, assignment)
    lines = item_lines(utility, district)
    load, deviation = evaluate(district, assignment)
    satisfied = [line for line, f in zip(lines, items, strict=True) if f >= 1.0 - TOL]
    partial = [lines[0]] if 0 < items[0] < 1 else []
    hint = []
    if items[1] < 1:
        hint.append(f"bring the peak load ({load * 100:,.0f}) to {utility.max_load * 100:,.0f} or below")
    if items[2] < 1:
        hint.append(f"bring the average change ({deviation:.1f} min) to {utility.max_deviation:g} or below")
    return {
        "utility": round(value, 4),
        "max_utility": round(utility.u_star, 4),
        "maximal": "Y" if maximal else "N",
        "satisfied": satisfied,
        "partly_satisfied": partial,
        "unsatisfied": [line for line in lines if line not in satisfied and line not in partial],
        "hint": "; ".join(hint),
    }


def read_schedules(
    district: District, text: str, last: tuple[int, ...] | None = None
) -> list[tuple[int, ...]]:
    """Every complete schedule written in a message (tables or lists: a line naming a school and a time).

    A school named again starts the next schedule; incomplete schedules are dropped. Options written as
    changes ("A 7:50 AM -> 8:40 AM") are applied to the message's last full schedule, else to `last`.
    """
    times = {format_time(t).lower().replace(" ", ""): i for i, t in enumerate(district.start_times)}
    pattern = re.compile(r"(\d{1,2}:\d{2}\s*[ap]\.?m\.?)", re.IGNORECASE)
    names = sorted(district.names, key=len, reverse=True)
    found: list[tuple[int, ...]] = []
    current: dict[int, int] = {}
    for line in text.splitlines():
        school = next((n for n in names if n.lower() in line.lower()), None)
        if school is None:
            continue
        stamps = [s.lower().replace(" ", "").replace(".", "") for s in pattern.findall(line)]
        slots = [times[s] for s in stamps if s in times]
        if not slots:
            continue
        q = district.school_index(school)
        if q in current:
            if len(current) == len(district.schools):
                found.append(tuple(current[i] for i in range(len(district.schools))))
            current = {}
        current[q] = slots[-1]  # the proposed start is the last time on the line
    if len(current) == len(district.schools):
        found.append(tuple(current[i] for i in range(len(district.schools))))
    base = found[-1] if found else last
    if base is not None:
        found += _changed_schedules(district, text, base, names, pattern, times)
    return found


def _changed_schedules(
    district: District, text: str, base: tuple[int, ...], names: list[str], pattern: re.Pattern, times: dict
) -> list[tuple[int, ...]]:
    """Options written as changes from the current proposal ("Everett MS 7:50 AM -> 8:40 AM")."""
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        if "->" not in paragraph:
            continue
        schedule = list(base)
        changed = False
        for chunk in paragraph.split(";"):
            school = next((n for n in names if n.lower() in chunk.lower()), None)
            stamps = [s.lower().replace(" ", "").replace(".", "") for s in pattern.findall(chunk)]
            if school and "->" in chunk and stamps and stamps[-1] in times:
                schedule[district.school_index(school)] = times[stamps[-1]]
                changed = True
        if changed:
            out.append(tuple(schedule))
    return out


@lru_cache(maxsize=1)
def phrasings() -> dict[str, Any]:
    return tomllib.loads(PHRASINGS_PATH.read_text(encoding="utf-8"))


def goal_outcome(utility: Utility, slots: int) -> tuple[float, int, int]:
    """(f1 value, f2, f3) worth U*: what the agent, knowing its table and U*, aims for."""
    best = None
    for f1, f2, f3 in itertools.product(
        sorted(set(slot_values(utility.direction, slots)), reverse=True), (1, 0), (1, 0)
    ):
        value = utility.w1 * f1 + utility.w2 * f2 + utility.w3 * f3
        if abs(value - utility.u_star) <= 1e-6 and best is None:
            best = (f1, f2, f3)
    if best is None:
        raise SpecError("u_star", f"no outcome of {utility.key}'s table is worth U* = {utility.u_star}")
    return best


@dataclass
class DecisionTurn:
    """What the decision agent did with one optimization-agent message."""

    text: str
    checks: list[dict[str, Any]] = field(default_factory=list)
    schedules: list[tuple[int, ...]] = field(default_factory=list)
    stop: StopReason | None = None


class OfflineDecisionAgent:
    """A deterministic decision agent pursuing its utility (see the module docstring)."""

    label = OFFLINE_LABEL

    def __init__(
        self,
        profile: DecisionProfile,
        district: District | None = None,
        *,
        max_turns: int = MAX_TURNS,
        patience: int = 6,
        seed: int = 0,
    ) -> None:
        if max_turns < 1:
            raise SpecError("max_turns", "need at least one turn")
        self.profile = profile
        self.district = district or sfusd_district()
        self.max_turns = max_turns
        self.patience = patience
        self.name = f"offline-decision/{profile.style.value}/{profile.feedback.value}"
        self.goal = goal_outcome(profile.utility, len(self.district.start_times))
        self.reset(seed)

    def reset(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.turns = 0
        self.best: tuple[int, ...] | None = None
        self.best_value = -1.0
        self.stalls = 0
        self.asked = 0
        self.stop: StopReason | None = None
        self.latest: tuple[int, ...] | None = None
        self.last_ask: list[str] = []
        self.options: list[tuple[int, float]] = []

    def _say(self, group: str, key: str, **values: Any) -> str:
        options = phrasings()[group][key]
        return options[int(self.rng.integers(len(options)))].format(**values)

    def see(self, text: str) -> tuple[list[tuple[int, ...]], list[dict[str, Any]]]:
        schedules = read_schedules(self.district, text, self.latest)
        self.options = []
        if schedules and "**Option" in text:
            values = [self.profile.utility.value(self.district, a) for a in schedules]
            self.options = list(enumerate(values, start=1))
        elif schedules:
            self.latest = schedules[-1]
        checks = []
        improved = False
        for assignment in schedules:
            start_times = {
                n: self.district.time_labels[a] for n, a in zip(self.district.names, assignment, strict=True)
            }
            checks.append(check_utility(self.profile, start_times, self.district))
            value = self.profile.utility.value(self.district, assignment)
            if value > self.best_value + 1e-9:
                self.best, self.best_value, improved = assignment, value, True
        self.stalls = 0 if improved else self.stalls + 1
        return schedules, checks

    def respond(self, text: str, *, one_shot: bool = False, aware: bool = False) -> DecisionTurn:
        """Read the optimization agent's message, check its schedules, and answer (or stop)."""
        schedules, checks = self.see(text)
        maximal = any(c.get("maximal") == "Y" for c in checks)
        if maximal:
            return self._end(StopReason.SATISFIED, checks, schedules, self._say("closing", "satisfied"))
        if self.turns >= self.max_turns:
            self.stop = StopReason.TURN_LIMIT
            return DecisionTurn("", checks, schedules, StopReason.TURN_LIMIT)
        if self.turns > 0 and self.stalls > self.patience:
            return self._end(StopReason.ENDED, checks, schedules, self._say("closing", "stalled"))
        latest = self.latest if self.options else (schedules[-1] if schedules else None)
        words = self._request(latest, checks[-1] if checks else None, one_shot=one_shot, aware=aware)
        if self.turns == 0:
            words = self._say("opening", self.profile.utility.role) + " " + words
        self.turns += 1
        return DecisionTurn(words, checks, schedules)

    def _end(self, reason: StopReason, checks: list, schedules: list, words: str) -> DecisionTurn:
        self.turns += 1
        self.stop = reason
        return DecisionTurn(words, checks, schedules, reason)

    def _unmet(self, assignment: tuple[int, ...] | None, check: dict[str, Any] | None) -> list[str]:
        """Goal items the latest proposal misses, most heavily weighted first."""
        u, d = self.profile.utility, self.district
        f1_goal, f2_goal, f3_goal = self.goal
        if assignment is None:
            return []
        f1, f2, f3 = u.items(d, assignment)
        misses = []
        if f1 < f1_goal - TOL:
            misses.append(("school", u.w1))
        if f2_goal and not f2:
            misses.append(("load", u.w2))
        if f3_goal and not f3:
            misses.append(("deviation", u.w3))
        return [m for m, _ in sorted(misses, key=lambda m: -m[1])]

    def _request(
        self, assignment: tuple[int, ...] | None, check: dict[str, Any] | None, *, one_shot: bool, aware: bool
    ) -> str:
        u = self.profile.utility
        style = self.profile.style.value
        if aware:
            unmet = ["school", "load", "deviation"]
            unmet = [m for m, g in zip(unmet, self._goal_flags(), strict=True) if g]
        elif one_shot:
            unmet = ["school"]
        else:
            unmet = self._unmet(assignment, check)
        if assignment is None and not one_shot and not aware:
            self.asked += 1
            return self._say(style, "loosen" if self.asked % 2 else "options")
        if not unmet:
            return self._say(style, "options")
        if not (one_shot or aware) and self.options:
            k, value = max(self.options, key=lambda kv: (kv[1], -kv[0]))
            now = u.value(self.district, self.latest) if self.latest is not None else -1.0
            if value > now + 1e-9:
                self.last_ask = ["adopt"]
                return self._say("choice", "adopt", k=k)
        if not (one_shot or aware) and self.stalls > 0 and self.last_ask:
            if self.last_ask[0] in unmet and len(unmet) > 1:
                unmet = [m for m in unmet if m not in self.last_ask] + [
                    m for m in unmet if m in self.last_ask
                ]
            elif set(unmet) <= set(self.last_ask) and self.last_ask != ["options"]:
                self.last_ask = ["options"]
                return self._say(style, "options")
            elif set(unmet) <= set(self.last_ask) or self.last_ask == ["options"]:
                relax = self._relaxable(assignment)
                if relax is not None and self.last_ask != [f"loosen_{relax}"]:
                    self.last_ask = [f"loosen_{relax}"]
                    return self._say(
                        style,
                        f"loosen_{relax}",
                        students=f"{u.max_load * 100:,.0f}",
                        minutes=f"{u.max_deviation:g}",
                    )
        if self.profile.feedback is Feedback.BINARY and not (one_shot or aware):
            unmet = unmet[:1]
        self.last_ask = list(unmet)
        parts = []
        for item in unmet:
            if item == "school":
                parts.append(self._school_phrase(assignment))
            elif item == "load":
                parts.append(self._say(style, "load", students=f"{u.max_load * 100:,.0f}"))
            else:
                parts.append(self._say(style, "deviation", minutes=f"{u.max_deviation:g}"))
        return " ".join(p for p in parts if p)

    def _relaxable(self, assignment: tuple[int, ...] | None) -> str | None:
        """A met (or unwanted) objective whose limit the agent can give up some room on."""
        if assignment is None:
            return None
        _, f2, f3 = self.profile.utility.items(self.district, assignment)
        _, g2, g3 = self.goal
        if f2 or not g2:
            return "load"
        if f3 or not g3:
            return "deviation"
        return None

    def _goal_flags(self) -> tuple[bool, bool, bool]:
        f1_goal, f2_goal, f3_goal = self.goal
        return (f1_goal > 0, bool(f2_goal), bool(f3_goal))

    def _goal_slot(self) -> int:
        values = slot_values(self.profile.utility.direction, len(self.district.start_times))
        return values.index(self.goal[0])

    def _school_phrase(self, assignment: tuple[int, ...] | None) -> str:
        u, d = self.profile.utility, self.district
        goal = self._goal_slot()
        q = d.school_index(u.school)
        now = assignment[q] if assignment is not None else None
        if self.profile.style is Style.PRECISE or now is None:
            if self.profile.style is Style.VAGUE:
                return self._say("vague", u.direction.value, school=u.school)
            return self._say("precise", u.direction.value, school=u.school, time=d.time_labels[goal])
        if now == goal:
            return ""
        return self._say("vague", "earlier" if goal < now else "later", school=u.school)
