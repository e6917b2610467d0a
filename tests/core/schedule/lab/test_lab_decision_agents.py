"""check_utility, schedule reading, the offline decision agents' three stopping criteria, and scoring."""

from __future__ import annotations

import pytest

from core.schedule.lab.conversation import Paradigm
from core.schedule.lab.decision_agents import (
    DecisionProfile,
    Feedback,
    OfflineDecisionAgent,
    StopReason,
    Style,
    check_utility,
    read_schedules,
)
from core.schedule.lab.optimization_agents import TPPAgent
from core.schedule.processing import markdown_schedule
from solvers.schedule.data import sfusd_district
from solvers.schedule.utility import Direction, Utility, sfusd_space
from tests.support.schedule_lab import converse

DISTRICT = sfusd_district()
BASE = (2, 2, 2, 0, 1, 0, 0, 1, 1, 2)
# Appendix 10.3's Ortega parent: U* = 0.748 (deviation + load met, Ortega at 9:30)
ORTEGA = Utility("t1", "Ortega (Jose) PK", Direction.EARLIER, 0.252, 0.332, 0.416, 25.0, 11.5, u_star=0.748)


def times(assignment: tuple[int, ...]) -> dict[str, str]:
    return {n: DISTRICT.time_labels[a] for n, a in zip(DISTRICT.names, assignment, strict=True)}


def test_check_utility_binary_and_rich() -> None:
    binary = DecisionProfile(ORTEGA, Style.VAGUE, Feedback.BINARY)
    rich = DecisionProfile(ORTEGA, Style.VAGUE, Feedback.RICH)
    assert check_utility(binary, times(BASE)) == {"maximal": "N"}
    out = check_utility(rich, times(BASE))
    assert out["utility"] == pytest.approx(0.416)
    assert out["max_utility"] == pytest.approx(0.748)
    assert out["maximal"] == "N"
    assert out["satisfied"] == ["average change at most 11.5 minutes"]
    assert "2,565" in out["hint"] and "2,500" in out["hint"]
    values = ORTEGA.values(sfusd_space())
    best_row = int(values.argmax())
    best = tuple(int(a) for a in sfusd_space().assignments[best_row])
    assert check_utility(binary, times(best)) == {"maximal": "Y"}
    assert check_utility(rich, times(best))["utility"] == pytest.approx(0.748)


def test_check_utility_bad_input_is_an_error_result() -> None:
    profile = DecisionProfile(ORTEGA, Style.PRECISE, Feedback.RICH)
    bad = times(BASE) | {"Everett MS": "10:00 AM"}
    assert check_utility(profile, bad)["field"] == "start_times"
    missing = dict(times(BASE))
    missing.pop("Balboa HS")
    assert "Balboa HS" in check_utility(profile, missing)["error"]


def test_read_schedules_from_tables_and_change_lists() -> None:
    text = markdown_schedule(DISTRICT, BASE) + "\n\nmore\n\n" + markdown_schedule(DISTRICT, (0,) * 10)
    assert read_schedules(DISTRICT, text) == [BASE, (0,) * 10]
    options = "**Option 1**: peak 19.87. Changes: Everett MS 7:50 AM -> 8:40 AM; Cobb (Dr William L) ES 8:40 AM -> 7:50 AM."
    changed = list(BASE)
    changed[6], changed[8] = 1, 0
    assert read_schedules(DISTRICT, options, BASE) == [tuple(changed)]
    assert read_schedules(DISTRICT, "no schedule here") == []


class Stubborn:
    """An optimization agent that always shows the base proposal (never improves)."""

    name = "stubborn"
    solver_calls = 0

    def opening(self) -> str:
        return markdown_schedule(DISTRICT, BASE)

    def respond(self, text: str) -> str:
        self.solver_calls += 1
        return markdown_schedule(DISTRICT, BASE)


def test_stop_on_turn_limit_and_on_end() -> None:
    profile = DecisionProfile(ORTEGA, Style.PRECISE, Feedback.BINARY)
    patient = OfflineDecisionAgent(profile, max_turns=5, patience=99)
    result = converse(profile, Stubborn(), decision=patient)
    assert result.stop is StopReason.TURN_LIMIT and result.turns == 5
    assert result.score == pytest.approx(0.416 / 0.748)
    assert not result.success
    impatient = OfflineDecisionAgent(profile, max_turns=20, patience=2)
    result = converse(profile, Stubborn(), decision=impatient)
    assert result.stop is StopReason.ENDED
    assert result.transcript[-1]["content"].endswith("__END__")
    assert result.turns == 4


@pytest.mark.parametrize("style", list(Style))
def test_stop_when_satisfied_with_the_offline_tpp(style: Style) -> None:
    profile = DecisionProfile(ORTEGA, style, Feedback.RICH)
    result = converse(profile, TPPAgent.offline())
    assert result.stop is StopReason.SATISFIED
    assert result.success and result.score == pytest.approx(1.0)
    assert result.solver_calls >= 2
    assert ORTEGA.value(
        DISTRICT, tuple(DISTRICT.time_labels.index(result.best_schedule[n]) for n in DISTRICT.names)
    ) == pytest.approx(0.748)


def test_one_shot_paradigms_send_one_message() -> None:
    profile = DecisionProfile(ORTEGA, Style.PRECISE, Feedback.RICH)
    default = converse(profile, TPPAgent.offline(), paradigm=Paradigm.DEFAULT)
    assert default.turns == 0 and default.score == pytest.approx(0.416 / 0.748)
    for paradigm in (Paradigm.ONE_SHOT, Paradigm.AWARE_ONE_SHOT):
        result = converse(profile, TPPAgent.offline(), paradigm=paradigm)
        assert result.turns == 1
        assert [m["role"] for m in result.transcript if m["role"] != "check"] == [
            "optimizer",
            "decision",
            "optimizer",
        ]
    aware = converse(profile, TPPAgent.offline(), paradigm=Paradigm.AWARE_ONE_SHOT)
    assert aware.success  # all preferences stated precisely in one message
