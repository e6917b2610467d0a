"""The editable part of the schedule model: objective weights and stakeholder constraints, in order.

`ModelState` is immutable; tools produce a new state per edit, so proposals can remember the
exact model that produced them and "undo" is a diff between two states.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, replace

from core.errors import SpecError
from solvers.schedule.data import District, format_time, parse_time
from solvers.schedule.diagnose import InfeasibilityReport
from solvers.schedule.model import (
    DEVIATION,
    LOAD,
    OBJECTIVES,
    ScheduleResult,
    ScheduleSpec,
    bound_name,
    fix_name,
    forbid_name,
)


@dataclass(frozen=True)
class Constraint:
    """One stakeholder constraint: a fix or forbid of a school's start, or an objective upper bound."""

    kind: str
    school: str | None = None
    minutes: int | None = None
    objective: str | None = None
    value: float | None = None

    def __post_init__(self) -> None:
        if self.kind in ("fix", "forbid"):
            if self.school is None or self.minutes is None:
                raise SpecError("constraint", f"a {self.kind} needs a school and a start time")
        elif self.kind == "bound":
            if self.objective not in OBJECTIVES or self.value is None or not math.isfinite(self.value):
                raise SpecError("constraint", "an upper bound needs a known objective and a finite value")
        else:
            raise SpecError("kind", f"unknown constraint kind {self.kind!r}")

    @property
    def name(self) -> str:
        if self.kind == "fix":
            return fix_name(self.school, self.minutes)  # type: ignore[arg-type]
        if self.kind == "forbid":
            return forbid_name(self.school, self.minutes)  # type: ignore[arg-type]
        return bound_name(self.objective)  # type: ignore[arg-type]

    @property
    def meaning(self) -> str:
        if self.kind == "fix":
            return f"{self.school} must start at {format_time(self.minutes)}"  # type: ignore[arg-type]
        if self.kind == "forbid":
            return f"{self.school} must not start at {format_time(self.minutes)}"  # type: ignore[arg-type]
        if self.objective == LOAD:
            return f"peak load at most {self.value:g} ({round(self.value * 100):,} students)"  # type: ignore[operator]
        return f"average change from current start at most {self.value:g} minutes"


@dataclass(frozen=True)
class ModelState:
    """Weights alpha (load) and beta (deviation) plus the ordered stakeholder constraints."""

    alpha: float = 1.0
    beta: float = 1.0
    constraints: tuple[Constraint, ...] = ()

    def weight(self, objective: str) -> float:
        return self.alpha if objective == LOAD else self.beta

    def with_weight(self, objective: str, weight: float) -> ModelState:
        return replace(self, alpha=weight) if objective == LOAD else replace(self, beta=weight)

    def names(self) -> list[str]:
        return [c.name for c in self.constraints]

    def key(self) -> tuple[float, float, frozenset[Constraint]]:
        """The model this state describes, ignoring the order in which constraints were added."""
        return (self.alpha, self.beta, frozenset(self.constraints))

    def same_model(self, other: ModelState) -> bool:
        return self.key() == other.key()

    def without(self, names: set[str]) -> ModelState:
        return replace(self, constraints=tuple(c for c in self.constraints if c.name not in names))

    def find(self, name: str) -> Constraint | None:
        return next((c for c in self.constraints if c.name == name), None)

    def bound(self, objective: str) -> float | None:
        found = next((c for c in self.constraints if c.kind == "bound" and c.objective == objective), None)
        return None if found is None else found.value

    def to_spec(self, district: District, time_limit: float = 10.0) -> ScheduleSpec:
        return ScheduleSpec(
            district,
            alpha=self.alpha,
            beta=self.beta,
            fixed=tuple((c.school, c.minutes) for c in self.constraints if c.kind == "fix"),  # type: ignore[misc]
            forbidden=tuple((c.school, c.minutes) for c in self.constraints if c.kind == "forbid"),  # type: ignore[misc]
            max_load=self.bound(LOAD),
            max_deviation=self.bound(DEVIATION),
            time_limit=time_limit,
        )


_GRADE_WORDS = {
    "pk",
    "hs",
    "ms",
    "es",
    "k8",
    "k-8",
    "k-5",
    "school",
    "high",
    "middle",
    "elementary",
    "center",
    "dr",
    "the",
}
_COMMON_WORDS = {"training", "centre", "academy", "early", "education", "community", "international"}
"""Words of a school's name too common to name it alone ('staff training')."""


def _without_parens(text: str) -> str:
    """The text without its parenthesised parts and the spaces before them ('muir (john) pk' -> 'muir pk')."""
    while (start := text.find("(")) >= 0 and (end := text.find(")", start)) >= 0:
        text = text[:start].rstrip() + text[end + 1 :]
    return text


def _person(low: str) -> tuple[str, str] | None:
    """(surname, given names) of a name that starts 'surname (given)': 'muir (john) pk' -> ('muir', 'john')."""
    start = low.find(" (")
    end = low.find(")", start + 2)
    first = low[:start]
    if start < 2 or end < 0 or _name_words(first) != [first]:
        return None
    return first, low[start + 2 : end]


def _name_words(text: str, *, letters_only: bool = False) -> list[str]:
    """The words of a lower-cased name: a letter then letters, apostrophes or hyphens (two characters at least),
    or with `letters_only` runs of letters."""
    inner = "abcdefghijklmnopqrstuvwxyz" + ("" if letters_only else "'-")
    words, i = [], 0
    while i < len(text):
        if "a" <= text[i] <= "z":
            j = i + 1
            while j < len(text) and text[j] in inner:
                j += 1
            if letters_only or j - i >= 2:
                words.append(text[i:j])
            i = j
        else:
            i += 1
    return words


def school_aliases(district: District) -> dict[str, str]:
    """Lower-case alias -> school name: full names, names without parentheses, distinctive words."""
    aliases: dict[str, str] = {}
    word_owner: dict[str, set[str]] = {}
    for name in district.names:
        low = name.lower()
        aliases[low] = name
        aliases[_without_parens(low).strip()] = name
        person = _person(low)  # 'Muir (John) PK': John Muir, not any John
        given = set(_name_words(person[1])) if person else set()
        for word in given - _GRADE_WORDS:
            aliases[f"{word} {person[0]}"] = name  # type: ignore[index]
        for word in _name_words(low):
            if len(word) >= 4 and word not in _GRADE_WORDS | _COMMON_WORDS and word not in given:
                word_owner.setdefault(word, set()).add(name)
    for word, owners in word_owner.items():
        if len(owners) == 1 and word not in aliases:
            aliases[word] = next(iter(owners))
    for name in district.names:  # 'TTC' for Transition Training Center
        words = _name_words(_without_parens(name.lower()), letters_only=True)
        initials = "".join(w[0] for w in words)
        if len(initials) >= 3 and initials not in aliases:
            aliases[initials] = name
    return aliases


def resolve_school(district: District, text: str) -> str:
    """Exact or unambiguous fuzzy school name; SpecError with suggestions and the valid names otherwise."""
    low = text.strip().lower()
    aliases = school_aliases(district)
    if low in aliases:
        return aliases[low]
    containing = {name for alias, name in aliases.items() if len(low) >= 4 and (low in alias or alias in low)}
    if len(containing) == 1:
        return containing.pop()
    close = difflib.get_close_matches(low, list(aliases), n=3, cutoff=0.6)
    suggestions = sorted({aliases[c] for c in close} | containing)
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    raise SpecError("school", f"unknown school {text!r}.{hint} Valid schools: {', '.join(district.names)}")


def resolve_time(district: District, text: str) -> int:
    """A start-time option given as '8:40 AM', '8:40' or '840'; SpecError naming the options otherwise."""
    raw = text.strip()
    if len(raw) in (3, 4) and raw.isascii() and raw.isdigit():
        raw = f"{raw[:-2]}:{raw[-2:]}"
    try:
        minutes = parse_time(raw, "time")
    except SpecError:
        raise SpecError(
            "time", f"{text!r} is not a time; valid start times: {', '.join(district.time_labels)}"
        ) from None
    if (
        minutes not in district.start_times
        and minutes < 12 * 60
        and minutes + 12 * 60 in district.start_times
    ):
        minutes += 12 * 60
    if minutes not in district.start_times:
        nearest = min(district.start_times, key=lambda t: abs(t - minutes))
        raise SpecError(
            "time",
            f"{format_time(minutes)} is not a start-time option (nearest: {format_time(nearest)}); "
            f"valid start times: {', '.join(district.time_labels)}",
        )
    return minutes


@dataclass(frozen=True)
class Proposal:
    """A solved schedule together with the model state that produced it."""

    number: int
    state: ModelState
    result: ScheduleResult


@dataclass(frozen=True)
class Attempt:
    """The latest call_solver: its state, result and (if infeasible) the diagnosis."""

    state: ModelState
    result: ScheduleResult
    report: InfeasibilityReport | None = None
