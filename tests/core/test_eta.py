"""The time left of a long task (`core/eta.py`) and of a running experiment (`core.ui.experiment_eta`)."""

from datetime import datetime, timedelta

from core.eta import Pace, eta_text
from core.ui import experiment_eta


def test_eta_text_reads_in_seconds_minutes_and_hours():
    assert [eta_text(s) for s in (None, 0.2, 40.4, 185, 3900)] == [
        "", "about 1 s left", "about 40 s left", "about 3 min left", "about 1 h 5 min left"]  # fmt: skip


def test_pace_estimates_the_time_left_from_the_pace_so_far():
    now = [100.0]
    pace = Pace(clock=lambda: now[0])
    now[0] = 100.5
    assert pace.left_s(0.5) is None  # too early to say
    now[0] = 120.0
    assert pace.left_s(0.01) is None  # too little done
    assert pace.left_s(0.25) == 60.0  # 20 s for a quarter: 60 s for the rest
    assert pace.left_s(1.0) is None
    assert pace.text("Simulating", 0.25) == "Simulating · about 1 min left"
    assert pace.text("Simulating", 0.0) == "Simulating"


def test_experiment_eta_from_the_cells_finished_since_it_was_created():
    created = datetime(2026, 11, 27, 12, 0, 0)
    info = {"done": 3, "failed": 1, "cells": 12, "created_at": created}
    assert experiment_eta(info, now=created + timedelta(seconds=40)) == "about 1 min left"  # 10 s a cell, 8 left
    assert experiment_eta({**info, "done": 0, "failed": 0}, now=created) == ""
    assert experiment_eta({**info, "done": 11}, now=created) == ""


def test_the_school_scheduling_frontier_bar_says_at_most_its_budget_left():
    from core.schedule.opening import Progress, Stage

    assert Progress(Stage.FRONTIER, 0.5, 12.0, 18.4).text.endswith("(12.0 s) · at most 18 s left")
    assert "left" not in Progress(Stage.SOLVING, 0.1, 1.0).text  # the solve has no bound to give
